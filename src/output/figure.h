/* SPDX-License-Identifier: GPL-2.0 */
/* How a figure is written (figure.c): one format for every human output. */
#ifndef BPFBENCH_FIGURE_H
#define BPFBENCH_FIGURE_H

#include <stddef.h>
#include "result.h"
#include "stats.h"

/* "mean ± sd" with the decimals the spread justifies; "mean" alone for one sample. */
const char *report_figure(char *buf, size_t len, double mean, const struct stats *st);
/* Metric i of a result as its summary shows it (an inverse from its base, a count whole). */
const char *report_metric_figure(char *buf, size_t len, const struct run_result *r, int i);
/* The decimals metric i's figure wants; a column takes the most of its cells'. */
int report_metric_decimals(const struct run_result *r, int i);
/* Metric i's figure with d decimals: "mean ± sd", the mean alone where there is no spread. */
void report_metric_cell(char *buf, size_t len, const struct run_result *r, int i, int d);

#endif
