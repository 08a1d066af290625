// SPDX-License-Identifier: GPL-2.0
/*
 * A figure as every human output writes it: "mean ± sd" with the
 * decimals its spread justifies, the mean alone where there is no
 * spread (one sample, an exact count, an inverse), and a column's cells
 * in one format, the finest of its figures'.
 */
#include <math.h>
#include <stdio.h>
#include "figure.h"

/*
 * Decimals that the spread justifies, as perf stat shows a figure: the
 * stddev to two significant digits and the mean to the same place; at
 * least one (the kernel's summarize patterns want "N.N ± N.N"), and
 * three where there is no spread (the kernel bench's %.3f), more for a
 * value below 1.
 */
static int decimals(double mean, const struct stats *st)
{
	double ref = st->n > 1 && st->stddev > 0 ? st->stddev : 0;
	int d;

	if (ref)
		d = 1 - (int)floor(log10(ref));
	else
		d = mean && fabs(mean) < 1 ? 3 - (int)floor(log10(fabs(mean))) : 3;
	return d < 1 ? 1 : d > 9 ? 9 : d;
}

static const char *figure_at(char *buf, size_t len, double mean, const struct stats *st, int d)
{
	if (st->n > 1)
		snprintf(buf, len, "%.*f ± %.*f", d, mean, d, st->stddev);
	else
		snprintf(buf, len, "%.*f", d, mean);
	return buf;
}

const char *report_figure(char *buf, size_t len, double mean, const struct stats *st)
{
	return figure_at(buf, len, mean, st, decimals(mean, st));
}

/* An exact count is whole; an inverse's own spread is not the figure's. */
static bool shown_whole(const struct run_result *r, int i)
{
	double v = res_shown_mean(r, i);

	return r->metrics[i].kind == METRIC_COUNT && v == floor(v) &&
	       (r->st[i].n < 2 || !r->st[i].stddev);
}

int report_metric_decimals(const struct run_result *r, int i)
{
	struct stats one = { .n = 1 };

	if (r->metrics[i].kind == METRIC_COUNT)
		return 0;
	return decimals(res_shown_mean(r, i), r->metrics[i].kind == METRIC_INVERSE ? &one : &r->st[i]);
}

void report_metric_cell(char *buf, size_t len, const struct run_result *r, int i, int d)
{
	struct stats one = { .n = 1 };
	const struct stats *st = r->metrics[i].kind == METRIC_INVERSE || shown_whole(r, i) ?
				 &one : &r->st[i];

	figure_at(buf, len, res_shown_mean(r, i), st, d);
}

const char *report_metric_figure(char *buf, size_t len, const struct run_result *r, int i)
{
	const struct metric_def *m = &r->metrics[i];
	struct stats one = { .n = 1 };
	double v = res_shown_mean(r, i);

	/* an exact count needs no decimals; an inverse's own spread is not the figure's */
	if (m->kind == METRIC_COUNT && v == floor(v) && r->st[i].n < 2)
		snprintf(buf, len, "%.0f", v);
	else
		report_figure(buf, len, v, m->kind == METRIC_INVERSE ? &one : &r->st[i]);
	return buf;
}
