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
/* What a run prints as it goes; the runner calls each at its moment. */
struct reporter {
	void (*setup)(const struct bench_env *env);	/* before setup */
	void (*started)(const struct bench_env *env);	/* threads running */
	void (*iter)(const struct bench_env *env, int iter, int64_t drift_ns, const double *vals);
	void (*summary)(struct bench_env *env, const struct run_result *res);	/* after the last repetition */
};

/* human (every line), quiet (-q: summary only) or a suite row (nothing per run). */
const struct reporter *reporter_for(const struct run_opts *o);
/* "mean ± sd" with the decimals the spread justifies; "mean" alone for one sample. */
const char *report_figure(char *buf, size_t len, double mean, const struct stats *st);
/* Metric i of a result as its summary shows it (an inverse from its base, a count whole). */
const char *report_metric_figure(char *buf, size_t len, const struct run_result *r, int i);
/*
 * "name mean ± sd unit (X<prod_unit>/prod)" as the kernel bench prints it,
 * "± 0.000" for one sample as it does; for report_final hooks.  report_rate
 * takes the spelling (the kernel's "K ops/s" where our unit is "k ops/s").
 */
void report_metric(FILE *out, const struct metric_def *m, const struct stats *st, int nr_prod);
void report_rate(FILE *out, const char *id, const struct stats *st, const char *unit,
		 const char *prod_unit, int nr_prod);

#endif
