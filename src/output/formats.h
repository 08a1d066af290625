/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The output formats' writers: the list is src/bench/out_formats.h, one
 * line a format; its writer is NAME_write(), declared here from that
 * line, and out_write() hands a document to every format of its kind the
 * user asked for.  Adding a format is its line and its writer's file.
 */
#ifndef BPFBENCH_FORMATS_H
#define BPFBENCH_FORMATS_H

#include <stdio.h>
#include "out_formats.h"

struct result_row;
struct prof_view;
struct verdicts;

/* What a writer is handed: a document of its format's kind. */
struct out_doc {
	enum out_kind kind;
	const char *title;		/* OUT_K_ROWS: the document's title */
	struct result_row *rows;	/* OUT_K_ROWS: a run's, a sweep's or a suite's rows */
	int n;
	const struct prof_view *prof;	/* OUT_K_PROFILE */
	const struct verdicts *verdicts;	/* OUT_K_VERDICTS */
};

#define OUT_WRITER(ID, name, metavar, kind, help)	\
	void name##_write(FILE *f, const struct out_doc *d);
OUT_FORMATS(OUT_WRITER)
#undef OUT_WRITER

/*
 * d into each of paths[OUT_NR] (NULL: not wanted; "-": stdout) whose
 * format writes d's kind, each file written whole or not at all
 * (outfile.h): 0, or 1 after a line per file that could not be.
 */
int out_write(const char *const *paths, const struct out_doc *d);

#endif
