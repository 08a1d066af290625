/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Human output of one run: the kernel bench's lines ("Setting up",
 * "Iter", "Summary") and ours ("Stats", "Runs", "Precision").  What a run
 * prints follows its own options: -q keeps the summary only, a suite
 * step (opts->batch) prints nothing and the suite prints its row.
 */
#ifndef BPFBENCH_REPORT_H
#define BPFBENCH_REPORT_H

#include <stdint.h>
#include <stdio.h>
#include "bench.h"
#include "runner.h"

/* Where human output goes: stdout, or stderr while an export (--json/--csv/--md -) takes stdout. */
FILE *report_out(const struct run_opts *o);
void report_setup(const struct bench_env *env);
void report_started(const struct bench_env *env);
void report_iter(const struct bench_env *env, int iter, int64_t drift_ns, const double *vals);
void report_summary(struct bench_env *env, const struct run_result *res);
/* "name mean ± sd unit" as the kernel bench prints it (no ± for one sample); for report_final hooks. */
void report_metric(FILE *out, const struct metric_def *m, const struct stats *st, int nr_prod);

#endif
