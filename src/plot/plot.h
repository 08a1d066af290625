/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BPFBENCH_PLOT_H
#define BPFBENCH_PLOT_H

#include "opts.h"

/* bpfbench plot FILE.json -o OUT.svg|OUT.png [--x PARAM] [--metric NAME[,NAME...]] [--cdf] */
int plot_cmd(int argc, char **argv);
/* Its options as --help, completion and the docs show them (its parser takes these names). */
extern const struct opt_def plot_opts[];

#endif
