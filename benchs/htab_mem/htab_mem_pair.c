// SPDX-License-Identifier: GPL-2.0
/*
 * htab-mem's pair barrier: the two producers of an add_del_on_diff_cpu
 * pair meet here twice a round.
 */
#include <stdatomic.h>
#include <time.h>
#include <unistd.h>
#include <linux/futex.h>
#include <sys/syscall.h>
#include "bench.h"
#include "htab_mem_pair.h"

#define PAIR_WAIT_NS	10000000l	/* a sleeping partner re-checks stop this often */

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield");
#endif
}

static bool round_passed(struct pair_barrier *b, unsigned int r)
{
	return atomic_load(&b->round) != r;
}

static bool spin_round(struct bench_env *env, struct pair_barrier *b, unsigned int r,
		       uint64_t spin_ns)
{
	uint64_t until = now_ns() + spin_ns;
	int i;

	while (spin_ns && now_ns() < until && !bench_stopping(env))
		for (i = 0; i < 256; i++, cpu_relax())
			if (round_passed(b, r))
				return true;
	return false;
}

static void sleep_round(struct bench_env *env, struct pair_barrier *b, unsigned int r)
{
	struct timespec ts = { 0, PAIR_WAIT_NS };

	while (!round_passed(b, r) && !bench_stopping(env)) {
		atomic_fetch_add(&b->sleepers, 1);
		/* returns at once if the round has moved on since the check */
		syscall(SYS_futex, &b->round, FUTEX_WAIT_PRIVATE, r, &ts, NULL, 0);
		atomic_fetch_sub(&b->sleepers, 1);
	}
}

/* Both producers of a pair pass here; false when the run is over. */
bool pair_meet(struct bench_env *env, struct pair_barrier *b, uint64_t spin_ns)
{
	unsigned int r = atomic_load(&b->round);

	if (atomic_fetch_add(&b->arrived, 1) == 1) {
		/* reset before the round moves: the partner may arrive again at once */
		atomic_store(&b->arrived, 0);
		atomic_fetch_add(&b->round, 1);
		if (atomic_load(&b->sleepers))
			syscall(SYS_futex, &b->round, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
		return !bench_stopping(env);
	}
	if (!spin_round(env, b, r, spin_ns))
		sleep_round(env, b, r);
	return round_passed(b, r) && !bench_stopping(env);
}

