/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A speed reference (--speed-ref): a short fixed work timed on each CPU
 * the run's threads ran on, between samples, so that a figure can be read
 * against how fast that CPU was just then.  The work is of the kind the
 * benchmarks do: a user-space dependency chain (the CPU alone) and an
 * empty BPF program run through BPF_PROG_TEST_RUN (the syscall and the
 * program's entry, which a VM's vCPUs slow unequally).  Each part is the
 * fastest of a few tries: a try the scheduler cut is not the CPU's speed.
 */
#ifndef BPFBENCH_SPEEDREF_H
#define BPFBENCH_SPEEDREF_H

#include <stdbool.h>
#include "noise.h"

struct speed_ref {
	int prog_fd;		/* the empty program, -1: user-space part only */
	char why[160];		/* why there is no BPF part */
};

/* Loads the empty program (named bpfbench_ref); without it the user-space part still runs. */
void speedref_open(struct speed_ref *r);
void speedref_close(struct speed_ref *r);
/*
 * Times the work on each CPU of ns's threads (the calling thread moved
 * there for the while, then back where it was allowed to run) and on the
 * calling thread's CPU where none is known; fills ns->ref_*_ns with the
 * mean over those CPUs.
 */
void speedref_measure(struct speed_ref *r, struct noise_sample *ns);
struct run_result;
/*
 * The reference's metrics, "ref-user" and "ref-bpf" (us, lower is faster),
 * so that the history keeps them and compare shows whether the host's
 * speed moved between two runs: ref-user's index, ref-bpf's the next.
 */
int speedref_add_metrics(struct run_result *res);
/* One CPU's times (host show's per-CPU probe): 0, or -errno if it cannot run there. */
int speedref_on_cpu(struct speed_ref *r, int cpu, double *user_ns, double *bpf_ns);

#endif
