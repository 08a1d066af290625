// SPDX-License-Identifier: GPL-2.0
/*
 * The Markdown export, shaped like hyperfine's --export-markdown and fit
 * for a patch mail whose reader has no JSON: the conditions first, then a
 * pipe table per section, a row per step, a column per metric with its
 * unit once in the header, every figure by the digits rule (figure.h), and
 * beside them what the text table says: how a row ran where it differs
 * from the first, its noise, its benchmark's notes.  Every line is within
 * 120 columns: the metric columns that do not fit go on in a table of
 * their own under the first, keyed by the same Step.
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
#include "rows.h"
#include "summary.h"
#include "util.h"

#define MD_MAX_COLS	16	/* more metrics than this in a section stay in JSON and CSV */
#define MD_COLS		120	/* the widest line of the document, tables included */
#define MD_CELL		96
#define MD_EXTRA	6	/* Step, Benchmark, 95% CI, Noise, Runs, Note */

enum md_kind { MD_STEP, MD_BENCH, MD_METRIC, MD_CI, MD_NOISE, MD_RUNS, MD_NOTE };

/* A metric column: its identity (name{key}), unit and the format of its cells without ±. */
struct md_col {
	char id[MKEY_ID_MAX];
	const char *unit;
	int decimals;
	bool count;
};

/* What the document said and left out, once for all its sections. */
struct md_doc {
	const struct run_result *first;	/* the runs line's: the rows' Runs cells are against it */
	struct rows_said said;
	char (*hidden)[MKEY_ID_MAX];	/* metrics no table shows: the JSON's and CSV's */
	int nr_hidden, hidden_counts, cap;
};

struct md_table {
	struct md_col col[MD_MAX_COLS];
	int n;
	bool bench;		/* a Benchmark column: some row's label is not its benchmark */
	bool ci;		/* a 95% CI column: some row was sampled to a precision */
	bool noise;		/* a Noise column: the noise moved some row's figure */
	bool runs;		/* a Runs column: some row ran otherwise than the first */
	bool note;		/* a Note column: some row was skipped or failed */
	/* the cells, drawn before the table is written: widths, kinds and the tables they go in */
	int nr_rows, nr_cells;
	char (*cell)[MD_CELL];
	enum md_kind kind[MD_MAX_COLS + MD_EXTRA];
	int width[MD_MAX_COLS + MD_EXTRA];
	int group[MD_MAX_COLS + MD_EXTRA];	/* the table of a metric column: 0, then continued */
	int nr_groups;
};

static bool is_control(char c)
{
	return (unsigned char)c < 0x20 || c == 0x7f;
}

/* A control character as text: "\n", "\x1b" (util.h's text_escape()). */
static const char *control_text(char c, char *buf, size_t len)
{
	return text_escape((const char[]){ c, 0 }, buf, len);
}

/* Text in a line of Markdown: its | and \ escaped, its controls shown escaped ("\\n"). */
static void md_text(FILE *f, const char *s)
{
	char esc[8];

	for (; s && *s; s++) {
		if (*s == '|' || *s == '\\' || is_control(*s))
			fputc('\\', f);
		if (is_control(*s))
			fputs(control_text(*s, esc, sizeof(esc)), f);
		else
			fputc(*s, f);
	}
}

static int md_width(const char *s)
{
	int n = utf8_width(s);
	char esc[8];

	for (; *s; s++)
		n += *s == '|' || *s == '\\' ? 1 :
		     is_control(*s) ? (int)strlen(control_text(*s, esc, sizeof(esc))) : 0;
	return n;
}

static const char *row_label(const struct result_row *row)
{
	return row->label ? row->label : row->res.bench ? row->res.bench->name : "";
}

/* A result drawn as a table of its own (REPORT_TABLE), under the section's. */
static bool keyed(const struct run_result *r)
{
	return r->bench && r->bench->report.shape == REPORT_TABLE;
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
	if (c < 0 && t->n == MD_MAX_COLS)
		return;	/* hidden (md_hidden) */
	if (c < 0) {
		c = t->n++;
		strcpy(t->col[c].id, id);
		t->col[c].unit = r->metrics[m].unit;
		t->col[c].count = counts;
	}
	if (report_metric_decimals(r, m) > t->col[c].decimals)
		t->col[c].decimals = report_metric_decimals(r, m);
}

/* A metric no table of the document shows, counted once however many rows have it. */
static void hide(struct md_doc *d, const char *id, bool count)
{
	int i;

	for (i = 0; i < d->nr_hidden; i++)
		if (!strcmp(d->hidden[i], id))
			return;
	if (d->nr_hidden == d->cap) {
		d->cap = d->cap ? 2 * d->cap : 32;
		d->hidden = realloc(d->hidden, d->cap * sizeof(*d->hidden));
		if (!d->hidden)
			die("out of memory");
	}
	strcpy(d->hidden[d->nr_hidden++], id);
	d->hidden_counts += count;
}

/* What rows [from, to) hold that the section's columns and keyed tables do not show. */
static void md_hidden(struct md_doc *d, const struct md_table *t, const struct result_row *rows,
		      int from, int to)
{
	const struct run_result *r;
	char id[MKEY_ID_MAX];
	int i, m;

	for (i = from; i < to; i++) {
		r = &rows[i].res;
		for (m = 0; row_has_figures(&rows[i]) && m < r->nr_metrics; m++) {
			res_metric_id(r, m, id, sizeof(id));
			if (keyed(r) ? mkey_none(r->metrics[m].key) :
			    find_col(t, id, r->metrics[m].unit) < 0)
				hide(d, id, r->metrics[m].kind == METRIC_COUNT);
		}
	}
}

/*
 * The columns of rows [from, to): every figure in order of appearance;
 * the raw counts only where there is nothing else (they are the JSON's
 * and CSV's), each column's format the finest its cells without ± want.
 */
static void md_plan(struct md_table *t, const struct md_doc *d, const struct result_row *rows,
		    int from, int to)
{
	const struct run_result *r;
	char runs[160];
	int i, m, pass;

	memset(t, 0, sizeof(*t));
	for (pass = 0; pass < 2 && !t->n; pass++) {
		for (i = from; i < to; i++) {
			r = &rows[i].res;
			if (r->bench && strcmp(row_label(&rows[i]), r->bench->name))
				t->bench = true;
			if (!row_has_figures(&rows[i]) || res_kept(r)) {
				t->note = true;	/* why not, or why fewer repetitions */
				if (!row_has_figures(&rows[i]))
					continue;
			}
			t->ci |= r->precision_target > 0;
			t->noise |= row_noise(&rows[i]) != NULL;
			t->runs |= *row_runs(&rows[i], d->first, runs, sizeof(runs)) != 0;
			for (m = 0; !keyed(r) && m < r->nr_metrics; m++)
				plan_col(t, r, m, pass == 1);
		}
	}
}

static void col_head(const struct md_col *c, char *buf, size_t len)
{
	if (!strcmp(c->id, c->unit))	/* "ops [ops]" says its unit once */
		snprintf(buf, len, "%s", c->id);
	else
		snprintf(buf, len, "%s [%s]", c->id, c->unit);
}

/* The text of every cell, the head's row first: [row][Step, Benchmark, metrics..., CI, ...]. */
static char *cell_at(const struct md_table *t, int row, int col)
{
	return t->cell[row * t->nr_cells + col];
}

static void draw_row(struct md_table *t, const struct md_doc *d, int k,
		     const struct result_row *row)
{
	const struct run_result *r = &row->res;
	bool figures = row_has_figures(row);
	const char *noise = row_noise(row);
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
	if (t->noise)
		snprintf(cell_at(t, k, x++), MD_CELL, "%s", noise ? noise : "");
	if (t->runs)
		row_runs(row, d->first, cell_at(t, k, x++), MD_CELL);
	if (!t->note)
		return;
	if (row->status == EXIT_SKIP)
		snprintf(cell_at(t, k, x), MD_CELL, "SKIP: %s", row->note);
	else if (!figures)
		snprintf(cell_at(t, k, x), MD_CELL, "FAILED (exit %d): %s", row->status, row->note);
	else if (res_kept(r))
		snprintf(cell_at(t, k, x), MD_CELL, "%s", r->error);
}

static void head_row(struct md_table *t)
{
	int c, x = 0;

	t->kind[x] = MD_STEP;
	snprintf(cell_at(t, 0, x++), MD_CELL, "Step");
	if (t->bench) {
		t->kind[x] = MD_BENCH;
		snprintf(cell_at(t, 0, x++), MD_CELL, "Benchmark");
	}
	for (c = 0; c < t->n; c++) {
		t->kind[x] = MD_METRIC;
		col_head(&t->col[c], cell_at(t, 0, x++), MD_CELL);
	}
	if (t->ci) {
		t->kind[x] = MD_CI;
		snprintf(cell_at(t, 0, x++), MD_CELL, "95%% CI");
	}
	if (t->noise) {
		t->kind[x] = MD_NOISE;
		snprintf(cell_at(t, 0, x++), MD_CELL, "Noise");
	}
	if (t->runs) {
		t->kind[x] = MD_RUNS;
		snprintf(cell_at(t, 0, x++), MD_CELL, "Runs");
	}
	if (t->note) {
		t->kind[x] = MD_NOTE;
		snprintf(cell_at(t, 0, x), MD_CELL, "Note");
	}
}

static void draw(struct md_table *t, const struct md_doc *d, const struct result_row *rows,
		 int from, int to)
{
	int i, x;

	t->nr_rows = to - from + 1;
	t->nr_cells = 1 + t->bench + t->n + t->ci + t->noise + t->runs + t->note;
	t->cell = xcalloc((size_t)t->nr_rows * t->nr_cells, sizeof(*t->cell));
	head_row(t);
	for (i = from; i < to; i++)
		draw_row(t, d, i - from + 1, &rows[i]);
	for (x = 0; x < t->nr_cells; x++)
		for (i = 0; i < t->nr_rows; i++)
			if (md_width(cell_at(t, i, x)) > t->width[x])
				t->width[x] = md_width(cell_at(t, i, x));
}

/* A Note's text may be long: it is the one column allowed past the edge. */
static int col_cost(const struct md_table *t, int x)
{
	return (t->kind[x] == MD_NOTE ? 8 : t->width[x]) + 3;
}

/*
 * The tables the metric columns go in: the first has every other column
 * and the metrics that fit MD_COLS; the rest go on, a table of Step and
 * metrics at a time, each with one metric at least.
 */
static void fit(struct md_table *t)
{
	int x, total = 1, g = 0, in_group = 0;

	for (x = 0; x < t->nr_cells; x++)
		if (t->kind[x] != MD_METRIC)
			total += col_cost(t, x);
	for (x = 0; x < t->nr_cells; x++) {
		if (t->kind[x] != MD_METRIC)
			continue;
		if (in_group && total + col_cost(t, x) > MD_COLS) {
			g++;
			in_group = 0;
			total = 1 + col_cost(t, 0);
		}
		t->group[x] = g;
		total += col_cost(t, x);
		in_group++;
	}
	t->nr_groups = g + 1;
}

/* Whether column x is in table g: Step in every one, the rest of the row's columns in the first. */
static bool in_table(const struct md_table *t, int x, int g)
{
	return t->kind[x] == MD_STEP || (t->kind[x] == MD_METRIC ? t->group[x] == g : !g);
}

static bool right_aligned(const struct md_table *t, int x)
{
	return t->kind[x] == MD_METRIC || t->kind[x] == MD_CI;
}

static void write_line(FILE *f, const struct md_table *t, int g, int row)
{
	const char *s;
	int x, pad;

	fputc('|', f);
	for (x = 0; x < t->nr_cells; x++) {
		if (!in_table(t, x, g))
			continue;
		s = cell_at(t, row, x);
		pad = t->kind[x] == MD_NOTE ? 0 : t->width[x] - md_width(s);	/* its text ends the line */
		fputc(' ', f);
		if (right_aligned(t, x))
			fprintf(f, "%*s", pad > 0 ? pad : 0, "");
		md_text(f, s);
		if (!right_aligned(t, x))
			fprintf(f, "%*s", pad > 0 ? pad : 0, "");
		fputs(" |", f);
	}
	fputc('\n', f);
}

static void write_rule(FILE *f, const struct md_table *t, int g)
{
	int x, w;

	fputc('|', f);
	for (x = 0; x < t->nr_cells; x++) {
		if (!in_table(t, x, g))
			continue;
		w = t->kind[x] == MD_NOTE ? 3 : t->width[x];
		fputc(right_aligned(t, x) ? '-' : ':', f);
		while (w--)
			fputc('-', f);
		fputs(right_aligned(t, x) ? ":|" : "-|", f);
	}
	fputc('\n', f);
}

/* Whether a row has a figure in table g: the tables after the first show the rows they go on. */
static bool row_in_table(const struct md_table *t, int g, int row)
{
	int x;

	for (x = 0; g && x < t->nr_cells; x++)
		if (t->kind[x] == MD_METRIC && t->group[x] == g && *cell_at(t, row, x))
			return true;
	return !g;
}

/* The rows drawn as tables of their own (map-batch's op x batch), each under its name. */
static void keyed_tables(FILE *f, const struct result_row *rows, int from, int to)
{
	char opts[512];
	int i;

	for (i = from; i < to; i++) {
		if (!row_has_figures(&rows[i]) || !keyed(&rows[i].res))
			continue;
		summary_options(opts, sizeof(opts), &rows[i].res, false, NULL, NULL);
		md_text(f, row_label(&rows[i]));
		fputs(*opts ? "," : ", its defaults", f);
		md_text(f, opts);
		fputs(":\n\n", f);
		table_write_md(f, &rows[i].res);
		fputc('\n', f);
	}
}

static void md_section(FILE *f, struct md_doc *d, const char *title,
		       const struct result_row *rows, int from, int to)
{
	struct md_table t;
	int i, g;

	md_plan(&t, d, rows, from, to);
	md_hidden(d, &t, rows, from, to);
	draw(&t, d, rows, from, to);
	fit(&t);
	if (title) {
		fputs("## ", f);
		md_text(f, title);
		fputs("\n\n", f);
	}
	/* a section of tables of their own alone needs no table of their names */
	for (g = 0; g < t.nr_groups && (t.n || t.nr_cells > 1 + t.bench); g++) {
		write_line(f, &t, g, 0);
		write_rule(f, &t, g);
		for (i = 1; i < t.nr_rows; i++)
			if (row_in_table(&t, g, i))
				write_line(f, &t, g, i);
		fputc('\n', f);
	}
	keyed_tables(f, rows, from, to);
	if (rows_notes(f, "", "- Note", rows, from, to, &d->said))
		fputc('\n', f);
	free(t.cell);
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
	const struct run_result *r = rows_first_run(rows, n);
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
		snprintf(text, sizeof(text), "%s%s", run, differ ? " (the first row's; a row that ran "
			 "otherwise says how in its Runs column)" : "");
		report_wrapped(f, "- runs: ", text);
		/* the benchmark options every row has alike, away from their defaults: a suite's fixed ones */
		summary_options(text, sizeof(text), r, false, shared_by_all,
				&(struct md_rows){ rows, n });
		if (*text)
			report_wrapped(f, "- every row: ", text);
	}
	report_wrapped(f, "- figures: ", "mean ± sample standard deviation in the unit of their "
		       "column, the ± to two significant digits and the mean to the same place; the "
		       "mean alone for one sample, an exact count or no spread");
	fputc('\n', f);
}

/* Under the tables, once: what no table shows, and what the Noise words mean. */
static void md_footer(FILE *f, const struct md_doc *d, const struct result_row *rows, int n)
{
	char text[512];

	precision_text(rows, n, "column 95% CI", text, sizeof(text));
	if (*text) {
		report_wrapped(f, "", text);
		fputc('\n', f);
	}
	if (d->nr_hidden)
		fprintf(f, "%d more metric%s (%d of them counts) in the JSON and CSV exports.\n\n",
			d->nr_hidden, d->nr_hidden == 1 ? "" : "s", d->hidden_counts);
	if (d->first)
		rows_noise_legend(f, "- ", rows, n);
}

void export_write_md(FILE *f, const char *title, struct result_row *rows, int n)
{
	struct md_doc d = { .first = rows_first_run(rows, n) };
	int i, from = 0;

	fputs("# bpfbench: ", f);
	md_text(f, title);
	fputs("\n\n", f);
	md_conditions(f, rows, n);
	if (interrupted())
		fprintf(f, "**Interrupted** by signal %d: the steps completed before it (rows "
			"run in rounds: their finished repetitions, each such row says so).\n\n",
			interrupted_signal());
	for (i = 1; i <= n; i++) {
		if (i < n && !rows[i].header)
			continue;
		md_section(f, &d, rows[from].header, rows, from, i);
		from = i;
	}
	md_footer(f, &d, rows, n);
	free(d.hidden);
}
