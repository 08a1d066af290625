/* SPDX-License-Identifier: GPL-2.0 */
/* How a figure is written (figure.c): one format for every human output. */
#ifndef BPFBENCH_FIGURE_H
#define BPFBENCH_FIGURE_H

#include <stdbool.h>
#include <stddef.h>
#include "result.h"
#include "stats.h"

/*
 * THE rule of every table, row and Markdown cell: "mean ± sd" with the sd
 * to two significant digits and the mean rounded to the same decimal
 * place (633 ± 14, 65.3 ± 5.2, 0.2392 ± 0.0013, 12300 ± 1200).  False,
 * buf untouched, where there is no spread to show: sd 0 or below, not a
 * number, or a mere rounding of a constant mean.
 */
bool figure_pm(char *buf, size_t len, double mean, double sd);
/* "mean ± sd" by figure_pm; "mean" alone (three decimals, more below 1) for one sample. */
const char *report_figure(char *buf, size_t len, double mean, const struct stats *st);
/* Metric i of a result as its summary shows it (an inverse from its base, a count whole). */
const char *report_metric_figure(char *buf, size_t len, const struct run_result *r, int i);
/* The decimals metric i's figure wants without a spread; a column takes the most of its cells'. */
int report_metric_decimals(const struct run_result *r, int i);
/* Metric i's cell: "mean ± sd" by figure_pm, else the mean alone to d decimals (the column's). */
void report_metric_cell(char *buf, size_t len, const struct run_result *r, int i, int d);

#endif
