// SPDX-License-Identifier: GPL-2.0
/*
 * db show: a benchmark's points over time, hosts and kernels, as a table
 * (figure and its run's 95% interval) or as JSON with every sample as
 * recorded.  db export --otava-csv: one host's history of a benchmark as
 * the CSV Apache Otava reads, a row a result, a column a series.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>
#include "history.h"
#include "stats.h"
#include "store.h"
#include "opts.h"
#include "util.h"

static const char *txt(struct store *s, struct stmt *st, int col)
{
	return store_text(s, st, col) ?: "";
}

/* A column as the terminal shows it (shown_text()): the database holds what files said. */
static const char *esc(struct store *s, struct stmt *st, int col)
{
	return shown_text(txt(s, st, col));
}

static void metric_name(struct store *s, struct stmt *st, char *buf, size_t len)
{
	const char *key = txt(s, st, SC_MKEY);

	snprintf(buf, len, "%s%s%s%s", txt(s, st, SC_NAME), *key ? "{" : "", key, *key ? "}" : "");
}

/* Placement: "0/5" samples whose threads moved CPU, "-" where the file did not say. */
static const char *moved_text(struct store *s, struct stmt *st, char *buf, size_t len)
{
	if (!store_text(s, st, SC_MOVED))
		return "-";
	snprintf(buf, len, "%lld/%lld", (long long)store_int(s, st, SC_MOVED),
		 (long long)store_int(s, st, SC_NR_SAMPLES));
	return buf;
}

static void show_row(struct store *s, struct stmt *st)
{
	char m[256], ci[32] = "-";
	double h = series_half_ci(s, st);
	char mv[48];

	metric_name(s, st, m, sizeof(m));
	if (isfinite(h))
		snprintf(ci, sizeof(ci), "%.4g", h);
	printf("%-20s  %-12s  %-24s  %-8s  %-24s  %-22s  %12.6g  %10s  %-8s  %-5lld  %s\n",
	       esc(s, st, SC_DATE), esc(s, st, SC_HOST), esc(s, st, SC_KERNEL),
	       esc(s, st, SC_COMMIT), esc(s, st, SC_MEASURED), shown_text(m),
	       store_double(s, st, SC_FIGURE), ci, esc(s, st, SC_UNIT),
	       (long long)store_int(s, st, SC_N), moved_text(s, st, mv, sizeof(mv)));
}

static void add_str(json_object *o, const char *k, const char *v)
{
	json_object_object_add(o, k, v ? json_object_new_string(v) : NULL);
}

/* The samples' text is JSON numbers as recorded: json-c prints them as read. */
static json_object *row_json(struct store *s, struct stmt *st)
{
	json_object *o = json_object_new_object();
	char *arr;
	const char *samples = txt(s, st, SC_SAMPLES);
	double fig = store_double(s, st, SC_FIGURE);

	json_object_object_add(o, "result", json_object_new_int64(store_int(s, st, SC_RESULT)));
	json_object_object_add(o, "run", json_object_new_int64(store_int(s, st, SC_IDX)));
	add_str(o, "date", store_text(s, st, SC_DATE));
	add_str(o, "host", store_text(s, st, SC_HOST));
	add_str(o, "kernel", store_text(s, st, SC_KERNEL));
	add_str(o, "kernel_build", store_text(s, st, SC_BUILD));
	add_str(o, "version", store_text(s, st, SC_VERSION));
	add_str(o, "commit", store_text(s, st, SC_COMMIT));
	add_str(o, "bench", store_text(s, st, SC_BENCH));
	add_str(o, "options", store_text(s, st, SC_MEASURED));
	add_str(o, "metric", store_text(s, st, SC_NAME));
	add_str(o, "key", *txt(s, st, SC_MKEY) ? txt(s, st, SC_MKEY) : NULL);
	add_str(o, "unit", store_text(s, st, SC_UNIT));
	add_str(o, "kind", store_text(s, st, SC_KIND));
	add_str(o, "better", store_text(s, st, SC_BETTER));
	json_object_object_add(o, "n", json_object_new_int64(store_int(s, st, SC_N)));
	json_object_object_add(o, "figure", isfinite(fig) ? json_object_new_double(fig) : NULL);
	json_object_object_add(o, "moved_samples", store_text(s, st, SC_MOVED) ?
			       json_object_new_int64(store_int(s, st, SC_MOVED)) : NULL);
	json_object_object_add(o, "nr_samples", json_object_new_int64(store_int(s, st,
											 SC_NR_SAMPLES)));
	if (asprintf(&arr, "[%s]", samples) < 0)
		die("out of memory");
	json_object_object_add(o, "samples", json_tokener_parse(arr));
	free(arr);
	return o;
}

int db_show(struct store *s, const struct db_args *a)
{
	struct stmt *st = series_query(s, &a->f);
	json_object *list = json_object_new_array();
	enum store_row r;
	int n = 0;

	if (!st) {
		json_object_put(list);
		return 1;
	}
	while ((r = store_step(s, st)) == STEP_ROW) {
		if (!n++ && !a->json)
			printf("%-20s  %-12s  %-24s  %-8s  %-24s  %-22s  %12s  %10s  %-8s  %-5s  %s\n",
			       "DATE", "HOST", "KERNEL", "COMMIT", "OPTIONS", "METRIC", "FIGURE",
			       "+-CI95", "UNIT", "N", "MOVED");
		if (a->json)
			json_object_array_add(list, row_json(s, st));
		else
			show_row(s, st);
	}
	store_finalize(s, st);
	if (r == STEP_ERROR) {
		json_object_put(list);
		return 1;
	}
	if (a->json)
		printf("%s\n", json_object_to_json_string_ext(list, JSON_C_TO_STRING_PRETTY |
							      JSON_C_TO_STRING_NOSLASHESCAPE));
	else if (!n)
		errmsg("db: no recorded point of %s matches", a->f.bench ?: "any benchmark");
	json_object_put(list);
	return 0;
}

/* ---- export --otava-csv ---- */

struct cell {
	int64_t result;
	int col;
	double v;
	char *date, *commit, *kernel;
};

struct table {
	char **cols;
	int nr_cols, cap_cols;
	struct cell *cells;
	int n, cap;
	char *host;
	bool hosts;	/* more than one */
};

static int col_of(struct table *t, const char *name)
{
	int i;

	for (i = 0; i < t->nr_cols; i++)
		if (!strcmp(t->cols[i], name))
			return i;
	t->cols = xgrow(t->cols, t->nr_cols, &t->cap_cols, 16, sizeof(char *));
	t->cols[t->nr_cols] = xstrdup(name);
	return t->nr_cols++;
}

static void add_cell(struct table *t, struct store *s, struct stmt *st)
{
	char m[256], name[1024];
	const char *measured = txt(s, st, SC_MEASURED), *host = txt(s, st, SC_HOST);
	struct cell *c;

	if (!t->host)
		t->host = xstrdup(host);
	else if (strcmp(t->host, host))
		t->hosts = true;
	metric_name(s, st, m, sizeof(m));
	snprintf(name, sizeof(name), "%s%s%s", measured, *measured ? ":" : "", m);
	t->cells = xgrow(t->cells, t->n, &t->cap, 256, sizeof(*t->cells));
	c = &t->cells[t->n++];
	c->result = store_int(s, st, SC_RESULT);
	c->col = col_of(t, name);
	c->v = store_double(s, st, SC_FIGURE);
	c->date = xstrdup(txt(s, st, SC_DATE));
	c->commit = xstrdup(txt(s, st, SC_COMMIT));
	c->kernel = xstrdup(txt(s, st, SC_KERNEL));
}

static int by_time(const void *pa, const void *pb)
{
	const struct cell *a = pa, *b = pb;
	int c = strcmp(a->date, b->date);

	return c ?: (a->result > b->result) - (a->result < b->result);
}

static void csv_field(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '"')
			putchar('"');
		putchar(*s);
	}
	putchar('"');
}

/* A row a result: time, commit, kernel, then each series' figure (empty when absent). */
static void print_csv(struct table *t)
{
	double *row = xcalloc(t->nr_cols + 1, sizeof(double));
	int i, j, c;

	printf("time,commit,kernel");
	for (c = 0; c < t->nr_cols; c++) {
		putchar(',');
		csv_field(t->cols[c]);
	}
	putchar('\n');
	for (i = 0; i < t->n; i = j) {
		for (c = 0; c < t->nr_cols; c++)
			row[c] = NAN;
		for (j = i; j < t->n && t->cells[j].result == t->cells[i].result; j++)
			row[t->cells[j].col] = t->cells[j].v;
		csv_field(t->cells[i].date);
		putchar(',');
		csv_field(t->cells[i].commit);
		putchar(',');
		csv_field(t->cells[i].kernel);
		for (c = 0; c < t->nr_cols; c++)
			isfinite(row[c]) ? printf(",%.17g", row[c]) : printf(",");
		putchar('\n');
	}
	free(row);
}

/*
 * Otava's CSV reader takes every metric cell as a number: an empty one
 * stops it.  Results of several options sets (or metrics some results
 * lack) would leave holes: refused, naming what to choose.  Called with
 * the cells sorted (rows together).
 */
static int check_full(struct table *t)
{
	int *have = xcalloc(t->nr_cols, sizeof(int));
	int i, j, c, rows = 0, gap = -1;

	for (i = 0; i < t->n; i = j, rows++)
		for (j = i; j < t->n && t->cells[j].result == t->cells[i].result; j++)
			have[t->cells[j].col]++;
	for (c = 0; c < t->nr_cols && gap < 0; c++)
		if (have[c] < rows)
			gap = c;
	if (gap >= 0)
		errmsg("db export: %d of %d results have no '%s' (%d columns in all): Otava reads no "
		       "empty cell; export one options set (--options K=V,...) or one metric "
		       "(--metric M)", rows - have[gap], rows, t->cols[gap], t->nr_cols);
	free(have);
	return gap >= 0 ? EXIT_USAGE : 0;
}

static void table_free(struct table *t)
{
	int i;

	for (i = 0; i < t->n; i++) {
		free(t->cells[i].date);
		free(t->cells[i].commit);
		free(t->cells[i].kernel);
	}
	for (i = 0; i < t->nr_cols; i++)
		free(t->cols[i]);
	free(t->cols);
	free(t->cells);
	free(t->host);
}

int db_export(struct store *s, const struct db_args *a)
{
	struct stmt *st = series_query(s, &a->f);
	struct table t = { .n = 0 };
	enum store_row r;
	int ret = 0;

	if (!st)
		return 1;
	while ((r = store_step(s, st)) == STEP_ROW)
		add_cell(&t, s, st);
	store_finalize(s, st);
	if (r == STEP_ERROR) {
		ret = 1;
	} else if (t.hosts) {
		errmsg("db export: %s has results of several hosts: a CSV is one host's history "
		       "(--host NAME)", a->f.bench);
		ret = EXIT_USAGE;
	} else if (!t.n) {
		errmsg("db export: no recorded point of %s matches", a->f.bench);
		ret = 1;
	} else {
		qsort(t.cells, t.n, sizeof(*t.cells), by_time);
		ret = check_full(&t);
		if (!ret)
			print_csv(&t);
	}
	table_free(&t);
	return ret;
}
