// SPDX-License-Identifier: GPL-2.0
/*
 * bpf-loop: throughput and latency of bpf_loop() iterations (seed 003).
 * --latency also times sampled runs' calls inside the program: the
 * distribution of ns per iteration beside latency (src/bench/hist_bpf.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"
#include "bpf_loop.h"
#include "bpf_loop.skel.h"

#define BPF_LOOP_MAX	(1u << 23)	/* the kernel's BPF_MAX_LOOPS */
/*
 * --latency times every run by default, not one in HIST_EVERY as noop:
 * a run is 1000 calls (or a million iterations), so the two clock reads
 * and the recording cost about 1% of one at nr_loops 1, less beyond,
 * while one run in 1024 would be one a second at nr_loops 1000.
 */
#define LOOP_HIST_EVERY_STR	"1"

struct bpf_loop_args {
	uint64_t nr_loops;
	bool latency;
	uint64_t latency_every;
};

static const struct opt_def bpf_loop_opts[] = {
	{ "nr_loops", 0, OPT_UINT, OPT_OFF(struct bpf_loop_args, nr_loops), "10", 1, BPF_LOOP_MAX, NULL, "N",
	  "iterations per bpf_loop() call" },
	{ "latency", 0, OPT_FLAG, OPT_OFF(struct bpf_loop_args, latency), NULL, 0, 0, NULL, NULL,
	  "also time the calls of sampled runs inside the program: per-iteration distribution "
	  "(Latency line)" },
	{ "latency-every", 0, OPT_UINT, OPT_OFF(struct bpf_loop_args, latency_every),
	  LOOP_HIST_EVERY_STR, 1, 1u << 20, NULL, "N",
	  "--latency times one program run in N on each CPU" },
	{ NULL },
};

static const struct metric_def loop_metrics[] = {
	{ "throughput", "M ops/s", METRIC_RATE, .prod_unit = "M ops" },
	{ "latency", "ns/op", METRIC_INVERSE, .base = 0, .scale = 1000.0, .per_producer = true },
	/* the period's raw counts: throughput is ops over the period */
	{ "ops", "ops", METRIC_COUNT },
	{ "runs", "runs", METRIC_COUNT },
};

static const enum probe_id bpf_loop_requires[] = { PROBE_HELPER_BPF_LOOP, PROBE__COUNT };

struct bpf_loop_state {
	struct bpf_loop_bpf *skel;
	struct delta hits, runs;
	struct hist_bpf hist;
	int m_sampled;
};

static int bpf_loop_validate(struct bench_env *env)
{
	const struct bpf_loop_args *a = env->args;

	if (a->latency)
		bench_add_metric(env, &bench_sampled_metric);
	return 0;
}

static int bpf_loop_setup(struct bench_env *env)
{
	const struct bpf_loop_args *a = env->args;
	struct bpf_loop_state *s = calloc(1, sizeof(*s));

	if (!s)
		return -ENOMEM;
	env->priv = s;
	s->skel = bpf_loop_bpf__open();
	if (!s->skel)
		return -errno;
	s->skel->rodata->nr_loops = a->nr_loops;
	return bench_skel_setup(env, BENCH_SKEL(s->skel, bpf_loop),
				a->latency ? a->latency_every : 0, &s->hist, &s->m_sampled);
}

static void bpf_loop_measure(struct bench_env *env, uint64_t elapsed_ns, double *vals)
{
	struct bpf_loop_state *s = env->priv;
	const struct bench_slot *slot = s->skel->bss->bench_slots;
	uint64_t ops = delta_next(&s->hits, slots_sum(slot, SLOT_HITS)), runs = 0;
	int i;

	for (i = 0; i < BENCH_NR_SLOTS; i++)
		runs += slot[i].extra[BPF_LOOP_SLOT_RUNS];
	vals[0] = mops(ops, elapsed_ns);
	vals[2] = ops;
	vals[3] = delta_next(&s->runs, runs);
	hist_bpf_measure(&s->hist, env, &vals[s->m_sampled]);
}

static void bpf_loop_teardown(struct bench_env *env)
{
	struct bpf_loop_state *s = env->priv;

	if (s)
		BENCH_SKEL_TEARDOWN(env, &s->hist, s->skel);
}

const struct bench bench_bpf_loop = {
	.name = "bpf-loop",
	.summary = "bpf_loop() helper: iterations per second and ns per iteration",
	.family = "bpf-loop",
	.opts = bpf_loop_opts,
	.args_size = sizeof(struct bpf_loop_args),
	.requires = bpf_loop_requires,
	.metrics = loop_metrics,
	.nr_metrics = ARRAY_SIZE(loop_metrics),
	.validate = bpf_loop_validate,
	.setup = bpf_loop_setup,
	.measure = bpf_loop_measure,
	.teardown = bpf_loop_teardown,
};

/* run_bench_bpf_loop.sh's sweep */
static const struct suite_step bpf_loop_steps[] = {
	{ "bpf_loop, nr_loops sweep", "nr_loops 1", "bpf-loop --nr_loops 1" },
	{ NULL, "nr_loops 10", "bpf-loop --nr_loops 10" },
	{ NULL, "nr_loops 100", "bpf-loop --nr_loops 100" },
	{ NULL, "nr_loops 500", "bpf-loop --nr_loops 500" },
	{ NULL, "nr_loops 1000", "bpf-loop --nr_loops 1000" },
	{ NULL, "nr_loops 5000", "bpf-loop --nr_loops 5000" },
	{ NULL, "nr_loops 10000", "bpf-loop --nr_loops 10000" },
	{ NULL, "nr_loops 50000", "bpf-loop --nr_loops 50000" },
	{ NULL, "nr_loops 100000", "bpf-loop --nr_loops 100000" },
	{ NULL, "nr_loops 500000", "bpf-loop --nr_loops 500000" },
	{ NULL, "nr_loops 1000000", "bpf-loop --nr_loops 1000000" },
	{ NULL },
};

/* The quick look: three points of the sweep. */
static const struct suite_step bpf_loop_quick[] = {
	{ "bpf_loop, nr_loops sweep", "bpf-loop nr_loops 1", "bpf-loop -w0 -d1 --nr_loops 1" },
	{ NULL, "bpf-loop nr_loops 1000", "bpf-loop -w0 -d1 --nr_loops 1000" },
	{ NULL, "bpf-loop nr_loops 1000000", "bpf-loop -w0 -d1 --nr_loops 1000000" },
	{ NULL },
};

const struct suite suite_bpf_loop = {
	.name = "bpf-loop",
	.seed = true,
	.summary = "bpf_loop() throughput and latency, nr_loops 1 ... 1000000 (run_bench_bpf_loop.sh)",
	.steps = bpf_loop_steps,
	.quick = bpf_loop_quick,
};

const struct family family_bpf_loop = {
	.name = "bpf-loop",
	.summary = "bpf_loop() iterations per second and ns per iteration",
	.benchs = (const struct bench *const []){
		&bench_bpf_loop,
		NULL,
	},
	.suites = (const struct suite *const []){ &suite_bpf_loop, NULL },
};
