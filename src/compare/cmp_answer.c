// SPDX-License-Identifier: GPL-2.0
/*
 * compare's and ab's first lines: per run, the answer a reader came for,
 * in the one vocabulary of verdict.h: "NEW is 1.35× faster than OLD"
 * with NEW/OLD's interval, "equal" (inside the noise), "cannot tell" (and
 * what would narrow it) or "no verdict" (why, and what would make a test
 * valid).  Intervals are asymmetric on the log scale, so they are printed
 * as "× r [lo, hi]", never "r ± e".  The table follows; -q prints only these.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "cmp_print.h"
#include "util.h"

#define ANSWER_MAX	384
#define ANSWER_COLS	120	/* a default line's width */

/* A row that can lead: its own test or threshold, not a derived or bookkeeping one. */
static bool can_lead(const struct cmp_row *r)
{
	return r->basis != BASIS_BASE && r->basis != BASIS_TALLY && !r->outranked;
}

/* The row of rows [first, end) a run's answer is about: its first rate or time, else the first. */
static int headline(const struct cmp_table *t, int first, int end)
{
	int i, any = -1;

	for (i = first; i < end; i++) {
		if (!can_lead(&t->rows[i]))
			continue;
		if (t->rows[i].speed)
			return i;
		if (any < 0)
			any = i;
	}
	return any;
}

/* A row with a line of its own besides the headline: a change, or a level its counter cannot see. */
static bool own_line(const struct cmp_row *r)
{
	return can_lead(r) && (cmp_row_is_change(r) || r->why == WHY_RESOLUTION);
}

/* Enough digits that an interval's bounds differ where the figure does. */
static int digits(const struct cmp_row *r)
{
	double span = r->has_ci ? r->hi - r->lo : 1;

	return span >= 0.01 ? 2 : 3;
}

/* "NEW/OLD × 1.349 [1.210, 1.503]" */
int cmp_fmt_interval(char *buf, size_t len, const struct cmp_row *r, const struct cmp_opts *o)
{
	int d = digits(r) + 1;

	if (!r->has_ci)
		return snprintf(buf, len, "%s/%s × %.*f", o->new_name, o->old_name, d, r->ratio);
	return snprintf(buf, len, "%s/%s × %.*f [%.*f, %.*f]", o->new_name, o->old_name, d,
			r->ratio, d, r->lo, d, r->hi);
}

static void change_text(char *buf, size_t len, const struct cmp_row *r)
{
	if (r->from_zero)
		snprintf(buf, len, "from 0 to %.4g %s", r->nfig, r->nm->unit);
	else
		cmp_pct_text(buf, len, r->change_pct, 1);
}

/* What would let a test be valid, or narrow one. */
static const char *remedy(const struct cmp_row *r, const struct cmp_opts *o)
{
	if (o->paired)
		return "more pairs (-r, --precision) would narrow it";
	if (r->basis == BASIS_RUNS_ONE)
		return "-r 3 on the single side too, or more runs, would narrow it";
	if (r->one_process || r->basis == BASIS_SHORT || r->basis == BASIS_BATCHES)
		return "-r 3 a side, a longer -d, or ab --precision 2";
	return "more runs (-r) would narrow it";
}

static void no_verdict_text(char *buf, size_t len, const struct cmp_row *r,
			    const struct cmp_opts *o, const char *ch)
{
	const char *id = r->nm->id;

	switch (r->why) {
	case WHY_CORRELATED:
		if (r->basis == BASIS_SHORT)
			snprintf(buf, len, "no verdict (%s %s: %d/%d samples, lag-1 r %.2f: "
				 "~%.1f/%.1f independent values); %s", id, ch, r->ounits,
				 r->nunits, r->r_used, r->eff_old, r->eff_new, remedy(r, o));
		else
			snprintf(buf, len, "no verdict (%s %s: %d/%d batch means of one process, "
				 "df %.1f); %s", id, ch, r->ounits, r->nunits, r->df, remedy(r, o));
		break;
	case WHY_WIDE:
		snprintf(buf, len, "no verdict (%s %s: its 95%% CI spans more than %g×); %s", id,
			 ch, CMP_MAX_SPAN, remedy(r, o));
		break;
	case WHY_ONE_RUN:
		snprintf(buf, len, "no verdict (%s %s: one run a side, and runs of one "
			 "configuration stray further than their samples show); -r 3 a side, "
			 "ab, or --run-noise PCT", id, ch);
		break;
	case WHY_FLAT:
		snprintf(buf, len, "no verdict (%s %s: one side's values do not vary, no spread "
			 "to test a change against)", id, ch);
		break;
	default:
		if (o->paired)
			snprintf(buf, len, "no verdict (%s %s: %d/%d runs, too few pairs to test); "
				 "run 3 or more pairs: -r 3 or --precision", id, ch, r->ounits,
				 r->nunits);
		else
			snprintf(buf, len, "no verdict (%s %s: n %d/%d, too few to test); %s", id,
				 ch, r->om->nr_values, r->nm->nr_values, remedy(r, o));
	}
}

static void cannot_tell_text(char *buf, size_t len, const struct cmp_row *r,
			     const struct cmp_opts *o, const char *ch)
{
	char ci[96];

	if (r->why == WHY_RESOLUTION) {
		snprintf(buf, len, "cannot tell (%s %s: %.4g → %.4g %s, within its measurement's "
			 "±%.3g %s resolution)", r->nm->id, ch, r->ofig, r->nfig,
			 r->nm->unit, fmax(r->om->resolution, r->nm->resolution), r->nm->unit);
		return;
	}
	cmp_fmt_interval(ci, sizeof(ci), r, o);
	if (r->why == WHY_ADJUSTED)
		snprintf(buf, len, "cannot tell (%s %s, %s: not significant after adjusting "
			 "for the rows compared); %s", r->nm->id, ch, ci, remedy(r, o));
	else
		snprintf(buf, len, "cannot tell (%s %s, %s, wider than ±%g%%); %s", r->nm->id, ch,
			 ci, o->noise * 100, remedy(r, o));
}

static void change_answer(char *buf, size_t len, const struct cmp_row *r,
			  const struct cmp_opts *o, const char *ch)
{
	double f = r->ratio >= 1 ? r->ratio : 1 / r->ratio;
	char ci[96];

	if (!(r->has_ratio && r->ratio > 0 && r->ratio != 1)) {
		snprintf(buf, len, "%s is %s than %s in %s (%s)", o->new_name, cmp_class_text(r),
			 o->old_name, r->nm->id, ch);
		return;
	}
	if (!r->tested) {	/* a level or a count: the threshold, no test */
		snprintf(buf, len, "%s is %.*f× %s than %s (%s %s, a %s: no test)", o->new_name,
			 f < 10 ? 2 : 1, f, cmp_class_text(r), o->old_name, r->nm->id, ch,
			 r->basis == BASIS_EXACT ? "count" : "level");
		return;
	}
	cmp_fmt_interval(ci, sizeof(ci), r, o);
	snprintf(buf, len, "%s is %.*f× %s than %s (%s %s, %s)", o->new_name, f < 10 ? 2 : 1, f,
		 cmp_class_text(r), o->old_name, r->nm->id, ch, ci);
}

void cmp_answer_text(char *buf, size_t len, const struct cmp_row *r, const struct cmp_opts *o)
{
	char ch[96], ci[96];

	change_text(ch, sizeof(ch), r);
	if (cmp_row_is_change(r)) {
		change_answer(buf, len, r, o, ch);
	} else if (r->basis == BASIS_ZERO) {
		snprintf(buf, len, "equal (%s 0 on both sides)", r->nm->id);
	} else if (r->cls == CLS_EQUAL && r->has_ci && r->tested) {
		cmp_fmt_interval(ci, sizeof(ci), r, o);
		snprintf(buf, len, "equal (%s %s, within the ±%g%% noise)", r->nm->id, ci,
			 o->noise * 100);
	} else if (r->cls == CLS_EQUAL) {
		snprintf(buf, len, "equal (%s %s, within the ±%g%% noise%s)", r->nm->id, ch,
			 o->noise * 100, r->ofig == r->nfig ? "" : "; no test");
	} else if (r->cls == CLS_CANNOT_TELL) {
		cannot_tell_text(buf, len, r, o, ch);
	} else {
		no_verdict_text(buf, len, r, o, ch);
	}
}

/*
 * "run: answer", within ANSWER_COLS: a longer one goes on with its remedy
 * (after "; ") on an indented line of its own.
 */
static void print_answer(const char *run, const char *answer)
{
	const char *cut = strstr(answer, "); ");

	if (text_width(run) + 2 + text_width(answer) <= ANSWER_COLS || !cut)
		printf("%s: %s\n", run, answer);
	else
		printf("%s: %.*s\n    %s\n", run, (int)(cut + 1 - answer), answer, cut + 3);
}

static void print_run(const struct cmp_table *t, int first, int end, const struct cmp_opts *o)
{
	char buf[ANSWER_MAX];
	int lead = headline(t, first, end), i;

	if (lead < 0)
		return;
	cmp_answer_text(buf, sizeof(buf), &t->rows[lead], o);
	print_answer(t->rows[lead].run, buf);
	/* every other metric that changed (or moved unseen), each on a line of its own */
	for (i = first; i < end; i++) {
		if (i == lead || !own_line(&t->rows[i]))
			continue;
		cmp_answer_text(buf, sizeof(buf), &t->rows[i], o);
		print_answer(t->rows[i].run, buf);
	}
}

void cmp_print_answers(const struct cmp_table *t, const struct cmp_opts *o)
{
	int first = 0, i;

	for (i = 1; i <= t->n; i++) {
		if (i < t->n && t->rows[i].run == t->rows[first].run)
			continue;
		print_run(t, first, i, o);
		first = i;
	}
}
