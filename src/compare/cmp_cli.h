/* SPDX-License-Identifier: GPL-2.0 */
/* compare's command line (src/compare/cmp_cli.c). */
#ifndef BPFBENCH_CMP_CLI_H
#define BPFBENCH_CMP_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include "opts.h"
#include "out_formats.h"
#include "verdict.h"

#define MAX_KEY_NAMES	64

struct cmp_args {
	const char *old_path, *new_path;
	const char *old_shown, *new_shown;	/* in messages: the paths, or ab's sides */
	const char *intro;		/* ab: what A and B are, before the table */
	const char *suite;		/* the verdicts' name: "bpfbench compare", ab's */
	double secs;			/* ab: the runs' time */
	uint64_t start_ns;		/* when compare started */
	/* --json FILE: compare's document of the rows; the verdicts' formats (out_formats.h) */
	const char *out[OUT_NR];
	struct cmp_opts o;
	bool match_only;		/* --match: only the bench and these parts */
	bool unjudged_given;		/* --gate-unjudged: only with a gate */
	int nr_sides;			/* --name given so often (twice: OLD's, NEW's) */
	int nr_names;
	const char *names[MAX_KEY_NAMES];	/* --match or --ignore-option parts */
};

/*
 * compare's options as --help, completion and the docs show them (its own,
 * then the verdicts' that ab shares); the parser below takes these names.
 */
extern const struct opt_def compare_opts[];
extern const struct opt_def cmp_verdict_opts[];

/* OLD.json NEW.json and compare's options: 0, or EXIT_USAGE after one line. */
int cmp_parse_args(int argc, char **argv, struct cmp_args *a);
/* compare's options alone (argv[0] is the first option): 0, or EXIT_USAGE after one line. */
int compare_check_opts(int argc, char **argv);

#endif
