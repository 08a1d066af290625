/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The bloom family's user side: what bloom.c (maps, values, jobs,
 * counters) shares with filter.c (bloom-lookup, bloom-update,
 * bloom-false-positive) and hashmap.c (hashmap-with/without-bloom).
 */
#ifndef BPFBENCH_BLOOM_COMMON_H
#define BPFBENCH_BLOOM_COMMON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "bench.h"
#include "bloom.h"

#define NR_ENTRIES_MAX	(1u << 27)	/* values and probes must index a u32 array */
#define NR_PROBES_MAX	(1u << 24)
#define VALUE_SIZE_MIN	2		/* the kernel bench's range */
#define HASH_FUNCS_MAX	15		/* the 4 bits of map_extra the kernel reads */

/* Every option of the family; each benchmark's table names the ones it takes. */
struct bloom_args {
	uint64_t nr_entries;
	uint64_t nr_hash_funcs;
	uint64_t value_size;
	uint64_t nr_probes;	/* false positives: absent values per pass; hash maps: key slots */
	uint64_t hit_percent;
	uint64_t count;
	bool latency;
	uint64_t latency_every;
};

#define OPT_NR_ENTRIES								\
	{ "nr_entries", 0, OPT_UINT, OPT_OFF(struct bloom_args, nr_entries), "1000", 1,	\
	  NR_ENTRIES_MAX, NULL, "N", "values inserted (the maps' max_entries)" }
#define OPT_NR_HASH_FUNCS							\
	{ "nr_hash_funcs", 0, OPT_UINT, OPT_OFF(struct bloom_args, nr_hash_funcs), "3", 1,	\
	  HASH_FUNCS_MAX, NULL, "K", "hash functions of the bloom filter (map_extra)" }
#define OPT_VALUE_SIZE								\
	{ "value_size", 0, OPT_UINT, OPT_OFF(struct bloom_args, value_size), "8",		\
	  VALUE_SIZE_MIN, BLOOM_VALUE_MAX, NULL, "B",					\
	  "bytes per value (the filter's value, the hash map's key and value)",	\
	  OPT_F_DEFINES }
#define OPT_COUNT								\
	{ "count", 0, OPT_UINT, OPT_OFF(struct bloom_args, count), "0", 0, UINT32_MAX,	\
	  NULL, "N", "test aid: before measuring, run exactly N operations from the start "	\
	  "of the window on one CPU and print their exact counts ('Counts:' line)", OPT_F_HIDDEN }

/* --latency: one batch of BLOOM_HIST_BATCH ops in N timed per CPU, as lpm-trie's batches of 16. */
#define BLOOM_HIST_EVERY_STR	"64"
#define OPT_LATENCY								\
	{ "latency", 0, OPT_FLAG, OPT_OFF(struct bloom_args, latency), NULL, 0, 0, NULL, NULL,	\
	  "also time the ops inside the program in batches of 16: per-op distribution "	\
	  "(Latency line)" },								\
	{ "latency-every", 0, OPT_UINT, OPT_OFF(struct bloom_args, latency_every),		\
	  BLOOM_HIST_EVERY_STR, 1, 1u << 20, NULL, "N",					\
	  "--latency times one batch in N on each CPU" }

/* What tells one benchmark of the family from the others (bench->variant). */
struct bloom_variant {
	enum bloom_op op;
	bool bloom;		/* fills the filter */
	bool hashmap;		/* fills the hash map, looks up keys of hash_keys */
	bool probes;		/* needs values known to be absent */
	int m_all_ops;		/* the metric of every op per second: --latency's "latency" inverts it */
	/* Checks this benchmark's own options; NULL: none. */
	int (*validate)(const struct bench_env *env);
};

/* Counts of a walk, or of the measured programs over a period. */
struct bloom_tally {
	uint64_t done, hits, drops, filtered, errors;
};

struct bloom_bpf;

struct bloom_state {
	struct bloom_bpf *skel;
	const struct bloom_variant *v;
	const struct bloom_args *a;
	uint8_t *values;	/* the mmap'ed array */
	size_t values_len;
	uint32_t stride;	/* the kernel's element size: value_size rounded up to 8 */
	uint32_t probes;	/* absent values after the inserted ones */
	uint32_t id_bits;	/* values are permutations of ids of this many bits */
	uint64_t key;		/* this run's permutation */
	uint32_t win_base, win_len, win_present;	/* hash maps: key slots, planted ones */
	uint64_t pass;		/* false-positive passes: each writes fresh probes */
	int job_fd;
	struct bloom_tally last;	/* the measured programs' totals at the last sample */
	struct hist_bpf hist;		/* --latency */
	int m_sampled;
};

static inline const struct bloom_variant *bloom_variant_of(const struct bench_env *env)
{
	return env->bench->variant;
}

/* bloom.c: the operations every benchmark of the family shares. */
int bloom_validate(struct bench_env *env);
int bloom_setup(struct bench_env *env);
void bloom_teardown(struct bench_env *env);
extern const enum probe_id bloom_requires[];

/* Distinct values a value_size offers; 0 means more than any count here. */
uint64_t bloom_value_space(uint64_t size);
/* Writes probe values [nr_entries, nr_entries + probes) for pass s->pass. */
int bloom_write_probes(struct bloom_state *s);
/* `n` operations over a window from `pos`, in syscall-sized jobs; counts in *c. */
int bloom_walk(struct bloom_state *s, enum bloom_op op, uint32_t base, uint32_t len,
	       uint32_t pos, uint64_t n, struct bloom_tally *c);
/*
 * The measured programs' counts since the last call (since setup at the
 * first); fails the run on helper errors.  All of a run's counts or none.
 */
void bloom_period(struct bench_env *env, struct bloom_tally *d);
/* The first value_size bytes of inserted value i (i < nr_entries). */
const uint8_t *bloom_value(const struct bloom_state *s, uint64_t i);

/*
 * latency.c: --latency.  validate adds its metrics; sample reads the
 * histogram in measure().  The histogram itself is bench_skel_load()'s
 * (bloom.c) and BENCH_SKEL_TEARDOWN's.
 */
void bloom_latency_validate(struct bench_env *env);
void bloom_latency_sample(struct bench_env *env, double *vals);

/* hashmap.c: the key slots, random bytes with --hit_percent of them inserted values. */
int hash_keys_fill(struct bloom_state *s);
uint32_t hash_key_slots(const struct bloom_args *a);


#endif
