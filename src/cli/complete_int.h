/* SPDX-License-Identifier: GPL-2.0 */
/* The completion's tables of the subcommands' own options (complete_tables.c). */
#ifndef BPFBENCH_COMPLETE_INT_H
#define BPFBENCH_COMPLETE_INT_H

#include <stdbool.h>
#include <stddef.h>

/* What follows an option on the command line. */
enum arg_kind {
	ARG_FLAG,	/* nothing */
	ARG_VALUE,	/* a value we cannot guess (a number, a CPU list) */
	ARG_FILE,
	ARG_CHOICE,	/* one of the option's choices */
	ARG_OPTION,	/* the name of a global or benchmark option (plot --x) */
};

struct sub_opt {
	const char *name;	/* as typed: "--json", "-o" */
	enum arg_kind arg;
	const char *help;
};

/* What a positional argument of a subcommand is. */
enum pos_kind { POS_NONE, POS_FILE, POS_SUITE, POS_SHELL, POS_DB_ACTION };

struct sub_spec {
	const char *name;
	const char *summary;
	const struct sub_opt *opts;	/* NULL-name terminated */
	enum pos_kind pos[2];		/* the first two positional arguments */
	bool global_opts;		/* also takes the global options (suite) */
	const struct sub_opt *shared;	/* a second table of its options, or NULL */
};

/* Every subcommand main() dispatches, with its options and positional arguments. */
extern const struct sub_spec sub_specs[];
extern const size_t nr_sub_specs;

#endif
