// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_loop(): the cost of one iteration of the helper's loop.
 *
 * As in the kernel's bench, a program run makes 1000 bpf_loop() calls
 * and adds each call's iterations to the counter as the call returns:
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

/* Counts what bpf_loop() says it ran, not what was asked, as each call returns. */
static __always_inline void loop_calls(struct bench_slot *slot, __u32 calls)
{
	long done;
	__u32 i;

	for (i = 0; i < CALLS_PER_RUN && i < calls; i++) {
		done = bpf_loop(nr_loops, empty_callback, NULL, 0);
		if (done > 0)
			__sync_fetch_and_add(&slot->hits, done);
	}
}

/* Ends a timed batch of iters iterations (an op is an iteration), then counts them. */
static __always_inline void end_timed(struct hist_batch *hb, struct bench_slot *slot, __u64 iters)
{
	hist_end_ops(hb, 0, iters);
	if (iters)
		__sync_fetch_and_add(&slot->hits, iters);
}

/*
 * --latency: as loop_calls, but a sampled run times its first calls,
 * summing their counts on the stack so that the atomic stays out of the
 * figure.  One loop, not a timed and an untimed one: the verifier would
 * walk the second for every place the first may end.
 */
static __always_inline void loop_calls_timed(struct bench_slot *slot, __u32 calls)
{
	struct hist_batch hb = { 0 };
	__u32 i, timed = hist_begin(&hb, calls, true);
	__u64 iters = 0;
	long done;

	for (i = 0; i < CALLS_PER_RUN && i < calls; i++) {
		if (hb.ops && i == timed)
			end_timed(&hb, slot, iters);
		done = bpf_loop(nr_loops, empty_callback, NULL, 0);
		if (done <= 0)
			continue;
		if (hb.ops && i < timed)
			iters += done;
		else
			__sync_fetch_and_add(&slot->hits, done);
	}
	if (hb.ops && timed >= calls)
		end_timed(&hb, slot, iters);
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
