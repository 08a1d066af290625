// SPDX-License-Identifier: GPL-2.0
/*
 * A figure as every human output writes it: "mean ± sd" with the digits
 * its spread supports, the mean alone where there is no spread (one
 * sample, an exact count, an inverse); a column's cells without a spread
 * in one format, the finest of theirs.
 */
#include <math.h>
#include <stdio.h>
#include "figure.h"

/*
 * A spread this small beside its mean is the rounding of a constant
 * (bloom's theory, the same value every sample), not a measured one.
 */
#define FIGURE_NO_SPREAD	1e-9
#define FIGURE_MAX_DECIMALS	17	/* what a double holds; a finer sd is no figure */

/*
 * The decimal place of an sd's second significant digit: 1 for 5.2,
 * 0 for 14, -1 for 140, 4 for 0.0013.  0.0996 to two digits is 0.10,
 * one place to the left of 0.0996's: counted after the rounding.
 */
static int spread_place(double sd)
{
	int d = 1 - (int)floor(log10(sd));

	if (round(sd * pow(10, d)) >= 100)
		d--;
	return d;
}

/* v rounded to d decimals, d < 0 to tens, hundreds...; never "-0". */
static double round_at(double v, int d)
{
	double r = d >= 0 ? round(v * pow(10, d)) / pow(10, d) : round(v / pow(10, -d)) * pow(10, -d);

	return r == 0 ? 0 : r;
}

bool figure_pm(char *buf, size_t len, double mean, double sd)
{
	int d;

	if (!isfinite(mean) || !isfinite(sd) || sd <= 0 || sd <= fabs(mean) * FIGURE_NO_SPREAD)
		return false;
	d = spread_place(sd);
	if (d > FIGURE_MAX_DECIMALS)
		return false;
	snprintf(buf, len, "%.*f ± %.*f", d > 0 ? d : 0, round_at(mean, d), d > 0 ? d : 0,
		 round_at(sd, d));
	return true;
}

/*
 * A figure without a spread, as before the rule: three decimals (the
 * kernel bench's %.3f), more for a value below 1 so that it keeps four
 * significant digits.
 */
static int alone_decimals(double mean)
{
	int d = mean && isfinite(mean) && fabs(mean) < 1 ? 3 - (int)floor(log10(fabs(mean))) : 3;

	return d > 9 ? 9 : d;
}

static bool has_spread(const struct stats *st, double mean)
{
	char probe[8];

	return st->n > 1 && figure_pm(probe, sizeof(probe), mean, st->stddev);
}

const char *report_figure(char *buf, size_t len, double mean, const struct stats *st)
{
	if (st->n < 2 || !figure_pm(buf, len, mean, st->stddev))
		snprintf(buf, len, "%.*f", alone_decimals(mean), mean);
	return buf;
}

/* An exact count is whole; an inverse's own spread is not the figure's. */
static bool shown_whole(const struct run_result *r, int i)
{
	double v = res_shown_mean(r, i);

	return r->metrics[i].kind == METRIC_COUNT && v == floor(v) &&
	       (r->st[i].n < 2 || !r->st[i].stddev);
}

static const struct stats *shown_stats(const struct run_result *r, int i, struct stats *one)
{
	*one = (struct stats){ .n = 1 };
	return r->metrics[i].kind == METRIC_INVERSE || shown_whole(r, i) ? one : &r->st[i];
}

int report_metric_decimals(const struct run_result *r, int i)
{
	struct stats one;
	double v = res_shown_mean(r, i);

	if (r->metrics[i].kind == METRIC_COUNT)
		return 0;
	if (has_spread(shown_stats(r, i, &one), v))
		return 0;	/* its own digits: the column's format is its other cells' */
	return alone_decimals(v);
}

void report_metric_cell(char *buf, size_t len, const struct run_result *r, int i, int d)
{
	struct stats one;
	const struct stats *st = shown_stats(r, i, &one);
	double v = res_shown_mean(r, i);

	if (st->n < 2 || !figure_pm(buf, len, v, st->stddev))
		snprintf(buf, len, "%.*f", d, v);
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
