// SPDX-License-Identifier: GPL-2.0
/*
 * plot's gnuplot side: one self-contained script (each curve's points in
 * a datablock), ranges and ticks set by us so that gnuplot has nothing
 * to warn about, its output kept off the terminal unless it fails.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gnuplot.h"
#include "plot_int.h"
#include "util.h"

/* Explicit ticks at the values up to this many; beyond, a whole step. */
#define PLOT_MAX_TICKS	16

/* Whether a curve has a spread to draw: a point of two samples or more that vary. */
static bool curve_has_bars(const struct plot_fig *fig, int i)
{
	const struct plot_curve *c = &fig->curves[i];
	int j;

	for (j = 0; j < c->n && !fig->a->cdf; j++)
		if (c->pts[j].n > 1 && c->pts[j].sd > 0)
			return true;
	return false;
}

static void write_ylabel(FILE *f, const struct plot_fig *fig, int axis)
{
	char text[256] = "";
	size_t len = 0;
	int i, j;

	if (fig->a->cdf) {
		fputs("set ylabel 'cumulative share of ops'\n", f);
		return;
	}
	for (i = 0; i < fig->nr_curves && len < 150; i++) {
		if (fig->curves[i].axis != axis)
			continue;
		for (j = 0; j < i && (fig->curves[j].axis != axis ||
				      strcmp(fig->curves[j].metric, fig->curves[i].metric)); j++)
			;
		if (j == i)
			bufcat(text, sizeof(text), &len, "%s%s", len ? ", " : "",
			       fig->curves[i].metric);
	}
	/* the label says what is drawn: bars only where a point has a spread */
	for (i = 0, j = 0; i < fig->nr_curves; i++)
		j |= fig->curves[i].axis == axis && curve_has_bars(fig, i);
	bufcat(text, sizeof(text), &len, " (%s)%s", fig->unit[axis], j ? ", mean ± stddev" : "");
	fputs(axis ? "set y2label " : "set ylabel ", f);
	gnuplot_str(f, text);
	fputc('\n', f);
}

static void yrange(FILE *f, const struct plot_fig *fig, int axis)
{
	double lo = 0, hi = 0;
	const struct plot_pt *p;
	int i, j;

	if (fig->a->cdf) {
		fputs("set yrange [0:1.08]\n", f);	/* room above for the p99 labels */
		return;
	}
	for (i = 0; i < fig->nr_curves; i++)
		for (j = 0; j < fig->curves[i].n && fig->curves[i].axis == axis; j++) {
			p = &fig->curves[i].pts[j];
			lo = fmin(lo, p->y - p->sd);
			hi = fmax(hi, p->y + p->sd);
		}
	if (hi <= lo)	/* all zero: a range gnuplot does not call empty */
		hi = lo + 1;
	fprintf(f, "set %s [%.17g:%.17g]\n", axis ? "y2range" : "yrange", lo,
		hi + 0.08 * (hi - lo));
}

static void x_bounds(const struct plot_fig *fig, double *lo, double *hi)
{
	int i, j;

	*lo = INFINITY;
	*hi = -INFINITY;
	for (i = 0; i < fig->nr_curves; i++)
		for (j = 0; j < fig->curves[i].n; j++) {
			*lo = fmin(*lo, fig->curves[i].pts[j].x);
			*hi = fmax(*hi, fig->curves[i].pts[j].x);
		}
}

static int cmp_double(const void *pa, const void *pb)
{
	double a = *(const double *)pa, b = *(const double *)pb;

	return (a > b) - (a < b);
}

/* The distinct x values, sorted; their number, or -1 past PLOT_MAX_TICKS. */
static int distinct_x(const struct plot_fig *fig, double *v)
{
	int i, j, k, n = 0;
	double x;

	for (i = 0; i < fig->nr_curves; i++)
		for (j = 0; j < fig->curves[i].n; j++) {
			x = fig->curves[i].pts[j].x;
			for (k = 0; k < n && v[k] != x; k++)
				;
			if (k < n)
				continue;
			if (n == PLOT_MAX_TICKS)
				return -1;
			v[n++] = x;
		}
	qsort(v, n, sizeof(*v), cmp_double);
	return n;
}

/* Whether it set the ticks: at the values, up to PLOT_MAX_TICKS of them. */
static bool integer_ticks(FILE *f, const struct plot_fig *fig, double lo, double hi)
{
	double v[PLOT_MAX_TICKS];
	int i, n = distinct_x(fig, v);

	fputs("set format x '%.0f'\n", f);
	if (n > 0) {
		fputs("set xtics (", f);
		for (i = 0; i < n; i++)
			fprintf(f, "%s%.0f", i ? ", " : "", v[i]);
		fputs(")\n", f);
	} else if (!fig->logx) {
		fprintf(f, "set xtics %.0f\n", fmax(1, ceil((hi - lo) / 10)));
	}
	return n > 0;
}

/* The multiples m[] of each power of ten within [lo, hi], in v: their number, -1 past max. */
static int decade_ticks(double lo, double hi, const int *m, int nm, double *v, int max)
{
	int e, k, n = 0;
	double t;

	for (e = (int)floor(log10(lo)); e <= (int)ceil(log10(hi)); e++)
		for (k = 0; k < nm; k++) {
			t = m[k] * pow(10, e);
			if (t < lo || t > hi)
				continue;
			if (n == max)
				return -1;
			v[n++] = t;
		}
	return n;
}

/*
 * A log axis under three decades: gnuplot labels its powers of ten
 * alone, two labels for a CDF of 10-190 ns.  Ticks at 1, 2, 5 of each
 * decade instead, or 1 to 9 in a range narrower still, or else evenly
 * spaced: at least three labels.
 */
static void log_ticks(FILE *f, double lo, double hi)
{
	static const int m125[] = { 1, 2, 5 }, m1to9[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };
	double v[PLOT_MAX_TICKS], step;
	int i, n;

	if (!(lo > 0) || hi / lo >= 1000)
		return;
	n = decade_ticks(lo, hi, m125, ARRAY_SIZE(m125), v, PLOT_MAX_TICKS);
	if (n < 3)
		n = decade_ticks(lo, hi, m1to9, ARRAY_SIZE(m1to9), v, PLOT_MAX_TICKS);
	if (n < 3) {
		step = pow(10, floor(log10((hi - lo) / 4)));
		step *= (hi - lo) / 4 > 5 * step ? 5 : (hi - lo) / 4 > 2 * step ? 2 : 1;
		for (n = 0; n < PLOT_MAX_TICKS && (ceil(lo / step) + n) * step <= hi; n++)
			v[n] = (ceil(lo / step) + n) * step;
	}
	fputs("set xtics (", f);
	for (i = 0; i < n; i++)
		fprintf(f, v[i] == rint(v[i]) ? "%s'%.0f' %.17g" : "%s'%.6g' %.17g", i ? ", " : "",
			v[i], v[i]);
	fputs(")\n", f);
}

static void category_ticks(FILE *f, const struct plot_fig *fig)
{
	int i;

	fputs("set xtics rotate by 30 right (", f);
	for (i = 0; i < fig->nr_cats; i++) {
		fputs(i ? ", " : "", f);
		gnuplot_str(f, fig->cats[i] ?: "null");
		fprintf(f, " %d", i);
	}
	fprintf(f, ")\nset xrange [-0.5:%g]\n", fig->nr_cats - 0.5);
}

static void write_x(FILE *f, const struct plot_fig *fig)
{
	double lo, hi, pad;

	fputs("set xlabel ", f);
	gnuplot_str(f, fig->a->cdf ? "ns per op (log scale)" : fig->a->x);
	fputc('\n', f);
	if (!fig->numeric) {
		category_ticks(f, fig);
		return;
	}
	x_bounds(fig, &lo, &hi);
	if (fig->logx) {
		fprintf(f, "set logscale x 10\nset xrange [%.17g:%.17g]\n", lo / 1.25, hi * 1.25);
	} else {
		pad = hi > lo ? 0.04 * (hi - lo) : fig->integer ? 0.5 : fmax(fabs(lo) * 0.1, 0.5);
		fprintf(f, "set xrange [%.17g:%.17g]\n", lo - pad, hi + pad);
	}
	if ((!fig->integer || !integer_ticks(f, fig, lo, hi)) && fig->logx)
		log_ticks(f, lo / 1.25, hi * 1.25);
}

static void write_data(FILE *f, const struct plot_fig *fig)
{
	const struct plot_pt *p;
	int i, j;

	for (i = 0; i < fig->nr_curves; i++) {
		fprintf(f, "$c%d << EOD\n", i);
		for (j = 0; j < fig->curves[i].n; j++) {
			p = &fig->curves[i].pts[j];
			fprintf(f, "%.17g %.17g %.17g\n", p->x, p->y, p->sd);
		}
		fputs("EOD\n", f);
	}
}

/* "24.3": a few significant digits, no exponent for what a CDF spans. */
static void fmt_ns(char *buf, size_t size, double v)
{
	snprintf(buf, size, v >= 100 ? "%.0f" : v >= 10 ? "%.1f" : "%.3g", v);
}

/*
 * --cdf: each curve's p50 and p99 as a point in its colour, labelled;
 * one curve's labels give the values, several curves' only the names
 * (values side by side collide), their values in the key.
 */
static void write_marks(FILE *f, const struct plot_fig *fig)
{
	const struct plot_curve *c;
	char a[32], b[32];
	bool one = fig->nr_curves == 1;
	int i;

	for (i = 0; i < fig->nr_curves && fig->a->cdf; i++) {
		c = &fig->curves[i];
		if (!(c->p50 > 0))
			continue;
		fmt_ns(a, sizeof(a), c->p50);
		fmt_ns(b, sizeof(b), c->p99);
		fprintf(f, "$m%d << EOD\n%.17g 0.5 \"p50%s%s%s\"\n%.17g 0.99 \"p99%s%s%s\"\nEOD\n",
			i, c->p50, one ? " " : "", one ? a : "", one ? " ns" : "",
			c->p99, one ? " " : "", one ? b : "", one ? " ns" : "");
	}
}

/* The curve's title in the key: with --cdf, its p50 and p99. */
static void curve_title(FILE *f, const struct plot_curve *c, bool cdf)
{
	char text[PLOT_TITLE_MAX + 96], a[32], b[32];

	if (!cdf || !(c->p50 > 0)) {
		gnuplot_str(f, c->title);
		return;
	}
	fmt_ns(a, sizeof(a), c->p50);
	fmt_ns(b, sizeof(b), c->p99);
	snprintf(text, sizeof(text), "%s: p50 %s, p99 %s ns", c->title, a, b);
	gnuplot_str(f, text);
}

/* The marks' labels left of their points, a little above: a rising CDF leaves room there. */
static void plot_marks(FILE *f, const struct plot_fig *fig)
{
	int i;

	for (i = 0; i < fig->nr_curves && fig->a->cdf; i++)
		if (fig->curves[i].p50 > 0)
			fprintf(f, ", \\\n     $m%d using 1:2:3 with labels point pt 7 ps 1.2 lc %d "
				"tc lt %d right offset char -0.8,0.5 notitle", i, i + 1, i + 1);
}

static void write_plot(FILE *f, const struct plot_fig *fig)
{
	const char *style;
	int i;

	fputs("plot ", f);
	for (i = 0; i < fig->nr_curves; i++) {
		/* no error-bar glyph for a curve with no spread to show */
		style = fig->a->cdf ? "using 1:2 with steps lw 2" : curve_has_bars(fig, i) ?
			"using 1:2:3 with yerrorlines lw 2 pt 7" : "using 1:2 with linespoints lw 2 pt 7";
		fprintf(f, "%s$c%d %s axes x1y%d title ", i ? ", \\\n     " : "", i, style,
			fig->curves[i].axis + 1);
		curve_title(f, &fig->curves[i], fig->a->cdf);
	}
	plot_marks(f, fig);
	fputc('\n', f);
}

static void write_script(FILE *f, const struct plot_fig *fig, const char *out)
{
	gnuplot_terminal(f, fig->a->png);
	fputs("set output ", f);
	gnuplot_str(f, out);
	fputc('\n', f);
	plot_write_title(f, fig);
	/*
	 * One curve needs no key: the title names it.  Several: the key to
	 * the right of the graph, clear of the x label and its tics (below,
	 * it crowded the label); room on the right otherwise for the last x
	 * label and the y2 axis.
	 */
	fputs("set grid\nset lmargin 12\n", f);
	if (fig->nr_curves > 1)
		fputs("set key outside right top vertical Left reverse\n", f);
	else
		fputs("unset key\nset rmargin 12\n", f);
	write_x(f, fig);
	write_ylabel(f, fig, 0);
	yrange(f, fig, 0);
	if (fig->nr_units == 2) {
		fputs("set ytics nomirror\nset y2tics\n", f);
		write_ylabel(f, fig, 1);
		yrange(f, fig, 1);
	}
	write_data(f, fig);
	write_marks(f, fig);
	write_plot(f, fig);
}

static void write_script_cb(FILE *f, void *arg, const char *img)
{
	write_script(f, arg, img);
}

int plot_draw(const struct plot_fig *fig)
{
	return gnuplot_draw(fig->a->out, fig->a->script, write_script_cb, (void *)fig);
}
