// SPDX-License-Identifier: GPL-2.0
/*
 * The PostgreSQL driver of the seam (store.h), over libpq: each '?' of
 * the caller's SQL becomes $1, $2...; a statement is prepared on the
 * server once and run with its parameters as text.  Many hosts may
 * record at once: READ COMMITTED and the unique content hash make a
 * second recording of one file wait for the first, then do nothing.
 *
 * Rows come one at a time (libpq's single-row mode): changes reads a
 * million points, which a whole result would hold in memory at once.
 * A statement whose rows were not all read is drained before the
 * connection runs the next one, as SQLite's statements need no such care.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libpq-fe.h>
#include "store.h"
#include "util.h"

#define PG_MAX_PARAMS	32

struct stmt {
	struct store *s;
	char name[32];
	int nparams;
	char *param[PG_MAX_PARAMS];
	PGresult *res;		/* the current row's */
	bool running;		/* sent; results still to be read */
};

struct pg {
	PGconn *c;
	struct stmt *active;	/* the statement whose rows the connection is sending */
};

static PGconn *conn(struct store *s)
{
	return ((struct pg *)s->conn)->c;
}

/* The rest of a statement's results, read and dropped: the connection is free again. */
static void drain(struct stmt *st)
{
	struct pg *pg = st->s->conn;
	PGresult *r;

	if (!st->running)
		return;
	while ((r = PQgetResult(pg->c)))
		PQclear(r);
	st->running = false;
	pg->active = NULL;
}

static void drain_active(struct store *s)
{
	struct pg *pg = s->conn;

	if (pg->active)
		drain(pg->active);
}

/* libpq's messages end in a newline; ours are one line. */
static void keep_err(struct store *s, const char *msg)
{
	size_t n;

	snprintf(s->err, sizeof(s->err), "%s", msg && *msg ? msg : "unknown error");
	n = strlen(s->err);
	while (n && (s->err[n - 1] == '\n' || s->err[n - 1] == ' '))
		s->err[--n] = 0;
}

/* "relation already exists, skipping" and the like are not the user's business. */
static void no_notices(void *arg, const char *msg)
{
}

static int pg_open(struct store *s, const char *target)
{
	PGconn *c = PQconnectdb(target);

	if (!c || PQstatus(c) != CONNECTION_OK) {
		keep_err(s, c ? PQerrorMessage(c) : "out of memory");
		PQfinish(c);
		return -1;
	}
	struct pg *pg = xcalloc(1, sizeof(*pg));

	PQsetNoticeProcessor(c, no_notices, NULL);
	pg->c = c;
	s->conn = pg;
	return 0;
}

static void pg_close(struct store *s)
{
	drain_active(s);
	PQfinish(conn(s));
	free(s->conn);
	s->conn = NULL;
}

static int result_ok(struct store *s, PGresult *r)
{
	ExecStatusType st = PQresultStatus(r);

	if (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK)
		return 0;
	keep_err(s, PQresultErrorMessage(r));
	return -1;
}

static int pg_exec(struct store *s, const char *sql)
{
	PGresult *r;
	int ret;

	drain_active(s);
	r = PQexec(conn(s), sql);
	ret = result_ok(s, r);

	PQclear(r);
	return ret;
}

static int pg_begin(struct store *s)
{
	return pg_exec(s, "BEGIN");
}

/* Two first users would race to CREATE the same tables: one waits here until the other commits. */
static int pg_lock_schema(struct store *s)
{
	return pg_exec(s, "SELECT pg_advisory_xact_lock(3300033)");
}

/* '?' outside quotes becomes $N. */
static char *number_params(const char *sql, int *n)
{
	char *out = xcalloc(strlen(sql) * 4 + 1, 1), *o = out;
	bool quoted = false;

	*n = 0;
	for (; *sql; sql++) {
		if (*sql == '\'')
			quoted = !quoted;
		if (*sql == '?' && !quoted)
			o += sprintf(o, "$%d", ++*n);
		else
			*o++ = *sql;
	}
	return out;
}

static struct stmt *pg_prepare(struct store *s, const char *sql)
{
	static unsigned long seq;
	struct stmt *st = xcalloc(1, sizeof(*st));
	char *text = number_params(sql, &st->nparams);
	PGresult *r;

	st->s = s;
	snprintf(st->name, sizeof(st->name), "bb%lu", ++seq);
	if (st->nparams > PG_MAX_PARAMS) {
		keep_err(s, "too many parameters");
		goto fail;
	}
	drain_active(s);
	r = PQprepare(conn(s), st->name, text, st->nparams, NULL);
	if (result_ok(s, r)) {
		PQclear(r);
		goto fail;
	}
	PQclear(r);
	free(text);
	return st;
fail:
	free(text);
	free(st);
	return NULL;
}

static int set_param(struct stmt *st, int i, char *v)
{
	if (i < 1 || i > st->nparams) {
		free(v);
		keep_err(st->s, "parameter out of range");
		return -1;
	}
	free(st->param[i - 1]);
	st->param[i - 1] = v;
	return 0;
}

static int pg_bind_text(struct stmt *st, int i, const char *v)
{
	return set_param(st, i, v ? xstrdup(v) : NULL);
}

static int pg_bind_int(struct stmt *st, int i, int64_t v)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%lld", (long long)v);
	return set_param(st, i, xstrdup(buf));
}

static int pg_bind_double(struct stmt *st, int i, double v)
{
	char buf[40];

	if (!isfinite(v))
		return set_param(st, i, NULL);
	snprintf(buf, sizeof(buf), "%.17g", v);
	return set_param(st, i, xstrdup(buf));
}

static int start(struct stmt *st)
{
	struct pg *pg = st->s->conn;

	drain_active(st->s);
	if (!PQsendQueryPrepared(pg->c, st->name, st->nparams, (const char *const *)st->param,
				 NULL, NULL, 0)) {
		keep_err(st->s, PQerrorMessage(pg->c));
		return -1;
	}
	PQsetSingleRowMode(pg->c);
	st->running = true;
	pg->active = st;
	return 0;
}

/* Each call the next row (PGRES_SINGLE_TUPLE), then the end: the statement's status. */
static enum store_row pg_step(struct stmt *st)
{
	PGresult *r;

	PQclear(st->res);
	st->res = NULL;
	if (!st->running && start(st))
		return STEP_ERROR;
	r = PQgetResult(conn(st->s));
	if (r && PQresultStatus(r) == PGRES_SINGLE_TUPLE) {
		st->res = r;
		return STEP_ROW;
	}
	if (!r || !result_ok(st->s, r)) {
		PQclear(r);
		drain(st);
		return STEP_DONE;
	}
	PQclear(r);
	drain(st);
	return STEP_ERROR;
}

static const char *pg_col_text(struct stmt *st, int i)
{
	if (!st->res || PQgetisnull(st->res, 0, i))
		return NULL;
	return PQgetvalue(st->res, 0, i);
}

static double pg_col_double(struct stmt *st, int i)
{
	const char *t = pg_col_text(st, i);

	return t ? strtod(t, NULL) : NAN;
}

static void pg_reset(struct stmt *st)
{
	int i;

	PQclear(st->res);
	st->res = NULL;
	drain(st);
	for (i = 0; i < st->nparams; i++) {
		free(st->param[i]);
		st->param[i] = NULL;
	}
}

static void pg_finalize(struct stmt *st)
{
	char sql[64];

	pg_reset(st);
	snprintf(sql, sizeof(sql), "DEALLOCATE %s", st->name);
	drain_active(st->s);
	PQclear(PQexec(conn(st->s), sql));	/* fails harmlessly in an aborted transaction */
	free(st);
}

static const char *pg_errmsg(struct store *s)
{
	return s->err;
}

const struct store_ops store_pg_ops = {
	.name = "postgresql",
	.id_type = "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY",
	.open = pg_open,
	.close = pg_close,
	.exec = pg_exec,
	.begin = pg_begin,
	.lock_schema = pg_lock_schema,
	.prepare = pg_prepare,
	.bind_text = pg_bind_text,
	.bind_int = pg_bind_int,
	.bind_double = pg_bind_double,
	.next_row = pg_step,
	.col_text = pg_col_text,
	.col_double = pg_col_double,
	.reset = pg_reset,
	.finalize = pg_finalize,
	.errmsg = pg_errmsg,
};
