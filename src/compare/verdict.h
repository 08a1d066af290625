/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One row of a comparison: a metric of a run in OLD against the same in
 * NEW, its figures, intervals, tests and verdict (see src/compare/compare.c for
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
/*
 * --drift default, in percent: how far two sessions of one configuration
 * may lie apart beyond what their runs' spread shows (with_unseen() in
 * src/compare/verdict_tests.c); fitted on the reference VM
 * (doc/calibration.md).
 */
#define CMP_DRIFT_PCT	3.0
#define CMP_POWER	0.8	/* for the minimal detectable effect */
/*
 * --run-noise is taken as measured from this many runs (the -r 10 the help
 * suggests): its own uncertainty widens the interval as a t's tails do.
 */
#define CMP_RUN_NOISE_RUNS	10
#define CMP_MIN_RUNS	3	/* run means are the basis from this many runs a side */

enum cmp_dir { DIR_NONE, DIR_HIGHER, DIR_LOWER };

/*
 * One vocabulary for every answer, table row and JSON verdict.  "equal" is
 * an equivalence test (the 95% CI of new/old inside +-noise), never the
 * absence of a detected change; "cannot tell" is a valid test that found
 * neither; "no verdict" is where no test is valid (row->why says why).
 */
enum cmp_class {
	CLS_EQUAL,		/* the CI within +-noise */
	CLS_GOOD, CLS_BAD,	/* faster/slower, better/worse: significant after adjustment */
	CLS_UP, CLS_DOWN,	/* a change of a metric with no better direction */
	CLS_CANNOT_TELL,	/* tested (or a level within its resolution): neither */
	CLS_NO_VERDICT,		/* no valid test */
	CLS_NONE,		/* a count that only follows the duration: "-" */
};

/* Why a row is "no verdict" or "cannot tell" (what the answer line explains). */
enum cmp_why {
	WHY_NONE,
	WHY_FEW,		/* fewer than two values (runs, batches, pairs) a side */
	WHY_CORRELATED,		/* the correlated samples leave < CMP_MIN_DF degrees of freedom */
	WHY_WIDE,		/* an interval wider than CMP_MAX_SPAN times */
	WHY_FLAT,		/* one side's values do not vary: no spread to test against */
	WHY_RESOLUTION,		/* a level that moved less than its measurement's resolution */
	WHY_ADJUSTED,		/* the CI excludes 1, not significant after adjustment */
	WHY_ONE_RUN,		/* one run a side: how far runs lie apart is in neither */
};

enum cmp_basis {
	BASIS_RUNS,	/* means of >= CMP_MIN_RUNS runs a side */
	BASIS_PAIRS,	/* ab: run means in pairs, a paired test on each pair's ratio */
	BASIS_BATCHES,	/* batch means of the samples */
	BASIS_RUNS_ONE,	/* one run against the other side's runs, their spread its own */
	BASIS_SHORT,	/* one short series a side: its samples, their correlation allowed for */
	BASIS_FEW,	/* too few values to test */
	BASIS_ZERO,	/* every value 0 on both sides: equal, nothing to test */
	BASIS_NOISE,	/* a level or a peak: the noise threshold, no test */
	BASIS_EXACT,	/* a count: the noise threshold on exact values */
	BASIS_BASE,	/* a derived metric: its base's verdict */
	BASIS_TALLY,	/* a count of what a sample did (ops, runs): follows the duration */
};

struct cmp_opts {
	double alpha;
	double noise;		/* a fraction: 0.02 */
	double drift;		/* a fraction: separate sessions' noise beyond their spread */
	double run_noise;	/* a fraction: how far one run's mean strays; NAN: unknown */
	double fail_pct;	/* < 0: no gate */
	bool unjudged_pass;	/* --gate-unjudged pass: the gate passes rows it cannot judge */
	enum stats_adjust adjust;
	bool paired;		/* the i-th runs of OLD and NEW are a pair (ab) */
	bool normalized;	/* --normalized: NAME-normalized answers and gates for NAME */
	int verbosity;		/* -1: the answers only; 1: the methods and every column */
	const char *old_name, *new_name;	/* "OLD", "NEW"; ab's "A", "B" or --name */
};

/* Lag-1 correlation a short series is assumed to have at least (stats_short_ratio_ci). */
#define CMP_SHORT_MIN_R	0.4
/*
 * Below this many degrees of freedom the t quantile runs away (12.7 at 1,
 * 63.7 at 0.5): two default runs whose five samples are correlated gave
 * intervals of 1e-14 .. 1e+14.  Such a test is not valid: "no verdict".
 * Measured by tests/calib (doc/calibration.md).
 */
#define CMP_MIN_DF	2.0
/* An interval whose hi/lo exceeds this says nothing a reader can use: "no verdict". */
#define CMP_MAX_SPAN	100.0

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
	double p, p_adj, p_mw;	/* p_mw: Mann-Whitney, or Wilcoxon signed-rank on pairs */
	double mde_pct;		/* NAN when not defined */
	double mde_abs;		/* from a zero or negative figure: in the metric's unit */
	int ounits, nunits;	/* values tested on each side */
	bool one_process;	/* a side is one process: the verdict rests on it */
	double df;		/* of the test; NAN when untested */
	double eff_old, eff_new;	/* independent values a side (short series); NAN: as counted */
	double r_used;		/* the lag-1 correlation a short series was tested with; NAN */
	enum cmp_basis basis;
	enum cmp_why why;
	int base;		/* BASIS_BASE: index of the row followed; -1 */
	enum cmp_class cls;
	bool outranked;		/* --normalized: its NAME-normalized row answers and gates */
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
/* A row on its own (a family of one, as ab's --precision and the calibration see it). */
void cmp_row_judge(struct cmp_row *row, const struct res_run *orun, const struct res_run *nrun,
		   const struct cmp_opts *o);
/* Whether the verdict is a change (faster/slower, better/worse, higher/lower). */
bool cmp_row_is_change(const struct cmp_row *row);
/* Whether the row takes part in the p-value adjustment (p = 1 when untestable). */
bool cmp_row_in_family(const struct cmp_row *row);
bool cmp_row_regression(const struct cmp_row *row, const struct cmp_opts *o);

#endif
