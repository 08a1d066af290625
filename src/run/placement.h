/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where the run's threads ran, sample by sample: the CPU each one last
 * ran on, how often the scheduler moved it in the period and the share of
 * the period it spent on a CPU (a CPU hog beside it, or the hypervisor's
 * steal where the guest accounts it, lowers that share), read from
 * /proc/self/task/TID/{stat,sched,schedstat} by the sampler between samples (never
 * from the measured threads themselves, whose loop it would cost).  On
 * a VM whose vCPUs run at unequal speeds, which CPU a thread ran on can
 * set the figure: a sample whose threads moved is marked, so a figure
 * shows what it stands on.
 */
#ifndef BPFBENCH_PLACEMENT_H
#define BPFBENCH_PLACEMENT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include "noise.h"

struct place_mon {
	int n;				/* threads watched: the first PLACE_MAX_THREADS */
	pid_t tid[PLACE_MAX_THREADS];
	uint64_t migrations[PLACE_MAX_THREADS];	/* se.nr_migrations at the last look */
	int16_t cpu[PLACE_MAX_THREADS];		/* the CPU at the last look, -1: not known */
	uint64_t run_ns[PLACE_MAX_THREADS];	/* time on a CPU at the last look (schedstat) */
	uint64_t t_ns;				/* when the last look was */
	bool have_migrations;		/* /proc/.../sched (CONFIG_SCHED_DEBUG) */
};

/* Starts watching n threads (the first PLACE_MAX_THREADS of them). */
void place_begin(struct place_mon *m, const pid_t *tids, int n);
/* Where each thread is now and what moved it since the last look, into ns. */
void place_next(struct place_mon *m, struct noise_sample *ns);
/* The distinct CPUs of ns's threads, into cpus (at most max); their count. */
int place_cpus(const struct noise_sample *ns, int *cpus, int max);

#endif
