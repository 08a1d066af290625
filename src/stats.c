// SPDX-License-Identifier: GPL-2.0
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "stats.h"

/*
 * Beyond this many degrees of freedom the t distribution is within ~1e-7
 * of the normal one, while the continued fraction below needs on the order
 * of sqrt(df) iterations; switch to the normal CDF instead.
 */
#define T_NORMAL_DF	1e7
#define BETA_EPS	1e-15
#define BETA_TINY	1e-300
#define BETA_MAXIT	100000

/* Two-pass mean and sample variance: avoids the cancellation of sum(x^2). */
static void mean_var(const double *v, int n, double *mean, double *var)
{
	double m = 0.0, ss = 0.0, d;
	int i;

	for (i = 0; i < n; i++)
		m += v[i];
	m /= n;
	for (i = 0; i < n; i++) {
		d = v[i] - m;
		ss += d * d;
	}
	*mean = m;
	*var = n > 1 ? ss / (n - 1) : 0.0;
}

static int cmp_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return (a > b) - (a < b);
}

/*
 * k-th smallest (0-based) of v without a scratch copy: O(n^2), only used
 * when malloc fails, so that the median stays exact rather than guessed.
 */
static double kth_nocopy(const double *v, int n, int k)
{
	int i, j, less, leq;

	for (i = 0; i < n; i++) {
		less = leq = 0;
		for (j = 0; j < n; j++) {
			less += v[j] < v[i];
			leq += v[j] <= v[i];
		}
		if (less <= k && k < leq)
			return v[i];
	}
	return v[0];	/* only reachable with NaNs in v */
}

static double median(const double *v, int n)
{
	double *s, m;

	s = malloc(sizeof(*s) * (size_t)n);
	if (!s) {
		if (n % 2)
			return kth_nocopy(v, n, n / 2);
		return (kth_nocopy(v, n, n / 2 - 1) + kth_nocopy(v, n, n / 2)) / 2.0;
	}
	memcpy(s, v, sizeof(*s) * (size_t)n);
	qsort(s, (size_t)n, sizeof(*s), cmp_double);
	m = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2.0;
	free(s);
	return m;
}

void stats_compute(const double *v, int n, struct stats *out)
{
	double var;
	int i;

	memset(out, 0, sizeof(*out));
	if (n <= 0)
		return;
	out->n = n;
	mean_var(v, n, &out->mean, &var);
	out->stddev = sqrt(var);
	out->min = out->max = v[0];
	for (i = 1; i < n; i++) {
		if (v[i] < out->min)
			out->min = v[i];
		if (v[i] > out->max)
			out->max = v[i];
	}
	out->median = median(v, n);
	if (out->mean != 0.0)
		out->cv = out->stddev / fabs(out->mean);
	if (n > 1)
		out->ci95_half = stats_t975(n - 1) * out->stddev / sqrt(n);
	out->ci95_low = out->mean - out->ci95_half;
	out->ci95_high = out->mean + out->ci95_half;
}

/*
 * Continued fraction for the regularized incomplete beta I_x(a, b),
 * evaluated with the modified Lentz method. Converges quickly only for
 * x < (a + 1) / (a + b + 2); the caller uses the symmetry relation otherwise.
 */
/* One step of Lentz's method: folds coefficient num into c and d, returns the factor. */
static double lentz_step(double num, double *c, double *d)
{
	*d = 1.0 + num * *d;
	if (fabs(*d) < BETA_TINY)
		*d = BETA_TINY;
	*c = 1.0 + num / *c;
	if (fabs(*c) < BETA_TINY)
		*c = BETA_TINY;
	*d = 1.0 / *d;
	return *d * *c;
}

static double beta_cf(double a, double b, double x)
{
	double c = 1.0, d, f, num, delta;
	int m, m2;

	d = 1.0 - (a + b) * x / (a + 1.0);
	if (fabs(d) < BETA_TINY)
		d = BETA_TINY;
	d = 1.0 / d;
	f = d;
	for (m = 1; m <= BETA_MAXIT; m++) {
		m2 = 2 * m;
		/* even term d_{2m} */
		num = m * (b - m) * x / ((a + m2 - 1.0) * (a + m2));
		f *= lentz_step(num, &c, &d);
		/* odd term d_{2m+1} */
		num = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1.0));
		delta = lentz_step(num, &c, &d);
		f *= delta;
		if (fabs(delta - 1.0) < BETA_EPS)
			break;
	}
	return f;
}

/* Regularized incomplete beta function I_x(a, b) for a, b > 0. */
static double ibeta(double a, double b, double x)
{
	double lfront;

	if (x <= 0.0)
		return 0.0;
	if (x >= 1.0)
		return 1.0;
	/* x^a (1-x)^b / B(a, b), in logs so that large df cannot overflow */
	lfront = a * log(x) + b * log1p(-x) + lgamma(a + b) - lgamma(a) - lgamma(b);
	if (x < (a + 1.0) / (a + b + 2.0))
		return exp(lfront) * beta_cf(a, b, x) / a;
	return 1.0 - exp(lfront) * beta_cf(b, a, 1.0 - x) / b;
}

/*
 * P(|T| > |t|) for T ~ t(df). Computed directly rather than as
 * 2 * (1 - cdf) so that tiny p-values keep their relative precision.
 */
static double t_two_tail(double t, double df)
{
	if (isnan(t) || isnan(df))
		return NAN;
	if (isinf(t))
		return 0.0;
	if (df > T_NORMAL_DF)
		return erfc(fabs(t) / sqrt(2.0));
	return ibeta(df / 2.0, 0.5, df / (df + t * t));
}

double stats_t_cdf(double t, double df)
{
	double tail;

	if (t == 0.0)
		return 0.5;
	tail = t_two_tail(t, df) / 2.0;
	return t > 0.0 ? 1.0 - tail : tail;
}

/*
 * Inverts the CDF by bisection: slower than a closed-form approximation but
 * accurate for every df, including the small fractional ones Welch gives.
 */
double stats_t975(double df)
{
	double lo = 0.0, hi = 2.0, mid;
	int i;

	if (!(df > 0.0))
		return NAN;
	while (t_two_tail(hi, df) > 0.05 && hi < 1e300)
		hi *= 2.0;
	for (i = 0; i < 200 && hi - lo > 1e-13 * hi; i++) {
		mid = (lo + hi) / 2.0;
		if (t_two_tail(mid, df) > 0.05)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2.0;
}

double stats_welch_p(const double *a, int na, const double *b, int nb)
{
	double ma, va, mb, vb, sa, sb, se2, t, df, p;

	if (na < 2 || nb < 2)
		return 1.0;
	mean_var(a, na, &ma, &va);
	mean_var(b, nb, &mb, &vb);
	sa = va / na;
	sb = vb / nb;
	se2 = sa + sb;
	if (se2 == 0.0)
		return ma == mb ? 1.0 : 0.0;
	t = (ma - mb) / sqrt(se2);
	/* Welch-Satterthwaite approximation of the degrees of freedom */
	df = se2 * se2 / (sa * sa / (na - 1) + sb * sb / (nb - 1));
	p = t_two_tail(t, df);
	if (p < 0.0)
		return 0.0;
	return p > 1.0 ? 1.0 : p;
}
