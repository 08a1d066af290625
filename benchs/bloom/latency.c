// SPDX-License-Identifier: GPL-2.0
/*
 * bloom: --latency, the per-op distribution timed inside the measured
 * programs (src/bench/hist_bpf.h; bloom.bpf.c times batches of BLOOM_HIST_BATCH).
 * The histogram's mean is set beside "latency", 1000 x producers / the
 * ops per second of the run (lookups or updates), as noop's: the gap
 * between the two is the trigger, the per-run counts and the harness.
 */
#include <errno.h>
#include <string.h>
#include "bench.h"
#include "common.h"
#include "bloom.skel.h"

/* The ops the program timed in each sample: the histogram holds them all. */
static const struct metric_def sampled_metric = { "sampled_ops", "ops", METRIC_COUNT };

static struct metric_def latency_metric(const struct bench_env *env)
{
	return (struct metric_def){ "latency", "ns/op", METRIC_INVERSE,
				    .base = bloom_variant_of(env)->m_all_ops, .scale = 1000.0,
				    .per_producer = true };
}

void bloom_latency_validate(struct bench_env *env)
{
	const struct bloom_args *a = env->args;
	struct metric_def lat = latency_metric(env);

	if (!a->latency)
		return;
	bench_add_metric(env, &lat);
	bench_add_metric(env, &sampled_metric);
}

void bloom_latency_prepare(struct bloom_state *s)
{
	HIST_SKEL_EVERY(s->skel, s->a->latency ? s->a->latency_every : 0);
}

int bloom_latency_open(struct bench_env *env, struct bloom_state *s)
{
	if (!s->a->latency)
		return 0;
	s->m_sampled = bench_add_metric(env, &sampled_metric);
	return HIST_SKEL_OPEN(&s->hist, s->skel, env, "op", "latency");
}

void bloom_latency_sample(struct bench_env *env, double *vals)
{
	struct bloom_state *s = env->priv;
	hist_bpf_measure(&s->hist, env, &vals[s->m_sampled]);
}

void bloom_latency_close(struct bench_env *env, struct bloom_state *s)
{
	hist_bpf_close(&s->hist, env);
}
