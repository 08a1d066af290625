// SPDX-License-Identifier: GPL-2.0
/* bpf_loop(): the cost of one iteration of the helper's loop. */
#include "bench_common.bpf.h"

const volatile __u32 nr_loops = 10;

static int empty_callback(__u32 index, void *data)
{
	return 0;
}

/* Counts what bpf_loop() says it ran, not what was asked. */
static __always_inline void run_loops(void)
{
	long done = bpf_loop(nr_loops, empty_callback, NULL, 0);

	if (done > 0)
		bench_add_hits(done);
}

BENCH_TRIGGERS(bpf_loop, run_loops)
