/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Declarative options.  Global and benchmark options are tables of
 * opt_def; one parser serves both, so every option gets the same range
 * checks, error messages and --help text.
 */
#ifndef BPFBENCH_OPTS_H
#define BPFBENCH_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define EXIT_USAGE	2	/* bad command line */
#define EXIT_SKIP	4	/* the kernel lacks a feature (kselftest's KSFT_SKIP) */
/*
 * A gate (compare/ab --fail-on-regression, db changes --fail-on-change)
 * found no regression but could not judge some of what it gates: a CI
 * gate must not pass on rows it could not judge, nor call them a
 * regression (1) that a rerun with more data might not confirm.
 */
#define EXIT_UNJUDGED	5

#define UINT_LIST_MAX	64
#define CPUSET_MAX	1024
#define OPT_TEXT_MAX	160	/* an option value as text (opts_format) */

enum opt_type {
	OPT_UINT,	/* uint64_t, range [min, max] */
	OPT_FLAG,	/* bool, takes no value */
	OPT_CHOICE,	/* int index into choices[] */
	OPT_STRING,	/* const char * */
	OPT_UINT_LIST,	/* struct uint_list: "10,1000,1000000" */
	OPT_CPUSET,	/* struct cpuset: "0-3,7" */
	OPT_SECONDS,	/* uint64_t milliseconds, typed as seconds: "5", "0.25"; range [min, max] ms */
};

struct uint_list {
	int n;
	uint64_t v[UINT_LIST_MAX];
};

struct cpuset {
	int n;			/* 0: not set */
	int cpu[CPUSET_MAX];	/* in the order given; thread i runs on cpu[i % n] */
};

/*
 * An option's value lives at an offset in the struct its table describes:
 * struct run_opts for the global table, a benchmark's own args struct
 * (bench->args_size bytes) for its table.  Every run has its own copy,
 * so two runs never share an option.
 */
struct opt_def {
	const char *name;	/* long name; '-' and '_' match each other */
	char short_name;	/* 0: none */
	enum opt_type type;
	size_t off;		/* OPT_OFF(struct, field) */
	const char *def;	/* default, as it would be typed; NULL: zero/false/empty */
	uint64_t min, max;	/* OPT_UINT and each OPT_UINT_LIST element */
	const char *const *choices;	/* OPT_CHOICE, NULL terminated */
	const char *metavar;
	const char *help;
	unsigned int flags;	/* OPT_F_* */
};

/* Accepted, but left out of --help, the man page and completion: the tests' own aids. */
#define OPT_F_HIDDEN	(1u << 0)
/*
 * Changes nothing of what a run measures: where its results go and how
 * they are shown (output files, --record, -v, -q), or what the command
 * does instead of a run (--list, --help, --sweep).  Runs that differ in
 * these alone are one measurement (compare, a profile's title), and none
 * of them is swept.
 */
#define OPT_F_NO_MEASURE	(1u << 1)
/*
 * How long or how often a run measures, not what (-w, -d, -r, ...):
 * compare matches runs that differ in these, as more or fewer samples of
 * one measurement.
 */
#define OPT_F_EXTENT	(1u << 2)
/*
 * Defines what is measured (a map's type and shape, the work of one
 * program run): a figure's title names it even at its default.
 */
#define OPT_F_DEFINES	(1u << 3)
/* Its value is a file's path: completion offers files (a FILE metavar says so too). */
#define OPT_F_PATH	(1u << 4)
/* Its value is an option's name (plot --x): completion offers them. */
#define OPT_F_OPTNAME	(1u << 5)
/*
 * Where a result goes after the run, not what ran: left out of a
 * result's recorded options (a database URI may carry a password).
 */
#define OPT_F_UNRECORDED	(1u << 6)
/*
 * A string option given at most once: a second would silently replace
 * the first (--sweep a=1,2 --sweep b=3,4 sweeping b alone), so it is
 * bad usage instead.
 */
#define OPT_F_ONCE	(1u << 7)

#define OPT_OFF(type, field)	offsetof(type, field)
/* A number's macro as an option's default text: OPT_STR(ED_PERMUTATIONS) is "199". */
#define OPT_STR(x)	OPT_STR_(x)
#define OPT_STR_(x)	#x

/* Sets every option of the table to its default in args. */
void opts_reset(const struct opt_def *table, void *args);
/* Finds an option by long name (dash/underscore-insensitive) or short name. */
const struct opt_def *opts_find(const struct opt_def *table, const char *name);
const struct opt_def *opts_find_short(const struct opt_def *table, char c);
/* Parses text into the option's field of args; on error writes a message naming the problem and returns -EINVAL. */
int opts_set(const struct opt_def *o, void *args, const char *text, char *err, int errlen);
/* Whether text is a valid value for o (nothing is stored); as opts_set. */
int opts_check(const struct opt_def *o, const char *text, char *err, int errlen);
/* Writes the option's value in args as text. */
void opts_format(const struct opt_def *o, const void *args, char *buf, int len);

/* An option's value as its type holds it: a view of its field in args. */
union opt_value {
	uint64_t u;			/* OPT_UINT; OPT_SECONDS in milliseconds */
	bool flag;			/* OPT_FLAG */
	const char *str;		/* OPT_CHOICE: the choice's name; OPT_STRING, NULL: unset */
	const struct uint_list *list;	/* OPT_UINT_LIST */
	const struct cpuset *cpus;	/* OPT_CPUSET */
};

union opt_value opts_get(const struct opt_def *o, const void *args);
/* Whether the option holds a value: a string, list or CPU set can be empty (JSON null). */
bool opts_is_set(const struct opt_def *o, const void *args);
/* Whether a's value of option oa is b's of ob: same type, same value. */
bool opts_same(const struct opt_def *oa, const void *a, const struct opt_def *ob, const void *b);
/* Whether the option's value in args is its default (typed, as opts_reset() sets it). */
bool opts_at_default(const struct opt_def *o, const void *args);
/* Whether text (as opts_format writes it) is the option's default; the store is not touched. */
bool opts_is_default(const struct opt_def *o, const char *text);
bool opt_takes_value(const struct opt_def *o);
/* An option's --help text: its help, range or choices, and default. */
void opts_help_text(const struct opt_def *o, char *text, size_t len);
/* --help's lines of the table's options, under title (NULL: none, the lines alone). */
void opts_print_help(const struct opt_def *table, const char *title);

/*
 * Strict number parsing shared by every caller: whole string, decimal
 * (leading zeros allowed, never octal) or 0x hex, no sign.
 */
int parse_u64(const char *s, uint64_t *out);
int parse_cpuset(const char *s, struct cpuset *set, char *err, int errlen);

#endif
