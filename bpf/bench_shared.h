/* SPDX-License-Identifier: GPL-2.0 */
/* Types shared by BPF programs and user space (include before a skeleton). */
#ifndef BPFBENCH_SHARED_H
#define BPFBENCH_SHARED_H

#define BENCH_NR_SLOTS	256	/* per-CPU counter slots; CPUs beyond share slots atomically */

/*
 * One CPU's counters, alone on its cache line: CPUs never write the same
 * line, so counting does not itself become a contention benchmark.
 */
struct bench_slot {
	__u64 hits;
	__u64 drops;
	__u64 extra[6];
} __attribute__((aligned(64)));

#endif
