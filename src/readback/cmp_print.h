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
	int cls[CLS_INCONCLUSIVE + 1];
	int only_old, only_new, failed, one_process, regressions, matched;
	int lone_metrics;	/* metrics of matched runs without a partner, or of another unit */
};

void cmp_print_help(void);
/* family: the number of tested rows the p-values were adjusted over. */
void cmp_print_header(const struct cmp_opts *o, const struct res_doc *old,
		      const struct res_doc *new, int family);
/* The rows; counts verdicts and regressions into tally, naming each regression on stderr. */
void cmp_print_table(const struct cmp_table *t, const struct cmp_opts *o, struct cmp_tally *tally);
void cmp_print_summary(const struct cmp_table *t, const struct cmp_opts *o,
		       const struct cmp_tally *tally);

#endif
