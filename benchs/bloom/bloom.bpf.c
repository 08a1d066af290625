// SPDX-License-Identifier: GPL-2.0
/*
 * Bloom filter map: lookups, updates and false positives; hash map
 * lookups with and without a bloom filter in front.
 *
 * The filter benchmarks walk a window of `values` with bpf_loop(),
 * BLOOM_BATCH values per run.  The hash map benchmarks look up keys cut
 * from hash_keys in a plain loop of HASH_BATCH, as the kernel's bench
 * does, so that a lookup costs the lookup and little else.  Each CPU
 * goes on from its own cursor (see bloom.h).
 *
 * With --latency (hist_every, rodata) a run's ops go in batches of
 * BLOOM_HIST_BATCH, one batch in hist_every per CPU timed
 * (bpf/hist.bpf.h); without it the verifier keeps the loops of old.
 */
#include "bench_common.bpf.h"
#include "hist.bpf.h"
#include "bloom.h"

#define BLOOM_ENOENT	2	/* errno.h is not for BPF programs */
#define JOB_OK		0	/* TC_ACT_OK: pkt_cls.h is not in vmlinux.h */
#define JOB_BAD		2	/* TC_ACT_SHOT */

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

/* Random bytes from user space: keys_end bytes of keys, then their head again. */
__u8 hash_keys[HASH_KEYS_SPAN + HASH_KEYS_TAIL];

/* The measured programs' operation and window (constants: the verifier drops the other ops). */
const volatile __u32 bench_op = BLOOM_OP_PEEK;
const volatile __u32 win_base;
const volatile __u32 win_len = 1;
const volatile __u32 key_size = 8;	/* value_size: keys follow each other in hash_keys */
const volatile __u32 keys_end = 8;	/* bytes of hash_keys in use, a multiple of key_size */

struct tally {
	__u64 done, hits, drops, filtered, errors;
};

struct walk {
	__u32 op;
	__u32 base, len, pos;
	struct tally t;
};

/* A lookup's answer: 0 found, -ENOENT not there, anything else is a failure. */
static __always_inline void tally_lookup(struct tally *t, long err)
{
	if (!err)
		t->hits++;
	else if (err == -BLOOM_ENOENT)
		t->drops++;
	else
		t->errors++;
}

static __always_inline void tally_insert(struct tally *t, long err)
{
	if (err)
		t->errors++;
	else
		t->hits++;
}

/*
 * The kernel bench's classes: a key the filter rejects is a hit, as is
 * one the hash map has; a drop is a hash map miss.  Rejections are also
 * counted on their own.
 */
static __always_inline void hash_lookup(struct tally *t, void *key, bool filter)
{
	long err;

	if (filter) {
		err = bpf_map_peek_elem(&bloom, key);
		if (err == -BLOOM_ENOENT) {
			t->filtered++;
			t->hits++;
			return;
		}
		if (err) {
			t->errors++;
			return;
		}
	}
	if (bpf_map_lookup_elem(&hashmap, key))
		t->hits++;
	else
		t->drops++;
}

static __always_inline void apply(__u32 op, struct tally *t, void *val)
{
	switch (op) {
	case BLOOM_OP_PEEK:
		tally_lookup(t, bpf_map_peek_elem(&bloom, val));
		break;
	case BLOOM_OP_PUSH:
		tally_insert(t, bpf_map_push_elem(&bloom, val, BPF_ANY));
		break;
	case BLOOM_OP_HASH_LOOKUP:
		hash_lookup(t, val, false);
		break;
	case BLOOM_OP_HASH_FILTERED:
		hash_lookup(t, val, true);
		break;
	case BLOOM_OP_HASH_INSERT:
		tally_insert(t, bpf_map_update_elem(&hashmap, val, val, BPF_NOEXIST));
		break;
	default:
		t->errors++;
	}
}

/*
 * One run's counts, all or none for a reader: see enum bloom_slot_word.
 * The adds are locked instructions on x86, ordered as written.
 */
static __always_inline void publish(struct bench_slot *slot, const struct tally *t)
{
	__sync_fetch_and_add(&slot->extra[SLOT_X_BEGIN], 1);
	__sync_fetch_and_add(&slot->hits, t->hits);
	__sync_fetch_and_add(&slot->drops, t->drops);
	__sync_fetch_and_add(&slot->extra[SLOT_X_OPS], t->done);
	__sync_fetch_and_add(&slot->extra[SLOT_X_FILTERED], t->filtered);
	__sync_fetch_and_add(&slot->extra[SLOT_X_ERRORS], t->errors);
	__sync_fetch_and_add(&slot->extra[SLOT_X_END], 1);
}

/* ---- the filter benchmarks: a window of `values` ---- */

static __always_inline void step(__u32 op, struct walk *w)
{
	__u32 idx = w->base + w->pos;
	void *val = bpf_map_lookup_elem(&values, &idx);

	w->t.done++;
	if (++w->pos >= w->len)
		w->pos = 0;
	if (val)
		apply(op, &w->t, val);
	else
		w->t.errors++;
}

static int measured_step(__u32 i, void *ctx)
{
	step(bench_op, ctx);
	return 0;
}

/*
 * --latency: one batch of a run.  The timed part is the ops' own
 * bpf_loop, as every op runs untimed: one callback per value, its
 * lookup in `values`, the filter op, a count on the stack.
 */
static int filter_hist_batch(__u32 i, void *ctx)
{
	struct hist_batch hb;
	__u32 timed = hist_begin(&hb, BLOOM_HIST_BATCH, true);

	bpf_loop(timed, measured_step, ctx, 0);
	hist_end(&hb, 0);
	if (timed < BLOOM_HIST_BATCH)
		bpf_loop(BLOOM_HIST_BATCH - timed, measured_step, ctx, 0);
	return 0;
}

/*
 * The cursor is a plain store: two programs interleaving on one CPU may
 * repeat a few values, which does not change what is measured.
 */
static __always_inline void filter_batch(void)
{
	struct bench_slot *slot = bench_my_slot();
	struct walk w = {
		.base = win_base,
		.len = win_len,
		.pos = slot->extra[SLOT_X_CURSOR],
	};

	if (w.pos >= w.len)
		w.pos = 0;
	if (hist_every)
		bpf_loop(BLOOM_BATCH / BLOOM_HIST_BATCH, filter_hist_batch, &w, 0);
	else
		bpf_loop(BLOOM_BATCH, measured_step, &w, 0);
	slot->extra[SLOT_X_CURSOR] = w.pos;
	publish(slot, &w.t);
}

/* ---- the hash map benchmarks: keys cut from hash_keys ---- */

/*
 * Per lookup: the key's address, the lookup(s), one count; the kernel's
 * bench pays that and a per-CPU counter in memory besides.  The counts stay
 * on the stack: no branch reads them, so the verifier need not tell
 * their values apart.  No test for the end of the keys either (see
 * HASH_KEYS_TAIL): the verifier then follows one offset per iteration.
 * n lookups from off (n a constant); returns the offset after them.
 */
static __always_inline __u64 hash_run(struct tally *t, __u64 off, int n, bool filter)
{
	int i;

	for (i = 0; i < n; i++) {
		hash_lookup(t, hash_keys + off, filter);
		off += key_size;
	}
	t->done += n;
	return off;
}

/* --latency: a run's lookups as batches, each of which may be the timed one. */
struct hash_walk {
	struct tally t;
	__u64 off;
};

/*
 * One batch: all its lookups timed, or its first half (two constant
 * counts rather than one variable one, which the verifier would follow
 * for every split).  The counts stay on this frame's stack until the
 * batch is done, as hash_batch's do.
 */
static __always_inline int hash_hist_batch(struct hash_walk *c, bool filter)
{
	struct tally t = {};
	struct hist_batch hb;
	__u64 off = c->off;

	/* the last batch ran past the end, into the tail that repeats the head */
	if (off >= keys_end)
		off = off - keys_end < keys_end ? off - keys_end : off % keys_end;
	if (off >= keys_end)	/* cannot be; tells the verifier where the keys are */
		return 1;
	if (hist_begin(&hb, BLOOM_HIST_BATCH, true) == BLOOM_HIST_BATCH) {
		off = hash_run(&t, off, BLOOM_HIST_BATCH, filter);
		hist_end(&hb, 0);
	} else {
		off = hash_run(&t, off, BLOOM_HIST_BATCH / 2, filter);
		hist_end(&hb, 0);
		off = hash_run(&t, off, BLOOM_HIST_BATCH / 2, filter);
	}
	c->off = off;
	c->t.done += t.done;
	c->t.hits += t.hits;
	c->t.drops += t.drops;
	c->t.filtered += t.filtered;
	c->t.errors += t.errors;
	return 0;
}

static int hash_hist_plain(__u32 i, void *ctx)
{
	return hash_hist_batch(ctx, false);
}

static int hash_hist_filtered(__u32 i, void *ctx)
{
	return hash_hist_batch(ctx, true);
}

/* The run's lookups in batches of BLOOM_HIST_BATCH; the next offset. */
static __always_inline __u64 hash_hist_run(struct tally *t, __u64 off, bool filter)
{
	struct hash_walk c = { .off = off };

	if (filter)
		bpf_loop(HASH_BATCH / BLOOM_HIST_BATCH, hash_hist_filtered, &c, 0);
	else
		bpf_loop(HASH_BATCH / BLOOM_HIST_BATCH, hash_hist_plain, &c, 0);
	*t = c.t;
	return c.off;
}

static __always_inline void hash_batch(bool filter)
{
	struct bench_slot *slot = bench_my_slot();
	struct tally t = {};
	__u64 off = slot->extra[SLOT_X_CURSOR];	/* 64 bits: no truncated copy to bound */

	if (off >= keys_end)
		off = 0;
	if (hist_every)
		off = hash_hist_run(&t, off, filter);
	else
		off = hash_run(&t, off, HASH_BATCH, filter);
	slot->extra[SLOT_X_CURSOR] = off % keys_end;
	publish(slot, &t);
}

static __always_inline void measured_batch(void)
{
	if (bench_op == BLOOM_OP_HASH_LOOKUP)
		hash_batch(false);
	else if (bench_op == BLOOM_OP_HASH_FILTERED)
		hash_batch(true);
	else
		filter_batch();
}

BENCH_TRIGGERS(bloom, measured_batch)

/* ---- jobs: filling the maps and exact counts ---- */

static int job_step(__u32 i, void *ctx)
{
	struct walk *w = ctx;

	if (!bloom_op_is_lookup(w->op)) {
		step(w->op, w);
		return 0;
	}
	apply(w->op, &w->t, hash_keys + ((w->pos * key_size) & HASH_KEYS_MASK));
	w->t.done++;
	if (++w->pos >= w->len)
		w->pos = 0;
	return 0;
}

/* The job and its answers travel in the packet: tc, as the test-run trigger. */
SEC("tc")
int bloom_job(struct __sk_buff *ctx)
{
	__u32 *job = (void *)(long)ctx->data;
	struct walk w = {};

	if ((void *)(job + JOB__WORDS) > (void *)(long)ctx->data_end)
		return JOB_BAD;
	w.op = job[JOB_OP];
	w.base = job[JOB_BASE];
	w.len = job[JOB_LEN];
	w.pos = job[JOB_POS];
	if (!w.len || w.pos >= w.len || job[JOB_COUNT] > BLOOM_JOB_MAX)
		return JOB_BAD;
	bpf_loop(job[JOB_COUNT], job_step, &w, 0);
	job[JOB_OUT_DONE] = w.t.done;
	job[JOB_OUT_HITS] = w.t.hits;
	job[JOB_OUT_DROPS] = w.t.drops;
	job[JOB_OUT_FILTERED] = w.t.filtered;
	job[JOB_OUT_ERRORS] = w.t.errors;
	return JOB_OK;
}
