// SPDX-License-Identifier: GPL-2.0
/*
 * The verdicts' calibration harness: comparisons drawn from noise models
 * (and from recorded real runs) at known true changes, judged by the same
 * code compare and ab use (verdict.c), and counted: how often the 95% CI
 * covers the true ratio, how often a change is called where there is
 * none, how often "equal" is said of a real 5% change, how often a real
 * change is found, and how often there is no verdict or no telling.
 *
 *   calib [--seed S] [--trials N] [--path P] [--model M] [--drift PCT]   the table
 *   calib --real DIR TAG [--same]                          recorded runs DIR/TAG-{A,B}-NN.json
 *   calib --check                                          the fixed-seed subset, as TAP
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "calib.h"
#include "util.h"

static const double changes[] = { 0, -0.02, 0.02, -0.05, 0.05, -0.10, 0.10, -0.20, 0.20 };
#define NR_CHANGES	(int)(sizeof(changes) / sizeof(changes[0]))

void tally_add(struct tally *t, const struct cmp_row *row, double truth)
{
	bool change = cmp_row_is_change(row);
	bool right = change && (truth > 1) == (row->ratio > 1) && truth != 1;

	t->n++;
	t->change += change;
	t->right += right;
	t->equal += row->cls == CLS_EQUAL;
	t->cannot += row->cls == CLS_CANNOT_TELL;
	t->none += row->cls == CLS_NO_VERDICT;
	if (row->has_ci && row->cls != CLS_NO_VERDICT) {
		t->ci++;
		t->covered += row->lo <= truth && truth <= row->hi;
		if (row->hi / row->lo > t->max_span)
			t->max_span = row->hi / row->lo;
	}
}

/* Every change of one path and model, pooled into the figures of one table row. */
void cell_figures(const struct tally *by_change, struct cell *c)
{
	struct tally all = { 0 };
	int i, eq5 = 0, n5 = 0;

	for (i = 0; i < NR_CHANGES; i++) {
		const struct tally *t = &by_change[i];
		double a = fabs(changes[i]);

		all.n += t->n;
		all.ci += t->ci;
		all.covered += t->covered;
		all.none += t->none;
		all.cannot += t->cannot;
		all.max_span = fmax(all.max_span, t->max_span);
		if (a == 0.05) {
			eq5 += t->equal;
			n5 += t->n;
		}
	}
	c->coverage = pct_of(all.covered, all.ci);
	c->false_alarm = pct_of(by_change[0].change, by_change[0].n);
	c->equal0 = pct_of(by_change[0].equal, by_change[0].n);
	c->equal5 = pct_of(eq5, n5);
	c->power5 = pct_of(by_change[3].right + by_change[4].right, by_change[3].n + by_change[4].n);
	c->power10 = pct_of(by_change[5].right + by_change[6].right, by_change[5].n + by_change[6].n);
	c->power20 = pct_of(by_change[7].right + by_change[8].right, by_change[7].n + by_change[8].n);
	c->none = pct_of(all.none, all.n);
	c->cannot = pct_of(all.cannot, all.n);
	c->max_span = all.max_span;
	c->ci_share = pct_of(all.ci, all.n);
}

void cell_run(const struct path *p, const struct model *m, int trials, uint64_t seed,
	      struct cell *c)
{
	struct tally t[NR_CHANGES];
	struct rng r;
	int i, k;

	memset(t, 0, sizeof(t));
	rng_seed(&r, seed);
	for (i = 0; i < NR_CHANGES; i++)
		for (k = 0; k < trials; k++)
			trial_model(p, m, 1 + changes[i], &r, &t[i]);
	cell_figures(t, c);
}

static void print_head(void)
{
	printf("| path | model | CI cover %% | false alarm @0 %% | equal @0 %% | equal @±5%% %% | "
	       "power ±5 %% | ±10 %% | ±20 %% | no verdict %% | cannot tell %% | widest CI |\n"
	       "|---|---|---|---|---|---|---|---|---|---|---|---|\n");
}

static void print_cell(const char *path, const char *model, const struct cell *c)
{
	printf("| %s | %s | %.1f | %.1f | %.1f | %.1f | %.0f | %.0f | %.0f | %.0f | %.0f | %.3g× |\n",
	       path, model, c->coverage, c->false_alarm, c->equal0, c->equal5, c->power5,
	       c->power10, c->power20, c->none, c->cannot, c->max_span);
}

static int table(int trials, uint64_t seed, const char *only_path, const char *only_model)
{
	const struct path *p;
	const struct model *m;
	struct cell c;

	print_head();
	for (p = calib_paths; p->name; p++) {
		if (only_path && strcmp(only_path, p->name))
			continue;
		for (m = calib_models; m->name; m++) {
			if (only_model && strcmp(only_model, m->name))
				continue;
			cell_run(p, m, trials, seed, &c);
			print_cell(p->name, m->name, &c);
			fflush(stdout);
		}
	}
	return 0;
}

static void usage(void)
{
	fprintf(stderr, "usage: calib [--seed S] [--trials N] [--path P] [--model M] [--drift PCT]\n"
			"       calib --real DIR TAG [--same] [--trials N] [--seed S]\n"
			"       calib --check\n");
	exit(2);
}

int main(int argc, char **argv)
{
	const char *only_path = NULL, *only_model = NULL, *real_dir = NULL, *tag = NULL;
	int trials = 2000, i;
	bool same = false;
	uint64_t seed = 1;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--check"))
			return calib_check();
		if (!strcmp(argv[i], "--same")) {	/* A and B are one configuration */
			same = true;
			continue;
		}
		if (i + 1 >= argc)
			usage();
		if (!strcmp(argv[i], "--seed"))
			seed = strtoull(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--trials"))
			trials = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--path"))
			only_path = argv[++i];
		else if (!strcmp(argv[i], "--model"))
			only_model = argv[++i];
		else if (!strcmp(argv[i], "--drift"))
			judge_set_drift(atof(argv[++i]));
		else if (!strcmp(argv[i], "--real") && i + 2 < argc)
			real_dir = argv[++i], tag = argv[++i];
		else
			usage();
	}
	if (trials < 1)
		usage();
	if (real_dir)
		return calib_real(real_dir, tag, same, trials, seed);
	return table(trials, seed, only_path, only_model);
}
