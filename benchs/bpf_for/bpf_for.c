// SPDX-License-Identifier: GPL-2.0
/*
 * bpf-for: the open-coded iterator's iterations per second and ns per
 * iteration, beside bpf-loop with the same --nr_loops and the same
 * figures (the kernel's bench's: latency is 1000 / throughput per
 * producer, so it does not shrink with -p).  --latency times the loops
 * of sampled runs inside the program, as bpf-loop's (src/bench/hist_bpf.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/btf.h>
#include "bench.h"
#include "bpf_for.skel.h"

#define BPF_FOR_MAX	(1u << 23)	/* the kernel's BPF_MAX_LOOPS: bpf_iter_num_new's bound */
#define SLOT_RUNS	0		/* extra[] word the program counts its runs in */
/* --latency times every run by default, as bpf-loop (benchs/bpf_loop.c says why) */
#define FOR_HIST_EVERY_STR	"1"

struct bpf_for_args {
	uint64_t nr_loops;
	bool latency;
	uint64_t latency_every;
};

static const struct opt_def bpf_for_opts[] = {
	{ "nr_loops", 0, OPT_UINT, OPT_OFF(struct bpf_for_args, nr_loops), "10", 1, BPF_FOR_MAX,
	  NULL, "N", "iterations per loop (as bpf-loop's per bpf_loop() call)" },
	{ "latency", 0, OPT_FLAG, OPT_OFF(struct bpf_for_args, latency), NULL, 0, 0, NULL, NULL,
	  "also time the loops of sampled runs inside the program: per-iteration distribution "
	  "(Latency line)" },
	{ "latency-every", 0, OPT_UINT, OPT_OFF(struct bpf_for_args, latency_every),
	  FOR_HIST_EVERY_STR, 1, 1u << 20, NULL, "N",
	  "--latency times one program run in N on each CPU" },
	{ NULL },
};

static const struct metric_def for_metrics[] = {
	{ "throughput", "M ops/s", METRIC_RATE, .prod_unit = "M ops" },
};

static const enum probe_id bpf_for_requires[] = { PROBE_BTF_VMLINUX, PROBE__COUNT };

struct bpf_for_state {
	struct bpf_for_bpf *skel;
	struct delta hits, runs;
	struct hist_bpf hist;
	int m_sampled;
};

/* The kernel bench's latency: per producer, 1000 / its share of the throughput. */
static int bpf_for_validate(struct bench_env *env)
{
	struct metric_def lat = { "latency", "ns/op", METRIC_INVERSE, .base = 0,
				  .scale = 1000.0 * env->nr_producers };
	struct metric_def ops = { "ops", "ops", METRIC_COUNT };
	struct metric_def runs = { "runs", "runs", METRIC_COUNT };

	bench_add_metric(env, &lat);
	bench_add_metric(env, &ops);
	bench_add_metric(env, &runs);
	if (((const struct bpf_for_args *)env->args)->latency)
		bench_add_metric(env, &bench_sampled_metric);
	return 0;
}

/*
 * The kfuncs in this kernel's BTF (6.4+).  BPFBENCH_BPF_FOR_KFUNC names
 * another one to look for instead of bpf_iter_num_new: the tests ask for
 * one no kernel has, to see the skip.
 */
static int bpf_for_probe(const struct bench_env *env)
{
	const char *names[] = { getenv("BPFBENCH_BPF_FOR_KFUNC") ?: "bpf_iter_num_new",
				"bpf_iter_num_next", "bpf_iter_num_destroy" };
	struct btf *vmlinux = btf__load_vmlinux_btf();
	size_t i;
	int err = 0;

	if (!vmlinux)
		return -errno;
	for (i = 0; i < ARRAY_SIZE(names) && !err; i++) {
		if (btf__find_by_name_kind(vmlinux, names[i], BTF_KIND_FUNC) > 0)
			continue;
		skipmsg("%s: this kernel lacks the kfunc %s (open-coded iterators, 6.4+)",
		       env->bench->name, names[i]);
		err = -EOPNOTSUPP;
	}
	btf__free(vmlinux);
	return err;
}

static int bpf_for_setup(struct bench_env *env)
{
	const struct bpf_for_args *a = env->args;
	struct bpf_for_state *s;
	int err = bpf_for_probe(env);

	if (err)
		return err;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	env->priv = s;
	s->skel = bpf_for_bpf__open();
	if (!s->skel)
		return -errno;
	s->skel->rodata->nr_loops = a->nr_loops;
	return bench_skel_setup(env, BENCH_SKEL(s->skel, bpf_for),
				a->latency ? a->latency_every : 0, &s->hist, &s->m_sampled);
}

static void bpf_for_measure(struct bench_env *env, uint64_t elapsed_ns, double *vals)
{
	struct bpf_for_state *s = env->priv;
	const struct bench_slot *slot = s->skel->bss->bench_slots;
	uint64_t ops = delta_next(&s->hits, slots_sum(slot, SLOT_HITS));
	uint64_t runs = slots_extra_sum(slot, SLOT_RUNS);
	vals[0] = mops(ops, elapsed_ns);
	vals[2] = ops;
	vals[3] = delta_next(&s->runs, runs);
	hist_bpf_measure(&s->hist, env, &vals[s->m_sampled]);
}

static void bpf_for_teardown(struct bench_env *env)
{
	struct bpf_for_state *s = env->priv;

	if (s)
		BENCH_SKEL_TEARDOWN(env, &s->hist, s->skel);
}

const struct bench bench_bpf_for = {
	.name = "bpf-for",
	.summary = "open-coded iterator (bpf_for): iterations per second and ns per iteration",
	.family = "bpf-for",
	.opts = bpf_for_opts,
	.args_size = sizeof(struct bpf_for_args),
	.requires = bpf_for_requires,
	.metrics = for_metrics,
	.nr_metrics = ARRAY_SIZE(for_metrics),
	.validate = bpf_for_validate,
	.setup = bpf_for_setup,
	.measure = bpf_for_measure,
	.teardown = bpf_for_teardown,
};

/* bpf-loop's sweep with both loops side by side, a row each. */
#define BOTH(n, head)							\
	{ head, "bpf_loop nr_loops " #n, "bpf-loop --nr_loops " #n },	\
	{ NULL, "bpf_for nr_loops " #n, "bpf-for --nr_loops " #n }

static const struct suite_step bpf_for_steps[] = {
	BOTH(1, "bpf_loop() beside bpf_for, nr_loops sweep"),
	BOTH(10, NULL), BOTH(100, NULL), BOTH(1000, NULL), BOTH(10000, NULL),
	BOTH(100000, NULL), BOTH(1000000, NULL),
	{ NULL },
};

static const struct suite_step bpf_for_quick[] = {
	{ "bpf_for, nr_loops sweep", "bpf-for nr_loops 1",
	  "bpf-for -w0 -d0.5 --period-ms 250 --nr_loops 1" },
	{ NULL, "bpf-for nr_loops 1000000", "bpf-for -w0 -d0.5 --period-ms 250 --nr_loops 1000000" },
	{ NULL },
};

const struct suite suite_bpf_for = {
	.name = "bpf-for",
	.summary = "bpf_for (open-coded iterator) beside bpf_loop(), nr_loops 1 ... 1000000",
	.steps = bpf_for_steps,
	.quick = bpf_for_quick,
};

const struct family family_bpf_for = {
	.name = "bpf-for",
	.summary = "the open-coded iterator (bpf_iter_num) beside bpf_loop()",
	.benchs = (const struct bench *const []){
		&bench_bpf_for,
		NULL,
	},
	.suites = (const struct suite *const []){ &suite_bpf_for, NULL },
};
