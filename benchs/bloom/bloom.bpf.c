// SPDX-License-Identifier: GPL-2.0
/*
 * Bloom filter map: lookups, updates and false positives; hash map
 * lookups with and without a bloom filter in front.
 *
 * The measured programs do per op what the kernel bench's
 * (progs/bloom_filter_bench.c) does, so that a figure with its name is
 * its figure: the filter benchmarks pass over every value of `values`
 * with bpf_for_each_map_elem(), the hash map benchmarks look up
 * HASH_BATCH keys cut from hash_keys a run, and every op bumps a
 * per-CPU counter.  The jobs (filling, exact counts) keep their counts
 * on the stack and answer in the packet.
 *
 * With --latency (hist_every, rodata) a run's ops go in batches of
 * BLOOM_HIST_BATCH, one batch in hist_every per CPU timed
 * (bpf/hist.bpf.h); without it the verifier drops that code.
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

/* Random bytes from user space: keys_end bytes of keys (room for a key at any masked offset). */
__u8 hash_keys[HASH_KEYS_SPAN + BLOOM_VALUE_MAX];

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

/* ---- the measured programs: the kernel bench's work per op ---- */

/*
 * Each op's outcome goes into this CPU's slot as it happens, as the
 * kernel bench's log_result() does: the CPU's number and a plain
 * increment, per op.  Plain: two programs interleaving on one CPU may
 * lose a count, as there; an atomic would cost each op more than the
 * kernel bench pays.  The hash map benchmarks count a rejection by the
 * filter in its own word (the kernel bench's hit): one increment per op.
 */
static __always_inline void count_hit(void)
{
	bench_my_slot()->hits++;
}

static __always_inline void count_drop(void)
{
	bench_my_slot()->drops++;
}

static __always_inline void count_word(int word)
{
	bench_my_slot()->extra[word]++;
}

static __always_inline void filter_op(void *val)
{
	long err;

	if (bench_op == BLOOM_OP_PUSH)
		err = bpf_map_push_elem(&bloom, val, BPF_ANY);
	else
		err = bpf_map_peek_elem(&bloom, val);
	if (!err)
		count_hit();
	else if (err == -BLOOM_ENOENT && bench_op == BLOOM_OP_PEEK)
		count_drop();
	else
		count_word(SLOT_X_ERRORS);
}

/* ---- the filter benchmarks: every value of `values`, as the kernel bench ---- */

/*
 * --latency: ops are cut into batches of BLOOM_HIST_BATCH as the walk
 * goes, one batch in hist_every timed (or its first half); a batch
 * starts only where a whole one is left.
 */
struct elem_walk {
	struct hist_batch hb;
	__u32 n;	/* ops of the current batch done */
	__u32 timed;	/* of them to time */
};

static long filter_elem(struct bpf_map *map, __u32 *key, void *val, struct elem_walk *w)
{
	if (hist_every && !w->n) {
		w->timed = 0;
		if (win_len >= BLOOM_HIST_BATCH && *key <= win_len - BLOOM_HIST_BATCH)
			w->timed = hist_begin(&w->hb, BLOOM_HIST_BATCH, true);
	}
	filter_op(val);
	if (!hist_every)
		return 0;
	if (++w->n == w->timed && w->hb.ops) {
		hist_end(&w->hb, 0);
		w->hb.ops = 0;
	}
	if (w->n >= BLOOM_HIST_BATCH)
		w->n = 0;
	return 0;
}

/*
 * A run is one pass over the values (nr_entries of them), each op a
 * callback of bpf_for_each_map_elem() as in the kernel bench.
 */
static __always_inline void filter_run(void)
{
	struct elem_walk w = {};

	bpf_for_each_map_elem(&values, filter_elem, &w, 0);
}

/* ---- the hash map benchmarks: keys cut from hash_keys ---- */

/*
 * One lookup, as the kernel bench's loop body: the filter first for
 * hashmap-with-bloom (a rejection is a hit), then the hash map.
 */
static __always_inline void hash_op(void *key, bool filter)
{
	long err;

	if (filter) {
		err = bpf_map_peek_elem(&bloom, key);
		if (err == -BLOOM_ENOENT) {
			count_word(SLOT_X_FILTERED);
			return;
		}
		if (err) {
			count_word(SLOT_X_ERRORS);
			return;
		}
	}
	if (bpf_map_lookup_elem(&hashmap, key))
		count_hit();
	else
		count_drop();
}

struct hash_walk {
	__u64 off;	/* byte offset of the next key in hash_keys */
};

/*
 * n lookups (a constant) in value_size steps, the offset masked to the
 * 2 MiB of keys per op as in the kernel bench (it never exceeds them:
 * the mask bounds the key for the verifier).
 */
static __always_inline void hash_run(struct hash_walk *w, int n, bool filter)
{
	__u64 off = w->off;
	int i;

	for (i = 0; i < n; i++) {
		hash_op(hash_keys + (off & HASH_KEYS_MASK), filter);
		off += key_size;
		if (off >= keys_end)
			off = 0;
	}
	w->off = off;
}

/*
 * One chunk of HASH_CHUNK lookups, a bpf_loop() callback: the verifier
 * walks a chunk's loop, not the run's 1024 lookups, and the call costs
 * a chunk less than one lookup does.  With --latency a chunk is a
 * batch that may be timed, all of it or its first half.
 */
static __always_inline int hash_chunk(struct hash_walk *w, bool filter)
{
	struct hist_batch hb;

	if (hist_begin(&hb, HASH_CHUNK, true) == HASH_CHUNK) {
		hash_run(w, HASH_CHUNK, filter);
		hist_end(&hb, 0);
	} else {
		hash_run(w, HASH_CHUNK / 2, filter);
		hist_end(&hb, 0);
		hash_run(w, HASH_CHUNK / 2, filter);
	}
	return 0;
}

static int hash_chunk_plain(__u32 i, void *ctx)
{
	return hash_chunk(ctx, false);
}

static int hash_chunk_filtered(__u32 i, void *ctx)
{
	return hash_chunk(ctx, true);
}

/*
 * A run is HASH_BATCH lookups, as the kernel bench's, from this CPU's
 * cursor on (the kernel bench: from a random offset).
 */
static __always_inline void hash_batch(bool filter)
{
	struct bench_slot *slot = bench_my_slot();
	struct hash_walk w = { .off = slot->extra[SLOT_X_CURSOR] };

	if (filter)
		bpf_loop(HASH_BATCH / HASH_CHUNK, hash_chunk_filtered, &w, 0);
	else
		bpf_loop(HASH_BATCH / HASH_CHUNK, hash_chunk_plain, &w, 0);
	slot->extra[SLOT_X_CURSOR] = w.off;
}

static __always_inline void measured_batch(void)
{
	if (bench_op == BLOOM_OP_HASH_LOOKUP)
		hash_batch(false);
	else if (bench_op == BLOOM_OP_HASH_FILTERED)
		hash_batch(true);
	else
		filter_run();
}

BENCH_TRIGGERS(bloom, measured_batch)

/* ---- jobs: filling the maps and exact counts ---- */

/* A job's op on its next value: a value of the window of `values`, or a key slot. */
static int job_step(__u32 i, void *ctx)
{
	struct walk *w = ctx;
	__u32 idx = w->base + w->pos;
	void *val;

	if (bloom_op_is_lookup(w->op))
		val = hash_keys + ((w->pos * key_size) & HASH_KEYS_MASK);
	else
		val = bpf_map_lookup_elem(&values, &idx);
	w->t.done++;
	if (++w->pos >= w->len)
		w->pos = 0;
	if (val)
		apply(w->op, &w->t, val);
	else
		w->t.errors++;
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
