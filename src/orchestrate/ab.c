// SPDX-License-Identifier: GPL-2.0
/*
 * ab: two command lines of one benchmark run alternately, each run a
 * fresh setup, in pairs whose order is drawn at random (A B, B A, ...),
 * then compare's verdict on them.  On a shared or drifting machine this
 * is the fair way to compare two configurations: whatever drifts, drifts
 * under both.
 *
 *   bpfbench ab "ARGS A" "ARGS B" [-r N] [--seed S] [--json FILE]
 *               [--noise PCT] [--alpha A] [--fail-on-regression PCT]
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "ab.h"
#include "bench.h"
#include "cli.h"
#include "compare.h"
#include "export.h"
#include "runner.h"
#include "outfile.h"
#include "util.h"

#define AB_DEFAULT_PAIRS	5	/* >= 3 a side: compare tests run means */
#define AB_MAX_WORDS		64

struct ab_side {
	const char *text;		/* as typed */
	char *copy;			/* the words' storage */
	char *words[AB_MAX_WORDS + 2];
	int argc;
	struct run_spec spec;
	struct run_result acc;		/* every run of this side, one repetition each */
};

struct ab_args {
	struct ab_side side[2];
	uint64_t pairs;
	uint64_t seed;
	const char *json;
	bool tty;			/* a progress line on stderr */
	int nr_cmp;
	char *cmp[16];			/* options handed on to compare */
};

static void ab_usage(void)
{
	printf("Usage: bpfbench ab \"ARGS A\" \"ARGS B\" [-r N] [--seed S] [--json FILE]\n"
	       "                  [--noise PCT] [--alpha A] [--fail-on-regression PCT]\n\n"
	       "Runs two command lines of one benchmark alternately, N pairs (default %d) in\n"
	       "random order (A B or B A per pair), each run with a fresh setup, then prints\n"
	       "compare's verdict of B against A.  --json writes both sides (labels A and B).\n"
	       "Exit status as compare's: 1 on a regression beyond --fail-on-regression.\n",
	       AB_DEFAULT_PAIRS);
}

static int split_side(struct ab_side *s, const char *text)
{
	char *copy = strdup(text), *save = NULL, *w;

	if (!copy)
		die("out of memory");
	s->copy = copy;
	s->text = text;
	s->argc = 0;
	s->words[s->argc++] = "bpfbench";
	for (w = strtok_r(copy, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		if (s->argc > AB_MAX_WORDS) {
			errmsg("ab: more than %d words in '%s'", AB_MAX_WORDS, text);
			return EXIT_USAGE;
		}
		s->words[s->argc++] = w;
	}
	s->words[s->argc] = NULL;
	if (cli_parse(s->argc, s->words, &s->spec))
		return EXIT_USAGE;
	if (!s->spec.bench) {
		errmsg("ab: '%s' names no benchmark", text);
		return EXIT_USAGE;
	}
	if (cli_words_set(s->argc - 1, s->words + 1, "runs") ||
	    cli_words_set(s->argc - 1, s->words + 1, "sweep") ||
	    s->spec.opts.json_path || s->spec.opts.csv_path || s->spec.opts.md_path) {
		errmsg("ab: -r, --sweep and outputs go after the two command lines, not in '%s'",
		       text);
		return EXIT_USAGE;
	}
	s->spec.opts.batch = true;	/* ab prints its own progress and the verdict */
	return cli_validate(&s->spec);
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

static int parse_ab(int argc, char **argv, struct ab_args *a)
{
	const char *v = NULL;
	int i, ret = 0;

	a->pairs = AB_DEFAULT_PAIRS;
	a->tty = isatty(STDERR_FILENO);
	a->seed = (uint64_t)time(NULL) ^ (uint64_t)getpid();
	for (i = 3; i < argc && !ret; i++) {
		if (!strcmp(argv[i], "-r") || !strcmp(argv[i], "--runs")) {
			ret = ab_value(argc, argv, &i, &v) ?: ab_number("-r", v, 1, 1000, &a->pairs);
		} else if (!strcmp(argv[i], "--seed")) {
			ret = ab_value(argc, argv, &i, &v) ?: ab_number("--seed", v, 0, UINT32_MAX,
								       &a->seed);
		} else if (!strcmp(argv[i], "--json")) {
			ret = ab_value(argc, argv, &i, &a->json);
		} else if (!strcmp(argv[i], "--noise") || !strcmp(argv[i], "--alpha") ||
			   !strcmp(argv[i], "--fail-on-regression")) {
			if (a->nr_cmp + 2 > (int)ARRAY_SIZE(a->cmp))
				return EXIT_USAGE;
			a->cmp[a->nr_cmp++] = argv[i];
			ret = ab_value(argc, argv, &i, &v);
			a->cmp[a->nr_cmp++] = (char *)v;
		} else {
			errmsg("ab: unknown argument '%s' (see 'bpfbench ab --help')", argv[i]);
			ret = EXIT_USAGE;
		}
	}
	if (!ret)
		ret = split_side(&a->side[0], argv[1]) ?: split_side(&a->side[1], argv[2]);
	if (!ret && a->side[0].spec.bench != a->side[1].spec.bench) {
		errmsg("ab: A runs %s and B runs %s: ab compares two configurations of one "
		       "benchmark", a->side[0].spec.bench->name, a->side[1].spec.bench->name);
		ret = EXIT_USAGE;
	}
	if (!ret && a->json)
		ret = output_path_check(a->json) ? 1 : 0;
	return ret;
}

static int run_side(struct ab_args *a, int k, int which)
{
	struct ab_side *s = &a->side[which];
	struct run_result one;
	int st;

	if (a->tty)
		fprintf(stderr, "\r\033[K[%d/%d] %c: %s ", k + 1, (int)a->pairs, "AB"[which],
			s->text);
	st = run_bench(&s->spec, &one);
	if (st) {
		if (a->tty)
			fputs("\r\033[K", stderr);
		if (!one.reported)
			errmsg("%s", one.error);
		errmsg("ab: run %d of %c failed (exit %d)", k + 1, "AB"[which], st);
	} else {
		run_result_append(&s->acc, &one);
	}
	run_result_free(&one);
	return st;
}

/* A B or B A, drawn per pair: neither side always runs first. */
static int run_pairs(struct ab_args *a)
{
	unsigned int seed = (unsigned int)a->seed;
	int k, first, st = 0;

	for (k = 0; k < (int)a->pairs && !st; k++) {
		first = rand_r(&seed) & 1;
		st = run_side(a, k, first) ?: run_side(a, k, !first);
	}
	if (a->tty)
		fputs("\r\033[K", stderr);
	if (interrupted())
		return 128 + interrupted_signal();
	return st;
}

static int write_side(const char *path, struct run_result *r, const char *label)
{
	r->label = label;
	return export_json_file(path, &r, 1);
}

/* compare's verdict of B (new) against A (old), from two files in a private directory. */
static int verdict(struct ab_args *a)
{
	char dir[] = "/tmp/bpfbench-ab.XXXXXX", pa[64], pb[64];
	char *argv[24] = { "compare", pa, pb, "--match", "label" };
	int argc = 5, i, st;

	if (!mkdtemp(dir)) {
		errmsg("ab: cannot make a temporary directory: %s", strerror(errno));
		return 1;
	}
	snprintf(pa, sizeof(pa), "%s/a.json", dir);
	snprintf(pb, sizeof(pb), "%s/b.json", dir);
	for (i = 0; i < a->nr_cmp; i++)
		argv[argc++] = a->cmp[i];
	st = write_side(pa, &a->side[0].acc, "ab") || write_side(pb, &a->side[1].acc, "ab");
	if (!st) {
		printf("ab: %s, %d pairs in random order (seed %llu)\n  A: %s\n  B: %s\n",
		       a->side[0].spec.bench->name, (int)a->pairs, (unsigned long long)a->seed,
		       a->side[0].text, a->side[1].text);
		fflush(stdout);
		st = compare_cmd(argc, argv);
	}
	unlink(pa);
	unlink(pb);
	rmdir(dir);
	return st;
}

static int write_both(struct ab_args *a)
{
	struct run_result *runs[2] = { &a->side[0].acc, &a->side[1].acc };

	a->side[0].acc.label = "A";
	a->side[1].acc.label = "B";
	if (export_json_file(a->json, runs, 2)) {
		errmsg("cannot write %s", a->json);
		return 1;
	}
	return 0;
}

int ab_cmd(int argc, char **argv)
{
	struct ab_args a = { 0 };
	int st, i;

	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		ab_usage();
		return 0;
	}
	if (argc < 3) {
		errmsg("ab: give two command lines: bpfbench ab \"ARGS A\" \"ARGS B\"");
		return EXIT_USAGE;
	}
	st = parse_ab(argc, argv, &a);
	if (!st && !(a.side[0].spec.bench->flags & BENCH_F_NO_BPF))
		st = run_check_privileges();
	if (!st)
		st = run_pairs(&a);
	if (!st) {
		run_result_finish(&a.side[0].acc);
		run_result_finish(&a.side[1].acc);
		st = verdict(&a);
		if (a.json && write_both(&a) && !st)
			st = 1;
	}
	for (i = 0; i < 2; i++) {
		run_result_free(&a.side[i].acc);
		run_spec_free(&a.side[i].spec);
		free(a.side[i].copy);
	}
	return st;
}
