// SPDX-License-Identifier: GPL-2.0
/*
 * The Markdown export, shaped like hyperfine's --export-markdown: a pipe
 * table per section, a row per step, a column per metric with its unit
 * in the header and the figure (mean ± sd) alone in the cell.  What a
 * family prints as its own row shape stays in the human table; here every
 * family is columns, so a report can sort and compare them.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include "export.h"
#include "mkey.h"
#include "figure.h"
#include "report.h"
#include "util.h"

#define MD_MAX_COLS	16	/* more metrics than this stay in JSON and CSV, said under the table */

/* A metric column: its identity (name{key}) and unit, one column per pair. */
struct md_col {
	char id[MKEY_ID_MAX];
	const char *unit;
};

struct md_table {
	struct md_col col[MD_MAX_COLS];
	int n;
	int dropped;		/* metric columns beyond MD_MAX_COLS */
	bool bench;		/* a Benchmark column: some row's label is not its benchmark */
	bool ci;		/* a 95% CI column: some row was sampled to a precision */
	bool note;		/* a Note column: some row was skipped or failed */
};

static void md_text(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		if (*s == '|' || *s == '\\')
			fputc('\\', f);
		fputc(*s == '\n' ? ' ' : *s, f);
	}
}

static void md_cell(FILE *f, const char *s)
{
	fputs(" ", f);
	md_text(f, s);
	fputs(" |", f);
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

/* The columns of rows [from, to): every metric in order of appearance, then the extras. */
static void md_plan(struct md_table *t, const struct result_row *rows, int from, int to)
{
	const struct run_result *r;
	char id[MKEY_ID_MAX];
	int i, m;

	memset(t, 0, sizeof(*t));
	for (i = from; i < to; i++) {
		r = &rows[i].res;
		if (r->bench && strcmp(row_label(&rows[i]), r->bench->name))
			t->bench = true;
		if (!row_has_figures(&rows[i])) {
			t->note = true;
			continue;
		}
		t->ci |= r->precision_target > 0;
		for (m = 0; m < r->nr_metrics; m++) {
			res_metric_id(r, m, id, sizeof(id));
			if (find_col(t, id, r->metrics[m].unit) >= 0)
				continue;
			if (t->n == MD_MAX_COLS) {
				t->dropped++;
				continue;
			}
			strcpy(t->col[t->n].id, id);
			t->col[t->n++].unit = r->metrics[m].unit;
		}
	}
}

static void md_header(FILE *f, const struct md_table *t)
{
	char head[MKEY_ID_MAX + 64];
	int c;

	fputs("| Step |", f);
	if (t->bench)
		fputs(" Benchmark |", f);
	for (c = 0; c < t->n; c++) {
		snprintf(head, sizeof(head), "%s [%s]", t->col[c].id, t->col[c].unit);
		md_cell(f, head);
	}
	if (t->ci)
		fputs(" 95% CI |", f);
	if (t->note)
		fputs(" Note |", f);
	fputs("\n|:---|", f);
	if (t->bench)
		fputs(":---|", f);
	for (c = 0; c < t->n; c++)
		fputs("---:|", f);
	if (t->ci)
		fputs("---:|", f);
	if (t->note)
		fputs(":---|", f);
	fputc('\n', f);
}

static void md_row(FILE *f, const struct md_table *t, const struct result_row *row)
{
	const struct run_result *r = &row->res;
	bool figures = row_has_figures(row);
	char fig[64], id[MKEY_ID_MAX], note[400] = "";
	int c, m;

	fputc('|', f);
	md_cell(f, row_label(row));
	if (t->bench)
		md_cell(f, r->bench ? r->bench->name : "");
	for (c = 0; c < t->n; c++) {
		fig[0] = 0;
		for (m = 0; figures && m < r->nr_metrics; m++)
			if (!strcmp(res_metric_id(r, m, id, sizeof(id)), t->col[c].id) &&
			    !strcmp(r->metrics[m].unit, t->col[c].unit))
				report_metric_figure(fig, sizeof(fig), r, m);
		md_cell(f, fig);
	}
	if (t->ci)
		md_cell(f, row_ci(row, false, fig, sizeof(fig)));
	if (t->note) {
		if (row->status == EXIT_SKIP)
			snprintf(note, sizeof(note), "SKIP: %s", row->note);
		else if (!figures)
			snprintf(note, sizeof(note), "FAILED (exit %d): %s", row->status, row->note);
		md_cell(f, note);
	}
	fputc('\n', f);
}

static void md_section(FILE *f, const char *title, const struct result_row *rows, int from,
		       int to)
{
	struct md_table t;
	int i;

	md_plan(&t, rows, from, to);
	if (title) {
		fputs("## ", f);
		md_text(f, title);
		fputs("\n\n", f);
	}
	md_header(f, &t);
	for (i = from; i < to; i++)
		md_row(f, &t, &rows[i]);
	if (t.dropped)
		fprintf(f, "\n%d more metric%s in the JSON and CSV exports.\n", t.dropped,
			t.dropped == 1 ? "" : "s");
	fputc('\n', f);
}

void export_write_md(FILE *f, const char *title, struct result_row *rows, int n)
{
	char text[512];
	struct utsname u;
	int i, from = 0;

	uname(&u);
	fprintf(f, "# bpfbench: %s\n\nKernel %s (%s), %d CPUs. Figures are mean ± sample standard "
		"deviation, in the unit of their column.\n\n", title, u.release, u.machine,
		nr_online_cpus());
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
		fprintf(f, "%s.\n", text);
}
