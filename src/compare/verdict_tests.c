// SPDX-License-Identifier: GPL-2.0
/*
 * A row's tests and intervals: the values each side offers (its runs'
 * means, batches of its samples, ab's pairs, or one process's samples),
 * the test they allow, and the interval of new/old, widened by what
 * neither side's spread shows (--drift, --run-noise).  verdict.c decides
 * on them.
 */
#include <math.h>
#include <stdlib.h>
#include "util.h"
#include "verdict.h"
#include "verdict_int.h"

static int cmp_rep(const void *pa, const void *pb)
{
	const double *a = pa, *b = pb;

	return (a[0] > b[0]) - (a[0] < b[0]);
}

/* Means of the runs from the samples' "repeat" tags, when there is no repeats record. */
static int means_by_tag(const struct res_run *r, const struct res_metric *m, double *out)
{
	double *pairs = xcalloc(2 * (size_t)(r->nr_samples ?: 1), sizeof(double)), sum = 0;
	int i, k = 0, nr = 0, cnt = 0;

	for (i = 0; i < r->nr_samples; i++) {
		if (isnan(m->samples[i]))
			continue;
		pairs[2 * k] = r->sample_repeat[i];
		pairs[2 * k + 1] = m->samples[i];
		k++;
	}
	qsort(pairs, k, 2 * sizeof(double), cmp_rep);
	for (i = 0; i < k; i++) {
		sum += pairs[2 * i + 1];
		cnt++;
		if (i + 1 == k || pairs[2 * i + 2] != pairs[2 * i]) {
			out[nr++] = sum / cnt;
			sum = 0;
			cnt = 0;
		}
	}
	free(pairs);
	return nr;
}

/* The run means of m, out having room for nr_samples or nr_repeats values; their number. */
static int run_means(const struct res_run *r, const struct res_metric *m, double *out)
{
	int i, k = 0;

	if (m->rep_mean) {
		for (i = 0; i < r->nr_repeats; i++)
			if (!isnan(m->rep_mean[i]))
				out[k++] = m->rep_mean[i];
		return k;
	}
	if (r->sample_repeat)
		return means_by_tag(r, m, out);
	out[0] = m->mean;	/* one run: its own mean */
	return 1;
}

static int sample_values(const struct res_run *r, const struct res_metric *m, double *out)
{
	int i, k = 0;

	for (i = 0; i < r->nr_samples; i++)
		if (!isnan(m->samples[i]))
			out[k++] = m->samples[i];
	return k;
}

/* Whether v[0..n-1] are not all the same value. */
static bool sd_positive(const double *v, int n)
{
	int i;

	for (i = 1; i < n; i++)
		if (v[i] != v[0])
			return true;
	return false;
}

static bool all_zero(const double *v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (v[i] != 0)
			return false;
	return true;
}

/*
 * Values that do not vary give no spread to test against, unless they
 * are all 0: nothing happened (no drop, no failure), which is exact.
 */
static bool flat(const double *v, int n)
{
	return !sd_positive(v, n) && !all_zero(v, n);
}

/*
 * Batch means of both sides' samples, cut into as many batches as the more
 * correlated side allows, so that both are tested at one batch length.
 */
static void batch_units(struct cmp_row *row, const struct res_run *orun,
			const struct res_run *nrun, double *a, double *b)
{
	double *va = xcalloc((size_t)orun->nr_samples + 1, sizeof(double));
	double *vb = xcalloc((size_t)nrun->nr_samples + 1, sizeof(double));
	int na = sample_values(orun, row->om, va), nb = sample_values(nrun, row->nm, vb);
	int ka = stats_batch_count(va, na), kb = stats_batch_count(vb, nb);
	int k = ka < kb ? ka : kb;

	row->ounits = stats_batch_means(va, na, k, a);
	row->nunits = stats_batch_means(vb, nb, k, b);
	free(va);
	free(vb);
}

/*
 * Two files taken apart in time differ by what the machine did between
 * them (drift, a phase of a neighbour's load), which neither side's spread
 * shows: a comparison of separate sessions adds --drift to each side's
 * noise, as a known variance.  Where both sides are one run, how far a
 * run strays from its configuration is not in them either: --run-noise
 * adds it, as measured from CMP_RUN_NOISE_RUNS runs (its degrees of
 * freedom count: Satterthwaite).  ab's pairs cancel both and need none.
 */
static void with_unseen(struct stats_interval *ci, double drift, double run_noise)
{
	double v = ci->se * ci->se, vd = 2 * drift * drift, vr = 2 * run_noise * run_noise;
	double total = v + vd + vr, den, t;

	if (!(vd + vr > 0) || !(ci->est > 0))
		return;
	den = (v > 0 ? v * v / ci->df : 0) + vr * vr / (CMP_RUN_NOISE_RUNS - 1);
	ci->df = den > 0 ? total * total / den : INFINITY;
	ci->se = sqrt(total);
	t = stats_t_quantile(0.975, ci->df);
	ci->lo = ci->est * exp(-t * ci->se);
	ci->hi = ci->est * exp(t * ci->se);
}

/* Both sides one run each: their samples are all there is (no other side's runs to lean on). */
bool samples_only(const struct cmp_row *row)
{
	return row->one_process && row->basis != BASIS_RUNS_ONE;
}

/* --run-noise applies where the samples are all there is. */
static double run_noise_of(const struct cmp_row *row, const struct cmp_opts *o)
{
	return samples_only(row) && o->run_noise > 0 ? o->run_noise : 0;
}

/*
 * Carries an interval of ratio est onto the row's own ratio of figures.
 * The p-value is the same log-scale test's, so that the verdict and the
 * interval printed beside it never disagree on whether 1 is inside.
 */
static void ratio_interval(struct cmp_row *row, const struct stats_interval *data,
			   const struct cmp_opts *o)
{
	struct stats_interval w = *data, *ci = &w;

	if (!o->paired)
		with_unseen(&w, o->drift, run_noise_of(row, o));
	if (ci->se > 0 && isfinite(ci->df))
		row->p = 2 * (1 - stats_t_cdf(fabs(log(ci->est)) / ci->se, ci->df));
	row->has_ci = true;
	row->df = ci->df;	/* of the variance the interval stands on, --drift's included */
	row->lo = row->ratio * ci->lo / ci->est;
	row->hi = row->ratio * ci->hi / ci->est;
	row->mde_pct = (exp(stats_mde(ci->se, ci->df, o->alpha, CMP_POWER)) - 1) * 100;
}

static void intervals(struct cmp_row *row, const double *a, int na, const double *b, int nb,
		      const struct cmp_opts *o)
{
	struct stats_interval ci;

	if (row->has_ratio && !stats_ratio_ci(a, na, b, nb, 0.95, &ci)) {
		ratio_interval(row, &ci, o);	/* est * exp(+-t se) onto the figures' ratio */
	} else if (!stats_diff_ci(a, na, b, nb, 0.95, &ci)) {
		row->df = ci.df;
		row->mde_abs = stats_mde(ci.se, ci.df, o->alpha, CMP_POWER);
		if (row->ofig) {
			row->has_ci = true;	/* as a ratio: 1 + diff / |old| */
			row->lo = 1 + ci.lo / fabs(row->ofig);
			row->hi = 1 + ci.hi / fabs(row->ofig);
			row->mde_pct = row->mde_abs / fabs(row->ofig) * 100;
		}
	}
}

/*
 * ab's runs are pairs taken side by side: the t interval of the mean log
 * ratio of each pair (its estimate, the geometric mean of the pairs'
 * ratios, is the row's ratio), Wilcoxon's signed-rank beside.
 */
static void paired_test(struct cmp_row *row, const double *a, const double *b, int n,
			const struct cmp_opts *o)
{
	struct stats_interval ci;

	row->basis = BASIS_PAIRS;
	row->tested = true;
	if (row->has_ratio && !stats_paired_ratio_ci(a, b, n, 0.95, &ci, &row->p, &row->p_mw)) {
		row->ratio = ci.est;
		ratio_interval(row, &ci, o);
	} else if (!stats_paired_diff_ci(a, b, n, 0.95, &ci, &row->p, &row->p_mw)) {
		row->df = ci.df;
		row->mde_abs = stats_mde(ci.se, ci.df, o->alpha, CMP_POWER);
		if (row->ofig) {
			row->has_ci = true;
			row->lo = 1 + ci.lo / fabs(row->ofig);
			row->hi = 1 + ci.hi / fabs(row->ofig);
			row->mde_pct = row->mde_abs / fabs(row->ofig) * 100;
		}
	}
}

/*
 * One process a side whose few samples make no two batches (a default
 * 5-sample run): the samples themselves, their variance inflated for the
 * correlation they may have (stats_short_ratio_ci), Mann-Whitney beside.
 */
static void short_test(struct cmp_row *row, const struct res_run *orun,
		       const struct res_run *nrun, const struct cmp_opts *o)
{
	double *a = xcalloc((size_t)orun->nr_samples + 1, sizeof(double));
	double *b = xcalloc((size_t)nrun->nr_samples + 1, sizeof(double)), r;
	int na = sample_values(orun, row->om, a), nb = sample_values(nrun, row->nm, b);
	struct stats_interval ci;

	if (row->has_ratio &&
	    !stats_short_ratio_ci(a, na, b, nb, CMP_SHORT_MIN_R, 0.95, &ci, &row->p, &r)) {
		row->basis = BASIS_SHORT;
		row->tested = true;
		row->ounits = na;
		row->nunits = nb;
		row->p_mw = stats_mann_whitney_p(a, na, b, nb);
		row->r_used = r;
		row->eff_old = na * (1 - r) / (1 + r);	/* an AR(1)'s independent values */
		row->eff_new = nb * (1 - r) / (1 + r);
		ratio_interval(row, &ci, o);
		if (flat(a, na) || flat(b, nb))
			row->why = WHY_FLAT;
	}
	free(a);
	free(b);
}

/*
 * One run against the other side's runs: the one is taken to stray from
 * its configuration's mean as each of the runs does, so their spread is
 * its noise too (a baseline of -r 5 against a single patched run).
 */
static void one_against_runs(struct cmp_row *row, const double *a, int na, const double *b,
			     int nb, const struct cmp_opts *o)
{
	struct stats_interval ci;
	bool old_one = na == 1;

	row->basis = BASIS_RUNS_ONE;
	row->one_process = true;
	if (!row->has_ratio || stats_ratio_ci_one(old_one ? b : a, old_one ? nb : na,
						  old_one ? a[0] : b[0], 0.95, &ci))
		return;
	if (old_one) {	/* the interval of old/new, turned into new/old's */
		double lo = ci.lo;

		ci.est = 1 / ci.est;
		ci.lo = 1 / ci.hi;
		ci.hi = 1 / lo;
	}
	row->tested = true;
	ratio_interval(row, &ci, o);
}

void run_tests(struct cmp_row *row, const struct res_run *orun,
		      const struct res_run *nrun, const struct cmp_opts *o)
{
	double *a = xcalloc((size_t)(orun->nr_samples + orun->nr_repeats + 1), sizeof(double));
	double *b = xcalloc((size_t)(nrun->nr_samples + nrun->nr_repeats + 1), sizeof(double));
	int ora = run_means(orun, row->om, a), nra = run_means(nrun, row->nm, b);

	row->basis = BASIS_RUNS;
	row->ounits = ora;
	row->nunits = nra;
	if (o->paired && (ora < 2 || nra < 2)) {
		row->basis = BASIS_FEW;		/* a pair is a run a side: one says nothing */
		goto out;
	}
	if (o->paired && ora == nra && !(all_zero(a, ora) && all_zero(b, nra))) {
		paired_test(row, a, b, ora, o);
		goto out;
	}
	if (!o->paired && ora >= 1 && nra >= 1 && (ora == 1) != (nra == 1)) {
		one_against_runs(row, a, ora, b, nra, o);
		goto out;
	}
	if (ora < CMP_MIN_RUNS || nra < CMP_MIN_RUNS) {
		row->basis = BASIS_BATCHES;
		row->one_process = ora <= 1 || nra <= 1;
		batch_units(row, orun, nrun, a, b);
	}
	if (all_zero(a, row->ounits) && all_zero(b, row->nunits) && row->ofig == row->nfig) {
		row->cls = CLS_EQUAL;	/* nothing happened on either side: no ratio to take */
		row->basis = BASIS_ZERO;
		row->one_process = false;
	} else if (row->ounits < 2 || row->nunits < 2) {
		row->basis = BASIS_FEW;
		if (row->one_process)
			short_test(row, orun, nrun, o);
	} else {
		row->tested = true;
		if (flat(a, row->ounits) || flat(b, row->nunits))
			row->why = WHY_FLAT;
		row->p = stats_welch_p(a, row->ounits, b, row->nunits);
		row->p_mw = stats_mann_whitney_p(a, row->ounits, b, row->nunits);
		intervals(row, a, row->ounits, b, row->nunits, o);
	}
out:
	free(a);
	free(b);
}
