/* SPDX-License-Identifier: GPL-2.0 */
/* One run of a benchmark (runner.c); what it produced is result.h's. */
#ifndef BPFBENCH_RUNNER_H
#define BPFBENCH_RUNNER_H

#include <stdint.h>
#include "result.h"
#include "run_opts.h"

/* 0, or 1 after one line naming the privilege bpf() lacks (before anything runs). */
int run_check_privileges(void);
struct bench_env;

/*
 * Who watches a run go, each call at its moment (output/report.c's
 * human lines); the figures are the caller's to report, from the result.
 */
struct run_observer {
	void (*setup)(const struct bench_env *env);	/* before setup */
	void (*started)(const struct bench_env *env);	/* threads running */
	/*
	 * A sample taken: ns is how late a period's sample was taken, or how
	 * long a whole run's (BENCH_F_ONESHOT) took, which no tick times.
	 */
	void (*iter)(const struct bench_env *env, int iter, int64_t ns, const double *vals);
};

/*
 * Runs spec's benchmark with spec's options (copied into res) and fills
 * res; obs (NULL: none) sees it go.  It prints no figure: the caller
 * hands res to the reporters (report_run(), a suite's table, ab's verdict).
 */
int run_bench(const struct run_spec *spec, const struct run_observer *obs,
	      struct run_result *res);

#endif
