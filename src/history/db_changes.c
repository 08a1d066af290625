// SPDX-License-Identifier: GPL-2.0
/*
 * db changes: the change points of every series (changes.h), each with
 * its step (the mean of the points after it over the mean of those
 * before, back to the previous change point and on to the next), the
 * step's 95% interval (stats_ratio_ci: the two segments' points as two
 * samples), the p-value, and the two sides' kernels, commits and dates.
 * --fail-on-change PCT: exit 1 on a step for the worse beyond PCT%, as
 * the metric's direction says (the one compare judges by); else
 * EXIT_UNJUDGED when a series with a direction could not have shown such
 * a step (unjudged(), db_gate.c), unless --gate-unjudged pass.  Where the
 * kernels either side of a change carry their commits (a release ending in
 * -g<hex>, as CONFIG_LOCALVERSION_AUTO makes it), the change gets the
 * bpfbench bisect command line that finds the commit between them.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include "bench.h"
#include "changes.h"
#include "db_changes_int.h"
#include "history.h"
#include "opts.h"
#include "stats.h"
#include "store.h"
#include "util.h"
#include "verdicts.h"

static void measure_step(const struct series *sr, const double *x, int from, int at, int to,
			 const struct db_args *a, struct cp_step *sp)
{
	struct stats_interval ci;
	bool up;

	sp->pct = sp->lo = sp->hi = NAN;
	sp->before = stats_mean(x + from, at - from);
	sp->after = stats_mean(x + at, to - at);
	if (!stats_ratio_ci(x + from, at - from, x + at, to - at, 0.95, &ci)) {
		sp->pct = (ci.est - 1) * 100;
		sp->lo = (ci.lo - 1) * 100;
		sp->hi = (ci.hi - 1) * 100;
	} else if (!stats_diff_ci(x + from, at - from, x + at, to - at, 0.95, &ci)) {
		double base = fabs(sp->before);

		sp->pct = base > 0 ? ci.est / base * 100 : NAN;	/* below 0: relative to its size */
		sp->lo = base > 0 ? ci.lo / base * 100 : NAN;
		sp->hi = base > 0 ? ci.hi / base * 100 : NAN;
	}
	up = isnan(sp->pct) ? sp->after > sp->before : sp->pct > 0;
	sp->verdict = !strcmp(sr->better, "none") ? "change" :
		      up == !strcmp(sr->better, "higher") ? "improvement" : "regression";
	/* a step from 0 is beyond any percentage */
	sp->gate = !isnan(a->fail_pct) && !strcmp(sp->verdict, "regression") &&
		   (isnan(sp->pct) || fabs(sp->pct) > a->fail_pct);
}

const char *shown_key(const struct series *sr, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s%s", sr->name, *sr->mkey ? "{" : "", sr->mkey,
		 *sr->mkey ? "}" : "");
	return buf;
}

const char *pt_field(const struct point *p, bool commit)
{
	return commit ? p->commit : p->kernel;
}

/* How many kernels (commits) the points [from, to) ran on, counting each change. */
int side_count(const struct series *sr, int from, int to, bool commit)
{
	int i, k = 1;

	for (i = from + 1; i < to; i++)
		k += strcmp(pt_field(&sr->pt[i], commit), pt_field(&sr->pt[i - 1], commit)) != 0;
	return k;
}

static int side_kernels(const struct series *sr, int from, int to)
{
	return side_count(sr, from, to, false);
}

/* How many of the points [from, to) are runs whose threads moved CPU in some sample. */
static int side_moved(const struct series *sr, int from, int to)
{
	int i, k = 0;

	for (i = from; i < to; i++)
		k += sr->pt[i].moved > 0;
	return k;
}

/* A side's line: the kernel and commit at the change, and the kernels it spans if several. */
static void print_side(const char *what, const struct series *sr, int from, int to,
		       const struct point *edge)
{
	int k = side_kernels(sr, from, to), moved = side_moved(sr, from, to);

	printf("  %s %d points, %s .. %s, kernel %s, commit %s", what, to - from,
	       sr->pt[from].date, sr->pt[to - 1].date, edge->kernel, edge->commit);
	if (k > 1)
		printf(" (%d kernels: %s .. %s)", k, sr->pt[from].kernel, sr->pt[to - 1].kernel);
	if (moved)
		printf("; threads moved CPU in %d of its runs", moved);
	putchar('\n');
}

void series_head(const struct series *sr, const struct db_args *a)
{
	char m[512];

	printf("%s%s%s %s (%s) on %s%s%s", sr->bench, *sr->measured ? " " : "", sr->measured,
	       shown_key(sr, m, sizeof(m)), sr->unit, sr->host, a->f.by_kernel ? ", kernel " : "",
	       a->f.by_kernel ? sr->kernel : "");
}

/* The commit a kernel release was built from: its "-g<hex>" suffix (7 to 40 digits), or NULL. */
static const char *release_commit(const char *rel)
{
	const char *g = rel ? strrchr(rel, '-') : NULL;
	size_t n;

	if (!g || g[1] != 'g')
		return NULL;
	n = strlen(g + 2);
	return n >= 7 && n <= 40 && strspn(g + 2, "0123456789abcdef") == n ? g + 2 : NULL;
}

/* A word as a shell reads it back: as it is, or in single quotes. */
static void shell_word(char **out, size_t *len, size_t *cap, const char *w)
{
	bool plain = *w && strspn(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				    "0123456789_.,:/=+-@%") == strlen(w);
	size_t need = *len + strlen(w) * 4 + 4;
	const char *c;

	if (need > *cap) {
		*cap = 2 * need;
		*out = realloc(*out, *cap);
		if (!*out)
			die("out of memory");
	}
	if (plain) {
		*len += sprintf(*out + *len, " %s", w);
		return;
	}
	*len += sprintf(*out + *len, " '");
	for (c = w; *c; c++)
		*len += *c == '\'' ? sprintf(*out + *len, "'\\''") : sprintf(*out + *len, "%c", *c);
	*len += sprintf(*out + *len, "'");
}

/*
 * The series' benchmark arguments, rebuilt from its measured options (the
 * history keeps no command line): "--name value" each, a flag set as
 * "--name".  The measured text is "name=value,..." in which a value may
 * hold commas (a CPU list): a part without '=' goes on the value before it.
 */
static char *series_args(const struct series *sr)
{
	const struct bench *b = bench_find(sr->bench);
	char *text = xstrdup(sr->measured), *out = NULL, *p, *next, *eq, *val;
	size_t len = 0, cap = 0;
	const struct opt_def *o;
	char name[128];

	shell_word(&out, &len, &cap, sr->bench);
	for (p = *text ? text : NULL; p; p = next) {
		eq = strchr(p, '=');
		next = eq ? strchr(eq, ',') : NULL;
		while (next && !memchr(next + 1, '=', strcspn(next + 1, ",")))
			next = strchr(next + 1, ',');	/* a part of this value */
		if (next)
			*next++ = 0;
		if (!eq)
			continue;
		*eq = 0;
		val = eq + 1;
		o = opts_find(global_opts, p);
		if (!o && b)
			o = opts_find(b->opts, p);
		snprintf(name, sizeof(name), "--%s", p);
		if (o && o->type == OPT_FLAG) {
			if (!strcmp(val, "true"))
				shell_word(&out, &len, &cap, name);
			continue;	/* (a flag's false is its default: not measured) */
		}
		shell_word(&out, &len, &cap, name);
		shell_word(&out, &len, &cap, val);
	}
	free(text);
	return out;
}

/*
 * "--good A --bad B --metric M -- ARGS" for the change at cp, or NULL when
 * a side's kernel names no commit.
 */
static char *bisect_args(const struct series *sr, const struct ed_cp *cp)
{
	const char *good = release_commit(sr->pt[cp->at - 1].kernel);
	const char *bad = release_commit(sr->pt[cp->at].kernel);
	char *args, *metric = NULL, *out;
	size_t len = 0, cap = 0;
	char m[512];

	if (!good || !bad || !strcmp(good, bad))
		return NULL;
	shell_word(&metric, &len, &cap, shown_key(sr, m, sizeof(m)));
	args = series_args(sr);
	if (asprintf(&out, "--good %s --bad %s --metric%s --%s", good, bad, metric, args) < 0)
		die("out of memory");
	free(metric);
	free(args);
	return out;
}

static void print_change(struct tally *t, const struct series *sr, const struct ed_cp *cp,
			 int from, int to, const struct cp_step *sp, const struct db_args *a)
{
	char *bisect = bisect_args(sr, cp);

	const struct point *b = &sr->pt[cp->at - 1], *f = &sr->pt[cp->at];

	series_head(sr, a);
	printf(": point %d of %d\n", cp->at + 1, sr->n);
	if (isnan(sp->pct))
		printf("  step from %.6g to %.6g (no percentage of 0)", sp->before, sp->after);
	else
		printf("  step %+.2f%% [%+.2f%%, %+.2f%%]", sp->pct, sp->lo, sp->hi);
	printf("  p %.3f  %s%s\n", cp->p, sp->verdict, sp->gate ? " beyond --fail-on-change" : "");
	print_side("before:", sr, from, cp->at, b);
	print_side("after: ", sr, cp->at, to, f);
	if (bisect) {
		printf("  bisect: bpfbench bisect %s\n", bisect);
		t->nr_bisect++;
	}
	free(bisect);
}

static json_object *side_json(const struct series *sr, int from, int to, const struct point *edge)
{
	json_object *o = json_object_new_object();

	json_object_object_add(o, "points", json_object_new_int(to - from));
	json_object_object_add(o, "first_date", json_object_new_string(sr->pt[from].date));
	json_object_object_add(o, "last_date", json_object_new_string(sr->pt[to - 1].date));
	json_object_object_add(o, "kernel", json_object_new_string(edge->kernel));
	json_object_object_add(o, "commit", json_object_new_string(edge->commit));
	json_object_object_add(o, "kernels", json_object_new_int(side_kernels(sr, from, to)));
	json_object_object_add(o, "moved_runs", json_object_new_int(side_moved(sr, from, to)));
	return o;
}

json_object *num_or_null(double v)
{
	return isfinite(v) ? json_object_new_double(v) : NULL;
}

static void json_change(struct tally *t, const struct series *sr, const struct ed_cp *cp,
			int from, int to, const struct cp_step *sp)
{
	json_object *o = json_object_new_object();
	char *bisect;

	json_object_object_add(o, "bench", json_object_new_string(sr->bench));
	json_object_object_add(o, "options", json_object_new_string(sr->measured));
	json_object_object_add(o, "metric", json_object_new_string(sr->name));
	json_object_object_add(o, "key", *sr->mkey ? json_object_new_string(sr->mkey) : NULL);
	json_object_object_add(o, "unit", json_object_new_string(sr->unit));
	json_object_object_add(o, "host", json_object_new_string(sr->host));
	if (t->a->f.by_kernel)
		json_object_object_add(o, "kernel", json_object_new_string(sr->kernel));
	json_object_object_add(o, "better", json_object_new_string(sr->better));
	json_object_object_add(o, "index", json_object_new_int(cp->at));
	json_object_object_add(o, "points", json_object_new_int(sr->n));
	json_object_object_add(o, "step_pct", num_or_null(sp->pct));
	json_object_object_add(o, "ci95_low_pct", num_or_null(sp->lo));
	json_object_object_add(o, "ci95_high_pct", num_or_null(sp->hi));
	json_object_object_add(o, "before_mean", num_or_null(sp->before));
	json_object_object_add(o, "after_mean", num_or_null(sp->after));
	json_object_object_add(o, "p", json_object_new_double(cp->p));
	json_object_object_add(o, "verdict", json_object_new_string(sp->verdict));
	json_object_object_add(o, "beyond_gate", json_object_new_boolean(sp->gate));
	json_object_object_add(o, "before", side_json(sr, from, cp->at, &sr->pt[cp->at - 1]));
	json_object_object_add(o, "after", side_json(sr, cp->at, to, &sr->pt[cp->at]));
	bisect = bisect_args(sr, cp);
	json_object_object_add(o, "bisect", bisect ? json_object_new_string(bisect) : NULL);
	free(bisect);
	json_object_array_add(t->list, o);
}

static void analyse(struct tally *t, struct series *sr)
{
	const struct db_args *a = t->a;
	struct why_unjudged w;
	struct ed_cp *cp;
	struct cp_step sp;
	char step[160] = "";
	bool skipped = false;
	double *x;
	int i, k, from, to, gated = 0;

	if (!sr->host)
		return;
	t->nr_series++;
	t->nr_directed += strcmp(sr->better, "none") != 0;
	x = xcalloc(sr->n + 1, sizeof(double));
	cp = xcalloc(sr->n + 1, sizeof(*cp));
	for (i = 0; i < sr->n; i++)
		x[i] = sr->pt[i].v;
	k = series_changes(sr, a, x, cp);
	for (i = 0; i < k; i++) {
		from = i ? cp[i - 1].at : 0;
		to = i + 1 < k ? cp[i + 1].at : sr->n;
		measure_step(sr, x, from, cp[i].at, to, a, &sp);
		t->nr_changes++;
		t->nr_regressions += sp.gate;
		if (a->json)
			json_change(t, sr, &cp[i], from, to, &sp);
		else if (!a->quiet)
			print_change(t, sr, &cp[i], from, to, &sp, a);
		if (sp.gate)
			regression_line(sr, &cp[i], from, to, &sp);
		if (sp.gate && !gated++)
			gate_step(sr, &cp[i], &sp, step, sizeof(step));
	}
	/* a series with no direction is never a regression: nothing to judge */
	if (!isnan(a->fail_pct) && !gated && strcmp(sr->better, "none") && unjudged(t, sr, x, &w)) {
		report_unjudged(t, sr, &w);
		skipped = true;
	}
	if (t->cases)
		series_case(t, sr, k, gated ? step : NULL, skipped ? &w : NULL);
	free(x);
	free(cp);
}

static void summary(struct tally *t)
{
	const struct db_args *a = t->a;
	json_object *o;

	if (!a->json) {
		printf("%d change point%s in %d %sseries (E-divisive means, permutation test: "
		       "p <= %g, %d permutations)\n", t->nr_changes, t->nr_changes == 1 ? "" : "s",
		       t->nr_series, a->f.normalized ? "normalized " : "", a->alpha,
		       a->permutations);
		if (t->nr_bisect)
			printf("bisect: each line's ARGS are its series' benchmark and measured options "
			       "(the history keeps no command line): add the -w/-d its runs had\n");
		if (isnan(a->fail_pct))
			return;
		if (!t->nr_directed) {
			printf("Gate: --fail-on-change %g%%: no series to judge (exit %d).\n",
			       a->fail_pct, EXIT_UNJUDGED);
			return;
		}
		printf("Gate: --fail-on-change %g%%: %d regression%s, %d series not judged",
		       a->fail_pct, t->nr_regressions, t->nr_regressions == 1 ? "" : "s",
		       t->nr_unjudged);
		if (t->nr_regressions)
			printf(" (exit 1)");
		else if (t->nr_unjudged)
			printf(unjudged_pass(a) ? " (passed: --gate-unjudged pass)" : " (exit %d)",
			       EXIT_UNJUDGED);
		printf(".\n");
		return;
	}
	o = json_object_new_object();
	json_object_object_add(o, "method", json_object_new_string("e-divisive means"));
	json_object_object_add(o, "alpha", json_object_new_double(a->alpha));
	json_object_object_add(o, "permutations", json_object_new_int(a->permutations));
	json_object_object_add(o, "series", json_object_new_int(t->nr_series));
	json_object_object_add(o, "changes", t->list);
	t->list = NULL;
	if (!isnan(a->fail_pct)) {
		json_object_object_add(o, "fail_on_change_pct", json_object_new_double(a->fail_pct));
		json_object_object_add(o, "regressions", json_object_new_int(t->nr_regressions));
		json_object_object_add(o, "unjudged", t->unjudged);
		t->unjudged = NULL;
	}
	fprintf(export_stdout(), "%s\n",
		json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
					       JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(o);
}

int db_changes(struct store *s, const struct db_args *a)
{
	struct tally t = { .a = a, .list = json_object_new_array(),
			   .unjudged = json_object_new_array(),
			   .cases = out_any(a->verdicts, OUT_K_VERDICTS),
			   .v = { .suite = "bpfbench db changes" } };
	struct series sr = { .n = 0 };
	char key[SERIES_KEY_MAX];
	uint64_t start = now_ns();
	struct stmt *st;
	enum store_row r;
	int ret;

	if (a->json || out_to_stdout(a->verdicts))
		human_to_stderr();	/* stdout is the output's alone */
	st = series_query(s, &a->f);
	if (!st)
		return 1;
	while ((r = store_step(s, st)) == STEP_ROW && !interrupted()) {
		series_key(s, st, a->f.by_kernel, key, sizeof(key));
		if (!sr.host || strcmp(key, sr.key)) {
			analyse(&t, &sr);
			series_start(s, st, &sr, key);
		}
		series_add(s, st, &sr);
	}
	store_finalize(s, st);
	if (r == STEP_ERROR || interrupted()) {
		series_clear(&sr);
		free(sr.pt);
		json_object_put(t.list);
		json_object_put(t.unjudged);
		verdicts_free(&t.v);
		return r == STEP_ERROR ? 1 : 128 + interrupted_signal();
	}
	analyse(&t, &sr);
	series_clear(&sr);
	free(sr.pt);
	summary(&t);
	json_object_put(t.list);
	json_object_put(t.unjudged);
	t.v.secs = (now_ns() - start) / 1e9;
	ret = t.cases && verdicts_write(a->verdicts, &t.v);
	verdicts_free(&t.v);
	if (t.nr_regressions || ret)
		return 1;
	/* a gate that judged nothing (a filter that matched nothing) passes nothing */
	if (!isnan(a->fail_pct) && !t.nr_directed) {
		errmsg("gate: no %sseries %s: nothing judged, exit %d", a->f.normalized ?
		       "normalized " : "", t.nr_series ? "with a better direction" :
		       "matched (the benchmark, --metric, --host, --options, --since, --until)",
		       EXIT_UNJUDGED);
		return EXIT_UNJUDGED;
	}
	if (!t.nr_unjudged || unjudged_pass(a))
		return 0;
	errmsg("gate: %d series not judged (too short or too noisy to show a step of %g%%): "
	       "exit %d; --gate-unjudged pass lets %s pass", t.nr_unjudged, a->fail_pct,
	       EXIT_UNJUDGED, t.nr_unjudged == 1 ? "it" : "them");
	return EXIT_UNJUDGED;
}
