// SPDX-License-Identifier: GPL-2.0
/*
 * A result's Summary line and suite row, in the shape its benchmark
 * declares (bench.h, struct bench_report): the kernel bench's shapes,
 * which its run_bench_*.sh scripts take apart with sed, and our table.
 * Benchmarks print nothing; every figure they show is drawn here.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"
#include "mkey.h"
#include "figure.h"
#include "summary.h"
#include "util.h"

struct text {
	char *buf;
	size_t len, off;
};

static void put(struct text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void put(struct text *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vbufcat(t->buf, t->len, &t->off, fmt, ap);
	va_end(ap);
}

static int producers_of(const struct run_result *res)
{
	return res->spec.opts.producers > 0 ? (int)res->spec.opts.producers : 1;
}

/* The kernel bench's spread: 0 for one sample, where ours shows none. */
static double spread(const struct stats *st)
{
	return st->n > 1 ? st->stddev : 0.0;
}

static const struct stats *stats_named(const struct run_result *res, const char *name)
{
	int i = name ? res_metric(res, name) : -1;

	return i < 0 ? NULL : &res->st[i];
}

/* The stats of a metric the shape names, zeros where the run has none. */
static const struct stats *figures_of(const struct run_result *res, const char *name)
{
	static const struct stats none;
	const struct stats *st = stats_named(res, name);

	return st ? st : &none;
}

static double sum_named(const struct run_result *res, const char *name)
{
	int i, m = name ? res_metric(res, name) : -1;
	double sum = 0;

	for (i = 0; m >= 0 && i < res->nr_samples; i++)
		sum += res_sample(res, i)[m];
	return sum;
}

/* Our unit "k ops/s" is the kernel bench's "K ops/s". */
static const char *kernel_unit(const char *unit)
{
	if (unit && !strcmp(unit, "k ops/s"))
		return "K ops/s";
	if (unit && !strcmp(unit, "k ops"))
		return "K ops";
	return unit;
}

/* "id X ± Y unit (Z<prod>/prod)": the kernel bench's %8.3lf ± %5.3lf, 0 for one sample. */
static void put_rate(struct text *t, const struct run_result *res, int i)
{
	const struct metric_def *m = &res->metrics[i];
	const struct stats *st = &res->st[i];
	char id[MKEY_ID_MAX];

	put(t, "%s %8.3lf ± %5.3lf %s", res_metric_id(res, i, id, sizeof(id)), st->mean,
	    spread(st), kernel_unit(m->unit));
	if (m->prod_unit)
		put(t, " (%7.3lf%s/prod)", st->mean / producers_of(res), kernel_unit(m->prod_unit));
}

static void put_time(struct text *t, const struct run_result *res, int i)
{
	char id[MKEY_ID_MAX];

	put(t, "%s %8.3lf %s", res_metric_id(res, i, id, sizeof(id)), res_shown_mean(res, i),
	    res->metrics[i].unit);
}

static bool is_rate(const struct metric_def *m)
{
	return m->kind == METRIC_RATE;
}

static bool is_time(const struct metric_def *m)
{
	return m->kind == METRIC_TIME || m->kind == METRIC_INVERSE;
}

static int first_of(const struct run_result *res, bool (*want)(const struct metric_def *))
{
	int i;

	for (i = 0; i < res->nr_metrics; i++)
		if (want(&res->metrics[i]))
			return i;
	return -1;
}

/* ops_report_final: the throughput and its latency, as the kernel bench pairs them. */
static void ops_line(struct text *t, const struct run_result *res)
{
	int r = first_of(res, is_rate), l = first_of(res, is_time);

	if (r >= 0)
		put_rate(t, res, r);
	if (l >= 0)
		put(t, r >= 0 ? ", " : "");
	if (l >= 0)
		put_time(t, res, l);
}

static void times_line(struct text *t, const struct run_result *res)
{
	int i, k = 0;

	for (i = 0; i < res->nr_metrics; i++)
		if (res->metrics[i].kind == METRIC_TIME) {
			put(t, "%s", k++ ? ", " : "");
			put_time(t, res, i);
		}
}

/* The kernel's "total operations": hits + drops of each sample, their spread. */
static void total_ops(const struct run_result *res, const char *total, double *mean, double *sd)
{
	int h = res_metric(res, "hits"), d = res_metric(res, "drops"), i;
	const struct stats *st = stats_named(res, total);
	struct stats all;
	double *v;

	if (st || h < 0 || d < 0) {
		*mean = st ? st->mean : 0;
		*sd = st ? spread(st) : 0;
		return;
	}
	v = xcalloc(res->nr_samples ?: 1, sizeof(*v));
	for (i = 0; i < res->nr_samples; i++)
		v[i] = res_sample(res, i)[h] + res_sample(res, i)[d];
	stats_compute(v, res->nr_samples, &all);
	free(v);
	*mean = res->st[h].mean + res->st[d].mean;
	*sd = spread(&all);
}

static void hits_line(struct text *t, const struct run_result *res)
{
	const struct stats *h = figures_of(res, "hits"), *d = figures_of(res, "drops");
	double tm, tsd;

	total_ops(res, res->bench->report.total, &tm, &tsd);
	put(t, "hits %8.3lf ± %5.3lfM/s (%7.3lfM/prod), drops %8.3lf ± %5.3lfM/s, "
	    "total operations %8.3lf ± %5.3lfM/s", h->mean, spread(h), h->mean / producers_of(res),
	    d->mean, spread(d), tm, tsd);
}

/* Upstream's Percentage: the part over part and rest, a false hit counted twice. */
static double percentage(const struct run_result *res, double *part, double *all)
{
	const struct bench_report *r = &res->bench->report;

	*part = sum_named(res, r->part);
	*all = sum_named(res, r->rest) + *part;
	return *all ? 100 * *part / *all : 0.0;
}

static void percent_line(struct text *t, const struct run_result *res)
{
	double part, all, pct = percentage(res, &part, &all);

	put(t, "%.0f false hits of %.0f total operations. Percentage =  %2.2f %%", part, all, pct);
}

/*
 * "mean ± sd" to d decimals; in our rows (w 0) the mean alone for one
 * sample, where the kernel's line (w > 0) keeps its "± 0.00".
 */
static void put_spread(struct text *t, const struct stats *st, int w, int d)
{
	if (!w && st->n < 2)
		put(t, "%.*lf", d, st->mean);
	else
		put(t, "%*.*lf ± %*.*lf", w, d, st->mean, w, d, spread(st));
}

/* htab-mem's three figures; w: the kernel's %7.2lf in its Summary, none in a row. */
static void htab_mem_figures(struct text *t, const struct run_result *res, bool row, int w)
{
	const struct stats *op = figures_of(res, "per-prod-op"), *mem = figures_of(res, "memory");
	const struct stats *peak = figures_of(res, "peak-memory");

	put(t, "%s", row ? "per-prod-op: " : "per-prod-op ");
	put_spread(t, op, w, 2);
	put(t, "k/s%s", row ? ", avg mem: " : ", memory usage ");
	put_spread(t, mem, w, 2);
	put(t, "MiB%s%*.2lfMiB", row ? ", peak mem: " : ", peak memory usage ", w, peak->max);
}

static void summary_text(struct text *t, const struct run_result *res)
{
	switch (res->bench->report.shape) {
	case REPORT_TIMES:
		times_line(t, res);
		break;
	case REPORT_HITS_DROPS:
		hits_line(t, res);
		break;
	case REPORT_PERCENT:
		percent_line(t, res);
		break;
	case REPORT_HTAB_MEM:
		htab_mem_figures(t, res, false, 7);
		break;
	case REPORT_TABLE:	/* the options away from their defaults, within the line's 120 columns */
		put(t, "%s", res->bench->name);
		summary_options(t->buf + t->off, t->len - t->off, res, false, NULL, NULL);
		if (!t->buf[t->off])
			put(t, " (its defaults)");
		if (utf8_width(t->buf) > 120 - 9)
			snprintf(t->buf + 120 - 9 - 4, 5, " ...");
		t->off = strlen(t->buf);
		break;
	default:
		ops_line(t, res);
	}
}

void summary_write(FILE *out, const struct run_result *res)
{
	char buf[1024];
	struct text t = { buf, sizeof(buf), 0 };

	buf[0] = 0;
	if (res->bench->report.shape == REPORT_TABLE)
		table_write(out, res, "");
	summary_text(&t, res);
	fprintf(out, "Summary: %s\n", buf);
}

/* A row's figure: "mean ± sd" where there is a spread, the mean alone for one sample. */
static void row_figure(struct text *t, const struct run_result *res, int i)
{
	char fig[64];

	put(t, "%s", report_metric_figure(fig, sizeof(fig), res, i));
}

/* The kernel's summarize_ops: throughput and latency, as figures with their spread. */
static void ops_row(struct text *t, const struct run_result *res, bool times_only)
{
	char id[MKEY_ID_MAX];
	int i, k = 0;

	for (i = 0; i < res->nr_metrics; i++) {
		const struct metric_def *m = &res->metrics[i];

		if (m->kind == METRIC_COUNT || (times_only && m->kind != METRIC_TIME))
			continue;
		put(t, "%s%s ", k++ ? ", " : "", res_metric_id(res, i, id, sizeof(id)));
		row_figure(t, res, i);
		put(t, " %s", m->unit);
	}
}

static void hits_row(struct text *t, const struct run_result *res)
{
	const struct stats *h = figures_of(res, "hits"), *d = figures_of(res, "drops");
	double tm, tsd;

	if (res->bench->report.row_total) {	/* summarize_total */
		total_ops(res, res->bench->report.total, &tm, &tsd);
		put(t, "total operations ");
		put_spread(t, &(struct stats){ .n = h->n, .mean = tm, .stddev = tsd }, 0, 3);
		put(t, "M/s (hits %.3lf, drops %.3lf M/s)", h->mean, d->mean);
		return;
	}
	put_spread(t, h, 0, 3);
	put(t, "M/s (drops ");
	put_spread(t, d, 0, 3);
	put(t, "M/s)");
}

void summary_row(const struct run_result *res, char *buf, size_t len)
{
	struct text t = { buf, len, 0 };
	double part, all;

	buf[0] = 0;
	switch (res->bench->report.shape) {
	case REPORT_TIMES:
		ops_row(&t, res, true);
		break;
	case REPORT_HITS_DROPS:
		hits_row(&t, res);
		break;
	case REPORT_PERCENT:
		put(&t, "%.2f%% (", percentage(res, &part, &all));
		ops_row(&t, res, false);
		put(&t, ")");
		break;
	case REPORT_HTAB_MEM:
		htab_mem_figures(&t, res, true, 0);
		break;
	case REPORT_TABLE:
		table_row(&t.buf[0], len, res);
		break;
	default:
		ops_row(&t, res, false);
	}
}
