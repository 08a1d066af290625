// SPDX-License-Identifier: GPL-2.0
/*
 * noop: the per-op cost of the harness itself, for each trigger.  Every
 * other figure reads against it: an op that costs about the floor is
 * mostly harness.  --latency also times the empty ops inside the
 * program (src/bench/hist_bpf.h): their distribution beside the throughput's ns
 * per op shows how much of the floor lies outside the program.
 */
#include <errno.h>
#include <stdlib.h>
#include "bench.h"
#include "noop.skel.h"

#define NOOP_BATCH_MAX	4096

struct noop_args {
	uint64_t batch;
	bool latency;
	uint64_t latency_every;
};

static const struct opt_def noop_opts[] = {
	{ "batch", 0, OPT_UINT, OPT_OFF(struct noop_args, batch), "1", 1, NOOP_BATCH_MAX, NULL, "N",
	  "empty ops per program run (1: the floor per program run)", OPT_F_DEFINES },
	{ "latency", 0, OPT_FLAG, OPT_OFF(struct noop_args, latency), NULL, 0, 0, NULL, NULL,
	  "also time the empty ops inside the program: per-op distribution (Latency line)" },
	{ "latency-every", 0, OPT_UINT, OPT_OFF(struct noop_args, latency_every), HIST_EVERY_STR,
	  1, 1u << 20, NULL, "N", "--latency times one program run in N on each CPU" },
	{ NULL },
};

static const struct metric_def noop_metrics[] = {
	{ "throughput", "M ops/s", METRIC_RATE, .prod_unit = "M ops" },
	{ "latency", "ns/op", METRIC_INVERSE, .base = 0, .scale = 1000.0, .per_producer = true },
};

struct noop_state {
	struct noop_bpf *skel;
	struct delta hits;
	struct hist_bpf hist;
	int m_sampled;
};

static int noop_validate(struct bench_env *env)
{
	const struct noop_args *a = env->args;

	if (a->latency)
		bench_add_metric(env, &bench_sampled_metric);
	return 0;
}

static int noop_setup(struct bench_env *env)
{
	const struct noop_args *a = env->args;
	struct noop_state *s = calloc(1, sizeof(*s));

	if (!s)
		return -ENOMEM;
	env->priv = s;
	s->skel = noop_bpf__open();
	if (!s->skel)
		return -errno;
	s->skel->rodata->batch = a->batch;
	return bench_skel_setup(env, BENCH_SKEL(s->skel, noop),
				a->latency ? a->latency_every : 0, &s->hist, &s->m_sampled);
}

static void noop_measure(struct bench_env *env, uint64_t elapsed_ns, double *vals)
{
	struct noop_state *s = env->priv;

	vals[0] = mops(delta_next(&s->hits, slots_sum(s->skel->bss->bench_slots, SLOT_HITS)),
		       elapsed_ns);
	hist_bpf_measure(&s->hist, env, &vals[s->m_sampled]);
}

static void noop_teardown(struct bench_env *env)
{
	struct noop_state *s = env->priv;

	if (s)
		BENCH_SKEL_TEARDOWN(env, &s->hist, s->skel);
}

const struct bench bench_noop = {
	.name = "noop",
	.summary = "harness floor: an empty program run through the trigger",
	.family = "noop",
	.opts = noop_opts,
	.args_size = sizeof(struct noop_args),
	.metrics = noop_metrics,
	.nr_metrics = ARRAY_SIZE(noop_metrics),
	.validate = noop_validate,
	.setup = noop_setup,
	.measure = noop_measure,
	.teardown = noop_teardown,
};

const struct family family_noop = {
	.name = "noop",
	.summary = "the harness floor per trigger",
	.benchs = (const struct bench *const []){
		&bench_noop,
		NULL,
	},
};
