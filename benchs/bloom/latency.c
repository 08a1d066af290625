// SPDX-License-Identifier: GPL-2.0
/*
 * bloom: --latency, the per-op distribution timed inside the measured
 * programs (src/bench/hist_bpf.h; bloom.bpf.c times batches of BLOOM_HIST_BATCH).
 * The histogram's mean is set beside "latency", 1000 x producers / the
 * ops per second of the run (lookups or updates), as noop's: the gap
 * between the two is the trigger, the per-run counts and the harness.
 */
#include "bench.h"
#include "common.h"

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
	bench_add_metric(env, &bench_sampled_metric);
}

void bloom_latency_sample(struct bench_env *env, double *vals)
{
	struct bloom_state *s = env->priv;
	hist_bpf_measure(&s->hist, env, &vals[s->m_sampled]);
}

