// SPDX-License-Identifier: GPL-2.0
/*
 * bpf-hashmap-full-update: the cost of an update of a full preallocated
 * hash map, as the kernel bench measures it.  User space fills all
 * HM_FULL_ENTRIES keys; each run then updates its CPU's own key beyond
 * them HM_FULL_LOOPS times, each update failing for want of a free
 * element (E2BIG), and times the loop.  The figure is updates over the
 * timed nanoseconds of each CPU.
 *
 * The E2BIG count (one branch and a stack increment an update, against
 * a freelist walk over every CPU) lets the tests check the map stayed
 * full: upstream ignores the result.
 */
#include "bench_common.bpf.h"
#include "bpf_hashmap.h"

#define E2BIG	7	/* uapi errno: vmlinux.h has no macros */

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, HM_FULL_ENTRIES);
} hash_map_bench SEC(".maps");

struct update_run {
	__u32 key;
	__u32 full;
};

static int update_one(__u32 index, struct update_run *r)
{
	__u64 val = 1;

	if (bpf_map_update_elem(&hash_map_bench, &r->key, &val, BPF_ANY) == -E2BIG)
		r->full++;
	return 0;
}

static __always_inline void full_update(void)
{
	__u32 cpu = bpf_get_smp_processor_id();
	struct update_run r = { .key = cpu + HM_FULL_ENTRIES };
	struct bench_slot *slot = bench_my_slot();
	__u64 t0 = bpf_ktime_get_ns(), dt;
	long done;

	done = bpf_loop(HM_FULL_LOOPS, update_one, &r, 0);
	dt = bpf_ktime_get_ns() - t0;
	/* counted after the clock stopped: the atomics stay out of the figure */
	if (done > 0)
		__sync_fetch_and_add(&slot->hits, done);
	__sync_fetch_and_add(&slot->extra[HM_SLOT_FULL], r.full);
	__sync_fetch_and_add(&slot->extra[HM_SLOT_NS], dt);
	__sync_fetch_and_add(&slot->extra[HM_SLOT_RUNS], 1);
}

BENCH_TRIGGERS(hashmap_full, full_update)
