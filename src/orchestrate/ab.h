/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BPFBENCH_AB_H
#define BPFBENCH_AB_H

/* bpfbench ab "ARGS A" "ARGS B" [...]: interleaved runs and compare's verdict. */
int ab_cmd(int argc, char **argv);

#endif
