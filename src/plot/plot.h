/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BPFBENCH_PLOT_H
#define BPFBENCH_PLOT_H

/* bpfbench plot FILE.json -o OUT.svg|OUT.png [--x PARAM] [--metric NAME[,NAME...]] [--cdf] */
int plot_cmd(int argc, char **argv);

#endif
