// SPDX-License-Identifier: GPL-2.0
/*
 * Noise models and comparison paths of the calibration harness, and the
 * one place a drawn comparison is turned into what compare reads.
 *
 * The models' figures are fitted to runs recorded on the 2-vCPU
 * reference VM (doc/calibration.md, "Fitted to this host"): samples
 * about their run's mean spread ~0.3-1% with lag-1 correlation 0.3-0.6,
 * runs of one configuration ~1-3% apart, htab-mem's preallocated runs
 * in two modes ~30% apart, and phases where everything runs 20-40% slow.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "calib.h"
#include "stats.h"
#include "util.h"

const struct model calib_models[] = {
	{ "iid normal",		DIST_NORMAL,	0.010, 0.0 },
	{ "iid lognormal",	DIST_LOGNORMAL,	0.020, 0.0 },
	{ "AR(1) r 0.5",	DIST_NORMAL,	0.010, 0.5 },
	{ "AR(1) r 0.9",	DIST_NORMAL,	0.010, 0.9 },
	{ "host idle",		DIST_NORMAL,	0.010, 0.0, 0.020 },
	{ "host busy",		DIST_NORMAL,	0.025, 0.0, 0.080 },
	{ "drift shared in time", DIST_NORMAL,	0.010, 0.0, 0.010, 0.010 },
	{ "bimodal runs",	DIST_NORMAL,	0.010, 0.0, 0.010, 0, 0.5, 1.3 },
	{ "heavy tails (t3)",	DIST_T3,	0.010, 0.2, 0.010 },
	{ "phases ±20-40%",	DIST_NORMAL,	0.010, 0.0, 0.020, 0, 0, 1, 0.10, 0.7, 0.6, 0.8 },
	{ NULL },
};

/*
 * What a user runs: two plain runs, -d 30, -r N a side, ab -r 5 and ab
 * --precision 2 (as ab.c: at least 5 pairs, the spread's 95% bound).
 */
const struct path calib_paths[] = {
	{ "plain (5 samples)",	1, 5 },
	{ "plain, --run-noise", 1, 5, .run_noise_known = true },
	{ "plain -d 30",	1, 30 },
	{ "1 vs -r 5 baseline",	1, 5, .old_runs = 5 },
	{ "-r 3",		3, 5 },
	{ "-r 10",		10, 5 },
	{ "ab -r 5",		5, 5, true },
	{ "ab --precision 2",	5, 5, true, 2.0, 30 },
	{ NULL },
};

void rng_seed(struct rng *r, uint64_t seed)
{
	r->s = seed * 0x9e3779b97f4a7c15ull + 0x2545f4914f6cdd1dull;
	if (!r->s)
		r->s = 1;
}

/* xorshift64*: fast, and the same sequence on every machine for a seed */
double rng_unit(struct rng *r)
{
	r->s ^= r->s >> 12;
	r->s ^= r->s << 25;
	r->s ^= r->s >> 27;
	return ((r->s * 0x2545f4914f6cdd1dull) >> 11) * 0x1.0p-53 + 0x1.0p-54;
}

double rng_normal(struct rng *r)
{
	return sqrt(-2 * log(rng_unit(r))) * cos(2 * M_PI * rng_unit(r));
}

/* A unit-variance shock of the model's shape. */
static double shock(const struct model *m, struct rng *r)
{
	double z = rng_normal(r), c;

	if (m->dist != DIST_T3)
		return z;
	c = 0;
	for (int i = 0; i < 3; i++) {
		double g = rng_normal(r);

		c += g * g;
	}
	return z / sqrt(c / 3) / sqrt(3.0);	/* t with 3 df has variance 3 */
}

/* The machine over time: drift and phases, one state per run slot. */
struct machine {
	double drift;		/* log level */
	double phase;		/* 1 outside a phase */
};

static void machine_step(struct machine *mc, const struct model *m, struct rng *r)
{
	mc->drift += m->drift_sd * rng_normal(r);
	if (mc->phase != 1 && rng_unit(r) > m->phase_stay)
		mc->phase = 1;
	else if (mc->phase == 1 && rng_unit(r) < m->phase_p)
		mc->phase = m->phase_lo + (m->phase_hi - m->phase_lo) * rng_unit(r);
}

/* One run's samples at level mu on the machine as it is now. */
static void draw_run(const struct model *m, const struct machine *mc, double mu, int n,
		     struct rng *r, double *out)
{
	double level = mu * exp(m->cv_b * rng_normal(r) + mc->drift) * mc->phase, e = 0, s;
	double keep = sqrt(1 - m->r * m->r);
	int i;

	if (m->bimodal_p > 0 && rng_unit(r) < m->bimodal_p)
		level *= m->bimodal_f;
	for (i = 0; i < n; i++) {
		s = shock(m, r);
		e = i ? m->r * e + keep * s : s;	/* AR(1), stationary from the first sample */
		out[i] = m->dist == DIST_LOGNORMAL ? level * exp(m->cv_w * e) :
						      level * (1 + m->cv_w * e);
		if (out[i] <= 0)
			out[i] = level * 1e-3;	/* a rate is never 0 or negative */
	}
}

void side_build(struct side *s, const double *v, const int *per, int nr_runs)
{
	int total = 0, i, k, j = 0;
	struct stats st;

	memset(s, 0, sizeof(*s));
	for (k = 0; k < nr_runs; k++)
		total += per[k];
	s->m.samples = xcalloc((size_t)total + 1, sizeof(double));
	memcpy(s->m.samples, v, sizeof(double) * (size_t)total);
	if (nr_runs > 1) {
		s->run.sample_repeat = xcalloc((size_t)total + 1, sizeof(int));
		for (k = 0; k < nr_runs; k++)
			for (i = 0; i < per[k]; i++)
				s->run.sample_repeat[j++] = k;
	}
	stats_compute(v, total, &st);
	s->m.id = s->m.name = "throughput";
	s->m.unit = "M ops/s";
	s->m.kind = RES_RATE;
	s->m.better = RES_BETTER_HIGHER;
	s->m.of_mean_inverse = NAN;
	s->m.between_run_stddev = s->m.between_share = NAN;
	s->m.n = s->m.nr_values = total;
	s->m.mean = st.mean;
	s->m.stddev = st.stddev;
	s->run.bench = "calib";
	s->run.nr_metrics = 1;
	s->run.metrics = &s->m;
	s->run.nr_samples = total;
}

void side_free(struct side *s)
{
	free(s->m.samples);
	free(s->run.sample_repeat);
}

/* compare's --drift for the harness's unpaired comparisons (calib --drift PCT) */
static double judge_drift = CMP_DRIFT_PCT;

void judge_set_drift(double pct)
{
	judge_drift = pct;
}

void judge(struct cmp_row *row, struct side *old, struct side *new, bool paired,
	   double run_noise)
{
	struct cmp_opts o = { .alpha = 0.05, .noise = CMP_NOISE_PCT / 100, .fail_pct = -1,
			      .drift = judge_drift / 100, .run_noise = run_noise,
			      .adjust = STATS_ADJUST_HOLM, .paired = paired,
			      .old_name = "OLD", .new_name = "NEW" };

	cmp_row_init(row, "calib", &old->m, &new->m);
	cmp_row_judge(row, &old->run, &new->run, &o);
}

/* Both sides' runs drawn in the order the path takes them; A's (na unpaired) in a, B's in b. */
static void draw_sides(const struct path *p, const struct model *m, double truth, int runs,
		       int na, struct rng *r, double *a, double *b)
{
	struct machine mc = { 0, 1 };
	int k, first;

	for (k = 0; k < na && !p->paired; k++, machine_step(&mc, m, r))
		draw_run(m, &mc, 100, p->samples, r, a + k * p->samples);
	for (k = 0; k < runs; k++) {
		first = p->paired ? (int)(rng_unit(r) * 2) : 1;
		if (p->paired && !first) {
			draw_run(m, &mc, 100, p->samples, r, a + k * p->samples);
			machine_step(&mc, m, r);
		}
		draw_run(m, &mc, 100 * truth, p->samples, r, b + k * p->samples);
		machine_step(&mc, m, r);
		if (p->paired && first) {
			draw_run(m, &mc, 100, p->samples, r, a + k * p->samples);
			machine_step(&mc, m, r);
		}
	}
}

/* ab's --precision: the half-width of the paired CI of B/A over the run means so far. */
static double reach(const double *a, const double *b, int n, int samples)
{
	double *ma = xcalloc((size_t)n, sizeof(double)), *mb = xcalloc((size_t)n, sizeof(double));
	double w;
	int k;

	for (k = 0; k < n; k++) {
		ma[k] = stats_mean(a + k * samples, samples);
		mb[k] = stats_mean(b + k * samples, samples);
	}
	w = stats_paired_reach(ma, mb, n);
	free(ma);
	free(mb);
	return w;
}

/* How many runs a side the path ends with: -r, or --precision's two stages (ab_pairs_needed). */
static int runs_taken(const struct path *p, const double *a, const double *b)
{
	int n;

	if (!p->precision)
		return p->runs;
	n = stats_pairs_needed(reach(a, b, p->runs, p->samples), p->runs, p->precision);
	return n < p->max_pairs ? n : p->max_pairs;
}

/*
 * What a user who measured this host's run-to-run noise would give as
 * --run-noise: how far runs taken one after another lie apart, from 400
 * of them on the model's machine (the run factor, bimodal modes, drift
 * and phases all in it), a fixed seed per model.
 */
static double known_run_noise(const struct model *m, int n)
{
	struct machine mc = { 0, 1 };
	double *v = xcalloc((size_t)n, sizeof(double)), prev = 0, cur, ss = 0;
	struct rng r;
	int k;

	rng_seed(&r, 20261204);
	for (k = 0; k < 400; k++, machine_step(&mc, m, &r)) {
		draw_run(m, &mc, 100, n, &r, v);
		cur = log(stats_mean(v, n));
		if (k)
			ss += (cur - prev) * (cur - prev);
		prev = cur;
	}
	free(v);
	return sqrt(ss / 399 / 2);	/* a difference holds two runs' noise */
}

void trial_model(const struct path *p, const struct model *m, double truth, struct rng *r,
		 struct tally *t)
{
	int cap = p->precision ? p->max_pairs : p->runs, n, na, k;
	int old_cap = p->old_runs > cap ? p->old_runs : cap;
	double *a = xcalloc((size_t)(old_cap * p->samples), sizeof(double));
	double *b = xcalloc((size_t)(cap * p->samples), sizeof(double));
	int *per = xcalloc((size_t)old_cap, sizeof(int));
	struct side sa, sb;
	struct cmp_row row;

	draw_sides(p, m, truth, cap, p->old_runs ?: cap, r, a, b);
	n = runs_taken(p, a, b);
	na = p->old_runs ?: n;
	for (k = 0; k < old_cap; k++)
		per[k] = p->samples;
	side_build(&sa, a, per, na);
	side_build(&sb, b, per, n);
	judge(&row, &sa, &sb, p->paired,
	      p->run_noise_known ? known_run_noise(m, p->samples) : NAN);
	tally_add(t, &row, truth);
	side_free(&sa);
	side_free(&sb);
	free(a);
	free(b);
	free(per);
}
