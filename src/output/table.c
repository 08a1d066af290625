// SPDX-License-Identifier: GPL-2.0
/*
 * REPORT_TABLE: a result whose metrics carry keys ("time{op=lookup,
 * batch=1000}") drawn as a table, a row per key, a column per key field
 * and per metric name, the unit once in the column's head and one number
 * format per column.  Metrics without a key are the Stats lines'.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"
#include "mkey.h"
#include "figure.h"
#include "summary.h"
#include "util.h"

#define TABLE_MAX	64	/* rows and columns a table draws; more are the exports' */
#define CELL_MAX	48

struct table {
	const char *keys[TABLE_MAX];	/* a row per distinct key */
	int nr_rows;
	const char *names[TABLE_MAX];	/* a column per metric name */
	const char *units[TABLE_MAX];
	int nr_cols;
	char fields[8][32];		/* the key's fields, from the first key */
	int nr_fields;
	int decimals[TABLE_MAX];
	char cell[TABLE_MAX][TABLE_MAX][CELL_MAX];
	char field_val[TABLE_MAX][8][32];
	int width[TABLE_MAX + 8];
};

static int find(const char *const *list, int n, const char *s)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(list[i], s))
			return i;
	return -1;
}

static void collect(struct table *t, const struct run_result *res)
{
	const char *pos;
	char name[32], val[32];
	int i;

	for (i = 0; i < res->nr_metrics; i++) {
		const struct metric_def *m = &res->metrics[i];

		if (mkey_none(m->key))
			continue;
		if (find(t->keys, t->nr_rows, m->key) < 0 && t->nr_rows < TABLE_MAX)
			t->keys[t->nr_rows++] = m->key;
		if (find(t->names, t->nr_cols, m->name) < 0 && t->nr_cols < TABLE_MAX) {
			t->units[t->nr_cols] = m->unit;
			t->names[t->nr_cols++] = m->name;
		}
	}
	for (pos = t->nr_rows ? t->keys[0] : ""; t->nr_fields < 8 &&
	     mkey_next(&pos, name, sizeof(name), val, sizeof(val));)
		snprintf(t->fields[t->nr_fields++], sizeof(t->fields[0]), "%s", name);
}

/* A column's decimals: enough for the finest figure in it (report_decimals' rule per cell). */
static void column_formats(struct table *t, const struct run_result *res)
{
	int i, c, d;

	for (c = 0; c < t->nr_cols; c++)
		t->decimals[c] = 0;
	for (i = 0; i < res->nr_metrics; i++) {
		const struct metric_def *m = &res->metrics[i];

		c = mkey_none(m->key) ? -1 : find(t->names, t->nr_cols, m->name);
		if (c < 0)
			continue;
		d = report_metric_decimals(res, i);
		if (d > t->decimals[c])
			t->decimals[c] = d;
	}
}

static void fill(struct table *t, const struct run_result *res)
{
	int i, r, c, f;

	for (r = 0; r < t->nr_rows; r++) {
		for (c = 0; c < t->nr_cols; c++)
			snprintf(t->cell[r][c], CELL_MAX, "-");
		for (f = 0; f < t->nr_fields; f++)
			if (!mkey_get(t->keys[r], t->fields[f], t->field_val[r][f], 32))
				snprintf(t->field_val[r][f], 32, "-");
	}
	for (i = 0; i < res->nr_metrics; i++) {
		const struct metric_def *m = &res->metrics[i];

		r = mkey_none(m->key) ? -1 : find(t->keys, t->nr_rows, m->key);
		c = r < 0 ? -1 : find(t->names, t->nr_cols, m->name);
		if (c >= 0)
			report_metric_cell(t->cell[r][c], CELL_MAX, res, i, t->decimals[c]);
	}
}

static void head_of(const struct table *t, int c, char *buf, size_t len)
{
	snprintf(buf, len, "%s [%s]", t->names[c], t->units[c]);
}

static void widths(struct table *t)
{
	char head[96];
	int r, c, f, w;

	for (f = 0; f < t->nr_fields; f++) {
		t->width[f] = (int)strlen(t->fields[f]);
		for (r = 0; r < t->nr_rows; r++)
			if ((w = (int)strlen(t->field_val[r][f])) > t->width[f])
				t->width[f] = w;
	}
	for (c = 0; c < t->nr_cols; c++) {
		head_of(t, c, head, sizeof(head));
		t->width[t->nr_fields + c] = utf8_width(head);
		for (r = 0; r < t->nr_rows; r++)
			if ((w = utf8_width(t->cell[r][c])) > t->width[t->nr_fields + c])
				t->width[t->nr_fields + c] = w;
	}
}

/* A cell padded to its width: text columns to the left, figures to the right. */
static void cell_out(FILE *out, const char *s, int width, bool right)
{
	int pad = width - utf8_width(s);

	if (right)
		fprintf(out, " %*s%s", pad > 0 ? pad : 0, "", s);
	else
		fprintf(out, "%s%*s ", s, pad > 0 ? pad : 0, "");
}

static void lines_out(FILE *out, const struct table *t, const char *indent)
{
	char head[96];
	int r, c, f;

	fputs(indent, out);
	for (f = 0; f < t->nr_fields; f++)
		cell_out(out, t->fields[f], t->width[f], false);
	for (c = 0; c < t->nr_cols; c++) {
		head_of(t, c, head, sizeof(head));
		cell_out(out, head, t->width[t->nr_fields + c], true);
	}
	fputc('\n', out);
	for (r = 0; r < t->nr_rows; r++) {
		fputs(indent, out);
		for (f = 0; f < t->nr_fields; f++)
			cell_out(out, t->field_val[r][f], t->width[f], false);
		for (c = 0; c < t->nr_cols; c++)
			cell_out(out, t->cell[r][c], t->width[t->nr_fields + c], true);
		fputc('\n', out);
	}
}

static struct table *table_of(const struct run_result *res)
{
	struct table *t = xcalloc(1, sizeof(*t));

	collect(t, res);
	column_formats(t, res);
	fill(t, res);
	widths(t);
	return t;
}

void table_write(FILE *out, const struct run_result *res, const char *indent)
{
	struct table *t = table_of(res);

	if (t->nr_rows)
		lines_out(out, t, indent);
	free(t);
}

/* " cell |" of a pipe table: padded to its width, '|' escaped (a key's value could hold one). */
static void md_cell(FILE *out, const char *s, int width, bool right)
{
	int pad = width - utf8_width(s);

	fputc(' ', out);
	for (; right && pad-- > 0;)
		fputc(' ', out);
	for (; *s; s++) {
		if (*s == '|' || *s == '\\')
			fputc('\\', out);
		fputc(*s, out);
	}
	for (; !right && pad-- > 0;)
		fputc(' ', out);
	fputs(" |", out);
}

static void md_rule(FILE *out, int width, bool right)
{
	fputc(right ? '-' : ':', out);
	while (width--)
		fputc('-', out);
	fputs(right ? ":|" : "-|", out);
}

void table_write_md(FILE *out, const struct run_result *res)
{
	struct table *t = table_of(res);
	char head[96];
	int r, c, f;

	if (!t->nr_rows) {
		free(t);
		return;
	}
	fputc('|', out);
	for (f = 0; f < t->nr_fields; f++)
		md_cell(out, t->fields[f], t->width[f], false);
	for (c = 0; c < t->nr_cols; c++) {
		head_of(t, c, head, sizeof(head));
		md_cell(out, head, t->width[t->nr_fields + c], true);
	}
	fputs("\n|", out);
	for (f = 0; f < t->nr_fields; f++)
		md_rule(out, t->width[f], false);
	for (c = 0; c < t->nr_cols; c++)
		md_rule(out, t->width[t->nr_fields + c], true);
	fputc('\n', out);
	for (r = 0; r < t->nr_rows; r++) {
		fputc('|', out);
		for (f = 0; f < t->nr_fields; f++)
			md_cell(out, t->field_val[r][f], t->width[f], false);
		for (c = 0; c < t->nr_cols; c++)
			md_cell(out, t->cell[r][c], t->width[t->nr_fields + c], true);
		fputc('\n', out);
	}
	free(t);
}

void table_row(char *buf, size_t len, const struct run_result *res)
{
	char *text = NULL;
	size_t size = 0, n;
	FILE *mem;

	buf[0] = 0;
	summary_options(buf, len, res, false, NULL, NULL);
	mem = open_memstream(&text, &size);
	if (!mem)
		return;
	table_write(mem, res, "  ");
	fclose(mem);
	n = strlen(buf);
	if (size && n + 1 < len) {
		snprintf(buf + n, len - n, "\n%s", text);
		n = strlen(buf);
		if (n && buf[n - 1] == '\n')
			buf[n - 1] = 0;	/* the suite ends the row */
	}
	free(text);
}

void summary_options(char *buf, size_t len, const struct run_result *res, bool all,
		     bool (*keep)(const struct run_result *r, int i, const void *ctx),
		     const void *ctx)
{
	const struct opt_def *d;
	const void *args;
	char text[OPT_TEXT_MAX];
	size_t off = 0;
	int i;

	buf[0] = 0;
	for (i = 0; i < res->nr_opts && off < len; i++) {
		d = res->opts[i].def;
		args = res_opt_args(res, i);
		if (res->opts[i].global || !opts_is_set(d, args))
			continue;
		if (d->type == OPT_FLAG && !opts_get(d, args).flag)
			continue;
		if (!all && opts_at_default(d, args))
			continue;
		if (keep && !keep(res, i, ctx))
			continue;
		opts_format(d, args, text, sizeof(text));
		if (d->type == OPT_FLAG)
			off += snprintf(buf + off, len - off, " --%s", d->name);
		else
			off += snprintf(buf + off, len - off, " --%s %s", d->name, text);
	}
}
