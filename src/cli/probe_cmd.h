/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BPFBENCH_PROBE_CMD_H
#define BPFBENCH_PROBE_CMD_H

#include "opts.h"

/* `bpfbench probe [--json]`; argv[0] is "probe".  Returns the exit code. */
int probe_cmd(int argc, char **argv);
/* Its options as --help, completion and the docs show them. */
extern const struct opt_def probe_opts[];

#endif
