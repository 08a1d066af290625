/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --profile: where a run's time goes.  Stacks are sampled on every online
 * CPU through perf_event_open (cycles where a PMU exists, else the
 * cpu-clock software event), kernel and user, and only the samples of
 * one process (its tgid) are kept.  The sampler runs over the measured
 * samples alone; a small thread drains the ring buffers.  The stacks are
 * symbolized when sampling ends, while the benchmark's programs are still
 * loaded (their JIT'ed images are named in kallsyms only until then), and
 * folded root->leaf as FlameGraph's collapsed format has them.
 *
 * This module only produces data: reporters and writers (src/output/)
 * print it.
 */
#ifndef BPFBENCH_PROFILE_H
#define BPFBENCH_PROFILE_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#define PROFILE_FREQ_DEFAULT	999
#define PROFILE_MAX_OURS	64
#define PROFILE_NAME_MAX	64

/* One folded stack: "root;...;leaf" and how many samples had it. */
struct prof_stack {
	char *folded;
	uint64_t count;
};

/* One function's share: samples where it was the leaf (self) and anywhere (total). */
struct prof_func {
	char *name;
	uint64_t self, total;
	bool ours;		/* a JIT'ed program this process (or the profiled command) holds */
};

struct profile {
	bool valid;		/* sampled: the figures below are real */
	char why[256];		/* !valid: why not */
	char event[16];		/* "cpu-clock" or "cycles" */
	uint64_t freq;		/* samples per second per CPU asked */
	uint64_t samples;	/* kept: the process's */
	uint64_t lost;		/* records the kernel dropped (PERF_RECORD_LOST) */
	uint64_t others;	/* samples of other processes (and idle) and of the sampler's own thread, dropped */
	int nr_cpus;
	int nr_stacks;
	struct prof_stack *stacks;	/* sorted by the folded string */
	int nr_funcs;
	struct prof_func *funcs;	/* by self samples, then total, descending */
	/* kallsyms names of the JIT'ed images (subprograms too) of the programs the process held */
	int nr_ours;
	char ours[PROFILE_MAX_OURS][PROFILE_NAME_MAX];
};

struct raw_table;
struct user_maps;
struct prog_watch;

/* The sampler: one perf fd and ring per online CPU, and the drain thread. */
struct profiler {
	pid_t tgid;
	atomic_int self_tid;		/* the drain thread's: its own work is not the run's */
	int nr, *fds, *cpus;
	void **rings;
	size_t ring_bytes;
	bool thread_started;
	atomic_bool enabled;
	pthread_t thread;
	atomic_bool stop;
	pthread_mutex_t lock;		/* the raw table, between the thread and the final drain */
	struct raw_table *raw;
	uint64_t samples, lost, others;
	uint64_t maps_at;		/* when the maps were last read (ns) */
	struct user_maps *maps;
	struct prog_watch *watch;
};

/*
 * Opens the events (disabled) and starts the drain thread; 0, or -errno
 * with p->why saying why (EACCES: perf_event_paranoid; ENOENT: no event).
 */
int profiler_open(struct profiler *pf, pid_t tgid, uint64_t freq, struct profile *p);
/* Sampling on and off (the measured phase); no-ops on a profiler not opened. */
void profiler_enable(struct profiler *pf);
void profiler_disable(struct profiler *pf);
/*
 * Stops the thread, drains the rings, symbolizes and adds what was
 * sampled to p (several repetitions add up), and closes every fd.
 * Call it while the programs are still loaded.
 */
void profiler_close(struct profiler *pf, struct profile *p);
/* Whether the frame name (n bytes) is one of p->ours. */
bool profile_is_ours(const struct profile *p, const char *name, size_t n);
/* Adds a name to p->ours, once. */
void profile_add_ours(struct profile *p, const char *name);
/* Sorts p->stacks, each folded string once (repetitions that fold alike add up). */
void profile_merge_stacks(struct profile *p);
/* Adds src's samples to dst (interleaved runs: an ab side's repetitions). */
void profile_add(struct profile *dst, const struct profile *src);
/* p->funcs from p->stacks (profile_data.c). */
void profile_count_funcs(struct profile *p);
/*
 * Reads a folded file (as --folded writes it, or any collapsed stacks)
 * into p: stacks, samples, funcs; a "# ns_per_op=X" line sets *ns_per_op
 * (else NAN).  0, or -errno with p->why saying why: -EINVAL naming the
 * line (no count, a negative one, counts beyond 2^64), -EINTR once a stop
 * signal came.  p holds what was read either way (profile_free()).
 */
int profile_read_folded(const char *path, struct profile *p, double *ns_per_op);
/* Frees what the profile holds (not p itself). */
void profile_free(struct profile *p);
/* The leaf (self) frame of a folded stack. */
const char *profile_leaf(const char *folded);

#endif
