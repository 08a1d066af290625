/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Change points of a series by E-divisive means (Matteson and James, "A
 * Nonparametric Approach for Multiple Change Point Analysis of
 * Multivariate Data", JASA 109(505), 2014), with its permutation test of
 * significance, as Apache Otava (formerly Hunter, Fleming et al., ICPE
 * 2023) applies it to benchmark history.  Our own code; no database here.
 */
#ifndef BPFBENCH_CHANGES_H
#define BPFBENCH_CHANGES_H

#include <stdint.h>

/*
 * A change point's p-value must be at most this: on 30 points of 2% iid
 * noise, a 5% step is found within a point in 92% of series and a
 * step-free series gets one in 1.2% (tests/unit/changes_test.c, 1,000
 * series each; least squares, which knows there is one step, finds 93%).
 */
#define ED_ALPHA	0.02
#define ED_PERMUTATIONS	199	/* (1 + k) / 200: the smallest p-value is 0.005 */
#define ED_EXPONENT	1.5	/* of the distances: see changes.c */
#define ED_MIN_SIZE	3	/* points on each side of a split, at least */

struct ed_opts {
	double alpha;
	int permutations;
	int min_size;
	uint64_t seed;		/* the permutations' generator: the same series, the same answer */
};

struct ed_cp {
	int at;		/* the first point after the change */
	double p;	/* the permutation test's p-value when it was accepted */
	double q;	/* the divergence statistic Q at the split */
};

/* Defaults above; seed from the series' identity, so reruns agree. */
void ed_opts_default(struct ed_opts *o);
/* The change points of x[0..n), in order of position: their count (at most max). */
int ed_changes(const double *x, int n, const struct ed_opts *o, struct ed_cp *out, int max);
/* A 64-bit FNV-1a of a string: a seed from a series' name. */
uint64_t ed_seed(const char *s);

#endif
