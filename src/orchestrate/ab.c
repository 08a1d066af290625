// SPDX-License-Identifier: GPL-2.0
/*
 * ab: two command lines of one benchmark run alternately, each run a
 * fresh setup, in pairs whose order is drawn at random (A B, B A, ...),
 * then compare's verdict on them.  On a shared or drifting machine this
 * is the fair way to compare two configurations: whatever drifts, drifts
 * under both.
 *
 *   bpfbench [OPTIONS] ab "ARGS A" "ARGS B" [-r N] [--precision PCT
 *               [--max-duration S]] [--seed S] [--name A --name B] [-q|-v]
 *               [--json FILE [--record]] [--noise PCT] [--alpha A]
 *               [--fail-on-regression PCT [--gate-unjudged pass|fail]]
 *
 * The runs of a pair are adjacent in time, so they are analysed as pairs
 * (compare's paired test on each pair's ratio): drift that moves both
 * runs of a pair cancels, where a test of A's runs against B's unpaired
 * would count it as noise.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "ab.h"
#include "bench.h"
#include "args.h"
#include "cmp_cli.h"
#include "compare.h"
#include "export.h"
#include "history.h"
#include "report.h"
#include "runner.h"
#include "outfile.h"
#include "outpath.h"
#include "stats.h"
#include "util.h"

/*
 * --precision: the first stage's pairs unless -r says more.  After them,
 * Stein's second stage (stats_pairs_needed): the pairs in all, decided
 * once from the first stage's spread, at least 3 more.  Stopping at the
 * first CI narrow enough instead stopped on draws whose spread came out
 * small: 10% of same-configuration ab runs were called a change on the
 * calibration's idle-host model; decided once, 3.7-5% (doc/calibration.md).
 */
#define AB_PRECISION_PAIRS	5
#define AB_MAX_WORDS		64
#define AB_MAX_NAME		64	/* --name: a label, not a text */

struct ab_side {
	const char *text;		/* as typed */
	char *copy;			/* the words' storage */
	char *words[2 * AB_MAX_WORDS + 2];
	int argc;
	struct run_spec spec;
	struct run_result acc;		/* every run of this side, one repetition each */
	double *first;			/* each run's mean of the first metric (--precision) */
};

struct ab_args {
	struct ab_side side[2];
	const char *name[2];		/* "A", "B" or --name */
	int nr_names;
	char *names_copy;		/* --names A,B: A's */
	uint64_t pairs;			/* -r: the pairs, or with --precision the first stage */
	int needed;			/* --precision: the pairs in all, once the first stage ran */
	uint64_t seed;
	const char *out[OUT_NR];	/* --json (both sides' runs), the verdicts' formats */
	bool record;			/* --record: the --json file into the history */
	const char *db;			/* --db: that history's database; NULL: the default */
	double precision;		/* --precision PCT: 0, a fixed number of pairs */
	bool normalized;		/* --normalized: the first metric's -normalized leads */
	double max_duration;		/* --max-duration S: --precision's bound */
	double reached;			/* the CI half-width of B/A at the end, % */
	int done;			/* pairs run */
	double secs;			/* their time */
	uint64_t start;			/* when the first pair started, ns */
	bool tty;			/* a progress line on stderr */
	bool verbose;			/* -v: without a terminal, a line on stderr each pair */
	bool no_pin;			/* --no-pin: the sides' threads go where the scheduler puts them */
	int nr_cmp, nr_glob;
	char **cmp;			/* options handed on to compare */
	char **glob;			/* options before or after the sides: both sides' */
};

/* "bpfbench", the options given for both sides, then the side's own words (which win). */
static int split_side(struct ab_side *s, const char *text, const struct ab_args *a)
{
	char *copy = strdup(text), *save = NULL, *w;
	int i;

	if (!copy)
		die("out of memory");
	s->copy = copy;
	s->text = text;
	s->argc = 0;
	s->words[s->argc++] = "bpfbench";
	for (i = 0; i < a->nr_glob; i++) {
		if (s->argc > AB_MAX_WORDS) {
			errmsg("ab: more than %d options for both sides", AB_MAX_WORDS);
			return EXIT_USAGE;
		}
		s->words[s->argc++] = a->glob[i];
	}
	for (w = strtok_r(copy, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		if (s->argc > 2 * AB_MAX_WORDS) {
			errmsg("ab: more than %d words in '%s'", AB_MAX_WORDS, text);
			return EXIT_USAGE;
		}
		s->words[s->argc++] = w;
	}
	s->words[s->argc] = NULL;
	if (cli_parse(s->argc, s->words, &s->spec))
		return EXIT_USAGE;
	verbose = s->spec.opts.verbose;
	if (!s->spec.bench) {
		errmsg("ab: '%s' names no benchmark", text);
		return EXIT_USAGE;
	}
	if (cli_words_set(s->argc - 1, s->words + 1, "runs") ||
	    cli_words_set(s->argc - 1, s->words + 1, "sweep") ||
	    out_any(s->spec.opts.out, OUT_K_ROWS)) {
		errmsg("ab: -r, --sweep and outputs are ab's own, not a side's ('%s')", text);
		return EXIT_USAGE;
	}
	/* a side that would run nothing, or measure nothing, cannot be compared */
	if (s->spec.opts.help || s->spec.opts.list || s->spec.opts.verifier_stats) {
		errmsg("ab: %s runs nothing to compare ('%s')", s->spec.opts.verifier_stats ?
		       "--verifier-stats" : s->spec.opts.help ? "--help" : "--list", text);
		return EXIT_USAGE;
	}
	s->spec.opts.batch = true;	/* ab prints its own progress and the verdict */
	return cli_validate(&s->spec) ?: cli_check_max_duration(&s->spec.opts);
}

static int ab_value(int argc, char **argv, int *i, const char **val)
{
	if (*i + 1 >= argc) {
		errmsg("ab: %s needs a value", argv[*i]);
		return EXIT_USAGE;
	}
	*val = argv[++*i];
	return 0;
}

static int ab_number(const char *opt, const char *text, uint64_t min, uint64_t max, uint64_t *v)
{
	if (parse_u64(text, v) || *v < min || *v > max) {
		errmsg("ab: %s: '%s' is not an integer in [%llu, %llu]", opt, text,
		       (unsigned long long)min, (unsigned long long)max);
		return EXIT_USAGE;
	}
	return 0;
}

static int ab_real(const char *opt, const char *text, double min, double max, double *v)
{
	char *end;

	*v = text && *text ? strtod(text, &end) : NAN;
	if (isnan(*v) || *end || *v <= min || *v > max) {
		errmsg("ab: %s: '%s' is not a number in (%g, %g]", opt, text ?: "", min, max);
		return EXIT_USAGE;
	}
	return 0;
}

/* --names A,B: both at once, as compare takes them. */
static int ab_names(const char *text, struct ab_args *a)
{
	const char *comma = strchr(text, ',');

	if (a->nr_names || !comma || strchr(comma + 1, ',')) {
		errmsg(a->nr_names ? "ab: --names and --name name the sides once: give one of them" :
		       "ab: --names needs two names: A,B (e.g. old,new)");
		return EXIT_USAGE;
	}
	a->name[0] = a->names_copy = strndup(text, comma - text);
	if (!a->names_copy)
		die("out of memory");
	a->name[1] = comma + 1;
	a->nr_names = 2;
	return 0;
}

static bool is_cmp_opt(const char *arg)
{
	return !strcmp(arg, "--noise") || !strcmp(arg, "--alpha") || !strcmp(arg, "--adjust") ||
	       !strcmp(arg, "--fail-on-regression") || !strcmp(arg, "--gate-unjudged");
}

/* One of ab's own options at argv[*i]: 0, EXIT_USAGE, or 1 when it is none of them. */
static int ab_option(int argc, char **argv, int *i, struct ab_args *a)
{
	const char *arg = argv[*i], *v = NULL;
	int f;

	if (!strcmp(arg, "-r") || !strcmp(arg, "--runs"))
		return ab_value(argc, argv, i, &v) ?:
		       ab_number("-r", v, 1, AB_MAX_PAIRS, &a->pairs);
	if (!strcmp(arg, "--seed"))
		return ab_value(argc, argv, i, &v) ?: ab_number("--seed", v, 0, UINT32_MAX, &a->seed);
	if (!strcmp(arg, "--json"))
		return ab_value(argc, argv, i, &a->out[OUT_JSON]);
	f = strncmp(arg, "--", 2) ? -1 : out_format_find(arg + 2);
	if (f >= 0 && out_format_defs[f].kind == OUT_K_VERDICTS) {	/* compare writes them */
		if (ab_value(argc, argv, i, &a->out[f]))
			return EXIT_USAGE;
		a->cmp[a->nr_cmp++] = (char *)arg;
		a->cmp[a->nr_cmp++] = (char *)a->out[f];
		return 0;
	}
	if (!strcmp(arg, "--record")) {
		a->record = true;
		return 0;
	}
	if (!strcmp(arg, "--db"))
		return ab_value(argc, argv, i, &a->db);
	if (!strcmp(arg, "--no-pin")) {
		a->no_pin = true;
		return 0;
	}
	if (!strcmp(arg, "--normalized")) {	/* both sides --normalize; compare judges on it */
		a->normalized = true;
		a->glob[a->nr_glob++] = "--normalize";
		a->cmp[a->nr_cmp++] = (char *)arg;
		return 0;
	}
	if (!strcmp(arg, "--precision"))
		return ab_value(argc, argv, i, &v) ?: ab_real(arg, v, 0, 100, &a->precision);
	if (!strcmp(arg, "--max-duration"))
		return ab_value(argc, argv, i, &v) ?: ab_real(arg, v, 0, 86400, &a->max_duration);
	if (!strcmp(arg, "--names"))
		return ab_value(argc, argv, i, &v) ?: ab_names(v, a);
	if (!strcmp(arg, "--name")) {
		if (a->nr_names == 2) {
			errmsg("ab: --name twice at most: the names of A and of B");
			return EXIT_USAGE;
		}
		return ab_value(argc, argv, i, &a->name[a->nr_names++]);
	}
	if (!strcmp(arg, "-q") || !strcmp(arg, "--quiet") || !strcmp(arg, "-v") ||
	    !strcmp(arg, "--verbose")) {
		a->verbose = arg[1] == 'v' || arg[2] == 'v';
		a->cmp[a->nr_cmp++] = (char *)arg;
		return 0;
	}
	if (is_cmp_opt(arg)) {
		a->cmp[a->nr_cmp++] = (char *)arg;
		if (ab_value(argc, argv, i, &v))
			return EXIT_USAGE;
		a->cmp[a->nr_cmp++] = (char *)v;
		return 0;
	}
	return 1;
}

/* A side's name heads lines of the answer: printable text, no escapes or line breaks. */
static int check_name(const char *name)
{
	const unsigned char *c;

	if (!*name) {
		errmsg("ab: --name: an empty name");
		return EXIT_USAGE;
	}
	for (c = (const unsigned char *)name; *c; c++) {
		if (*c < 0x20 || *c == 0x7f) {
			errmsg("ab: --name '%s': a control character (byte %d)", name,
			       (int)(c - (const unsigned char *)name) + 1);
			return EXIT_USAGE;
		}
	}
	if (c - (const unsigned char *)name > AB_MAX_NAME) {
		errmsg("ab: --name '%.32s...': longer than %d bytes", name, AB_MAX_NAME);
		return EXIT_USAGE;
	}
	return 0;
}

static int parse_ab(int argc, char **argv, struct ab_args *a)
{
	bool runs_given = false, max_given = false;
	int i, ret = 0;

	a->pairs = AB_DEFAULT_PAIRS;
	a->max_duration = AB_MAX_DURATION;
	a->name[0] = "A";
	a->name[1] = "B";
	a->tty = stderr_is_tty();
	a->seed = (uint64_t)time(NULL) ^ (uint64_t)getpid();
	a->cmp = xcalloc((size_t)argc + 1, sizeof(char *));
	a->glob = xcalloc((size_t)argc + 1, sizeof(char *));
	for (i = 3; i < argc && !ret; i++) {
		runs_given |= !strcmp(argv[i], "-r") || !strcmp(argv[i], "--runs");
		max_given |= !strcmp(argv[i], "--max-duration");
		ret = ab_option(argc, argv, &i, a);
		if (ret == 1) {		/* -w0, -d1, ...: both sides' */
			a->glob[a->nr_glob++] = argv[i];
			ret = 0;
		}
	}
	if (!ret && a->precision && !runs_given)
		a->pairs = AB_PRECISION_PAIRS;
	if (!ret && a->nr_names == 1) {
		errmsg("ab: --name names both sides: --name A --name B");
		ret = EXIT_USAGE;
	}
	if (!ret && max_given && !a->precision) {
		errmsg("ab: --max-duration bounds a --precision run: give --precision PCT too");
		ret = EXIT_USAGE;
	}
	for (i = 0; !ret && i < a->nr_names; i++)
		ret = check_name(a->name[i]);
	if (!ret && a->nr_names == 2 && !strcmp(a->name[0], a->name[1])) {
		errmsg("ab: the two sides need two names (both are '%s')", a->name[0]);
		ret = EXIT_USAGE;
	}
	if (!ret)
		ret = compare_check_opts(a->nr_cmp, a->cmp);
	if (!ret)
		ret = split_side(&a->side[0], argv[1], a) ?: split_side(&a->side[1], argv[2], a);
	if (!ret && a->side[0].spec.bench != a->side[1].spec.bench) {
		errmsg("ab: A runs %s and B runs %s: ab compares two configurations of one "
		       "benchmark", a->side[0].spec.bench->name, a->side[1].spec.bench->name);
		ret = EXIT_USAGE;
	}
	if (!ret && a->record && (!a->out[OUT_JSON] || !strcmp(a->out[OUT_JSON], "-"))) {
		errmsg("ab: --record records the file --json FILE writes: give --json FILE");
		ret = EXIT_USAGE;
	}
	if (!ret && a->db && !a->record) {
		errmsg("ab: --db names the database --record records into: give --record");
		ret = EXIT_USAGE;
	}
	if (!ret)
		ret = out_check_stdout(a->out) ?: output_paths_check(a->out, OUT_NR);
	if (!ret && a->record)
		ret = history_spare_db(a->db, a->out, OUT_NR);
	return ret;
}

/* The CI half-width of B/A in the first metric over the pairs so far, %; INFINITY: none yet. */
static double ratio_reach(const struct ab_args *a)
{
	return stats_paired_reach(a->side[0].first, a->side[1].first, a->done);
}

/*
 * "[pair 7/12, 41 s] CI of B/A ±2.3%, target ±1%": the pair, the time so
 * far, and how far the stopping rule is: the CI half-width of B/A over the
 * pairs done against --precision's target (or -r's count of pairs).
 */
static void pair_status(const struct ab_args *a, int k, char *buf, size_t len)
{
	double reach = ratio_reach(a), secs = (now_ns() - a->start) / 1e9;
	size_t n = 0;

	bufcat(buf, len, &n, "[pair %d", k + 1);
	if (!a->precision || a->needed)
		bufcat(buf, len, &n, "/%d", a->precision ? a->needed : (int)a->pairs);
	bufcat(buf, len, &n, ", %.0f s] CI of %.24s/%.24s ", secs, a->name[1], a->name[0]);
	if (isfinite(reach))
		bufcat(buf, len, &n, "±%.1f%%", reach);
	else
		bufcat(buf, len, &n, "after 2 pairs");
	if (a->precision)
		bufcat(buf, len, &n, ", target ±%g%%", a->precision);
}

/* On a terminal, before each run: where the pairs are, and which side runs now. */
static void progress(const struct ab_args *a, int k, int which)
{
	char status[256];

	if (!a->tty)
		return;
	pair_status(a, k, status, sizeof(status));
	progress_line("%s; %s: %s ", status, a->name[which], a->side[which].text);
}

/* Without a terminal, under -v: a line each pair once it ran (nothing without -v). */
static void pair_done(const struct ab_args *a)
{
	char status[256];

	if (a->tty || !a->verbose)
		return;
	pair_status(a, a->done - 1, status, sizeof(status));
	fprintf(stderr, "%s\n", status);
	fflush(stderr);
}

/*
 * Both runs of pair k on the same CPUs: the kernel bench's -a placement
 * (consumers, then producers, one CPU each in turn) started at CPU k.  On
 * a VM whose vCPUs run at unequal speeds, a pair whose A ran on the fast
 * one and B on the slow one measured the CPUs, not the change; rotating
 * the start spreads the pairs over every CPU.  A side that places its
 * threads itself (-a, --prod-affinity, --cons-affinity) keeps its own.
 */
static void pair_placement(const struct ab_args *a, int k, struct run_opts *o)
{
	int ncpu = nr_online_cpus(), i, nc = (int)o->consumers, np = (int)o->producers;

	if (a->no_pin || o->affinity || o->prod_cpus.n || o->cons_cpus.n || ncpu < 1)
		return;
	for (i = 0; i < nc && i < CPUSET_MAX; i++)
		o->cons_cpus.cpu[o->cons_cpus.n++] = (k + i) % ncpu;
	for (i = 0; i < np && i < CPUSET_MAX; i++)
		o->prod_cpus.cpu[o->prod_cpus.n++] = (k + nc + i) % ncpu;
}

/* The mean --precision follows: the first metric's, or under --normalized its -normalized twin's. */
static double lead_mean(const struct run_result *r, bool normalized)
{
	char name[128];
	int i;

	if (!r->nr_metrics)
		return NAN;
	snprintf(name, sizeof(name), "%s-normalized", r->metrics[0].name);
	for (i = 1; normalized && i < r->nr_metrics; i++)
		if (!strcmp(r->metrics[i].name, name))
			return r->st[i].mean;
	return r->st[0].mean;
}

static int run_side(struct ab_args *a, int k, int which)
{
	struct ab_side *s = &a->side[which];
	struct run_spec spec = s->spec;	/* the pair's placement: its own copy of the options */
	struct run_result one;
	int st;

	progress(a, k, which);
	pair_placement(a, k, &spec.opts);
	st = run_bench(&spec, NULL, &one);
	if (st) {
		progress_line_end();
		if (!one.reported)
			errmsg("%s", one.error);
		errmsg("ab: run %d of %s failed (exit %d)", k + 1, a->name[which], st);
	} else {
		s->first[k] = lead_mean(&one, a->normalized);
		run_result_append(&s->acc, &one);
	}
	run_result_free(&one);
	return st;
}

/* Whether another pair is due: -r pairs, then with --precision until the CI is narrow enough. */
static bool more_pairs(struct ab_args *a)
{
	if (a->done < (int)a->pairs)
		return true;
	if (!a->precision || a->done >= AB_MAX_PAIRS || a->secs >= a->max_duration)
		return false;
	if (!a->needed)
		a->needed = stats_pairs_needed(ratio_reach(a), a->done, a->precision);
	return a->done < a->needed;
}

/* A B or B A, drawn per pair: neither side always runs first. */
static int run_pairs(struct ab_args *a)
{
	unsigned int seed = (unsigned int)a->seed;
	int first, st = 0, cap = a->precision ? AB_MAX_PAIRS : (int)a->pairs;

	a->start = now_ns();
	a->side[0].first = xcalloc((size_t)cap, sizeof(double));
	a->side[1].first = xcalloc((size_t)cap, sizeof(double));
	while (!st && more_pairs(a)) {
		first = rand_r(&seed) & 1;
		st = run_side(a, a->done, first) ?: run_side(a, a->done, !first);
		a->secs = (now_ns() - a->start) / 1e9;
		if (!st) {
			a->done++;
			pair_done(a);
		}
	}
	a->reached = ratio_reach(a);
	progress_line_end();
	if (interrupted())
		return 128 + interrupted_signal();
	return st;
}

static int write_side(const char *path, struct run_result *r)
{
	r->label = NULL;	/* the sides' options differ: they match on the benchmark */
	return export_json_file(path, &r, 1);
}

/* What A and B are, how they ran, and whether --precision was met: after the answers. */
static char *intro(const struct ab_args *a)
{
	char *text = NULL;
	size_t len;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		die("out of memory");
	fprintf(f, "%s: %s\n%s: %s\n%d pairs in random order (seed %llu), %.0f s", a->name[0],
		a->side[0].text, a->name[1], a->side[1].text, a->done,
		(unsigned long long)a->seed, a->secs);
	if (a->precision && a->reached <= a->precision)
		fprintf(f, "; --precision %g%%: reached, ±%.2f%%", a->precision, a->reached);
	else if (a->precision)
		fprintf(f, "; --precision %g%%: NOT reached (±%.2f%%) within %g s", a->precision,
			a->reached, a->max_duration);
	fputc('\n', f);
	report_pair_notes(f, &a->side[0].acc, &a->side[1].acc, a->name[0], a->name[1]);
	fclose(f);
	return text;
}

/* compare's verdict of B (new) against A (old), pair by pair, from two private files. */
static int verdict(struct ab_args *a)
{
	char **argv = xcalloc((size_t)a->nr_cmp + 8, sizeof(char *));
	struct cmp_extra x = { .paired = true, .old_name = a->name[0], .new_name = a->name[1],
			       .suite = "bpfbench ab", .secs = a->secs,
			       .old_shown = a->side[0].text, .new_shown = a->side[1].text };
	char dir[64], pa[80], pb[80];
	int argc = 0, i, st, lock;

	/* named by its process and locked: a later run removes it if this one was killed */
	st = outpath_private_dir("bpfbench-ab.", dir, sizeof(dir), &lock);
	if (st) {
		errmsg("ab: cannot make a temporary directory: %s", strerror(-st));
		free(argv);
		return 1;
	}
	snprintf(pa, sizeof(pa), "%s/a.json", dir);
	snprintf(pb, sizeof(pb), "%s/b.json", dir);
	argv[argc++] = "compare";
	argv[argc++] = pa;
	argv[argc++] = pb;
	argv[argc++] = "--match";
	argv[argc++] = "label";
	for (i = 0; i < a->nr_cmp; i++)
		argv[argc++] = a->cmp[i];
	st = write_side(pa, &a->side[0].acc) || write_side(pb, &a->side[1].acc);
	if (!st) {
		x.intro = intro(a);
		st = compare_with(argc, argv, &x);
		free((char *)x.intro);
	}
	unlink(pa);
	unlink(pb);
	rmdir(dir);
	if (lock >= 0)
		close(lock);
	free(argv);
	return st;
}

static int write_both(struct ab_args *a)
{
	struct run_result *runs[2] = { &a->side[0].acc, &a->side[1].acc };

	a->side[0].acc.label = a->name[0];
	a->side[1].acc.label = a->name[1];
	if (export_json_file(a->out[OUT_JSON], runs, 2)) {
		errmsg("cannot write %s", a->out[OUT_JSON]);
		return 1;
	}
	return 0;
}

int ab_cmd(int argc, char **argv)
{
	struct ab_args a = { 0 };
	int st, i;

	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		ab_help();
		return 0;
	}
	if (argc < 3) {
		errmsg("ab: give two command lines: bpfbench ab \"ARGS A\" \"ARGS B\"");
		return EXIT_USAGE;
	}
	st = parse_ab(argc, argv, &a);
	if (!st && out_to_stdout(a.out))
		human_to_stderr();
	if (!st && !(a.side[0].spec.bench->flags & BENCH_F_NO_BPF))
		st = run_check_privileges();
	if (!st)
		st = run_pairs(&a);
	if (!st) {
		run_result_finish(&a.side[0].acc);
		run_result_finish(&a.side[1].acc);
		st = verdict(&a);
		/* recorded whatever the verdict: a regression is history too */
		if (a.out[OUT_JSON] && (write_both(&a) ||
					(a.record && history_record_written(a.out[OUT_JSON], a.db))) &&
		    (!st || st == EXIT_UNJUDGED))
			st = 1;
	}
	for (i = 0; i < 2; i++) {
		run_result_free(&a.side[i].acc);
		run_spec_free(&a.side[i].spec);
		free(a.side[i].copy);
		free(a.side[i].first);
	}
	free(a.cmp);
	free(a.names_copy);
	free(a.glob);
	return st;
}
