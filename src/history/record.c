// SPDX-License-Identifier: GPL-2.0
/*
 * db record: a result file into the history, whole or not at all.
 *
 * The file is read and validated by the result reader first (resdoc.h:
 * the schema, every field compare and plot rely on), and an interrupted
 * one refused, before the database is touched.  Then one transaction: the
 * result row keyed by the SHA-256 of the file's bytes (a second
 * recording of the same file inserts nothing and says so), its runs,
 * their metrics with every sample.  A writer killed inside it leaves
 * nothing, as the engines roll back what was never committed.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <json-c/json.h>
#include "history.h"
#include "opts.h"
#include "resdoc.h"
#include "sha256.h"
#include "store.h"
#include "util.h"
#include "verdict.h"

/* The statements of one recording, prepared once. */
struct recorder {
	struct store *s;
	struct stmt *result, *run, *metric;
};

static int file_hash(const char *path, char hex[SHA256_HEX])
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t len = 0, cap = 0, n;

	if (!f) {
		errmsg("%s: cannot open: %s", path, strerror(errno));
		return EXIT_USAGE;
	}
	do {
		if (len == cap) {
			cap = cap ? 2 * cap : 1 << 16;
			buf = realloc(buf, cap);
			if (!buf)
				die("out of memory");
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
	} while (n);
	fclose(f);
	sha256_hex(buf, len, hex);
	free(buf);
	return 0;
}

/*
 * The direction compare judges a metric by (the file's, or compare's guess
 * for an old file) and the figure its summary printed (an inverse's is
 * the inverse of its base's mean): compare's own reading of a metric.
 */
static const char *better_text(const struct res_metric *m, double *fig)
{
	struct cmp_row row;

	cmp_row_init(&row, "", m, m);
	*fig = row.nfig;
	return row.dir == DIR_HIGHER ? "higher" : row.dir == DIR_LOWER ? "lower" : "none";
}

/* Values joined by ',', %.17g (the same double again when read), "null" for none. */
static char *join_doubles(const double *v, int n)
{
	char *out = xcalloc((size_t)n * 26 + 1, 1), *p = out;
	int i;

	for (i = 0; i < n; i++)
		p += isnan(v[i]) ? sprintf(p, "%snull", i ? "," : "") :
				   sprintf(p, "%s%.17g", i ? "," : "", v[i]);
	return out;
}

static char *join_ints(const int *v, int n)
{
	char *out = xcalloc((size_t)n * 12 + 1, 1), *p = out;
	int i;

	for (i = 0; i < n; i++)
		p += sprintf(p, "%s%d", i ? "," : "", v[i]);
	return out;
}

/* The measured options as "name=value,...", sorted: strings without their quotes. */
char *history_measured(const struct res_run *r)
{
	size_t cap = 1, len = 0;
	char *out;
	int i;

	for (i = 0; i < r->nr_mopts; i++)
		cap += strlen(r->mopt_name[i]) + strlen(r->mopt_value[i]) + 2;
	out = xcalloc(cap, 1);
	for (i = 0; i < r->nr_mopts; i++) {
		const char *v = r->mopt_value[i];
		size_t vl = strlen(v);

		if (vl >= 2 && v[0] == '"' && v[vl - 1] == '"' && !memchr(v, '\\', vl)) {
			v++;
			vl -= 2;
		}
		len += sprintf(out + len, "%s%s=%.*s", i ? "," : "", r->mopt_name[i], (int)vl, v);
	}
	return out;
}

/* An object's compact text, and the object dropped. */
static char *json_text(json_object *o)
{
	char *out = xstrdup(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN));

	json_object_put(o);
	return out;
}

static char *options_json(const struct res_run *r)
{
	json_object *o = json_object_new_object();
	int i;

	for (i = 0; i < r->nr_opts; i++)
		json_object_object_add(o, r->opt_name[i], json_tokener_parse(r->opt_value[i]));
	return json_text(o);
}

static char *env_json(const struct res_doc *doc)
{
	json_object *o = json_object_new_object();
	int i;

	for (i = 0; i < doc->env.n; i++)
		json_object_object_add(o, doc->env.key[i], json_object_new_string(doc->env.value[i]));
	return json_text(o);
}

static void now_utc(char *buf, size_t len)
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static int prepare(struct recorder *rc)
{
	struct store *s = rc->s;

	rc->result = store_prepare(s, "INSERT INTO results (sha256, path, recorded_at, host, kernel,"
				   " kernel_build, machine, cpu_model, version, git_commit, date, env,"
				   " nr_runs) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)"
				   " ON CONFLICT (sha256) DO NOTHING RETURNING id");
	rc->run = store_prepare(s, "INSERT INTO runs (result_id, idx, bench, label, suite, section,"
				" status, options, measured, nr_samples, repeats, moved_samples)"
				" VALUES (?,?,?,?,?,?,?,?,?,?,?,?) RETURNING id");
	rc->metric = store_prepare(s, "INSERT INTO metrics (run_id, name, mkey, unit, kind, better,"
				   " n, mean, stddev, figure, samples) VALUES (?,?,?,?,?,?,?,?,?,?,?)");
	return rc->result && rc->run && rc->metric ? 0 : -1;
}

static void finish(struct recorder *rc)
{
	store_finalize(rc->s, rc->result);
	store_finalize(rc->s, rc->run);
	store_finalize(rc->s, rc->metric);
}

static int put_metric(struct recorder *rc, int64_t run_id, const struct res_run *r,
		      const struct res_metric *m)
{
	struct store *s = rc->s;
	char *samples = join_doubles(m->samples, r->nr_samples);
	double fig;
	const char *better = better_text(m, &fig);
	int ret;

	store_reset(s, rc->metric);
	ret = store_bind_int(s, rc->metric, 1, run_id) ||
	      store_bind_text(s, rc->metric, 2, m->name) ||
	      store_bind_text(s, rc->metric, 3, m->key ?: "") ||
	      store_bind_text(s, rc->metric, 4, m->unit) ||
	      store_bind_text(s, rc->metric, 5, res_kind_name(m->kind)) ||
	      store_bind_text(s, rc->metric, 6, better) ||
	      store_bind_int(s, rc->metric, 7, m->n) ||
	      store_bind_double(s, rc->metric, 8, m->mean) ||
	      store_bind_double(s, rc->metric, 9, m->stddev) ||
	      store_bind_double(s, rc->metric, 10, fig) ||
	      store_bind_text(s, rc->metric, 11, samples) ||
	      store_step(s, rc->metric) == STEP_ERROR;
	free(samples);
	return ret ? -1 : 0;
}

static int put_run(struct recorder *rc, int64_t result_id, int i, const struct res_run *r)
{
	struct store *s = rc->s;
	char *opts = options_json(r), *measured = history_measured(r);
	char *reps = r->sample_repeat ? join_ints(r->sample_repeat, r->nr_samples) : NULL;
	int64_t id = -1;
	int m, ret;

	store_reset(s, rc->run);
	ret = store_bind_int(s, rc->run, 1, result_id) || store_bind_int(s, rc->run, 2, i) ||
	      store_bind_text(s, rc->run, 3, r->bench) || store_bind_text(s, rc->run, 4, r->label) ||
	      store_bind_text(s, rc->run, 5, r->suite) ||
	      store_bind_text(s, rc->run, 6, r->section) ||
	      store_bind_int(s, rc->run, 7, r->status) || store_bind_text(s, rc->run, 8, opts) ||
	      store_bind_text(s, rc->run, 9, measured) ||
	      store_bind_int(s, rc->run, 10, r->nr_samples) ||
	      store_bind_text(s, rc->run, 11, reps) ||
	      (r->moved_samples < 0 ? store_bind_text(s, rc->run, 12, NULL) :
	       store_bind_int(s, rc->run, 12, r->moved_samples));
	if (!ret && store_step(s, rc->run) == STEP_ROW)
		id = store_int(s, rc->run, 0);
	free(opts);
	free(measured);
	free(reps);
	if (id < 0)
		return -1;
	for (m = 0; m < r->nr_metrics; m++)
		if (put_metric(rc, id, r, &r->metrics[m]))
			return -1;
	return 0;
}

/* Tests only: a pause halfway, for a writer to be killed mid-transaction. */
static void test_stall(int i, int n)
{
	const char *ms = getenv("BPFBENCH_DB_STALL_MS");

	if (ms && i == n / 2) {
		fprintf(stderr, "db: stalling mid-record\n");
		usleep((useconds_t)atoi(ms) * 1000);
	}
}

/* The result row: its id, 0 when this content is already recorded, -1 on error. */
static int64_t put_result(struct recorder *rc, const struct res_doc *doc, const char *hash,
			  const char *host, const char *date)
{
	struct store *s = rc->s;
	char now[32], *env = env_json(doc);
	int64_t id = -1;
	enum store_row st;
	int ret;

	now_utc(now, sizeof(now));
	ret = store_bind_text(s, rc->result, 1, hash) ||
	      store_bind_text(s, rc->result, 2, doc->path) ||
	      store_bind_text(s, rc->result, 3, now) || store_bind_text(s, rc->result, 4, host) ||
	      store_bind_text(s, rc->result, 5, doc->kernel ?: "unknown") ||
	      store_bind_text(s, rc->result, 6, resenv_get(&doc->env, "kernel_build")) ||
	      store_bind_text(s, rc->result, 7, resenv_get(&doc->env, "machine")) ||
	      store_bind_text(s, rc->result, 8, resenv_get(&doc->env, "cpu_model")) ||
	      store_bind_text(s, rc->result, 9, resenv_get(&doc->env, "bpfbench_version")) ||
	      store_bind_text(s, rc->result, 10, resenv_get(&doc->env, "git_commit")) ||
	      store_bind_text(s, rc->result, 11, date) ||
	      store_bind_text(s, rc->result, 12, env) ||
	      store_bind_int(s, rc->result, 13, doc->nr_runs);
	free(env);
	if (ret)
		return -1;
	st = store_step(s, rc->result);
	if (st == STEP_ROW)
		id = store_int(s, rc->result, 0);
	return st == STEP_DONE ? 0 : id;
}

static int write_doc(struct store *s, const struct res_doc *doc, const char *hash,
		     const char *host, const char *date, bool *added)
{
	struct recorder rc = { .s = s };
	int64_t id;
	int i, ret = -1;

	*added = false;
	if (store_begin(s))
		return -1;
	if (prepare(&rc))
		goto out;
	id = put_result(&rc, doc, hash, host, date);
	if (id <= 0) {
		ret = id < 0 ? -1 : 0;	/* 0: recorded before, by us or a concurrent writer */
		goto out;
	}
	for (i = 0; i < doc->nr_runs; i++) {
		test_stall(i, doc->nr_runs);
		if (put_run(&rc, id, i, &doc->runs[i]))
			goto out;
	}
	finish(&rc);
	*added = true;
	return store_commit(s);
out:
	finish(&rc);
	store_rollback(s);
	return ret;
}

/*
 * The figure the history keeps of each metric, by res_possible()'s rule
 * (resdoc_load() checked the file's own): an inverse's is computed.
 */
static int check_figures(const struct res_doc *doc)
{
	const struct res_metric *m;
	double fig, bad;
	int i, j, k;

	for (i = 0; i < doc->nr_runs; i++)
		for (j = 0; j < doc->runs[i].nr_metrics; j++) {
			m = &doc->runs[i].metrics[j];
			better_text(m, &fig);
			bad = !res_possible(m->kind, m->mean) ? m->mean : !res_possible(m->kind, fig) ? fig : NAN;
			for (k = 0; isnan(bad) && m->samples && k < doc->runs[i].nr_samples; k++)
				if (!res_possible(m->kind, m->samples[k]))
					bad = m->samples[k];
			if (!isnan(bad))
				return errmsg("%s: runs[%d].metrics.%s: %g %s, but a %s is >= 0: not "
					      "recorded", doc->path, i, m->id, bad, m->unit,
					      res_kind_name(m->kind)), EXIT_USAGE;
		}
	return 0;
}

/* Refused before the database is touched: what is not a whole, valid result. */
static int check_doc(const struct res_doc *doc, const char *host, char date[HDATE_LEN])
{
	int i;

	if (doc->interrupted)
		return errmsg("%s: an interrupted result (a signal stopped its runs): not "
			      "recorded", doc->path), EXIT_USAGE;
	if (!doc->nr_runs)
		return errmsg("%s: no runs: nothing to record", doc->path), EXIT_USAGE;
	for (i = 0; i < doc->nr_runs; i++)
		if (doc->runs[i].interrupted)
			return errmsg("%s: runs[%d] was interrupted: not recorded", doc->path, i),
			       EXIT_USAGE;
	if (!host)
		return errmsg("%s: the file does not name its host (env.hostname, written since "
			      "bpfbench records it): name it with --host NAME", doc->path), EXIT_USAGE;
	if (!doc->date || !*doc->date)
		return errmsg("%s: no env.date: a history needs it", doc->path), EXIT_USAGE;
	/* the history orders by the date's text: only a real date, in UTC, sorts as time */
	if (hdate_norm(doc->date, date))
		return errmsg("%s: env.date \"%s\" is not an RFC 3339 date-time "
			      "(2026-01-13T12:00:00Z): not recorded", doc->path,
			      shown_text(doc->date)), EXIT_USAGE;
	return check_figures(doc);
}

int history_record_file(struct store *s, const char *path, const struct record_opts *o)
{
	char hash[SHA256_HEX], date[HDATE_LEN];
	struct res_doc doc;
	const char *host;
	bool added;
	int ret;

	ret = file_hash(path, hash);
	if (ret)
		return ret;
	ret = resdoc_load(path, &doc);
	if (ret) {	/* what a refused file loaded before its fault is freed too */
		resdoc_free(&doc);
		return ret;
	}
	host = o->host ?: resenv_get(&doc.env, "hostname");
	ret = check_doc(&doc, host, date);
	if (!ret) {
		ret = write_doc(s, &doc, hash, host, date, &added) ? 1 : 0;
		if (!ret && !o->quiet)
			printf("%s: %s (%d run%s, %s, %s)\n", path,
			       added ? "recorded" : "already recorded, nothing added",
			       doc.nr_runs, doc.nr_runs == 1 ? "" : "s", shown_text(host),
			       shown_text(doc.kernel ?: "unknown"));
	}
	resdoc_free(&doc);
	return ret;
}
