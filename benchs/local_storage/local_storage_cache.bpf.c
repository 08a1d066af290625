// SPDX-License-Identifier: GPL-2.0
/*
 * local-storage-cache-*: a program run makes LS_LOOPS gets through an
 * array of num_maps maps, in order (map index = loop index % num_maps):
 * bpf_task_storage_get(F_CREATE) on the current task of each task
 * storage map (seq-get; int-get adds a get of map 0 after every map
 * whose index is a multiple of 3), or, as the control, a lookup of a
 * random one of the first hashmap_num_keys keys of each hash map.
 *
 * The counts check what upstream leaves unchecked: a task storage found
 * zeroed was just created (first get of that map by this task) and is
 * marked with its map's index + 1, which every later get must find; a
 * hash map's value is its key.  One load and compare a get, against the
 * get's own list walk.
 *
 * Upstream runs it from fentry on getpgid; here from raw_tp/sys_enter
 * where fentry is refused (doc/differences.md), on our own getpgid().
 */
#include "bench_common.bpf.h"
#include "local_storage.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, LS_MAX_MAPS);
	__type(key, int);
	__type(value, int);
	__array(values, struct {
		__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
		__uint(map_flags, BPF_F_NO_PREALLOC);
		__type(key, int);
		__type(value, int);
	});
} array_of_local_storage_maps SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, LS_MAX_MAPS);
	__type(key, int);
	__type(value, int);
	__array(values, struct {
		__uint(type, BPF_MAP_TYPE_HASH);
		__uint(max_entries, LS_HASHMAP_SZ);
		__type(key, int);
		__type(value, int);
	});
} array_of_hash_maps SEC(".maps");

/* Set by user space before load. */
const volatile __u32 use_hashmap;
const volatile __u32 hashmap_num_keys = 1;
const volatile __u32 num_maps = 1;
const volatile __u32 interleave;

struct get_run {
	struct task_struct *task;
	__u64 hits, important, created, missed, wrong;
};

static __always_inline void get_one(__u32 elem, struct get_run *r)
{
	void *inner;
	int key, want, *v;

	if (use_hashmap) {
		inner = bpf_map_lookup_elem(&array_of_hash_maps, &elem);
		if (!inner)
			return;
		key = bpf_get_prandom_u32() % hashmap_num_keys;
		v = bpf_map_lookup_elem(inner, &key);
		want = key;
	} else {
		inner = bpf_map_lookup_elem(&array_of_local_storage_maps, &elem);
		if (!inner)
			return;
		v = bpf_task_storage_get(inner, r->task, NULL, BPF_LOCAL_STORAGE_GET_F_CREATE);
		want = elem + 1;
		if (v && !*v) {
			*v = want;
			r->created++;
		}
	}
	r->hits++;
	if (!elem)
		r->important++;
	if (!v)
		r->missed++;
	else if (*v != want)
		r->wrong++;
}

static long get_step(__u32 index, void *ctx)
{
	__u32 idx = index % num_maps;

	get_one(idx, ctx);
	if (interleave && idx % 3 == 0)
		get_one(0, ctx);
	return 0;
}

/*
 * Zero, unknown to the verifier: counters that start from it are scalars
 * of any value, so the loop's states converge (counters from a constant 0
 * stay exact, one state per iteration, and bpf_loop's callback is refused).
 */
__u64 ls_zero;

static __always_inline void cache_get(void)
{
	__u64 z = *(volatile __u64 *)&ls_zero;
	struct get_run r = {
		.task = bpf_get_current_task_btf(),
		.hits = z, .important = z, .created = z, .missed = z, .wrong = z,
	};
	struct bench_slot *slot = bench_my_slot();

	bpf_loop(LS_LOOPS, get_step, &r, 0);
	__sync_fetch_and_add(&slot->hits, r.hits);
	__sync_fetch_and_add(&slot->extra[LS_SLOT_IMPORTANT], r.important);
	if (r.created)
		__sync_fetch_and_add(&slot->extra[LS_SLOT_CREATED], r.created);
	if (r.missed)
		__sync_fetch_and_add(&slot->extra[LS_SLOT_MISSED], r.missed);
	if (r.wrong)
		__sync_fetch_and_add(&slot->extra[LS_SLOT_WRONG], r.wrong);
}

/* No tc entry: a tc program has no current task storage to get. */
SEC("raw_tp/sys_enter")
int cache_get_raw_tp(struct bpf_raw_tracepoint_args *ctx)
{
	if (bench_is_our_syscall(ctx))
		cache_get();
	return 0;
}

SEC("fentry")
int cache_get_fentry(void *ctx)
{
	if (bench_is_us())
		cache_get();
	return 0;
}
