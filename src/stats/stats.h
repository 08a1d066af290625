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
/* The p quantile of Student's t (0 < p < 1, df > 0; df may be INFINITY: the normal). */
double stats_t_quantile(double p, double df);

/*
 * Two-sided p-value of Welch's unequal-variance t-test comparing the means
 * of a[] and b[]. Returns 1.0 when either side has n < 2 or both variances
 * are 0 and the means are equal; returns 0.0 when both variances are 0 and
 * the means differ.
 */
double stats_welch_p(const double *a, int na, const double *b, int nb);

/* Student t CDF, via the regularized incomplete beta function. */
double stats_t_cdf(double t, double df);

double stats_mean(const double *v, int n);	/* NAN when n <= 0 */

/* Lag-1 autocorrelation of v (0 when n < 3 or v is constant). */
double stats_lag1(const double *v, int n);
/*
 * How many batches a serially correlated series should be cut into for
 * batch means: floor(sqrt(n)), fewer when its lag-1 correlation says the
 * samples stay correlated for longer than a batch (1 when n is too short).
 */
int stats_batch_count(const double *v, int n);
/*
 * Batch means: b contiguous batches of near-equal size (b <= n), their
 * means in out[].  Batches that outlast the correlation are close to
 * independent, so a test over them is not overconfident.  Returns b.
 */
int stats_batch_means(const double *v, int n, int b, double *out);

/* An estimate with its standard error, Welch-Satterthwaite df and a confidence interval. */
struct stats_interval {
	double est, lo, hi;
	double se;	/* of est; for a ratio, of log(est) */
	double df;	/* INFINITY when both variances are 0 */
};

/* mean(b) - mean(a) with a Welch interval at level conf (0.95). -1 when a side has n < 2. */
int stats_diff_ci(const double *a, int na, const double *b, int nb, double conf,
		  struct stats_interval *out);
/*
 * mean(b) / mean(a) with an interval at level conf, from the delta method
 * on the log scale: always within (0, inf).  -1 when a side has n < 2 or a
 * mean that is not positive.
 */
int stats_ratio_ci(const double *a, int na, const double *b, int nb, double conf,
		   struct stats_interval *out);
/*
 * One more run's value `one` against the mean of n runs, one / mean(runs),
 * with an interval at level conf: the one run is taken to vary as each of
 * the n does (their variance, n - 1 degrees of freedom), so that a single
 * run can be compared with a baseline of several.  -1 when n < 2 or a
 * value is not positive.
 */
int stats_ratio_ci_one(const double *runs, int n, double one, double conf,
		       struct stats_interval *out);
/*
 * Interval at level conf for a positive mean (a rate, a time) on the log
 * scale, mean * exp(+-t sd / mean / sqrt(n)): it never reaches zero.
 * -1 when n < 2 or the mean is not positive.
 */
int stats_positive_ci(double mean, double stddev, int n, double conf, double *lo, double *hi);

/*
 * Smallest true difference a two-sided test at level alpha detects with
 * the given power (0.8), for an estimate with standard error se and df
 * degrees of freedom: (t(1 - alpha/2) + t(power)) * se.
 */
double stats_mde(double se, double df, double alpha, double power);

/*
 * Two-sided p of the Mann-Whitney U (Wilcoxon rank-sum) test: exact when
 * there are no ties and both sides have at most STATS_MWU_EXACT_MAX values,
 * otherwise the normal approximation with tie and continuity corrections
 * (as scipy's mannwhitneyu).  1.0 when a side is empty.
 */
#define STATS_MWU_EXACT_MAX	20
double stats_mann_whitney_p(const double *a, int na, const double *b, int nb);

/*
 * Paired tests (src/stats_paired.c) on n pairs (a[k], b[k]) taken side by
 * side: a one-sample t interval at level conf on log(b/a) (the estimate
 * and bounds returned as ratios, the geometric mean of the pairs' ratios;
 * se of the mean log; -1 when n < 2 or a value is not positive), or on
 * b - a.  p: the t-test's two-sided p; p_rank: Wilcoxon's signed-rank p.
 */
int stats_paired_ratio_ci(const double *a, const double *b, int n, double conf,
			  struct stats_interval *out, double *p, double *p_rank);
int stats_paired_diff_ci(const double *a, const double *b, int n, double conf,
			 struct stats_interval *out, double *p, double *p_rank);
/* Two-sided p of Wilcoxon's signed-rank test on d (zeros dropped); exact to this many, untied. */
#define STATS_SR_EXACT_MAX	50
double stats_signed_rank_p(const double *d, int n);

/*
 * mean(b) / mean(a) of two short, serially correlated series (too short
 * for batch means, at least 3 values a side): Welch on the log scale with
 * each side's variance of the mean inflated as an AR(1)'s, (1 + r) / (1 - r),
 * and its df cut to the effective values.  r: the series' pooled lag-1
 * correlation with its short-series bias added back, at least r_floor
 * (what so few values cannot rule out), at most STATS_SHORT_MAX_R; the r
 * used in *r_used.  -1 when a side has < 3 values or a mean not positive.
 */
#define STATS_SHORT_MAX_R	0.9
#define STATS_SHORT_MIN_DF	0.5
int stats_short_ratio_ci(const double *a, int na, const double *b, int nb, double r_floor,
			 double conf, struct stats_interval *out, double *p, double *r_used);

/*
 * The factor that raises a sample standard deviation on df degrees of
 * freedom to its one-sided upper bound at confidence 1 - q (q = 0.1: the
 * 90% bound), sqrt(df / chi2_q(df)), the chi-square quantile by
 * Wilson-Hilferty.  A sequential rule that stops when an interval is
 * narrow enough stops early on the draws whose spread came out small;
 * judged with this bound instead, it keeps its interval's coverage.
 */
double stats_sd_upper_factor(double df, double q);

/*
 * Stein's two stages, for a paired CI to reach +-target (%): after n0
 * pairs whose CI reached +-reach (%), the pairs to take in all, from the
 * spread's 95% upper bound (stats_sd_upper_factor) and the 1/sqrt(n) law,
 * and at least STATS_STAGE2_MIN more.  Decided once, from the first stage
 * alone, the number of pairs does not follow the draws the way a stop at
 * the first narrow CI does (which stops where the spread came out small
 * and leaves the test overconfident); the pairs after the first stage
 * dilute what choosing from it left (calibration, AR(1) r 0.9: CI
 * coverage 91.4% with none more, 93.5% with 3).
 */
#define STATS_STAGE2_MIN	3
/* The paired CI of b/a over n pairs (stats_paired_ratio_ci): its half-width in %, INFINITY if none. */
double stats_paired_reach(const double *a, const double *b, int n);
int stats_pairs_needed(double reach, int n0, double target);

enum stats_adjust { STATS_ADJUST_HOLM, STATS_ADJUST_BH, STATS_ADJUST_NONE };
/*
 * Multiplicity-adjusted p-values, as R's p.adjust: Holm's step-down
 * (family-wise error) or Benjamini-Hochberg's step-up (false discovery
 * rate).  out may not alias p.
 */
void stats_p_adjust(const double *p, int n, enum stats_adjust method, double *out);

#endif /* BPFBENCH_STATS_H */
