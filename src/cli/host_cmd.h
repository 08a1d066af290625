/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BPFBENCH_HOST_CMD_H
#define BPFBENCH_HOST_CMD_H

#include "opts.h"

/* `bpfbench host show|tune|reset`: the host's state that moves figures (kernel/host.h). */
int host_cmd(int argc, char **argv);
/* Its options as --help, completion and the docs show them (show's; tune and reset take none). */
extern const struct opt_def host_opts[];

#endif
