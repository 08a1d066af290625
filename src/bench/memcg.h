/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Memory measurement for a run: the process moves into a memory cgroup
 * of its own (bpfbench-<pid>, a child of the cgroup it is in), so that
 * what the run allocates, kernel memory included, is charged there and
 * can be read back; on leave it moves home and the cgroup is removed.
 *
 * Methods, best first:
 *   cgroup-v2: memory.current / memory.peak, where a cgroup2 mount holds
 *              the memory controller and it can be enabled for a child;
 *   cgroup-v1: memory.usage_in_bytes / memory.max_usage_in_bytes, where a
 *              v1 hierarchy holds it (v1 charges kernel memory to the
 *              same counter);
 *   fdinfo:    the "memlock" a BPF map reports in /proc/self/fdinfo, the
 *              kernel's own estimate of that map alone; peak is the
 *              largest sample.
 *
 * The kernel charges an allocation to a memory cgroup when it is made:
 * kernel objects to the allocating task's cgroup, a BPF map's elements
 * to the cgroup its creator was in when the map was created (the BPF
 * memory allocator's per-CPU refills included).  So memcg_enter() must
 * come before anything that should be measured is created, and moves the
 * whole process (cgroup.procs), so threads started later are inside too.
 *
 * lpm-trie-free's memory-cgroup fallback (and any other benchmark that
 * wants a cgroup's usage, on v1 and v2 alike): memcg_enter(&m,
 * MEMCG_WANT_CGROUP) before the object to measure is created, then
 * memcg_sample(&m, &usage, &peak) as often as needed (it reads one or two
 * files), memcg_leave(&m) on every exit path.  A cgroup of another name
 * can be made with sysfs.h's cgroup_*(); name it bpfbench-<what>.<pid> so
 * that the sweep below knows it.
 *
 * One measurement at a time per process.  The cgroup is removed by
 * memcg_leave() and, should the process exit without it, by an atexit
 * handler; a cgroup left by a killed process (SIGKILL) is removed by the
 * next memcg_enter() in the same parent or in home once its pid is gone:
 * any name that starts with "bpfbench-" and ends with the creator's pid
 * after a '-' or a '.'.
 */
#ifndef BPFBENCH_MEMCG_H
#define BPFBENCH_MEMCG_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum memcg_method {
	MEMCG_NONE,
	MEMCG_V2,
	MEMCG_V1,
	MEMCG_FDINFO,
};

/* What the caller will accept. */
enum memcg_want {
	MEMCG_WANT_AUTO,	/* a cgroup if possible, else fdinfo */
	MEMCG_WANT_CGROUP,	/* a cgroup or fail */
	MEMCG_WANT_FDINFO,	/* fdinfo only: no cgroup is made */
};

struct memcg {
	enum memcg_method method;
	char dir[PATH_MAX];	/* our cgroup: .../bpfbench-<pid> */
	char home[PATH_MAX];	/* the cgroup we came from */
	bool joined;		/* the process is in dir */
	bool made;		/* dir exists and is ours to remove */
	bool has_peak;		/* the kernel keeps a peak (else: largest sample) */
	int map_fd;		/* fdinfo: the map measured; -1: none yet */
	int peak_fd;		/* v2 after a reset: memory.peak, whose reset is per open file */
	uint64_t peak_seen;
	char why[PATH_MAX + 256];	/* why a cgroup was not used, for the description */
};

/*
 * Chooses a method; for a cgroup, removes stale bpfbench-<pid> siblings,
 * creates ours and moves the process in.  0, or after printing one line
 * (MEMCG_WANT_CGROUP only: AUTO falls back to fdinfo) -EPERM where we may
 * not (exit 1), -EOPNOTSUPP where there is no hierarchy for us (skip), or
 * another -errno.
 */
int memcg_enter(struct memcg *m, enum memcg_want want);
/* fdinfo: the map whose memlock is sampled (ignored by the cgroup methods). */
void memcg_watch_map(struct memcg *m, int map_fd);
/*
 * Restarts the peak from the current usage, so that it covers what
 * follows (the measured work) and not setup's passing allocations.
 */
int memcg_reset_peak(struct memcg *m);
/* Current and peak bytes; 0 or -errno. */
int memcg_sample(struct memcg *m, uint64_t *usage, uint64_t *peak);
/* Moves the process home and removes the cgroup; safe to call twice and after a failed enter. */
void memcg_leave(struct memcg *m);

const char *memcg_method_name(enum memcg_method method);
/* Method and files read, as a string constant (valid after leave): for JSON "method". */
const char *memcg_method_label(const struct memcg *m);
/* One line: method, files read, and the cgroup or the reason there is none. */
void memcg_describe(const struct memcg *m, char *buf, size_t len);

/* The machine's MemAvailable (/proc/meminfo) in bytes; 0 where it cannot be read. */
uint64_t mem_available(void);

#endif
