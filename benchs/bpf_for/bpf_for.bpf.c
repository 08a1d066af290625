// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_for: the open-coded iterator (bpf_iter_num, 6.4+) beside bpf_loop().
 *
 * The program has bpf-loop's shape, which is the kernel's bench's: a run
 * makes 1000 loops of nr_loops iterations and adds each loop's count as
 * it ends; past 1000 iterations a loop, fewer loops keep a run near
 * ITERS_PER_RUN iterations.  libbpf 1.1 has no bpf_for() macro: the
 * kfuncs are declared here and the loop written as the macro would.
 *
 * With --latency, one run in hist_every per CPU times its loops (or the
 * first half of them) per iteration, as bpf-loop (bpf/hist.bpf.h).
 */
#include "bench_common.bpf.h"
#include "hist.bpf.h"

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

/* n loops, each one's count added to slot as it ends (count), or summed and returned. */
static __always_inline __u64 loops(struct bench_slot *slot, __u32 n, bool count)
{
	struct bpf_iter_num calls;
	__u64 sum = 0;
	long done;

	bpf_iter_num_new(&calls, 0, n);
	while (bpf_iter_num_next(&calls)) {
		done = one_loop();
		if (count)
			__sync_fetch_and_add(&slot->hits, done);
		else
			sum += done;
	}
	bpf_iter_num_destroy(&calls);
	return sum;
}

/*
 * --latency's timed loops, summed on the stack so that the atomic stays
 * out of the figure.  A global function, verified on its own: its sum
 * comes back unknown, not tracked from the loops that counted it, which
 * otherwise could not converge once hist_end() uses the figure.
 */
__noinline int timed_loops(__u32 n)
{
	/* at most 1000 loops or 8M iterations: the sum fits */
	return n > CALLS_PER_RUN ? 0 : (int)loops(NULL, n, false);
}

/* --latency: a sampled run times its first loops; the rest as loops() does. */
static __always_inline void loops_timed(struct bench_slot *slot)
{
	struct hist_batch hb = { 0 };
	__u32 n = calls_per_run(), timed = hist_begin(&hb, n, true);
	__u64 iters;

	if (!hb.ops) {
		loops(slot, n, true);
		return;
	}
	iters = (__u32)timed_loops(timed);
	/* an op is an iteration: the batch's time is divided by those the loops ran */
	hist_end_ops(&hb, 0, iters);
	if (iters)
		__sync_fetch_and_add(&slot->hits, iters);
	loops(slot, n - timed, true);
}

static __always_inline void run_loops(void)
{
	struct bench_slot *slot = bench_my_slot();

	__sync_fetch_and_add(&slot->extra[SLOT_RUNS], 1);
	/* rodata: without --latency the verifier keeps the plain loops only */
	if (!hist_every)
		loops(slot, calls_per_run(), true);
	else
		loops_timed(slot);
}

BENCH_TRIGGERS(bpf_for, run_loops)
