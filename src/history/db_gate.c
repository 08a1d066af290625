// SPDX-License-Identifier: GPL-2.0
/*
 * db changes' gate (--fail-on-change PCT): whether a series could have
 * shown a step for the worse beyond it at all (unjudged()), the line on
 * stderr each regression gets, and a series as a case of the verdicts'
 * formats (--junit, --ktap).  db_changes.c finds and reports the steps.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include "changes.h"
#include "db_changes_int.h"
#include "history.h"
#include "opts.h"
#include "stats.h"
#include "util.h"
#include "verdicts.h"

/* median |successive difference| of normal noise is 0.9539 sigma; steps barely move it */
#define MAD_DIFF_TO_SD	0.9539
#define GATE_POWER	0.8

/*
 * The shortest series in which the permutation test, at this alpha and
 * count of permutations, can accept any change point: a clean step of half
 * and half.  Below it a series passes every gate whatever happened in it.
 */
static int shortest_splittable(const struct db_args *a)
{
	struct ed_cp cp[8];
	struct ed_opts o;
	double x[64];
	int n, i;

	ed_opts_default(&o);
	o.alpha = a->alpha;
	o.permutations = a->permutations;
	o.seed = ed_seed("shortest");
	for (n = 2 * o.min_size; n <= (int)ARRAY_SIZE(x); n++) {
		for (i = 0; i < n; i++)
			x[i] = i < n / 2 ? 1 : 2;
		if (ed_changes(x, n, &o, cp, ARRAY_SIZE(cp)) > 0)
			return n;
	}
	return INT_MAX;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/*
 * Whether the gate cannot judge a series: too short for the test to split
 * at all, or so noisy that even a split in the middle (the best case) would
 * miss a step of the gate's size at 80% power.  The noise is the points'
 * spread from one to the next (robust to the steps being looked for).
 */
bool unjudged(struct tally *t, const struct series *sr, const double *x,
		     struct why_unjudged *w)
{
	const struct db_args *a = t->a;
	double *v, sd, mid, se;
	int i, h = sr->n / 2;

	w->spread_pct = w->step_pct = NAN;
	if (!t->min_points)
		t->min_points = shortest_splittable(a);
	if (sr->n < t->min_points)
		return true;
	v = xcalloc(sr->n, sizeof(double));
	for (i = 0; i + 1 < sr->n; i++)
		v[i] = fabs(x[i + 1] - x[i]);
	sd = median(v, sr->n - 1) / MAD_DIFF_TO_SD;
	memcpy(v, x, sr->n * sizeof(double));
	mid = fabs(median(v, sr->n));
	free(v);
	if (sd == 0)
		return false;
	if (mid == 0)
		return true;	/* noise around 0: no step in percent to speak of */
	w->spread_pct = sd / mid * 100;
	se = w->spread_pct * sqrt(1.0 / h + 1.0 / (sr->n - h));
	w->step_pct = stats_mde(se, sr->n - 2, a->alpha, GATE_POWER);
	return !(w->step_pct <= a->fail_pct);
}

/*
 * A side's kernel or commit for the one line a regression gets: the one
 * it ran on, or, where it spans several, "first..last (k kernels)": the
 * last point before a change may share the first's kernel when the change
 * came within a side.
 */
static void side_span(char *buf, size_t len, const struct series *sr, int from, int to,
		      bool commit)
{
	int k = side_count(sr, from, to, commit);

	if (k == 1)
		snprintf(buf, len, "%s", pt_field(&sr->pt[from], commit));
	else
		snprintf(buf, len, "%s..%s (%d %s)", pt_field(&sr->pt[from], commit),
			 pt_field(&sr->pt[to - 1], commit), k, commit ? "commits" : "kernels");
}

/* "-10.00%", or from a mean of 0, which has no percentage, its means: "0 -> 3.5". */
static const char *step_text(const struct cp_step *sp, char *buf, size_t len)
{
	if (isnan(sp->pct))
		snprintf(buf, len, "%.6g -> %.6g", sp->before, sp->after);
	else
		snprintf(buf, len, "%+.2f%%", sp->pct);
	return buf;
}

void regression_line(const struct series *sr, const struct ed_cp *cp, int from, int to,
			    const struct cp_step *sp)
{
	char m[512], step[80], kb[256], ka[256], cb[256], ca[256];

	step_text(sp, step, sizeof(step));
	side_span(kb, sizeof(kb), sr, from, cp->at, false);
	side_span(ka, sizeof(ka), sr, cp->at, to, false);
	side_span(cb, sizeof(cb), sr, from, cp->at, true);
	side_span(ca, sizeof(ca), sr, cp->at, to, true);
	errmsg("regression: %s%s%s %s on %s: %s at point %d; kernel %s -> %s; commit %s -> %s",
	       sr->bench, *sr->measured ? " " : "", sr->measured, shown_key(sr, m, sizeof(m)),
	       sr->host, step, cp->at + 1, kb, ka, cb, ca);
}

/* Why the gate could not judge a series, after "not judged: ". */
static const char *unjudged_text(const struct tally *t, const struct series *sr,
				 const struct why_unjudged *w, char *buf, size_t len)
{
	const struct db_args *a = t->a;

	if (t->min_points == INT_MAX)
		snprintf(buf, len, "at --alpha %g and --permutations %d the test accepts no "
			 "change point", a->alpha, a->permutations);
	else if (sr->n < t->min_points)
		snprintf(buf, len, "%d run%s recorded, and the gate judges a series of %d runs "
			 "or more", sr->n, sr->n == 1 ? "" : "s", t->min_points);
	else if (isnan(w->spread_pct))
		snprintf(buf, len, "its points vary around 0");
	else
		snprintf(buf, len, "its points stray ±%.1f%% from one to the next; the smallest "
			 "step it could show is %.1f%%, more than --fail-on-change %g%%",
			 w->spread_pct, w->step_pct, a->fail_pct);
	return buf;
}

void report_unjudged(struct tally *t, const struct series *sr, const struct why_unjudged *w)
{
	const struct db_args *a = t->a;
	char text[320];
	json_object *o;

	t->nr_unjudged++;
	if (a->json) {
		o = json_object_new_object();
		json_object_object_add(o, "bench", json_object_new_string(sr->bench));
		json_object_object_add(o, "options", json_object_new_string(sr->measured));
		json_object_object_add(o, "metric", json_object_new_string(sr->name));
		json_object_object_add(o, "key", *sr->mkey ? json_object_new_string(sr->mkey) : NULL);
		json_object_object_add(o, "host", json_object_new_string(sr->host));
		if (a->f.by_kernel)
			json_object_object_add(o, "kernel", json_object_new_string(sr->kernel));
		json_object_object_add(o, "points", json_object_new_int(sr->n));
		json_object_object_add(o, "spread_pct", num_or_null(w->spread_pct));
		json_object_object_add(o, "smallest_step_pct", num_or_null(w->step_pct));
		json_object_array_add(t->unjudged, o);
		return;
	}
	if (a->quiet)
		return;
	series_head(sr, a);
	printf(": not judged: %s\n", unjudged_text(t, sr, w, text, sizeof(text)));
}

bool unjudged_pass(const struct db_args *a)
{
	return a->gate_unjudged && !strcmp(a->gate_unjudged, "pass");
}

/* "-10.00% at point 13 of 24 (kernel A -> B)": a series' first step beyond the gate. */
void gate_step(const struct series *sr, const struct ed_cp *cp, const struct cp_step *sp,
		      char *buf, size_t len)
{
	char step[80];

	snprintf(buf, len, "%s at point %d of %d (kernel %s -> %s)", step_text(sp, step, sizeof(step)),
		 cp->at + 1, sr->n, sr->pt[cp->at - 1].kernel, sr->pt[cp->at].kernel);
}

/*
 * The series as a case of the verdicts' formats: failed on a step beyond
 * the gate, skipped when the gate could not judge it, else passed (a
 * series with no better direction too: the gate never fails it).
 */
void series_case(struct tally *t, const struct series *sr, int changes, const char *gated,
			const struct why_unjudged *w)
{
	const struct db_args *a = t->a;
	char group[512], name[512], detail[64], text[320];

	snprintf(group, sizeof(group), "%s%s%s on %s%s%s", sr->bench, *sr->measured ? " " : "",
		 sr->measured, sr->host, a->f.by_kernel ? ", kernel " : "",
		 a->f.by_kernel ? sr->kernel : "");
	shown_key(sr, name, sizeof(name));
	snprintf(detail, sizeof(detail), "%d change point%s in %d points", changes,
		 changes == 1 ? "" : "s", sr->n);
	if (gated)
		verdicts_add(&t->v, group, name, VERDICT_FAIL, detail,
			     "regression: %s, beyond --fail-on-change %g%%", gated, a->fail_pct);
	else if (w)
		verdicts_add(&t->v, group, name, VERDICT_SKIP, detail, "not judged: %s (%s%d)",
			     unjudged_text(t, sr, w, text, sizeof(text)), unjudged_pass(a) ?
			     "passed: --gate-unjudged pass; else exit " : "exit ", EXIT_UNJUDGED);
	else
		verdicts_add(&t->v, group, name, VERDICT_PASS, detail, NULL);
}
