// SPDX-License-Identifier: GPL-2.0
/*
 * LPM trie: lookup, insert, update and delete timed inside the kernel,
 * and the kernel's deferred free of a whole trie bracketed by the
 * workqueue tracepoints around its work item.  With --latency the ops
 * run in batches of LPM_HIST_BATCH, one batch in hist_every per CPU
 * timed (bpf/hist.bpf.h).
 */
#include "bench_common.bpf.h"
#include "hist.bpf.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_endian.h>
#include "lpm_trie.h"

#ifndef ENOENT
#define ENOENT	2
#endif
#ifndef EINVAL
#define EINVAL	22
#endif

struct {
	__uint(type, BPF_MAP_TYPE_LPM_TRIE);
	__type(key, struct lpm_key);
	__type(value, __u32);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__uint(max_entries, 1);		/* nr_entries, set before load */
} trie SEC(".maps");

struct lpm_prod prod[LPM_MAX_PROD];

const volatile __u32 op;
const volatile __u32 nr_entries = 1;
const volatile __u32 prefix_len = 32;
const volatile bool random_keys;

/*
 * The next sequential key.  Not atomic: lookup and update with several
 * producers only need valid keys, and insert and delete (which need the
 * exact sequence) run one producer.  64 bits so it never wraps.
 */
__u64 next_index;

struct loop_state {
	int ret;
};

/*
 * Key number i in [0, nr_entries) as the first prefix_len bits of the
 * data: every key is distinct for any prefix length, and with /32 the
 * keys are the integers [0, nr_entries) themselves.
 */
static __always_inline __u32 make_key(struct lpm_key *key)
{
	__u32 i;

	if (random_keys)
		i = bpf_get_prandom_u32() % nr_entries;
	else
		i = next_index++ % nr_entries;
	key->prefixlen = prefix_len;
	key->data = bpf_htonl(i << (32 - prefix_len));
	return i;
}

static int do_noop(__u32 idx, struct loop_state *s)
{
	return 0;
}

static int do_baseline(__u32 idx, struct loop_state *s)
{
	struct lpm_key key;

	make_key(&key);
	/* keep the key's computation: the compiler cannot see it unused */
	asm volatile("" : : "r"(key.data) : "memory");
	return 0;
}

static int do_lookup(__u32 idx, struct loop_state *s)
{
	struct lpm_key key;

	make_key(&key);
	if (!bpf_map_lookup_elem(&trie, &key)) {
		s->ret = -ENOENT;
		return 1;
	}
	return 0;
}

/* A step's end: stop the loop on an error, or when the trie needs resetting. */
static __always_inline int step_end(struct loop_state *s, long err, bool reset)
{
	if (err) {
		s->ret = err;
		return 1;
	}
	if (reset) {
		s->ret = LPM_RESET;
		return 1;
	}
	return 0;
}

static int do_insert(__u32 idx, struct loop_state *s)
{
	struct lpm_key key;
	__u32 val = 1, i;
	long err;

	i = make_key(&key);
	err = bpf_map_update_elem(&trie, &key, &val, BPF_NOEXIST);
	/* full: user space empties it before the next run */
	return step_end(s, err, i == nr_entries - 1);
}

static int do_update(__u32 idx, struct loop_state *s)
{
	struct lpm_key key;
	__u32 val;
	long err;

	val = make_key(&key) + 1;	/* differs from the fill's value, so tests see it */
	err = bpf_map_update_elem(&trie, &key, &val, BPF_EXIST);
	return step_end(s, err, false);
}

static int do_delete(__u32 idx, struct loop_state *s)
{
	struct lpm_key key;
	long err;
	__u32 i;

	i = make_key(&key);
	err = bpf_map_delete_elem(&trie, &key);
	/* empty: user space refills it before the next run */
	return step_end(s, err, i == nr_entries - 1);
}

static __always_inline long run_ops(__u32 n, struct loop_state *s)
{
	switch (op) {
	case LPM_NOOP:
		return bpf_loop(n, do_noop, s, 0);
	case LPM_BASELINE:
		return bpf_loop(n, do_baseline, s, 0);
	case LPM_LOOKUP:
		return bpf_loop(n, do_lookup, s, 0);
	case LPM_INSERT:
		return bpf_loop(n, do_insert, s, 0);
	case LPM_UPDATE:
		return bpf_loop(n, do_update, s, 0);
	case LPM_DELETE:
		return bpf_loop(n, do_delete, s, 0);
	}
	return -EINVAL;
}

/* --latency: a run's ops as batches, each of which may be the timed one. */
struct lpm_chunks {
	struct loop_state s;
	long done;	/* ops done, or a negative errno from bpf_loop */
};

static int do_batch(__u32 idx, struct lpm_chunks *c)
{
	/*
	 * insert and delete build or tear down the trie key by key: the
	 * first half of a batch is not like its second, so no linearity
	 */
	bool split = op != LPM_INSERT && op != LPM_DELETE;
	struct hist_batch hb;
	__u32 timed = hist_begin(&hb, LPM_HIST_BATCH, split);
	long n = run_ops(timed, &c->s);

	if (n < 0)
		goto fail;
	/* a reset or a failed op ends the batch early: what it timed is what it did */
	if (hb.ops)
		hb.ops = n;
	hist_end(&hb, 0);
	c->done += n;
	if (c->s.ret)
		return 1;
	n = run_ops(LPM_HIST_BATCH - timed, &c->s);
	if (n < 0)
		goto fail;
	c->done += n;
	return c->s.ret ? 1 : 0;
fail:
	c->done = n;
	return 1;
}

static __always_inline long run_loop(struct loop_state *s)
{
	struct lpm_chunks c = { 0 };
	long err;

	/* rodata: without --latency the verifier keeps the one loop of old */
	if (!hist_every)
		return run_ops(LPM_LOOPS, s);
	err = bpf_loop(LPM_LOOPS / LPM_HIST_BATCH, do_batch, &c, 0);
	s->ret = c.s.ret;
	return err < 0 ? err : c.done;
}

/*
 * One run of the producer whose index is in the packet: up to LPM_LOOPS
 * operations between two clock reads, added to that producer's counters.
 * Returns 0, LPM_RESET or a negative errno (from the failing op).
 */
SEC("tc")
int lpm_run(struct __sk_buff *ctx)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	struct loop_state s = { 0 };
	struct lpm_prod *p;
	__u64 t0, dt;
	long done;

	if (data + LPM_PKT_PROD + sizeof(__u32) > end)
		return -EINVAL;
	p = &prod[*(__u32 *)(data + LPM_PKT_PROD) & (LPM_MAX_PROD - 1)];
	t0 = bpf_ktime_get_ns();
	done = run_loop(&s);
	dt = bpf_ktime_get_ns() - t0;
	if (done < 0)
		return done;
	/* one writer per producer's line; user space reads whole words */
	p->ops += done;
	p->ns += dt;
	return s.ret;
}

/* ---- lpm-trie-free: the deferred free, bracketed on the workqueue ---- */

const volatile __u64 free_fn;		/* bpf_map_free_deferred, from /proc/kallsyms */
char free_name[16];			/* the trie about to be freed; set before close() */
__u64 free_ns, free_count, free_other;	/* timed frees of ours; other maps' frees seen */

/* Start time by work item: a kworker may migrate while it frees. */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 64);
	__type(key, __u64);
	__type(value, __u64);
} free_start SEC(".maps");

/* Is the map that embeds this work item the LPM trie user space just closed? */
static __always_inline bool is_our_trie(struct work_struct *work)
{
	struct bpf_map *map = (void *)work - bpf_core_field_offset(struct bpf_map, work);
	__u64 name[2] = { 0 }, *want = (__u64 *)free_name;

	if (BPF_CORE_READ(map, map_type) != BPF_MAP_TYPE_LPM_TRIE)
		return false;
	if (bpf_core_read(name, sizeof(name), &map->name))
		return false;
	return name[0] == want[0] && name[1] == want[1];
}

SEC("raw_tp/workqueue_execute_start")
int lpm_free_start(struct bpf_raw_tracepoint_args *ctx)
{
	struct work_struct *work = (void *)ctx->args[0];
	__u64 key = ctx->args[0], zero = 0, *t0;

	if ((__u64)BPF_CORE_READ(work, func) != free_fn)
		return 0;
	if (!is_our_trie(work)) {
		__sync_fetch_and_add(&free_other, 1);
		return 0;
	}
	if (bpf_map_update_elem(&free_start, &key, &zero, BPF_ANY))
		return 0;
	t0 = bpf_map_lookup_elem(&free_start, &key);
	if (t0)
		*t0 = bpf_ktime_get_ns();	/* last: our own work stays outside */
	return 0;
}

/* The work item may be freed by now (it is in the map): compare, never read it. */
SEC("raw_tp/workqueue_execute_end")
int lpm_free_end(struct bpf_raw_tracepoint_args *ctx)
{
	__u64 t1 = bpf_ktime_get_ns(), key = ctx->args[0], *t0;

	if (ctx->args[1] != free_fn)
		return 0;
	t0 = bpf_map_lookup_elem(&free_start, &key);
	if (!t0)
		return 0;
	if (*t0 && t1 > *t0) {
		__sync_fetch_and_add(&free_ns, t1 - *t0);
		__sync_fetch_and_add(&free_count, 1);
	}
	bpf_map_delete_elem(&free_start, &key);
	return 0;
}
