// SPDX-License-Identifier: GPL-2.0
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "stats.h"
#include "util.h"

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
 * Inverts the CDF by bisection on the upper tail: slower than a closed-form
 * approximation but accurate for every df, including the small fractional
 * ones Welch gives.
 */
double stats_t_quantile(double p, double df)
{
	double lo = 0.0, hi = 2.0, mid, tail;
	int i;

	if (!(df > 0.0) || !(p > 0.0 && p < 1.0))
		return NAN;
	if (p == 0.5)
		return 0.0;
	if (p < 0.5)
		return -stats_t_quantile(1.0 - p, df);
	tail = 2.0 * (1.0 - p);	/* two-sided tail mass beyond the quantile */
	while (t_two_tail(hi, df) > tail && hi < 1e300)
		hi *= 2.0;
	for (i = 0; i < 200 && hi - lo > 1e-13 * hi; i++) {
		mid = (lo + hi) / 2.0;
		if (t_two_tail(mid, df) > tail)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2.0;
}

double stats_t975(double df)
{
	return stats_t_quantile(0.975, df);
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

double stats_mean(const double *v, int n)
{
	double m, var;

	if (n <= 0)
		return NAN;
	mean_var(v, n, &m, &var);
	return m;
}

double stats_lag1(const double *v, int n)
{
	double m, var, num = 0.0, den = 0.0;
	int i;

	if (n < 3)
		return 0.0;
	mean_var(v, n, &m, &var);
	for (i = 0; i < n; i++) {
		den += (v[i] - m) * (v[i] - m);
		if (i)
			num += (v[i] - m) * (v[i - 1] - m);
	}
	return den > 0.0 ? num / den : 0.0;
}

static int isqrt(int n)
{
	int r = (int)sqrt((double)n);

	while ((r + 1) * (r + 1) <= n)	/* sqrt() may round 3.9999 down */
		r++;
	while (r * r > n)
		r--;
	return r;
}

/*
 * floor(sqrt(n)) batches, fewer when the series is correlated for longer:
 * a batch spans at least BATCH_TAUS integrated autocorrelation times of an
 * AR(1) with the series' lag-1 correlation, tau = (1 + r) / (1 - r).  The
 * estimate of r is biased low by about 1/n on short series; that much is
 * added back.  In simulation (AR(1), 10 to 100 samples, r up to 0.8) Welch
 * over these batches keeps its false alarms near alpha, where sqrt(n)
 * batches alone gave up to 17% at r = 0.8.
 */
#define BATCH_TAUS	3.0
#define BATCH_MAX_R	0.95

int stats_batch_count(const double *v, int n)
{
	double r, tau;
	int b, size;

	if (n <= 0)
		return 0;
	b = isqrt(n);
	r = fmin(BATCH_MAX_R, fmax(0.0, stats_lag1(v, n) + 1.0 / n));
	tau = (1.0 + r) / (1.0 - r);
	size = (int)ceil(BATCH_TAUS * tau);
	if ((n + b - 1) / b < size)
		b = n / size;
	return b > 1 ? b : 1;
}

int stats_batch_means(const double *v, int n, int b, double *out)
{
	int i, j, lo, hi;
	double sum;

	if (b > n)
		b = n;
	if (b <= 0)
		return 0;
	/* contiguous batches whose sizes differ by at most one */
	for (i = 0; i < b; i++) {
		lo = (int)((long long)i * n / b);
		hi = (int)((long long)(i + 1) * n / b);
		sum = 0.0;
		for (j = lo; j < hi; j++)
			sum += v[j];
		out[i] = sum / (hi - lo);
	}
	return b;
}

/* Mean and variance of the mean of each side: the two halves of Welch. */
static int welch_parts(const double *a, int na, const double *b, int nb, double *ma,
		       double *sa, double *mb, double *sb)
{
	double va, vb;

	if (na < 2 || nb < 2)
		return -1;
	mean_var(a, na, ma, &va);
	mean_var(b, nb, mb, &vb);
	*sa = va / na;
	*sb = vb / nb;
	return 0;
}

/*
 * Welch-Satterthwaite degrees of freedom of sa + sb, the variances of two
 * means from na and nb values; infinite when both are 0 (the interval
 * then has no width anyway).
 */
static double satterthwaite(double sa, int na, double sb, int nb)
{
	double den = sa * sa / (na - 1) + sb * sb / (nb - 1);

	return den > 0.0 ? (sa + sb) * (sa + sb) / den : INFINITY;
}

int stats_diff_ci(const double *a, int na, const double *b, int nb, double conf,
		  struct stats_interval *out)
{
	double ma, sa, mb, sb, t;

	memset(out, 0, sizeof(*out));
	if (welch_parts(a, na, b, nb, &ma, &sa, &mb, &sb))
		return -1;
	out->est = mb - ma;
	out->se = sqrt(sa + sb);
	out->df = satterthwaite(sa, na, sb, nb);
	t = stats_t_quantile(0.5 + conf / 2.0, out->df);
	out->lo = out->est - t * out->se;
	out->hi = out->est + t * out->se;
	return 0;
}

/*
 * Delta method on the log scale: var(log mb/ma) ~ sb/mb^2 + sa/ma^2, so
 * the interval is a ratio times exp(+-t se): never below zero, and
 * symmetric in the sense that swapping the sides inverts it.
 */
int stats_ratio_ci(const double *a, int na, const double *b, int nb, double conf,
		   struct stats_interval *out)
{
	double ma, sa, mb, sb, ra, rb, t;

	memset(out, 0, sizeof(*out));
	if (welch_parts(a, na, b, nb, &ma, &sa, &mb, &sb) || !(ma > 0.0) || !(mb > 0.0))
		return -1;
	ra = sa / (ma * ma);
	rb = sb / (mb * mb);
	out->est = mb / ma;
	out->se = sqrt(ra + rb);
	out->df = satterthwaite(ra, na, rb, nb);
	t = stats_t_quantile(0.5 + conf / 2.0, out->df);
	out->lo = out->est * exp(-t * out->se);
	out->hi = out->est * exp(t * out->se);
	return 0;
}

int stats_ratio_ci_one(const double *runs, int n, double one, double conf,
		       struct stats_interval *out)
{
	double m, v, t;

	memset(out, 0, sizeof(*out));
	if (n < 2 || !(one > 0.0))
		return -1;
	mean_var(runs, n, &m, &v);
	if (!(m > 0.0))
		return -1;
	out->est = one / m;
	out->se = sqrt(v / (m * m) * (1.0 / n + 1.0));	/* the mean's and the one run's */
	out->df = v > 0.0 ? n - 1 : INFINITY;
	t = stats_t_quantile(0.5 + conf / 2.0, out->df);
	out->lo = out->est * exp(-t * out->se);
	out->hi = out->est * exp(t * out->se);
	return 0;
}

int stats_positive_ci(double mean, double stddev, int n, double conf, double *lo, double *hi)
{
	double t, se;

	if (n < 2 || !(mean > 0.0) || !(stddev >= 0.0))
		return -1;
	t = stats_t_quantile(0.5 + conf / 2.0, n - 1);
	se = stddev / mean / sqrt(n);	/* of log(mean), by the delta method */
	*lo = mean * exp(-t * se);
	*hi = mean * exp(t * se);
	return 0;
}

double stats_mde(double se, double df, double alpha, double power)
{
	if (!(se >= 0.0) || !(df > 0.0))
		return NAN;
	return (stats_t_quantile(1.0 - alpha / 2.0, df) + stats_t_quantile(power, df)) * se;
}

struct ranked {
	double v;
	int side;	/* 0: a, 1: b */
};

static int cmp_ranked(const void *pa, const void *pb)
{
	const struct ranked *a = pa, *b = pb;

	return (a->v > b->v) - (a->v < b->v);
}

/*
 * P(U <= u) for U, the Mann-Whitney count of pairs with a > b, with na and
 * nb values and no ties: every interleaving of the sorted values is equally
 * likely.  f[k][u] counts those of j a's and k b's with statistic u; adding
 * one more a above the k b's adds k.  Counts reach C(40, 20) ~ 1.4e11 at
 * most, exact in a double.
 */
static double mwu_exact_cdf(int na, int nb, double u)
{
	int j, k, x, umax = na * nb, w = umax + 1;
	double *prev = xcalloc((size_t)(nb + 1) * w, sizeof(double));
	double *cur = xcalloc((size_t)(nb + 1) * w, sizeof(double)), *tmp, below = 0, all = 0;

	for (k = 0; k <= nb; k++)
		prev[k * w] = 1.0;	/* j = 0: one arrangement, statistic 0 */
	for (j = 1; j <= na; j++) {
		for (k = 0; k <= nb; k++) {
			for (x = 0; x < w; x++) {
				cur[k * w + x] = x >= k ? prev[k * w + x - k] : 0.0;
				if (k)
					cur[k * w + x] += cur[(k - 1) * w + x];
			}
		}
		tmp = prev;
		prev = cur;
		cur = tmp;
	}
	for (x = 0; x < w; x++) {
		all += prev[nb * w + x];
		if (x <= u)
			below += prev[nb * w + x];
	}
	free(prev);
	free(cur);
	return below / all;
}

/* Mid-ranks in place of the values; returns sum(t^3 - t) over tie groups. */
static double midranks(struct ranked *r, int n)
{
	double ties = 0.0, t;
	int i = 0, j, k;

	qsort(r, (size_t)n, sizeof(*r), cmp_ranked);
	while (i < n) {
		for (j = i + 1; j < n && r[j].v == r[i].v; j++)
			;
		t = j - i;
		ties += t * t * t - t;
		for (k = i; k < j; k++)
			r[k].v = (i + 1 + j) / 2.0;	/* ranks i+1 .. j, 1-based */
		i = j;
	}
	return ties;
}

double stats_mann_whitney_p(const double *a, int na, const double *b, int nb)
{
	struct ranked *r;
	double ties, ra = 0.0, u, mu, var, z, lo, hi, p;
	int i, n = na + nb;

	if (na < 1 || nb < 1)
		return 1.0;
	r = xcalloc((size_t)n, sizeof(*r));
	for (i = 0; i < n; i++) {
		r[i].v = i < na ? a[i] : b[i - na];
		r[i].side = i >= na;
	}
	ties = midranks(r, n);
	for (i = 0; i < n; i++)
		if (!r[i].side)
			ra += r[i].v;
	free(r);
	u = ra - na * (na + 1) / 2.0;
	mu = na * (double)nb / 2.0;
	if (ties == 0.0 && na <= STATS_MWU_EXACT_MAX && nb <= STATS_MWU_EXACT_MAX) {
		lo = mwu_exact_cdf(na, nb, u);
		hi = 1.0 - mwu_exact_cdf(na, nb, u - 1);	/* P(U >= u) */
		p = 2.0 * (lo < hi ? lo : hi);
		return p > 1.0 ? 1.0 : p;
	}
	var = na * (double)nb / 12.0 * ((n + 1) - ties / ((double)n * (n - 1)));
	if (!(var > 0.0))
		return 1.0;	/* every value tied: no evidence either way */
	z = (fabs(u - mu) - 0.5) / sqrt(var);	/* with continuity correction */
	if (z < 0.0)
		return 1.0;
	p = erfc(z / sqrt(2.0));
	return p > 1.0 ? 1.0 : p;
}

struct indexed_p {
	double p;
	int i;
};

static int cmp_indexed_p(const void *pa, const void *pb)
{
	const struct indexed_p *a = pa, *b = pb;

	if (a->p != b->p)
		return (a->p > b->p) - (a->p < b->p);
	return a->i - b->i;
}

/* As R's p.adjust(p, "holm") and p.adjust(p, "BH"). */
void stats_p_adjust(const double *p, int n, enum stats_adjust method, double *out)
{
	struct indexed_p *s;
	double run, v;
	int k;

	if (n <= 0)
		return;
	if (method == STATS_ADJUST_NONE) {
		memcpy(out, p, sizeof(*out) * (size_t)n);
		return;
	}
	s = xcalloc((size_t)n, sizeof(*s));
	for (k = 0; k < n; k++) {
		s[k].p = p[k];
		s[k].i = k;
	}
	qsort(s, (size_t)n, sizeof(*s), cmp_indexed_p);
	if (method == STATS_ADJUST_HOLM) {
		/* step-down: the k-th smallest times (n - k), never below an earlier one */
		for (run = 0.0, k = 0; k < n; k++) {
			v = fmin(1.0, (n - k) * s[k].p);
			run = fmax(run, v);
			out[s[k].i] = run;
		}
	} else {
		/* step-up: the k-th smallest times n / (k + 1), never above a later one */
		for (run = 1.0, k = n - 1; k >= 0; k--) {
			v = fmin(1.0, (double)n / (k + 1) * s[k].p);
			run = fmin(run, v);
			out[s[k].i] = run;
		}
	}
	free(s);
}
