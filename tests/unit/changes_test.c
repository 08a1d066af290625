// SPDX-License-Identifier: GPL-2.0
/*
 * The history's change points (src/history/changes.c) on drawn series
 * with fixed seeds: a 5% step in 30 points of 2% noise found where it
 * was planted (within one point) in >= 90% of series, and a step-free
 * series given a change point in <= 5%.  The noise models are the
 * calibration's (tests/calib/model.c) at 2%: iid normal and lognormal,
 * AR(1) r 0.5, heavy tails (t with 3 df); the gates hold for the
 * independent ones, the correlated one is reported only (E-divisive's
 * permutation test assumes exchangeable points: correlated noise breaks
 * it, and says so in its false-positive rate).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "changes.h"
#include "tap.h"

#define N		30
#define TRIALS		500
#define NOISE		0.02
#define STEP		0.05

enum noise { IID_NORMAL, IID_LOGNORMAL, AR1, T3, NR_NOISE };

static const char *const noise_name[NR_NOISE] = {
	"iid normal", "iid lognormal", "AR(1) r 0.5", "heavy tails (t3)",
};

static uint64_t rng = 33;

static double unit(void)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return ((rng * 0x2545f4914f6cdd1dull) >> 11) * 0x1.0p-53 + 0x1.0p-54;
}

static double normal(void)
{
	return sqrt(-2 * log(unit())) * cos(2 * M_PI * unit());
}

/* Noise of standard deviation 1 (t3 scaled by its sd, sqrt(3)). */
static double draw(enum noise m, double *prev)
{
	double z, c;

	switch (m) {
	case AR1:	/* marginal sd 1: innovations sqrt(1 - r^2) */
		*prev = 0.5 * *prev + sqrt(0.75) * normal();
		return *prev;
	case T3:
		z = normal();
		c = pow(normal(), 2) + pow(normal(), 2) + pow(normal(), 2);
		return z / sqrt(c / 3) / sqrt(3);
	default:
		return normal();
	}
}

static void series(enum noise m, int step_at, double *x)
{
	double prev = normal(), mu;
	int i;

	for (i = 0; i < N; i++) {
		mu = 100 * (i >= step_at ? 1 - STEP : 1);	/* a regression: throughput down */
		x[i] = m == IID_LOGNORMAL ? mu * exp(NOISE * normal() - NOISE * NOISE / 2) :
					     mu * (1 + NOISE * draw(m, &prev));
	}
}

struct rates {
	int found, extra, false_any;
};

static void trial(enum noise m, int t, struct rates *r)
{
	struct ed_opts o;
	struct ed_cp cp[N];
	double x[N];
	int k, i, at = 5 + t % (N - 9);	/* planted at 5..25: each side >= 5 points */
	bool hit = false;

	ed_opts_default(&o);
	o.seed = 1000 + t;
	series(m, at, x);
	k = ed_changes(x, N, &o, cp, N);
	for (i = 0; i < k; i++) {
		if (abs(cp[i].at - at) <= 1 && !hit)
			hit = true;
		else
			r->extra++;
	}
	r->found += hit;
	if (getenv("CHANGES_DEBUG") && !hit)
		fprintf(stderr, "miss at %d: %d found%s%d\n", at, k, k ? " first " : " ", k ? cp[0].at : -1);
	series(m, N, x);	/* no step */
	r->false_any += ed_changes(x, N, &o, cp, N) > 0;
}

/* A step between figures at the ends of a double's range: found, not lost to overflow. */
static void test_extremes(void)
{
	double x[10], y[12];
	struct ed_cp cp[12];
	struct ed_opts o;
	int i, k;

	ed_opts_default(&o);
	for (i = 0; i < 10; i++)
		x[i] = i < 5 ? 1e-300 * (1 + 0.01 * i) : 1e300 * (1 + 0.01 * i);
	k = ed_changes(x, 10, &o, cp, 10);
	ok(k == 1 && cp[0].at == 5, "five points of 1e-300, then five of 1e300: the change at 5");
	for (i = 0; i < 12; i++)
		y[i] = (i < 6 ? -1e308 : 1e308) * (1 - 0.001 * i);
	k = ed_changes(y, 12, &o, cp, 12);
	ok(k == 1 && cp[0].at == 6, "-1e308 to 1e308 (a range beyond a double): the change at 6");
	for (i = 0; i < 12; i++)
		y[i] = 7;
	ok(ed_changes(y, 12, &o, cp, 12) == 0, "a constant series: no change");
}

int main(void)
{
	test_extremes();
	struct rates r[NR_NOISE];
	char what[160];
	int m, t;

	memset(r, 0, sizeof(r));
	printf("# E-divisive means, %d points, %.0f%% noise, %.0f%% step at 5..25, %d series "
	       "a row, alpha %g, %d permutations\n", N, NOISE * 100, STEP * 100, TRIALS, ED_ALPHA,
	       ED_PERMUTATIONS);
	printf("# %-18s %14s %16s %18s\n", "noise", "found (+-1)", "extra points", "false (no step)");
	for (m = 0; m < NR_NOISE; m++) {
		for (t = 0; t < TRIALS; t++)
			trial(m, t, &r[m]);
		printf("# %-18s %13.1f%% %16d %17.1f%%\n", noise_name[m],
		       100.0 * r[m].found / TRIALS, r[m].extra, 100.0 * r[m].false_any / TRIALS);
	}
	for (m = 0; m < NR_NOISE; m++) {
		if (m == AR1)
			continue;
		snprintf(what, sizeof(what), "%s: a 5%% step found within one point in %d/%d "
			 "(>= 90%%)", noise_name[m], r[m].found, TRIALS);
		ok(r[m].found >= TRIALS * 9 / 10, what);
		snprintf(what, sizeof(what), "%s: step-free series with a change point %d/%d "
			 "(<= 5%%)", noise_name[m], r[m].false_any, TRIALS);
		ok(r[m].false_any <= TRIALS / 20, what);
	}
	/* the same series and seed, the same answer */
	{
		struct ed_opts o;
		struct ed_cp a[N], b[N];
		double x[N];
		int ka, kb;

		ed_opts_default(&o);
		series(IID_NORMAL, 15, x);
		ka = ed_changes(x, N, &o, a, N);
		kb = ed_changes(x, N, &o, b, N);
		ok(ka == kb && ka == 1 && a[0].at == b[0].at && a[0].p == b[0].p,
		   "a fixed seed gives the same answer");
	}
	printf("1..%d\n", test_num);
	return failures ? 1 : 0;
}
