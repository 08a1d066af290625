// SPDX-License-Identifier: GPL-2.0
/*
 * The SQLite driver of the seam (store.h).  WAL, so readers never wait
 * for a writer; a busy timeout, so concurrent writers on one host wait
 * for each other rather than fail; and a write transaction takes its
 * lock at BEGIN (IMMEDIATE), as a lock upgraded later can deadlock two
 * writers, and SQLite then fails one at once whatever the timeout.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include "store.h"
#include "util.h"

#define BUSY_TIMEOUT_MS	60000

struct stmt {
	struct store *s;
	sqlite3_stmt *st;
};

static sqlite3 *db(struct store *s)
{
	return s->conn;
}

static int sq_exec(struct store *s, const char *sql)
{
	char *err = NULL;

	if (sqlite3_exec(db(s), sql, NULL, NULL, &err) == SQLITE_OK)
		return 0;
	snprintf(s->err, sizeof(s->err), "%s", err ? err : sqlite3_errmsg(db(s)));
	sqlite3_free(err);
	return -1;
}

/*
 * SQL a database carries runs when its tables are written (a trigger) or
 * read (a view): ours has neither, so one that does is not ours to use.
 */
static int carries_sql(struct store *s)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(db(s), "SELECT type, name FROM sqlite_master WHERE type IN "
			       "('trigger', 'view') ORDER BY type, name", -1, &st, NULL) != SQLITE_OK) {
		snprintf(s->err, sizeof(s->err), "%s", sqlite3_errmsg(db(s)));
		return -1;
	}
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		snprintf(s->err, sizeof(s->err), "it holds a %s '%s' that bpfbench did not make: "
			 "refused (its SQL would run in our commands)", sqlite3_column_text(st, 0),
			 sqlite3_column_text(st, 1));
		s->refused = true;
	} else if (rc != SQLITE_DONE) {
		snprintf(s->err, sizeof(s->err), "%s", sqlite3_errmsg(db(s)));
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

/*
 * On a read-only mount SQLite reads a WAL database only if its -shm is
 * there (it cannot make one) or it is told the file cannot change, which
 * such a mount makes true: then it is opened as an immutable URI.
 */
static bool immutable_uri(const char *path, char *uri)
{
	char shm[PATH_MAX + 8], *o = uri;
	const unsigned char *c;
	struct statvfs vfs;

	snprintf(shm, sizeof(shm), "%s-shm", path);
	if (statvfs(path, &vfs) || !(vfs.f_flag & ST_RDONLY) || !access(shm, F_OK))
		return false;
	o += sprintf(o, "file:");
	for (c = (const unsigned char *)path; *c; c++)
		o += sprintf(o, strchr("?#%&=", *c) || *c < 0x20 || *c >= 0x7f ? "%%%02X" : "%c", *c);
	sprintf(o, "?immutable=1");
	return true;
}

/*
 * The file as store_file_resolve() checked it, by its folder's real path
 * and without following a link (one there now was put since: refused).
 * Reading commands open it read-only: they work on a read-only mount.
 */
static int sq_open(struct store *s, const char *target)
{
	int flags = SQLITE_OPEN_NOFOLLOW | ((s->flags & STORE_READONLY) ? SQLITE_OPEN_READONLY :
					    SQLITE_OPEN_READWRITE);
	char path[PATH_MAX], uri[PATH_MAX * 3 + 32];	/* each byte %XX at worst */
	struct stat st;
	sqlite3 *h = NULL;

	if (store_file_resolve(s, target, path, sizeof(path), &st))
		return -1;
	if ((s->flags & STORE_READONLY) && immutable_uri(path, uri))
		flags |= SQLITE_OPEN_URI;
	if (sqlite3_open_v2(flags & SQLITE_OPEN_URI ? uri : path, &h, flags, NULL)) {
		snprintf(s->err, sizeof(s->err), "%s", h ? sqlite3_errmsg(h) : "out of memory");
		sqlite3_close(h);
		return -1;
	}
	s->conn = h;
	sqlite3_busy_timeout(h, BUSY_TIMEOUT_MS);
	sqlite3_db_config(h, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, NULL);
	sqlite3_db_config(h, SQLITE_DBCONFIG_DEFENSIVE, 1, NULL);
	/* not a database (a result file given as --db): said here, not at the first query */
	if (store_file_same(s, path, &st) || carries_sql(s) ||
	    sq_exec(s, (s->flags & STORE_READONLY) ? "PRAGMA foreign_keys=ON" :
		    "PRAGMA journal_mode=WAL; PRAGMA foreign_keys=ON")) {
		sqlite3_close(h);
		s->conn = NULL;
		return -1;
	}
	return 0;
}

static void sq_close(struct store *s)
{
	sqlite3_close(db(s));
	s->conn = NULL;
}

static int sq_begin(struct store *s)
{
	return sq_exec(s, "BEGIN IMMEDIATE");
}

/* BEGIN IMMEDIATE already holds the one write lock a database has. */
static int sq_lock_schema(struct store *s)
{
	return 0;
}

static struct stmt *sq_prepare(struct store *s, const char *sql)
{
	struct stmt *st = xcalloc(1, sizeof(*st));

	st->s = s;
	if (sqlite3_prepare_v2(db(s), sql, -1, &st->st, NULL) == SQLITE_OK)
		return st;
	snprintf(s->err, sizeof(s->err), "%s", sqlite3_errmsg(db(s)));
	free(st);
	return NULL;
}

static int sq_rc(struct stmt *st, int rc)
{
	if (rc == SQLITE_OK)
		return 0;
	snprintf(st->s->err, sizeof(st->s->err), "%s", sqlite3_errmsg(db(st->s)));
	return -1;
}

static int sq_bind_text(struct stmt *st, int i, const char *v)
{
	return sq_rc(st, v ? sqlite3_bind_text(st->st, i, v, -1, SQLITE_TRANSIENT) :
		     sqlite3_bind_null(st->st, i));
}

static int sq_bind_int(struct stmt *st, int i, int64_t v)
{
	return sq_rc(st, sqlite3_bind_int64(st->st, i, v));
}

static int sq_bind_double(struct stmt *st, int i, double v)
{
	return sq_rc(st, isfinite(v) ? sqlite3_bind_double(st->st, i, v) :
		     sqlite3_bind_null(st->st, i));
}

static enum store_row sq_step(struct stmt *st)
{
	int rc = sqlite3_step(st->st);

	if (rc == SQLITE_ROW)
		return STEP_ROW;
	if (rc == SQLITE_DONE)
		return STEP_DONE;
	snprintf(st->s->err, sizeof(st->s->err), "%s", sqlite3_errmsg(db(st->s)));
	return STEP_ERROR;
}

/*
 * Text of any column: a REAL as SQLite prints it would lose digits, so
 * it is printed here with 17, which read back as the same double.
 */
static const char *sq_col_text(struct stmt *st, int i)
{
	static char num[4][40];
	static int next;
	char *buf;

	switch (sqlite3_column_type(st->st, i)) {
	case SQLITE_NULL:
		return NULL;
	case SQLITE_FLOAT:
		buf = num[next++ & 3];
		snprintf(buf, sizeof(num[0]), "%.17g", sqlite3_column_double(st->st, i));
		return buf;
	default:
		return (const char *)sqlite3_column_text(st->st, i);
	}
}

/* A million points are read by changes: not through text. */
static double sq_col_double(struct stmt *st, int i)
{
	const char *t;
	char *end;
	double v;

	if (sqlite3_column_type(st->st, i) == SQLITE_NULL)
		return NAN;
	if (sqlite3_column_type(st->st, i) != SQLITE_TEXT)
		return sqlite3_column_double(st->st, i);
	/* text ('NaN', 'x') would read as 0: a number only if it is one, whole */
	t = (const char *)sqlite3_column_text(st->st, i);
	v = t ? strtod(t, &end) : NAN;
	return t && *t && !*end ? v : NAN;
}

static void sq_reset(struct stmt *st)
{
	sqlite3_reset(st->st);
	sqlite3_clear_bindings(st->st);
}

static void sq_finalize(struct stmt *st)
{
	sqlite3_finalize(st->st);
	free(st);
}

static const char *sq_errmsg(struct store *s)
{
	return s->err;
}

const struct store_ops store_sqlite_ops = {
	.name = "sqlite",
	.id_type = "INTEGER PRIMARY KEY",
	.open = sq_open,
	.close = sq_close,
	.exec = sq_exec,
	.begin = sq_begin,
	.lock_schema = sq_lock_schema,
	.prepare = sq_prepare,
	.bind_text = sq_bind_text,
	.bind_int = sq_bind_int,
	.bind_double = sq_bind_double,
	.next_row = sq_step,
	.col_text = sq_col_text,
	.col_double = sq_col_double,
	.reset = sq_reset,
	.finalize = sq_finalize,
	.errmsg = sq_errmsg,
};
