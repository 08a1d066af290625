/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A run's options: the global ones (struct run_opts, whose table is
 * global_opts in cli.c) and the benchmark's own (run_spec.args, described
 * by the benchmark's table).  cli_parse fills them; the runner copies them
 * into the result; a benchmark reads env->opts and env->args.
 */
#ifndef BPFBENCH_RUN_OPTS_H
#define BPFBENCH_RUN_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "opts.h"
#include "out_formats.h"

#define BENCH_MAX_THREADS	1024	/* -p and -c: threads a run may have */

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
	bool list_families;
	bool help;
	int trigger;		/* enum trigger_kind */
	uint64_t test_run_repeat;	/* 0: calibrate */
	/* --json, --csv, ... (out_formats.h): NULL none, "-" stdout; a run's kinds (OUT_K_RUN) only */
	const char *out[OUT_NR];
	bool record;		/* --record: the --json file into the history (bpfbench db) */
	const char *db_path;	/* --db: the database --record records into; NULL: the default */
	const char *sweep;	/* --sweep PARAM=v1,v2,...: one run per value */
	const char *precision_text;	/* --precision PCT, as typed */
	uint64_t max_duration_ms;	/* bound of a --precision run */
	uint64_t runs;		/* -r: whole runs, each with a fresh setup */
	bool normalize;		/* --normalize: NAME-normalized beside the first metric (normalize.h) */
	bool speed_ref;		/* --speed-ref: a speed reference after every sample (speedref.h) */
	bool kernel_stats;	/* --kernel-stats: the kernel's run_cnt/run_time_ns of the program */
	bool verifier_stats;	/* --verifier-stats: load, print the verifier's counts, measure nothing */
	bool counters;		/* --counters: per-op counts of perf events over the measured phase */
	bool profile;		/* --profile: sample the measured phase's stacks (src/run/profile.h) */
	uint64_t profile_freq;	/* --profile-freq HZ */
	/* Not options: derived or set by the caller, kept across cli_parse. */
	double precision_pct;	/* 0: fixed duration; from precision_text by cli_validate */
	bool batch;		/* suites and sweeps print rows: no per-run summary */
	bool consumers_given;	/* -c was typed; else the benchmark's default_consumers() */
	bool max_duration_given;	/* --max-duration was typed: it needs --precision */
};

/* One run's command line, parsed: the run owns its options. */
struct run_spec {
	const struct bench *bench;	/* NULL when only --list/--help was asked */
	struct run_opts opts;
	void *args;			/* the benchmark's options, bench->args_size bytes */
	size_t args_size;
};

/* The global options, at offsets in struct run_opts (run_opts.c). */
extern const struct opt_def global_opts[];

/*
 * The time a repetition asks to measure, ms: --precision's bound (it
 * usually stops sooner), else -d.  The runner's clock, the time a signal
 * cut short and a plan's estimate all read it.
 */
uint64_t run_opts_measure_ms(const struct run_opts *o);

void run_spec_free(struct run_spec *spec);
/* A copy whose args are its own (string options still point into argv). */
void run_spec_copy(struct run_spec *dst, const struct run_spec *src);

#endif
