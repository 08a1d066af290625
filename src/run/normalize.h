/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --normalize: beside the run's first metric, the same figure per whole
 * CPU its producers had, "<name>-normalized": a rate divided by the
 * producers' mean on-CPU share in the sample, a time per op multiplied
 * by it (a share below 5% counts as 5%; without schedstat the figure is
 * left as it is).  What a CPU hog beside the benchmark, or the other half of an
 * oversubscribed pair, takes from the producers' time then no longer
 * moves the figure (doc/variance.md: the rows where that cuts the
 * spread).  Never the kernel bench's figure: the first metric and the
 * Summary line stay as they are.
 */
#ifndef BPFBENCH_NORMALIZE_H
#define BPFBENCH_NORMALIZE_H

#include "noise.h"

struct run_result;

/* Adds the normalized metric where the first one is a rate or a time: its index, or -1. */
int normalize_add(struct run_result *res);
/* Fills the normalized value (index m) of a sample from its first metric; nprod producers. */
void normalize_sample(const struct run_result *res, int m, int nprod, const struct noise_sample *ns,
		      double *vals);

#endif
