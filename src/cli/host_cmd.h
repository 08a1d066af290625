/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BPFBENCH_HOST_CMD_H
#define BPFBENCH_HOST_CMD_H

/* `bpfbench host show|tune|reset`: the host's state that moves figures (kernel/host.h). */
int host_cmd(int argc, char **argv);

#endif
