/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BPFBENCH_RUNNER_H
#define BPFBENCH_RUNNER_H

#include <stdint.h>
#include "bench.h"

#define RUN_MAX_OPTS	64

/* An option's value as it was for the run (stores are reset between runs). */
struct run_opt_value {
	const struct opt_def *def;
	char text[OPT_TEXT_MAX];
};

struct run_result {
	const struct bench *bench;
	int status;			/* exit code: 0, 1, EXIT_SKIP, 128+signal */
	char error[300];		/* why status != 0 */
	bool reported;			/* the benchmark already printed why: don't repeat it */
	const char *trigger;		/* name of the trigger used, or "none" */
	const char *method;		/* env->method after setup, or NULL */
	uint32_t test_run_repeat;	/* test-run trigger: program runs per syscall, else 0 */
	int nr_samples;
	int cap;
	double (*vals)[BENCH_MAX_METRICS];
	uint64_t *elapsed_ns;
	int nr_warmup;			/* samples discarded */
	struct stats st[BENCH_MAX_METRICS];
	uint64_t wall_ns;		/* measured phase, first to last sample */
	int nr_opts;
	struct run_opt_value opts[RUN_MAX_OPTS];
	/* --precision: target and where the first metric's 95% CI half-width ended, % of its mean */
	double precision_target;	/* 0: fixed duration */
	bool precision_reached;
	double precision_pct;
	/* Set by suites and sweeps after run_bench, for the exports (NULL: none). */
	const char *suite;
	const char *label;
	const char *sweep_param;
};

/* Runs the benchmark with the current options; prints human output; fills res. */
int run_bench(const struct bench *b, struct run_result *res);
void run_result_free(struct run_result *res);

#endif
