// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for src/stats/stats.c. Prints TAP; exits 1 if any test fails.
 * Reference values were computed by hand (shown in comments) and
 * cross-checked with python3's statistics module plus a Simpson-rule
 * integration of the t density, independent of the C implementation.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "stats.h"

#define ARRAY_SIZE(a)	((int)(sizeof(a) / sizeof((a)[0])))

static int test_no;
static int failures;

static void report(int ok, const char *desc, double got, double want)
{
	test_no++;
	if (ok) {
		printf("ok %d - %s\n", test_no, desc);
		return;
	}
	failures++;
	printf("not ok %d - %s # got %.10g want %.10g\n", test_no, desc, got, want);
}

/* Relative tolerance; an absolute floor lets exact zeros be compared. */
static void check_close(double got, double want, double rtol, const char *desc)
{
	double tol = rtol * fabs(want);

	if (tol < 1e-12)
		tol = 1e-12;
	report(fabs(got - want) <= tol, desc, got, want);
}

static void check_less(double got, double bound, const char *desc)
{
	report(got < bound, desc, got, bound);
}

static void test_known_vector(void)
{
	/*
	 * {2,4,4,4,5,5,7,9}: sum 40, mean 5.
	 * Squared deviations 9+1+1+1+0+0+4+16 = 32; sample var 32/7.
	 * sd = sqrt(32/7) = 2.138089935. Sorted middle pair 4,5 -> median 4.5.
	 * cv = 2.138089935 / 5 = 0.427617987.
	 */
	double v[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	double copy[ARRAY_SIZE(v)];
	struct stats s;

	memcpy(copy, v, sizeof(v));
	stats_compute(v, ARRAY_SIZE(v), &s);
	report(s.n == 8, "known vector: n", s.n, 8);
	check_close(s.mean, 5.0, 1e-12, "known vector: mean");
	check_close(s.stddev, 2.138089935, 1e-9, "known vector: sample stddev");
	check_close(s.median, 4.5, 1e-12, "known vector: even-count median");
	check_close(s.min, 2.0, 1e-12, "known vector: min");
	check_close(s.max, 9.0, 1e-12, "known vector: max");
	check_close(s.cv, 0.427617987, 1e-8, "known vector: cv");
	report(!memcmp(v, copy, sizeof(v)), "known vector: input not modified", 0, 0);
}

static void test_negative_mean_cv(void)
{
	/* Mirror of the known vector: mean -5, cv uses |mean| -> 0.427617987. */
	double v[] = { -2, -4, -4, -4, -5, -5, -7, -9 };
	struct stats s;

	stats_compute(v, ARRAY_SIZE(v), &s);
	check_close(s.cv, 0.427617987, 1e-8, "negative mean: cv positive");
	check_close(s.median, -4.5, 1e-12, "negative mean: median");
}

static void test_zero_mean_cv(void)
{
	/* {-1,1}: mean 0 -> cv defined as 0; sd = sqrt(2/1) = 1.414213562. */
	double v[] = { -1, 1 };
	struct stats s;

	stats_compute(v, ARRAY_SIZE(v), &s);
	check_close(s.cv, 0.0, 0, "zero mean: cv is 0");
	check_close(s.stddev, 1.414213562, 1e-9, "zero mean: stddev");
}

static void test_single(void)
{
	double v[] = { 3.5 };
	struct stats s;

	stats_compute(v, 1, &s);
	report(s.n == 1, "single: n", s.n, 1);
	check_close(s.mean, 3.5, 1e-12, "single: mean");
	check_close(s.median, 3.5, 1e-12, "single: median");
	check_close(s.min, 3.5, 1e-12, "single: min");
	check_close(s.max, 3.5, 1e-12, "single: max");
	check_close(s.stddev, 0.0, 0, "single: stddev 0");
	check_close(s.ci95_half, 0.0, 0, "single: ci half 0");
	check_close(s.ci95_low, 3.5, 1e-12, "single: ci low = mean");
	check_close(s.ci95_high, 3.5, 1e-12, "single: ci high = mean");
}

static void test_empty(void)
{
	struct stats s, zero;

	memset(&s, 0xab, sizeof(s));
	memset(&zero, 0, sizeof(zero));
	stats_compute(NULL, 0, &s);
	report(!memcmp(&s, &zero, sizeof(s)), "n=0: all-zero stats", s.mean, 0);
}

static void test_constant(void)
{
	double v[] = { 7, 7, 7, 7 };
	struct stats s;

	stats_compute(v, ARRAY_SIZE(v), &s);
	check_close(s.mean, 7.0, 1e-12, "constant: mean");
	check_close(s.stddev, 0.0, 0, "constant: stddev 0");
	check_close(s.cv, 0.0, 0, "constant: cv 0");
	check_close(s.ci95_half, 0.0, 0, "constant: ci half 0");
}

static void test_odd_median(void)
{
	/* Unsorted {9,1,5,3,7}: sorted 1,3,5,7,9 -> median 5. */
	double v[] = { 9, 1, 5, 3, 7 };
	struct stats s;

	stats_compute(v, ARRAY_SIZE(v), &s);
	check_close(s.median, 5.0, 1e-12, "odd-length median");
	check_close(v[0], 9.0, 0, "odd-length median: input not sorted in place");
}

static void test_ci95(void)
{
	/*
	 * {1,2,3,4,5}: mean 3, squared deviations 4+1+0+1+4 = 10,
	 * var 10/4 = 2.5, sd 1.5811388. t975(4) = 2.776445.
	 * half = 2.776445 * 1.5811388 / sqrt(5) = 1.963243.
	 */
	double v[] = { 1, 2, 3, 4, 5 };
	struct stats s;

	stats_compute(v, ARRAY_SIZE(v), &s);
	check_close(s.mean, 3.0, 1e-12, "ci95: mean");
	check_close(s.stddev, 1.5811388, 1e-7, "ci95: stddev");
	check_close(s.ci95_half, 1.963243, 1e-6, "ci95: half-width");
	check_close(s.ci95_low, 3.0 - 1.963243, 1e-6, "ci95: low");
	check_close(s.ci95_high, 3.0 + 1.963243, 1e-6, "ci95: high");
}

static void test_t975(void)
{
	/*
	 * df=1 is Cauchy: tan(0.475 pi) = 12.706205.
	 * df=2: F(t) = 1/2 + t / (2 sqrt(2 + t^2)) = 0.975 gives
	 * t^2 = 0.9025 * 2 / 0.0975 = 18.51282, t = 4.302653.
	 * Others from tables (and numeric integration): df=4 2.776445,
	 * 5 2.570582, 10 2.228139, 30 2.042272, 100 1.983972,
	 * 1e6 1.959966 (normal: 1.959964).
	 */
	static const struct {
		double df, want;
		const char *desc;
	} cases[] = {
		{ 1, 12.706205, "t975 df=1" },
		{ 2, 4.302653, "t975 df=2" },
		{ 4, 2.776445, "t975 df=4" },
		{ 5, 2.570582, "t975 df=5" },
		{ 10, 2.228139, "t975 df=10" },
		{ 30, 2.042272, "t975 df=30" },
		{ 100, 1.983972, "t975 df=100" },
		{ 1e6, 1.959966, "t975 df=1e6" },
		{ 1e9, 1.959964, "t975 df=1e9 (normal limit)" },
	};
	int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++)
		check_close(stats_t975(cases[i].df), cases[i].want, 1e-6,
			    cases[i].desc);
}

static void test_t_cdf(void)
{
	/*
	 * df=1: F(t) = 1/2 + atan(t)/pi, so F(1) = 0.75.
	 * df=2: F(1) = 1/2 + 1 / (2 sqrt(3)) = 0.7886751346.
	 * df=3, t=2: 0.93033702 and df=7.5, t=-1.5: 0.08724029
	 * (Simpson integration of the t density in python3).
	 */
	check_close(stats_t_cdf(0, 1), 0.5, 1e-15, "t_cdf(0, 1) == 0.5");
	check_close(stats_t_cdf(0, 7.3), 0.5, 1e-15, "t_cdf(0, 7.3) == 0.5");
	check_close(stats_t_cdf(0, 1e8), 0.5, 1e-15, "t_cdf(0, 1e8) == 0.5");
	check_close(stats_t_cdf(1, 1), 0.75, 1e-10, "t_cdf(1, 1) Cauchy");
	check_close(stats_t_cdf(1, 2), 0.7886751346, 1e-9, "t_cdf(1, 2) closed form");
	check_close(stats_t_cdf(2, 3), 0.93033702, 1e-7, "t_cdf(2, 3)");
	check_close(stats_t_cdf(-1.5, 7.5), 0.08724029, 1e-6, "t_cdf(-1.5, 7.5)");
	check_close(stats_t_cdf(-2.3, 6) + stats_t_cdf(2.3, 6), 1.0, 1e-12,
		    "t_cdf symmetry F(-t) + F(t) = 1");
	check_close(stats_t_cdf(-40, 3) + stats_t_cdf(40, 3), 1.0, 1e-12,
		    "t_cdf symmetry far tail");
}

static void test_welch(void)
{
	double a[] = { 19.8, 20.4, 19.6, 17.8, 18.5, 18.9, 18.3, 18.9, 19.5, 22.0 };
	double b[] = { 28.2, 26.6, 20.1, 23.3, 25.2, 22.1, 17.7, 27.6, 20.6, 13.7,
		       23.2, 17.5, 20.6, 18.0, 23.9, 21.6, 24.3, 20.4, 23.9, 13.3 };
	double lo[] = { 1, 2, 3, 4, 5 };
	double hi[] = { 101, 102, 103, 104, 105 };
	double c1[] = { 4, 4, 4 }, c2[] = { 5, 5, 5 };

	/*
	 * a: mean 19.37, var 1.449; b: mean 21.59, var 17.003053 (python3
	 * statistics). se^2 = 1.449/10 + 17.003053/20 = 0.1449 + 0.8501526
	 * = 0.9950526; t = (19.37 - 21.59) / sqrt(0.9950526) = -2.225512,
	 * Welch-Satterthwaite df = 24.524635, two-sided p = 0.035485
	 * (Simpson-integrated t density).
	 */
	check_close(stats_welch_p(a, ARRAY_SIZE(a), b, ARRAY_SIZE(b)), 0.035485,
		    1e-3, "welch_p known value");
	check_close(stats_welch_p(b, ARRAY_SIZE(b), a, ARRAY_SIZE(a)), 0.035485,
		    1e-3, "welch_p known value, swapped");
	check_close(stats_welch_p(a, ARRAY_SIZE(a), a, ARRAY_SIZE(a)), 1.0,
		    1e-12, "welch_p identical samples ~ 1");
	/* means differ by 100, se = 1, t = -100, df = 8 */
	check_less(stats_welch_p(lo, 5, hi, 5), 1e-3, "welch_p clearly different < 0.001");
	check_close(stats_welch_p(a, 1, b, ARRAY_SIZE(b)), 1.0, 0, "welch_p n<2 -> 1");
	check_close(stats_welch_p(c1, 3, c1, 3), 1.0, 0, "welch_p zero variance, equal means -> 1");
	check_close(stats_welch_p(c1, 3, c2, 3), 0.0, 0, "welch_p zero variance, different means -> 0");
}

static void test_t_quantile(void)
{
	/* scipy.stats.t.ppf and norm.ppf */
	check_close(stats_t_quantile(0.8, 10), 0.8790578285505841, 1e-9, "t_quantile(0.8, 10)");
	/* scipy's own ppf is off by 3e-9 here: its cdf at that point is 0.90000000036 */
	check_close(stats_t_quantile(0.1, 3), -1.6377443572159065, 1e-8, "t_quantile(0.1, 3)");
	check_close(stats_t_quantile(0.995, 2.5), 7.16372813402124, 1e-9, "t_quantile(0.995, 2.5)");
	check_close(stats_t_quantile(0.8, INFINITY), 0.8416212335729143, 1e-9,
		    "t_quantile(0.8, inf) is the normal's");
	check_close(stats_t_quantile(0.5, 4), 0.0, 0, "t_quantile(0.5) is 0");
	report(isnan(stats_t_quantile(1.0, 4)), "t_quantile(1) is NaN", stats_t_quantile(1.0, 4), NAN);
}

static void test_mann_whitney(void)
{
	double a[] = { 19.8, 20.4, 19.6, 17.8, 18.5, 18.9, 18.3, 18.9, 19.5, 22.0 };
	double b[] = { 28.2, 26.6, 20.1, 23.3, 25.2, 22.1, 17.7, 27.6, 20.6, 13.7,
		       23.2, 17.5, 20.6, 18.0, 23.9, 21.6, 24.3, 20.4, 23.9, 13.3 };
	double x[] = { 1.1, 2.3, 3.5, 4.2 }, y[] = { 5.0, 6.1, 2.9, 7.7, 8.4 };
	double x3[] = { 1, 2, 3 }, y3[] = { 4, 5, 6 };
	double t1[] = { 1, 1, 2, 2, 3, 3, 3 }, t2[] = { 2, 3, 3, 4, 4, 5 };
	double u[15], v[15], big1[30], big2[25], same[4] = { 2, 2, 2, 2 };
	int i;

	for (i = 0; i < 15; i++) {
		u[i] = 0.5 * i;
		v[i] = 0.5 * (i + 3) + 0.26;
	}
	for (i = 0; i < 30; i++)
		big1[i] = i / 29.0;	/* numpy.linspace(0, 1, 30) */
	for (i = 0; i < 25; i++)
		big2[i] = 0.2 + i / 24.0;
	/* scipy.stats.mannwhitneyu(..., alternative="two-sided"), method as noted */
	check_close(stats_mann_whitney_p(a, ARRAY_SIZE(a), b, ARRAY_SIZE(b)), 0.05279379552204588,
		    1e-9, "mann-whitney: ties, normal approximation");
	check_close(stats_mann_whitney_p(b, ARRAY_SIZE(b), a, ARRAY_SIZE(a)), 0.05279379552204588,
		    1e-9, "mann-whitney: symmetric in its sides");
	check_close(stats_mann_whitney_p(x, 4, y, 5), 0.06349206349206349, 1e-12,
		    "mann-whitney: exact, 4 vs 5");
	check_close(stats_mann_whitney_p(x3, 3, y3, 3), 0.1, 1e-12,
		    "mann-whitney: exact, 3 vs 3 (the smallest p it can give)");
	check_close(stats_mann_whitney_p(u, 15, v, 15), 0.05552963972090322, 1e-10,
		    "mann-whitney: exact, 15 vs 15");
	check_close(stats_mann_whitney_p(t1, 7, t2, 6), 0.04535219143280889, 1e-9,
		    "mann-whitney: heavy ties");
	check_close(stats_mann_whitney_p(big1, 30, big2, 25), 0.027394321633979014, 1e-9,
		    "mann-whitney: 30 vs 25, normal approximation");
	check_close(stats_mann_whitney_p(same, 4, same, 4), 1.0, 0, "mann-whitney: all tied -> 1");
	check_close(stats_mann_whitney_p(x, 0, y, 5), 1.0, 0, "mann-whitney: an empty side -> 1");
}

static void test_paired(void)
{
	double up[] = { 1, 2, 3, 4, 5, 6 }, one_down[] = { -1, 2, 3, 4, 5, 6 };
	double zeros[] = { 0, 0, 1, -1 }, a[] = { 100, 200, 50 }, b[3], c[3];
	double d[] = { 0.1, 0.2, 0.3 }, p, pr;
	struct stats_interval r;
	int i;

	/* exact: 1/64 of the sign patterns give W+ = 21 (and 21 - 21 = 0) */
	check_close(stats_signed_rank_p(up, 6), 2.0 / 64, 1e-12, "signed-rank: exact, all up");
	check_close(stats_signed_rank_p(one_down, 6), 4.0 / 64, 1e-12,
		    "signed-rank: exact, the smallest rank down");
	check_close(stats_signed_rank_p(zeros, 2), 1.0, 0, "signed-rank: zeros dropped -> 1");
	check_close(stats_signed_rank_p(zeros + 2, 2), 1.0, 1e-12, "signed-rank: one up, one down");
	/* log ratios 0.1, 0.2, 0.3: mean 0.2, se 0.1 / sqrt(3), t 3.4641 on 2 df */
	for (i = 0; i < 3; i++) {
		b[i] = a[i] * exp(d[i]);
		c[i] = a[i] * 0.95;
	}
	stats_paired_ratio_ci(a, b, 3, 0.95, &r, &p, &pr);
	check_close(r.est, 1.2214027581601699, 1e-12, "paired ratio: the geometric mean of ratios");
	check_close(r.lo, 0.9527394893706003, 1e-6, "paired ratio: lower bound, t on 2 df");
	check_close(r.hi, 1.5658264554844905, 1e-6, "paired ratio: upper bound");
	check_close(p, 0.07417990022744858, 1e-6, "paired ratio: t-test p");
	stats_paired_ratio_ci(a, c, 3, 0.95, &r, &p, &pr);
	check_close(r.lo, 0.95, 1e-12, "paired ratio: one ratio in every pair, no spread");
	check_close(p, 0, 0, "paired ratio: no spread, p 0");
	report(stats_paired_ratio_ci(a, c, 1, 0.95, &r, &p, &pr) == -1, "paired ratio: 1 pair, none",
	       0, -1);
}

/*
 * One run (80) against five (mean 100, variance 5): se(log) = sqrt(5 / 100^2
 * (1/5 + 1)), 4 degrees of freedom, t(0.975, 4) = 2.7764451051977987.
 */
static void test_ratio_one(void)
{
	double runs[] = { 100, 97, 103, 99, 101 }, c[] = { 5, 5, 5 };
	struct stats_interval r;

	report(!stats_ratio_ci_one(runs, 5, 80, 0.95, &r), "one vs runs: defined", 0, 0);
	check_close(r.est, 0.8, 1e-12, "one vs runs: estimate");
	check_close(r.se, 0.02449489742783178, 1e-12, "one vs runs: se of the log");
	report(r.df == 4, "one vs runs: n - 1 degrees of freedom", r.df, 4);
	check_close(r.lo, 0.7474018479866914, 1e-8, "one vs runs: low");
	check_close(r.hi, 0.8562997291537287, 1e-8, "one vs runs: high");
	report(stats_ratio_ci_one(runs, 1, 80, 0.95, &r) == -1, "one vs runs: one run -> -1", 0, 0);
	report(stats_ratio_ci_one(runs, 5, 0, 0.95, &r) == -1, "one vs runs: a value 0 -> -1", 0, 0);
	report(!stats_ratio_ci_one(c, 3, 5, 0.95, &r) && r.lo == 1.0 && r.hi == 1.0 &&
	       isinf(r.df), "one vs runs: constant runs, the same value -> [1, 1]", r.lo, 1.0);
}

static void test_intervals(void)
{
	double a[] = { 19.8, 20.4, 19.6, 17.8, 18.5, 18.9, 18.3, 18.9, 19.5, 22.0 };
	double b[] = { 28.2, 26.6, 20.1, 23.3, 25.2, 22.1, 17.7, 27.6, 20.6, 13.7,
		       23.2, 17.5, 20.6, 18.0, 23.9, 21.6, 24.3, 20.4, 23.9, 13.3 };
	double neg[] = { -3, 1, 1 }, c[] = { 5, 5, 5 };
	struct stats_interval r;
	double lo, hi;

	/*
	 * Ratio by the delta method in numpy: se(log r)^2 = var(a)/(na ma^2)
	 * + var(b)/(nb mb^2), Satterthwaite df on those, r exp(+-t se).
	 */
	report(!stats_ratio_ci(a, 10, b, 20, 0.95, &r), "ratio ci: defined", 0, 0);
	check_close(r.est, 1.1146102219927723, 1e-12, "ratio ci: estimate");
	check_close(r.lo, 1.0118464180624367, 1e-8, "ratio ci: low");
	check_close(r.hi, 1.227810787085394, 1e-8, "ratio ci: high");
	check_close(r.se, 0.04701125104810776, 1e-10, "ratio ci: se of the log");
	check_close(r.df, 25.485907910950143, 1e-9, "ratio ci: df");
	report(stats_ratio_ci(neg, 3, a, 10, 0.95, &r) == -1, "ratio ci: a mean <= 0 -> -1", 0, 0);
	report(!stats_ratio_ci(c, 3, c, 3, 0.95, &r) && r.lo == 1.0 && r.hi == 1.0,
	       "ratio ci: constant sides -> [1, 1]", r.lo, 1.0);
	/* Welch: matches scipy.stats.ttest_ind(equal_var=False) df and se */
	report(!stats_diff_ci(a, 10, b, 20, 0.95, &r), "diff ci: defined", 0, 0);
	check_close(r.est, 2.22, 1e-12, "diff ci: estimate");
	check_close(r.lo, 0.16354134987944713, 1e-8, "diff ci: low");
	check_close(r.hi, 4.276458650120551, 1e-9, "diff ci: high");
	check_close(r.df, 24.524634944257343, 1e-9, "diff ci: Welch df");
	/* 10 exp(-+t(0.975, 4) 2 / 10 / sqrt 5) */
	report(!stats_positive_ci(10, 2, 5, 0.95, &lo, &hi), "positive ci: defined", 0, 0);
	check_close(lo, 7.801002829790767, 1e-9, "positive ci: low");
	check_close(hi, 12.818864725714006, 1e-9, "positive ci: high");
	/* the linear interval would be 1 -+ 7.45: this one stays above zero */
	report(!stats_positive_ci(1, 3, 3, 0.95, &lo, &hi) && lo > 0,
	       "positive ci: a wide spread stays above zero", lo, 0.0005800402063511933);
	check_close(lo, 0.0005800402063511933, 1e-6, "positive ci: wide spread, low");
	report(stats_positive_ci(0, 1, 5, 0.95, &lo, &hi) == -1, "positive ci: mean 0 -> -1", 0, 0);
	test_ratio_one();
}

static void test_mde(void)
{
	/* (t.ppf(0.975, 12) + t.ppf(0.8, 12)) * 0.5; normal: 1.959964 + 0.841621 */
	check_close(stats_mde(0.5, 12, 0.05, 0.8), 1.5257110606257775, 1e-9, "mde: df 12");
	check_close(stats_mde(1.0, INFINITY, 0.05, 0.8), 2.8015852181129683, 1e-9,
		    "mde: normal limit");
	check_close(stats_mde(0.0, 3, 0.05, 0.8), 0.0, 0, "mde: no spread, no width");
}

static void test_batch_means(void)
{
	double v[10] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 }, sq[16], out[10];
	double alt[100], blocks[100], trend[100];
	int i, nb;

	/* 10 in 3 batches [0,3) [3,6) [6,10): means 2, 5, 8.5 */
	nb = stats_batch_means(v, 10, 3, out);
	report(nb == 3, "batch means: 3 batches", nb, 3);
	check_close(out[0], 2.0, 1e-12, "batch means: first");
	check_close(out[1], 5.0, 1e-12, "batch means: second");
	check_close(out[2], 8.5, 1e-12, "batch means: last takes the remainder");
	for (i = 0; i < 16; i++)
		sq[i] = i;
	nb = stats_batch_means(sq, 16, 4, out);
	report(nb == 4 && out[3] == 13.5, "batch means: 16 in 4 of 4", nb, 4);
	report(stats_batch_means(v, 3, 5, out) == 3, "batch means: no more batches than values",
	       0, 0);
	report(stats_batch_means(v, 0, 2, out) == 0, "batch means: none", 0, 0);
	/*
	 * Lag-1 autocorrelation.  {1..5}: deviations -2..2, sum of products
	 * 2 + 0 + 0 + 2 = 4 over the sum of squares 10 = 0.4.  Blocks of ten
	 * 0s and ten 1s: deviations +-0.5, 9 changes in 99 steps, so
	 * (90 - 9) * 0.25 / (100 * 0.25) = 0.81 (numpy agrees).
	 */
	check_close(stats_lag1(v, 5), 0.4, 1e-12, "lag1 of 1..5");
	for (i = 0; i < 100; i++) {
		alt[i] = i % 2 ? 1 : -1;
		blocks[i] = (i / 10) % 2;
		trend[i] = i;
	}
	check_close(stats_lag1(blocks, 100), 0.81, 1e-12, "lag1 of blocks of ten");
	/* no correlation: floor(sqrt(100)) = 10 batches */
	nb = stats_batch_count(alt, 100);
	report(nb == 10, "batch count: uncorrelated -> sqrt(n)", nb, 10);
	/* r 0.81 + 1/100 -> tau 10.1, batches of at least 31: 100 / 31 = 3 */
	nb = stats_batch_count(blocks, 100);
	report(nb == 3, "batch count: correlated -> longer batches", nb, 3);
	/* a trend: r capped at 0.95, tau 39: one batch, nothing to test */
	nb = stats_batch_count(trend, 100);
	report(nb == 1, "batch count: a trend -> one batch", nb, 1);
	nb = stats_batch_count(v, 5);
	report(nb == 1, "batch count: 5 samples are too few", nb, 1);
}

static void test_p_adjust(void)
{
	/*
	 * By hand (R's p.adjust).  Holm, sorted .01 .02 .03 .04 .05 times
	 * 5 4 3 2 1 = .05 .08 .09 .08 .05, running max .05 .08 .09 .09 .09.
	 * BH, times 5/1 5/2 5/3 5/4 5/5 = .05 each.  Shuffled input keeps
	 * each value's place.  p = (.04, .001, .3, .02): Holm .001*4 = .004,
	 * .02*3 = .06, .04*2 = .08, .3; BH from the top: .3, min(.3, .04*4/3
	 * = .0533), min(., .02*2 = .04), .001*4 = .004.
	 */
	double p[] = { 0.03, 0.01, 0.05, 0.02, 0.04 }, q[] = { 0.04, 0.001, 0.3, 0.02 };
	double holm[] = { 0.09, 0.05, 0.09, 0.08, 0.09 }, out[5];
	double qh[] = { 0.08, 0.004, 0.3, 0.06 }, qb[] = { 0.04 * 4 / 3.0, 0.004, 0.3, 0.04 };
	int i;

	stats_p_adjust(p, 5, STATS_ADJUST_HOLM, out);
	for (i = 0; i < 5; i++)
		check_close(out[i], holm[i], 1e-12, "holm: five p-values");
	stats_p_adjust(p, 5, STATS_ADJUST_BH, out);
	for (i = 0; i < 5; i++)
		check_close(out[i], 0.05, 1e-12, "bh: five p-values");
	stats_p_adjust(q, 4, STATS_ADJUST_HOLM, out);
	for (i = 0; i < 4; i++)
		check_close(out[i], qh[i], 1e-12, "holm: four p-values");
	stats_p_adjust(q, 4, STATS_ADJUST_BH, out);
	for (i = 0; i < 4; i++)
		check_close(out[i], qb[i], 1e-12, "bh: four p-values");
	stats_p_adjust(q, 4, STATS_ADJUST_NONE, out);
	report(!memcmp(out, q, sizeof(q)), "no adjustment: unchanged", out[0], q[0]);
	out[0] = 0;
	stats_p_adjust(q, 1, STATS_ADJUST_HOLM, out);
	check_close(out[0], 0.04, 1e-12, "holm: a single p-value is unchanged");
}

int main(void)
{
	test_known_vector();
	test_negative_mean_cv();
	test_zero_mean_cv();
	test_single();
	test_empty();
	test_constant();
	test_odd_median();
	test_ci95();
	test_t975();
	test_t_cdf();
	test_welch();
	test_t_quantile();
	test_mann_whitney();
	test_paired();
	test_intervals();
	test_mde();
	test_batch_means();
	test_p_adjust();
	printf("1..%d\n", test_no);
	return failures ? 1 : 0;
}
