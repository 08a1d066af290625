// SPDX-License-Identifier: GPL-2.0
/*
 * map-batch: the map whose syscalls user space times, and a census of
 * it taken inside the kernel, so that "the map holds exactly these
 * elements" is checked by a second observer, not only by the syscalls
 * under test.
 */
#include "bench_common.bpf.h"
#include "map_batch.h"

/*
 * Type, sizes, capacity and flags are set by user space before load.
 * Keys and values are at least 4 bytes; only their first 4 are read here.
 */
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(key_size, 4);
	__uint(value_size, 4);
	__uint(max_entries, 1);
} batch_map SEC(".maps");

/* Set by user space before load. */
const volatile __u32 nr_elems;		/* element ids are 0 .. nr_elems - 1 */
const volatile bool key_is_index;	/* array: key = id; hashes: key = id + 1 */
const volatile bool value_per_cpu;	/* each CPU's copy holds id + 2 + cpu */

struct census census;

static long census_elem(struct bpf_map *map, __u32 *key, __u32 *value, struct census *c)
{
	__u32 id = key_is_index ? *key : *key - 1;
	__u32 want = id + 2;

	if (value_per_cpu)
		want += bpf_get_smp_processor_id();
	c->elems++;
	c->id_sum += id;
	if (id >= nr_elems || *value != want)
		c->bad++;
	return 0;
}

SEC("xdp")
int take_census(struct xdp_md *ctx)
{
	struct census c = {};

	bpf_for_each_map_elem(&batch_map, census_elem, &c, 0);
	census = c;
	return XDP_PASS;
}
