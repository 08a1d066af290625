/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BPFBENCH_PROBE_CMD_H
#define BPFBENCH_PROBE_CMD_H

/* `bpfbench probe [--json]`; argv[0] is "probe".  Returns the exit code. */
int probe_cmd(int argc, char **argv);

#endif
