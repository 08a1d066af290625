/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-op latency distributions timed inside BPF (user side: src/bench/hist_bpf.h).
 *
 * Reading the clock costs far more than an empty op, so ops are never
 * timed one by one on every run: on each CPU, one run in hist_every
 * times a batch of its ops with two bpf_ktime_get_ns() calls and
 * records the batch's time per op, less the clock's own cost, into a
 * per-CPU log-linear histogram (bpf/hist_shared.h).  The other runs pay
 * a per-CPU countdown only.  With hist_every 0 (the default) the
 * verifier drops all of it: rodata is constant.
 *
 * A program times its ops so:
 *
 *	struct hist_batch hb;
 *	__u32 timed = hist_begin(&hb, n, true);	// ops to run timed: n, or n / 2
 *
 *	run_ops(timed);
 *	hist_end(&hb, 0);			// histogram 0 (< HIST_MAX)
 *	run_ops(n - timed);			// the untimed rest
 *
 * With split true, sampled batches alternate between timing all n ops
 * and timing the first n / 2 (the rest run untimed): the linearity
 * check compares the two.  A program whose n ops cannot be cut (one
 * helper call) passes false: hist_begin then always returns n.  Time
 * only the ops: hist_end before counting them (bench_add_hits), so the
 * count's atomic stays out of the figure.
 */
#ifndef BPFBENCH_HIST_BPF_H
#define BPFBENCH_HIST_BPF_H

#include "bench_common.bpf.h"
#include "hist_shared.h"

/* Set before load: time one run in this many on each CPU; 0: none. */
const volatile __u32 hist_every;
/* The clock's own cost in q (1/16 ns), written by user space after hist_clock measured it. */
__u64 hist_clock_q;

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, HIST_MAP_ENTRIES);
	__type(key, __u32);
	__type(value, struct hist_cpu);
} hist_map SEC(".maps");

struct hist_tick hist_ticks[BENCH_NR_SLOTS];

struct hist_batch {
	__u64 t0;
	__u32 ops;	/* ops timed; 0: this run is not sampled */
	__u32 half;
};

static __always_inline void hist_record(__u32 id, __u64 dt_ns, __u32 ops, __u64 clock_q)
{
	struct hist_cpu *h = bpf_map_lookup_elem(&hist_map, &id);
	__u64 q = dt_ns << HIST_FRAC_BITS, bin;

	if (!h || !ops)
		return;
	if (q > clock_q) {
		q = (q - clock_q) / ops;
	} else {
		q = 0;
		__sync_fetch_and_add(&h->below, 1);
	}
	bin = hist_bin(q);
	/* one register for the check and the access, or the verifier loses the bound */
	asm volatile("" : "+r"(bin));
	if (bin < HIST_NR_BINS)
		__sync_fetch_and_add(&h->bins[bin], ops);
	__sync_fetch_and_add(&h->ops, ops);
	__sync_fetch_and_add(&h->batches, 1);
	__sync_fetch_and_add(&h->sum_ns, dt_ns);
	if (q > h->max_q)
		h->max_q = q;
}

/* Whether this run times its ops; returns how many to run timed (n when not sampled). */
static __always_inline __u32 hist_begin(struct hist_batch *b, __u32 n, bool split)
{
	struct hist_tick *t;

	b->ops = 0;
	if (!hist_every || !n)
		return n;
	t = &hist_ticks[bpf_get_smp_processor_id() & (BENCH_NR_SLOTS - 1)];
	if (t->left) {
		t->left--;
		return n;
	}
	t->left = hist_every - 1;
	b->half = 0;
	if (split && n >= 2) {
		t->half ^= 1;
		b->half = t->half;
	}
	b->ops = b->half ? n / 2 : n;
	b->t0 = bpf_ktime_get_ns();
	return b->ops;
}

static __always_inline void hist_end(struct hist_batch *b, __u32 id)
{
	__u64 t1;

	if (!b->ops)
		return;
	t1 = bpf_ktime_get_ns();
	hist_record(b->half ? id + HIST_HALF : id, t1 - b->t0, b->ops, hist_clock_q);
}

/*
 * Ends a batch whose ops are not the units hist_begin() cut: bpf-loop
 * cuts a run into calls but an op is an iteration, so the batch's time
 * is divided by the ops it ran (0: nothing recorded as an op).
 */
static __always_inline void hist_end_ops(struct hist_batch *b, __u32 id, __u32 ops)
{
	if (b->ops)
		b->ops = ops;
	hist_end(b, id);
}

/*
 * The clock's own cost: empty timed batches, each the two reads a
 * sampled batch makes with nothing between, recorded raw into
 * HIST_CLOCK_ID.  User space runs it at setup (test-run) and takes the
 * median as the cost every timed batch has taken off.
 */
#define HIST_CLOCK_BATCHES	32

SEC("tc")
int hist_clock(struct __sk_buff *ctx)
{
	__u64 t0;
	__u32 i;

	for (i = 0; i < HIST_CLOCK_BATCHES; i++) {
		t0 = bpf_ktime_get_ns();
		asm volatile("" ::: "memory");
		hist_record(HIST_CLOCK_ID, bpf_ktime_get_ns() - t0, 1, 0);
	}
	return 0;
}

#endif
