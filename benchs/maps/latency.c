// SPDX-License-Identifier: GPL-2.0
/*
 * maps --latency: the chunks the programs time anyway (MAPS_CHUNK ops
 * between two clock reads) also go into a histogram per op kind, so
 * every chunk by default (MP_HIST_EVERY_STR): the recording costs a
 * map lookup and a few atomics per 1000 ops.  One op kind: "op", its
 * mean beside wall_latency (1000 x producers / throughput); map-ops:
 * one per op, named after it, beside nothing (it has no throughput).
 *
 * The runs are whole samples (BENCH_F_ONESHOT), and src/bench/hist_bpf.h counts
 * measure() periods: here each run reads the histograms as it starts
 * and as it ends, and until a run has been measured each start is the
 * new baseline, so the result holds the measured runs' chunks only.
 * The map outlives the skeleton, which an LRU pass reloads.
 */
#include <errno.h>
#include <math.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "mp.h"
#include "maps.skel.h"

_Static_assert(MP__NR == MAPS_NR_OPS, "maps.bpf.c's op kinds are enum mp_op's");

static const struct metric_def wall_metric = {
	"wall_latency", "ns/op", METRIC_INVERSE, .base = 0, .scale = 1000.0, .per_producer = true,
};

static bool multi(const struct bench_env *env)
{
	return ((const struct mp_variant *)env->bench->variant)->multi;
}

static const char *hist_name(const struct bench_env *env, enum mp_op op)
{
	return multi(env) ? mp_op_name(op) : "op";
}

void mp_hist_metrics(struct bench_env *env, const struct mp_conf *c, struct mp_metrics *m)
{
	struct metric_def d = { .unit = "ops", .kind = METRIC_COUNT };
	char name[48];
	int i;

	if (!((const struct maps_args *)env->args)->latency)
		return;
	if (!multi(env))
		m->wall = bench_add_metric(env, &wall_metric);
	for (i = 0; i < c->nr_ops; i++) {
		snprintf(name, sizeof(name), "%s%ssampled_ops", multi(env) ? mp_op_name(c->ops[i]) : "",
			 multi(env) ? "_" : "");
		d.name = name;
		m->sampled[c->ops[i]] = bench_add_metric(env, &d);
	}
}

int mp_hist_create(struct bench_env *env, struct mp_state *s)
{
	const struct maps_args *a = env->args;

	s->hist_fd = -1;
	s->hist_every = a->latency ? a->latency_every : 0;
	s->hist_warm0 = bench_warmup_samples(env);
	if (!s->hist_every)
		return 0;
	s->hist_fd = bpf_map_create(BPF_MAP_TYPE_PERCPU_ARRAY, "hist_map", sizeof(__u32),
				    sizeof(struct hist_cpu), HIST_MAP_ENTRIES, NULL);
	return s->hist_fd < 0 ? -errno : 0;
}

/* Before every load: the programs record into the map of the run, each op into its own. */
int mp_hist_prepare(struct mp_state *s)
{
	int i;

	HIST_SKEL_EVERY(s->skel, s->hist_every);
	for (i = 0; i < s->c.nr_ops; i++)
		s->skel->rodata->hist_ids[s->c.ops[i]] = i;
	return s->hist_fd >= 0 ? bpf_map__reuse_fd(s->skel->maps.hist_map, s->hist_fd) : 0;
}

/* After every load: the first times the clock; a reload hands its cost to the new programs. */
int mp_hist_open(struct bench_env *env, struct mp_state *s)
{
	volatile __u64 *clock_q = &s->skel->bss->hist_clock_q;
	int i, err;

	if (!s->hist_every)
		return 0;
	if (s->hist.open) {
		s->hist.clock_q = clock_q;
		*clock_q = (__u64)llround(s->hist.clock_ns * (1 << HIST_FRAC_BITS));
		return 0;
	}
	err = hist_bpf_open(&s->hist, env, s->hist_fd, bpf_program__fd(s->skel->progs.hist_clock),
			    clock_q, hist_name(env, s->c.ops[0]), multi(env) ? NULL : "wall_latency");
	for (i = 1; !err && i < s->c.nr_ops; i++)
		hist_bpf_name(&s->hist, i, hist_name(env, s->c.ops[i]));
	return err;
}

static void read_hist(struct bench_env *env, struct mp_state *s)
{
	int err = hist_bpf_sample(&s->hist, env);

	if (err)
		bench_fail(env, err, "cannot read the latency histogram: %s", strerror(-err));
}

void mp_hist_run_begin(struct bench_env *env, struct mp_state *s)
{
	if (!s->hist.open)
		return;
	/* every run so far was warm-up: this one may be the first measured */
	if (bench_warmup_samples(env) - s->hist_warm0 == s->hist_runs)
		hist_bpf_rebase(&s->hist);
	read_hist(env, s);
	s->hist_runs++;
}

void mp_hist_run_end(struct bench_env *env, struct mp_state *s, double *vals)
{
	int i;

	if (!s->hist.open)
		return;
	read_hist(env, s);
	for (i = 0; i < s->c.nr_ops; i++)
		vals[s->m.sampled[s->c.ops[i]]] = hist_bpf_period_ops(&s->hist, i);
}

void mp_hist_close(struct bench_env *env, struct mp_state *s)
{
	hist_bpf_close(&s->hist, env);
	if (s->hist_fd >= 0)
		close(s->hist_fd);
	s->hist_fd = -1;
}
