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
 * Per metric (src/verdict.c): estimates (rates, times, ratios) are tested
 * with Welch's t and Mann-Whitney's U on run means when both sides have at
 * least three runs, else on batch means of the samples of one process;
 * the p-values of all tested rows of the comparison are adjusted together
 * (Holm by default).  A row is "equal" when the 95% interval of new/old
 * lies within +-noise, faster/slower (better/worse) when the adjusted p is
 * below alpha, else inconclusive.  Levels, peaks and counts get no test,
 * only the noise threshold; a derived metric takes its base's verdict.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "compare.h"
#include "mkey.h"
#include "opts.h"
#include "resdoc.h"
#include "stats.h"
#include "util.h"
#include "verdict.h"
#include "cmp_match.h"
#include "cmp_print.h"

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
	return r->tested || r->basis == BASIS_FEW;
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
static int metric_notes(const char *name, const struct res_run *o, const struct res_run *n)
{
	char only_new[512], only_old[512];
	const struct res_metric *om;
	int i, nn, no, units = 0;

	for (i = 0; i < n->nr_metrics; i++) {
		om = res_run_metric(o, n->metrics[i].name, n->metrics[i].key);
		if (om && !same_unit(om, &n->metrics[i])) {
			printf("%s  %s not compared: its unit differs (NEW %s, OLD %s)\n", name,
			       n->metrics[i].id, n->metrics[i].unit, om->unit);
			units++;
		}
	}
	nn = lone_list(n, o, only_new, sizeof(only_new));
	no = lone_list(o, n, only_old, sizeof(only_old));
	if (nn)
		printf("%s  %d metric%s only in NEW: %s\n", name, nn, nn == 1 ? "" : "s", only_new);
	if (no)
		printf("%s  %d metric%s only in OLD: %s\n", name, no, no == 1 ? "" : "s", only_old);
	if ((nn || no) && keys_differ(o, n))
		printf("%s  (one file names metrics with their parameters, as bpfbench did before "
		       "metric keys: those do not match)\n", name);
	return units + nn + no;
}

static void print_unmatched(struct cmp_match *m, const struct res_doc *old,
			    const struct res_doc *new, const int *pair, const bool *used,
			    char **names, struct cmp_tally *tally)
{
	const struct res_run *o;
	char why[1024], *oname;
	int i;

	for (i = 0; i < new->nr_runs && !interrupted(); i++) {
		o = pair[i] >= 0 ? &old->runs[pair[i]] : NULL;
		if (o && (o->status || new->runs[i].status))
			printf("%s  not compared: the run failed in %s (status %d)\n", names[i],
			       o->status ? "OLD" : "NEW", o->status ?: new->runs[i].status);
		else if (o)
			tally->lone_metrics += metric_notes(names[i], o, &new->runs[i]);
		if (o)
			continue;
		cmp_closest(m, i, true, why, sizeof(why));
		printf("%s  only in NEW; the closest run of OLD differs in %s\n", names[i], why);
		tally->only_new++;
	}
	for (i = 0; i < old->nr_runs && !interrupted(); i++) {
		if (used[i])
			continue;
		oname = cmp_run_name(m, false, i);
		cmp_closest(m, i, false, why, sizeof(why));
		printf("%s  only in OLD; the closest run of NEW differs in %s\n", oname, why);
		free(oname);
		tally->only_old++;
	}
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

	tally.matched = pair_runs(m, pair, used);
	for (i = 0; i < new->nr_runs; i++) {
		names[i] = cmp_run_name(m, true, i);
		o = pair[i] >= 0 ? &old->runs[pair[i]] : NULL;
		if (o && (o->status || new->runs[i].status))
			tally.failed++;
		else if (o && !interrupted())
			add_rows(&t, a, names[i], o, &new->runs[i]);
	}
	adjust(&t, &a->o, &family);
	cmp_print_header(&a->o, old, new, family);
	cmp_print_table(&t, &a->o, &tally);
	print_unmatched(m, old, new, pair, used, names, &tally);
	cmp_print_summary(&t, &a->o, &tally);
	for (i = 0; i < new->nr_runs; i++)
		free(names[i]);
	free(names);
	free(t.rows);
	free(pair);
	free(used);
	cmp_match_free(m);
	if (interrupted())
		return 1;	/* the signal's status, 128+N, at exit */
	if (!tally.matched) {
		errmsg("no run of %s matches one of %s (benchmark, label and options differ)",
		       new->path, old->path);
		return 1;
	}
	if (!t.n && tally.lone_metrics) {
		errmsg("no metric of %s matches one of %s (names, keys or units differ: see above)",
		       new->path, old->path);
		return 1;
	}
	return tally.regressions ? 1 : 0;
}

static int parse_real(const char *opt, const char *text, double lo, double hi, bool lo_open,
		      double *out)
{
	char *end;
	double v;

	v = text && *text ? strtod(text, &end) : NAN;
	if (isnan(v) || *end || v > hi || v < lo || (lo_open && v == lo)) {
		errmsg("%s: '%s' is not a number in %s%g, %g]", opt, text ?: "",
		       lo_open ? "(" : "[", lo, hi);
		return EXIT_USAGE;
	}
	*out = v;
	return 0;
}

static int parse_adjust(const char *text, enum stats_adjust *out)
{
	static const char *const names[] = { "holm", "bh", "none" };
	size_t i;

	for (i = 0; text && i < ARRAY_SIZE(names); i++) {
		if (!strcmp(text, names[i])) {
			*out = (enum stats_adjust)i;
			return 0;
		}
	}
	errmsg("--adjust: '%s' is not holm, bh or none", text ?: "");
	return EXIT_USAGE;
}

/* A comma list of identity parts into a->names (kept pointing into argv). */
static int parse_names(const char *opt, char *text, struct cmp_args *a)
{
	char *save = NULL, *tok;

	if (!text || !*text) {
		errmsg("%s needs a comma list of option names", opt);
		return EXIT_USAGE;
	}
	for (tok = strtok_r(text, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (a->nr_names == MAX_KEY_NAMES) {
			errmsg("%s: more than %d names", opt, MAX_KEY_NAMES);
			return EXIT_USAGE;
		}
		a->names[a->nr_names++] = tok;
	}
	return 0;
}

/* --opt V or --opt=V: the value, or NULL when the option is another. */
static bool opt_is(const char *arg, const char *opt)
{
	size_t len = strlen(opt);

	return !strncmp(arg, opt, len) && (!arg[len] || arg[len] == '=');
}

static int parse_one(int argc, char **argv, int *i, struct cmp_args *a, int *files)
{
	char *arg = argv[*i], *eq = strchr(arg, '='), *val;
	bool ignore;

	val = eq ? eq + 1 : (*i + 1 < argc ? argv[*i + 1] : NULL);
	if (arg[0] != '-' || !arg[1]) {
		if (*files == 0)
			a->old_path = arg;
		else if (*files == 1)
			a->new_path = arg;
		++*files;
		return 0;
	}
	if (!eq && strncmp(arg, "--", 2) == 0 && (opt_is(arg, "--alpha") ||
	    opt_is(arg, "--fail-on-regression") || opt_is(arg, "--noise") ||
	    opt_is(arg, "--adjust") || opt_is(arg, "--match") || opt_is(arg, "--ignore-option")))
		++*i;	/* the value is the next word */
	if (opt_is(arg, "--alpha"))
		return parse_real("--alpha", val, 0, 0.5, true, &a->o.alpha);
	if (opt_is(arg, "--fail-on-regression"))
		return parse_real("--fail-on-regression", val, 0, 1e6, false, &a->o.fail_pct);
	if (opt_is(arg, "--noise")) {
		if (parse_real("--noise", val, 0, 100, false, &a->o.noise))
			return EXIT_USAGE;
		a->o.noise /= 100;
		return 0;
	}
	if (opt_is(arg, "--adjust"))
		return parse_adjust(val, &a->o.adjust);
	ignore = opt_is(arg, "--ignore-option");
	if (ignore || opt_is(arg, "--match")) {
		if (a->nr_names && a->match_only == ignore) {
			errmsg("compare: --match and --ignore-option exclude each other");
			return EXIT_USAGE;
		}
		a->match_only = !ignore;
		return parse_names(ignore ? "--ignore-option" : "--match", val, a);
	}
	errmsg("compare: unknown option %s", arg);
	return EXIT_USAGE;
}

static int parse_args(int argc, char **argv, struct cmp_args *a)
{
	int i, ret = 0, files = 0;

	for (i = 1; i < argc && !ret; i++)
		ret = parse_one(argc, argv, &i, a, &files);
	if (!ret && files != 2) {
		errmsg("compare needs two files: bpfbench compare OLD.json NEW.json (got %d)",
		       files);
		ret = EXIT_USAGE;
	}
	return ret;
}

int compare_cmd(int argc, char **argv)
{
	struct cmp_args a = {
		.o = { .alpha = 0.05, .noise = CMP_NOISE_PCT / 100, .fail_pct = -1,
		       .adjust = STATS_ADJUST_HOLM },
	};
	struct res_doc old = { 0 }, new = { 0 };
	int ret;

	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		cmp_print_help();
		return 0;
	}
	ret = parse_args(argc, argv, &a);
	if (!ret)
		ret = resdoc_load(a.old_path, &old);
	if (!ret)
		ret = resdoc_load(a.new_path, &new);
	if (!ret)
		ret = compare_docs(&a, &old, &new);
	resdoc_free(&old);
	resdoc_free(&new);
	return ret;
}
