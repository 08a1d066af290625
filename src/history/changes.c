// SPDX-License-Identifier: GPL-2.0
/*
 * E-divisive means (changes.h).  For a segment Z split at tau into
 * X = Z[0..tau) (m points) and Y = Z[tau..n) (k points), with alpha = 1:
 *
 *   e(X, Y) = 2/(mk) sum|x - y| - sum|x - x'| / C(m,2) - sum|y - y'| / C(k,2)
 *   Q(tau)  = mk/(m + k) * e(X, Y)
 *
 * The best split of a segment maximizes Q.  As in Matteson and James'
 * hierarchical procedure, each round takes the best split over all
 * current segments and tests it: the same maximum over the segments,
 * each segment shuffled on its own, R times; p = (1 + #{>= observed}) /
 * (R + 1).  Accepted at p <= alpha, the split divides its segment and
 * the next round begins; the first rejection ends the search.  Like
 * Otava we let the right end of a split be its segment's end (their
 * kappa is not searched).
 *
 * The distances are raised to the power 1.5 (|x - y|^1.5, ED_EXPONENT):
 * Matteson and James' statistic characterizes equality of distributions
 * for any exponent in (0, 2); ecp's default 1 localizes a step in the
 * mean less sharply (90.7% within a point where 1.5 gives 92%, on the
 * series of changes.h's figures), and 2, a mean-shift statistic,
 * would see nothing but means.
 *
 * Cost: the distances are computed once a series (a matrix up to 1,024
 * points); one split search adds up half of them, so a test is O(R n^2)
 * additions.  A test stops
 * as soon as the count of permutations at or above the observed maximum
 * makes p > alpha certain (most tests of a step-free series end after a
 * few permutations), which is what keeps 10,000 series cheap.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "changes.h"
#include "util.h"

void ed_opts_default(struct ed_opts *o)
{
	o->alpha = ED_ALPHA;
	o->permutations = ED_PERMUTATIONS;
	o->min_size = ED_MIN_SIZE;
	o->seed = 1;
}

uint64_t ed_seed(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	return h ?: 1;
}

/* xorshift64*: fast, and enough for shuffles. */
static uint64_t next_rand(uint64_t *st)
{
	*st ^= *st >> 12;
	*st ^= *st << 25;
	*st ^= *st >> 27;
	return *st * 0x2545f4914f6cdd1dull;
}

/* Up to this many points the distances are computed once, a matrix (8 MiB); beyond, as needed. */
#define ED_MATRIX_MAX	1024

/* A series' search: its distances, the segments between accepted change points. */
struct segs {
	const double *x;
	int n;
	double *dist;		/* n x n, |x_i - x_j|^1.5; NULL for a long series */
	int *cuts;		/* cuts[0] = 0 ... cuts[nc - 1] = n */
	int nc;
	int *ix, *perm;		/* the points in order; a permutation within each segment */
	double *rowsum;		/* point i's distances to its own segment's points */
	double *left;
};

static double dist(const struct segs *sg, int i, int j)
{
	double d;

	if (sg->dist)
		return sg->dist[(size_t)i * sg->n + j];
	d = fabs(sg->x[i] - sg->x[j]);
	return d * sqrt(d);	/* ED_EXPONENT */
}

static void shuffle(int *v, int n, uint64_t *st)
{
	int i, j, t;

	for (i = n - 1; i > 0; i--) {
		j = (int)(next_rand(st) % (uint64_t)(i + 1));
		t = v[i];
		v[i] = v[j];
		v[j] = t;
	}
}

/*
 * The best split of the segment whose points are ix[0..n) (its Q into
 * *q), or -1 when it is too short.  A permutation of a segment moves its
 * points, not their distances: each point's sum of distances to its
 * segment (rowsum) stays, so only the sums to the points before it are
 * added up, half of the pairs.
 */
static int best_split(const struct segs *sg, const int *ix, int n, int min_size, double *q)
{
	double total = 0, wl = 0, wr, between, e, qq, m, k, *left = sg->left;
	int i, j, best = -1;

	if (n < 2 * min_size)
		return -1;
	for (i = 0; i < n; i++) {
		double l = 0;
		const double *row = sg->dist ? sg->dist + (size_t)ix[i] * sg->n : NULL;

		if (row)
			for (j = 0; j < i; j++)
				l += row[ix[j]];
		else
			for (j = 0; j < i; j++)
				l += dist(sg, ix[i], ix[j]);
		left[i] = l;	/* to the points before i */
		total += l;
	}
	wr = total;
	*q = -INFINITY;
	for (i = 0; i < n - min_size; i++) {
		wl += left[i];	/* pairs within the first i + 1 points */
		wr -= sg->rowsum[ix[i]] - left[i];	/* less i's pairs with the points after it */
		if (i + 1 < min_size)
			continue;
		m = i + 1;
		k = n - m;
		between = total - wl - wr;
		e = 2 * between / (m * k) - wl / (m * (m - 1) / 2) - wr / (k * (k - 1) / 2);
		qq = m * k / (m + k) * e;
		if (qq > *q) {
			*q = qq;
			best = i + 1;
		}
	}
	return best;
}

/* The best split over all segments, of the points in order ix: its position, *q its statistic. */
static int best_over(const struct segs *sg, const int *ix, int min_size, double *q)
{
	double qq;
	int s, at, best = -1;

	*q = -INFINITY;
	for (s = 0; s + 1 < sg->nc; s++) {
		at = best_split(sg, ix + sg->cuts[s], sg->cuts[s + 1] - sg->cuts[s], min_size, &qq);
		if (at >= 0 && qq > *q) {
			*q = qq;
			best = sg->cuts[s] + at;
		}
	}
	return best;
}

/* Each point's distances to the points of its segment: the same under any permutation within. */
static void segment_rowsums(struct segs *sg)
{
	int s, i, j;

	for (s = 0; s + 1 < sg->nc; s++)
		for (i = sg->cuts[s]; i < sg->cuts[s + 1]; i++) {
			sg->rowsum[i] = 0;
			for (j = sg->cuts[s]; j < sg->cuts[s + 1]; j++)
				sg->rowsum[i] += dist(sg, i, j);
		}
}

/* The permutation test of the round's best split (statistic q): its p-value. */
static double perm_p(struct segs *sg, double q, const struct ed_opts *o, uint64_t *rng)
{
	int r, s, over = 0;
	/* beyond this many, (1 + over) / (R + 1) > alpha whatever the rest says */
	int give_up = (int)floor(o->alpha * (o->permutations + 1));
	double qq;

	for (r = 0; r < o->permutations; r++) {
		memcpy(sg->perm, sg->ix, sg->n * sizeof(int));
		for (s = 0; s + 1 < sg->nc; s++)
			shuffle(sg->perm + sg->cuts[s], sg->cuts[s + 1] - sg->cuts[s], rng);
		best_over(sg, sg->perm, o->min_size, &qq);
		if (qq >= q * (1 - 1e-12) && ++over >= give_up)
			return (1.0 + over) / (r + 2);	/* a lower bound: p > alpha already */
	}
	return (1.0 + over) / (o->permutations + 1);
}

static void add_cut(struct segs *sg, int at)
{
	int i = sg->nc;

	while (i > 0 && sg->cuts[i - 1] > at) {
		sg->cuts[i] = sg->cuts[i - 1];
		i--;
	}
	sg->cuts[i] = at;
	sg->nc++;
}

static void segs_init(struct segs *sg, const double *x, int n)
{
	int i, j;

	memset(sg, 0, sizeof(*sg));
	sg->x = x;
	sg->n = n;
	sg->cuts = xcalloc(n + 2, sizeof(int));
	sg->ix = xcalloc(n, sizeof(int));
	sg->perm = xcalloc(n, sizeof(int));
	sg->rowsum = xcalloc(n, sizeof(double));
	sg->left = xcalloc(n, sizeof(double));
	sg->cuts[1] = n;
	sg->nc = 2;
	for (i = 0; i < n; i++)
		sg->ix[i] = i;
	if (n > ED_MATRIX_MAX)
		return;
	sg->dist = xcalloc((size_t)n * n, sizeof(double));
	for (i = 0; i < n; i++)
		for (j = 0; j < i; j++) {
			double d = fabs(x[i] - x[j]);

			d *= sqrt(d);	/* ED_EXPONENT */
			sg->dist[(size_t)i * n + j] = sg->dist[(size_t)j * n + i] = d;
		}
}

static void segs_free(struct segs *sg)
{
	free(sg->dist);
	free(sg->cuts);
	free(sg->ix);
	free(sg->perm);
	free(sg->rowsum);
	free(sg->left);
}

static int sort_cp(const void *a, const void *b)
{
	return ((const struct ed_cp *)a)->at - ((const struct ed_cp *)b)->at;
}

/*
 * x moved to [-1, 1] (less its midrange, over its half-range): the test
 * is the same under any shift and scale (Q scales by the scale^1.5 in
 * every permutation alike), and distances of 1e300 raised to 1.5 would
 * overflow to infinity, leaving no split better than another.
 */
static double *scaled(const double *x, int n)
{
	double lo = x[0], hi = x[0], mid, half, *y = xcalloc(n, sizeof(double));
	int i;

	for (i = 1; i < n; i++) {
		lo = fmin(lo, x[i]);
		hi = fmax(hi, x[i]);
	}
	mid = lo / 2 + hi / 2;	/* halves first: hi - lo itself may overflow */
	half = hi / 2 - lo / 2;
	for (i = 0; i < n; i++)
		y[i] = half > 0 ? (x[i] / 2 - mid / 2) / (half / 2) : 0;
	return y;
}

int ed_changes(const double *x, int n, const struct ed_opts *o, struct ed_cp *out, int max)
{
	struct segs sg;
	uint64_t rng = o->seed ?: 1;
	int found = 0, at;
	double q, p, *y;

	if (n < 2 * o->min_size || max <= 0)
		return 0;
	y = scaled(x, n);
	segs_init(&sg, y, n);
	while (found < max) {
		segment_rowsums(&sg);
		at = best_over(&sg, sg.ix, o->min_size, &q);
		if (at < 0 || !(q > 0))
			break;
		p = perm_p(&sg, q, o, &rng);
		if (p > o->alpha)
			break;
		out[found++] = (struct ed_cp){ .at = at, .p = p, .q = q };
		add_cut(&sg, at);
	}
	segs_free(&sg);
	free(y);
	qsort(out, found, sizeof(*out), sort_cp);
	return found;
}
