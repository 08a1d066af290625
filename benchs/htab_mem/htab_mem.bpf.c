// SPDX-License-Identifier: GPL-2.0
/*
 * htab-mem: hash map updates and deletes in units of 64 elements, each
 * producer on its own part of the map, so that the memory the map needs
 * (preallocated, or from the BPF memory allocator's per-CPU caches) can
 * be compared between allocation modes.
 *
 * Producer i owns keys i, i + n, i + 2n, ... (n parts); the index comes
 * with the call (second getpgid() argument, or the first word of the
 * test-run packet) rather than from the CPU number, so parts never
 * overlap even when producers are not pinned.
 *
 * With --latency, one run in hist_every per CPU times its ops (its one
 * or two walks of 64 elements) into the histogram (bpf/hist.bpf.h).
 */
#include "bench_common.bpf.h"
#include <bpf/bpf_core_read.h>
#include "hist.bpf.h"
#include "htab_mem.h"

const volatile __u32 use_case = HTAB_MEM_OVERWRITE;
const volatile __u32 nr_producers = 1;

/* The value every update writes; its size is the map's, set at load. */
unsigned char zero_value[HTAB_MEM_VALUE_MAX];

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, 8);
	__uint(max_entries, 8192);
	__uint(map_flags, BPF_F_NO_PREALLOC);
} htab_mem_map SEC(".maps");

struct part_walk {
	__u32 key;
	__u32 step;
	__u64 flags;
};

/*
 * A failed op counts at once (none fail when parts are kept), not in a
 * count on the stack: the verifier would carry every value of that
 * count past the walk, into --latency's recording.
 */
static int put_one(__u32 i, struct part_walk *w)
{
	if (bpf_map_update_elem(&htab_mem_map, &w->key, zero_value, w->flags))
		bench_add_drops(1);
	w->key += w->step;
	return 0;
}

static int delete_one(__u32 i, struct part_walk *w)
{
	if (bpf_map_delete_elem(&htab_mem_map, &w->key))
		bench_add_drops(1);
	w->key += w->step;
	return 0;
}

/* Updates (or deletes) the 64 keys of one part. */
static __always_inline void walk_part(__u32 part, __u32 nr_parts, __u64 flags, bool del)
{
	struct part_walk w = { .key = part, .step = nr_parts, .flags = flags };

	bpf_loop(HTAB_MEM_BATCH, del ? (void *)delete_one : (void *)put_one, &w, 0);
}

static __always_inline void htab_mem_run(__u32 idx)
{
	__u32 ops = 1, dels = 0;
	struct hist_batch hb = { 0 };

	if (idx >= nr_producers)
		return;		/* not one of our producers' calls */
	/* a run is one op, or two (add, then delete: halves unlike, so never split) */
	hist_begin(&hb, use_case == HTAB_MEM_BATCH_ADD_DEL ? 2 : 1, false);
	switch (use_case) {
	case HTAB_MEM_OVERWRITE:
		walk_part(idx, nr_producers, BPF_ANY, false);
		break;
	case HTAB_MEM_BATCH_ADD_DEL:
		walk_part(idx, nr_producers, BPF_ANY, false);
		walk_part(idx, nr_producers, 0, true);
		ops = 2;
		dels = 1;
		break;
	case HTAB_MEM_ADD_DEL_DIFF_CPU:
		/* a pair shares part idx / 2: the even one adds, the odd one deletes */
		if (idx & 1) {
			walk_part(idx / 2, nr_producers / 2, 0, true);
			dels = 1;
		} else {
			walk_part(idx / 2, nr_producers / 2, BPF_NOEXIST, false);
		}
		break;
	default:
		return;
	}
	hist_end(&hb, 0);
	/* the deletes first: a reader that sees a run's hits sees its deletes */
	if (dels)
		__sync_fetch_and_add(&bench_my_slot()->extra[HTAB_MEM_SLOT_DELS], dels);
	bench_add_hits(ops);
}

SEC("tc")
int htab_mem_test_run(struct __sk_buff *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;
	__u32 *idx = data;

	if ((void *)(idx + 1) > data_end)
		return 0;
	htab_mem_run(*idx);
	return 0;
}

SEC("raw_tp/sys_enter")
int htab_mem_raw_tp(struct bpf_raw_tracepoint_args *ctx)
{
	struct pt_regs *regs;

	if (!bench_is_our_syscall(ctx))
		return 0;
	regs = (struct pt_regs *)ctx->args[0];
	htab_mem_run((__u32)PT_REGS_PARM2_CORE_SYSCALL(regs));
	return 0;
}
