// SPDX-License-Identifier: GPL-2.0
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "util.h"
#include "verdict.h"

static bool word_in(const char *w, size_t len, const char *const *set)
{
	for (; *set; set++)
		if (strlen(*set) == len && !strncmp(*set, w, len))
			return true;
	return false;
}

static bool name_has(const char *name, const char *const *words)
{
	for (; *words; words++)
		if (strstr(name, *words))
			return true;
	return false;
}

static bool is_size(const char *unit)
{
	static const char *const sizes[] = { "B", "KB", "KiB", "MB", "MiB", "GB", "GiB",
					     "bytes", "kB", NULL };

	return word_in(unit, strcspn(unit, " /"), sizes);
}

/*
 * An old file says nothing of a metric's direction: guess it as bpfbench
 * did before metrics had one.  A name that counts trouble is better lower,
 * a speed-up higher (better/worse); a unit per second is a rate, a time
 * unit a time (faster/slower); a size is better lower; the rest has none.
 */
static enum cmp_dir guess_direction(const char *name, const char *unit, bool *speed)
{
	static const char *const trouble[] = { "drop", "fail", "retr", "miss", "error", "lost",
					       "false_positive", NULL };
	static const char *const times[] = { "ns", "us", "µs", "ms", "s", "sec", "cycles", NULL };
	const char *w = unit, *per = strrchr(unit, '/');

	*speed = false;
	if (name_has(name, trouble))
		return DIR_LOWER;
	if (strstr(name, "speedup"))
		return DIR_HIGHER;
	if (per && (!strcmp(per, "/s") || !strcmp(per, "/sec")))
		return *speed = true, DIR_HIGHER;
	if (strchr("kKMG", w[0]) && w[0] && w[1] == ' ')	/* a scale prefix word */
		w += 2;
	if (word_in(w, strcspn(w, " /"), times))
		return *speed = true, DIR_LOWER;
	return is_size(w) ? DIR_LOWER : DIR_NONE;
}

/* An old file's kind: memory was a level or a peak even then. */
static enum res_kind legacy_kind(const struct res_metric *m)
{
	if (m->kind == RES_INVERSE && !m->of)
		return RES_SAMPLED;	/* base unknown: tested on its own samples */
	if (m->kind != RES_SAMPLED)
		return m->kind;
	if (strstr(m->name, "peak"))
		return RES_PEAK;
	if (is_size(!strncmp(m->unit, "M ", 2) ? m->unit + 2 : m->unit))
		return RES_LEVEL;
	return RES_SAMPLED;
}

static double figure(const struct res_metric *m)
{
	if (m->kind == RES_INVERSE && m->of && !isnan(m->of_mean_inverse))
		return m->of_mean_inverse;	/* what the summary printed */
	return m->mean;
}

void cmp_row_init(struct cmp_row *row, const char *run, const struct res_metric *om,
		  const struct res_metric *nm)
{
	bool speed;
	enum cmp_dir guess = guess_direction(nm->name, nm->unit, &speed);

	memset(row, 0, sizeof(*row));
	row->run = run;
	row->om = om;
	row->nm = nm;
	row->base = -1;
	row->kind = legacy_kind(nm);
	row->dir = nm->better == RES_BETTER_HIGHER ? DIR_HIGHER :
		   nm->better == RES_BETTER_LOWER ? DIR_LOWER :
		   nm->better == RES_BETTER_NONE ? DIR_NONE : guess;
	if (nm->better == RES_BETTER_GUESS)
		row->speed = speed;
	else
		row->speed = (row->kind == RES_RATE && row->dir == DIR_HIGHER) ||
			     (row->kind == RES_TIME && row->dir == DIR_LOWER);
	row->ofig = figure(om);
	row->nfig = figure(nm);
	row->spread = om->n >= 2 && nm->n >= 2 && row->kind != RES_INVERSE;
	row->change_pct = row->ofig ? (row->nfig - row->ofig) / fabs(row->ofig) * 100 : NAN;
	row->from_zero = row->ofig == 0 && row->nfig != 0;
	row->has_ratio = row->ofig > 0 && row->nfig >= 0;
	row->ratio = row->has_ratio ? row->nfig / row->ofig : NAN;
	row->p = row->p_adj = row->p_mw = row->mde_pct = row->mde_abs = NAN;
	row->cls = CLS_INCONCLUSIVE;
}

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

static bool all_zero(const double *v, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (v[i] != 0)
			return false;
	return true;
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

static void intervals(struct cmp_row *row, const double *a, int na, const double *b, int nb,
		      const struct cmp_opts *o)
{
	struct stats_interval ci;

	if (row->has_ratio && !stats_ratio_ci(a, na, b, nb, 0.95, &ci)) {
		/* the interval is est * exp(+-t se): carried onto the figures' own ratio */
		row->has_ci = true;
		row->lo = row->ratio * ci.lo / ci.est;
		row->hi = row->ratio * ci.hi / ci.est;
		row->mde_pct = (exp(stats_mde(ci.se, ci.df, o->alpha, CMP_POWER)) - 1) * 100;
	} else if (!stats_diff_ci(a, na, b, nb, 0.95, &ci)) {
		row->mde_abs = stats_mde(ci.se, ci.df, o->alpha, CMP_POWER);
		if (row->ofig) {
			row->has_ci = true;	/* as a ratio: 1 + diff / |old| */
			row->lo = 1 + ci.lo / fabs(row->ofig);
			row->hi = 1 + ci.hi / fabs(row->ofig);
			row->mde_pct = row->mde_abs / fabs(row->ofig) * 100;
		}
	}
}

static void run_tests(struct cmp_row *row, const struct res_run *orun,
		      const struct res_run *nrun, const struct cmp_opts *o)
{
	double *a = xcalloc((size_t)(orun->nr_samples + orun->nr_repeats + 1), sizeof(double));
	double *b = xcalloc((size_t)(nrun->nr_samples + nrun->nr_repeats + 1), sizeof(double));
	int ora = run_means(orun, row->om, a), nra = run_means(nrun, row->nm, b);

	row->basis = BASIS_RUNS;
	row->ounits = ora;
	row->nunits = nra;
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
	} else {
		row->tested = true;
		row->p = stats_welch_p(a, row->ounits, b, row->nunits);
		row->p_mw = stats_mann_whitney_p(a, row->ounits, b, row->nunits);
		intervals(row, a, row->ounits, b, row->nunits, o);
	}
	free(a);
	free(b);
}

static enum cmp_class change_class(const struct cmp_row *row)
{
	bool up = row->nfig > row->ofig;

	if (row->dir == DIR_NONE)
		return up ? CLS_UP : CLS_DOWN;
	return up == (row->dir == DIR_HIGHER) ? CLS_GOOD : CLS_BAD;
}

/*
 * A level read through a counter that moves in steps (a memory cgroup's
 * per-CPU charge batches) cannot tell apart what differs by less than a
 * step: that is the measurement, not the map.
 */
static bool within_resolution(const struct cmp_row *row)
{
	double res = fmax(row->om->resolution, row->nm->resolution);

	return res > 0 && fabs(row->nfig - row->ofig) <= res;
}

void cmp_row_test(struct cmp_row *row, const struct res_run *orun, const struct res_run *nrun,
		  const struct cmp_opts *o)
{
	/*
	 * A count that varies from sample to sample (ops in a period) is a
	 * sampled quantity like a rate: test it.  Only a count that holds
	 * still (elements checked per pass) is judged as exact.
	 */
	if (row->kind == RES_COUNT && (row->om->stddev > 0 || row->nm->stddev > 0)) {
		run_tests(row, orun, nrun, o);
		return;
	}
	switch (row->kind) {
	case RES_LEVEL:
	case RES_PEAK:
	case RES_COUNT:
		row->basis = row->kind == RES_COUNT ? BASIS_EXACT : BASIS_NOISE;
		if (row->ofig == row->nfig || within_resolution(row))
			row->cls = CLS_EQUAL;
		else if (!row->from_zero && fabs(row->change_pct) <= o->noise * 100)
			row->cls = CLS_EQUAL;
		else
			row->cls = change_class(row);
		return;
	case RES_INVERSE:
		row->basis = BASIS_BASE;	/* decided by cmp_row_follow() */
		return;
	default:
		run_tests(row, orun, nrun, o);
	}
}

void cmp_row_decide(struct cmp_row *row, const struct cmp_opts *o)
{
	if (!row->tested)
		return;
	if (row->has_ci && row->lo >= 1 - o->noise && row->hi <= 1 + o->noise)
		row->cls = CLS_EQUAL;
	else if (row->p_adj < o->alpha)
		row->cls = change_class(row);
	else
		row->cls = CLS_INCONCLUSIVE;
}

void cmp_row_follow(struct cmp_row *row, const struct cmp_row *base)
{
	row->cls = base->cls;
	if (base->cls == CLS_UP || base->cls == CLS_DOWN)	/* an inverse moves the other way */
		row->cls = base->cls == CLS_UP ? CLS_DOWN : CLS_UP;
	row->speed = base->speed;
	row->one_process = base->one_process;
	row->ounits = base->ounits;
	row->nunits = base->nunits;
	if (base->has_ci && row->has_ratio && base->has_ratio && base->lo > 0 && row->ratio > 0) {
		/* scale / x: the interval of the base, inverted, onto this row's ratio */
		row->has_ci = true;
		row->lo = row->ratio * base->ratio / base->hi;
		row->hi = row->ratio * base->ratio / base->lo;
	}
}

const char *cmp_class_text(const struct cmp_row *row)
{
	switch (row->cls) {
	case CLS_EQUAL:
		return "equal";
	case CLS_GOOD:
		return row->speed ? "faster" : "better";
	case CLS_BAD:
		return row->speed ? "slower" : "worse";
	case CLS_UP:
		return "higher";
	case CLS_DOWN:
		return "lower";
	default:
		return "inconclusive";
	}
}

/* Only a change for the worse beyond the limit; a derived metric gates through its base. */
bool cmp_row_regression(const struct cmp_row *row, const struct cmp_opts *o)
{
	if (o->fail_pct < 0 || row->cls != CLS_BAD || row->basis == BASIS_BASE)
		return false;
	return row->from_zero || fabs(row->change_pct) > o->fail_pct;
}
