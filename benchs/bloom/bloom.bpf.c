// SPDX-License-Identifier: GPL-2.0
/*
 * Bloom filter map: lookups, updates and false positives; hash map
 * lookups with and without a bloom filter in front (seed 003).
 *
 * The values come from user space in the `values` array (see bloom.h);
 * a program walks a window of it with bpf_loop(), BLOOM_BATCH values per
 * run, each CPU from its own cursor.
 */
#include "bench_common.bpf.h"
#include "bloom.h"

#define BLOOM_ENOENT	2	/* errno.h is not for BPF programs */

/* Sizes and the number of hash functions are set by user space before load. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(map_flags, BPF_F_MMAPABLE);	/* user space writes the values in place */
	__uint(key_size, sizeof(__u32));	/* no BTF: a key type without a value type is refused */
	__uint(value_size, 8);
	__uint(max_entries, 1);
} values SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_BLOOM_FILTER);
	__uint(value_size, 8);
	__uint(max_entries, 1);
	__uint(map_extra, 3);
} bloom SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(key_size, 8);
	__uint(value_size, 8);
	__uint(max_entries, 1);
} hashmap SEC(".maps");

/* The measured programs' operation and window (constants: the verifier drops the other ops). */
const volatile __u32 bench_op = BLOOM_OP_PEEK;
const volatile __u32 win_base;
const volatile __u32 win_len = 1;

struct walk {
	__u32 op;
	__u32 base, len, pos;
	__u64 done, found, missed, filtered, errors;
};

/* A lookup's answer: 0 found, -ENOENT not there, anything else is a failure. */
static __always_inline void tally_lookup(struct walk *w, long err)
{
	if (!err)
		w->found++;
	else if (err == -BLOOM_ENOENT)
		w->missed++;
	else
		w->errors++;
}

static __always_inline void tally_insert(struct walk *w, long err)
{
	if (err)
		w->errors++;
	else
		w->found++;
}

static __always_inline void hash_lookup(struct walk *w, void *val)
{
	if (bpf_map_lookup_elem(&hashmap, val))
		w->found++;
	else
		w->missed++;
}

/* The filter says "surely absent" or "maybe": only "maybe" costs a hash lookup. */
static __always_inline void filtered_lookup(struct walk *w, void *val)
{
	long err = bpf_map_peek_elem(&bloom, val);

	if (!err) {
		hash_lookup(w, val);
	} else if (err == -BLOOM_ENOENT) {
		w->filtered++;
		w->missed++;
	} else {
		w->errors++;
	}
}

static __always_inline void apply(__u32 op, struct walk *w, void *val)
{
	switch (op) {
	case BLOOM_OP_PEEK:
		tally_lookup(w, bpf_map_peek_elem(&bloom, val));
		break;
	case BLOOM_OP_PUSH:
		tally_insert(w, bpf_map_push_elem(&bloom, val, BPF_ANY));
		break;
	case BLOOM_OP_HASH_LOOKUP:
		hash_lookup(w, val);
		break;
	case BLOOM_OP_HASH_FILTERED:
		filtered_lookup(w, val);
		break;
	case BLOOM_OP_HASH_INSERT:
		tally_insert(w, bpf_map_update_elem(&hashmap, val, val, BPF_NOEXIST));
		break;
	default:
		w->errors++;
	}
}

static __always_inline void step(__u32 op, struct walk *w)
{
	__u32 idx = w->base + w->pos;
	void *val = bpf_map_lookup_elem(&values, &idx);

	w->done++;
	if (++w->pos >= w->len)
		w->pos = 0;
	if (val)
		apply(op, w, val);
	else
		w->errors++;
}

static int measured_step(__u32 i, void *ctx)
{
	step(bench_op, ctx);
	return 0;
}

static int job_step(__u32 i, void *ctx)
{
	struct walk *w = ctx;

	step(w->op, w);
	return 0;
}

/*
 * One batch from this CPU's cursor.  The cursor is a plain store: two
 * programs interleaving on one CPU may repeat a few values, which does
 * not change what is measured.
 */
static __always_inline void measured_batch(void)
{
	struct bench_slot *slot = bench_my_slot();
	struct walk w = {
		.base = win_base,
		.len = win_len,
		.pos = slot->extra[SLOT_X_CURSOR],
	};

	if (w.pos >= w.len)
		w.pos = 0;
	bpf_loop(BLOOM_BATCH, measured_step, &w, 0);
	slot->extra[SLOT_X_CURSOR] = w.pos;
	/*
	 * No branches on the counts: a branch would make the verifier track
	 * them precisely, and the callback's states would never converge.
	 */
	bench_add_hits(w.done);
	bench_add_drops(w.missed);
	__sync_fetch_and_add(&slot->extra[SLOT_X_FOUND], w.found);
	__sync_fetch_and_add(&slot->extra[SLOT_X_FILTERED], w.filtered);
	__sync_fetch_and_add(&slot->extra[SLOT_X_ERRORS], w.errors);
}

BENCH_TRIGGERS(bloom, measured_batch)

/* Fills the maps and counts exactly: the job and its answers travel in the packet. */
SEC("xdp")
int bloom_job(struct xdp_md *ctx)
{
	__u32 *job = (void *)(long)ctx->data;
	struct walk w = {};

	if ((void *)(job + JOB__WORDS) > (void *)(long)ctx->data_end)
		return XDP_ABORTED;
	w.op = job[JOB_OP];
	w.base = job[JOB_BASE];
	w.len = job[JOB_LEN];
	w.pos = job[JOB_POS];
	if (!w.len || w.pos >= w.len || job[JOB_COUNT] > BLOOM_JOB_MAX)
		return XDP_ABORTED;
	bpf_loop(job[JOB_COUNT], job_step, &w, 0);
	job[JOB_OUT_DONE] = w.done;
	job[JOB_OUT_FOUND] = w.found;
	job[JOB_OUT_MISSED] = w.missed;
	job[JOB_OUT_FILTERED] = w.filtered;
	job[JOB_OUT_ERRORS] = w.errors;
	return XDP_PASS;
}
