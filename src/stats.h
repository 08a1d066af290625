/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BPFBENCH_STATS_H
#define BPFBENCH_STATS_H

struct stats {
	int n;
	double mean, stddev;	/* stddev: sample (n-1) standard deviation; 0 when n < 2 */
	double median, min, max;
	double cv;		/* stddev / |mean|; 0 when mean == 0 */
	double ci95_half;	/* half-width of the 95% confidence interval of the mean, Student t with n-1 df; 0 when n < 2 */
	double ci95_low, ci95_high;
};

/* Computes all fields over v[0..n-1]; n == 0 gives all-zero stats. Does not modify v. */
void stats_compute(const double *v, int n, struct stats *out);

/*
 * Two-sided 97.5% quantile of Student's t with df degrees of freedom
 * (df >= 1), e.g. df=1 -> 12.706, df=4 -> 2.776, df=30 -> 2.042,
 * large -> 1.960.
 */
double stats_t975(double df);

/*
 * Two-sided p-value of Welch's unequal-variance t-test comparing the means
 * of a[] and b[]. Returns 1.0 when either side has n < 2 or both variances
 * are 0 and the means are equal; returns 0.0 when both variances are 0 and
 * the means differ.
 */
double stats_welch_p(const double *a, int na, const double *b, int nb);

/* Student t CDF, via the regularized incomplete beta function. */
double stats_t_cdf(double t, double df);

#endif /* BPFBENCH_STATS_H */
