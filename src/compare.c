// SPDX-License-Identifier: GPL-2.0
/*
 * compare: two result documents, run by run and metric.  Runs match on
 * benchmark, label and every option that changes what is measured (not
 * the warm-up, duration, period or output options).  Each metric gets the
 * old and new means, the change in percent, and Welch's t-test on the raw
 * samples: the change is significant when p < alpha.
 *
 * Whether a change is good depends on the metric.  First its name: one
 * that counts trouble ("drops", "failed-ops", "enospc_retries", "misses",
 * "errors", "lost", "false_positive_rate") is better lower, a "speedup"
 * better higher; both are "better" / "worse".  Otherwise its unit:
 *   - a rate (a unit per second: "M ops/s", "M/s") is better higher;
 *   - a time ("ns", "us", "ms", "s", "cycles", alone or per something:
 *     "ns/op") is better lower;
 *   - a size ("B", "KiB", "MiB", "bytes", ...) is better lower;
 *   - anything else (counts, "%") has no direction: "higher" / "lower".
 * Rates and times are "faster" / "slower", sizes "better" / "worse".
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "compare.h"
#include "opts.h"
#include "resdoc.h"
#include "stats.h"
#include "util.h"

enum direction { DIR_NONE, DIR_HIGHER, DIR_LOWER };
enum verdict { V_SAME, V_GOOD, V_BAD, V_UP, V_DOWN, V_NA };

struct cmp_args {
	const char *old_path, *new_path;
	double alpha;
	double fail_pct;	/* < 0: no gate */
};

struct cmp_tally {
	int good, bad, same, other, only_old, only_new, failed;
	int regressions;	/* significant and beyond --fail-on-regression */
};

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

static enum direction metric_direction(const char *name, const char *unit, bool *judged)
{
	static const char *const trouble[] = { "drop", "fail", "retr", "miss", "error", "lost",
					       "false_positive", NULL };
	static const char *const gains[] = { "speedup", NULL };
	static const char *const times[] = { "ns", "us", "µs", "ms", "s", "sec", "cycles", NULL };
	static const char *const sizes[] = { "B", "KB", "KiB", "MB", "MiB", "GB", "GiB",
					     "bytes", "kB", NULL };
	const char *w = unit, *per = strrchr(unit, '/');
	size_t len;

	*judged = true;	/* verdict words "better" / "worse" */
	if (name_has(name, trouble))
		return DIR_LOWER;
	if (name_has(name, gains))
		return DIR_HIGHER;
	*judged = false;
	if (per && (!strcmp(per, "/s") || !strcmp(per, "/sec")))
		return DIR_HIGHER;
	if (!strncmp(w, "M ", 2) || !strncmp(w, "K ", 2))	/* a scale prefix word */
		w += 2;
	len = strcspn(w, " /");
	if (word_in(w, len, times))
		return DIR_LOWER;
	if (word_in(w, len, sizes)) {
		*judged = true;
		return DIR_LOWER;
	}
	return DIR_NONE;
}

static const char *verdict_text(enum verdict v, bool judged)
{
	switch (v) {
	case V_GOOD:
		return judged ? "better" : "faster";
	case V_BAD:
		return judged ? "worse" : "slower";
	case V_UP:
		return "higher";
	case V_DOWN:
		return "lower";
	case V_NA:
		return "too few samples";
	default:
		return "no significant change";
	}
}

static const char *row_name(const struct res_run *r, char *buf, size_t len)
{
	if (r->label)
		snprintf(buf, len, "%s: %s", r->bench, r->label);
	else
		snprintf(buf, len, "%s", r->bench);
	return buf;
}

static void compare_metric(const struct cmp_args *a, const char *row, const struct res_metric *o,
			   const struct res_metric *n, struct cmp_tally *t)
{
	double delta = o->mean ? (n->mean - o->mean) / fabs(o->mean) * 100 : NAN;
	double p = stats_welch_p(o->samples, o->n, n->samples, n->n);
	bool judged, up = n->mean > o->mean;
	enum direction dir = metric_direction(n->name, n->unit, &judged);
	enum verdict v = V_SAME;
	char ptext[16];

	if (o->n < 2 || n->n < 2)
		v = V_NA;
	else if (p < a->alpha && dir == DIR_NONE)
		v = up ? V_UP : V_DOWN;
	else if (p < a->alpha)
		v = up == (dir == DIR_HIGHER) ? V_GOOD : V_BAD;
	t->good += v == V_GOOD;
	t->bad += v == V_BAD;
	t->same += v == V_SAME;
	t->other += v == V_UP || v == V_DOWN || v == V_NA;
	snprintf(ptext, sizeof(ptext), p < 1e-4 ? "<0.0001" : "%.4f", p);
	printf("%-32.32s %-14.14s %12.6g %12.6g %-10.10s %+8.2lf%% %8s  %s\n", row, n->name,
	       o->mean, n->mean, n->unit, delta, ptext, verdict_text(v, judged));
	if (v == V_BAD && a->fail_pct >= 0 && fabs(delta) > a->fail_pct) {
		t->regressions++;
		errmsg("regression: %s %s %+.2f%% (limit %g%%, p %.4f)", row, n->name, delta,
		       a->fail_pct, p);
	}
}

static void compare_runs(const struct cmp_args *a, const struct res_run *o,
			 const struct res_run *n, struct cmp_tally *t)
{
	const struct res_metric *om;
	char name[160];
	int i;

	row_name(n, name, sizeof(name));
	if (o->status || n->status) {
		printf("%-32.32s not compared: the run failed in %s (status %d)\n", name,
		       o->status ? "OLD" : "NEW", o->status ? o->status : n->status);
		t->failed++;
		return;
	}
	for (i = 0; i < n->nr_metrics; i++) {
		om = res_run_metric(o, n->metrics[i].name);
		if (om)
			compare_metric(a, name, om, &n->metrics[i], t);
	}
}

static const struct res_run *match(const struct res_doc *old, bool *used, const struct res_run *n)
{
	int i;

	for (i = 0; i < old->nr_runs; i++) {
		if (!used[i] && !strcmp(old->runs[i].key, n->key)) {
			used[i] = true;
			return &old->runs[i];
		}
	}
	return NULL;
}

static void header(const struct cmp_args *a, const struct res_doc *old, const struct res_doc *new)
{
	printf("OLD %s (kernel %s, %s)\nNEW %s (kernel %s, %s)\n", old->path,
	       old->kernel ?: "?", old->date ?: "?", new->path, new->kernel ?: "?", new->date ?: "?");
	if (old->kernel && new->kernel && strcmp(old->kernel, new->kernel))
		printf("Note: the kernels differ.\n");
	printf("Verdicts: Welch's t-test on the raw samples, two-sided, significant at p < %g.\n\n",
	       a->alpha);
	printf("%-32s %-14s %12s %12s %-10s %9s %8s  %s\n", "run", "metric", "old", "new", "unit",
	       "delta", "p", "verdict");
}

static int compare_docs(const struct cmp_args *a, const struct res_doc *old,
			const struct res_doc *new)
{
	bool *used = xcalloc(old->nr_runs ?: 1, sizeof(bool));
	struct cmp_tally t = { 0 };
	const struct res_run *o;
	char name[160];
	int i, matched = 0;

	header(a, old, new);
	for (i = 0; i < new->nr_runs; i++) {
		o = match(old, used, &new->runs[i]);
		if (!o) {
			t.only_new++;
			printf("%-32.32s only in NEW\n", row_name(&new->runs[i], name, sizeof(name)));
			continue;
		}
		matched++;
		compare_runs(a, o, &new->runs[i], &t);
	}
	for (i = 0; i < old->nr_runs; i++) {
		if (!used[i]) {
			t.only_old++;
			printf("%-32.32s only in OLD\n", row_name(&old->runs[i], name, sizeof(name)));
		}
	}
	free(used);
	printf("\nSummary: %d faster/better, %d slower/worse, %d no significant change, %d other; "
	       "%d runs failed, %d only in OLD, %d only in NEW.\n", t.good, t.bad, t.same, t.other,
	       t.failed, t.only_old, t.only_new);
	if (!matched) {
		errmsg("no run of %s matches one of %s (benchmark, label and options differ)",
		       new->path, old->path);
		return 1;
	}
	return t.regressions ? 1 : 0;
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

static int parse_args(int argc, char **argv, struct cmp_args *a)
{
	const char *arg, *val;
	int i, ret = 0, files = 0;

	for (i = 1; i < argc && !ret; i++) {
		arg = argv[i];
		val = strchr(arg, '=');
		if (!strncmp(arg, "--alpha", 7) && (!arg[7] || arg[7] == '=')) {
			val = val ? val + 1 : (i + 1 < argc ? argv[++i] : NULL);
			ret = parse_real("--alpha", val, 0, 0.5, true, &a->alpha);
		} else if (!strncmp(arg, "--fail-on-regression", 20) && (!arg[20] || arg[20] == '=')) {
			val = val ? val + 1 : (i + 1 < argc ? argv[++i] : NULL);
			ret = parse_real("--fail-on-regression", val, 0, 1e6, false, &a->fail_pct);
		} else if (arg[0] == '-' && arg[1]) {
			errmsg("compare: unknown option %s", arg);
			ret = EXIT_USAGE;
		} else if (files++ == 0) {
			a->old_path = arg;
		} else if (files == 2) {
			a->new_path = arg;
		}
	}
	if (!ret && files != 2) {
		errmsg("compare needs two files: bpfbench compare OLD.json NEW.json (got %d)",
		       files);
		ret = EXIT_USAGE;
	}
	return ret;
}

int compare_cmd(int argc, char **argv)
{
	struct cmp_args a = { .alpha = 0.05, .fail_pct = -1 };
	struct res_doc old = { 0 }, new = { 0 };
	int ret;

	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		printf("Usage: bpfbench compare OLD.json NEW.json [--alpha A] "
		       "[--fail-on-regression PCT]\n\n"
		       "Per matching run and metric: old and new means, delta %%, Welch's t-test.\n"
		       "--alpha A                  significance level, default 0.05\n"
		       "--fail-on-regression PCT   exit 1 if a significant slowdown exceeds PCT%%\n\n"
		       "Direction: metrics named like drops, failures, retries, misses, errors or\n"
		       "false positives are better lower, speedups higher (better/worse); then rates\n"
		       "(unit per second) are better higher, times (ns, us, ms, s, per op) lower\n"
		       "(faster/slower), sizes (B, KiB, MiB...) lower (better/worse); other units\n"
		       "only say higher/lower and are never a regression.\n"
		       "Exit status: 0, 1 regression (or nothing matched), 2 bad usage or input.\n");
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
