// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the facts the core keeps in one place: what an option is
 * to a measurement (its flags in the option table, read by compare and
 * --sweep), an option's typed value, the time a run asks to measure, the
 * words of a run a signal cut short, mix64() and bufcat().  Needs no
 * privileges.  Prints TAP; exits 1 if any test fails.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "bench.h"
#include "resdoc.h"
#include "result.h"

static int test_no, failures;

static void ok(int cond, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void ok(int cond, const char *fmt, ...)
{
	va_list ap;

	test_no++;
	printf("%sok %d - ", cond ? "" : "not ", test_no);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	failures += !cond;
}

/* A JSON value of o's type away from its default; NULL: none to give. */
static const char *other_value(const struct opt_def *o, char *buf, size_t len)
{
	switch (o->type) {
	case OPT_UINT:
		snprintf(buf, len, "%llu", (unsigned long long)(o->max > 7 ? 7 : o->max));
		break;
	case OPT_SECONDS:
		snprintf(buf, len, "%g", o->max >= 2500 ? 2.5 : 0.5);
		break;
	case OPT_FLAG:
		snprintf(buf, len, "true");
		break;
	case OPT_CHOICE:
		if (!o->choices[1])
			return NULL;
		snprintf(buf, len, "\"%s\"", o->choices[1]);
		break;
	case OPT_STRING:
		snprintf(buf, len, "\"x.json\"");
		break;
	default:
		snprintf(buf, len, "\"0,1\"");
		break;
	}
	return o->def && !strcmp(buf, o->def) ? NULL : buf;
}

/*
 * The options compare matches a run on (res_run.mopt_*) when the run
 * was of bench with the options opts (a JSON object's members): -1 if
 * the document does not load.
 */
static int measured(const char *bench, const char *opts, char *first, size_t len)
{
	char path[] = "/tmp/bpfbench-facts.XXXXXX";
	struct res_doc doc;
	int fd = mkstemp(path), n = -1;
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;

	if (!f)
		return -1;
	fprintf(f, "{\"schema\": \"bpfbench-result/1\", \"env\": {}, \"runs\": [{\"bench\": "
		"\"%s\", \"status\": 0, \"options\": {%s}, \"metrics\": {}, \"samples\": []}]}\n",
		bench, opts);
	fclose(f);
	if (!resdoc_load(path, &doc) && doc.nr_runs == 1) {
		n = doc.runs[0].nr_mopts;
		snprintf(first, len, "%s", n ? doc.runs[0].mopt_name[0] : "");
		resdoc_free(&doc);
	}
	unlink(path);
	return n;
}

/*
 * An option that changes nothing of the measurement, or only its
 * length, never sets two runs apart for compare; every other global
 * option away from its default does.
 */
static void test_no_measure(void)
{
	const struct opt_def *o;
	char val[64], opts[160], first[64];
	int flagged = 0, skipped = 0, counted = 0, wrong = 0, n;

	for (o = global_opts; o->name; o++) {
		if (!strcmp(o->name, "producers") || !other_value(o, val, sizeof(val)))
			continue;
		/* producers (-p 2) is measured: it stays, the option tried goes */
		snprintf(opts, sizeof(opts), "\"producers\": 2, \"%s\": %s", o->name, val);
		n = measured("noop", opts, first, sizeof(first));
		if (o->flags & (OPT_F_NO_MEASURE | OPT_F_EXTENT)) {
			flagged++;
			skipped += n == 1 && !strcmp(first, "producers");
		} else {
			counted += n == 2;
			wrong += n != 2;
		}
	}
	ok(flagged >= 15 && skipped == flagged,
	   "compare matches runs that differ in an option of no measure or extent (%d of %d)",
	   skipped, flagged);
	ok(counted > 5 && !wrong, "and sets apart runs that differ in any other global option "
	   "(%d; %d not)", counted, wrong);
	o = opts_find(global_opts, "json");
	ok(o && o->flags & OPT_F_NO_MEASURE && !(opts_find(global_opts, "duration")->flags &
						 OPT_F_NO_MEASURE),
	   "output files change nothing of a measurement; -d is its extent, not nothing");
	n = measured("map-batch", "\"batch\": \"10\", \"max_entries\": 100000", first,
		     sizeof(first));
	ok(n == 1 && !strcmp(first, "batch"), "a benchmark's option away from its default is "
	   "measured, at its default it is not (%d: %s)", n, first);
}

/* Options that define the work are the benchmarks' facts, in their own tables. */
static void test_defines(void)
{
	const struct bench *b = bench_find("map-lookup");
	const struct opt_def *t = b ? opts_find(b->opts, "map_type") : NULL;
	const struct opt_def *h = b ? opts_find(b->opts, "hit") : NULL;
	const struct opt_def *o;
	int n = 0;

	ok(t && h && t->flags & OPT_F_DEFINES && !(h->flags & OPT_F_DEFINES),
	   "map-lookup's map type defines what is measured, its hit rate does not");
	for (o = global_opts; o->name; o++)
		n += !!(o->flags & OPT_F_DEFINES);
	ok(!n, "no global option defines the work: the benchmarks' tables say which do");
}

struct typed {
	uint64_t n, ms;
	bool flag;
	int choice;
	const char *str;
	struct uint_list list;
};

static const char *const typed_choices[] = { "one", "two", NULL };

static const struct opt_def typed_opts[] = {
	{ "n", 0, OPT_UINT, OPT_OFF(struct typed, n), "5", 0, 100, NULL, "N", "" },
	{ "ms", 0, OPT_SECONDS, OPT_OFF(struct typed, ms), "0.25", 0, 10000, NULL, "SEC", "" },
	{ "flag", 0, OPT_FLAG, OPT_OFF(struct typed, flag), NULL, 0, 0, NULL, NULL, "" },
	{ "choice", 0, OPT_CHOICE, OPT_OFF(struct typed, choice), "two", 0, 0, typed_choices,
	  "C", "" },
	{ "str", 0, OPT_STRING, OPT_OFF(struct typed, str), NULL, 0, 0, NULL, "S", "" },
	{ "list", 0, OPT_UINT_LIST, OPT_OFF(struct typed, list), "1,2", 0, 10, NULL, "L", "" },
	{ NULL },
};

/* An option's value read as its type holds it, never from its text. */
static void test_typed(void)
{
	struct typed a, b;
	char err[128];

	opts_reset(typed_opts, &a);
	opts_reset(typed_opts, &b);
	ok(opts_get(&typed_opts[0], &a).u == 5 && opts_get(&typed_opts[1], &a).u == 250 &&
	   !opts_get(&typed_opts[2], &a).flag && !strcmp(opts_get(&typed_opts[3], &a).str, "two") &&
	   !opts_get(&typed_opts[4], &a).str && opts_get(&typed_opts[5], &a).list->n == 2,
	   "opts_get: a number, milliseconds, a flag, a choice's name, an unset string, a list");
	ok(opts_is_set(&typed_opts[0], &a) && !opts_is_set(&typed_opts[4], &a),
	   "opts_is_set: an unset string holds nothing (JSON null)");
	ok(opts_at_default(&typed_opts[1], &a) && opts_at_default(&typed_opts[5], &a) &&
	   opts_at_default(&typed_opts[4], &a), "opts_at_default: every option after reset");
	opts_set(&typed_opts[1], &b, "0.250", err, sizeof(err));
	opts_set(&typed_opts[5], &b, "1,3", err, sizeof(err));
	ok(opts_at_default(&typed_opts[1], &b) && !opts_at_default(&typed_opts[5], &b),
	   "0.250 s is the default 0.25, typed; a list that differs in one value is not");
	ok(opts_same(&typed_opts[1], &a, &typed_opts[1], &b) &&
	   !opts_same(&typed_opts[5], &a, &typed_opts[5], &b) &&
	   !opts_same(&typed_opts[0], &a, &typed_opts[1], &a),
	   "opts_same: by value, and never across types");
}

/* One rule for the time a run asks to measure. */
static void test_measure_ms(void)
{
	struct run_opts o = { .duration_ms = 5000, .max_duration_ms = 60000 };
	uint64_t fixed = run_opts_measure_ms(&o), bound;

	o.precision_pct = 2;
	bound = run_opts_measure_ms(&o);
	ok(fixed == 5000 && bound == 60000, "run_opts_measure_ms: -d, or --precision's bound");
}

/* A run a signal cut short, in its own words from its own fields. */
static void test_kept_text(void)
{
	static const struct bench kb = { .name = "kept" };
	struct run_result r = { .bench = &kb, .interrupted = true, .signal = 2, .nr_samples = 3,
				.wall_ns = 3000000000ull };
	char clause[200], sentence[200];

	r.spec.opts.duration_ms = 5000;
	r.spec.opts.runs = 2;
	res_kept_text(&r, false, clause, sizeof(clause));
	res_kept_text(&r, true, sentence, sizeof(sentence));
	ok(!strcmp(clause, "interrupted by signal 2 after 3 samples (3.0 of 10 s measured)") &&
	   !strcmp(sentence + 1, clause + 1) && sentence[0] == 'I',
	   "res_kept_text: the signal, the samples, measured of asked; a clause or a sentence");
}

static void test_util(void)
{
	char buf[8];
	size_t len = 0;

	ok(mix64(0x9e3779b97f4a7c15ull) == 0xe220a8397b1dcdafull && mix64(0) == 0,
	   "mix64: SplitMix64's finalizer (its first output from seed 0)");
	bufcat(buf, sizeof(buf), &len, "%s", "abcd");
	bufcat(buf, sizeof(buf), &len, "%d", 12345);
	bufcat(buf, sizeof(buf), &len, "x");
	ok(len == 7 && !strcmp(buf, "abcd123"), "bufcat: cut at the end, later appends cut too");
}

int main(void)
{
	test_no_measure();
	test_defines();
	test_typed();
	test_measure_ms();
	test_kept_text();
	test_util();
	printf("1..%d\n", test_no);
	return failures ? 1 : 0;
}
