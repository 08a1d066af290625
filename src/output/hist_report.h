/* SPDX-License-Identifier: GPL-2.0 */
/* A run's latency histograms in its outputs (hist_report.c). */
#ifndef BPFBENCH_HIST_REPORT_H
#define BPFBENCH_HIST_REPORT_H

#include <stdio.h>
#include "hist.h"

struct jsonw;
struct run_result;

/*
 * JSON: "histograms": {NAME: {...}} (nothing without histograms); res
 * (may be NULL) gives the throughput's ns per op to compare with.
 */
void hist_json(struct jsonw *w, const struct run_result *res, const struct hist_set *set);
/*
 * The Latency lines of one histogram (the first starts "Latency", the
 * others are indented, none passes 120 columns): thr_ns is the ns per op
 * the throughput gives (per producer), 0 if none.
 */
void hist_latency_line(FILE *out, const struct hist *h, const char *label, double thr_ns);
/* Every histogram of res, its Latency lines each. */
void hist_report(FILE *out, const struct run_result *res);

#endif
