// SPDX-License-Identifier: GPL-2.0
/*
 * count-global, count-local: the harness's own ceiling, as the kernel
 * bench has it: producers doing nothing but an atomic increment, of one
 * shared counter (global: the cache line bounces) or of their own
 * (local).  No BPF: a figure to read the others against, not of BPF.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"

struct count_slot {
	_Atomic uint64_t n;
} __attribute__((aligned(64)));

struct count_state {
	struct count_slot *slots;	/* global: slot 0 for all; local: one per producer */
	int nr;
	struct delta hits;
};

enum { M_HITS, M_DROPS, M_HITS_N };

static const struct metric_def count_metrics[] = {
	[M_HITS] = { "hits", "M ops/s", METRIC_RATE, .prod_unit = "M" },
	[M_DROPS] = { "drops", "M ops/s", METRIC_RATE, .better = BETTER_LOWER },
	[M_HITS_N] = { "hits_count", "increments", METRIC_COUNT },
};

static int count_setup(struct bench_env *env)
{
	struct count_state *s = calloc(1, sizeof(*s));

	if (!s)
		return -ENOMEM;
	env->priv = s;
	s->nr = env->nr_producers;
	/* calloc() aligns to 16 bytes, not the 64 a slot alone on its line needs */
	if (posix_memalign((void **)&s->slots, 64, s->nr * sizeof(*s->slots)))
		return -ENOMEM;
	memset(s->slots, 0, s->nr * sizeof(*s->slots));
	return 0;
}

static void count_producer(struct bench_env *env, int idx)
{
	struct count_state *s = env->priv;
	bool local = env->bench->variant != NULL;
	_Atomic uint64_t *n = &s->slots[local ? idx : 0].n;

	while (!bench_stopping(env))
		atomic_fetch_add_explicit(n, 1, memory_order_relaxed);
}

static void count_measure(struct bench_env *env, uint64_t elapsed_ns, double *vals)
{
	struct count_state *s = env->priv;
	uint64_t total = 0, n;
	int i;

	for (i = 0; i < s->nr; i++)
		total += atomic_load_explicit(&s->slots[i].n, memory_order_relaxed);
	n = delta_next(&s->hits, total);
	vals[M_HITS] = mops(n, elapsed_ns);
	vals[M_DROPS] = 0;
	vals[M_HITS_N] = n;
}

static void count_teardown(struct bench_env *env)
{
	struct count_state *s = env->priv;

	if (!s)
		return;
	free(s->slots);
	free(s);
	env->priv = NULL;
}

#define COUNT_BENCH(id, local, sum)							\
	static const struct bench bench_count_##id = {					\
		.name = "count-" #id,							\
		.summary = sum,								\
		.family = "count",							\
		.variant = local ? "local" : NULL,					\
		.metrics = count_metrics,						\
		.nr_metrics = ARRAY_SIZE(count_metrics),				\
		.flags = BENCH_F_NO_TRIGGER | BENCH_F_NO_BPF,				\
		.setup = count_setup,							\
		.producer = count_producer,						\
		.measure = count_measure,						\
		.teardown = count_teardown,						\
		.report = { REPORT_HITS_DROPS },					\
	};
COUNT_BENCH(global, false, "harness ceiling: one shared atomic counter, no BPF")
COUNT_BENCH(local, true, "harness ceiling: an atomic counter per producer, no BPF")

const struct family family_count = {
	.name = "count",
	.summary = "the harness's own ceiling: atomic increments, no BPF (the kernel bench's count-*)",
	.benchs = (const struct bench *const []){ &bench_count_global, &bench_count_local, NULL },
};
