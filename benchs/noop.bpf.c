// SPDX-License-Identifier: GPL-2.0
/* The harness floor: a program that does nothing `batch` times per run. */
#include "bench_common.bpf.h"

#define NOOP_BATCH_MAX	4096

const volatile __u32 batch = 1;

static __always_inline void empty_ops(void)
{
	__u32 i;

	for (i = 0; i < NOOP_BATCH_MAX; i++) {
		if (i >= batch)
			break;
		asm volatile("" ::: "memory");	/* an op the compiler cannot remove */
	}
	bench_add_hits(i);
}

BENCH_TRIGGERS(noop, empty_ops)
