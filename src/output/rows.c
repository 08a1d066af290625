// SPDX-License-Identifier: GPL-2.0
/*
 * A suite's or sweep's rows for a reader.  The plan runs the steps and
 * hands each section's rows here as they end, the way a single run hands
 * its result to deliver_run(): a row per step in its benchmark's shape
 * (summary_row), the way the kernel's run_bench_*.sh scripts summarize
 * theirs, then what the figures stand on.  What a row says beside its
 * figures (how it ran, its noise, its benchmark's notes) is worked out
 * here for the text table and the Markdown alike.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "conditions.h"
#include "out_formats.h"
#include "report.h"
#include "rows.h"
#include "util.h"

#define TABLE_COLS	120	/* the widest line of the printed table */
#define NOTE_ROWS	4	/* rows a note names before "and N more" */
#define SECTION_NOTES	6	/* notes said under one section; more are the JSON's */

const struct run_result *rows_first_run(const struct result_row *rows, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (row_has_figures(&rows[i]))
			return &rows[i].res;
	return NULL;
}

const char *row_runs(const struct result_row *row, const struct run_result *first, char *buf,
		     size_t len)
{
	buf[0] = 0;
	if (first && row_has_figures(row))
		conditions_diff(&row->res, first, buf, len);
	return buf;
}

const char *row_noise(const struct result_row *row)
{
	struct noise_effect e;

	return row_has_figures(row) ? report_noise_word(&row->res, &e) : NULL;
}

static const char *row_name(const struct result_row *row)
{
	return row->label ? row->label : row->res.bench ? row->res.bench->name : "";
}

static bool said_before(const struct rows_said *said, const char *note)
{
	int i;

	for (i = 0; i < said->n; i++)
		if (!strcmp(said->note[i], note))
			return true;
	return false;
}

/* "(a, b, c, d and 3 more)" of the rows [from, to) with this note; "" when every row has it. */
static void note_rows(const struct result_row *rows, int from, int to, const char *note,
		      char *buf, size_t len)
{
	int i, with = 0, all = 0;
	size_t off = 0;

	buf[0] = 0;
	for (i = from; i < to; i++) {
		if (!rows[i].res.bench)
			continue;
		all++;
		if (!res_has_note(&rows[i].res, note))
			continue;
		if (with++ < NOTE_ROWS && off < len)
			off += snprintf(buf + off, len - off, "%s%s", with > 1 ? ", " : " (",
					row_name(&rows[i]));
	}
	if (with == all) {
		buf[0] = 0;
		return;
	}
	if (with > NOTE_ROWS && off < len)
		off += snprintf(buf + off, len - off, " and %d more", with - NOTE_ROWS);
	if (off < len)
		snprintf(buf + off, len - off, ")");
}

int rows_notes(FILE *f, const char *before, const char *lead, const struct result_row *rows,
	       int from, int to, struct rows_said *said)
{
	char head[400], which[300];
	int i, k, told = 0, more = 0;

	for (i = from; i < to; i++) {
		for (k = 0; k < rows[i].res.nr_notes; k++) {
			const char *note = rows[i].res.notes[k];

			if (said_before(said, note))
				continue;
			if (said->n == ROWS_NOTES_MAX || told == SECTION_NOTES) {
				more++;
				continue;
			}
			said->note[said->n++] = note;
			if (!told)
				fputs(before, f);
			note_rows(rows, from, to, note, which, sizeof(which));
			snprintf(head, sizeof(head), "%s%s: ", lead, which);
			report_wrapped(f, head, note);
			told++;
		}
	}
	if (more)
		fprintf(f, "%s%s: %d more in the JSON's notes\n", told ? "" : before, lead, more);
	return told + more;
}

void rows_noise_legend(FILE *f, const char *lead, const struct result_row *rows, int n)
{
	static const char *const words[] = { "noisy", "loaded" };
	char head[64];
	bool seen[2] = { false, false }, any = false;
	const char *w;
	size_t k;
	int i;

	for (i = 0; i < n; i++) {
		any |= row_has_figures(&rows[i]);
		w = row_noise(&rows[i]);
		for (k = 0; w && k < ARRAY_SIZE(words); k++)
			seen[k] |= !strcmp(w, words[k]);
	}
	for (k = 0; k < ARRAY_SIZE(words); k++) {
		if (!seen[k])
			continue;
		snprintf(head, sizeof(head), "%s%s: ", lead, words[k]);
		report_wrapped(f, head, report_noise_legend(words[k]));
	}
	if (any && !seen[0] && !seen[1])
		report_wrapped(f, lead, "Noise: no row's figure was moved by CPU pressure or steal "
			       "(a row it moved would say noisy or loaded)");
}

/* ---- the text table ---- */

struct rows_table {
	FILE *out;
	int width;
	const char *last_skip;	/* the reason the row before was skipped for, said in full once */
	bool loud;		/* a precision target the user set: a row that missed it says so */
	int section;		/* the first row of the section being drawn */
	const struct run_result *first;	/* whose conditions the other rows are told against */
	struct rows_said said;
};

/* The table goes where no export writes: stdout unless one of them took it. */
static FILE *table_out(const struct export_paths *p)
{
	return out_to_stdout(p->path) ? stderr : stdout;
}

static int label_width(const struct result_row *rows, int n)
{
	int i, w = 16, len;

	for (i = 0; i < n; i++) {
		len = (int)strlen(row_name(&rows[i]));
		if (len > w)
			w = len;
	}
	return w > 40 ? 40 : w;
}

struct rows_table *rows_table_open(const struct export_paths *out, const struct result_row *rows,
				   int n, bool loud)
{
	struct rows_table *t = xcalloc(1, sizeof(*t));

	t->out = table_out(out);
	t->width = label_width(rows, n);
	t->loud = loud;
	return t;
}

/*
 * text after a label of t->width, broken at ", " and blanks into lines of
 * TABLE_COLS, the later ones indented under the text; its own line breaks
 * (a table in a row) kept.
 */
static void print_wrapped(struct rows_table *t, const char *label, const char *text)
{
	int col = fprintf(t->out, "%-*s ", t->width, label);
	const char *nl = strchr(text, '\n');
	char *first;

	if (!nl && col + utf8_width(text) <= TABLE_COLS) {
		fprintf(t->out, "%s\n", text);	/* fits: as it is, its spacing kept */
		return;
	}
	first = nl ? strndup(text, nl - text) : NULL;
	wrap_words(t->out, col, t->width + 1, TABLE_COLS, NULL, first ? first : text);
	if (nl)	/* a table's lines, as they are */
		fprintf(t->out, "%s\n", nl + 1);
	free(first);
}

static void print_header(FILE *out, const char *raw)
{
	char header[1024];
	size_t i, len = strlen(text_escape(raw, header, sizeof(header)));

	fprintf(out, "\n%s\n", header);
	for (i = 0; i < len; i++)
		fputc('=', out);
	fputc('\n', out);
}

/* "  [CI ±3.9%] [noisy] [trigger raw-tp]": what the row says beside its figures. */
static void row_tags(struct rows_table *t, const struct result_row *row, char *buf, size_t len)
{
	char ci[64], runs[160];
	const char *noise = row_noise(row);
	size_t off = 0;

	buf[0] = 0;
	if (*row_ci(row, t->loud, ci, sizeof(ci)))
		off += snprintf(buf + off, len - off, " [CI %s]", ci);
	if (noise && off < len)
		off += snprintf(buf + off, len - off, " [%s]", noise);
	if (*row_runs(row, t->first, runs, sizeof(runs)) && off < len)
		off += snprintf(buf + off, len - off, " [%s]", runs);
	if (res_kept(&row->res) && off < len)	/* a signal ended its rounds */
		snprintf(buf + off, len - off, " [interrupted: %d of %llu repetitions]",
			 row->res.nr_repeats, (unsigned long long)row->res.spec.opts.runs);
}

static void print_row(struct rows_table *t, const struct result_row *row)
{
	char summary[8192], tags[256], *nl, *text;

	if (row->status == EXIT_SKIP) {
		bool again = t->last_skip && !strcmp(t->last_skip, row->note);

		snprintf(summary, sizeof(summary), "SKIP: %s", again ? "as above" : row->note);
		t->last_skip = row->note;
		print_wrapped(t, row_name(row), summary);
		return;
	}
	t->last_skip = NULL;
	if (!t->first && row_has_figures(row))
		t->first = &row->res;
	row_summary(row, summary, sizeof(summary));
	row_tags(t, row, tags, sizeof(tags));
	if (!*tags) {
		print_wrapped(t, row_name(row), summary);
		return;
	}
	/* the tags end the row's first line: a table in the row stays below them */
	nl = strchr(summary, '\n');
	if (asprintf(&text, "%.*s %s%s", nl ? (int)(nl - summary) : (int)strlen(summary), summary,
		     tags, nl ? nl : "") < 0)
		die("out of memory");
	print_wrapped(t, row_name(row), text);
	free(text);
}

void rows_table_section(struct rows_table *t, const struct result_row *rows, int from, int to)
{
	int i;

	for (i = from; i < to; i++) {
		if (rows[i].header) {
			rows_notes(t->out, "", "Note", rows, t->section, i, &t->said);
			t->section = i;
			print_header(t->out, rows[i].header);
		}
		print_row(t, &rows[i]);
	}
	fflush(t->out);
}

/* Under the table: what it was measured on and how (the JSON has every row's). */
static void print_conditions(struct rows_table *t, const struct result_row *rows, int n)
{
	char text[1600], run[900];
	struct conditions c;
	bool differ = conditions_of_rows(rows, n, run, sizeof(run)) > 1;

	if (differ && t->first)
		conditions_of_run(t->first, run, sizeof(run));
	conditions_read(&c);
	snprintf(text, sizeof(text), "kernel %s, %s, %d CPUs%s%s%s%s%s", c.kernel, c.cpu, c.cpus,
		 *c.vm ? "; in a VM: " : "", c.vm, *run ? "; rows: " : "", run,
		 differ ? " (the first row's; a row that ran otherwise says how after its figures)" :
		 "");
	fputc('\n', t->out);
	report_wrapped(t->out, "Conditions: ", text);
}

void rows_table_close(struct rows_table *t, const struct result_row *rows, int n)
{
	char text[512];

	rows_notes(t->out, "", "Note", rows, t->section, n, &t->said);
	precision_text(rows, n, "[CI ±x%]", text, sizeof(text));
	if (*text) {
		fputc('\n', t->out);
		report_wrapped(t->out, "", text);
	}
	if (rows_first_run(rows, n)) {
		fputc('\n', t->out);
		rows_noise_legend(t->out, "", rows, n);
		print_conditions(t, rows, n);
	}
	fflush(t->out);
	free(t);
}
