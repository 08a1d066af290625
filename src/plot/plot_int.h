/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What plot's parts share: the command line, and a figure as curves of
 * points, each curve on the y axis of its unit.
 */
#ifndef BPFBENCH_PLOT_INT_H
#define BPFBENCH_PLOT_INT_H

#include <stdbool.h>
#include <stdio.h>
#include "resdoc.h"

#define PLOT_MAX_METRICS	8
#define PLOT_TITLE_MAX		200

struct plot_args {
	const char *in, *out, *x, *script;
	const char *metric[PLOT_MAX_METRICS];
	int nr_metrics;
	char *metric_list;	/* --metric's copy, cut at the commas */
	bool png, cdf;
};

struct plot_pt {
	double x, y, sd;
	int n;			/* samples behind y: 1 has no spread, no bar */
	char xtext[64];		/* the option's (or key field's) value as written */
	bool numeric;
	bool from_key;		/* x is a field of the metric's key */
};

struct plot_curve {
	char title[PLOT_TITLE_MAX];
	const char *metric, *unit;
	int axis;		/* 0: y, 1: y2 */
	double p50, p99;	/* --cdf: the histogram's percentiles, ns (0: none) */
	int n, cap;
	struct plot_pt *pts;
};

struct plot_fig {
	const struct plot_args *a;
	const struct res_doc *doc;
	const struct res_run **runs;	/* those that give a curve points */
	int nr_runs;
	struct plot_curve *curves;
	int nr_curves, cap;
	const char *unit[2];
	int nr_units;
	bool numeric, integer, logx;
	const char **cats;		/* categorical x: the values, in order of appearance */
	int nr_cats;
};

/* The curve titled so, created empty when new. */
struct plot_curve *plot_curve(struct plot_fig *fig, const char *title);
void plot_add(struct plot_curve *c, const struct plot_pt *p);
/* The points of every curve. */
int plot_count(const struct plot_fig *fig);
/* Option names match with '-' and '_' alike, as on the command line. */
bool plot_same_name(const char *a, const char *b);
/* bench, then name=value of each option that differs among fig->runs (x aside). */
void plot_run_title(const struct plot_fig *fig, const struct res_run *r, char *buf, size_t size);
/* The CDF of every histogram of every successful run: 0 or EXIT_USAGE. */
int plot_collect_cdf(struct plot_fig *fig);
/* The script's `set title`: what, when, where and under which conditions. */
void plot_write_title(FILE *f, const struct plot_fig *fig);
/* Writes the script (and --script's copy) and has gnuplot draw it: 0, 1 or EXIT_USAGE. */
int plot_draw(const struct plot_fig *fig);

#endif
