/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Rows of results, as suites and sweeps print and export them: one row
 * per run (or per step that could not run), written as JSON, CSV or a
 * Markdown table.
 */
#ifndef BPFBENCH_EXPORT_H
#define BPFBENCH_EXPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include "out_formats.h"
#include "result.h"

struct result_row {
	const char *header;	/* section title starting here, or NULL */
	const char *label;	/* row label; NULL: the benchmark's name */
	const char *suite;	/* suite the step belongs to, or NULL */
	const char *section;	/* the section title this row stands under, or NULL */
	int status;		/* exit status of the step: 0, 1, 2, EXIT_SKIP, 128+sig */
	char note[320];		/* why a step failed or was skipped */
	struct run_result res;	/* res.bench NULL: the step never ran (bad arguments) */
};

struct export_paths {
	const char *path[OUT_NR];	/* each format's (out_formats.h): NULL not wanted, "-" stdout */
};

/*
 * The row's result in its benchmark's shape (summary.h): "throughput
 * 1.234 ± 0.010 M ops/s, ..." or why there is none.
 */
void row_summary(const struct result_row *row, char *buf, size_t len);
/* Whether the row has figures: it ran, or a signal cut it after some samples (res_kept). */
bool row_has_figures(const struct result_row *row);
/* "±3.9%" (95% CI of the first metric) of a sampled row, "" if not; loud: says a miss. */
const char *row_ci(const struct result_row *row, bool loud, char *buf, size_t len);
/* "Precision: k of n sampled rows reached ..." once under a table, where = where a row's is. */
void precision_text(const struct result_row *rows, int n, const char *where, char *buf,
		    size_t len);
/* The Markdown document: a table per section, a column per metric (export_md.c). */
void export_write_md(FILE *f, const char *title, struct result_row *rows, int n);
/* Writes every requested format of rows; prints one line per file it cannot write; 0 or 1. */
int export_rows(const struct export_paths *p, const char *title,
		struct result_row *rows, int n);
/* The JSON document of these runs (export_json.c). */
void export_json_doc(FILE *f, struct run_result *const *runs, int n);
/* A JSON document of these runs into path ("-": stdout); 0 or -errno. */
int export_json_file(const char *path, struct run_result *const *runs, int n);
/* One run of `bpfbench BENCH`, to whichever exports its options ask for; 0 or 1. */
int export_run(struct run_result *res);

/*
 * The run conditions of the rows that ran: "-w 0 -d 1 ..." where they
 * agree, else "12 of -w 0 -d 1 ...; 3 of ..." (four sets at most, then a
 * count).  Returns how many sets there are (0: no row ran).
 */
int conditions_of_rows(const struct result_row *rows, int n, char *buf, size_t len);

#endif
