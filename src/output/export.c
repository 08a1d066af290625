// SPDX-License-Identifier: GPL-2.0
/*
 * Exports of result rows.  JSON is the result document (export_json.c) with
 * every run that got as far as a benchmark; CSV has one line per run and
 * metric, for spreadsheets; Markdown is the printed table, for reports.
 */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>
#include "conditions.h"
#include "export.h"
#include "flame.h"
#include "formats.h"
#include "mkey.h"
#include "figure.h"
#include "report.h"
#include "summary.h"
#include "outfile.h"
#include "util.h"

bool row_has_figures(const struct result_row *row)
{
	return row->res.bench && row->res.st && (!row->status || res_kept(&row->res));
}

void row_summary(const struct result_row *row, char *buf, size_t len)
{
	const struct run_result *r = &row->res;
	size_t off = 0;

	buf[0] = 0;
	if (row->status == EXIT_SKIP) {
		bufcat(buf, len, &off, "SKIP: %s", row->note);
		return;
	}
	if (!row_has_figures(row)) {
		bufcat(buf, len, &off, "FAILED (exit %d): %s", row->status, row->note);
		return;
	}
	summary_row(r, buf, len);
}

/*
 * The precision a sampled row reached: "±3.9%", "no CI" (one sample);
 * loud (a target the user set) adds that it was missed.  precision_pct
 * is NaN until two samples give a CI.
 */
const char *row_ci(const struct result_row *row, bool loud, char *buf, size_t len)
{
	const struct run_result *r = &row->res;
	double pct = r->precision_pct;

	buf[0] = 0;
	if (!row_has_figures(row) || !r->precision_target)
		return buf;
	if (isnan(pct))
		snprintf(buf, len, "no CI");
	else
		snprintf(buf, len, "±%.*f%%", pct < 1 ? 2 : 1, pct);
	if (loud && !r->precision_reached)
		snprintf(buf + strlen(buf), len - strlen(buf), " NOT reached, %.1f s",
			 r->wall_ns / 1e9);
	return buf;
}

/*
 * Under a table of sampled rows, once: the target, how many rows reached
 * it, where each row's own precision stands ("where"); "" for none.
 */
void precision_text(const struct result_row *rows, int n, const char *where, char *buf,
		    size_t len)
{
	const struct run_result *r;
	int i, sampled = 0, reached = 0;
	double target = 0, cap_s = 0;
	size_t off = 0;

	buf[0] = 0;
	for (i = 0; i < n; i++) {
		r = &rows[i].res;
		if (rows[i].status || !r->precision_target)
			continue;
		sampled++;
		reached += r->precision_reached;
		target = r->precision_target;
		if (!r->precision_reached)
			cap_s = r->spec.opts.max_duration_ms / 1e3;
	}
	if (!sampled)
		return;
	bufcat(buf, len, &off, "Precision: %d of %d rows reached ±%g%% (%s: 95%% CI of a row's first "
	       "metric)", reached, sampled, target, where);
	if (reached < sampled)
		bufcat(buf, len, &off, "; %d stopped at the %g s cap (--max-duration)",
		       sampled - reached, cap_s);
}

/* ---- CSV (RFC 4180 quoting) ---- */

/*
 * A CSV field, quoted where it holds a comma or quote; its control
 * characters escaped (\n, \x1b), so that a record is one line whatever
 * a kernel string or a note carries.
 */
static void csv_field(FILE *f, const char *s, bool last)
{
	bool quote;
	char esc[8];
	const char *p;

	if (!s)
		s = "";
	quote = strpbrk(s, ",\"") != NULL;
	if (quote)
		fputc('"', f);
	for (p = s; *p; p++) {
		if (*p == '"')
			fputc('"', f);
		fputs(text_escape((const char[]){ *p, 0 }, esc, sizeof(esc)), f);
	}
	if (quote)
		fputc('"', f);
	fputc(last ? '\n' : ',', f);
}

/*
 * The metric columns of a CSV: every (identity, unit) of the rows in
 * order of appearance, as hyperfine's CSV has a column per statistic:
 * each metric's mean (the figure a summary shows), then its stddev.
 */
struct csv_cols {
	int n;
	char (*id)[MKEY_ID_MAX];
	const char **unit;
};

static int csv_col(const struct csv_cols *c, const char *id, const char *unit)
{
	int i;

	for (i = 0; i < c->n; i++)
		if (!strcmp(c->id[i], id) && !strcmp(c->unit[i], unit))
			return i;
	return -1;
}

static void csv_plan(const struct result_row *rows, int n, struct csv_cols *c)
{
	char id[MKEY_ID_MAX];
	const struct run_result *r;
	int i, m, cap = 0;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < n; i++) {
		r = &rows[i].res;
		for (m = 0; row_has_figures(&rows[i]) && m < r->nr_metrics; m++) {
			res_metric_id(r, m, id, sizeof(id));
			if (csv_col(c, id, r->metrics[m].unit) >= 0)
				continue;
			if (c->n == cap) {
				cap = cap ? 2 * cap : 16;
				c->id = realloc(c->id, cap * sizeof(*c->id));
				c->unit = realloc(c->unit, cap * sizeof(*c->unit));
				if (!c->id || !c->unit)
					die("out of memory");
			}
			strcpy(c->id[c->n], id);
			c->unit[c->n++] = r->metrics[m].unit;
		}
	}
}

/* Metric m's mean and stddev cells; a spread from one sample is no number: empty, as JSON's null. */
static void csv_figures(FILE *f, const struct run_result *r, int m)
{
	const struct stats *s = &r->st[m];

	fprintf(f, "%.9g,", res_shown_mean(r, m));
	if (s->n > 1 && r->metrics[m].kind != METRIC_INVERSE)
		fprintf(f, "%.9g", s->stddev);
	fputc(',', f);
}

/* The conditions of a row: the machine's, then the run's sampling and trigger. */
static void csv_conditions(FILE *f, const struct conditions *k, const struct run_result *r)
{
	const struct run_opts *o = &r->spec.opts;
	char cpus[16];

	snprintf(cpus, sizeof(cpus), "%d", k->cpus);
	csv_field(f, k->version, false);
	csv_field(f, k->git, false);
	csv_field(f, k->date, false);
	csv_field(f, k->kernel, false);
	csv_field(f, k->cpu, false);
	csv_field(f, cpus, false);
	csv_field(f, k->vm, false);
	if (!r->bench) {
		fputs(",,,,\n", f);
		return;
	}
	fprintf(f, "%g,%g,%u,%u,", o->warmup_ms / 1e3, o->duration_ms / 1e3,
		(unsigned int)o->period_ms, (unsigned int)o->runs);
	csv_field(f, r->trigger ? r->trigger : "none", true);
}

static void csv_row(FILE *f, const struct result_row *row, const char *section,
		    const struct csv_cols *c, const struct conditions *k)
{
	const struct run_result *r = &row->res;
	bool figures = row_has_figures(row);
	char id[MKEY_ID_MAX];
	int i, m;

	csv_field(f, row->suite, false);
	csv_field(f, section, false);
	csv_field(f, row->label ? row->label : r->bench ? r->bench->name : "", false);
	csv_field(f, r->bench ? r->bench->name : "", false);
	fprintf(f, "%d,", row->status);
	if (figures) {
		fprintf(f, "%d,%.6f,", r->nr_samples, r->wall_ns / 1e9);
		if (r->precision_target && !isnan(r->precision_pct))
			fprintf(f, "%.4g", r->precision_pct);
		fputc(',', f);
	} else {
		fputs(",,,", f);
	}
	for (i = 0; i < c->n; i++) {
		for (m = 0; figures && m < r->nr_metrics; m++)
			if (!strcmp(res_metric_id(r, m, id, sizeof(id)), c->id[i]) &&
			    !strcmp(r->metrics[m].unit, c->unit[i]))
				break;
		if (figures && m < r->nr_metrics)
			csv_figures(f, r, m);
		else
			fputs(",,", f);
	}
	csv_field(f, res_kept(r) ? r->error : row->status ? row->note : "", false);
	csv_conditions(f, k, r);
}

/* A row per step, a column per metric with its unit in the header (hyperfine's CSV shape). */
static void write_csv(FILE *f, const char *title, struct result_row *rows, int n)
{
	const char *section = NULL;
	struct conditions k;
	struct csv_cols c;
	char head[MKEY_ID_MAX + 80];
	int i;

	conditions_read(&k);
	csv_plan(rows, n, &c);
	fputs("suite,section,label,bench,status,n,measured_s,ci95_pct,", f);
	for (i = 0; i < c.n; i++) {
		snprintf(head, sizeof(head), "%s [%s]", c.id[i], c.unit[i]);
		csv_field(f, head, false);
		snprintf(head, sizeof(head), "%s stddev [%s]", c.id[i], c.unit[i]);
		csv_field(f, head, false);
	}
	fputs("error,bpfbench_version,git_commit,date,kernel,cpu_model,cpus,vm,warmup_s,duration_s,"
	      "period_ms,runs,trigger\n", f);
	for (i = 0; i < n; i++) {
		if (rows[i].header)
			section = rows[i].header;
		csv_row(f, &rows[i], section, &c, &k);
	}
	free(c.id);
	free(c.unit);
}

static void write_json(FILE *f, const char *title, struct result_row *rows, int n)
{
	struct run_result **runs = xcalloc(n ? n : 1, sizeof(*runs));
	int i, nr = 0;

	for (i = 0; i < n; i++) {
		if (!rows[i].res.bench)	/* never parsed: nothing the schema could say */
			continue;
		rows[i].res.label = rows[i].label;
		rows[i].res.suite = rows[i].suite;
		rows[i].res.section = rows[i].section;
		runs[nr++] = &rows[i].res;
	}
	export_json_doc(f, runs, nr);
	free(runs);
}

/* One format each, like hyperfine's exporters: the same rows, another shape. */
void json_write(FILE *f, const struct out_doc *d)
{
	write_json(f, d->title, d->rows, d->n);
}

void csv_write(FILE *f, const struct out_doc *d)
{
	write_csv(f, d->title, d->rows, d->n);
}

void md_write(FILE *f, const struct out_doc *d)
{
	export_write_md(f, d->title, d->rows, d->n);
}

int export_rows(const struct export_paths *p, const char *title,
		struct result_row *rows, int n)
{
	struct out_doc d = { .kind = OUT_K_ROWS, .title = title, .rows = rows, .n = n };

	return out_write(p->path, &d);
}

struct json_file_args {
	struct run_result *const *runs;
	int n;
};

static void write_json_file(FILE *f, void *arg)
{
	const struct json_file_args *a = arg;

	export_json_doc(f, a->runs, a->n);
}

int export_json_file(const char *path, struct run_result *const *runs, int n)
{
	struct json_file_args a = { runs, n };

	return write_file_atomic(path, write_json_file, &a);
}

int export_run(struct run_result *res)
{
	const char *const *paths = res->spec.opts.out;
	struct out_doc d = { .kind = OUT_K_ROWS, .title = res->bench->name };
	int ret;

	if (prof_write_files(res))
		return 1;
	if (!out_any(paths, OUT_K_ROWS))
		return 0;
	d.rows = xcalloc(1, sizeof(*d.rows));
	d.n = 1;
	d.rows->res = *res;	/* borrowed: the caller frees the samples */
	ret = out_write(paths, &d);
	free(d.rows);
	return ret;
}

#define COND_GROUPS	4	/* distinct run conditions a Conditions line names; more: "and others" */

int conditions_of_rows(const struct result_row *rows, int n, char *buf, size_t len)
{
	char text[COND_GROUPS][200], one[200];
	int count[COND_GROUPS] = { 0 }, groups = 0, other = 0, i, g;
	size_t off = 0;

	buf[0] = 0;
	for (i = 0; i < n; i++) {
		if (!row_has_figures(&rows[i]))
			continue;
		conditions_of_run(&rows[i].res, one, sizeof(one));
		for (g = 0; g < groups && strcmp(text[g], one); g++)
			;
		if (g == groups && groups == COND_GROUPS) {
			other++;
			continue;
		}
		if (g == groups)
			snprintf(text[groups++], sizeof(text[0]), "%s", one);
		count[g]++;
	}
	for (g = 0; g < groups && off < len; g++) {
		if (groups == 1)
			off += snprintf(buf + off, len - off, "%s", text[g]);
		else
			off += snprintf(buf + off, len - off, "%s%d of %s", g ? "; " : "", count[g], text[g]);
	}
	if (other && off < len)
		snprintf(buf + off, len - off, "; %d others (see --json)", other);
	return groups + !!other;
}
