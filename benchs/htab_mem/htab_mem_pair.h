/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BPFBENCH_HTAB_MEM_PAIR_H
#define BPFBENCH_HTAB_MEM_PAIR_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

struct bench_env;

/*
 * add_del_on_diff_cpu: the two producers of a pair meet at a barrier
 * twice a round, as the kernel bench's pthread barriers make them: the
 * adder runs, both meet, the deleter runs, both meet.  A round therefore
 * costs both runs and two cross-CPU wake-ups, and that is what the
 * kernel's per-prod-op counts.  The waits time out to notice the end.
 */
struct pair_barrier {
	atomic_uint arrived;	/* at the barrier this round: 0 or 1 */
	atomic_uint round;	/* the futex word: bumped by the second arrival */
	atomic_uint sleepers;	/* in FUTEX_WAIT on round */
} __attribute__((aligned(64)));

/* Both producers of a pair pass here (spinning up to spin_ns first); false when the run is over. */
bool pair_meet(struct bench_env *env, struct pair_barrier *b, uint64_t spin_ns);

#endif
