/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --counters: per-op counts over the measured phase, as `perf stat`
 * counts them for the process (every thread: the events are inherited by
 * the threads the run starts after opening them), divided by the run's
 * ops.  Hardware events (cycles, instructions, cache and branch misses)
 * where a PMU answers, probed; the software ones (task-clock,
 * context switches) always.
 */
#ifndef BPFBENCH_COUNTERS_H
#define BPFBENCH_COUNTERS_H

#include <stdbool.h>
#include <stdint.h>

enum counter_id {
	CNT_TASK_CLOCK,		/* ns on a CPU */
	CNT_CTX_SWITCHES,
	CNT_CYCLES,
	CNT_INSTRUCTIONS,
	CNT_CACHE_MISSES,
	CNT_BRANCH_MISSES,
	CNT__COUNT,
};

#define CNT_FIRST_HW	CNT_CYCLES

extern const char *const counter_names[CNT__COUNT];

struct counters {
	bool valid;		/* the software counts were read */
	bool pmu;		/* the hardware ones too */
	char why[200];		/* !valid, or !pmu: why not */
	uint64_t count[CNT__COUNT];	/* summed over repetitions */
};

struct counter_set {
	int fd[CNT__COUNT];
};

/* Opens the events, disabled, for this process and the threads it starts next; 0 or -errno. */
int counters_open(struct counter_set *s, struct counters *c);
void counters_enable(struct counter_set *s);
void counters_disable(struct counter_set *s);
/* Adds what was counted to c and closes every fd. */
void counters_close(struct counter_set *s, struct counters *c);

#endif
