/* SPDX-License-Identifier: GPL-2.0 */
/* The calibration harness's parts (tests/calib/): models, paths, tallies. */
#ifndef BPFBENCH_CALIB_H
#define BPFBENCH_CALIB_H

#include <stdbool.h>
#include <stdint.h>
#include "resdoc.h"
#include "verdict.h"

struct rng {
	uint64_t s;
};

void rng_seed(struct rng *r, uint64_t seed);
double rng_unit(struct rng *r);		/* uniform in (0, 1) */
double rng_normal(struct rng *r);

enum noise_dist { DIST_NORMAL, DIST_LOGNORMAL, DIST_T3 };

/*
 * How a run's samples come out: a level per run (a run factor, bimodal
 * modes, the machine's drift and phases shared by runs close in time),
 * then samples about it, AR(1) correlated.
 */
struct model {
	const char *name;
	enum noise_dist dist;
	double cv_w;		/* samples' spread about their run's level */
	double r;		/* the samples' lag-1 correlation */
	double cv_b;		/* run to run (lognormal) */
	double drift_sd;	/* random walk of the machine's level per run slot */
	double bimodal_p, bimodal_f;	/* a run in the second mode, its factor */
	double phase_p, phase_stay, phase_lo, phase_hi;	/* slow phases, shared in time */
};

/* How a comparison is taken (what compare or ab sees). */
struct path {
	const char *name;
	int runs;		/* runs a side (pairs when paired) */
	int samples;		/* samples a run */
	bool paired;		/* ab: A and B alternate, order drawn per pair */
	double precision;	/* ab --precision: pairs until the CI is within +-this % */
	int max_pairs;		/* --precision's bound (--max-duration over a pair's time) */
	int old_runs;		/* unpaired: OLD's runs when not `runs` (a baseline of -r N) */
	bool run_noise_known;	/* --run-noise given as the model's run-to-run noise */
};

extern const struct model calib_models[];
extern const struct path calib_paths[];

struct tally {
	int n, change, right, equal, cannot, none, ci, covered;
	double max_span;
};

struct cell {
	double coverage, false_alarm, equal0, equal5, power5, power10, power20;
	double none, cannot, max_span, ci_share;
};

static inline double pct_of(int k, int n)
{
	return n ? 100.0 * k / n : 0.0 / 0.0;
}

void tally_add(struct tally *t, const struct cmp_row *row, double truth);
void cell_figures(const struct tally *by_change, struct cell *c);
void cell_run(const struct path *p, const struct model *m, int trials, uint64_t seed,
	      struct cell *c);

/* One comparison drawn from model m along path p at true ratio truth, judged and tallied. */
void trial_model(const struct path *p, const struct model *m, double truth, struct rng *r,
		 struct tally *t);

/*
 * One side of a comparison as compare reads it: nr_runs runs of per[k]
 * samples each, values v (the runs one after another), one rate metric.
 */
struct side {
	struct res_run run;
	struct res_metric m;
};
void side_build(struct side *s, const double *v, const int *per, int nr_runs);
void side_free(struct side *s);
/* compare's --drift for what judge() compares unpaired (default CMP_DRIFT_PCT). */
void judge_set_drift(double pct);
/*
 * Judges NEW against OLD as compare (paired: as ab) would, one row alone;
 * run_noise is compare's --run-noise as a fraction (NAN: not given).
 */
void judge(struct cmp_row *row, struct side *old, struct side *new, bool paired,
	   double run_noise);

int calib_real(const char *dir, const char *tag, bool same, int trials, uint64_t seed);
int calib_check(void);

#endif
