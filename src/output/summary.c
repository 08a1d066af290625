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

/* The kernel's "total operations": its metric's, or hits + drops of each sample (derived.c). */
static const struct stats *total_ops(const struct run_result *res)
{
	static const struct stats none;
	const struct run_derived *d = res_derived(res, "total_operations");
	const struct stats *st = stats_named(res, res->bench->report.total);

	return st ? st : d ? &d->st : &none;
}

static void hits_line(struct text *t, const struct run_result *res)
{
	const struct stats *h = figures_of(res, "hits"), *d = figures_of(res, "drops");
	const struct stats *tot = total_ops(res);

	put(t, "hits %8.3lf ± %5.3lfM/s (%7.3lfM/prod), drops %8.3lf ± %5.3lfM/s, "
	    "total operations %8.3lf ± %5.3lfM/s", h->mean, spread(h), h->mean / producers_of(res),
	    d->mean, spread(d), tot->mean, spread(tot));
}

/* Upstream's Percentage (derived.c): the part's sum over the part's and the rest's. */
static double derived_mean(const struct run_result *res, const char *name)
{
	const struct run_derived *d = res_derived(res, name);

	return d ? d->st.mean : 0.0;
}

static double percentage(const struct run_result *res)
{
	return derived_mean(res, "percentage");
}

static void percent_line(struct text *t, const struct run_result *res)
{
	char part[48];

	snprintf(part, sizeof(part), "%s_sum", res->bench->report.part ?: "part");
	put(t, "%.0f false hits of %.0f total operations. Percentage =  %2.2f %%",
	    derived_mean(res, part), derived_mean(res, "total_operations_sum"), percentage(res));
}

/*
 * The kernel's line (w > 0): "mean ± sd" to d decimals, "± 0.00" for one
 * sample.  Our rows (w 0): "mean ± sd" by the digits rule (figure.h), the
 * mean alone to d decimals where there is no spread.
 */
static void put_spread(struct text *t, const struct stats *st, int w, int d)
{
	char fig[96];

	if (w)
		put(t, "%*.*lf ± %*.*lf", w, d, st->mean, w, d, spread(st));
	else if (st->n > 1 && figure_pm(fig, sizeof(fig), st->mean, st->stddev))
		put(t, "%s", fig);
	else
		put(t, "%.*lf", d, st->mean);
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
	const struct stats *tot = total_ops(res);

	if (res->bench->report.row_total) {	/* summarize_total */
		put(t, "total operations ");
		put_spread(t, &(struct stats){ .n = h->n, .mean = tot->mean, .stddev = spread(tot) },
			   0, 3);
		put(t, "M/s (hits %.3lf, drops %.3lf M/s)", h->mean, d->mean);
		return;
	}
	put_spread(t, h, 0, 3);
	put(t, "M/s (drops ");
	put_spread(t, d, 0, 3);
	put(t, "M/s)");
}

static void percent_row(struct text *t, const struct run_result *res)
{
	put(t, "%.2f%% (", percentage(res));
	ops_row(t, res, false);
	put(t, ")");
}

static void htab_mem_line(struct text *t, const struct run_result *res)
{
	htab_mem_figures(t, res, false, 7);
}

static void htab_mem_row(struct text *t, const struct run_result *res)
{
	htab_mem_figures(t, res, true, 0);
}

/* The options away from their defaults, within the line's 120 columns. */
static void table_line(struct text *t, const struct run_result *res)
{
	put(t, "%s", res->bench->name);
	summary_options(t->buf + t->off, t->len - t->off, res, false, NULL, NULL);
	if (!t->buf[t->off])
		put(t, " (its defaults)");
	if (utf8_width(t->buf) > 120 - 9)
		snprintf(t->buf + 120 - 9 - 4, 5, " ...");
	t->off = strlen(t->buf);
}

static void table_row_text(struct text *t, const struct run_result *res)
{
	table_row(t->buf, t->len, res);
	t->off = strlen(t->buf);
}

static void all_row(struct text *t, const struct run_result *res)
{
	ops_row(t, res, false);
}

static void times_row(struct text *t, const struct run_result *res)
{
	ops_row(t, res, true);
}

/* ---- a family's own lines (struct bench_report's .lines): its view of the run ---- */

struct report_view {
	struct run_result res;	/* never instantiated: a result read through these calls */
};

static const struct run_result *res_of(const struct report_view *v)
{
	return (const struct run_result *)v;
}

static bool metric_ok(const struct report_view *v, int i)
{
	return i >= 0 && i < res_of(v)->nr_metrics;
}

int report_nr_metrics(const struct report_view *v)
{
	return res_of(v)->nr_metrics;
}

const char *report_metric_name(const struct report_view *v, int i)
{
	return metric_ok(v, i) ? res_of(v)->metrics[i].name : "";
}

const char *report_metric_key(const struct report_view *v, int i)
{
	return metric_ok(v, i) && res_of(v)->metrics[i].key ? res_of(v)->metrics[i].key : "";
}

double report_mean(const struct report_view *v, int i)
{
	return metric_ok(v, i) ? res_of(v)->st[i].mean : 0.0;
}

double report_spread(const struct report_view *v, int i)
{
	return metric_ok(v, i) ? spread(&res_of(v)->st[i]) : 0.0;
}

int report_samples(const struct report_view *v, int i)
{
	return metric_ok(v, i) ? res_of(v)->st[i].n : 0;
}

int report_producers(const struct report_view *v)
{
	return producers_of(res_of(v));
}

int report_metric(const struct report_view *v, const char *name)
{
	return res_metric(res_of(v), name);
}

/*
 * Each shape's two texts, side by side so that they change together: the
 * Summary line (the kernel bench's, which its scripts parse) and the
 * suite row (our table's).
 */
static const struct shape_text {
	void (*line)(struct text *t, const struct run_result *res);
	void (*row)(struct text *t, const struct run_result *res);
} shapes[] = {
	[REPORT_OPS]		= { ops_line, all_row },
	[REPORT_TIMES]		= { times_line, times_row },
	[REPORT_HITS_DROPS]	= { hits_line, hits_row },
	[REPORT_PERCENT]	= { percent_line, percent_row },
	[REPORT_HTAB_MEM]	= { htab_mem_line, htab_mem_row },
	[REPORT_TABLE]		= { table_line, table_row_text },
};

static const struct shape_text *shape_of(const struct run_result *res)
{
	unsigned int s = res->bench->report.shape;

	return s < ARRAY_SIZE(shapes) && shapes[s].line ? &shapes[s] : &shapes[REPORT_OPS];
}

bool summary_lines_apart(const struct run_result *res)
{
	return res->bench->report.lines != NULL;
}

/* The family's lines, as it wrote them into a buffer, each ending in a newline. */
static void family_lines(FILE *out, const struct run_result *res)
{
	char buf[4096];
	size_t n;

	buf[0] = 0;
	res->bench->report.lines((const struct report_view *)res, buf, sizeof(buf));
	n = strlen(buf);
	fputs(buf, out);
	if (n && buf[n - 1] != '\n')
		fputc('\n', out);
}

void summary_write(FILE *out, const struct run_result *res)
{
	char buf[1024];
	struct text t = { buf, sizeof(buf), 0 };

	buf[0] = 0;
	if (res->bench->report.shape == REPORT_TABLE)
		table_write(out, res, "");
	if (summary_lines_apart(res))
		family_lines(out, res);
	shape_of(res)->line(&t, res);
	fprintf(out, "Summary: %s\n", buf);
}

void summary_row(const struct run_result *res, char *buf, size_t len)
{
	struct text t = { buf, len, 0 };

	buf[0] = 0;
	shape_of(res)->row(&t, res);
}
