// SPDX-License-Identifier: GPL-2.0
/*
 * The figures a benchmark's Summary shape derives from its metrics, kept
 * in the result beside the metrics' statistics: the Summary, the suite
 * row and the JSON ("derived") read the same numbers, none computed at
 * print time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"
#include "result.h"
#include "util.h"

static struct run_derived *add(struct run_result *res, const char *name, const char *unit)
{
	struct run_derived *d;

	if (res->nr_derived == RUN_MAX_DERIVED)
		die("internal: more than %d derived figures", RUN_MAX_DERIVED);
	d = &res->derived[res->nr_derived++];
	memset(d, 0, sizeof(*d));
	snprintf(d->name, sizeof(d->name), "%s", name);
	d->unit = unit;
	return d;
}

/* The kernel's "total operations" where no metric counts them: hits + drops of each sample. */
static void total_operations(struct run_result *res)
{
	const char *total = res->bench->report.total;
	int h = res_metric(res, "hits"), d = res_metric(res, "drops"), i;
	double *v;

	if ((total && res_metric(res, total) >= 0) || h < 0 || d < 0)
		return;
	v = xcalloc(res->nr_samples ?: 1, sizeof(*v));
	for (i = 0; i < res->nr_samples; i++)
		v[i] = res_sample(res, i)[h] + res_sample(res, i)[d];
	stats_compute(v, res->nr_samples, &add(res, "total_operations", res->metrics[h].unit)->st);
	free(v);
}

static double sum_of(const struct run_result *res, int m)
{
	double sum = 0;
	int i;

	for (i = 0; m >= 0 && i < res->nr_samples; i++)
		sum += res_sample(res, i)[m];
	return sum;
}

/* One figure of the whole run. */
static void whole(struct run_result *res, const char *name, const char *unit, double v)
{
	struct run_derived *d = add(res, name, unit);

	d->st = (struct stats){ .n = 1, .mean = v, .median = v, .min = v, .max = v };
}

/* Upstream's Percentage: the part's sum over the part's and the rest's, a false hit counted twice. */
static void percentage(struct run_result *res)
{
	const struct bench_report *r = &res->bench->report;
	int p = r->part ? res_metric(res, r->part) : -1, q = r->rest ? res_metric(res, r->rest) : -1;
	double part = sum_of(res, p), all = sum_of(res, q) + part;
	char name[40];

	whole(res, "percentage", "%", all ? 100 * part / all : 0.0);
	snprintf(name, sizeof(name), "%s_sum", r->part ? r->part : "part");
	whole(res, name, p >= 0 ? res->metrics[p].unit : "", part);
	whole(res, "total_operations_sum", q >= 0 ? res->metrics[q].unit : "", all);
}

void res_derive_figures(struct run_result *res)
{
	res->nr_derived = 0;
	if (!res->bench || !res->st)
		return;
	if (res->bench->report.shape == REPORT_HITS_DROPS)
		total_operations(res);
	else if (res->bench->report.shape == REPORT_PERCENT)
		percentage(res);
}

const struct run_derived *res_derived(const struct run_result *r, const char *name)
{
	int i;

	for (i = 0; i < r->nr_derived; i++)
		if (!strcmp(r->derived[i].name, name))
			return &r->derived[i];
	return NULL;
}
