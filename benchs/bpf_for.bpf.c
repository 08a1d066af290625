// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_for: the open-coded iterator (bpf_iter_num, 6.4+) beside bpf_loop().
 *
 * The program has bpf-loop's shape, which is the kernel's bench's: a run
 * makes 1000 loops of nr_loops iterations and adds each loop's count as
 * it ends; past 1000 iterations a loop, fewer loops keep a run near
 * ITERS_PER_RUN iterations.  libbpf 1.1 has no bpf_for() macro: the
 * kfuncs are declared here and the loop written as the macro would.
 */
#include "bench_common.bpf.h"

#define CALLS_PER_RUN	1000
#define ITERS_PER_RUN	1000000
#define SLOT_RUNS	0	/* extra[] word: program runs */

extern int bpf_iter_num_new(struct bpf_iter_num *it, int start, int end) __weak __ksym;
extern int *bpf_iter_num_next(struct bpf_iter_num *it) __weak __ksym;
extern void bpf_iter_num_destroy(struct bpf_iter_num *it) __weak __ksym;

const volatile __u32 nr_loops = 10;

static __always_inline int calls_per_run(void)
{
	if (nr_loops <= ITERS_PER_RUN / CALLS_PER_RUN)
		return CALLS_PER_RUN;
	if (nr_loops >= ITERS_PER_RUN)
		return 1;
	return ITERS_PER_RUN / nr_loops;
}

/* One loop of nr_loops empty iterations; what the iterator actually gave. */
static __always_inline long one_loop(void)
{
	struct bpf_iter_num it;
	long n = 0;

	bpf_iter_num_new(&it, 0, nr_loops);
	while (bpf_iter_num_next(&it))
		n++;
	bpf_iter_num_destroy(&it);
	return n;
}

static __always_inline void run_loops(void)
{
	struct bench_slot *slot = bench_my_slot();
	struct bpf_iter_num calls;

	__sync_fetch_and_add(&slot->extra[SLOT_RUNS], 1);
	bpf_iter_num_new(&calls, 0, calls_per_run());
	while (bpf_iter_num_next(&calls))
		__sync_fetch_and_add(&slot->hits, one_loop());
	bpf_iter_num_destroy(&calls);
}

BENCH_TRIGGERS(bpf_for, run_loops)
