// SPDX-License-Identifier: GPL-2.0
/*
 * bloom: the filter itself: lookups and updates per second, and the
 * false positive rate against theory.
 *
 * As in the kernel's bench, a hit is a lookup that found its value or an
 * update that succeeded, a drop a lookup that did not (a false negative:
 * it fails the run).  The false positive benchmark looks up absent values
 * in whole passes; the kernel's bench prints its false hits as a share of
 * every operation counted, a false hit counting twice (as a false hit and
 * as a drop), so that "Percentage" is f / (1 + f) of the rate f.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include "bench.h"
#include "common.h"

static const struct opt_def filter_opts[] = {
	OPT_NR_ENTRIES, OPT_NR_HASH_FUNCS, OPT_VALUE_SIZE, OPT_COUNT, OPT_LATENCY,
	{ NULL },
};

static const struct opt_def fp_opts[] = {
	OPT_NR_ENTRIES, OPT_NR_HASH_FUNCS, OPT_VALUE_SIZE,
	{ "nr_probes", 0, OPT_UINT, OPT_OFF(struct bloom_args, nr_probes), "1048576", 1,
	  NR_PROBES_MAX, NULL, "N", "distinct values known to be absent, looked up per pass" },
	OPT_COUNT,
	{ NULL },
};

/* vals[] of the periodic filter benchmarks, in the order of their tables. */
enum { F_HITS, F_DROPS, F_TOTAL, F_OPS, F_HIT_OPS, F_DROP_OPS };

#define FILTER_METRICS(total)							\
	{ "hits", "M ops/s", METRIC_RATE },					\
	{ "drops", "M ops/s", METRIC_RATE, .better = BETTER_LOWER },		\
	{ total, "M ops/s", METRIC_RATE },					\
	{ "ops", "ops", METRIC_COUNT },						\
	{ "hit_ops", "ops", METRIC_COUNT },					\
	{ "drop_ops", "ops", METRIC_COUNT }

static const struct metric_def lookup_metrics[] = { FILTER_METRICS("lookups") };
static const struct metric_def update_metrics[] = { FILTER_METRICS("updates") };

enum { FP_RATE, FP_THEORY, FP_LOOKUPS, FP_PERCENTAGE, FP_OPS, FP_FALSE_HITS };

static const struct metric_def fp_metrics[] = {
	{ "false_positive_rate", "%", METRIC_RATIO, .better = BETTER_LOWER },
	{ "theory", "%", METRIC_LEVEL, .better = BETTER_NONE },	/* the same every pass */
	{ "lookups", "M ops/s", METRIC_RATE },	/* of absent values, one pass */
	{ "percentage", "%", METRIC_RATIO, .better = BETTER_LOWER },	/* the kernel bench's */
	{ "ops", "ops", METRIC_COUNT },
	{ "false_hits", "ops", METRIC_COUNT },
};

/* ---- theory ---- */

/*
 * The bitmap the kernel allocates (kernel/bpf/bloom_filter.c): n * k bits
 * times 7/5 (about 1/ln 2, the size that minimises false positives for k),
 * computed in u32 as (n * k / 5) * 7, at least 64 bits, rounded up to a
 * power of two; 2^32 bits when that overflows or exceeds 2^31.
 */
static uint64_t kernel_bitmap_bits(uint64_t n, uint64_t k)
{
	uint64_t bits = n * k;

	if (bits > UINT32_MAX)
		return 1ull << 32;
	bits = bits / 5 * 7;
	if (bits > UINT32_MAX || bits > (1ull << 31))
		return 1ull << 32;
	if (bits <= 64)
		return 64;
	return 1ull << (64 - __builtin_clzll(bits - 1));
}

/* (1 - e^(-kn/m))^k: the classic estimate, k independent uniform bits per value. */
static double theory_fpr(uint64_t n, uint64_t k, uint64_t m)
{
	return pow(1.0 - exp(-(double)k * n / m), k);
}

static double theory_pct(const struct bloom_args *a)
{
	uint64_t m = kernel_bitmap_bits(a->nr_entries, a->nr_hash_funcs);

	return 100 * theory_fpr(a->nr_entries, a->nr_hash_funcs, m);
}

/* ---- measuring ---- */

static void filter_measure(struct bench_env *env, uint64_t elapsed_ns, double *vals)
{
	const struct bloom_variant *v = bloom_variant_of(env);
	struct bloom_tally d;

	bloom_period(env, &d);
	if (v->op == BLOOM_OP_PEEK && d.drops)
		bench_fail(env, -EIO, "%" PRIu64 " false negatives: inserted values not found",
			   d.drops);
	vals[F_HITS] = mops(d.hits, elapsed_ns);
	vals[F_DROPS] = mops(d.drops, elapsed_ns);
	vals[F_TOTAL] = mops(d.done, elapsed_ns);
	vals[F_OPS] = d.done;
	vals[F_HIT_OPS] = d.hits;
	vals[F_DROP_OPS] = d.drops;
	bloom_latency_sample(env, vals);
}

/* One sample: a pass over fresh probes, each looked up once. */
static int fp_run_once(struct bench_env *env, double *vals)
{
	struct bloom_state *s = env->priv;
	struct bloom_tally c;
	uint64_t t0;
	int err;

	s->pass++;
	err = bloom_write_probes(s);
	if (err)
		return err;
	t0 = now_ns();
	err = bloom_walk(s, BLOOM_OP_PEEK, s->win_base, s->win_len, 0, s->probes, &c);
	if (err)
		return err;
	if (c.errors || c.done != s->probes) {
		bench_fail(env, -EIO, "%" PRIu64 " of %u lookups failed", c.errors, s->probes);
		return -EIO;
	}
	/* a hit here is an absent value the filter took for present */
	vals[FP_RATE] = 100.0 * c.hits / c.done;
	vals[FP_THEORY] = theory_pct(s->a);
	vals[FP_LOOKUPS] = mops(c.done, now_ns() - t0);
	vals[FP_PERCENTAGE] = 100.0 * c.hits / (c.done + c.hits);
	vals[FP_OPS] = c.done;
	vals[FP_FALSE_HITS] = c.hits;
	bench_note(env, "theory %.3f %% is a %" PRIu64 "-bit bitmap's (the kernel's size for "
		   "%llu entries and %llu hash functions)", theory_pct(s->a),
		   kernel_bitmap_bits(s->a->nr_entries, s->a->nr_hash_funcs),
		   (unsigned long long)s->a->nr_entries, (unsigned long long)s->a->nr_hash_funcs);
	return 0;
}

static const struct bloom_variant lookup_variant = {
	BLOOM_OP_PEEK, .bloom = true, .m_all_ops = F_TOTAL,
};
static const struct bloom_variant update_variant = {
	BLOOM_OP_PUSH, .bloom = true, .m_all_ops = F_TOTAL,
};
static const struct bloom_variant fp_variant = { BLOOM_OP_PEEK, .bloom = true, .probes = true };

/* What the three filter benchmarks share; each adds how it measures and reports. */
#define FILTER_BENCH(_name, _summary, _variant, _opts, _metrics, _flags)	\
	.name = _name,								\
	.summary = _summary,							\
	.family = "bloom",							\
	.opts = _opts,								\
	.args_size = sizeof(struct bloom_args),					\
	.variant = &_variant,							\
	.requires = bloom_requires,						\
	.metrics = _metrics,							\
	.nr_metrics = ARRAY_SIZE(_metrics),					\
	.flags = _flags,							\
	.validate = bloom_validate,						\
	.setup = bloom_setup,							\
	.teardown = bloom_teardown

const struct bench bench_bloom_lookup = {
	FILTER_BENCH("bloom-lookup", "bloom filter lookups of inserted values", lookup_variant,
		     filter_opts, lookup_metrics, 0),
	.measure = filter_measure,
	.report = { REPORT_HITS_DROPS, .total = "lookups" },
};

const struct bench bench_bloom_update = {
	FILTER_BENCH("bloom-update", "bloom filter updates (pushes)", update_variant,
		     filter_opts, update_metrics, 0),
	.measure = filter_measure,
	.report = { REPORT_HITS_DROPS, .total = "updates" },
};

const struct bench bench_bloom_false_positive = {
	FILTER_BENCH("bloom-false-positive", "bloom filter false positive rate against theory",
		     fp_variant, fp_opts, fp_metrics,
		     BENCH_F_ONESHOT | BENCH_F_NO_THREADS | BENCH_F_NO_TRIGGER),
	.run_once = fp_run_once,
	.report = { REPORT_PERCENT, .part = "false_hits", .rest = "ops" },
};

/* ---- the suite: the seed's table ---- */

#define BLOOM_ARGS(k, n, vs) \
	" --nr_entries " #n " --nr_hash_funcs " #k " --value_size " #vs

/* Lookups, updates and the false positive rate of one row of the seed's table. */
#define BLOOM_ROW(hdr, k, label, n, vs)						\
	{ hdr, label ", " #vs "-byte value: lookups",				\
	  "bloom-lookup" BLOOM_ARGS(k, n, vs) },			\
	{ NULL, label ", " #vs "-byte value: updates",				\
	  "bloom-update" BLOOM_ARGS(k, n, vs) },			\
	{ NULL, label ", " #vs "-byte value: false positive rate",		\
	  "bloom-false-positive" BLOOM_ARGS(k, n, vs) }

#define BLOOM_SIZES(hdr, k)							\
	BLOOM_ROW(hdr, k, "50k entries", 50000, 8),				\
	BLOOM_ROW(NULL, k, "50k entries", 50000, 64),				\
	BLOOM_ROW(NULL, k, "100k entries", 100000, 8),				\
	BLOOM_ROW(NULL, k, "100k entries", 100000, 64),				\
	BLOOM_ROW(NULL, k, "500k entries", 500000, 8),				\
	BLOOM_ROW(NULL, k, "500k entries", 500000, 64),				\
	BLOOM_ROW(NULL, k, "1 mil entries", 1000000, 8),			\
	BLOOM_ROW(NULL, k, "1 mil entries", 1000000, 64),			\
	BLOOM_ROW(NULL, k, "2.5 mil entries", 2500000, 8),			\
	BLOOM_ROW(NULL, k, "2.5 mil entries", 2500000, 64),			\
	BLOOM_ROW(NULL, k, "5 mil entries", 5000000, 8),			\
	BLOOM_ROW(NULL, k, "5 mil entries", 5000000, 64)

static const struct suite_step bloom_steps[] = {
	BLOOM_SIZES("1 hash function", 1),
	BLOOM_SIZES("2 hash functions", 2),
	BLOOM_SIZES("3 hash functions", 3),
	BLOOM_SIZES("4 hash functions", 4),
	BLOOM_SIZES("5 hash functions", 5),
	{ NULL },
};

const struct suite suite_bloom = {
	.name = "bloom",
	.seed = true,
	.summary = "bloom filter lookups, updates, false positives: 1-5 hash functions x "
		   "50k-5M entries x 8/64-byte values",
	.steps = bloom_steps,
};
