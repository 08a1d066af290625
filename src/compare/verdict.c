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
	row->df = row->eff_old = row->eff_new = row->r_used = NAN;
	row->cls = CLS_CANNOT_TELL;
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
static bool samples_only(const struct cmp_row *row)
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

static void run_tests(struct cmp_row *row, const struct res_run *orun,
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

static enum cmp_class change_class(const struct cmp_row *row)
{
	bool up = row->has_ratio && row->tested ? row->ratio > 1 : row->nfig > row->ofig;

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

/* A test that cannot be valid: no verdict, and no interval printed. */
static void no_verdict(struct cmp_row *row, enum cmp_why why)
{
	row->cls = CLS_NO_VERDICT;
	row->why = why;
	row->tested = false;
	row->has_ci = false;
	row->mde_pct = row->mde_abs = NAN;
}

static void validate(struct cmp_row *row)
{
	if (row->cls == CLS_EQUAL)	/* all 0 on both sides */
		return;
	if (!row->tested) {
		no_verdict(row, WHY_FEW);
	} else if (row->why == WHY_FLAT || isinf(row->df)) {
		if (row->ofig == row->nfig)
			row->cls = CLS_EQUAL, row->tested = false;	/* the same constant */
		else
			no_verdict(row, WHY_FLAT);
	} else if (row->df < CMP_MIN_DF) {
		no_verdict(row, row->basis == BASIS_SHORT || row->basis == BASIS_BATCHES ?
				WHY_CORRELATED : WHY_FEW);
	} else if (row->has_ci && (row->lo > 0 ? !(row->hi <= row->lo * CMP_MAX_SPAN) :
					      !(row->hi - row->lo <= CMP_MAX_SPAN - 1))) {
		no_verdict(row, WHY_WIDE);	/* a difference's interval: as wide on the linear scale */
	}
}

/*
 * One process a side: its samples show how a run wanders, never how far
 * runs of one configuration lie apart (8-20% on the reference VM while a
 * run's samples spread 1-6%: doc/calibration.md).  Without --run-noise
 * no test is valid; a side constant or all 0 is decided on its own.
 */
static bool runs_unseen(const struct cmp_row *row, const struct cmp_opts *o)
{
	if (!samples_only(row) || o->run_noise >= 0)
		return false;
	return row->tested || (row->cls == CLS_NO_VERDICT && row->why != WHY_FLAT);
}

/* A run with an estimate of speed: what its counts of work done follow. */
static bool has_speed(const struct res_run *run)
{
	int i;

	for (i = 0; run && i < run->nr_metrics; i++)
		if (run->metrics[i].kind == RES_RATE || run->metrics[i].kind == RES_TIME ||
		    run->metrics[i].kind == RES_SAMPLED)
			return true;
	return false;
}

/*
 * A count that varies from sample to sample (ops or program runs in a
 * period) is bookkeeping: it follows the rate and the duration, and a
 * verdict on it would only repeat (or, at another -d, contradict) the
 * rate's.  One value a side cannot show whether a count holds still: one
 * that differs, in a run with a rate, is read as bookkeeping too (a
 * single sample's ops are its rate times its duration).  Only a count
 * seen to hold still (elements checked per pass), or the same on both
 * sides, is judged, as exact.
 */
static bool is_tally(const struct cmp_row *row, const struct res_run *orun,
		     const struct res_run *nrun)
{
	if (row->kind != RES_COUNT)
		return false;
	if (row->om->stddev > 0 || row->nm->stddev > 0)
		return true;
	return row->ofig != row->nfig && (row->om->n < 2 || row->nm->n < 2) &&
	       has_speed(orun) && has_speed(nrun);
}

void cmp_row_test(struct cmp_row *row, const struct res_run *orun, const struct res_run *nrun,
		  const struct cmp_opts *o)
{
	if (is_tally(row, orun, nrun)) {
		row->basis = BASIS_TALLY;	/* ops in a period: the rate's verdict says it */
		row->cls = CLS_NONE;
		return;
	}
	switch (row->kind) {
	case RES_LEVEL:
	case RES_PEAK:
	case RES_COUNT:
		row->basis = row->kind == RES_COUNT ? BASIS_EXACT : BASIS_NOISE;
		if (row->ofig == row->nfig) {
			row->cls = CLS_EQUAL;
		} else if (within_resolution(row)) {
			row->cls = CLS_CANNOT_TELL;	/* the counter cannot see it, either way */
			row->why = WHY_RESOLUTION;
		} else if (!row->from_zero && fabs(row->change_pct) <= o->noise * 100)
			row->cls = CLS_EQUAL;
		else
			row->cls = change_class(row);
		return;
	case RES_INVERSE:
		row->basis = BASIS_BASE;	/* decided by cmp_row_follow() */
		return;
	default:
		run_tests(row, orun, nrun, o);
		validate(row);
		if (runs_unseen(row, o))
			no_verdict(row, WHY_ONE_RUN);
	}
}

void cmp_row_decide(struct cmp_row *row, const struct cmp_opts *o)
{
	if (!row->tested)
		return;
	row->why = WHY_NONE;
	if (row->has_ci && row->lo >= 1 - o->noise && row->hi <= 1 + o->noise) {
		row->cls = CLS_EQUAL;	/* an equivalence test at the --noise margin */
	} else if (row->p_adj < o->alpha) {
		row->cls = change_class(row);
	} else {
		row->cls = CLS_CANNOT_TELL;
		if (row->has_ci && (row->lo > 1 || row->hi < 1))
			row->why = WHY_ADJUSTED;
	}
}

bool cmp_row_in_family(const struct cmp_row *row)
{
	return row->tested || row->cls == CLS_NO_VERDICT;
}

void cmp_row_judge(struct cmp_row *row, const struct res_run *orun, const struct res_run *nrun,
		   const struct cmp_opts *o)
{
	cmp_row_test(row, orun, nrun, o);
	row->p_adj = row->tested ? row->p : NAN;
	cmp_row_decide(row, o);
}

bool cmp_row_is_change(const struct cmp_row *row)
{
	return row->cls == CLS_GOOD || row->cls == CLS_BAD || row->cls == CLS_UP ||
	       row->cls == CLS_DOWN;
}

void cmp_row_follow(struct cmp_row *row, const struct cmp_row *base)
{
	row->cls = base->cls;
	row->why = base->why;
	row->df = base->df;
	row->eff_old = base->eff_old;
	row->eff_new = base->eff_new;
	row->r_used = base->r_used;
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
	case CLS_NONE:
		return "-";
	case CLS_NO_VERDICT:
		return "no verdict";
	default:
		return "cannot tell";
	}
}

/* Only a change for the worse beyond the limit; a derived metric gates through its base. */
bool cmp_row_regression(const struct cmp_row *row, const struct cmp_opts *o)
{
	if (o->fail_pct < 0 || row->cls != CLS_BAD || row->basis == BASIS_BASE ||
	    row->outranked)
		return false;
	return row->from_zero || fabs(row->change_pct) > o->fail_pct;
}
