// SPDX-License-Identifier: GPL-2.0
/*
 * bpf-hashmap-lookup: lookups of a hash map whose key size, flags and
 * size user space sets before load, as the kernel bench measures them.
 * A run makes nr_outer passes of nr_entries lookups each (bpf_loop()
 * inside bpf_loop()), key i + 1 in the first word and a fixed pattern in
 * the rest, and times them.  A miss ends its pass, as upstream's does;
 * the passes count their finds and misses on the stack, summed into the
 * CPU's slot after the clock stopped, so the tests can see every key
 * found without the count entering the figure.
 */
#include "bench_common.bpf.h"
#include "bpf_hashmap.h"

/* key, value size, max_entries and flags: set by user space at open */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
} hash_map_bench SEC(".maps");

const volatile __u32 nr_entries = 500;
const volatile __u32 nr_outer = 2000;

/*
 * Shared by every CPU, as upstream's is: its first word is rewritten by
 * each lookup, so producers on several CPUs contend for its line.
 */
__u32 key[HM_MAX_KEY / 4] __attribute__((aligned(8)));

/* a key's first word holds i + 1 little-endian, on either byte order (as user space writes it) */
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define le32_word(v)	(v)
#else
#define le32_word(v)	__builtin_bswap32(v)
#endif

struct pass {
	__u32 missed;
};

struct lookup_run {
	__u64 found, missed;
};

static int lookup_one(__u32 index, struct pass *p)
{
	key[0] = le32_word(index + 1);
	if (bpf_map_lookup_elem(&hash_map_bench, key))
		return 0;
	p->missed = 1;
	return 1;
}

static int lookup_pass(__u32 index, struct lookup_run *r)
{
	struct pass p = {};
	long done;

	done = bpf_loop(nr_entries, lookup_one, &p, 0);
	if (done <= 0)
		return 1;
	r->found += done - p.missed;
	r->missed += p.missed;
	return 0;
}

static __always_inline void lookups(void)
{
	struct bench_slot *slot = bench_my_slot();
	struct lookup_run r = {};
	__u64 t0 = bpf_ktime_get_ns(), dt;

	bpf_loop(nr_outer, lookup_pass, &r, 0);
	dt = bpf_ktime_get_ns() - t0;
	__sync_fetch_and_add(&slot->hits, r.found);
	__sync_fetch_and_add(&slot->drops, r.missed);
	__sync_fetch_and_add(&slot->extra[HM_SLOT_NS], dt);
	__sync_fetch_and_add(&slot->extra[HM_SLOT_RUNS], 1);
}

BENCH_TRIGGERS(hashmap_lookup, lookups)
