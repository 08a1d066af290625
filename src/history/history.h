/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The results history (bpfbench db): result files recorded into a
 * database (store.h), read back as series, searched for change points.
 *
 * A series is one benchmark x measured options x metric (name and key)
 * x host, and x kernel under --by-kernel; its points are the runs'
 * figures in the order of their results' dates.
 */
#ifndef BPFBENCH_HISTORY_H
#define BPFBENCH_HISTORY_H

#include <stdbool.h>
#include <stdint.h>
#include "hdate.h"
#include "out_formats.h"
#include "resdoc.h"
#include "store.h"

struct record_opts {
	const char *host;	/* overrides the file's env.hostname */
	bool quiet;
};

/* 0: recorded (or already there); EXIT_USAGE: a file refused, nothing written; 1: the database failed. */
int history_record_file(struct store *s, const char *path, const struct record_opts *o);
/* --record: the result file just written into db (--db), else $BPFBENCH_DB, else the file. */
int history_record_written(const char *path, const char *db);
/* None of n outputs is db's SQLite file (as --record finds it): else EXIT_USAGE, said. */
int history_spare_db(const char *db, const char *const *paths, int n);
/* A run's measured options as "name=value,..." (its series' part), malloc'ed. */
char *history_measured(const struct res_run *r);

struct series_filter {
	const char *bench, *metric, *host, *since, *until, *options;	/* dates: hdate.h's */
	bool by_kernel;		/* a kernel's runs are a series of their own */
	bool counts;		/* also the metrics of kind count (exact, not measured) */
	bool normalized;	/* only NAME-normalized metrics (runs taken with --normalize) */
};

/* The columns of series_query()'s rows. */
enum series_col {
	SC_HOST, SC_BENCH, SC_MEASURED, SC_NAME, SC_MKEY, SC_UNIT, SC_BETTER, SC_DATE,
	SC_KERNEL, SC_COMMIT, SC_FIGURE, SC_N, SC_STDDEV, SC_RESULT, SC_KIND, SC_SAMPLES,
	SC_BUILD, SC_VERSION, SC_IDX, SC_MOVED, SC_NR_SAMPLES,
};

#define SERIES_KEY_MAX	4096

/* One point of a series, with what a report says of either side of a change. */
struct point {
	double v;		/* the run's figure */
	double half_ci;		/* its 95% interval's half-width; NAN: one sample */
	char *date, *kernel, *commit;
	int moved;		/* the run's samples whose threads moved CPU; -1: not recorded */
};

/* A series read from series_query()'s rows: its identity and its points in time order. */
struct series {
	char key[SERIES_KEY_MAX];
	char *host, *bench, *measured, *name, *mkey, *unit, *better, *kernel, *kind;
	struct point *pt;
	int n, cap;
	int nr_bad;		/* rows whose figure is no finite number: named, left out */
};

struct stmt;
struct ed_cp;
struct db_args;

/* A new series from this row (key: series_key()'s); clear frees its strings, not pt. */
void series_start(struct store *s, struct stmt *st, struct series *sr, const char *key);
void series_add(struct store *s, struct stmt *st, struct series *sr);
void series_clear(struct series *sr);
/* The row's run's 95% half-width from its samples' spread; NAN with one sample. */
double series_half_ci(struct store *s, struct stmt *st);
/* Its change points (changes.h) by db_args' test, x (n values) filled: their count. */
int series_changes(const struct series *sr, const struct db_args *a, double *x,
		   struct ed_cp *cp);

/* Every point of the filter's series, ordered by series, then date. */
struct stmt *series_query(struct store *s, const struct series_filter *f);
/* Whether two rows' series differ: their identity as text, joined, into key. */
void series_key(struct store *s, struct stmt *st, bool by_kernel, char *key, size_t len);

/* The subcommands' bodies (db_cli.c parses): each returns the exit status. */
struct db_args {
	const char *db;
	struct series_filter f;
	const char *out;	/* plot: -o OUT.svg|OUT.png */
	const char *script;	/* plot: --script FILE, the gnuplot script kept */
	const char *verdicts[OUT_NR];	/* changes: the verdicts' formats (out_formats.h) */
	char since[HDATE_LEN], until[HDATE_LEN];	/* f.since, f.until as UTC text */
	bool json, quiet, otava;
	bool trust;		/* --db-trust */
	bool check;		/* record --check: the database opened, nothing recorded */
	double fail_pct;	/* NAN: no gate */
	const char *gate_unjudged;	/* --gate-unjudged pass|fail; NULL: fail */
	double alpha;
	int permutations;
};
int db_show(struct store *s, const struct db_args *a);
int db_changes(struct store *s, const struct db_args *a);
int db_export(struct store *s, const struct db_args *a);
int db_plot(struct store *s, const struct db_args *a);

#endif
