// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the core through the BPF-free test double
 * (tests/unit/mock_bench.c): runner sampling, warm-up and repetitions,
 * failure statuses, reporters, suites, sweeps and the exports.  Needs no
 * privileges.  Prints TAP; exits 1 if any test fails.
 */
#include <fcntl.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <json-c/json.h>
#include "bench.h"
#include "args.h"
#include "deliver.h"
#include "export.h"
#include "mkey.h"
#include "report.h"
#include "runner.h"
#include "suite.h"

extern int mock_setups, mock_teardowns;

static int test_no, failures;
static char tmpdir[] = "/tmp/bpfbench-core.XXXXXX";

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

/* Splits a command line on blanks into a NULL-terminated argv (static storage). */
static int split(const char *line, char **argv, int max)
{
	static char buf[16][1024];
	static int next;
	char *copy = buf[next++ % 16], *save = NULL, *w;
	int n = 0;

	snprintf(copy, sizeof(buf[0]), "bpfbench %s", line);
	for (w = strtok_r(copy, " ", &save); w && n < max - 1; w = strtok_r(NULL, " ", &save))
		argv[n++] = w;
	argv[n] = NULL;
	return n;
}

/* Parses and runs one command line; the status, with res filled. */
static int run(const char *line, struct run_result *res)
{
	struct run_spec spec;
	char *argv[64];
	int argc = split(line, argv, 64), st;

	memset(res, 0, sizeof(*res));
	if (cli_parse(argc, argv, &spec))
		return EXIT_USAGE;
	spec.opts.batch = true;	/* the tests read the result, not the report */
	st = cli_validate(&spec);
	if (!st)
		st = run_bench(&spec, NULL, res);
	run_spec_free(&spec);
	return st;
}

/* Runs fn with stdout and stderr going to files; their contents come back in out/err. */
static int captured(int (*fn)(int, char **), const char *line, char *out, char *err, size_t len)
{
	char po[256], pe[256], *argv[64];
	int argc = split(line, argv, 64), so = dup(1), se = dup(2), fo, fe, st;
	FILE *f;
	size_t n;

	snprintf(po, sizeof(po), "%s/out", tmpdir);
	snprintf(pe, sizeof(pe), "%s/err", tmpdir);
	fflush(stdout);
	fflush(stderr);
	fo = open(po, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	fe = open(pe, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	dup2(fo, 1);
	dup2(fe, 2);
	st = fn(argc - 1, argv + 1);
	fflush(stdout);
	fflush(stderr);
	dup2(so, 1);
	dup2(se, 2);
	close(fo);
	close(fe);
	close(so);
	close(se);
	f = fopen(po, "r");
	n = fread(out, 1, len - 1, f);
	out[n] = 0;
	fclose(f);
	f = fopen(pe, "r");
	n = fread(err, 1, len - 1, f);
	err[n] = 0;
	fclose(f);
	return st;
}

static int count_sub(const char *text, const char *sub)
{
	int n = 0;

	for (text = strstr(text, sub); text; text = strstr(text + 1, sub))
		n++;
	return n;
}

static int count_lines(const char *text, const char *prefix)
{
	const char *p = text;
	int n = 0;

	while (p && *p) {
		if (!strncmp(p, prefix, strlen(prefix)))
			n++;
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return n;
}

/* `bpfbench ARGS` as main() would run one benchmark: parse, validate, run, export. */
static int bench_cmd(int argc, char **argv)
{
	char *args[64];
	struct run_result res = { 0 };
	struct run_spec spec;
	int i, st;

	args[0] = "bpfbench";
	for (i = 0; i < argc && i < 62; i++)
		args[i + 1] = argv[i];
	args[i + 1] = NULL;
	if (cli_parse(argc + 1, args, &spec))
		return EXIT_USAGE;
	st = cli_validate(&spec);
	if (!st && spec.opts.sweep)
		st = sweep_run(argc + 1, args, &spec);
	else if (!st)	/* main()'s road: the run, then its result to the reporters */
		st = deliver_run(&res, run_bench(&spec, report_observer(&spec.opts), &res));
	run_result_free(&res);
	run_spec_free(&spec);
	return st;
}

/* Seconds the samples [from, to) of r cover, by their own clocks. */
static double span_s(const struct run_result *r, int from, int to)
{
	uint64_t ns = 0;

	while (from < to)
		ns += r->elapsed_ns[from++];
	return ns / 1e9;
}

/* The shortest and longest sample of r, in seconds. */
static void sample_range(const struct run_result *r, double *lo, double *hi)
{
	int i;

	*lo = INFINITY;
	*hi = 0;
	for (i = 0; i < r->nr_samples; i++) {
		*lo = fmin(*lo, r->elapsed_ns[i] / 1e9);
		*hi = fmax(*hi, r->elapsed_ns[i] / 1e9);
	}
}

/*
 * Checks that hold only when the sampler woke on time: on a loaded
 * machine (prove -j2 beside other tests) a tick can come late by a
 * second, and the figure is then skipped, said as such.
 */
static void ok_on_time(bool on_time, int cond, const char *what, double v)
{
	if (on_time)
		ok(cond, "%s (%.3f s)", what, v);
	else
		ok(1, "# SKIP %s: the sampler woke late (a loaded machine)", what);
}

static void check_periods(const struct run_result *r, double period, double duration)
{
	double lo, hi;

	sample_range(r, &lo, &hi);
	ok(r->nr_samples && lo >= period / 2,
	   "no sample covers less than half a period, however late a tick (%.3f s shortest)", lo);
	ok(fabs(r->wall_ns / 1e9 - span_s(r, 0, r->nr_samples)) < 1e-9,
	   "measured time is what the samples cover, end to end (%.3f s)", r->wall_ns / 1e9);
	ok_on_time(hi < period + 0.02, fabs(r->wall_ns / 1e9 - duration) < 0.05,
		   "measured time is -d within a period", r->wall_ns / 1e9);
}

static void test_sampling(void)
{
	struct run_result r;
	int st, i, bad = 0;

	/* the test double's time is scaled down: half a second does as well as one */
	st = run("mock -w0 -d0.5 --period-ms 50 -q", &r);
	ok(st == 0, "a plain run succeeds (%d)", st);
	ok(r.nr_samples == 10 && r.nr_warmup == 0, "0.5 s at 50 ms: 10 samples, no warm-up (%d, %d)",
	   r.nr_samples, r.nr_warmup);
	for (i = 0; i < r.nr_samples; i++)
		bad += res_sample(&r, i)[0] != 100 + i % 3 ||
		       fabs(res_sample(&r, i)[1] - 1000.0 / (100 + i % 3)) > 1e-9;
	ok(!bad, "each sample is what measure() wrote, its inverse derived from it");
	ok(fabs(r.st[0].mean - 100.9) < 1e-9, "mean of 100,101,102,... over 10 samples (%g)",
	   r.st[0].mean);
	ok(fabs(res_shown_mean(&r, 1) - 1000 / 100.9) < 1e-9,
	   "the inverse shown is scale / mean of the base, as the kernel bench");
	ok(r.metrics[0].better == BETTER_HIGHER && r.metrics[1].better == BETTER_LOWER &&
	   r.metrics[2].better == BETTER_LOWER, "better directions follow the kinds");
	check_periods(&r, 0.05, 0.5);
	run_result_free(&r);

	st = run("mock -w0.5 -d0.5 --period-ms 50 -q", &r);
	ok(st == 0 && r.nr_warmup == 10 && r.nr_samples == 10,
	   "-w0.5: 10 warm-up samples discarded, 10 measured (%d, %d)", r.nr_warmup, r.nr_samples);
	check_periods(&r, 0.05, 0.5);
	ok(r.warmup_ns / 1e9 >= 10 * 0.05 / 2 && r.elapsed_ns[0] < r.warmup_ns,
	   "the warm-up has its own time, the first sample starts where it ended (%.3f s warm-up)",
	   r.warmup_ns / 1e9);
	ok(res_sample(&r, 0)[0] == 100 + 10 % 3, "sampling goes on where the warm-up ended");
	run_result_free(&r);
}

static void test_repeats(void)
{
	struct run_result r;
	int st, k, i, bad = 0;

	mock_setups = mock_teardowns = 0;
	st = run("mock -w0 -d0.4 --period-ms 100 -r 3 -q", &r);
	ok(st == 0 && r.nr_repeats == 3 && r.nr_samples == 12, "-r 3: 3 repetitions of 4 samples");
	ok(mock_setups == 3 && mock_teardowns == 3, "each repetition has its own setup and teardown");
	for (i = 0; i < r.nr_samples; i++)
		bad += r.sample_repeat[i] != i / 4 || res_sample(&r, i)[0] != 100 + (i % 4) % 3;
	ok(!bad, "samples carry their repetition; each repetition starts afresh");
	for (k = 0; k < 3; k++)
		bad += fabs(res_repeat_st(&r, k, 0)->mean - 100.75) > 1e-9;
	ok(!bad, "per-repetition means (100.75 each)");
	run_result_free(&r);
}

static void test_failures(void)
{
	struct run_result r;
	double lo, hi;
	int st;

	st = run("mock -w0 -d1 --skip", &r);
	ok(st == EXIT_SKIP && strstr(r.error, "skipped on purpose"),
	   "a skip is exit 4 with the benchmark's reason (%d: %s)", st, r.error);
	run_result_free(&r);
	st = run("mock -w0 -d1 --fail", &r);
	ok(st == 1 && strstr(r.error, "setup failed"), "a failed setup is exit 1 (%s)", r.error);
	run_result_free(&r);
	st = run("mock -w0 -d1 --bad", &r);
	ok(st == EXIT_USAGE, "validate's refusal is exit 2 (%d)", st);
	run_result_free(&r);
	st = run("mock -w0 -d1 --period-ms 5000", &r);
	ok(st == EXIT_USAGE, "a period longer than -d is refused: no run without samples");
	st = run("mock --level 010 -w0 -d0.1 --period-ms 100 -q", &r);
	ok(st == 0 && res_sample(&r, 0)[0] == 10, "numbers are decimal: 010 is ten");
	run_result_free(&r);
	/* samples 1 and 2: a symmetric t interval would reach -4.85 */
	st = run("mock --level 1 -w0 -d0.2 --period-ms 100 -q", &r);
	ok(st == 0 && r.nr_samples == 2 && r.st[0].mean - r.st[0].ci95_half < 0 &&
	   r.st[0].ci95_low > 0 && r.st[0].ci95_low < r.st[0].mean &&
	   r.st[0].ci95_high > r.st[0].mean, "a rate's 95%% CI never goes below zero (%g %g)",
	   r.st[0].ci95_low, r.st[0].ci95_high);
	run_result_free(&r);
	st = run("mock-oneshot -w0 -d0.5 --level 7 -q", &r);
	ok(st == 0 && r.nr_samples >= 1 && res_sample(&r, 0)[0] == 7 &&
	   span_s(&r, 0, r.nr_samples - 1) < 0.5,
	   "whole-run benchmarks: samples are runs, the last one started within -d (%d runs)",
	   r.nr_samples);
	sample_range(&r, &lo, &hi);
	ok_on_time(hi < 0.15, r.nr_samples >= 4 && r.nr_samples <= 6,
		   "whole-run benchmarks: as many 0.1 s runs as fit in -d, 4 to 6",
		   span_s(&r, 0, r.nr_samples));
	run_result_free(&r);
}

static void test_reporters(void)
{
	static char out[1 << 16], err[1 << 16];
	int st;

	st = captured(bench_cmd, "mock -w0.4 -d0.4 --period-ms 100", out, err, sizeof(out));
	ok(st == 0 && count_lines(out, "Iter ") == 8 && count_lines(out, "Summary: ") == 1,
	   "human: an Iter line per period, warm-up included, one Summary");
	ok(count_lines(err, "Setting up benchmark 'mock'") == 1, "human: the setup line on stderr");
	st = captured(bench_cmd, "mock -q -w0 -d0.2 --period-ms 100", out, err, sizeof(out));
	ok(st == 0 && !count_lines(out, "Iter ") && count_lines(out, "Summary: ") == 1 &&
	   !*err, "quiet: the summary only");
	ok(st == 0 && count_lines(out, "") == 1, "quiet: the Summary is its one line");
	st = captured(bench_cmd, "mock -w0 -d0.2 --period-ms 100 -r 2", out, err, sizeof(out));
	ok(count_lines(out, "Runs: 2,") == 1, "-r 2: a Runs line with the per-run means");
	st = captured(bench_cmd, "mock -w0 -d0.2 --period-ms 100 --csv -", out, err, sizeof(out));
	ok(st == 0 && !strncmp(out, "suite,section,label", 19) && count_lines(err, "Summary: ") == 1,
	   "--csv -: only CSV on stdout, the report on stderr");
	st = captured(bench_cmd, "mock -w0 -d1 --json - --md -", out, err, sizeof(out));
	ok(st == EXIT_USAGE, "two formats on stdout are refused");
	/* a pass (0.1 s) longer than the cap: one sample, which has no CI */
	st = captured(bench_cmd, "mock-oneshot -w0 --precision 2 --max-duration 0.05 --json -",
		      out, err, sizeof(out));
	ok(st == 0 && strstr(out, "\"achieved_pct\": null") &&
	   count_lines(err, "Precision: no CI from one sample of throughput") == 1,
	   "--precision with one sample: no CI, JSON null, never ±0%%");
}

static json_object *load(const char *path)
{
	json_object *d = json_object_from_file(path);

	return d;
}

/* Runs of a result whose --precision target was reached. */
static int reached_rows(json_object *runs)
{
	json_object *p, *v;
	int i, n = 0;

	for (i = 0; runs && i < (int)json_object_array_length(runs); i++)
		if (json_object_object_get_ex(json_object_array_get_idx(runs, i), "precision", &p) &&
		    json_object_object_get_ex(p, "reached", &v) && json_object_get_boolean(v))
			n++;
	return n;
}

static void test_suite(void)
{
	static char out[1 << 16], err[1 << 16], cmd[512], path[300], line[128];
	json_object *d, *runs, *r0, *v;
	int st;

	snprintf(path, sizeof(path), "%s/suite.json", tmpdir);
	snprintf(cmd, sizeof(cmd), "suite mock -w0 -d0.4 --period-ms 100 --json %s", path);
	st = captured(suite_cmd, cmd, out, err, sizeof(out));
	ok(st == 0, "a suite with a skipped step exits 0 (%d)", st);
	ok(strstr(out, "levels\n======") && strstr(out, "SKIP") && strstr(out, "level 20"),
	   "the table has sections, rows and the SKIP row");
	d = load(path);
	ok(d && json_object_object_get_ex(d, "runs", &runs) && json_object_array_length(runs) == 4,
	   "the JSON has every step");
	r0 = d ? json_object_array_get_idx(runs, 1) : NULL;
	ok(r0 && json_object_object_get_ex(r0, "section", &v) &&
	   !strcmp(json_object_get_string(v), "levels") &&
	   json_object_object_get_ex(r0, "label", &v) &&
	   !strcmp(json_object_get_string(v), "level 20"),
	   "a row carries its section and label");
	json_object_put(d);
	/* -w0 and a shorter period follow the suite's own sampling options: still to a precision */
	snprintf(cmd, sizeof(cmd), "suite mock -w0 --period-ms 50 --json %s", path);
	st = captured(suite_cmd, cmd, out, err, sizeof(out));
	d = load(path);
	r0 = d && json_object_object_get_ex(d, "runs", &runs) ? json_object_array_get_idx(runs, 0) :
	     NULL;
	ok(st == 0 && r0 && json_object_object_get_ex(r0, "precision", &v) &&
	   strstr(out, "[CI ±"), "without -d a suite samples each row to a precision and says it");
	ok(strstr(out, "avg mem: 5.00MiB, peak mem: 0.00MiB  [CI ±") != NULL,
	   "a row in a declared shape of the kernel's states it too");
	snprintf(line, sizeof(line), "\nPrecision: %d of 3 rows reached ±2%% ([CI ±x%%]: 95%% CI of "
		 "a row's first metric)", reached_rows(runs));
	ok(strstr(out, line) != NULL, "under the table: how many sampled rows reached the target");
	ok(!count_sub(out, "NOT reached"), "a target the user never set: rows are not told they missed it");
	json_object_put(d);
	st = captured(suite_cmd, "suite mock --nr_loops 3", out, err, sizeof(out));
	ok(st == EXIT_USAGE && count_lines(err, "bpfbench: error:") == 1,
	   "an option no benchmark has: one line, exit 2");
	snprintf(cmd, sizeof(cmd), "suite mock --level 3 --bad -w0 -d0.2 --period-ms 100 --json %s",
		 path);
	st = captured(suite_cmd, cmd, out, err, sizeof(out));
	d = load(path);
	ok(st == 1 && d && json_object_object_get_ex(d, "runs", &runs) &&
	   json_object_array_length(runs) == 4,
	   "a step refused before it runs fails the suite (exit 1) and is still a run in JSON");
	json_object_put(d);
}

static void test_sweep(void)
{
	static char out[1 << 16], err[1 << 16], cmd[512], path[300];
	json_object *d, *runs, *r, *v;
	int st, i, bad = 0;

	snprintf(path, sizeof(path), "%s/sweep.json", tmpdir);
	snprintf(cmd, sizeof(cmd), "mock -w0 -d0.2 --period-ms 100 --sweep level=5,50,500 --json %s",
		 path);
	st = captured(bench_cmd, cmd, out, err, sizeof(out));
	ok(st == 0 && count_lines(out, "level=") == 3, "a sweep prints one row per value");
	d = load(path);
	ok(d && json_object_object_get_ex(d, "runs", &runs) && json_object_array_length(runs) == 3,
	   "and writes one run per value");
	for (i = 0; d && i < 3; i++) {
		r = json_object_array_get_idx(runs, i);
		json_object_object_get_ex(r, "options", &v);
		json_object_object_get_ex(v, "level", &v);
		bad += json_object_get_int(v) != (int)(5 * pow(10, i));
	}
	ok(d && !bad, "each run has its own value of the swept option");
	json_object_put(d);
}

/* Option k of a run's JSON options, and whether it is there (a JSON null is there). */
static bool opt_of(json_object *opts, const char *k, json_object **v)
{
	*v = NULL;
	return opts && json_object_object_get_ex(opts, k, v);
}

/* A run's options in its JSON as their types hold them, none through a text. */
static void test_options(void)
{
	static char out[1 << 16], err[1 << 16], cmd[512], path[300];
	json_object *d, *runs, *o = NULL, *w, *l, *a, *c, *t, *j;
	int st;

	snprintf(path, sizeof(path), "%s/opts.json", tmpdir);
	snprintf(cmd, sizeof(cmd), "mock -w0.25 -d0.2 --period-ms 100 --prod-affinity 0 --level 7 "
		 "--json %s", path);
	st = captured(bench_cmd, cmd, out, err, sizeof(out));
	d = load(path);
	if (d && json_object_object_get_ex(d, "runs", &runs))
		json_object_object_get_ex(json_object_array_get_idx(runs, 0), "options", &o);
	ok(st == 0 && opt_of(o, "warmup", &w) && json_object_is_type(w, json_type_double) &&
	   json_object_get_double(w) == 0.25 && opt_of(o, "level", &l) &&
	   json_object_is_type(l, json_type_int) && json_object_get_int(l) == 7,
	   "JSON options: seconds and numbers as numbers");
	ok(opt_of(o, "affinity", &a) && json_object_is_type(a, json_type_boolean) &&
	   opt_of(o, "prod_affinity", &c) && !strcmp(json_object_get_string(c), "0") &&
	   opt_of(o, "trigger", &t) && !strcmp(json_object_get_string(t), "auto") &&
	   opt_of(o, "json", &j) && !strcmp(json_object_get_string(j), path),
	   "flags as booleans, a CPU set, a choice and a path as strings");
	ok(opt_of(o, "csv", &j) && !j && opt_of(o, "sweep", &j) && !j,
	   "options that hold nothing as null");
	json_object_put(d);
}

/* A metric is name + key: the same name under two keys is two metrics, found by both. */
static void test_keys(void)
{
	static const struct bench kb = { .name = "keys" };
	struct run_result r = { 0 };
	struct bench_env env = { .bench = &kb, .res = &r };
	struct metric_def d = { "time", "ms", METRIC_TIME };
	char id[MKEY_ID_MAX], n[16], v[16];
	const char *pos = "op=lookup,batch=1000";
	int a, b, c, u;

	d.key = "op=lookup,batch=10";
	a = bench_add_metric(&env, &d);
	d.key = "op=lookup,batch=1000";
	b = bench_add_metric(&env, &d);
	d.key = "op=lookup,batch=10";
	c = bench_add_metric(&env, &d);
	d.key = NULL;
	u = bench_add_metric(&env, &d);
	ok(a == 0 && b == 1 && c == 0 && u == 2 && r.nr_metrics == 3,
	   "bench_add_metric: one name under two keys and none is three metrics; a key again finds its own");
	ok(res_metric(&r, "time") == 2 && res_metric_key(&r, "time", "op=lookup,batch=1000") == 1 &&
	   res_metric_key(&r, "time", "op=update,batch=10") == -1 && r.metrics[0].key != d.key,
	   "res_metric finds the unkeyed one, res_metric_key each keyed one; keys are copied");
	ok(!strcmp(res_metric_id(&r, 1, id, sizeof(id)), "time{op=lookup,batch=1000}") &&
	   !strcmp(res_metric_id(&r, 2, id, sizeof(id)), "time"),
	   "identity: name{key}, or the name alone");
	ok(mkey_next(&pos, n, sizeof(n), v, sizeof(v)) && !strcmp(n, "op") && !strcmp(v, "lookup") &&
	   mkey_next(&pos, n, sizeof(n), v, sizeof(v)) && !strcmp(n, "batch") && !strcmp(v, "1000") &&
	   !mkey_next(&pos, n, sizeof(n), v, sizeof(v)),
	   "mkey_next: the fields in order, then the end");
	ok(mkey_get("op=lookup,batch=one-by-one", "batch", v, sizeof(v)) && !strcmp(v, "one-by-one") &&
	   !mkey_get("op=lookup", "batch", v, sizeof(v)) && !mkey_get(NULL, "op", v, sizeof(v)),
	   "mkey_get: a field's value, or false when the key lacks it");
	ok(mkey_is_int("1000") && mkey_is_int("0") && !mkey_is_int("007") && !mkey_is_int("-0") &&
	   !mkey_is_int("one-by-one") && !mkey_is_int("") && mkey_eq(NULL, "") && !mkey_eq("a=1", NULL),
	   "mkey_is_int: integers that write back as the same text; NULL and empty keys are one");
	run_result_free(&r);
}

/* What the tests wrote, and the directory: a test leaves nothing in /tmp. */
static void remove_tmpdir(void)
{
	static const char *const files[] = { "out", "err", "suite.json", "sweep.json", "opts.json" };
	char path[sizeof(tmpdir) + 16];
	size_t i;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", tmpdir, files[i]);
		unlink(path);
	}
	ok(rmdir(tmpdir) == 0, "the test's directory is removed: nothing else was left in it");
}

int main(void)
{
	if (!mkdtemp(tmpdir)) {
		perror("mkdtemp");
		return 1;
	}
	test_sampling();
	test_repeats();
	test_failures();
	test_reporters();
	test_suite();
	test_sweep();
	test_options();
	test_keys();
	remove_tmpdir();
	printf("1..%d\n", test_no);
	return failures ? 1 : 0;
}
