/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `bpfbench profile -- CMD`: any command sampled as --profile samples a
 * benchmark (every online CPU, the command's own tgid kept), so the
 * kernel's selftests bench is profiled exactly as bpfbench is.
 */
#ifndef BPFBENCH_PROFILE_CHILD_H
#define BPFBENCH_PROFILE_CHILD_H

#include <stdint.h>
#include "profile.h"

struct child_run {
	char **argv;		/* the command, NULL-terminated */
	uint64_t duration_ms;	/* 0: until it exits; else sampled this long, then stopped (SIGTERM) */
	uint64_t freq;
	int exit_status;	/* its own: exit code, 128+signal; -1 when we stopped it */
};

/*
 * Runs the command under the profiler; 0 with p filled, or 1 / EXIT_SKIP
 * after setting p->why.  Sampling starts at its exec, ends at its exit or
 * at the duration (then its programs are still loaded and get their names).
 */
int profile_child(struct child_run *c, struct profile *p);

#endif
