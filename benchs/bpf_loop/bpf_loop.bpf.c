// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_loop(): the cost of one iteration of the helper's loop.
 *
 * As in the kernel's bench, a program run makes 1000 bpf_loop() calls,
 * each from a callback of an outer bpf_loop() (the kernel bench's shape:
 * a call then costs an outer callback too, a tenth of the op at
 * nr_loops 10; doc/fidelity.md), and adds each call's iterations to the
 * counter as the call returns:
 * at small nr_loops a figure is then the cost of a call and its
 * iterations, not of the program run around them.  Past 1000 iterations
 * a call, the calls shrink to keep a run near ITERS_PER_RUN iterations
 * (one call from 1000000 on): the run's own cost is as thin either way,
 * and a run never holds the CPU for seconds (1000 calls of 8M would).
 *
 * With --latency, one run in hist_every per CPU times its calls (or the
 * first half of them) and records their time per iteration, as the
 * throughput counts ops (bpf/hist.bpf.h).
 */
#include "bench_common.bpf.h"
#include "hist.bpf.h"
#include "bpf_loop.h"

#define CALLS_PER_RUN	1000
#define ITERS_PER_RUN	1000000

const volatile __u32 nr_loops = 10;

static int empty_callback(__u32 index, void *data)
{
	return 0;
}

static __always_inline __u32 calls_per_run(void)
{
	if (nr_loops <= ITERS_PER_RUN / CALLS_PER_RUN)
		return CALLS_PER_RUN;
	if (nr_loops >= ITERS_PER_RUN)
		return 1;
	return ITERS_PER_RUN / nr_loops;
}

struct plain_run {
	struct bench_slot *slot;
};

/* One call; counts what bpf_loop() says it ran, not what was asked. */
static int plain_call(__u32 index, void *data)
{
	struct plain_run *r = data;
	long done;

	done = bpf_loop(nr_loops, empty_callback, NULL, 0);
	if (done > 0)
		__sync_fetch_and_add(&r->slot->hits, done);
	return 0;
}

static __always_inline void loop_calls(struct bench_slot *slot, __u32 calls)
{
	struct plain_run r = { .slot = slot };

	bpf_loop(calls, plain_call, &r, 0);
}

/* Ends a timed batch of iters iterations (an op is an iteration), then counts them. */
static __always_inline void end_timed(struct hist_batch *hb, struct bench_slot *slot, __u64 iters)
{
	hist_end_ops(hb, 0, iters);
	if (iters)
		__sync_fetch_and_add(&slot->hits, iters);
}

/* --latency: a run's calls, each a callback of an outer bpf_loop(). */
struct timed_run {
	struct hist_batch hb;
	struct bench_slot *slot;
	__u32 timed;	/* the first this many calls are timed (hb.ops: this run is sampled) */
	__u64 iters;	/* iterations of the timed calls, counted once they are timed */
};

static int timed_call(__u32 i, void *ctx)
{
	struct timed_run *r = ctx;
	long done;

	if (r->hb.ops && i == r->timed) {
		end_timed(&r->hb, r->slot, r->iters);
		r->hb.ops = 0;
	}
	done = bpf_loop(nr_loops, empty_callback, NULL, 0);
	if (done <= 0)
		return 0;
	if (r->hb.ops)
		r->iters += done;
	else
		__sync_fetch_and_add(&r->slot->hits, done);
	return 0;
}

/*
 * --latency: as loop_calls, but a sampled run times its first calls,
 * summing their counts in the run's context so that the atomic stays out
 * of the figure.  The calls are an outer bpf_loop()'s callbacks: the
 * verifier walks one call, not each of a run's thousand (a plain loop
 * took it 79% of its limit).
 */
static __always_inline void loop_calls_timed(struct bench_slot *slot, __u32 calls)
{
	struct timed_run r = { .slot = slot };

	r.timed = hist_begin(&r.hb, calls, true);
	bpf_loop(calls, timed_call, &r, 0);
	if (r.hb.ops)
		end_timed(&r.hb, slot, r.iters);
}

/* Runs are counted as each starts. */
static __always_inline void run_loops(void)
{
	struct bench_slot *slot = bench_my_slot();

	__sync_fetch_and_add(&slot->extra[BPF_LOOP_SLOT_RUNS], 1);
	/* rodata: without --latency the verifier keeps the plain loop only */
	if (!hist_every)
		loop_calls(slot, calls_per_run());
	else
		loop_calls_timed(slot, calls_per_run());
}

BENCH_TRIGGERS(bpf_loop, run_loops)
