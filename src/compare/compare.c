// SPDX-License-Identifier: GPL-2.0
/*
 * compare: two result documents, run by run and metric, with a verdict a
 * CI gate can act on.
 *
 * Runs match on benchmark, suite, section, label and every option that
 * changes what is measured (not the warm-up, duration, period, repeat
 * count or output options; an option at its default counts as absent).
 * --ignore-option drops parts of that identity, --match keeps only the
 * benchmark and the parts named, so that two configurations of one
 * benchmark can be compared.
 *
 * Per metric (src/compare/verdict.c): estimates (rates, times, ratios) are tested
 * on the log scale with Welch's t (Mann-Whitney's U beside) on run means
 * when both sides have at least three runs, else on batch means of the
 * samples of one process or a short series' samples; unpaired files also
 * carry --drift, the noise between sessions that neither side's spread
 * shows.  The p-values of all tested rows are adjusted together (Holm by
 * default).  A row is "equal" when the 95% interval of new/old lies within
 * +-noise, faster/slower (better/worse) when the adjusted p is below alpha,
 * else "cannot tell"; "no verdict" where no test is valid (too few values,
 * < CMP_MIN_DF degrees of freedom, a side constant, an interval over
 * CMP_MAX_SPAN wide).  Levels, peaks and counts get no test, only the
 * noise threshold and their resolution; a derived metric takes its base's
 * verdict.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"
#include "compare.h"
#include "mkey.h"
#include "opts.h"
#include "outfile.h"
#include "resdoc.h"
#include "stats.h"
#include "util.h"
#include "verdict.h"
#include "verdicts.h"
#include "cmp_cli.h"
#include "cmp_match.h"
#include "cmp_print.h"

static bool notes_muted;	/* -q: the answers only */

/* A line of the notes after the table (unmatched runs and metrics), unless -q. */
static void __attribute__((format(printf, 1, 2))) note(const char *fmt, ...)
{
	va_list ap;

	if (notes_muted)
		return;
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
}

static struct cmp_row *add_row(struct cmp_table *t)
{
	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 64;
		t->rows = realloc(t->rows, sizeof(*t->rows) * t->cap);
		if (!t->rows)
			die("out of memory");
	}
	return &t->rows[t->n++];
}

/* An old file's count may have no unit; otherwise a unit must be the same to compare figures. */
static bool same_unit(const struct res_metric *om, const struct res_metric *nm)
{
	return !*om->unit || !*nm->unit || !strcmp(om->unit, nm->unit);
}

/* The metric of o that n's metric m is compared with, or NULL. */
static const struct res_metric *partner(const struct res_run *o, const struct res_metric *m)
{
	const struct res_metric *om = res_run_metric(o, m->name, m->key);

	return om && same_unit(om, m) ? om : NULL;
}

static void add_rows(struct cmp_table *t, const struct cmp_args *a, const char *name,
		     const struct res_run *o, const struct res_run *n)
{
	const struct res_metric *om;
	int i, first = t->n, k;
	struct cmp_row *row;

	for (i = 0; i < n->nr_metrics; i++) {
		om = partner(o, &n->metrics[i]);
		if (!om)
			continue;
		row = add_row(t);
		cmp_row_init(row, name, om, &n->metrics[i]);
		cmp_row_test(row, o, n, &a->o);
	}
	/* a derived metric without its base in both runs is tested on its own samples */
	for (i = first; i < t->n; i++) {
		row = &t->rows[i];
		if (row->basis != BASIS_BASE)
			continue;
		for (k = first; k < t->n; k++)
			if (!strcmp(t->rows[k].nm->id, row->nm->of) && t->rows[k].basis != BASIS_BASE)
				break;
		row->base = k < t->n ? k : -1;
		if (row->base < 0) {
			row->kind = RES_SAMPLED;
			cmp_row_test(row, o, n, &a->o);
		}
	}
}

/*
 * Holm or BH over every estimate row, those too short to test counting
 * with p = 1: a row is only testable when its samples look uncorrelated,
 * which short series often do by chance, so leaving the untested out of
 * the family would favour the rows most likely to mislead.
 */
static bool in_family(const struct cmp_row *r)
{
	return cmp_row_in_family(r);
}

static void adjust(struct cmp_table *t, const struct cmp_opts *o, int *family)
{
	double *p = xcalloc(t->n ?: 1, sizeof(double)), *q = xcalloc(t->n ?: 1, sizeof(double));
	int i, k = 0;

	for (i = 0; i < t->n; i++)
		if (in_family(&t->rows[i]))
			p[k++] = t->rows[i].tested ? t->rows[i].p : 1.0;
	stats_p_adjust(p, k, o->adjust, q);
	for (i = 0, k = 0; i < t->n; i++) {
		if (!in_family(&t->rows[i]))
			continue;
		t->rows[i].p_adj = q[k++];
		cmp_row_decide(&t->rows[i], o);
	}
	for (i = 0; i < t->n; i++)
		if (t->rows[i].basis == BASIS_BASE && t->rows[i].base >= 0)
			cmp_row_follow(&t->rows[i], &t->rows[t->rows[i].base]);
	*family = k;
	free(p);
	free(q);
}

/* For each run of NEW, the index of its partner in OLD or -1; used[] marks OLD's (cmp_match.c). */
static int pair_runs(struct cmp_match *m, int *pair, bool *used)
{
	return cmp_pair_runs(m, pair, used);
}

/* Up to three ids of x's metrics without a partner in y, then how many more; their number. */
static int lone_list(const struct res_run *x, const struct res_run *y, char *buf, size_t len)
{
	size_t used = 0;
	int i, nr = 0;

	buf[0] = 0;
	for (i = 0; i < x->nr_metrics; i++) {
		if (res_run_metric(y, x->metrics[i].name, x->metrics[i].key))
			continue;
		if (nr++ < 3 && used < len)
			used += snprintf(buf + used, len - used, "%s%s", nr > 1 ? ", " : "",
					 x->metrics[i].id);
	}
	if (nr > 3 && used < len)
		snprintf(buf + used, len - used, " and %d more", nr - 3);
	return nr;
}

/* Whether x names its metrics without keys where y keys them: a file from before metric keys. */
static bool keys_differ(const struct res_run *x, const struct res_run *y)
{
	int i, kx = 0, ky = 0;

	for (i = 0; i < x->nr_metrics; i++)
		kx += !mkey_none(x->metrics[i].key);
	for (i = 0; i < y->nr_metrics; i++)
		ky += !mkey_none(y->metrics[i].key);
	return !kx != !ky;
}

/* A matched pair's metrics that were not compared, and why; their number. */
static int metric_notes(const char *name, const struct res_run *o, const struct res_run *n,
			const struct cmp_opts *op)
{
	char only_new[512], only_old[512];
	const struct res_metric *om;
	int i, nn, no, units = 0;

	for (i = 0; i < n->nr_metrics; i++) {
		om = res_run_metric(o, n->metrics[i].name, n->metrics[i].key);
		if (om && !same_unit(om, &n->metrics[i])) {
			note("%s  %s not compared: its unit differs (%s %s, %s %s)\n", name,
			     n->metrics[i].id, op->new_name, n->metrics[i].unit, op->old_name,
			     om->unit);
			units++;
		}
	}
	nn = lone_list(n, o, only_new, sizeof(only_new));
	no = lone_list(o, n, only_old, sizeof(only_old));
	if (nn)
		note("%s  %d metric%s only in %s: %s\n", name, nn, nn == 1 ? "" : "s", op->new_name,
		     only_new);
	if (no)
		note("%s  %d metric%s only in %s: %s\n", name, no, no == 1 ? "" : "s", op->old_name,
		     only_old);
	if ((nn || no) && keys_differ(o, n))
		note("%s  (one file names metrics with their parameters, as bpfbench did before "
		       "metric keys: those do not match)\n", name);
	return units + nn + no;
}

/* A NEW run that cannot stand for its configuration: failed, or cut short by a signal. */
static bool new_run_bad(const struct res_run *n)
{
	return n->status || n->interrupted;
}

static void print_unmatched(struct cmp_match *m, const struct res_doc *old,
			    const struct res_doc *new, const int *pair, const bool *used,
			    char **names, struct cmp_tally *tally, const struct cmp_opts *op)
{
	const struct res_run *o;
	char why[1024], *oname;
	int i;

	for (i = 0; i < new->nr_runs && !interrupted(); i++) {
		o = pair[i] >= 0 ? &old->runs[pair[i]] : NULL;
		if (o && (o->status || new_run_bad(&new->runs[i])))
			note("%s  not compared: the run %s in %s (status %d)\n", names[i],
			     o->status || new->runs[i].status ? "failed" : "was interrupted",
			     o->status ? op->old_name : op->new_name, o->status ?: new->runs[i].status);
		else if (o)
			tally->lone_metrics += metric_notes(names[i], o, &new->runs[i], op);
		if (o)
			continue;
		cmp_closest(m, i, true, why, sizeof(why));
		note("%s  only in %s; the closest run of %s differs in %s\n", names[i], op->new_name,
		     op->old_name, why);
		tally->only_new++;
	}
	for (i = 0; i < old->nr_runs && !interrupted(); i++) {
		if (used[i])
			continue;
		oname = cmp_run_name(m, false, i);
		cmp_closest(m, i, false, why, sizeof(why));
		note("%s  only in %s; the closest run of %s differs in %s\n", oname, op->old_name,
		     op->new_name, why);
		free(oname);
		tally->only_old++;
	}
}

/*
 * The answer lines of what could not be compared, even under -q: a NEW
 * run that failed (a gate must not pass on it), and a NEW run that only
 * an option keeps from its partner (the --ignore-option that pairs them).
 */
static void print_uncompared(struct cmp_match *m, const struct cmp_args *a,
			     const struct res_doc *new, const int *pair, char **names)
{
	char parts[512];
	int i;

	for (i = 0; i < new->nr_runs && !interrupted(); i++) {
		const struct res_run *n = &new->runs[i];

		if (pair[i] >= 0 && new_run_bad(n))
			printf("%s: not compared: %s's run %s%s\n", names[i], a->o.new_name,
			       n->status ? "failed" : "was interrupted",
			       n->status ? (n->status >= 128 ? " (interrupted)" : "") : "");
		else if (pair[i] < 0 && cmp_closest_names(m, i, parts, sizeof(parts)))
			printf("%s: not compared: no run of %s has its options (they differ in "
			       "%s)\n    to compare these configurations: --ignore-option %s\n",
			       names[i], a->o.old_name, parts, parts);
	}
}

/* Under --fail-on-regression, a failed or interrupted NEW run fails the gate. */
static int gate_bad_runs(const struct cmp_args *a, const struct res_doc *new, const int *pair,
			 char **names)
{
	int i, bad = 0;

	for (i = 0; i < new->nr_runs; i++) {
		if (pair[i] < 0 || !new_run_bad(&new->runs[i]))
			continue;
		bad++;
		if (a->o.fail_pct >= 0)
			errmsg("gate: %s: %s's run %s (status %d): no verdict, the gate fails",
			       names[i], a->o.new_name, new->runs[i].status ? "failed" :
			       "was interrupted", new->runs[i].status);
	}
	return a->o.fail_pct >= 0 ? bad : 0;
}

/*
 * The verdicts' formats (verdicts.h): a case per row judged (a count
 * that follows the duration is not), and one per NEW run that failed,
 * each passed, failed or skipped as the gate's exit status has it.
 */
static void row_cases(struct verdicts *v, const struct cmp_table *t, const struct cmp_opts *o)
{
	const struct cmp_row *r;
	char answer[512], pct[48];
	int i;

	for (i = 0; i < t->n; i++) {
		r = &t->rows[i];
		if (r->cls == CLS_NONE)
			continue;
		cmp_answer_text(answer, sizeof(answer), r, o);
		if (cmp_row_regression(r, o) && r->from_zero)
			verdicts_add(v, r->run, r->nm->id, VERDICT_FAIL, answer,
				     "regression: from 0 to %g %s, beyond --fail-on-regression %g%%",
				     r->nfig, r->nm->unit, o->fail_pct);
		else if (cmp_row_regression(r, o))
			verdicts_add(v, r->run, r->nm->id, VERDICT_FAIL, answer,
				     "regression: %s, beyond --fail-on-regression %g%%",
				     cmp_pct_text(pct, sizeof(pct), r->change_pct, 2), o->fail_pct);
		else if (cmp_row_unjudged(r, o))
			verdicts_add(v, r->run, r->nm->id, VERDICT_SKIP, answer,
				     "not judged: %s, the gate cannot tell whether worse beyond %g%% "
				     "(%s%d)", cmp_class_text(r), o->fail_pct, o->unjudged_pass ?
				     "passed: --gate-unjudged pass; else exit " : "exit ", EXIT_UNJUDGED);
		else if (o->fail_pct < 0 && r->cls == CLS_NO_VERDICT)
			verdicts_add(v, r->run, r->nm->id, VERDICT_SKIP, answer, "no verdict");
		else
			verdicts_add(v, r->run, r->nm->id, VERDICT_PASS, answer, NULL);
	}
}

static int write_cases(const struct cmp_args *a, const struct cmp_table *t,
		       const struct res_doc *new, const int *pair, char **names)
{
	struct verdicts v = { .suite = a->suite, .secs = (now_ns() - a->start_ns) / 1e9 + a->secs };
	int i, ret;

	if (!out_any(a->out, OUT_K_VERDICTS))
		return 0;
	row_cases(&v, t, &a->o);
	for (i = 0; i < new->nr_runs; i++) {
		if (pair[i] < 0 || !new_run_bad(&new->runs[i]))
			continue;
		verdicts_add(&v, names[i], "run", a->o.fail_pct >= 0 ? VERDICT_FAIL : VERDICT_SKIP,
			     NULL, "not compared: %s's run %s (status %d)", a->o.new_name,
			     new->runs[i].status ? "failed" : "was interrupted", new->runs[i].status);
	}
	ret = verdicts_write(a->out, &v);
	verdicts_free(&v);
	return ret;
}

/*
 * --normalized: in each run, a NAME-normalized row answers and gates for
 * NAME, whose row stays in the table.  None anywhere is a usage error:
 * the runs were not taken with --normalize.
 */
static int outrank_raw(struct cmp_table *t, const struct cmp_opts *o)
{
	static const char sfx[] = "-normalized";
	size_t len, sl = sizeof(sfx) - 1;
	int i, k, found = 0;

	for (i = 0; o->normalized && i < t->n; i++) {
		len = strlen(t->rows[i].nm->name);
		if (len <= sl || strcmp(t->rows[i].nm->name + len - sl, sfx))
			continue;
		found++;
		for (k = 0; k < t->n; k++)
			if (t->rows[k].run == t->rows[i].run &&
			    strlen(t->rows[k].nm->name) == len - sl &&
			    !strncmp(t->rows[k].nm->name, t->rows[i].nm->name, len - sl))
				t->rows[k].outranked = true;
	}
	if (o->normalized && !found && t->n) {
		errmsg("compare --normalized: no run of both files has a NAME-normalized metric: "
		       "take them with --normalize");
		return EXIT_USAGE;
	}
	return 0;
}

static void free_docs_state(char **names, int nr_names, struct cmp_table *t, int *pair,
			    bool *used, struct cmp_match *m)
{
	int i;

	for (i = 0; i < nr_names; i++)
		free(names[i]);
	free(names);
	free(t->rows);
	free(pair);
	free(used);
	cmp_match_free(m);
}

static int compare_docs(const struct cmp_args *a, const struct res_doc *old,
			const struct res_doc *new)
{
	bool *used = xcalloc(old->nr_runs ?: 1, sizeof(bool));
	int *pair = xcalloc(new->nr_runs ?: 1, sizeof(int)), i, family;
	char **names = xcalloc(new->nr_runs ?: 1, sizeof(char *));
	struct cmp_match *m = cmp_match_init(a, old, new);
	struct cmp_table t = { 0 };
	struct cmp_tally tally = { 0 };
	const struct res_run *o;
	bool unwritten;

	tally.matched = pair_runs(m, pair, used);
	for (i = 0; i < new->nr_runs; i++) {
		names[i] = cmp_run_name(m, true, i);
		o = pair[i] >= 0 ? &old->runs[pair[i]] : NULL;
		if (o && (o->status || new_run_bad(&new->runs[i])))
			tally.failed++;
		else if (o && !interrupted())
			add_rows(&t, a, names[i], o, &new->runs[i]);
	}
	adjust(&t, &a->o, &family);
	if (outrank_raw(&t, &a->o)) {
		free_docs_state(names, new->nr_runs, &t, pair, used, m);
		return EXIT_USAGE;
	}
	cmp_count(&t, &a->o, &tally);
	cmp_print_answers(&t, &a->o);
	print_uncompared(m, a, new, pair, names);
	tally.regressions += gate_bad_runs(a, new, pair, names);
	unwritten = a->out[OUT_JSON] && cmp_write_json(a->out[OUT_JSON], &t, &a->o);
	unwritten |= write_cases(a, &t, new, pair, names);
	notes_muted = a->o.verbosity < 0;
	if (!notes_muted) {
		if (a->intro)
			printf("\n%s", a->intro);
		putchar('\n');
		cmp_print_header(&a->o, old, new, family);
		cmp_print_table(&t, &a->o);
	}
	print_unmatched(m, old, new, pair, used, names, &tally, &a->o);
	if (!notes_muted)
		cmp_print_summary(&t, &a->o, &tally);
	free_docs_state(names, new->nr_runs, &t, pair, used, m);
	if (interrupted())
		return 1;	/* the signal's status, 128+N, at exit */
	if (!tally.matched) {
		errmsg("no run of %s matches one of %s (benchmark, label and options differ)",
		       a->new_shown, a->old_shown);
		return 1;
	}
	if (!t.n && tally.lone_metrics) {
		errmsg("no metric of %s matches one of %s (names, keys or units differ%s)",
		       a->new_shown, a->old_shown, notes_muted ? "" : ": see above");
		return 1;
	}
	if (tally.regressions || unwritten)
		return 1;
	return cmp_gate_unjudged(&a->o, &tally);
}

/* Whether name is an option of r's benchmark (or a global one), recorded or at its default. */
static bool has_part(const struct res_run *r, const char *name)
{
	const struct bench *b = bench_find(r->bench);

	return cmp_part_value(r, name) || opts_find(global_opts, name) ||
	       (b && b->opts && opts_find(b->opts, name));
}

/* Each part --match or --ignore-option names must be one some run of either file has. */
static int check_names(const struct cmp_args *a, const struct res_doc *old,
		       const struct res_doc *new)
{
	const struct res_doc *docs[2] = { old, new };
	int i, d, k;

	for (i = 0; i < a->nr_names; i++) {
		if (cmp_is_fixed_part(a->names[i]))
			continue;
		for (d = 0; d < 2; d++)
			for (k = 0; k < docs[d]->nr_runs; k++)
				if (has_part(&docs[d]->runs[k], a->names[i]))
					goto found;
		errmsg("compare: %s %s: no run of either file has that part (parts: bench, "
		       "suite, section, label or a recorded option)",
		       a->match_only ? "--match" : "--ignore-option", a->names[i]);
		return EXIT_USAGE;
found:
		continue;
	}
	return 0;
}

int compare_with(int argc, char **argv, const struct cmp_extra *x)
{
	struct cmp_args a = {
		.o = { .alpha = 0.05, .noise = CMP_NOISE_PCT / 100, .fail_pct = -1,
		       .drift = CMP_DRIFT_PCT / 100, .run_noise = NAN,
		       .adjust = STATS_ADJUST_HOLM, .old_name = "OLD", .new_name = "NEW" },
	};
	struct res_doc old = { 0 }, new = { 0 };
	int ret;

	a.start_ns = now_ns();
	a.suite = "bpfbench compare";

	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		cmp_print_help();
		return 0;
	}
	ret = cmp_parse_args(argc, argv, &a);
	a.old_shown = a.old_path;
	a.new_shown = a.new_path;
	if (x) {
		a.o.paired |= x->paired;
		a.o.old_name = x->old_name;
		a.o.new_name = x->new_name;
		a.old_shown = x->old_shown;
		a.new_shown = x->new_shown;
		a.intro = x->intro;
		a.suite = x->suite;
		a.secs = x->secs;
	}
	if (!ret && output_paths_check(a.out, OUT_NR))
		ret = EXIT_USAGE;
	if (!ret)	/* an output replacing an input would destroy what it reads */
		ret = output_paths_spare(a.out, OUT_NR, a.old_path, "the input") ?:
		      output_paths_spare(a.out, OUT_NR, a.new_path, "the input");
	if (!ret && out_to_stdout(a.out))
		human_to_stderr();	/* stdout is the output's alone */
	if (!ret)
		ret = resdoc_load(a.old_path, &old);
	if (!ret)
		ret = resdoc_load(a.new_path, &new);
	if (!ret)
		ret = check_names(&a, &old, &new);
	if (!ret) {
		old.path = a.old_shown;
		new.path = a.new_shown;
		ret = compare_docs(&a, &old, &new);
	}
	resdoc_free(&old);
	resdoc_free(&new);
	return ret;
}

int compare_cmd(int argc, char **argv)
{
	return compare_with(argc, argv, NULL);
}
