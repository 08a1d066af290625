// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for src/stats.c. Prints TAP; exits 1 if any test fails.
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

int main(void)
{
	printf("1..58\n");
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
	if (test_no != 58) {
		printf("# planned 58 tests, ran %d\n", test_no);
		return 1;
	}
	return failures ? 1 : 0;
}
