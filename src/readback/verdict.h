/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One row of a comparison: a metric of a run in OLD against the same in
 * NEW, its figures, intervals, tests and verdict (see src/readback/compare.c for
 * the method as a whole).
 */
#ifndef BPFBENCH_VERDICT_H
#define BPFBENCH_VERDICT_H

#include <stdbool.h>
#include "resdoc.h"
#include "stats.h"

/*
 * --noise default, in percent: a change whose 95% interval lies within
 * +-this is "equal", and levels, peaks and counts change only beyond it.
 * A placeholder until it is measured from same-config pairs on the
 * reference machine (issue 14).
 */
#define CMP_NOISE_PCT	2.0
#define CMP_POWER	0.8	/* for the minimal detectable effect */
#define CMP_MIN_RUNS	3	/* run means are the basis from this many runs a side */

enum cmp_dir { DIR_NONE, DIR_HIGHER, DIR_LOWER };

enum cmp_class {
	CLS_EQUAL,		/* within the noise */
	CLS_GOOD, CLS_BAD,	/* faster/slower, better/worse */
	CLS_UP, CLS_DOWN,	/* a change of a metric with no better direction */
	CLS_INCONCLUSIVE,
};

enum cmp_basis {
	BASIS_RUNS,	/* means of >= CMP_MIN_RUNS runs a side */
	BASIS_BATCHES,	/* batch means of the samples */
	BASIS_FEW,	/* too few values to test */
	BASIS_ZERO,	/* every value 0 on both sides: equal, nothing to test */
	BASIS_NOISE,	/* a level or a peak: the noise threshold, no test */
	BASIS_EXACT,	/* a count: the noise threshold on exact values */
	BASIS_BASE,	/* a derived metric: its base's verdict */
};

struct cmp_opts {
	double alpha;
	double noise;		/* a fraction: 0.02 */
	double fail_pct;	/* < 0: no gate */
	enum stats_adjust adjust;
};

struct cmp_row {
	const char *run;	/* the run's name as printed */
	const struct res_metric *om, *nm;
	enum res_kind kind;	/* an old file's "sampled" resolved by name and unit */
	enum cmp_dir dir;
	bool speed;		/* verdict words faster/slower rather than better/worse */
	double ofig, nfig;	/* the figures compared: means, or the summary's inverse */
	bool spread;		/* both have n >= 2: print "± sd" */
	double change_pct;	/* NAN from a zero figure */
	bool from_zero;		/* the old figure is 0 and the new is not */
	bool has_ratio, has_ci;
	double ratio, lo, hi;	/* new / old and its 95% interval */
	bool tested;		/* has a p-value, one of the family adjusted together */
	double p, p_adj, p_mw;
	double mde_pct;		/* NAN when not defined */
	double mde_abs;		/* from a zero or negative figure: in the metric's unit */
	int ounits, nunits;	/* values tested on each side */
	bool one_process;	/* a side is one process: the verdict rests on it */
	enum cmp_basis basis;
	int base;		/* BASIS_BASE: index of the row followed; -1 */
	enum cmp_class cls;
};

/* Kind, direction and figures of the row. */
void cmp_row_init(struct cmp_row *row, const char *run, const struct res_metric *om,
		  const struct res_metric *nm);
/* Tests and intervals; decides every row that takes no adjusted p-value. */
void cmp_row_test(struct cmp_row *row, const struct res_run *orun, const struct res_run *nrun,
		  const struct cmp_opts *o);
/* The verdict of a tested row, once p_adj is set. */
void cmp_row_decide(struct cmp_row *row, const struct cmp_opts *o);
/* A derived metric takes the verdict of its base row. */
void cmp_row_follow(struct cmp_row *row, const struct cmp_row *base);
const char *cmp_class_text(const struct cmp_row *row);
bool cmp_row_regression(const struct cmp_row *row, const struct cmp_opts *o);

#endif
