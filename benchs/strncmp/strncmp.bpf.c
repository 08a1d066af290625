// SPDX-License-Identifier: GPL-2.0
/*
 * strncmp-no-helper, strncmp-helper: comparing a string of cmp_str_len
 * bytes (and its terminator) with a target, by a loop in the program or
 * by the bpf_strncmp() helper, once a program run.  As in the kernel's
 * bench, str is the target with its last compared byte made smaller, so
 * every run's result is negative and counts as a hit.
 *
 * Upstream runs the body from tp/syscalls/sys_enter_getpgid, which needs
 * tracefs; here the core's triggers run it (raw_tp/sys_enter on our own
 * getpgid(), or a tc test run: doc/differences.md).
 */
#include "bench_common.bpf.h"
#include "strncmp.h"

/* Set by user space before load. */
const volatile __u32 cmp_str_len = 1;
const char target[STRNCMP_STR_SZ];

char str[STRNCMP_STR_SZ];

/* Hits are the negative results (upstream's count); the others are counted apart. */
static __always_inline void count_result(int ret)
{
	struct bench_slot *slot = bench_my_slot();

	if (ret < 0)
		__sync_fetch_and_add(&slot->hits, 1);
	else if (ret == 0)
		__sync_fetch_and_add(&slot->extra[STRNCMP_SLOT_EQUAL], 1);
	else
		__sync_fetch_and_add(&slot->extra[STRNCMP_SLOT_GREATER], 1);
}

/* strncmp() as C defines it: bytes compared unsigned, stopping at s1's terminator. */
static __always_inline int loop_strncmp(const char *s1, __u32 sz, const char *s2)
{
	int ret = 0;
	__u32 i;

	for (i = 0; i < sz; i++) {
		ret = (unsigned char)s1[i] - (unsigned char)s2[i];
		if (ret || !s1[i])
			break;
	}
	return ret;
}

static __always_inline void run_no_helper(void)
{
	const char *t = target;

	/* target is all zeroes to the compiler: keep it from folding the loads */
	barrier_var(t);
	count_result(loop_strncmp(str, cmp_str_len + 1, t));
}

static __always_inline void run_helper(void)
{
	count_result(bpf_strncmp(str, cmp_str_len + 1, target));
}

BENCH_TRIGGERS(strncmp_no_helper, run_no_helper)
BENCH_TRIGGERS(strncmp_helper, run_helper)
