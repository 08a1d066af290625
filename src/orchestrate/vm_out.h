/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --kernel's outputs (vm.c runs the scripts): every output format a
 * command was given comes back.  A run's, a suite's and compare's are
 * handed to the guest as return files (scripts/vm/guest.sh sends them
 * back), ab.sh's and bisect.sh's as files of the return directory, and
 * this process writes each where the user asked, through the checks of
 * every output (outfile.h).  "-" of a run or compare stays: the guest's
 * stdout comes back as it is.
 */
#ifndef BPFBENCH_VM_OUT_H
#define BPFBENCH_VM_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include "out_formats.h"
#include "subcmd.h"

#define VM_GUEST_OUT	"/run/bpfbench-vm/out/"	/* scripts/vm/guest.sh sends these back */
#define VM_MAX_OUTS	OUT_NR	/* every format comes back, one file each */

struct vm_out {
	const char *name;	/* the format's (out_formats.h): its file in the return directory */
	int fmt;
	const char *path;	/* the user's, on the host */
};

struct vm_job {
	char **args;		/* bash SCRIPT ... */
	int n;
	struct vm_out out[VM_MAX_OUTS];
	int nr_out;
	char dir[64];		/* the return directory */
	int lock;
	bool record;		/* --record: the json output into the history, here */
	const char *db;		/* --db: that history's database, here; NULL: the default */
	char *owned[VM_MAX_OUTS];	/* return files' paths as words of args: ours to free */
	int nr_owned;
	bool announce;		/* stdout is for people: it starts with the VM's lines */
	bool human_stderr;	/* an output to stdout is written here: the script's lines go to stderr */
};

/*
 * The outputs of a command line's words, as its parser finds them, each
 * word of a path replaced by its return file, in j->out: 0, or the exit
 * status after a line (EXIT_USAGE: refused before anything boots).
 */
int run_outputs(struct vm_job *j, char **words, int n, const struct subcommand *subs);
int ab_outputs(struct vm_job *j, char **words, int n);
int bisect_outputs(struct vm_job *j, char **words, int n);
/* Each output the script returned, written where the user asked; the exit status. */
int write_outputs(struct vm_job *j, int st);
/* The --json output into the history (--record); 1 if there is none. */
int record_json(const struct vm_job *j);
/* "json csv md": the names of the formats of these kinds, for a script to loop over. */
const char *format_names(unsigned int kinds, char *buf, size_t len);

#endif
