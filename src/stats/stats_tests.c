// SPDX-License-Identifier: GPL-2.0
/*
 * Tests for what Welch over independent values does not fit: pairs
 * measured side by side (ab's adjacent runs), where whatever moved both at
 * once (the machine's drift, a neighbour's load) cancels in each pair's
 * ratio; and short correlated series (one process's few samples).
 */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include "stats.h"
#include "util.h"

/* A one-sample t interval on d[0..n-1]: mean, se, df and the two-sided p of mean 0. */
static int t_interval(const double *d, int n, double conf, struct stats_interval *out, double *p)
{
	struct stats s;
	double t;

	if (n < 2)
		return -1;
	stats_compute(d, n, &s);
	out->est = s.mean;
	out->se = s.stddev / sqrt(n);
	out->df = n - 1;
	if (out->se == 0) {
		out->df = INFINITY;
		out->lo = out->hi = s.mean;
		*p = s.mean == 0 ? 1.0 : 0.0;
		return 0;
	}
	t = stats_t_quantile(0.5 + conf / 2, out->df);
	out->lo = s.mean - t * out->se;
	out->hi = s.mean + t * out->se;
	*p = 2 * (1 - stats_t_cdf(fabs(s.mean) / out->se, out->df));
	return 0;
}

int stats_paired_ratio_ci(const double *a, const double *b, int n, double conf,
			  struct stats_interval *out, double *p, double *p_rank)
{
	double *d = xcalloc((size_t)(n > 0 ? n : 1), sizeof(double));
	int k, ret;

	for (k = 0; k < n; k++) {
		if (!(a[k] > 0) || !(b[k] > 0)) {
			free(d);
			return -1;
		}
		d[k] = log(b[k] / a[k]);
	}
	ret = t_interval(d, n, conf, out, p);
	if (!ret) {
		*p_rank = stats_signed_rank_p(d, n);
		out->est = exp(out->est);	/* the geometric mean of the pairs' ratios */
		out->lo = exp(out->lo);
		out->hi = exp(out->hi);
	}
	free(d);
	return ret;
}

int stats_paired_diff_ci(const double *a, const double *b, int n, double conf,
			 struct stats_interval *out, double *p, double *p_rank)
{
	double *d = xcalloc((size_t)(n > 0 ? n : 1), sizeof(double));
	int k, ret;

	for (k = 0; k < n; k++)
		d[k] = b[k] - a[k];
	ret = t_interval(d, n, conf, out, p);
	if (!ret)
		*p_rank = stats_signed_rank_p(d, n);
	free(d);
	return ret;
}

struct signed_rank {
	double abs;
	bool pos;
};

static int cmp_abs(const void *pa, const void *pb)
{
	const struct signed_rank *a = pa, *b = pb;

	return (a->abs > b->abs) - (a->abs < b->abs);
}

/* P(W+ <= w) under the null for n untied ranks: each rank's sign a fair coin. */
static double signed_rank_cdf(int n, double w)
{
	int max = n * (n + 1) / 2, k, x;
	double *c = xcalloc((size_t)max + 1, sizeof(double)), below = 0, all = 0;

	c[0] = 1;
	for (k = 1; k <= n; k++)
		for (x = max; x >= k; x--)
			c[x] += c[x - k];
	for (x = 0; x <= max; x++) {
		all += c[x];
		if (x <= w)
			below += c[x];
	}
	free(c);
	return below / all;
}

/*
 * Wilcoxon's signed-rank test, two-sided, zeros dropped (Wilcoxon's
 * rule): exact without ties up to STATS_SR_EXACT_MAX pairs, else the
 * normal approximation with tie and continuity corrections.
 */
double stats_signed_rank_p(const double *d, int n)
{
	struct signed_rank *r = xcalloc((size_t)(n > 0 ? n : 1), sizeof(*r));
	double wp = 0, ties = 0, t, mu, var, z, lo, hi, p;
	int m = 0, i, j, k;

	for (i = 0; i < n; i++) {
		if (d[i] == 0 || isnan(d[i]))
			continue;
		r[m].abs = fabs(d[i]);
		r[m++].pos = d[i] > 0;
	}
	qsort(r, (size_t)m, sizeof(*r), cmp_abs);
	for (i = 0; i < m; i = j) {
		for (j = i + 1; j < m && r[j].abs == r[i].abs; j++)
			;
		t = j - i;
		ties += t * t * t - t;
		for (k = i; k < j; k++)
			wp += r[k].pos ? (i + 1 + j) / 2.0 : 0;
	}
	free(r);
	if (m == 0)
		return 1.0;
	if (ties == 0 && m <= STATS_SR_EXACT_MAX) {
		lo = signed_rank_cdf(m, wp);
		hi = 1 - signed_rank_cdf(m, wp - 1);	/* P(W+ >= wp) */
		p = 2 * fmin(lo, hi);
		return p > 1 ? 1 : p;
	}
	mu = m * (m + 1) / 4.0;
	var = m * (m + 1) * (2 * m + 1) / 24.0 - ties / 48.0;
	if (!(var > 0))
		return 1.0;
	z = (fabs(wp - mu) - 0.5) / sqrt(var);
	if (z < 0)
		return 1.0;
	p = erfc(z / sqrt(2.0));
	return p > 1 ? 1 : p;
}

/* Lag-1 autocorrelation of both series, each about its own mean, pooled. */
static double pooled_lag1(const double *a, int na, const double *b, int nb)
{
	const double *v[2] = { a, b };
	int n[2] = { na, nb }, s, i;
	double m, num = 0, den = 0;

	for (s = 0; s < 2; s++) {
		m = stats_mean(v[s], n[s]);
		for (i = 0; i < n[s]; i++) {
			den += (v[s][i] - m) * (v[s][i] - m);
			if (i)
				num += (v[s][i] - m) * (v[s][i - 1] - m);
		}
	}
	return den > 0 ? num / den : 0;
}

/*
 * A short series' variance of the mean, as an AR(1) with lag-1 correlation
 * r has it: s^2 / n * (1 + r) / (1 - r), on n (1 - r) / (1 + r) effective
 * values.  Welch-Satterthwaite over the two inflated variances.
 */
int stats_short_ratio_ci(const double *a, int na, const double *b, int nb, double r_floor,
			 double conf, struct stats_interval *out, double *p, double *r_used)
{
	struct stats sa, sb;
	double r, f, va, vb, dfa, dfb, t;

	if (na < 3 || nb < 3)
		return -1;
	stats_compute(a, na, &sa);
	stats_compute(b, nb, &sb);
	if (!(sa.mean > 0) || !(sb.mean > 0))
		return -1;
	r = pooled_lag1(a, na, b, nb);
	r += (1 + 4 * r) * 2 / (na + nb);	/* the estimate's bias on short series */
	r = fmin(STATS_SHORT_MAX_R, fmax(r_floor, r));
	*r_used = r;
	f = (1 + r) / (1 - r);
	va = f * sa.stddev * sa.stddev / (na * sa.mean * sa.mean);
	vb = f * sb.stddev * sb.stddev / (nb * sb.mean * sb.mean);
	dfa = fmax(na / f - 1, STATS_SHORT_MIN_DF);
	dfb = fmax(nb / f - 1, STATS_SHORT_MIN_DF);
	out->est = sb.mean / sa.mean;
	out->se = sqrt(va + vb);
	if (out->se == 0) {
		out->df = INFINITY;
		out->lo = out->hi = out->est;
		*p = out->est == 1 ? 1.0 : 0.0;
		return 0;
	}
	out->df = (va + vb) * (va + vb) / (va * va / dfa + vb * vb / dfb);
	t = stats_t_quantile(0.5 + conf / 2, out->df);
	out->lo = out->est * exp(-t * out->se);
	out->hi = out->est * exp(t * out->se);
	*p = 2 * (1 - stats_t_cdf(fabs(log(out->est)) / out->se, out->df));
	return 0;
}

double stats_sd_upper_factor(double df, double q)
{
	double z = stats_t_quantile(q, INFINITY), c;

	if (!(df >= 1))
		return INFINITY;
	c = df * pow(1 - 2 / (9 * df) + z * sqrt(2 / (9 * df)), 3);
	return c > 0 ? sqrt(df / c) : INFINITY;
}

int stats_pairs_needed(double reach, int n0, double target)
{
	double w = reach * stats_sd_upper_factor(n0 - 1, 0.05), n;

	n = w > target ? ceil(n0 * (w / target) * (w / target)) : n0;
	n = fmax(n, n0 + STATS_STAGE2_MIN);
	return n < 1e6 ? (int)n : 1000000;
}

double stats_paired_reach(const double *a, const double *b, int n)
{
	struct stats_interval ci;
	double p, pr;

	if (n < 2 || stats_paired_ratio_ci(a, b, n, 0.95, &ci, &p, &pr))
		return INFINITY;
	return fmax(ci.hi / ci.est - 1, 1 - ci.lo / ci.est) * 100;
}
