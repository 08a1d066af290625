// SPDX-License-Identifier: GPL-2.0
/*
 * maps: one map op in a loop, timed inside the kernel.
 *
 * Each program does one op kind on the map `target`, whose type, sizes
 * and flags user space sets before load; only the programs a run needs
 * are loaded, so an op a map type lacks is never verified.  A run does
 * up to MAPS_CHUNK ops of its producer's job (the producer's slot index
 * is the packet's first word) between two clock reads, and checks each
 * op's result as it goes: the oracle is the program's own counts.
 *
 * With --latency, one timed chunk in hist_every per CPU also goes into
 * the op's histogram (bpf/hist.bpf.h), its clock reads being the ones
 * the chunk has anyway.
 */
#include "bench_common.bpf.h"
#include "hist.bpf.h"
#include "maps.h"

#ifndef ENOENT
#define ENOENT	2
#endif

struct {
	__uint(type, BPF_MAP_TYPE_HASH);	/* all four set before load */
	__uint(key_size, 4);
	__uint(value_size, 8);
	__uint(max_entries, 1);
} target SEC(".maps");

const volatile __u32 key_off;		/* where the key index goes: 4 in an LPM key */
const volatile bool check_value;	/* lookups compare the value with the key index */
const volatile __u32 hist_ids[MAPS_NR_OPS];	/* --latency: each op's histogram */

struct maps_prod prods[MAPS_MAX_PROD];

/*
 * The callbacks work on the slot itself, not on copies on the stack: the
 * verifier knows nothing of a map value's contents, so it need not walk
 * every value a counter takes before it sees the loop body converge.
 */
struct loop_ctx {
	struct maps_prod *p;
};

static __always_inline void bad(struct maps_prod *p, __u64 index, long ret)
{
	if (!(p->job.flags & MAPS_JOB_STRICT))
		return;
	if (!p->bad++) {
		p->bad_index = index;
		p->bad_ret = ret;
	}
}

static __always_inline void next(struct maps_job *j)
{
	if (++j->cursor >= j->range)
		j->cursor = 0;
	if (++j->phase >= 100)
		j->phase = 0;
}

static __always_inline void *key_at(struct maps_prod *p, __u32 index)
{
	*(__u32 *)(p->key + key_off) = index;
	return p->key;
}

static int lookup_op(__u32 i, struct loop_ctx *c)
{
	struct maps_prod *p = c->p;
	bool want = p->job.phase < p->job.hit;
	__u32 index = want ? p->job.cursor : p->job.cursor | MAPS_ABSENT;
	__u64 *v = bpf_map_lookup_elem(&target, key_at(p, index));

	if (!v) {
		p->misses++;
		if (want)
			bad(p, index, -ENOENT);
	} else {
		p->hits++;
		if (!want)
			bad(p, index, 0);
		else if (check_value && *v != index)
			bad(p, index, 1);
	}
	next(&p->job);
	return 0;
}

static int update_op(__u32 i, struct loop_ctx *c)
{
	struct maps_prod *p = c->p;
	__u32 index = p->job.cursor;
	long err;

	*(__u64 *)p->val = index;
	err = bpf_map_update_elem(&target, key_at(p, index), p->val, BPF_ANY);
	if (err)
		bad(p, index, err);
	next(&p->job);
	return 0;
}

static int delete_op(__u32 i, struct loop_ctx *c)
{
	struct maps_prod *p = c->p;
	__u32 index = p->job.cursor;
	long err = bpf_map_delete_elem(&target, key_at(p, index));

	if (err)
		bad(p, index, err);
	next(&p->job);
	return 0;
}

static int peek_op(__u32 i, struct loop_ctx *c)
{
	struct maps_prod *p = c->p;
	__u64 *v = (__u64 *)p->val;
	long err = bpf_map_peek_elem(&target, v);

	if (err) {
		p->misses++;
		bad(p, 0, err);
	} else {
		p->hits++;
		if (*v != p->job.expect)
			bad(p, *v, 1);
	}
	return 0;
}

static int push_op(__u32 i, struct loop_ctx *c)
{
	struct maps_prod *p = c->p;
	__u64 *v = (__u64 *)p->val;
	long err;

	*v = p->job.cursor;
	err = bpf_map_push_elem(&target, v, 0);
	if (err)
		bad(p, *v, err);
	next(&p->job);
	return 0;
}

static int pop_op(__u32 i, struct loop_ctx *c)
{
	struct maps_prod *p = c->p;
	__u64 *v = (__u64 *)p->val;
	long err = bpf_map_pop_elem(&target, v);

	if (err) {
		bad(p, 0, err);
		return 0;
	}
	p->sum += *v;
	if ((p->job.flags & MAPS_JOB_ORDER) && *v != p->job.expect)
		bad(p, *v, 1);
	p->job.expect += p->job.step;
	return 0;
}

/* --latency: a timed chunk of n ops into op's histogram, one in hist_every per CPU. */
static __always_inline void chunk_record(__u32 op, __u64 dt, __u32 n)
{
	struct hist_tick *t = &hist_ticks[bpf_get_smp_processor_id() & (BENCH_NR_SLOTS - 1)];

	if (t->left) {
		t->left--;
		return;
	}
	t->left = hist_every - 1;
	hist_record(hist_ids[op], dt, n, hist_clock_q);
}

static __always_inline struct maps_prod *slot_of(struct __sk_buff *ctx)
{
	__u32 idx = 0;

	if (bpf_skb_load_bytes(ctx, 0, &idx, sizeof(idx)))
		return NULL;
	return &prods[idx & (MAPS_MAX_PROD - 1)];
}

/* One run: the next chunk of the producer's job between two clock reads. */
#define MAPS_PROG(name, OP, K)						\
SEC("tc")								\
int maps_##name(struct __sk_buff *ctx)					\
{									\
	struct loop_ctx c = { slot_of(ctx) };				\
	struct maps_prod *p = c.p;					\
	__u64 t0, dt;							\
	__u32 n;							\
									\
	if (!p)								\
		return 1;						\
	n = p->job.remaining < MAPS_CHUNK ? p->job.remaining : MAPS_CHUNK; \
	if (!n)								\
		return 0;						\
	t0 = bpf_ktime_get_ns();					\
	bpf_loop(n, OP, &c, 0);						\
	dt = bpf_ktime_get_ns() - t0;					\
	p->job.remaining -= n;						\
	p->ops += n;							\
	p->ns += dt;							\
	if (hist_every)							\
		chunk_record(K, dt, n);					\
	return 0;							\
}

MAPS_PROG(lookup, lookup_op, 0)
MAPS_PROG(update, update_op, 1)
MAPS_PROG(delete, delete_op, 2)
MAPS_PROG(peek, peek_op, 3)
MAPS_PROG(push, push_op, 4)
MAPS_PROG(pop, pop_op, 5)
