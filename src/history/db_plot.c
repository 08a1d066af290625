// SPDX-License-Identifier: GPL-2.0
/*
 * db plot: one series drawn by gnuplot, a point a result in time order,
 * each with its run's 95% interval, the change points db changes finds
 * marked (a dashed line and the step), the stretches of each kernel
 * labelled along the bottom.  One series: the filter must select it
 * (--metric, --host, --options), as several would share no axis.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "changes.h"
#include "gnuplot.h"
#include "history.h"
#include "opts.h"
#include "stats.h"
#include "store.h"
#include "util.h"

/* x tic labels at most: beyond, every k-th point's date. */
#define PLOT_MAX_XTICS	24

struct fig {
	const struct series *sr;
	const struct ed_cp *cp;
	int k;
	const double *x;
	bool png;
};

/* Each kernel's stretch of points, named at its middle, a thin line where it begins. */
static void kernel_labels(FILE *f, const struct series *sr)
{
	int i, from = 0;

	for (i = 1; i <= sr->n; i++) {
		if (i < sr->n && !strcmp(sr->pt[i].kernel, sr->pt[from].kernel))
			continue;
		fprintf(f, "set label ");
		gnuplot_str(f, sr->pt[from].kernel);
		fprintf(f, " at %g, graph 0.04 center front\n", (from + i - 1) / 2.0 + 1);
		if (from)
			fprintf(f, "set arrow from %g, graph 0 to %g, graph 0.08 nohead lc rgb 'gray40'\n",
				from + 0.5, from + 0.5);
		from = i;
	}
}

static void change_marks(FILE *f, const struct fig *g)
{
	const struct series *sr = g->sr;
	double before, after;
	char text[96];
	int i, from, to;

	for (i = 0; i < g->k; i++) {
		from = i ? g->cp[i - 1].at : 0;
		to = i + 1 < g->k ? g->cp[i + 1].at : sr->n;
		before = stats_mean(g->x + from, g->cp[i].at - from);
		after = stats_mean(g->x + g->cp[i].at, to - g->cp[i].at);
		if (before > 0)
			snprintf(text, sizeof(text), "%+.1f%% (p %.3f)", (after / before - 1) * 100,
				 g->cp[i].p);
		else	/* no percentage of 0 */
			snprintf(text, sizeof(text), "%.4g -> %.4g (p %.3f)", before, after,
				 g->cp[i].p);
		fprintf(f, "set arrow from %g, graph 0 to %g, graph 1 nohead dt 2 lw 2 "
			"lc rgb 'red' front\n", g->cp[i].at + 0.5, g->cp[i].at + 0.5);
		fputs("set label ", f);
		gnuplot_str(f, text);
		fprintf(f, " at %g, graph 0.95 left offset 0.5,0 tc rgb 'red' front\n",
			g->cp[i].at + 0.5);
	}
}

/*
 * How a tick names its point: the shortest form that tells the labelled
 * points apart.  Results a day or more apart: the day; results of one
 * day: the time alone (the day in the axis's label); else the day and
 * time; the number of the point where even the second is shared.
 */
enum tic_form { TIC_DAY, TIC_MINUTE, TIC_SECOND, TIC_INDEX };

#define TIC_TEXT	24

struct tics {
	enum tic_form form;
	bool one_day;		/* every point dated the same day */
	int every;		/* a label every k-th point */
};

/* The label of point i; dates are "YYYY-MM-DDTHH:MM:SSZ" (hdate.h). */
static void tic_text(char *buf, const struct series *sr, int i, const struct tics *t)
{
	const char *d = sr->pt[i].date;
	int hm = t->form == TIC_MINUTE ? 5 : 8;	/* "HH:MM" or "HH:MM:SS" */

	if (t->form == TIC_DAY)
		snprintf(buf, TIC_TEXT, "%.10s", d);
	else if (t->form == TIC_INDEX)
		snprintf(buf, TIC_TEXT, "#%d", i + 1);
	else if (t->one_day)
		snprintf(buf, TIC_TEXT, "%.*s", hm, d + 11);
	else
		snprintf(buf, TIC_TEXT, "%.10s %.*s", d, hm, d + 11);
}

static bool tics_distinct(const struct series *sr, const struct tics *t)
{
	char a[TIC_TEXT], b[TIC_TEXT];
	int i, j;

	for (i = 0; i < sr->n; i += t->every) {
		tic_text(a, sr, i, t);
		for (j = i + t->every; j < sr->n; j += t->every) {
			tic_text(b, sr, j, t);
			if (!strcmp(a, b))
				return false;
		}
	}
	return true;
}

static void pick_tics(const struct series *sr, struct tics *t)
{
	int i;

	t->every = (sr->n + PLOT_MAX_XTICS - 1) / PLOT_MAX_XTICS;
	t->one_day = true;
	for (i = 1; i < sr->n; i++)
		t->one_day &= !strncmp(sr->pt[i].date, sr->pt[0].date, 10);
	for (t->form = TIC_DAY; t->form < TIC_INDEX; t->form++)
		if (tics_distinct(sr, t))
			return;
}

/* The ticks, the axis's label, and room below for both (labels slanted at 45 degrees). */
static void x_tics(FILE *f, const struct series *sr)
{
	char text[TIC_TEXT], axis[96];
	struct tics t;
	size_t width = 0;
	int i;

	pick_tics(sr, &t);
	fputs("set xtics rotate by -45 (", f);
	for (i = 0; i < sr->n; i += t.every) {
		tic_text(text, sr, i, &t);
		width = strlen(text) > width ? strlen(text) : width;
		fprintf(f, "%s", i ? ", " : "");
		gnuplot_str(f, text);
		fprintf(f, " %d", i + 1);
	}
	fputs(")\n", f);
	if (t.form == TIC_DAY)
		snprintf(axis, sizeof(axis), "the result's date (UTC)");
	else if (t.form == TIC_INDEX)
		snprintf(axis, sizeof(axis), "results in date order, %.10s to %.10s (UTC)",
			 sr->pt[0].date, sr->pt[sr->n - 1].date);
	else if (t.one_day)
		snprintf(axis, sizeof(axis), "the result's time on %.10s (UTC)", sr->pt[0].date);
	else
		snprintf(axis, sizeof(axis), "the result's date and time (UTC)");
	fputs("set xlabel ", f);
	gnuplot_str(f, axis);
	fprintf(f, "\nset bmargin %d\n", 3 + (int)(width * 0.5 + 0.5));
	if (width > 10)	/* the last label reaches right of its point */
		fprintf(f, "set rmargin %d\n", (int)(width * 0.6));
}

static void write_script(FILE *f, void *arg, const char *img)
{
	const struct fig *g = arg;
	const struct series *sr = g->sr;
	char title[512];
	int i;

	gnuplot_terminal(f, g->png);
	fputs("set output ", f);
	gnuplot_str(f, img);
	snprintf(title, sizeof(title), "%s%s%s %s%s%s%s on %s", sr->bench, *sr->measured ? " " : "",
		 sr->measured, sr->name, *sr->mkey ? "{" : "", sr->mkey, *sr->mkey ? "}" : "",
		 sr->host);
	fputs("\nset title ", f);
	gnuplot_str(f, title);
	snprintf(title, sizeof(title), "%s (%s), a run's 95%% interval", sr->name, sr->unit);
	fputs("\nset ylabel ", f);
	gnuplot_str(f, title);
	fprintf(f, "\nset grid\nunset key\nset lmargin 12\nset rmargin 6\n"
		"set xrange [0.5:%g]\nset offsets 0, 0, graph 0.12, graph 0.12\n", sr->n + 0.5);
	x_tics(f, sr);
	kernel_labels(f, sr);
	change_marks(f, g);
	fputs("$points << EOD\n", f);
	for (i = 0; i < sr->n; i++)
		fprintf(f, "%d %.17g %.17g\n", i + 1, sr->pt[i].v,
			isfinite(sr->pt[i].half_ci) ? sr->pt[i].half_ci : 0.0);
	fputs("EOD\nplot $points using 1:2:3 with yerrorbars pt 7 ps 0.6 lc rgb '#1f4e9a', "
	      "$points using 1:2 with lines lc rgb '#1f4e9a'\n", f);
}

static int draw(const struct series *sr, const struct db_args *a)
{
	double *x = xcalloc(sr->n + 1, sizeof(double));
	struct ed_cp *cp = xcalloc(sr->n + 1, sizeof(*cp));
	struct fig g = { .sr = sr, .cp = cp, .x = x };
	size_t len = strlen(a->out);
	int ret;

	g.png = len > 4 && !strcmp(a->out + len - 4, ".png");
	g.k = series_changes(sr, a, x, cp);
	ret = gnuplot_draw(a->out, a->script, write_script, &g);
	if (!ret && !a->quiet)
		printf("%s: %d points, %d change point%s\n", a->out, sr->n, g.k, g.k == 1 ? "" : "s");
	free(x);
	free(cp);
	return ret;
}

/* The filter's one series, read whole; EXIT_USAGE (one line) when it selects none or several. */
static int read_one(struct store *s, const struct db_args *a, struct series *sr)
{
	char key[SERIES_KEY_MAX];
	struct stmt *st = series_query(s, &a->f);
	enum store_row r;
	int nr = 0;

	if (!st)
		return 1;
	while ((r = store_step(s, st)) == STEP_ROW) {
		series_key(s, st, a->f.by_kernel, key, sizeof(key));
		if (!nr || strcmp(key, sr->key)) {
			if (nr++)
				continue;	/* counted: a second series is refused below */
			series_start(s, st, sr, key);
		}
		if (!strcmp(key, sr->key))
			series_add(s, st, sr);
	}
	store_finalize(s, st);
	if (r == STEP_ERROR)
		return 1;
	if (nr == 1 && !sr->n) {
		errmsg("db plot: the series of %s has no finite figure (%d left out): nothing to "
		       "draw", a->f.bench, sr->nr_bad);
		return EXIT_USAGE;
	}
	if (nr != 1) {
		errmsg("db plot: %s series of %s match%s", nr > 1 ? "several" : "no", a->f.bench,
		       nr > 1 ? ": choose one with --metric NAME, --host H, --options TEXT (as db show "
		       "prints them)" : "");
		return EXIT_USAGE;
	}
	return 0;
}

int db_plot(struct store *s, const struct db_args *a)
{
	struct series sr = { .n = 0 };
	size_t len = strlen(a->out);
	int ret;

	if (len <= 4 || (strcmp(a->out + len - 4, ".svg") && strcmp(a->out + len - 4, ".png"))) {
		errmsg("db plot: the output must end in .svg or .png: %s", a->out);
		return EXIT_USAGE;
	}
	ret = read_one(s, a, &sr);
	if (!ret)
		ret = draw(&sr, a);
	series_clear(&sr);
	free(sr.pt);
	return ret;
}
