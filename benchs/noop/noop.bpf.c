// SPDX-License-Identifier: GPL-2.0
/*
 * The harness floor: a program that does nothing `batch` times per run.
 * With --latency, one run in hist_every per CPU also times its empty ops
 * (bpf/hist.bpf.h).
 */
#include "bench_common.bpf.h"
#include "hist.bpf.h"

#define NOOP_BATCH_MAX	4096

const volatile __u32 batch = 1;

static __always_inline void empty_ops(__u32 n)
{
	__u32 i;

	for (i = 0; i < NOOP_BATCH_MAX; i++) {
		if (i >= n)
			break;
		asm volatile("" ::: "memory");	/* an op the compiler cannot remove */
	}
}

static __always_inline void noop_run(void)
{
	struct hist_batch hb;
	__u32 timed = hist_begin(&hb, batch, true);

	empty_ops(timed);
	hist_end(&hb, 0);
	empty_ops(batch - timed);
	bench_add_hits(batch);
}

BENCH_TRIGGERS(noop, noop_run)
