/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --normalize: beside the run's first metric, "<name>-normalized": the
 * figure per whole CPU its producers had, at the reference's nominal
 * speed.  A rate is divided by the producers' mean on-CPU share in the
 * sample (a share below 5% counts as 5%; without schedstat, 1) and
 * multiplied by how much slower than NORMALIZE_REF_US the speed
 * reference's empty BPF program ran on their CPUs after it (--normalize
 * turns --speed-ref on); a time per op the other way round.  What a CPU
 * hog beside the benchmark takes from the producers' time, and the
 * phases in which this VM's vCPUs run syscalls and BPF programs up to
 * 1.5 times slower, then move the figure less (doc/variance.md: by how
 * much, row by row).  Never the kernel bench's figure: the first metric
 * and the Summary line stay as they are.
 */
#ifndef BPFBENCH_NORMALIZE_H
#define BPFBENCH_NORMALIZE_H

#include "noise.h"

/*
 * The reference's nominal time, us: its empty program's test-run calls
 * on the reference VM's vCPUs in a fast phase (12.4-12.8 us, 2026-12-06).
 * Only a scale: normalized figures are compared with each other.
 */
#define NORMALIZE_REF_US	12.5

struct run_result;

/* Adds the normalized metric where the first one is a rate or a time: its index, or -1. */
int normalize_add(struct run_result *res);
/* Fills the normalized value (index m) of a sample from its first metric; nprod producers. */
void normalize_sample(const struct run_result *res, int m, int nprod, const struct noise_sample *ns,
		      double *vals);

#endif
