/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BPFBENCH_CLI_H
#define BPFBENCH_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include "opts.h"

struct bench;

/* Global options: the kernel bench's spellings plus ours. */
struct run_opts {
	uint64_t warmup_ms;	/* -w SEC, fractions allowed */
	uint64_t duration_ms;	/* -d SEC */
	uint64_t producers;
	uint64_t consumers;
	uint64_t period_ms;
	bool affinity;
	struct cpuset prod_cpus;
	struct cpuset cons_cpus;
	bool verbose;
	bool quiet;
	bool list;
	bool help;
	int trigger;		/* enum trigger_kind */
	uint64_t test_run_repeat;	/* 0: calibrate */
	const char *json_path;	/* NULL: none; "-": stdout */
	const char *csv_path;	/* --csv: one line per run and metric */
	const char *md_path;	/* --md: a Markdown table */
	const char *sweep;	/* --sweep PARAM=v1,v2,...: one run per value */
	const char *precision_text;	/* --precision PCT, as typed */
	uint64_t max_duration_ms;	/* bound of a --precision run */
	uint64_t runs;		/* -r: whole runs, each with a fresh setup */
	bool kernel_stats;	/* --kernel-stats: the kernel's run_cnt/run_time_ns of the program */
	bool verifier_stats;	/* --verifier-stats: load, print the verifier's counts, measure nothing */
	/* Not options: derived or set by the caller, kept across cli_parse. */
	double precision_pct;	/* 0: fixed duration; from precision_text by cli_validate */
	bool batch;		/* suites and sweeps print rows: no per-run summary */
	bool consumers_given;	/* -c was typed; else the benchmark's default_consumers() */
};

extern const struct opt_def global_opts[];	/* at offsets in struct run_opts */

/* One run's command line, parsed: the run owns its options. */
struct run_spec {
	const struct bench *bench;	/* NULL when only --list/--help was asked */
	struct run_opts opts;
	void *args;			/* the benchmark's options, bench->args_size bytes */
};

/*
 * Parses `[global options] BENCH [bench options]` in any order ("--"
 * ends the options).  Returns 0 with spec filled (free it with
 * run_spec_free), or EXIT_USAGE after printing one line naming the
 * problem (spec then holds nothing to free).
 */
int cli_parse(int argc, char **argv, struct run_spec *spec);
void run_spec_free(struct run_spec *spec);
enum opt_scope { OPT_SCOPE_NONE, OPT_SCOPE_GLOBAL, OPT_SCOPE_BENCH };
/*
 * What an option word is for: a global option, one of b's (b NULL: of
 * any benchmark), or neither; *takes_value if the next word is its value.
 */
enum opt_scope cli_option_scope(const char *word, const struct bench *b, bool *takes_value);
/* Whether the words (options with their values) set the global option name. */
bool cli_words_set(int argc, char **argv, const char *name);
/* Index of the first word that is not an option or an option's value, or -1. */
int cli_first_word(int argc, char **argv);
/* A copy whose args are its own (string options still point into argv). */
void run_spec_copy(struct run_spec *dst, const struct run_spec *src);
/* Checks cross-option rules for the chosen benchmark; EXIT_USAGE on error. */
int cli_validate(struct run_spec *spec);
/* "bpfbench: error: ..." on stderr; returns EXIT_USAGE. */
int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* " (did you mean WHAT'name'?)" when typed is close to a suite's name, else "". */
const char *suite_suggest(char *buf, size_t len, const char *what, const char *typed);
/* At most one export on stdout; EXIT_USAGE after one line otherwise. */
int cli_check_outputs(const struct run_opts *o);
void cli_usage(void);
void cli_list(void);
void cli_bench_help(const struct bench *b);

#endif
