// SPDX-License-Identifier: GPL-2.0
#include <math.h>
#include <string.h>
#include "verdict.h"
#include "verdict_int.h"

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
