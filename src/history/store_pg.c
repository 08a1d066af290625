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
 *
 * No wait is unbounded and none ignores a signal: libpq's blocking calls
 * poll again after EINTR and wait for as long as a server that accepted
 * stays silent (or stopped).  So the connection is non-blocking and every
 * wait is our poll(), with a deadline (connect_timeout; then the
 * statement_timeout plus a margin, for a server too stopped to enforce
 * its own) and a look at interrupted() between slices.
 */
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <libpq-fe.h>
#include "store.h"
#include "util.h"

#define PG_MAX_PARAMS	32
/* Ours unless the URI says otherwise (db --help, doc/history.md). */
#define PG_CONNECT_TIMEOUT	"10"
#define PG_STATEMENT_TIMEOUT_MS	300000
/* The bound after which a signal's cancel request is given up: a stopped server never answers it. */
#define PG_CANCEL_WAIT_S	2
/* How late a signal may be seen when it came just before poll() */
#define PG_POLL_SLICE_MS	100

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
	int64_t bound_ms;	/* the longest wait for the server; 0: none (the user's choice) */
	char broken[200];	/* why the connection is given up (timeout, signal): every call fails so */
};

static PGconn *conn(struct store *s)
{
	return ((struct pg *)s->conn)->c;
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

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void *cancel_thread(void *arg)
{
	char err[256];

	PQcancel(arg, err, sizeof(err));
	return NULL;
}

/*
 * Asks the server to stop the running statement, for PG_CANCEL_WAIT_S at
 * most: PQcancel() waits for the server to close the request's own
 * connection, which a stopped server never does.  A request given up is
 * left to its thread, which the process's exit (what follows) ends.
 */
static void cancel_bounded(PGconn *c)
{
	PGcancel *cn = PQgetCancel(c);
	struct timespec ts;
	sigset_t old;
	pthread_t t;
	int err;

	if (!cn)
		return;
	stop_signals_block(&old);	/* a second signal still wakes the main thread's poll */
	err = pthread_create(&t, NULL, cancel_thread, cn);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err) {
		PQfreeCancel(cn);
		return;
	}
	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += PG_CANCEL_WAIT_S;
	if (pthread_timedjoin_np(t, NULL, &ts)) {
		pthread_detach(t);
		return;
	}
	PQfreeCancel(cn);
}

/*
 * Until c's socket is ready for events, the deadline (0: none) passes or
 * a stop signal comes (seen within a slice of poll: one that came just
 * before it does not interrupt it).  0, or -1 with why in pg->broken.
 */
static int wait_io(struct pg *pg, short events, int64_t deadline, const char *bound)
{
	struct pollfd p = { .fd = PQsocket(pg->c), .events = events };
	int64_t left;
	int n;

	for (;;) {
		if (interrupted()) {
			snprintf(pg->broken, sizeof(pg->broken), "interrupted by SIG%s",
				 sigabbrev_np(interrupted_signal()) ?: "?");
			return -1;
		}
		left = deadline ? deadline - now_ms() : PG_POLL_SLICE_MS;
		if (left <= 0) {
			snprintf(pg->broken, sizeof(pg->broken),
				 "no answer from the server within %s: given up", bound);
			return -1;
		}
		n = poll(&p, 1, left < PG_POLL_SLICE_MS ? (int)left : PG_POLL_SLICE_MS);
		if (n > 0)
			return 0;
		if (n < 0 && errno != EINTR) {
			snprintf(pg->broken, sizeof(pg->broken), "poll: %s", strerror(errno));
			return -1;
		}
	}
}

/* A connection given up says why at every later call, and waits for nothing. */
static int given_up(struct store *s)
{
	struct pg *pg = s->conn;

	if (!pg->broken[0])
		return 0;
	keep_err(s, pg->broken);
	return -1;
}

/*
 * The next result of the command sent, what is left of it flushed first:
 * 0 (*r NULL when there are no more) or -1.  The bound is on each wait,
 * so a long stream of rows is not cut, a silence is.
 */
static int next_result(struct store *s, PGresult **r)
{
	struct pg *pg = s->conn;
	int64_t deadline = pg->bound_ms ? now_ms() + pg->bound_ms : 0;
	char bound[96];
	int f;

	*r = NULL;
	if (given_up(s))
		return -1;
	snprintf(bound, sizeof(bound), "%lld ms (statement_timeout and a margin)",
		 (long long)pg->bound_ms);
	while ((f = PQflush(pg->c)) == 1)
		if (wait_io(pg, POLLIN | POLLOUT, deadline, bound) || !PQconsumeInput(pg->c))
			goto fail;
	if (f < 0)
		goto fail;
	while (PQisBusy(pg->c))
		if (wait_io(pg, POLLIN, deadline, bound) || !PQconsumeInput(pg->c))
			goto fail;
	*r = PQgetResult(pg->c);
	return 0;
fail:
	if (!pg->broken[0]) {
		keep_err(s, PQerrorMessage(pg->c));
		return -1;
	}
	/* a server silent past its own statement_timeout would not hear a cancel either */
	if (interrupted())
		cancel_bounded(pg->c);
	keep_err(s, pg->broken);
	return -1;
}

/* The rest of a statement's results, read and dropped: the connection is free again. */
static void drain(struct stmt *st)
{
	struct pg *pg = st->s->conn;
	PGresult *r;

	if (!st->running)
		return;
	while (!next_result(st->s, &r) && r)
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

static int result_ok(struct store *s, PGresult *r)
{
	ExecStatusType st = PQresultStatus(r);

	if (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK)
		return 0;
	keep_err(s, PQresultErrorMessage(r));
	return -1;
}

/* Every result of a command just sent (sent: whether it was), read: 0, or -1 with the first error. */
static int collect(struct store *s, int sent)
{
	PGresult *r;
	int ret = 0;

	if (!sent) {
		keep_err(s, PQerrorMessage(conn(s)));
		return -1;
	}
	for (;;) {
		if (next_result(s, &r))
			return -1;
		if (!r)
			return ret;
		if (!ret)
			ret = result_ok(s, r);
		PQclear(r);
	}
}

/* "relation already exists, skipping" and the like are not the user's business. */
static void no_notices(void *arg, const char *msg)
{
}

static int pg_exec(struct store *s, const char *sql)
{
	drain_active(s);
	if (given_up(s))
		return -1;
	return collect(s, PQsendQuery(conn(s), sql));
}

/* libpq's connect_timeout as it applies it: 0 or none, no bound; else at least 2 s. */
static int64_t connect_deadline(PGconn *c)
{
	PQconninfoOption *o = PQconninfo(c), *i;
	long t = 0;

	for (i = o; i && i->keyword; i++)
		if (!strcmp(i->keyword, "connect_timeout") && i->val)
			t = strtol(i->val, NULL, 10);
	PQconninfoFree(o);
	if (t <= 0)
		return 0;
	return now_ms() + (t < 2 ? 2 : t) * 1000;
}

/*
 * Our statement_timeout unless the user's URI (options=-c ..., source
 * "client") or the server's configuration set one; the client's bound
 * from it, for a server too stopped to enforce it.
 */
static int statement_bound(struct store *s)
{
	static const char q[] = "SELECT setting, source FROM pg_settings WHERE name = 'statement_timeout'";
	struct pg *pg = s->conn;
	long long ms = PG_STATEMENT_TIMEOUT_MS;
	char sql[80];
	PGresult *r;
	bool ours;

	pg->bound_ms = ms + 2000 + ms / 10;
	if (!PQsendQuery(pg->c, q) || next_result(s, &r) || !r) {
		keep_err(s, pg->broken[0] ? pg->broken : PQerrorMessage(pg->c));
		return -1;
	}
	if (PQresultStatus(r) != PGRES_TUPLES_OK || PQntuples(r) != 1) {
		keep_err(s, PQresultErrorMessage(r));
		PQclear(r);
		return -1;
	}
	ms = strtoll(PQgetvalue(r, 0, 0), NULL, 10);
	ours = strcmp(PQgetvalue(r, 0, 1), "client") &&
	       (!ms || !strcmp(PQgetvalue(r, 0, 1), "default"));
	PQclear(r);
	if (collect(s, 1))
		return -1;
	if (ours) {
		ms = PG_STATEMENT_TIMEOUT_MS;
		snprintf(sql, sizeof(sql), "SET statement_timeout = %lld", ms);
		if (pg_exec(s, sql))
			return -1;
	}
	pg->bound_ms = ms ? ms + 2000 + ms / 10 : 0;
	return 0;
}

/*
 * Our connect_timeout comes first, the URI after it: libpq keeps the last
 * value of a keyword, so the user's wins (and $PGCONNECT_TIMEOUT's).  The connection is made by
 * PQconnectPoll() under our waits, libpq's own being unbounded by signals.
 */
static int pg_open(struct store *s, const char *target)
{
	static const char *const kw[] = { "connect_timeout", "dbname", NULL };
	/* an explicit keyword would beat the user's PGCONNECT_TIMEOUT: then there is none */
	const char *const val[] = { PG_CONNECT_TIMEOUT, target, NULL }, *const *k = kw, *const *v = val;
	PostgresPollingStatusType ps = PGRES_POLLING_WRITING;
	struct pg *pg = xcalloc(1, sizeof(*pg));
	char bound[64];
	int64_t deadline;

	s->conn = pg;
	if (getenv("PGCONNECT_TIMEOUT")) {
		k++;
		v++;
	}
	pg->c = PQconnectStartParams(k, v, 1);
	if (!pg->c || PQstatus(pg->c) == CONNECTION_BAD)
		goto fail;
	deadline = connect_deadline(pg->c);
	snprintf(bound, sizeof(bound), "%lld s (connect_timeout)",
		 deadline ? (long long)(deadline - now_ms() + 500) / 1000 : 0);
	while (ps != PGRES_POLLING_OK) {
		if (ps == PGRES_POLLING_FAILED)
			goto fail;
		if (wait_io(pg, ps == PGRES_POLLING_READING ? POLLIN : POLLOUT, deadline, bound)) {
			keep_err(s, pg->broken);
			goto out;
		}
		ps = PQconnectPoll(pg->c);
	}
	PQsetNoticeProcessor(pg->c, no_notices, NULL);
	if (PQsetnonblocking(pg->c, 1))
		goto fail;
	if (!statement_bound(s))
		return 0;
	goto out;
fail:
	keep_err(s, pg->c ? PQerrorMessage(pg->c) : "out of memory");
out:
	PQfinish(pg->c);
	free(pg);
	s->conn = NULL;
	return -1;
}

static void pg_close(struct store *s)
{
	drain_active(s);
	PQfinish(conn(s));
	free(s->conn);
	s->conn = NULL;
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

	st->s = s;
	snprintf(st->name, sizeof(st->name), "bb%lu", ++seq);
	if (st->nparams > PG_MAX_PARAMS) {
		keep_err(s, "too many parameters");
		goto fail;
	}
	drain_active(s);
	if (given_up(s) || collect(s, PQsendPrepare(conn(s), st->name, text, st->nparams, NULL)))
		goto fail;
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
	if (given_up(st->s))
		return -1;
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
	if (next_result(st->s, &r)) {
		drain(st);
		return STEP_ERROR;
	}
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
	char sql[64], err[sizeof(st->s->err)];

	pg_reset(st);
	snprintf(sql, sizeof(sql), "DEALLOCATE %s", st->name);
	/* fails harmlessly in an aborted transaction: the failure already said stays */
	memcpy(err, st->s->err, sizeof(err));
	pg_exec(st->s, sql);
	memcpy(st->s->err, err, sizeof(err));
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
