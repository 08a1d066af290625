/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BPFBENCH_AB_H
#define BPFBENCH_AB_H

#include "opts.h"

#define AB_DEFAULT_PAIRS	5	/* >= 3: a paired test has a few degrees of freedom */
#define AB_MAX_PAIRS		1000
#define AB_MAX_DURATION		300	/* --precision's default bound, s */

/* bpfbench ab "ARGS A" "ARGS B" [...]: interleaved runs and compare's verdict. */
int ab_cmd(int argc, char **argv);

/* ab's own options as --help and the docs show them (ab_help.c); then compare's verdicts'. */
extern const struct opt_def ab_opts[];
void ab_help(void);

#endif
