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
 */
#include "bench_common.bpf.h"
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

/* Counts what bpf_loop() says it ran, not what was asked; runs as each starts. */
static __always_inline void run_loops(void)
{
	struct bench_slot *slot = bench_my_slot();
	__u32 i, calls = calls_per_run();
	long done;

	__sync_fetch_and_add(&slot->extra[BPF_LOOP_SLOT_RUNS], 1);
	for (i = 0; i < CALLS_PER_RUN && i < calls; i++) {
		done = bpf_loop(nr_loops, empty_callback, NULL, 0);
		if (done > 0)
			__sync_fetch_and_add(&slot->hits, done);
	}
}

BENCH_TRIGGERS(bpf_loop, run_loops)
