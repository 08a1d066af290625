// SPDX-License-Identifier: GPL-2.0
#include "skel_util.h"

uint64_t slots_sum(const struct bench_slot *slots, enum slot_field f)
{
	uint64_t sum = 0;
	int i;

	for (i = 0; i < BENCH_NR_SLOTS; i++)
		sum += __atomic_load_n(f == SLOT_HITS ? &slots[i].hits : &slots[i].drops,
				       __ATOMIC_RELAXED);
	return sum;
}
