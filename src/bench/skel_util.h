/* SPDX-License-Identifier: GPL-2.0 */
/*
 * User-side helpers for benchmarks built on a skeleton whose BPF side
 * includes bpf/bench_common.bpf.h.
 */
#ifndef BPFBENCH_SKEL_UTIL_H
#define BPFBENCH_SKEL_UTIL_H

#include <stdint.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/types.h>
#include "bench_shared.h"

/* Before load: lets the programs recognise our own getpgid() calls. */
#define BENCH_SKEL_INIT(skel)							\
	do {									\
		(skel)->rodata->bench_tgid = getpid();				\
		(skel)->rodata->bench_getpgid_nr = __NR_getpgid;		\
	} while (0)

enum slot_field { SLOT_HITS, SLOT_DROPS };

/* Sum of one counter over all slots (read through the mmap'ed .bss). */
uint64_t slots_sum(const struct bench_slot *slots, enum slot_field f);
/* Sum of one extra[] word over all slots, as slots_sum() reads hits and drops. */
uint64_t slots_extra_sum(const struct bench_slot *slots, int word);

/*
 * Triggers the kernel skipped, over the object's loaded programs: a
 * program whose run is preempted (7.x kernels are preemptible, no
 * preempt=none) makes the next trigger of it on that CPU a recursion miss,
 * counted in its prog info (recursion_misses) and never run.
 */
struct bpf_object;
uint64_t obj_recursion_misses(struct bpf_object *obj);

/* Turns a running total into per-period deltas. */
struct delta {
	uint64_t last;
};

static inline uint64_t delta_next(struct delta *d, uint64_t total)
{
	uint64_t diff = total - d->last;

	d->last = total;
	return diff;
}

/* Ops in elapsed_ns as millions per second. */
static inline double mops(uint64_t ops, uint64_t elapsed_ns)
{
	return elapsed_ns ? ops * 1e3 / (double)elapsed_ns : 0.0;
}

#endif
