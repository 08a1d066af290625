/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BPFBENCH_REPORT_H
#define BPFBENCH_REPORT_H

#include <stdint.h>
#include <stdio.h>
#include "bench.h"
#include "runner.h"

/* Where human output goes: stdout, or stderr while JSON takes stdout. */
FILE *report_out(void);
void report_setup(struct bench_env *env);
void report_started(struct bench_env *env);
void report_iter(struct bench_env *env, int iter, int64_t drift_ns, const double *vals);
void report_summary(struct bench_env *env, const struct run_result *res);
/* Prints "name mean ± sd unit" the way the kernel bench does; for report_final hooks. */
void report_metric(FILE *out, const struct metric_def *m, const struct stats *st, int nr_prod);

/* Writes one JSON document with every run; "-" is stdout. Returns 0 or -errno. */
int report_json(const char *path, struct run_result *const *runs, int n);

#endif
