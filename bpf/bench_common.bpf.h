/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every benchmark's BPF side shares: per-CPU counters that user
 * space reads through the skeleton's .bss, and the filter that keeps a
 * syscall-triggered program to our own getpgid() calls.
 */
#ifndef BPFBENCH_COMMON_BPF_H
#define BPFBENCH_COMMON_BPF_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "bench_shared.h"

#define BENCH_GETPGID_NR	121	/* x86_64; set at load time on other arches */

/* Set by user space before load (rodata). */
const volatile __u32 bench_tgid;
const volatile __u32 bench_getpgid_nr = BENCH_GETPGID_NR;

struct bench_slot bench_slots[BENCH_NR_SLOTS];

static __always_inline struct bench_slot *bench_my_slot(void)
{
	return &bench_slots[bpf_get_smp_processor_id() & (BENCH_NR_SLOTS - 1)];
}

/*
 * Atomic because two programs may interleave on one CPU on preemptible
 * kernels and CPUs beyond BENCH_NR_SLOTS share slots; callers count once
 * per batch, so the atomic's cost is spread over many operations.
 */
static __always_inline void bench_add_hits(__u64 n)
{
	__sync_fetch_and_add(&bench_my_slot()->hits, n);
}

static __always_inline void bench_add_drops(__u64 n)
{
	__sync_fetch_and_add(&bench_my_slot()->drops, n);
}

/* raw_tp/sys_enter: args[1] is the syscall number. */
static __always_inline bool bench_is_our_syscall(struct bpf_raw_tracepoint_args *ctx)
{
	if (ctx->args[1] != bench_getpgid_nr)
		return false;
	return (bpf_get_current_pid_tgid() >> 32) == bench_tgid;
}

static __always_inline bool bench_is_us(void)
{
	return (bpf_get_current_pid_tgid() >> 32) == bench_tgid;
}

/*
 * One benchmark body, three entry points: the core loads only the one
 * its trigger needs.  BODY is a function taking no arguments.
 *
 * The test-run entry is a tc (sched_cls) program, not XDP: every XDP
 * test run swaps the XDP dispatcher, which waits for an RCU grace period
 * per syscall (0.3 ms idle, 7 ms on a loaded 2-vCPU VM), while a tc test
 * run has no such fixed cost.
 */
#define BENCH_TRIGGERS(prefix, BODY)					\
SEC("tc")								\
int prefix##_test_run(struct __sk_buff *ctx)				\
{									\
	BODY();								\
	return 0;							\
}									\
SEC("raw_tp/sys_enter")							\
int prefix##_raw_tp(struct bpf_raw_tracepoint_args *ctx)		\
{									\
	if (bench_is_our_syscall(ctx))					\
		BODY();							\
	return 0;							\
}									\
SEC("fentry")								\
int prefix##_fentry(void *ctx)						\
{									\
	if (bench_is_us())						\
		BODY();							\
	return 0;							\
}

char LICENSE[] SEC("license") = "GPL";

#endif
