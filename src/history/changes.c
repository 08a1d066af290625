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
 * Cost: one split search is O(n^2) (the pairwise distances, summed once
 * to each point's left and right), so a test is O(R n^2).  A test stops
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

static void shuffle(double *x, int n, uint64_t *st)
{
	double t;
	int i, j;

	for (i = n - 1; i > 0; i--) {
		j = (int)(next_rand(st) % (uint64_t)(i + 1));
		t = x[i];
		x[i] = x[j];
		x[j] = t;
	}
}

/* The best split of x[0..n) (its Q into *q), or -1 when n is too short to split. */
static int best_split(const double *x, int n, int min_size, double *left, double *right,
		      double *q)
{
	double total = 0, wl = 0, wr, between, e, qq, m, k;
	int i, j, best = -1;

	if (n < 2 * min_size)
		return -1;
	memset(left, 0, n * sizeof(*left));
	memset(right, 0, n * sizeof(*right));
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++) {
			double d = fabs(x[i] - x[j]);

			d *= sqrt(d);	/* ED_EXPONENT */

			left[j] += d;	/* to the points before j */
			right[i] += d;	/* to the points after i */
		}
	for (i = 0; i < n; i++)
		total += left[i];
	wr = total;
	*q = -INFINITY;
	for (i = 0; i < n - min_size; i++) {
		wl += left[i];	/* pairs within x[0..i] */
		wr -= right[i];	/* pairs within x[i+1..n) */
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

/* The segments between the accepted change points (cuts[0] = 0, cuts[nc - 1] = n). */
struct segs {
	int *cuts;
	int nc;
	double *left, *right, *work;
};

/* The best split over all segments of x: its position, *q its statistic. */
static int best_over(const double *x, const struct segs *sg, int min_size, double *q)
{
	double qq;
	int s, at, best = -1;

	*q = -INFINITY;
	for (s = 0; s + 1 < sg->nc; s++) {
		at = best_split(x + sg->cuts[s], sg->cuts[s + 1] - sg->cuts[s], min_size,
				sg->left, sg->right, &qq);
		if (at >= 0 && qq > *q) {
			*q = qq;
			best = sg->cuts[s] + at;
		}
	}
	return best;
}

/* The permutation test of the round's best split (statistic q): its p-value. */
static double perm_p(const double *x, int n, const struct segs *sg, double q,
		     const struct ed_opts *o, uint64_t *rng)
{
	int r, s, over = 0;
	/* beyond this many, (1 + over) / (R + 1) > alpha whatever the rest says */
	int give_up = (int)floor(o->alpha * (o->permutations + 1));
	double qq;

	for (r = 0; r < o->permutations; r++) {
		memcpy(sg->work, x, n * sizeof(*x));
		for (s = 0; s + 1 < sg->nc; s++)
			shuffle(sg->work + sg->cuts[s], sg->cuts[s + 1] - sg->cuts[s], rng);
		best_over(sg->work, sg, o->min_size, &qq);
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

static int sort_cp(const void *a, const void *b)
{
	return ((const struct ed_cp *)a)->at - ((const struct ed_cp *)b)->at;
}

int ed_changes(const double *x, int n, const struct ed_opts *o, struct ed_cp *out, int max)
{
	struct segs sg;
	uint64_t rng = o->seed ?: 1;
	int found = 0, at;
	double q, p;

	if (n < 2 * o->min_size || max <= 0)
		return 0;
	sg.cuts = xcalloc(n + 2, sizeof(int));
	sg.left = xcalloc(n, sizeof(double));
	sg.right = xcalloc(n, sizeof(double));
	sg.work = xcalloc(n, sizeof(double));
	sg.cuts[0] = 0;
	sg.cuts[1] = n;
	sg.nc = 2;
	while (found < max) {
		at = best_over(x, &sg, o->min_size, &q);
		if (at < 0 || !(q > 0))
			break;
		p = perm_p(x, n, &sg, q, o, &rng);
		if (p > o->alpha)
			break;
		out[found++] = (struct ed_cp){ .at = at, .p = p, .q = q };
		add_cut(&sg, at);
	}
	free(sg.cuts);
	free(sg.left);
	free(sg.right);
	free(sg.work);
	qsort(out, found, sizeof(*out), sort_cp);
	return found;
}
