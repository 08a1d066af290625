/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The results history's database seam: one code path over two engines,
 * SQLite (embedded, the default) and PostgreSQL (libpq, for a fleet).
 *
 * No ORM: the callers write SQL both engines accept, with '?' for each
 * parameter; the PostgreSQL driver numbers them $1, $2... as it prepares.
 * Parameters and columns are text, 64-bit integers or doubles; a double
 * goes over the wire as %.17g text, which reads back as the same double.
 */
#ifndef BPFBENCH_STORE_H
#define BPFBENCH_STORE_H

#include <stdbool.h>
#include <stdint.h>

struct store;
struct stmt;

enum store_row { STEP_ERROR = -1, STEP_DONE, STEP_ROW };	/* what a step gave */

struct store_ops {
	const char *name;		/* "sqlite", "postgresql" */
	/* the DDL words that differ: an auto-numbered key */
	const char *id_type;
	int (*open)(struct store *s, const char *target);
	void (*close)(struct store *s);
	/* one or more statements without parameters */
	int (*exec)(struct store *s, const char *sql);
	/* a write transaction: SQLite takes its lock at once (BEGIN IMMEDIATE) */
	int (*begin)(struct store *s);
	/* serializes schema creation and migration between processes, in a transaction */
	int (*lock_schema)(struct store *s);
	struct stmt *(*prepare)(struct store *s, const char *sql);
	int (*bind_text)(struct stmt *st, int i, const char *v);	/* i from 1; NULL: SQL NULL */
	int (*bind_int)(struct stmt *st, int i, int64_t v);
	int (*bind_double)(struct stmt *st, int i, double v);	/* NAN: SQL NULL */
	enum store_row (*next_row)(struct stmt *st);
	const char *(*col_text)(struct stmt *st, int i);	/* i from 0; NULL: SQL NULL */
	double (*col_double)(struct stmt *st, int i);	/* NULL: NAN */
	void (*reset)(struct stmt *st);	/* ready to bind and run again */
	void (*finalize)(struct stmt *st);
	const char *(*errmsg)(struct store *s);
};

/* How a database is opened: only read (SQLite read-only, PostgreSQL read-only transactions); trusted */
enum { STORE_READONLY = 1, STORE_TRUST = 2 };

struct store {
	const struct store_ops *ops;
	void *conn;
	char err[512];
	const char *target;	/* what the user named, for messages (no password) */
	unsigned int flags;	/* STORE_* */
	bool refused;		/* the failure is the database's (exit 2), not the engine's */
};

/*
 * Opens the database TARGET (a path or postgresql:// URI; NULL: the default
 * file), its schema created or migrated (a read-only SQLite opening reopens
 * to migrate an older one): 0, EXIT_USAGE for a database refused, else 1.
 */
int store_open_db(struct store *s, const char *target, unsigned int flags);
int store_open(struct store *s, const char *target, unsigned int flags);
void store_close(struct store *s);
/* The default SQLite file: $XDG_DATA_HOME/bpfbench/results.db or ~/.local/share/... */
const char *store_default_path(char *buf, size_t len);

/* Convenience over the seam: each returns 0 or -1 after errmsg(). */
int store_exec(struct store *s, const char *sql);
int store_begin(struct store *s);
int store_commit(struct store *s);
void store_rollback(struct store *s);
struct stmt *store_prepare(struct store *s, const char *sql);
int store_bind_text(struct store *s, struct stmt *st, int i, const char *v);
int store_bind_int(struct store *s, struct stmt *st, int i, int64_t v);
int store_bind_double(struct store *s, struct stmt *st, int i, double v);
enum store_row store_step(struct store *s, struct stmt *st);
const char *store_text(struct store *s, struct stmt *st, int i);
int64_t store_int(struct store *s, struct stmt *st, int i);
double store_double(struct store *s, struct stmt *st, int i);	/* NULL: NAN */
void store_reset(struct store *s, struct stmt *st);
void store_finalize(struct store *s, struct stmt *st);
/* The first row's first column of a one-parameter query as an integer; -1: none or error. */
int64_t store_scalar(struct store *s, const char *sql, const char *param);

/* The schema, created or migrated to the current version. */
#define STORE_SCHEMA_VERSION	3
int store_migrate(struct store *s);

extern const struct store_ops store_sqlite_ops, store_pg_ops;

struct stat;
/*
 * A SQLite TARGET checked by the output files' rules (store_file.c): its
 * folder's real path and its name into path, st the file (created if new
 * and not STORE_READONLY).  0, or -1 with s->err (and s->refused).
 */
int store_file_resolve(struct store *s, const char *target, char *path, size_t len,
		       struct stat *st);
/* Whether path is still the file st was (after SQLite opened it). */
int store_file_same(struct store *s, const char *path, const struct stat *st);

#endif
