/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Human output of one run: the kernel bench's lines ("Setting up",
 * "Iter", "Summary") and ours ("Stats", "Runs", "Precision").  What a run
 * prints follows its own options: -q keeps the summary only, a suite
 * step (opts->batch) prints nothing and the suite prints its row.
 * report_out, report_figure and report_metric, which a family's own
 * summary uses too, are declared in bench.h.
 */
#ifndef BPFBENCH_REPORT_H
#define BPFBENCH_REPORT_H

#include <stdint.h>
#include <stdio.h>
#include "bench.h"
#include "result.h"

/* What a run prints as it goes; the runner calls each at its moment. */
struct reporter {
	void (*setup)(const struct bench_env *env);	/* before setup */
	void (*started)(const struct bench_env *env);	/* threads running */
	void (*iter)(const struct bench_env *env, int iter, int64_t drift_ns, const double *vals);
	void (*summary)(struct bench_env *env, const struct run_result *res);	/* after the last repetition */
};

/* human (every line), quiet (-q: summary only) or a suite row (nothing per run). */
const struct reporter *reporter_for(const struct run_opts *o);
/* Metric i of a result as its summary shows it (an inverse from its base, a count whole). */
const char *report_metric_figure(char *buf, size_t len, const struct run_result *r, int i);

#endif
