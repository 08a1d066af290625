/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BPFBENCH_PROFILE_CMD_H
#define BPFBENCH_PROFILE_CMD_H

#include "opts.h"

/*
 * `bpfbench profile [options] -- CMD ARGS...` and `bpfbench profile
 * --diff A.folded B.folded`; argv[0] is "profile".  Returns the exit code.
 */
int profile_cmd(int argc, char **argv);
/* Its options as --help, completion and the docs show them. */
extern const struct opt_def profile_opts[];

#endif
