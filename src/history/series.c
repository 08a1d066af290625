// SPDX-License-Identifier: GPL-2.0
/*
 * The history's one query: the points of every series a filter selects,
 * joined from results, runs and metrics, sorted so that each series'
 * points come together and in time order.  Only the filters given are
 * written into the SQL (PostgreSQL cannot type a parameter that is only
 * ever compared with NULL).  Failed runs are no points.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "changes.h"
#include "history.h"
#include "stats.h"
#include "store.h"
#include "util.h"

#define SQL_MAX	2048

/* "name" or "name{key}" of --metric: the key part as the database keeps it. */
static void split_metric(const char *m, char *name, size_t nlen, char *key, size_t klen,
			 bool *has_key)
{
	const char *b = strchr(m, '{');
	size_t n = b ? (size_t)(b - m) : strlen(m);

	snprintf(name, nlen, "%.*s", (int)n, m);
	*has_key = b != NULL;
	if (b)
		snprintf(key, klen, "%.*s", (int)strcspn(b + 1, "}"), b + 1);
}

struct stmt *series_query(struct store *s, const struct series_filter *f)
{
	char sql[SQL_MAX], name[256], key[256];
	const char *params[8];
	int np = 0, i;
	bool has_key = false;
	size_t len = 0;
	struct stmt *st;

	bufcat(sql, sizeof(sql), &len,
	       "SELECT res.host, u.bench, u.measured, m.name, m.mkey, m.unit, m.better, res.date,"
	       " res.kernel, res.git_commit, m.figure, m.n, m.stddev, res.id, m.kind, m.samples,"
	       " res.kernel_build, res.version, u.idx, u.moved_samples, u.nr_samples"
	       " FROM metrics m JOIN runs u ON m.run_id = u.id"
	       " JOIN results res ON u.result_id = res.id WHERE u.status = 0");
	if (!f->counts)
		bufcat(sql, sizeof(sql), &len, " AND m.kind <> 'count'");
	if (f->normalized)
		bufcat(sql, sizeof(sql), &len, " AND m.name LIKE '%%-normalized'");
	if (f->bench) {
		bufcat(sql, sizeof(sql), &len, " AND u.bench = ?");
		params[np++] = f->bench;
	}
	if (f->metric) {
		split_metric(f->metric, name, sizeof(name), key, sizeof(key), &has_key);
		bufcat(sql, sizeof(sql), &len, " AND m.name = ?");
		params[np++] = name;
		if (has_key) {
			bufcat(sql, sizeof(sql), &len, " AND m.mkey = ?");
			params[np++] = key;
		}
	}
	if (f->host) {
		bufcat(sql, sizeof(sql), &len, " AND res.host = ?");
		params[np++] = f->host;
	}
	if (f->options) {
		bufcat(sql, sizeof(sql), &len, " AND u.measured = ?");
		params[np++] = f->options;
	}
	if (f->since) {
		bufcat(sql, sizeof(sql), &len, " AND res.date >= ?");
		params[np++] = f->since;
	}
	if (f->until) {
		bufcat(sql, sizeof(sql), &len, " AND res.date <= ?");
		params[np++] = f->until;
	}
	bufcat(sql, sizeof(sql), &len, " ORDER BY res.host, u.bench, u.measured, m.name, m.mkey,%s"
	       " res.date, res.id, u.idx", f->by_kernel ? " res.kernel," : "");
	st = store_prepare(s, sql);
	for (i = 0; st && i < np; i++)
		if (store_bind_text(s, st, i + 1, params[i])) {
			store_finalize(s, st);
			return NULL;
		}
	return st;
}

void series_key(struct store *s, struct stmt *st, bool by_kernel, char *key, size_t len)
{
	static const int cols[] = { SC_HOST, SC_BENCH, SC_MEASURED, SC_NAME, SC_MKEY, SC_KERNEL };
	size_t off = 0, i, l, n = ARRAY_SIZE(cols) - !by_kernel;
	const char *t;

	for (i = 0; i < n; i++) {	/* once a point, a million times: no printf */
		t = store_text(s, st, cols[i]) ?: "";
		l = strlen(t);
		if (off + 2 > len)
			break;
		if (l > len - off - 2)
			l = len - off - 2;	/* a key that long is cut, the same way each time */
		memcpy(key + off, t, l);
		off += l;
		key[off++] = '\x1f';
	}
	key[off] = 0;
}

void series_clear(struct series *sr)
{
	int i;

	for (i = 0; i < sr->n; i++) {
		free(sr->pt[i].date);
		free(sr->pt[i].kernel);
		free(sr->pt[i].commit);
	}
	free(sr->host);
	free(sr->bench);
	free(sr->measured);
	free(sr->name);
	free(sr->mkey);
	free(sr->unit);
	free(sr->better);
	free(sr->kernel);
	free(sr->kind);
	sr->host = sr->bench = sr->measured = sr->name = sr->mkey = NULL;
	sr->unit = sr->better = sr->kernel = sr->kind = NULL;
	sr->n = sr->nr_bad = 0;
}

void series_start(struct store *s, struct stmt *st, struct series *sr, const char *key)
{
	series_clear(sr);
	snprintf(sr->key, sizeof(sr->key), "%s", key);
	sr->host = xstrdup(store_text(s, st, SC_HOST));
	sr->bench = xstrdup(store_text(s, st, SC_BENCH));
	sr->measured = xstrdup(store_text(s, st, SC_MEASURED));
	sr->name = xstrdup(store_text(s, st, SC_NAME));
	sr->mkey = xstrdup(store_text(s, st, SC_MKEY));
	sr->unit = xstrdup(store_text(s, st, SC_UNIT));
	sr->better = xstrdup(store_text(s, st, SC_BETTER));
	sr->kernel = xstrdup(store_text(s, st, SC_KERNEL));
	sr->kind = xstrdup(store_text(s, st, SC_KIND));
}

/* The run's 95% half-width from its samples' spread; NAN with one sample. */
double series_half_ci(struct store *s, struct stmt *st)
{
	double sd = store_double(s, st, SC_STDDEV);
	int64_t n = store_int(s, st, SC_N);

	if (n < 2 || !isfinite(sd))
		return NAN;
	return stats_t975((double)(n - 1)) * sd / sqrt((double)n);
}

void series_add(struct store *s, struct stmt *st, struct series *sr)
{
	double v = store_double(s, st, SC_FIGURE);
	struct point *p;

	if (!isfinite(v)) {
		/* a figure recorded before figures were checked, or written into the table */
		if (!sr->nr_bad++)
			errmsg("db: %s%s%s %s on %s: the figure of %s is %s, not a finite number: "
			       "left out", shown_text(sr->bench), *sr->measured ? " " : "",
			       shown_text(sr->measured),
			       shown_text(sr->name), shown_text(sr->host),
			       shown_text(store_text(s, st, SC_DATE)),
			       shown_text(store_text(s, st, SC_FIGURE)));
		return;
	}
	sr->pt = xgrow(sr->pt, sr->n, &sr->cap, 64, sizeof(*sr->pt));
	p = &sr->pt[sr->n++];
	p->v = v;
	p->half_ci = series_half_ci(s, st);
	p->date = xstrdup(store_text(s, st, SC_DATE));
	p->kernel = xstrdup(store_text(s, st, SC_KERNEL));
	p->commit = xstrdup(store_text(s, st, SC_COMMIT));
	p->moved = store_text(s, st, SC_MOVED) ? (int)store_int(s, st, SC_MOVED) : -1;
}

/*
 * Whether the series' figures are on a ratio scale, a step a factor: a
 * rate, a time, a memory; their changes are then looked for in log space,
 * where 10 -> 20 and 20 -> 40 are one step, and 1e-300 and 1e300 are
 * points apart, not a range no double holds.
 */
static bool ratio_scale(const struct series *sr)
{
	static const char *const kinds[] = { "rate", "time", "inverse", "sampled", "level",
					     "peak" };
	size_t k;
	int i;

	for (i = 0; i < sr->n; i++)
		if (!(sr->pt[i].v > 0))
			return false;	/* a zero has no logarithm: the figures as they are */
	for (k = 0; k < ARRAY_SIZE(kinds); k++)
		if (sr->kind && !strcmp(sr->kind, kinds[k]))
			return true;
	return false;
}

int series_changes(const struct series *sr, const struct db_args *a, double *x, struct ed_cp *cp)
{
	bool logs = ratio_scale(sr);
	double *y = xcalloc(sr->n + 1, sizeof(double));
	struct ed_opts o;
	int i, k;

	for (i = 0; i < sr->n; i++) {
		x[i] = sr->pt[i].v;
		y[i] = logs ? log(x[i]) : x[i];
	}
	ed_opts_default(&o);
	o.alpha = a->alpha;
	o.permutations = a->permutations;
	o.seed = ed_seed(sr->key);	/* the same series, the same answer, run after run */
	k = ed_changes(y, sr->n, &o, cp, sr->n);
	free(y);
	return k;
}
