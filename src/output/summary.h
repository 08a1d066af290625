/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A result's Summary and suite row in its benchmark's declared shape
 * (summary.c), and REPORT_TABLE's table (table.c).
 */
#ifndef BPFBENCH_SUMMARY_H
#define BPFBENCH_SUMMARY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "result.h"

/* "Summary: ..." (a table shape's table first), as the kernel bench's scripts read it. */
void summary_write(FILE *out, const struct run_result *res);
/*
 * Whether the run's own lines under its figures (Stats, Noise: each with
 * a '%') belong on stderr: where a family writes its own lines (.lines),
 * as upstream prints those alone and its script hands them to printf as
 * its format.
 */
bool summary_lines_apart(const struct run_result *res);
/* The suite row of a result that has figures. */
void summary_row(const struct run_result *res, char *buf, size_t len);
/* The table of a REPORT_TABLE result, each line after indent. */
void table_write(FILE *out, const struct run_result *res, const char *indent);
/* The same table as a Markdown pipe table (export_md.c: a row of a suite's document). */
void table_write_md(FILE *out, const struct run_result *res);
/* A suite row of a table: the options, then the table indented on the lines after. */
void table_row(char *buf, size_t len, const struct run_result *res);
/*
 * " --opt value ..." of the benchmark's options that are set (all) or
 * away from their defaults, those keep (NULL: any) takes of them (option i of r).
 */
void summary_options(char *buf, size_t len, const struct run_result *res, bool all,
		     bool (*keep)(const struct run_result *r, int i, const void *ctx),
		     const void *ctx);

#endif
