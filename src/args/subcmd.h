/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A subcommand, as main() dispatches it, --help and completion offer it,
 * the man page and doc/usage.md document it and --kernel runs it (or
 * refuses it): one line of src/cli/subcmds.c's table.  The table is the
 * command line's (its handlers are every layer's); a layer below it reads
 * it passed down (vm.c).
 */
#ifndef BPFBENCH_SUBCMD_H
#define BPFBENCH_SUBCMD_H

#include <stdbool.h>
#include "opts.h"

/* What --kernel K does with the subcommand. */
enum subcmd_vm {
	SUBCMD_VM_NO,		/* runs on this machine only: refused, before a boot */
	SUBCMD_VM_STDOUT,	/* runs in the VM; its stdout comes back as it is */
	SUBCMD_VM_VERDICTS,	/* runs in the VM; its stdout and its verdicts' files come back */
	SUBCMD_VM_ANNOUNCED,	/* the same, after a line naming the kernel (not before --json's) */
	SUBCMD_VM_SUITE,	/* a run's options around its NAME, its output files returned */
};

/* What a positional word of the subcommand is (completion offers it). */
enum subcmd_pos {
	SUBCMD_POS_NONE,
	SUBCMD_POS_FILE,
	SUBCMD_POS_SUITE,
	SUBCMD_POS_SHELL,
	SUBCMD_POS_DB_ACTION,
};

#define SUBCMD_MAX_TABLES	3

struct subcommand {
	const char *name;
	const char *summary;		/* one line: completion, the man page, usage.md */
	int (*main)(int argc, char **argv);
	const char *usage;		/* its synopsis after "bpfbench ", as --help lists it */
	/* its options: --help prints them, completion, the man page and usage.md read them */
	const struct opt_def *opts[SUBCMD_MAX_TABLES];
	enum subcmd_vm vm;
	const char *vm_instead;		/* SUBCMD_VM_NO: what to run instead, or NULL */
	enum subcmd_pos pos[2];		/* its first two positional words */
	bool global_opts;		/* also takes the global options (suite) */
	bool hidden;			/* the build's own: not offered, not documented */
};

/* The subcommand of table (ended by a NULL name) called name, or NULL. */
const struct subcommand *subcmd_find(const struct subcommand *table, const char *name);

#endif
