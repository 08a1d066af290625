// SPDX-License-Identifier: GPL-2.0
/*
 * The seam's dispatch, its error-reporting wrappers and the schema with
 * its migrations: the same SQL on both engines, the auto-numbered key
 * being the one word of DDL that differs (store.h).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "opts.h"
#include "store.h"
#include "util.h"

const char *store_default_path(char *buf, size_t len)
{
	const char *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");

	if (xdg && *xdg == '/')	/* the spec: a relative one is to be ignored */
		snprintf(buf, len, "%s/bpfbench/results.db", xdg);
	else
		snprintf(buf, len, "%s/.local/share/bpfbench/results.db", home && *home ? home : ".");
	return buf;
}

/* mkdir -p of the default file's folder: only the default is created so. */
static int make_parents(const char *path)
{
	char dir[4096], *p;

	snprintf(dir, sizeof(dir), "%s", path);
	p = strrchr(dir, '/');
	if (!p)
		return 0;
	*p = 0;
	for (p = dir + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(dir, 0755) && errno != EEXIST)
			return -1;
		*p = '/';
	}
	return mkdir(dir, 0755) && errno != EEXIST ? -1 : 0;
}

static bool is_pg(const char *t)
{
	return !strncmp(t, "postgresql://", 13) || !strncmp(t, "postgres://", 11);
}

int store_open(struct store *s, const char *target, unsigned int flags)
{
	static char def[4096];

	memset(s, 0, sizeof(*s));
	s->flags = flags;
	if (!target) {
		target = store_default_path(def, sizeof(def));
		if (make_parents(target)) {
			errmsg("db: cannot create the folder of %s: %s", target, strerror(errno));
			return -1;
		}
	}
	s->target = is_pg(target) ? "the PostgreSQL database" : target;
	s->ops = is_pg(target) ? &store_pg_ops : &store_sqlite_ops;
	if (s->ops->open(s, target)) {
		errmsg("db: cannot open %s: %s", s->target, s->err);
		s->ops = NULL;
		return s->refused ? EXIT_USAGE : 1;
	}
	return 0;
}

void store_close(struct store *s)
{
	if (s->ops)
		s->ops->close(s);
	s->ops = NULL;
}

static int failed(struct store *s, const char *what)
{
	errmsg("db: %s: %s", what, s->ops->errmsg(s));
	return -1;
}

int store_exec(struct store *s, const char *sql)
{
	return s->ops->exec(s, sql) ? failed(s, "query failed") : 0;
}

int store_begin(struct store *s)
{
	return s->ops->begin(s) ? failed(s, "cannot begin a transaction") : 0;
}

int store_commit(struct store *s)
{
	return s->ops->exec(s, "COMMIT") ? failed(s, "commit failed") : 0;
}

/* After a failure: its message is already out, the rollback's own is not wanted. */
void store_rollback(struct store *s)
{
	s->ops->exec(s, "ROLLBACK");
}

struct stmt *store_prepare(struct store *s, const char *sql)
{
	struct stmt *st = s->ops->prepare(s, sql);

	if (!st)
		failed(s, "cannot prepare a query");
	return st;
}

int store_bind_text(struct store *s, struct stmt *st, int i, const char *v)
{
	return s->ops->bind_text(st, i, v) ? failed(s, "bind") : 0;
}

int store_bind_int(struct store *s, struct stmt *st, int i, int64_t v)
{
	return s->ops->bind_int(st, i, v) ? failed(s, "bind") : 0;
}

int store_bind_double(struct store *s, struct stmt *st, int i, double v)
{
	return s->ops->bind_double(st, i, v) ? failed(s, "bind") : 0;
}

enum store_row store_step(struct store *s, struct stmt *st)
{
	enum store_row r = s->ops->next_row(st);

	if (r == STEP_ERROR)
		failed(s, "query failed");
	return r;
}

const char *store_text(struct store *s, struct stmt *st, int i)
{
	return s->ops->col_text(st, i);
}

int64_t store_int(struct store *s, struct stmt *st, int i)
{
	const char *t = s->ops->col_text(st, i);

	return t ? strtoll(t, NULL, 10) : 0;
}

double store_double(struct store *s, struct stmt *st, int i)
{
	return s->ops->col_double(st, i);
}

void store_reset(struct store *s, struct stmt *st)
{
	s->ops->reset(st);
}

void store_finalize(struct store *s, struct stmt *st)
{
	if (st)
		s->ops->finalize(st);
}

int64_t store_scalar(struct store *s, const char *sql, const char *param)
{
	struct stmt *st = store_prepare(s, sql);
	int64_t v = -1;

	if (!st)
		return -1;
	if ((!param || !store_bind_text(s, st, 1, param)) && store_step(s, st) == STEP_ROW &&
	    store_text(s, st, 0))
		v = store_int(s, st, 0);
	store_finalize(s, st);
	return v;
}

/*
 * Each version's step from the one before.  v1: results, their runs and
 * metrics (samples as %.17g text, one row a metric: a suite's file is
 * hundreds of rows, not tens of thousands).  v2: the samples' repeat
 * tags, and the indexes the history's queries use (by host and date,
 * by benchmark and measured options).  v3: each run's samples whose threads
 * moved to another CPU (placement).  @ID is the engine's key type.
 */
static const char *const migrations[STORE_SCHEMA_VERSION + 1] = {
	[1] = "CREATE TABLE results (id @ID, sha256 TEXT NOT NULL UNIQUE, path TEXT,"
	      " recorded_at TEXT NOT NULL, host TEXT NOT NULL, kernel TEXT NOT NULL,"
	      " kernel_build TEXT, machine TEXT, cpu_model TEXT, version TEXT, git_commit TEXT,"
	      " date TEXT NOT NULL, env TEXT NOT NULL, nr_runs BIGINT NOT NULL);"
	      "CREATE TABLE runs (id @ID, result_id BIGINT NOT NULL REFERENCES results(id),"
	      " idx BIGINT NOT NULL, bench TEXT NOT NULL, label TEXT, suite TEXT, section TEXT,"
	      " status BIGINT NOT NULL, options TEXT NOT NULL, measured TEXT NOT NULL,"
	      " nr_samples BIGINT NOT NULL);"
	      "CREATE TABLE metrics (id @ID, run_id BIGINT NOT NULL REFERENCES runs(id),"
	      " name TEXT NOT NULL, mkey TEXT NOT NULL, unit TEXT NOT NULL, kind TEXT NOT NULL,"
	      " better TEXT NOT NULL, n BIGINT NOT NULL, mean DOUBLE PRECISION,"
	      " stddev DOUBLE PRECISION, figure DOUBLE PRECISION, samples TEXT NOT NULL);"
	      "CREATE INDEX runs_result ON runs(result_id);"
	      "CREATE INDEX metrics_run ON metrics(run_id);",
	[2] = "ALTER TABLE runs ADD COLUMN repeats TEXT;"
	      "CREATE INDEX results_host_date ON results(host, date);"
	      "CREATE INDEX runs_series ON runs(bench, measured);",
	/* placement (issue 41): samples whose threads moved; NULL: the file did not say */
	[3] = "ALTER TABLE runs ADD COLUMN moved_samples BIGINT;",
};

static int run_migration(struct store *s, int v)
{
	const char *sql = migrations[v], *at;
	size_t idlen = strlen(s->ops->id_type), n = 0;
	char *buf = xcalloc(strlen(sql) * 4 + 1, 1);
	int ret;

	for (; (at = strstr(sql, "@ID")); sql = at + 3) {
		memcpy(buf + n, sql, at - sql);
		n += at - sql;
		memcpy(buf + n, s->ops->id_type, idlen);
		n += idlen;
	}
	strcpy(buf + n, sql);
	ret = store_exec(s, buf);
	free(buf);
	return ret;
}

static int set_version(struct store *s, int v)
{
	char sql[128];

	snprintf(sql, sizeof(sql), "DELETE FROM schema_version; INSERT INTO schema_version VALUES (%d)",
		 v);
	return store_exec(s, sql);
}

/*
 * The schema's version: 0 for a new database, -1 after a message, or
 * EXIT_USAGE's negation for a schema_version of other than one row (two
 * versions: which one is the schema's?).
 */
static int64_t schema_version(struct store *s)
{
	int64_t n = store_scalar(s, "SELECT count(*) FROM schema_version", NULL);

	if (n < 0)
		return -1;
	if (n > 1) {
		errmsg("db: %s: its schema_version table holds %lld rows, not one: refused",
		       s->target, (long long)n);
		return -EXIT_USAGE;
	}
	return store_scalar(s, "SELECT coalesce(max(version), 0) FROM schema_version", NULL);
}

static bool too_new(struct store *s, int64_t v)
{
	if (v <= STORE_SCHEMA_VERSION)
		return false;
	errmsg("db: %s has schema version %lld, newer than this bpfbench's (%d): "
	       "use a newer bpfbench", s->target, (long long)v, STORE_SCHEMA_VERSION);
	return true;
}

/* In one transaction, under the engine's schema lock: concurrent first users wait, then see it. */
int store_migrate(struct store *s)
{
	int64_t v;
	int i;

	if (store_begin(s))
		return -1;
	if (s->ops->lock_schema(s)) {
		failed(s, "cannot lock the schema");
		goto fail;
	}
	if (store_exec(s, "CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL)"))
		goto fail;
	v = schema_version(s);
	if (v < 0) {
		store_rollback(s);
		return v == -EXIT_USAGE ? EXIT_USAGE : -1;
	}
	if (too_new(s, v))
		goto fail;
	for (i = (int)v + 1; i <= STORE_SCHEMA_VERSION; i++)
		if (run_migration(s, i))
			goto fail;
	if (v < STORE_SCHEMA_VERSION && set_version(s, STORE_SCHEMA_VERSION))
		goto fail;
	return store_commit(s);
fail:
	store_rollback(s);
	return -1;
}

/*
 * Read-only, a SQLite database is only looked at: one of an older schema
 * is opened again to be migrated, then read-only again; one without our
 * tables yet (created empty) needs the same.
 */
static int check_readonly(struct store *s, const char *target)
{
	int64_t has = store_scalar(s, "SELECT count(*) FROM sqlite_master WHERE type = 'table'"
				   " AND name = 'schema_version'", NULL), v;
	unsigned int flags = s->flags;
	int ret;

	v = has > 0 ? schema_version(s) : has;
	if (v == -EXIT_USAGE)
		return EXIT_USAGE;
	if ((v < 0 && has != 0) || too_new(s, v))
		return 1;
	if (v == STORE_SCHEMA_VERSION)
		return 0;
	store_close(s);
	ret = store_open(s, target, flags & ~STORE_READONLY);
	if (!ret) {
		ret = store_migrate(s);
		store_close(s);
	}
	return ret ? (ret == EXIT_USAGE ? ret : 1) : store_open(s, target, flags);
}

int store_open_db(struct store *s, const char *target, unsigned int flags)
{
	int ret = store_open(s, target, flags);

	if (ret)
		return ret;
	if ((flags & STORE_READONLY) && s->ops == &store_sqlite_ops)
		ret = check_readonly(s, target);
	else
		ret = store_migrate(s);
	if (ret < 0)
		ret = 1;
	if (!ret && (flags & STORE_READONLY) && s->ops == &store_pg_ops &&
	    store_exec(s, "SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY"))
		ret = 1;
	if (ret)
		store_close(s);
	return ret;
}
