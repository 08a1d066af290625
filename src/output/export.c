// SPDX-License-Identifier: GPL-2.0
/*
 * Exports of result rows.  JSON is the result document (export_json.c) with
 * every run that got as far as a benchmark; CSV has one line per run and
 * metric, for spreadsheets; Markdown is the printed table, for reports.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/utsname.h>
#include "export.h"
#include "mkey.h"
#include "report.h"
#include "outfile.h"
#include "util.h"

static void appendf(char *buf, size_t len, size_t *off, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void appendf(char *buf, size_t len, size_t *off, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*off >= len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + *off, len - *off, fmt, ap);
	va_end(ap);
	if (n > 0)
		*off += (size_t)n;
}

/* "name figure unit, ..." for the first max_metrics metrics (0: all). */
static void metrics_summary(const struct run_result *r, int max_metrics, char *buf, size_t len,
			    size_t *off)
{
	char n1[64], id[MKEY_ID_MAX];
	int i;

	for (i = 0; i < r->nr_metrics; i++) {
		if (max_metrics && i == max_metrics) {
			appendf(buf, len, off, " (+%d more metrics in --json/--csv)",
				r->nr_metrics - i);
			break;
		}
		appendf(buf, len, off, "%s%s %s %s", i ? ", " : "", res_metric_id(r, i, id, sizeof(id)),
			report_metric_figure(n1, sizeof(n1), r, i), r->metrics[i].unit);
	}
}

void row_summary(const struct result_row *row, int max_metrics, char *buf, size_t len)
{
	const struct run_result *r = &row->res;
	size_t off = 0;

	buf[0] = 0;
	if (row->status == EXIT_SKIP) {
		appendf(buf, len, &off, "SKIP: %s", row->note);
		return;
	}
	if (row->status || !r->bench) {
		appendf(buf, len, &off, "FAILED (exit %d): %s", row->status, row->note);
		return;
	}
	if (r->bench->format_row) {
		r->bench->format_row(r, buf, len);
		off = strlen(buf);
	} else {
		metrics_summary(r, max_metrics, buf, len, &off);
	}
	/* precision_pct is NaN until two samples give a CI */
	if (r->precision_target && isnan(r->precision_pct))
		appendf(buf, len, &off, " [no CI: 1 sample, %.1lf s]", r->wall_ns / 1e9);
	else if (r->precision_target)
		appendf(buf, len, &off, " [CI ±%.2lf%%%s, %.1lf s]", r->precision_pct,
			r->precision_reached ? "" : " NOT reached", r->wall_ns / 1e9);
}

/* ---- CSV (RFC 4180 quoting) ---- */

#define CSV_MAX_KEYS	8	/* key fields as columns; more stay in JSON */

static void csv_field(FILE *f, const char *s, bool last)
{
	const char *p;

	if (!s)
		s = "";
	if (strpbrk(s, ",\"\r\n")) {
		fputc('"', f);
		for (p = s; *p; p++) {
			if (*p == '"')
				fputc('"', f);
			fputc(*p, f);
		}
		fputc('"', f);
	} else {
		fputs(s, f);
	}
	fputc(last ? '\n' : ',', f);
}

/* A spread from one sample is no number: the field stays empty, as JSON's null. */
static void csv_spread(FILE *f, const struct stats *s, double v)
{
	if (s->n > 1)
		fprintf(f, "%.9g", v);
	fputc(',', f);
}

/*
 * The key fields of every metric of the rows ("op", "batch"), in order
 * of appearance: each a CSV column after "metric", empty where a metric
 * lacks it, so a script can group by them.
 */
struct csv_keys {
	int n;
	char name[CSV_MAX_KEYS][MKEY_MAX];
};

static void csv_key_names(const struct result_row *rows, int n, struct csv_keys *k)
{
	char name[MKEY_MAX], val[MKEY_MAX];
	const struct run_result *r;
	const char *pos;
	int i, m, j;

	k->n = 0;
	for (i = 0; i < n; i++) {
		r = &rows[i].res;
		for (m = 0; r->bench && m < r->nr_metrics; m++) {
			pos = r->metrics[m].key;
			while (mkey_next(&pos, name, sizeof(name), val, sizeof(val))) {
				for (j = 0; j < k->n && strcmp(k->name[j], name); j++)
					;
				if (j == k->n && k->n < CSV_MAX_KEYS)
					strcpy(k->name[k->n++], name);
			}
		}
	}
}

static void csv_metric(FILE *f, const struct run_result *r, int i, const struct csv_keys *k)
{
	const struct stats *s = &r->st[i];
	char val[MKEY_MAX];
	int j;

	csv_field(f, r->metrics[i].name, false);
	for (j = 0; j < k->n; j++)
		csv_field(f, mkey_get(r->metrics[i].key, k->name[j], val, sizeof(val)) ? val : "",
			  false);
	csv_field(f, r->metrics[i].unit, false);
	fprintf(f, "%d,%.9g,", s->n, s->mean);
	csv_spread(f, s, s->stddev);
	fprintf(f, "%.9g,%.9g,%.9g,", s->median, s->min, s->max);
	csv_spread(f, s, s->ci95_low);
	csv_spread(f, s, s->ci95_high);
	fprintf(f, "%.6f,", r->wall_ns / 1e9);
}

static void csv_row(FILE *f, const struct result_row *row, const char *section,
		    const struct csv_keys *k)
{
	const struct run_result *r = &row->res;
	const char *bench = r->bench ? r->bench->name : "";
	char status[16];
	int i, j, nr = r->bench && !row->status ? r->nr_metrics : 0;

	snprintf(status, sizeof(status), "%d", row->status);
	for (i = 0; i < (nr ? nr : 1); i++) {
		csv_field(f, row->suite, false);
		csv_field(f, section, false);
		csv_field(f, row->label ? row->label : bench, false);
		csv_field(f, bench, false);
		csv_field(f, status, false);
		if (nr) {
			csv_metric(f, r, i, k);
		} else {
			for (j = 0; j < k->n; j++)
				fputc(',', f);
			fputs(",,,,,,,,,,,", f);
		}
		csv_field(f, row->status ? row->note : "", true);
	}
}

static void write_csv(FILE *f, const char *title, struct result_row *rows, int n)
{
	const char *section = NULL;
	struct csv_keys k;
	int i;

	csv_key_names(rows, n, &k);
	fputs("suite,section,label,bench,status,metric,", f);
	for (i = 0; i < k.n; i++)
		csv_field(f, k.name[i], false);
	fputs("unit,n,mean,stddev,median,min,max,ci95_low,ci95_high,measured_s,error\n", f);
	for (i = 0; i < n; i++) {
		if (rows[i].header)
			section = rows[i].header;
		csv_row(f, &rows[i], section, &k);
	}
}

/* ---- Markdown ---- */

static void md_cell(FILE *f, const char *s)
{
	fputs("| ", f);
	for (; s && *s; s++) {
		if (*s == '|')
			fputc('\\', f);
		fputc(*s == '\n' ? ' ' : *s, f);
	}
	fputc(' ', f);
}

#define MD_MAX_COLS	6	/* more metrics than this stay in JSON and CSV */

/* A metric's column title: its identity, name{key}. */
typedef char md_name[MKEY_ID_MAX];

/* The metric columns of rows [from, to): the first MD_MAX_COLS identities, in order of appearance. */
static int md_columns(struct result_row *rows, int from, int to, md_name *names)
{
	const struct run_result *r;
	char id[MKEY_ID_MAX];
	int i, m, k, n = 0;

	for (i = from; i < to; i++) {
		r = &rows[i].res;
		if (rows[i].status || !r->bench || r->bench->format_row)
			continue;
		for (m = 0; m < r->nr_metrics && n < MD_MAX_COLS; m++) {
			res_metric_id(r, m, id, sizeof(id));
			for (k = 0; k < n && strcmp(names[k], id); k++)
				;
			if (k == n)
				strcpy(names[n++], id);
		}
	}
	return n;
}

static void md_figure(FILE *f, const struct run_result *r, const char *name)
{
	char fig[64], cell[128], id[MKEY_ID_MAX];
	int i;

	for (i = 0; i < r->nr_metrics && strcmp(res_metric_id(r, i, id, sizeof(id)), name); i++)
		;
	if (i == r->nr_metrics) {
		md_cell(f, "");
		return;
	}
	report_metric_figure(fig, sizeof(fig), r, i);
	snprintf(cell, sizeof(cell), "%s %s", fig, r->metrics[i].unit);
	md_cell(f, cell);
}

static void md_note(FILE *f, const struct result_row *row)
{
	char note[400];

	if (row->status == EXIT_SKIP)
		snprintf(note, sizeof(note), "SKIP: %s", row->note);
	else if (row->status || !row->res.bench)
		snprintf(note, sizeof(note), "FAILED (exit %d): %s", row->status, row->note);
	else if (row->res.bench->format_row)
		snprintf(note, sizeof(note), "see below");
	else
		note[0] = 0;
	md_cell(f, note);
}

/* One section: a table whose columns are its metrics; a family's own table follows it. */
static void md_section(FILE *f, const char *title, struct result_row *rows, int from, int to)
{
	md_name names[MD_MAX_COLS];
	char text[8192];
	int i, c, n = md_columns(rows, from, to, names);

	if (title)
		fprintf(f, "## %s\n\n", title);
	fputs("| Step | Benchmark", f);
	for (c = 0; c < n; c++)
		fprintf(f, " | %s", names[c]);
	fputs(" | Note |\n|---|---", f);
	for (c = 0; c <= n; c++)
		fputs("|---", f);
	fputs("|\n", f);
	for (i = from; i < to; i++) {
		md_cell(f, rows[i].label ? rows[i].label : rows[i].res.bench ?
			rows[i].res.bench->name : "");
		md_cell(f, rows[i].res.bench ? rows[i].res.bench->name : "");
		for (c = 0; c < n; c++) {
			if (rows[i].status || !rows[i].res.bench)
				md_cell(f, "");
			else
				md_figure(f, &rows[i].res, names[c]);
		}
		md_note(f, &rows[i]);
		fputs("|\n", f);
	}
	fputc('\n', f);
	for (i = from; i < to; i++) {
		if (rows[i].status || !rows[i].res.bench || !rows[i].res.bench->format_row)
			continue;
		row_summary(&rows[i], 0, text, sizeof(text));
		fprintf(f, "%s:\n\n```\n%s\n```\n\n", rows[i].label ? rows[i].label :
			rows[i].res.bench->name, text);
	}
}

static void write_md(FILE *f, const char *title, struct result_row *rows, int n)
{
	struct utsname u;
	int i, from = 0;

	uname(&u);
	fprintf(f, "# bpfbench: %s\n\nKernel %s (%s), %d CPUs. Mean ± sample standard deviation.\n\n",
		title, u.release, u.machine, nr_online_cpus());
	for (i = 1; i <= n; i++) {
		if (i < n && !rows[i].header)
			continue;
		md_section(f, rows[from].header, rows, from, i);
		from = i;
	}
}

/* The rows and what they are, as every exporter receives them. */
struct export_doc {
	const char *title;
	struct result_row *rows;
	int n;
	void (*write)(FILE *f, const char *title, struct result_row *rows, int n);
};

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
static const struct exporter {
	const char *option;
	size_t path;		/* where its FILE is in struct export_paths */
	void (*write)(FILE *f, const char *title, struct result_row *rows, int n);
} exporters[] = {
	{ "json", offsetof(struct export_paths, json), write_json },
	{ "csv", offsetof(struct export_paths, csv), write_csv },
	{ "md", offsetof(struct export_paths, md), write_md },
};

static void write_doc(FILE *f, void *arg)
{
	const struct export_doc *d = arg;

	d->write(f, d->title, d->rows, d->n);
}

int export_rows(const struct export_paths *p, const char *title,
		struct result_row *rows, int n)
{
	struct export_doc d = { title, rows, n, NULL };
	const char *path;
	size_t i;
	int err, ret = 0;

	for (i = 0; i < ARRAY_SIZE(exporters); i++) {
		path = *(const char *const *)((const char *)p + exporters[i].path);
		if (!path)
			continue;
		d.write = exporters[i].write;
		err = write_file_atomic(path, write_doc, &d);
		if (err) {
			errmsg("cannot write %s: %s", path, strerror(-err));
			ret = 1;
		}
	}
	return ret;
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

int export_run(const struct export_paths *p, struct run_result *res)
{
	struct result_row *row;
	int ret;

	if (!p->json && !p->csv && !p->md)
		return 0;
	row = xcalloc(1, sizeof(*row));
	row->res = *res;	/* borrowed: the caller frees the samples */
	ret = export_rows(p, res->bench->name, row, 1);
	free(row);
	return ret;
}
