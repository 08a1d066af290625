/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BPFBENCH_COMPARE_H
#define BPFBENCH_COMPARE_H

#include <stdbool.h>

/* bpfbench compare OLD.json NEW.json [--alpha A] [--fail-on-regression PCT] */
int compare_cmd(int argc, char **argv);

/* What ab tells compare besides its options. */
struct cmp_extra {
	bool paired;			/* the i-th runs of the two files are a pair */
	const char *old_name, *new_name;	/* "A", "B" or the user's --name */
	const char *old_shown, *new_shown;	/* the sides, for messages (not a file path) */
	const char *intro;		/* printed after the answers, before the table */
	const char *suite;		/* the verdicts' name: "bpfbench ab" */
	double secs;			/* the runs' time, before compare's */
};
int compare_with(int argc, char **argv, const struct cmp_extra *x);

#endif
