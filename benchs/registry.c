// SPDX-License-Identifier: GPL-2.0
/* The table of benchmarks: adding one is a folder benchs/FAMILY/ and its lines here. */
#include <string.h>
#include "bench.h"

extern const struct bench bench_noop;
extern const struct bench bench_bpf_loop;
extern const struct suite suite_bpf_loop;
extern const struct bench bench_bpf_for;
extern const struct suite suite_bpf_for;
extern const struct bench bench_bloom_lookup;
extern const struct bench bench_bloom_update;
extern const struct bench bench_bloom_false_positive;
extern const struct bench bench_hashmap_without_bloom;
extern const struct bench bench_hashmap_with_bloom;
extern const struct suite suite_bloom;
extern const struct suite suite_bloom_hashmap;
extern const struct bench bench_lpm_trie_noop;
extern const struct bench bench_lpm_trie_baseline;
extern const struct bench bench_lpm_trie_lookup;
extern const struct bench bench_lpm_trie_insert;
extern const struct bench bench_lpm_trie_update;
extern const struct bench bench_lpm_trie_delete;
extern const struct bench bench_lpm_trie_free;
extern const struct suite suite_lpm_trie;
extern const struct bench bench_map_batch;
extern const struct suite suite_map_batch;
extern const struct bench bench_htab_mem;
extern const struct suite suite_htab_mem;
extern const struct bench bench_rb_libbpf;
extern const struct bench bench_rb_custom;
extern const struct bench bench_pb_libbpf;
extern const struct bench bench_pb_custom;
extern const struct suite suite_ringbufs;
extern const struct bench bench_map_lookup;
extern const struct bench bench_map_update;
extern const struct bench bench_map_delete;
extern const struct bench bench_map_push;
extern const struct bench bench_map_pop;
extern const struct bench bench_map_ops;
extern const struct suite suite_maps;

const struct bench *const bench_table[] = {
	&bench_noop,
	&bench_bpf_loop,
	&bench_bpf_for,
	&bench_bloom_lookup,
	&bench_bloom_update,
	&bench_bloom_false_positive,
	&bench_hashmap_without_bloom,
	&bench_hashmap_with_bloom,
	&bench_lpm_trie_noop,
	&bench_lpm_trie_baseline,
	&bench_lpm_trie_lookup,
	&bench_lpm_trie_insert,
	&bench_lpm_trie_update,
	&bench_lpm_trie_delete,
	&bench_lpm_trie_free,
	&bench_map_batch,
	&bench_htab_mem,
	&bench_rb_libbpf,
	&bench_rb_custom,
	&bench_pb_libbpf,
	&bench_pb_custom,
	&bench_map_lookup,
	&bench_map_update,
	&bench_map_delete,
	&bench_map_push,
	&bench_map_pop,
	&bench_map_ops,
	NULL,
};

const struct suite *const suite_table[] = {
	&suite_bpf_loop,
	&suite_bpf_for,
	&suite_bloom,
	&suite_bloom_hashmap,
	&suite_lpm_trie,
	&suite_map_batch,
	&suite_htab_mem,
	&suite_ringbufs,
	&suite_maps,
	NULL,
};

