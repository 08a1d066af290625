// SPDX-License-Identifier: GPL-2.0
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
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

uint64_t slots_extra_sum(const struct bench_slot *slots, int word)
{
	uint64_t sum = 0;
	int i;

	for (i = 0; i < BENCH_NR_SLOTS; i++)
		sum += __atomic_load_n(&slots[i].extra[word], __ATOMIC_RELAXED);
	return sum;
}

uint64_t obj_recursion_misses(struct bpf_object *obj)
{
	struct bpf_program *prog;
	uint64_t misses = 0;

	bpf_object__for_each_program(prog, obj) {
		struct bpf_prog_info info = { 0 };
		__u32 len = sizeof(info);
		int fd = bpf_program__fd(prog);

		if (fd >= 0 && !bpf_obj_get_info_by_fd(fd, &info, &len))
			misses += info.recursion_misses;
	}
	return misses;
}
