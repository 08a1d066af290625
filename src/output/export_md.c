// SPDX-License-Identifier: GPL-2.0
/*
 * The Markdown export, shaped like hyperfine's --export-markdown and fit
 * for a patch mail: the conditions first, then a pipe table per section,
 * a row per step, a column per metric with its unit once in the header,
 * one number format per column, the figure (mean ± sd, the mean alone
 * without a spread) alone in the cell, every line within 120 columns
 * (the metric columns that do not fit are the JSON's and CSV's).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include "conditions.h"
#include "export.h"
#include "mkey.h"
#include "figure.h"
#include "report.h"
#include "summary.h"
#include "util.h"

#define MD_MAX_COLS	16	/* more metrics than this stay in JSON and CSV, said under the table */
#define MD_COLS		120	/* the widest line of the document, tables included */
#define MD_CELL		96

/* A metric column: its identity (name{key}), unit and one number format (decimals). */
struct md_col {
	char id[MKEY_ID_MAX];
	const char *unit;
	int decimals;
	bool count;
};

struct md_table {
	struct md_col col[MD_MAX_COLS];
	int n;
	int dropped;		/* metric columns left out: beyond MD_MAX_COLS or 120 columns */
	int counts;		/* count columns left out where a table has other figures */
	bool bench;		/* a Benchmark column: some row's label is not its benchmark */
	bool ci;		/* a 95% CI column: some row was sampled to a precision */
	bool note;		/* a Note column: some row was skipped or failed */
	/* the cells, drawn before the table is written: widths and what fits */
	int nr_rows, nr_cells;
	char (*cell)[MD_CELL];
	int width[MD_MAX_COLS + 4];
};

static void md_text(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		if (*s == '|' || *s == '\\')
			fputc('\\', f);
		fputc(*s == '\n' ? ' ' : *s, f);
	}
}

static int md_width(const char *s)
{
	int n = utf8_width(s);

	for (; *s; s++)
		n += *s == '|' || *s == '\\';
	return n;
}

static const char *row_label(const struct result_row *row)
{
	return row->label ? row->label : row->res.bench ? row->res.bench->name : "";
}

static int find_col(const struct md_table *t, const char *id, const char *unit)
{
	int c;

	for (c = 0; c < t->n; c++)
		if (!strcmp(t->col[c].id, id) && !strcmp(t->col[c].unit, unit))
			return c;
	return -1;
}

static int metric_of(const struct run_result *r, const struct md_col *col)
{
	char id[MKEY_ID_MAX];
	int m;

	for (m = 0; m < r->nr_metrics; m++)
		if (!strcmp(res_metric_id(r, m, id, sizeof(id)), col->id) &&
		    !strcmp(r->metrics[m].unit, col->unit))
			return m;
	return -1;
}

static void plan_col(struct md_table *t, const struct run_result *r, int m, bool counts)
{
	char id[MKEY_ID_MAX];
	int c;

	if ((r->metrics[m].kind == METRIC_COUNT) != counts)
		return;
	res_metric_id(r, m, id, sizeof(id));
	c = find_col(t, id, r->metrics[m].unit);
	if (c < 0 && t->n == MD_MAX_COLS) {
		t->dropped++;
		return;
	}
	if (c < 0) {
		c = t->n++;
		strcpy(t->col[c].id, id);
		t->col[c].unit = r->metrics[m].unit;
		t->col[c].count = counts;
	}
	if (report_metric_decimals(r, m) > t->col[c].decimals)
		t->col[c].decimals = report_metric_decimals(r, m);
}

/*
 * The columns of rows [from, to): every figure in order of appearance;
 * the raw counts only where there is nothing else (they are the JSON's
 * and CSV's), each column's decimals the finest its cells want.
 */
static void md_plan(struct md_table *t, const struct result_row *rows, int from, int to)
{
	const struct run_result *r;
	int i, m, pass;

	memset(t, 0, sizeof(*t));
	for (pass = 0; pass < 2 && !t->n; pass++) {
		for (i = from; i < to; i++) {
			r = &rows[i].res;
			if (r->bench && strcmp(row_label(&rows[i]), r->bench->name))
				t->bench = true;
			if (!row_has_figures(&rows[i])) {
				t->note = true;
				continue;
			}
			t->ci |= r->precision_target > 0;
			for (m = 0; m < r->nr_metrics; m++)
				plan_col(t, r, m, pass == 1);
		}
	}
	for (i = from; i < to && t->n && !t->col[0].count; i++)
		for (m = 0; row_has_figures(&rows[i]) && m < rows[i].res.nr_metrics; m++)
			t->counts += rows[i].res.metrics[m].kind == METRIC_COUNT;
}

static void col_head(const struct md_col *c, char *buf, size_t len)
{
	if (!strcmp(c->id, c->unit))	/* "ops [ops]" says its unit once */
		snprintf(buf, len, "%s", c->id);
	else
		snprintf(buf, len, "%s [%s]", c->id, c->unit);
}

/* The text of every cell, the head's row first: [row][Step, Benchmark, metrics..., CI, Note]. */
static char *cell_at(struct md_table *t, int row, int col)
{
	return t->cell[row * t->nr_cells + col];
}

static void draw_row(struct md_table *t, int k, const struct result_row *row)
{
	const struct run_result *r = &row->res;
	bool figures = row_has_figures(row);
	int c, m, x = 0;

	snprintf(cell_at(t, k, x++), MD_CELL, "%s", row_label(row));
	if (t->bench)
		snprintf(cell_at(t, k, x++), MD_CELL, "%s", r->bench ? r->bench->name : "");
	for (c = 0; c < t->n; c++, x++) {
		m = figures ? metric_of(r, &t->col[c]) : -1;
		if (m >= 0)
			report_metric_cell(cell_at(t, k, x), MD_CELL, r, m, t->col[c].decimals);
	}
	if (t->ci)
		row_ci(row, false, cell_at(t, k, x++), MD_CELL);
	if (!t->note)
		return;
	if (row->status == EXIT_SKIP)
		snprintf(cell_at(t, k, x), MD_CELL, "SKIP: %s", row->note);
	else if (!figures)
		snprintf(cell_at(t, k, x), MD_CELL, "FAILED (exit %d): %s", row->status, row->note);
}

static void draw(struct md_table *t, const struct result_row *rows, int from, int to)
{
	int i, x = 0, c;

	t->nr_rows = to - from + 1;
	t->nr_cells = 1 + t->bench + t->n + t->ci + t->note;
	t->cell = xcalloc((size_t)t->nr_rows * t->nr_cells, sizeof(*t->cell));
	snprintf(cell_at(t, 0, x++), MD_CELL, "Step");
	if (t->bench)
		snprintf(cell_at(t, 0, x++), MD_CELL, "Benchmark");
	for (c = 0; c < t->n; c++)
		col_head(&t->col[c], cell_at(t, 0, x++), MD_CELL);
	if (t->ci)
		snprintf(cell_at(t, 0, x++), MD_CELL, "95%% CI");
	if (t->note)
		snprintf(cell_at(t, 0, x), MD_CELL, "Note");
	for (i = from; i < to; i++)
		draw_row(t, i - from + 1, &rows[i]);
	for (x = 0; x < t->nr_cells; x++)
		for (i = 0; i < t->nr_rows; i++)
			if (md_width(cell_at(t, i, x)) > t->width[x])
				t->width[x] = md_width(cell_at(t, i, x));
}

static bool is_metric_cell(const struct md_table *t, int x)
{
	return x >= 1 + t->bench && x < 1 + t->bench + t->n;
}

/* Metric columns from the right leave while a line is wider than MD_COLS (one always stays). */
static void fit(struct md_table *t, bool *shown)
{
	int x, total = 1, last;

	for (x = 0; x < t->nr_cells; x++) {
		shown[x] = true;
		total += t->width[x] + 3;
	}
	/* a Note's text may be long: it is the one column allowed past the edge */
	if (t->note)
		total -= t->width[t->nr_cells - 1] + 3 - 8;
	for (last = 1 + t->bench + t->n - 1; total > MD_COLS && last > 1 + t->bench; last--) {
		shown[last] = false;
		total -= t->width[last] + 3;
		t->dropped++;
	}
}

static void write_line(FILE *f, const struct md_table *t, const bool *shown, int row)
{
	const char *s;
	int x, pad;

	fputc('|', f);
	for (x = 0; x < t->nr_cells; x++) {
		if (!shown[x])
			continue;
		s = cell_at((struct md_table *)t, row, x);
		pad = t->width[x] - md_width(s);
		if (t->note && x == t->nr_cells - 1)
			pad = 0;	/* the last column's text ends the line */
		fputc(' ', f);
		if (is_metric_cell(t, x) || (t->ci && x == 1 + t->bench + t->n))
			fprintf(f, "%*s", pad > 0 ? pad : 0, "");
		md_text(f, s);
		if (!is_metric_cell(t, x) && !(t->ci && x == 1 + t->bench + t->n))
			fprintf(f, "%*s", pad > 0 ? pad : 0, "");
		fputs(" |", f);
	}
	fputc('\n', f);
}

static void write_rule(FILE *f, const struct md_table *t, const bool *shown)
{
	int x, w;

	fputc('|', f);
	for (x = 0; x < t->nr_cells; x++) {
		if (!shown[x])
			continue;
		w = t->note && x == t->nr_cells - 1 ? 3 : t->width[x];
		fputc(is_metric_cell(t, x) || (t->ci && x == 1 + t->bench + t->n) ? '-' : ':', f);
		fprintf(f, "%.*s", w, "--------------------------------------------------------------"
			"-------------------------------------------------------------------");
		fputs(is_metric_cell(t, x) || (t->ci && x == 1 + t->bench + t->n) ? ":|" : "-|", f);
	}
	fputc('\n', f);
}

static void md_section(FILE *f, const char *title, const struct result_row *rows, int from,
		       int to)
{
	bool shown[MD_MAX_COLS + 4];
	struct md_table t;
	int i;

	md_plan(&t, rows, from, to);
	draw(&t, rows, from, to);
	fit(&t, shown);
	if (title) {
		fputs("## ", f);
		md_text(f, title);
		fputs("\n\n", f);
	}
	write_line(f, &t, shown, 0);
	write_rule(f, &t, shown);
	for (i = 1; i < t.nr_rows; i++)
		write_line(f, &t, shown, i);
	if (t.dropped || t.counts)
		fprintf(f, "\n%d more metric%s (%d of them counts) in the JSON and CSV exports.\n",
			t.dropped + t.counts, t.dropped + t.counts == 1 ? "" : "s", t.counts);
	fputc('\n', f);
	free(t.cell);
}

/* The first row that ran: whose conditions the header gives (every row's are in the JSON). */
static const struct run_result *first_run(const struct result_row *rows, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (row_has_figures(&rows[i]))
			return &rows[i].res;
	return NULL;
}

struct md_rows {
	const struct result_row *rows;
	int n;
};

/* Whether every row that ran has option i of r, at r's value. */
static bool shared_by_all(const struct run_result *r, int i, const void *ctx)
{
	const struct md_rows *mr = ctx;
	const struct run_result *o;
	int j, k;

	for (j = 0; j < mr->n; j++) {
		o = &mr->rows[j].res;
		if (!row_has_figures(&mr->rows[j]))
			continue;
		for (k = 0; k < o->nr_opts; k++)
			if (!strcmp(o->opts[k].def->name, r->opts[i].def->name))
				break;
		if (k == o->nr_opts || !opts_same(r->opts[i].def, res_opt_args(r, i),
						  o->opts[k].def, res_opt_args(o, k)))
			return false;
	}
	return true;
}

/* The conditions, a list item each, none wider than MD_COLS. */
static void md_conditions(FILE *f, const struct result_row *rows, int n)
{
	const struct run_result *r = first_run(rows, n);
	struct conditions c;
	char text[600], run[200];

	conditions_read(&c);
	snprintf(text, sizeof(text), "bpfbench %s (commit %s), %s", c.version, c.git, c.date);
	report_wrapped(f, "- ", text);
	snprintf(text, sizeof(text), "kernel %s (%s), %s, %d CPUs", c.kernel, c.machine, c.cpu,
		 c.cpus);
	report_wrapped(f, "- ", text);
	if (*c.vm)
		report_wrapped(f, "- in a VM: ", c.vm);
	if (r) {
		bool differ = conditions_of_rows(rows, n, text, sizeof(text)) > 1;

		conditions_of_run(r, run, sizeof(run));
		snprintf(text, sizeof(text), "%s%s", run, differ ? " (the first row's; the rows differ: "
			 "see the JSON)" : "");
		report_wrapped(f, "- runs: ", text);
		/* the benchmark options every row has alike, away from their defaults: a suite's fixed ones */
		summary_options(text, sizeof(text), r, false, shared_by_all,
				&(struct md_rows){ rows, n });
		if (*text)
			report_wrapped(f, "- every row: ", text);
	}
	fputs("- figures: mean ± sample standard deviation in the unit of their column; the mean "
	      "alone for one sample\n  or an exact count\n\n", f);
}

void export_write_md(FILE *f, const char *title, struct result_row *rows, int n)
{
	char text[512];
	int i, from = 0;

	fputs("# bpfbench: ", f);
	md_text(f, title);
	fputs("\n\n", f);
	md_conditions(f, rows, n);
	if (interrupted())
		fprintf(f, "**Interrupted** by signal %d: the steps completed before it.\n\n",
			interrupted_signal());
	for (i = 1; i <= n; i++) {
		if (i < n && !rows[i].header)
			continue;
		md_section(f, rows[from].header, rows, from, i);
		from = i;
	}
	precision_text(rows, n, "column 95% CI", text, sizeof(text));
	if (*text)
		report_wrapped(f, "", text);
}
