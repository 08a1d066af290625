// SPDX-License-Identifier: GPL-2.0
/*
 * bloom: hash map lookups with and without a bloom filter in front.
 *
 * As in the kernel's bench, the keys are random bytes, value_size at a
 * time from a 2 MiB buffer, so almost all of them are absent (all but
 * about nr_entries / 2^(8 value_size) of them); --hit_percent plants
 * inserted values among them.  Also as there, a hit is a key the hash
 * map has or one the filter rejected, a drop a hash map miss: with the
 * filter, the drops are its false positives.  "found" and "filtered"
 * split the hits.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include "bench.h"
#include "common.h"
#include "bloom.skel.h"

static const struct opt_def hashmap_opts[] = {
	OPT_NR_ENTRIES, OPT_NR_HASH_FUNCS, OPT_VALUE_SIZE,
	{ "nr_probes", 0, OPT_UINT, OPT_OFF(struct bloom_args, nr_probes), "0", 0,
	  HASH_KEYS_SPAN / VALUE_SIZE_MIN, NULL, "N",
	  "distinct keys looked up in turn (0: as many as the kernel bench's 2 MiB of "
	  "random bytes hold)" },
	{ "hit_percent", 0, OPT_UINT, OPT_OFF(struct bloom_args, hit_percent), "0", 0, 100,
	  NULL, "P", "share of the keys that are inserted values (0: random keys only, "
	  "as the kernel bench's)" },
	OPT_COUNT, OPT_LATENCY,
	{ NULL },
};

enum { H_LOOKUPS, H_HITS, H_DROPS, H_FOUND, H_FILTERED,
       H_OPS, H_HIT_OPS, H_DROP_OPS, H_FILTERED_OPS };

/*
 * Lookups first: the figure the kernel's script reads (total operations),
 * and hits are 0 without the filter.  Drops and the split of hits follow
 * the keys, not the speed: no better direction.
 */
static const struct metric_def hashmap_metrics[] = {
	{ "lookups", "M ops/s", METRIC_RATE },
	{ "hits", "M ops/s", METRIC_RATE },
	{ "drops", "M ops/s", METRIC_RATE, .better = BETTER_NONE },
	{ "found", "M ops/s", METRIC_RATE, .better = BETTER_NONE },
	{ "filtered", "M ops/s", METRIC_RATE, .better = BETTER_NONE },
	{ "ops", "ops", METRIC_COUNT },
	{ "hit_ops", "ops", METRIC_COUNT },
	{ "drop_ops", "ops", METRIC_COUNT },
	{ "filtered_ops", "ops", METRIC_COUNT },
};

uint32_t hash_key_slots(const struct bloom_args *a)
{
	return a->nr_probes ? a->nr_probes : HASH_KEYS_SPAN / a->value_size;
}

static int hashmap_validate(const struct bench_env *env)
{
	const struct bloom_args *a = env->args;

	if (a->nr_probes * a->value_size > HASH_KEYS_SPAN) {
		errmsg("--nr_probes %" PRIu64 ": %" PRIu64 "-byte keys that many exceed the "
		       "%u bytes keys are cut from (at most %" PRIu64 ")", a->nr_probes,
		       a->value_size, HASH_KEYS_SPAN, HASH_KEYS_SPAN / a->value_size);
		return -EINVAL;
	}
	return 0;
}

static int random_bytes(uint8_t *p, size_t len)
{
	ssize_t got;

	while (len) {
		if (interrupted())
			return -EINTR;
		got = getrandom(p, len, 0);
		if (got < 0 && errno != EINTR)
			return -errno;
		if (got > 0) {
			p += got;
			len -= got;
		}
	}
	return 0;
}

/*
 * Slot j holds an inserted value where floor(j P / 100) steps: P in every
 * 100 slots, evenly, whatever the number of slots.
 */
int hash_keys_fill(struct bloom_state *s)
{
	uint8_t *keys = s->skel->bss->hash_keys;
	uint64_t vs = s->a->value_size, p = s->a->hit_percent, j, planted = 0;
	uint64_t end = (uint64_t)s->win_len * vs;
	int err = random_bytes(keys, end);

	if (err)
		return err;
	for (j = 0; p && j < s->win_len; j++) {
		if ((j + 1) * p / 100 == j * p / 100)
			continue;
		memcpy(keys + j * vs, bloom_value(s, planted % s->a->nr_entries), vs);
		planted++;
	}
	s->win_present = planted;
	return 0;
}

static void hashmap_measure(struct bench_env *env, uint64_t elapsed_ns, double *vals)
{
	struct bloom_tally d;

	bloom_period(env, &d);
	vals[H_HITS] = mops(d.hits, elapsed_ns);
	vals[H_DROPS] = mops(d.drops, elapsed_ns);
	vals[H_LOOKUPS] = mops(d.done, elapsed_ns);
	vals[H_FOUND] = mops(d.hits - d.filtered, elapsed_ns);
	vals[H_FILTERED] = mops(d.filtered, elapsed_ns);
	vals[H_OPS] = d.done;
	vals[H_HIT_OPS] = d.hits;
	vals[H_DROP_OPS] = d.drops;
	vals[H_FILTERED_OPS] = d.filtered;
	bloom_latency_sample(env, vals);
}

static const struct bloom_variant without_variant = {
	BLOOM_OP_HASH_LOOKUP, .hashmap = true, .m_all_ops = H_LOOKUPS, .validate = hashmap_validate,
};
static const struct bloom_variant with_variant = {
	BLOOM_OP_HASH_FILTERED, .bloom = true, .hashmap = true, .m_all_ops = H_LOOKUPS,
	.validate = hashmap_validate,
};

#define HASHMAP_BENCH(_name, _summary, _variant)				\
	{									\
		.name = _name,							\
		.summary = _summary,						\
		.family = "bloom",						\
		.opts = hashmap_opts,						\
		.args_size = sizeof(struct bloom_args),				\
		.variant = &_variant,						\
		.requires = bloom_requires,					\
		.metrics = hashmap_metrics,					\
		.nr_metrics = ARRAY_SIZE(hashmap_metrics),			\
		.validate = bloom_validate,					\
		.setup = bloom_setup,						\
		.measure = hashmap_measure,					\
		.report = { REPORT_HITS_DROPS, .total = "lookups", .row_total = true },	\
		.teardown = bloom_teardown,					\
	}

const struct bench bench_hashmap_without_bloom = HASHMAP_BENCH("hashmap-without-bloom",
	"hash map lookups (the baseline of hashmap-with-bloom)", without_variant);
const struct bench bench_hashmap_with_bloom = HASHMAP_BENCH("hashmap-with-bloom",
	"hash map lookups behind a bloom filter", with_variant);

/* ---- the suite: the seed's with/without comparison, 5 hash functions ---- */

#define HASHMAP_ARGS(n, vs) \
	" --nr_entries " #n " --nr_hash_funcs 5 --value_size " #vs

#define HASHMAP_ROW(hdr, label, n, vs)						\
	{ hdr, label ": without bloom",						\
	  "hashmap-without-bloom" HASHMAP_ARGS(n, vs) },		\
	{ NULL, label ": with bloom",						\
	  "hashmap-with-bloom" HASHMAP_ARGS(n, vs) }

#define HASHMAP_SIZES(hdr, vs)							\
	HASHMAP_ROW(hdr, "10k entries", 10000, vs),				\
	HASHMAP_ROW(NULL, "50k entries", 50000, vs),				\
	HASHMAP_ROW(NULL, "100k entries", 100000, vs),				\
	HASHMAP_ROW(NULL, "500k entries", 500000, vs),				\
	HASHMAP_ROW(NULL, "1 mil entries", 1000000, vs),			\
	HASHMAP_ROW(NULL, "5 mil entries", 5000000, vs)

static const struct suite_step bloom_hashmap_steps[] = {
	HASHMAP_SIZES("value_size = 4 bytes", 4),
	HASHMAP_SIZES("value_size = 8 bytes", 8),
	HASHMAP_SIZES("value_size = 16 bytes", 16),
	HASHMAP_SIZES("value_size = 40 bytes", 40),
	{ NULL },
};

const struct suite suite_bloom_hashmap = {
	.name = "bloom-hashmap",
	.seed = true,
	.summary = "hash map lookups with vs without a bloom filter (5 hash functions) by "
		   "value size and entries",
	.steps = bloom_hashmap_steps,
};
