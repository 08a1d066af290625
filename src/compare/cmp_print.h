/* SPDX-License-Identifier: GPL-2.0 */
/* compare's output: the method, one line per row, the unmatched runs, the summary. */
#ifndef BPFBENCH_CMP_PRINT_H
#define BPFBENCH_CMP_PRINT_H

#include "resdoc.h"
#include "verdict.h"

struct cmp_table {
	struct cmp_row *rows;
	int n, cap;
};

struct cmp_tally {
	int cls[CLS_NONE + 1];
	int only_old, only_new, failed, one_process, one_run, regressions, matched;
	int unjudged;		/* gated rows the gate could not judge (cmp_row_unjudged) */
	int lone_metrics;	/* metrics of matched runs without a partner, or of another unit */
};

void cmp_print_help(void);
/* family: the number of tested rows the p-values were adjusted over. */
void cmp_print_header(const struct cmp_opts *o, const struct res_doc *old,
		      const struct res_doc *new, int family);
/*
 * Under a gate, a row that could be a regression but has no verdict or is
 * "cannot tell", unless its interval rules out a change for the worse
 * beyond the gate's limit (then the gate has its answer).
 */
bool cmp_row_unjudged(const struct cmp_row *row, const struct cmp_opts *o);
/* Counts verdicts, regressions and unjudged rows into tally, naming each regression on stderr. */
void cmp_count(const struct cmp_table *t, const struct cmp_opts *o, struct cmp_tally *tally);
/* The answer lines (src/cmp_answer.c): per run, what changed by how much, or that nothing did. */
void cmp_print_answers(const struct cmp_table *t, const struct cmp_opts *o);
/* One row's answer, as the answer lines and compare's JSON "answer" give it. */
void cmp_answer_text(char *buf, size_t len, const struct cmp_row *r, const struct cmp_opts *o);
/* "NEW/OLD × 1.349 [1.210, 1.503]": a ratio and its interval, never as "±". */
int cmp_fmt_interval(char *buf, size_t len, const struct cmp_row *r, const struct cmp_opts *o);
/* The rows: grouped by run, or with -v a line each with every column. */
void cmp_print_table(const struct cmp_table *t, const struct cmp_opts *o);
/* compare --json FILE: the rows and verdicts; 0, or 1 after a message. */
int cmp_write_json(const char *path, const struct cmp_table *t, const struct cmp_opts *o);
/* The gate's exit status for what it did not judge: 0 or EXIT_UNJUDGED, said on stderr. */
int cmp_gate_unjudged(const struct cmp_opts *o, const struct cmp_tally *tally);
void cmp_print_summary(const struct cmp_table *t, const struct cmp_opts *o,
		       const struct cmp_tally *tally);
/*
 * A change in percent, "+4.25%" at decimals places, bounded in print:
 * beyond +-99999% three significant digits ("+1e+308%"), never a
 * 95-digit figure from a huge mean.
 */
const char *cmp_pct_text(char *buf, size_t len, double pct, int decimals);

#endif
