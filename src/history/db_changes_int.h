/* SPDX-License-Identifier: GPL-2.0 */
/* What the parts of db changes share (db_changes.c, and its gate: db_gate.c). */
#ifndef BPFBENCH_DB_CHANGES_INT_H
#define BPFBENCH_DB_CHANGES_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <json-c/json.h>
#include "history.h"
#include "verdicts.h"

struct ed_cp;

struct tally {
	const struct db_args *a;
	int nr_series, nr_changes, nr_regressions, nr_unjudged;
	int nr_directed;	/* series with a better direction: what a gate judges */
	int nr_bisect;		/* changes given a bisect line */
	int min_points;		/* the shortest series the test can split; 0: not known yet */
	json_object *list;	/* --json: the change points */
	json_object *unjudged;	/* --json: the series the gate could not judge */
	bool cases;		/* a verdicts' format (--junit ...): a case per series */
	struct verdicts v;
};

/* Why a series could not show a step beyond the gate: its figures, for the line and the JSON. */
struct why_unjudged {
	double spread_pct;	/* point to point, of the median; NAN: too short, or around 0 */
	double step_pct;	/* the smallest step the series could show at best */
};

/* A change point's step over [from, at) -> [at, to), in percent, with its 95% interval. */
struct cp_step {
	double pct, lo, hi;	/* NAN from a mean of 0: no percentage, the means said instead */
	double before, after;	/* the two sides' means */
	const char *verdict;	/* "regression", "improvement", "change" */
	bool gate;		/* a regression beyond --fail-on-change */
};

/* db_changes.c */
const char *shown_key(const struct series *sr, char *buf, size_t len);
const char *pt_field(const struct point *p, bool commit);
int side_count(const struct series *sr, int from, int to, bool commit);
void series_head(const struct series *sr, const struct db_args *a);
json_object *num_or_null(double v);

/* db_gate.c */
bool unjudged(struct tally *t, const struct series *sr, const double *x,
	      struct why_unjudged *w);
void regression_line(const struct series *sr, const struct ed_cp *cp, int from, int to,
		     const struct cp_step *sp);
void report_unjudged(struct tally *t, const struct series *sr, const struct why_unjudged *w);
bool unjudged_pass(const struct db_args *a);
void gate_step(const struct series *sr, const struct ed_cp *cp, const struct cp_step *sp,
	       char *buf, size_t len);
void series_case(struct tally *t, const struct series *sr, int changes, const char *gated,
		 const struct why_unjudged *w);

#endif
