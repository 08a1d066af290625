/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A suite's or sweep's rows for a reader (rows.c): the text table, drawn
 * a section at a time as a plan's steps end, and what the text table and
 * the Markdown (export_md.c) both say beside a row's figures: how it ran
 * where that differs from the first row, the noise under it, and its
 * benchmark's notes.
 */
#ifndef BPFBENCH_ROWS_H
#define BPFBENCH_ROWS_H

#include <stdbool.h>
#include <stdio.h>
#include "export.h"

#define ROWS_NOTES_MAX	64	/* distinct notes a document says; more are the JSON's */

/* The notes a document has said, each once. */
struct rows_said {
	const char *note[ROWS_NOTES_MAX];
	int n, more;
};

/* The first row with figures: the conditions the others are told against (NULL: none). */
const struct run_result *rows_first_run(const struct result_row *rows, int n);
/* "-d 0.1, trigger raw-tp": how row ran where it differs from first; "" where it does not. */
const char *row_runs(const struct result_row *row, const struct run_result *first, char *buf,
		     size_t len);
/* "noisy", "loaded" or NULL: the noise word of a row (report_noise_word). */
const char *row_noise(const struct result_row *row);
/*
 * The notes of rows [from, to) not said before, each once: lead, "(the
 * rows that have it)" unless all do, ": ", the note; wrapped to 120;
 * before ahead of the first.  Returns how many it said.
 */
int rows_notes(FILE *f, const char *before, const char *lead, const struct result_row *rows,
	       int from, int to, struct rows_said *said);
/* What the noise words of rows [0, n) mean, a line each (lead before each); one line if none. */
void rows_noise_legend(FILE *f, const char *lead, const struct result_row *rows, int n);

/* The text table of a plan's rows: where it goes, its label column, what it said. */
struct rows_table;
/* rows[i].label set for all n (the widest sets the column); loud: a missed precision target says so. */
struct rows_table *rows_table_open(const struct export_paths *out, const struct result_row *rows,
				   int n, bool loud);
/* The rows of a section, as its steps end. */
void rows_table_section(struct rows_table *t, const struct result_row *rows, int from, int to);
/* Under the table: precision, the noise's legend, the conditions; frees t. */
void rows_table_close(struct rows_table *t, const struct result_row *rows, int n);

#endif
