// SPDX-License-Identifier: GPL-2.0
/*
 * The calibration on recorded runs: DIR/TAG-A-NN.json and DIR/TAG-B-NN.json,
 * taken alternately (A1 B1 A2 B2 ...) by scripts/calib_record.sh.  The
 * true ratio of B to A is what all the runs together say (the ratio of the
 * mean run means; 1 where A and B are one configuration); comparisons
 * drawn from them go through the same judge() as the models' ones, and
 * the same runs with B scaled by 0.95 stand for a real 5% slowdown.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "calib.h"
#include "stats.h"
#include "util.h"

#define MAX_RUNS	200

struct series {
	int n;
	double *v[MAX_RUNS];	/* each run's samples of its headline metric */
	int len[MAX_RUNS];
	double mean[MAX_RUNS];
	const char *metric;
};

/* The first rate or time of the run: what compare's answer line is about. */
static const struct res_metric *headline(const struct res_run *r)
{
	int i;

	for (i = 0; i < r->nr_metrics; i++)
		if (r->metrics[i].kind == RES_RATE || r->metrics[i].kind == RES_TIME)
			return &r->metrics[i];
	return NULL;
}

static int load_one(const char *path, struct series *s)
{
	struct res_doc d = { 0 };
	const struct res_metric *m;
	int i, k = 0;

	if (resdoc_load(path, &d))
		return -1;
	m = d.nr_runs == 1 && !d.runs[0].status ? headline(&d.runs[0]) : NULL;
	if (m) {
		s->v[s->n] = xcalloc((size_t)d.runs[0].nr_samples + 1, sizeof(double));
		for (i = 0; i < d.runs[0].nr_samples; i++)
			if (!isnan(m->samples[i]))
				s->v[s->n][k++] = m->samples[i];
		s->len[s->n] = k;
		s->mean[s->n] = stats_mean(s->v[s->n], k);
		s->metric = s->metric ?: strdup(m->id);
		s->n++;
	}
	resdoc_free(&d);
	return m ? 0 : -1;
}

static void load_series(const char *dir, const char *tag, char side, struct series *s)
{
	char path[4096];
	int i;

	memset(s, 0, sizeof(*s));
	for (i = 1; i < MAX_RUNS; i++) {
		snprintf(path, sizeof(path), "%s/%s-%c-%02d.json", dir, tag, side, i);
		if (access(path, R_OK) || load_one(path, s))
			break;
	}
}

/* Runs idx[0..n-1] of s, their samples scaled, as one side. */
static void take(struct side *out, const struct series *s, const int *idx, int n, double scale)
{
	double *v = xcalloc(4096, sizeof(double));
	int per[64], k, i, j = 0;

	for (k = 0; k < n; k++) {
		per[k] = s->len[idx[k]];
		for (i = 0; i < per[k] && j < 4096; i++)
			v[j++] = s->v[idx[k]][i] * scale;
	}
	side_build(out, v, per, n);
	free(v);
}

/* How a path draws its runs from the recordings. */
struct real_path {
	const char *name;
	int n;			/* runs a side (pairs when paired) */
	bool paired;
	int old_runs;		/* a baseline of this many A runs against one B run */
	bool run_noise;		/* --run-noise: the A runs' spread, as a user measures it */
};

static void one(struct tally *t, const struct series *a, const int *ia, int na,
		const struct series *b, const int *ib, int nb, bool paired, double scale,
		double truth, double run_noise)
{
	struct side sa, sb;
	struct cmp_row row;

	take(&sa, a, ia, na, 1);
	take(&sb, b, ib, nb, scale);
	judge(&row, &sa, &sb, paired, run_noise);
	tally_add(t, &row, truth);
	side_free(&sa);
	side_free(&sb);
}

/*
 * Windows of n consecutive recorded pairs (ab's pairs: A and B taken side
 * by side), or n runs a side drawn at random (-r n taken apart from the
 * other side), or every pair of single runs (plain).  A against itself
 * has no pairs taken side by side: ab's null is a recording of one
 * configuration as A and B.
 */
/* A baseline of p->old_runs distinct A runs against one B run (not among them). */
static void draw_baseline(struct tally *t, const struct real_path *p, const struct series *a,
			  const struct series *b, double scale, double truth, int trials,
			  struct rng *r)
{
	int ia[64], ib, k, j, m;

	for (k = 0; k < trials && a->n > p->old_runs; k++) {
		ib = (int)(rng_unit(r) * b->n);
		for (j = 0; j < p->old_runs; j++) {
			do {
				ia[j] = (int)(rng_unit(r) * a->n);
				for (m = 0; m < j && ia[m] != ia[j]; m++)
					;
			} while (m < j || (a == b && ia[j] == ib));
		}
		one(t, a, ia, p->old_runs, b, &ib, 1, false, scale, truth, NAN);
	}
}

static void draw(struct tally *t, const struct real_path *p, const struct series *a,
		 const struct series *b, double scale, double truth, int trials, double run_noise,
		 struct rng *r)
{
	int ia[64], ib[64], k, i, j, n = p->n, runs = a->n < b->n ? a->n : b->n;

	if (p->old_runs) {
		draw_baseline(t, p, a, b, scale, truth, trials, r);
		return;
	}
	if (n == 1) {
		for (i = 0; i < a->n; i++)
			for (j = 0; j < b->n; j++)
				if (a != b || i < j)
					one(t, a, (int[]){ i }, 1, b, (int[]){ j }, 1, false,
					    scale, truth, p->run_noise ? run_noise : NAN);
		return;
	}
	if (p->paired && a == b)
		return;
	for (k = 0; k < trials && runs >= n; k++) {
		i = (int)(rng_unit(r) * (runs - n + 1));
		for (j = 0; j < n; j++) {
			ia[j] = p->paired ? i + j : (int)(rng_unit(r) * a->n);
			ib[j] = p->paired ? i + j : (int)(rng_unit(r) * b->n);
		}
		one(t, a, ia, n, b, ib, n, p->paired, scale, truth, NAN);
	}
}

/* The A runs' spread as -r runs would show it: the sd of their log means. */
static double runs_spread(const struct series *s)
{
	double l[MAX_RUNS];
	struct stats st;
	int i;

	for (i = 0; i < s->n; i++)
		l[i] = log(s->mean[i]);
	stats_compute(l, s->n, &st);
	return st.stddev;
}

static void series_free(struct series *s)
{
	int i;

	for (i = 0; i < s->n; i++)
		free(s->v[i]);
	free((char *)s->metric);
}

static double ratio_of_means(const struct series *a, const struct series *b)
{
	return stats_mean(b->mean, b->n) / stats_mean(a->mean, a->n);
}

static void row(const char *tag, const char *what, const char *path, const struct tally *t)
{
	printf("| %s %s | %s | %d | %.1f | %.1f | %.1f | %.1f | %.1f | %.3g× |\n", tag, what, path,
	       t->n, pct_of(t->covered, t->ci), pct_of(t->change - t->right, t->n),
	       pct_of(t->equal, t->n), pct_of(t->right, t->n), pct_of(t->none + t->cannot, t->n),
	       t->max_span);
}

int calib_real(const char *dir, const char *tag, bool same, int trials, uint64_t seed)
{
	static const struct real_path paths[] = {
		{ "plain (1 run a side)", 1 },
		{ "plain, --run-noise", 1, .run_noise = true },
		{ "1 vs -r 5 baseline", 1, .old_runs = 5 },
		{ "-r 3", 3 },
		{ "ab -r 5", 5, true },
	};
	struct series a, b;
	struct rng r;
	double truth, spread;
	size_t p;

	load_series(dir, tag, 'A', &a);
	load_series(dir, tag, 'B', &b);
	if (a.n < 6 || b.n < 6) {
		fprintf(stderr, "calib: %s/%s-{A,B}-NN.json: %d and %d runs, at least 6 each\n",
			dir, tag, a.n, b.n);
		series_free(&a);
		series_free(&b);
		return 1;
	}
	truth = same ? 1 : ratio_of_means(&a, &b);
	spread = runs_spread(&a);
	printf("%s: %s, %d A and %d B runs, B/A of the mean run means %.4f%s\n", tag, a.metric,
	       a.n, b.n, ratio_of_means(&a, &b), same ? " (one configuration: the truth is 1)" : "");
	printf("--run-noise: the A runs' spread, %.1f%%\n", spread * 100);
	printf("| runs | compared | path | n | CI cover %% | wrong-way or false change %% | "
	       "equal %% | right change %% | no verdict or cannot tell %% | widest CI |\n"
	       "|---|---|---|---|---|---|---|---|---|---|\n");
	rng_seed(&r, seed);
	for (p = 0; p < sizeof(paths) / sizeof(paths[0]); p++) {
		struct tally aa = { 0 }, ab = { 0 }, slow = { 0 };

		draw(&aa, &paths[p], &a, &a, 1, 1, trials, spread, &r);
		draw(&ab, &paths[p], &a, &b, 1, truth, trials, spread, &r);
		draw(&slow, &paths[p], &a, &b, 0.95, truth * 0.95, trials, spread, &r);
		if (aa.n)
			row(tag, "A vs A", paths[p].name, &aa);
		row(tag, "A vs B", paths[p].name, &ab);
		row(tag, "A vs B×0.95", paths[p].name, &slow);
	}
	series_free(&a);
	series_free(&b);
	return 0;
}
