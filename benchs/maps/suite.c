// SPDX-License-Identifier: GPL-2.0
/*
 * The maps suite: the matrix (one row per map type, a column per op) at
 * the default workload, then sweeps of key size, fullness and producers.
 */
#include "mp.h"

#define M	"map-ops -w1 -d3 --map_type "

static const struct suite_step maps_steps[] = {
	{ "matrix: ns/op, 4-byte keys, 8-byte values, 10000 entries, 100% hits", "hash",
	  M "hash" },
	{ NULL, "hash, no prealloc", M "hash --no_prealloc" },
	{ NULL, "percpu_hash", M "percpu_hash" },
	{ NULL, "percpu_hash, no prealloc", M "percpu_hash --no_prealloc" },
	{ NULL, "lru_hash", M "lru_hash" },
	{ NULL, "lru_hash_no_common", M "lru_hash_no_common" },
	{ NULL, "lru_percpu_hash", M "lru_percpu_hash" },
	{ NULL, "lru_percpu_hash_no_common", M "lru_percpu_hash_no_common" },
	{ NULL, "array", M "array" },
	{ NULL, "percpu_array", M "percpu_array" },
	{ NULL, "lpm_trie", M "lpm_trie" },
	{ NULL, "queue", M "queue" },
	{ NULL, "stack", M "stack" },
	{ "hash: key size", "key_size 4", M "hash --key_size 4" },
	{ NULL, "key_size 8", M "hash --key_size 8" },
	{ NULL, "key_size 16", M "hash --key_size 16" },
	{ NULL, "key_size 32", M "hash --key_size 32" },
	{ NULL, "key_size 64", M "hash --key_size 64" },
	{ NULL, "key_size 128", M "hash --key_size 128" },
	{ NULL, "key_size 256", M "hash --key_size 256" },
	{ "hash: fullness", "fill 10", M "hash --fill 10" },
	{ NULL, "fill 25", M "hash --fill 25" },
	{ NULL, "fill 50", M "hash --fill 50" },
	{ NULL, "fill 75", M "hash --fill 75" },
	{ NULL, "fill 90", M "hash --fill 90" },
	{ NULL, "fill 100", M "hash --fill 100" },
	{ "producers (pinned, -a): shared vs per-CPU maps", "hash -p1", "-a -p1 " M "hash" },
	{ NULL, "hash -p2", "-a -p2 " M "hash" },
	{ NULL, "percpu_hash -p1", "-a -p1 " M "percpu_hash" },
	{ NULL, "percpu_hash -p2", "-a -p2 " M "percpu_hash" },
	{ NULL, "lru_hash -p1", "-a -p1 " M "lru_hash" },
	{ NULL, "lru_hash -p2", "-a -p2 " M "lru_hash" },
	{ NULL, "lru_hash_no_common -p1", "-a -p1 " M "lru_hash_no_common" },
	{ NULL, "lru_hash_no_common -p2", "-a -p2 " M "lru_hash_no_common" },
	{ NULL, "array -p1", "-a -p1 " M "array" },
	{ NULL, "array -p2", "-a -p2 " M "array" },
	{ NULL },
};

#define Q	"map-ops -w0 -d0.1 --map_type "

/* The quick look: the matrix, a short sample of each type but hash (quick runs map-ops). */
static const struct suite_step maps_quick[] = {
	{ "maps: the matrix, ns/op (hash: the map-ops row above)", "percpu_hash",
	  Q "percpu_hash" },
	{ NULL, "lru_hash", Q "lru_hash" },
	{ NULL, "lru_hash_no_common", Q "lru_hash_no_common" },
	{ NULL, "lru_percpu_hash", Q "lru_percpu_hash" },
	{ NULL, "lru_percpu_hash_no_common", Q "lru_percpu_hash_no_common" },
	{ NULL, "array", Q "array" },
	{ NULL, "percpu_array", Q "percpu_array" },
	{ NULL, "lpm_trie", Q "lpm_trie" },
	{ NULL, "queue", Q "queue" },
	{ NULL, "stack", Q "stack" },
	{ NULL },
};

const struct suite suite_maps = {
	.name = "maps",
	.summary = "every map type's lookup/update/delete ns/op; key size, fullness, producers",
	.steps = maps_steps,
	.quick = maps_quick,
};

extern const struct bench bench_map_lookup, bench_map_update, bench_map_delete;
extern const struct bench bench_map_push, bench_map_pop, bench_map_ops;

const struct family family_maps = {
	.name = "maps",
	.summary = "every map type's ops, timed inside the kernel",
	.benchs = (const struct bench *const []){
		&bench_map_lookup,
		&bench_map_update,
		&bench_map_delete,
		&bench_map_push,
		&bench_map_pop,
		&bench_map_ops,
		NULL,
	},
	.suites = (const struct suite *const []){ &suite_maps, NULL },
};
