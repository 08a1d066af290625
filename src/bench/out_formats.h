/* SPDX-License-Identifier: GPL-2.0 */
/*
 * THE LIST of output formats, one line each.  Everything that names a
 * format loops over it: the global options (global_opts.c) and a run's
 * paths (run_opts.out[]), the verdict commands' options (compare, ab, db
 * changes), --help, completion and the man page (they read those option
 * tables), the rule that one output at most takes stdout, the files
 * --kernel hands to the VM and writes back (every format comes back, as
 * a return file named after it), the exports of a run, a suite and a
 * sweep, and the options that do not change a measurement.  The writer
 * is NAME_write() in src/output (formats.h declares it from this list).
 *
 *   X(ID, name, metavar, kind, help)
 *
 * name is the option (--name) and the return file's name; metavar, what
 * it takes (FILE...: completion offers files); kind, what it writes,
 * which says which commands take it:
 *   ROWS      a run's, a sweep's or a suite's rows: a run's option
 *   PROFILE   a run's profile (--profile): a run's option, and `profile`'s
 *   VERDICTS  the verdicts of compare, ab and db changes --fail-on-change:
 *             a case per row judged, passed, failed or skipped as the gate
 *             judged it (its exit status), the options of those three only
 * Each writes to a file, or to stdout for '-', which then holds it alone.
 */
#ifndef BPFBENCH_OUT_FORMATS_H
#define BPFBENCH_OUT_FORMATS_H

#include <stdbool.h>
#include <stdio.h>

#define OUT_FORMATS(X)									\
	X(JSON, json, "FILE", ROWS, "write results as JSON to FILE ('-': stdout)")		\
	X(CSV, csv, "FILE", ROWS,							\
	  "write results as CSV to FILE, a row per run, a column per metric ('-': stdout)")	\
	X(MD, md, "FILE", ROWS, "write results as a Markdown table to FILE ('-': stdout)")	\
	X(FOLDED, folded, "FILE", PROFILE,						\
	  "write the profile's collapsed stacks to FILE")			\
	X(FLAME, flame, "FILE.svg", PROFILE,						\
	  "write the profile's flame graph to FILE.svg")				\
	X(JUNIT, junit, "FILE", VERDICTS, "write the verdicts as JUnit XML to FILE ('-': stdout)")	\
	X(KTAP, ktap, "FILE", VERDICTS, "write the verdicts as KTAP to FILE ('-': stdout)")	\
	/* a new format: a line above this one, and its writer's file */

/*
 * The verdicts' formats as lines of an option table (opts.h): compare's,
 * ab's and db's, whose --help, completion and docs read them.
 */
#define OUT_VERDICT_OPT(ID, name, metavar, kind, help)	OUT_VERDICT_OPT_##kind(name, metavar, help)
#define OUT_VERDICT_OPT_VERDICTS(name, metavar, help)					\
	{ #name, 0, OPT_STRING, 0, NULL, 0, 0, NULL, metavar, help },
#define OUT_VERDICT_OPT_ROWS(name, metavar, help)
#define OUT_VERDICT_OPT_PROFILE(name, metavar, help)
/* The profile's formats, the same way: `profile`'s options. */
#define OUT_PROFILE_OPT(ID, name, metavar, kind, help)	OUT_PROFILE_OPT_##kind(name, metavar, help)
#define OUT_PROFILE_OPT_PROFILE(name, metavar, help)					\
	{ #name, 0, OPT_STRING, 0, NULL, 0, 0, NULL, metavar, help },
#define OUT_PROFILE_OPT_ROWS(name, metavar, help)
#define OUT_PROFILE_OPT_VERDICTS(name, metavar, help)

enum out_format {
#define OUT_ENUM(ID, name, metavar, kind, help)	OUT_##ID,
	OUT_FORMATS(OUT_ENUM)
#undef OUT_ENUM
	OUT_NR
};

/* What a format writes (one kind each). */
enum out_kind {
	OUT_K_ROWS = 1 << 0,
	OUT_K_PROFILE = 1 << 1,
	OUT_K_VERDICTS = 1 << 2,
};
#define OUT_K_RUN	(OUT_K_ROWS | OUT_K_PROFILE)	/* the kinds a run's options write */

/* A format's line of the list, as data (out_formats.c). */
struct out_format_def {
	const char *name;
	const char *metavar;
	enum out_kind kind;
	const char *help;
};

extern const struct out_format_def out_format_defs[OUT_NR];

/* The format named name ("json", as the option without its dashes), or -1. */
int out_format_find(const char *name);
/*
 * One output at most to stdout ('-') among paths[OUT_NR] (NULL: not
 * wanted): 0, or EXIT_USAGE after a line naming the two that were.
 */
int out_check_stdout(const char *const *paths);
/* Whether a path of these kinds is set; to stdout alone ('-'). */
bool out_any(const char *const *paths, unsigned int kinds);
bool out_to_stdout(const char *const *paths);
/*
 * A command's help from the list: " [--name METAVAR]..." of the formats
 * of these kinds after lead, as a line of a synopsis (nothing if none);
 * and a line each, "--name METAVAR" padded to width, then its help.
 */
void out_print_usage(FILE *f, unsigned int kinds, const char *lead);
void out_print_help(FILE *f, unsigned int kinds, const char *indent, int width);

#endif
