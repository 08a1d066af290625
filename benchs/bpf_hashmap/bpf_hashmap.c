// SPDX-License-Identifier: GPL-2.0
/*
 * bpf-hashmap: the kernel bench's own hash map benchmarks.  Both time
 * their loop inside the program, per CPU, and report events per second
 * of that time: updates of a full map (full-update), lookups of a map of
 * a chosen key size (lookup.c).  The trigger only decides how often a
 * run starts, never what a run's clock sees (doc/differences.md).
 *
 * Upstream prints one line per CPU and no Summary; ours prints its
 * lines (hm_full_lines, hm_lookup_lines: its .lines), then the Summary of all CPUs.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include "bench.h"
#include "bpf_hashmap.h"
#include "bpf_hashmap_int.h"
#include "hashmap_full.skel.h"

static uint64_t slot_extra(const struct bench_slot *slot, int i)
{
	return __atomic_load_n(&slot->extra[i], __ATOMIC_RELAXED);
}

static uint64_t extra_sum(const struct bench_slot *slots, int i)
{
	uint64_t sum = 0;
	int c;

	for (c = 0; c < BENCH_NR_SLOTS; c++)
		sum += slot_extra(&slots[c], i);
	return sum;
}

int hm_state_init(struct bench_env *env, struct hm_state *s, const struct bench_slot *slots,
		  uint64_t per_run)
{
	const struct metric_def *events = &env->bench->metrics[HM_M_EVENTS];
	char key[32];
	int c, m;

	s->slots = slots;
	s->per_run = per_run;
	/* CPUs past the slots share theirs (bench_common.bpf.h): one figure a slot */
	s->nr_cpus = libbpf_num_possible_cpus();
	if (s->nr_cpus < 1)
		return s->nr_cpus ? s->nr_cpus : -EINVAL;
	if (s->nr_cpus > BENCH_NR_SLOTS)
		s->nr_cpus = BENCH_NR_SLOTS;
	s->prev_runs = calloc(s->nr_cpus, sizeof(*s->prev_runs));
	s->prev_ns = calloc(s->nr_cpus, sizeof(*s->prev_ns));
	s->last = calloc(s->nr_cpus, sizeof(*s->last));
	if (!s->prev_runs || !s->prev_ns || !s->last)
		return -ENOMEM;
	for (c = 0; c < s->nr_cpus; c++) {
		struct metric_def def = *events;

		snprintf(key, sizeof(key), "cpu=%d", c);
		def.key = key;
		m = bench_add_metric(env, &def);
		if (m < 0)
			return m;
		if (!c)
			s->m_cpu = m;
		else if (m != s->m_cpu + c)
			return -EINVAL;	/* measure() indexes them from cpu 0's */
	}
	return 0;
}

/*
 * A CPU's figure: its period's events over its runs' own timed ns (a
 * rate of sums, where upstream's lookup averages the rates of its last
 * 32 runs: doc/differences.md).  All CPUs': the same over their sums,
 * the per-CPU rate of an average CPU.
 */
void hm_measure(struct bench_env *env, uint64_t elapsed_ns, double *vals)
{
	struct hm_state *s = env->priv;
	uint64_t all_runs = 0, all_ns = 0, hits, drops;
	int c;

	for (c = 0; c < s->nr_cpus; c++) {
		uint64_t runs = slot_extra(&s->slots[c], HM_SLOT_RUNS);
		uint64_t ns = slot_extra(&s->slots[c], HM_SLOT_NS);
		uint64_t dr = runs - s->prev_runs[c], dn = ns - s->prev_ns[c];

		s->prev_runs[c] = runs;
		s->prev_ns[c] = ns;
		if (dr && dn)
			s->last[c] = dr * s->per_run * 1e3 / dn;
		vals[s->m_cpu + c] = s->last[c];
		all_runs += dr;
		all_ns += dn;
	}
	if (all_runs && all_ns)
		s->last_all = all_runs * s->per_run * 1e3 / all_ns;
	vals[HM_M_EVENTS] = s->last_all;
	vals[HM_M_RUN_MS] = all_runs ? all_ns / 1e6 / all_runs : 0;
	hits = delta_next(&s->hits, slots_sum(s->slots, SLOT_HITS));
	drops = delta_next(&s->drops, slots_sum(s->slots, SLOT_DROPS));
	vals[HM_M_OPS] = hits + drops;
	/* lookup's misses, or the updates full-update's full map refused */
	vals[HM_M_MISSES] = s->full ? delta_next(&s->refused, extra_sum(s->slots, HM_SLOT_FULL)) :
			    drops;
	vals[HM_M_RUNS] = all_runs;
}

void hm_teardown(struct bench_env *env)
{
	struct hm_state *s = env->priv;
	if (!s)
		return;
	if (s->slots) {
		bench_total(env, "runs", extra_sum(s->slots, HM_SLOT_RUNS));
		bench_total(env, s->full ? "updates" : "found", slots_sum(s->slots, SLOT_HITS));
		if (s->full)
			bench_total(env, "full", extra_sum(s->slots, HM_SLOT_FULL));
		else
			bench_total(env, "missed", slots_sum(s->slots, SLOT_DROPS));
	}
	free(s->prev_runs);
	free(s->prev_ns);
	free(s->last);
	bench_skel_teardown(env, NULL, s->obj, s->skel);
}

/* ---- bpf-hashmap-full-update ---- */

static const struct metric_def full_metrics[HM_NR_METRICS] =
	HM_METRICS("full_update", "updates", "refused");

static int full_setup(struct bench_env *env)
{
	struct hm_state *s = calloc(1, sizeof(*s));
	struct hashmap_full_bpf *skel;
	__u64 val;
	__u32 i;
	int err, fd;

	if (!s)
		return -ENOMEM;
	env->priv = s;
	s->full = true;
	skel = hashmap_full_bpf__open();
	if (!skel)
		return -errno;
	s->skel = skel;
	s->obj = skel->skeleton;
	err = bench_skel_load(env, &(struct bench_skel){
		BENCH_SKEL_BASE(skel),
		.progs = {
			.test_run = skel->progs.hashmap_full_test_run,
			.raw_tp = skel->progs.hashmap_full_raw_tp,
			.fentry = skel->progs.hashmap_full_fentry,
		},
	}, 0, NULL, NULL);
	if (err)
		return err;
	/* every element taken: each update of a new key then finds no free one */
	fd = bpf_map__fd(skel->maps.hash_map_bench);
	for (i = 0; i < HM_FULL_ENTRIES; i++) {
		val = i;
		if (bpf_map_update_elem(fd, &i, &val, BPF_ANY)) {
			err = -errno;
			errmsg("%s: cannot fill the map (key %u): %s", env->bench->name, i,
			       strerror(-err));
			return err;
		}
	}
	err = hm_state_init(env, s, skel->bss->bench_slots, HM_FULL_LOOPS);
	if (err)
		return err;
	/* a run is 10000 updates, long enough to hide its syscall */
	bench_trigger_single(env);
	return trigger_attach(&env->trig);
}

/* The CPU of metric i: the first metric's name with key "cpu=N": N, or -1. */
static int cpu_of(const struct report_view *v, int i)
{
	char rest;
	int cpu;

	if (!i || strcmp(report_metric_name(v, i), report_metric_name(v, 0)) ||
	    sscanf(report_metric_key(v, i), "cpu=%d%c", &cpu, &rest) != 1)
		return -1;
	return cpu;
}

/* Appends to buf as snprintf would, never past len; the length so far. */
static size_t put(char *buf, size_t len, size_t off, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static size_t put(char *buf, size_t len, size_t off, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (off >= len)
		return off;
	va_start(ap, fmt);
	n = vsnprintf(buf + off, len - off, fmt, ap);
	va_end(ap);
	return n < 0 ? off : off + n;
}

/* "N:hash_map_full_perf X events per sec", a CPU that ran nothing left out as upstream does. */
void hm_full_lines(const struct report_view *v, char *buf, size_t len)
{
	size_t off = 0;
	int i, cpu;

	for (i = 0; i < report_nr_metrics(v); i++)
		if ((cpu = cpu_of(v, i)) >= 0 && report_mean(v, i) > 0)
			off = put(buf, len, off, "%d:hash_map_full_perf %lld events per sec\n", cpu,
				  (long long)(report_mean(v, i) * 1e6));
}

/*
 * "cpuNN: lookup XM ± YM events/sec (approximated from N samples of
 * ~Tms)": the spread is upstream's two standard deviations, the samples
 * ours (periods), T the metric run_time.
 */
void hm_lookup_lines(const struct report_view *v, char *buf, size_t len)
{
	double run_ms = report_mean(v, report_metric(v, "run_time"));
	size_t off = 0;
	int i, cpu;

	for (i = 0; i < report_nr_metrics(v); i++)
		if ((cpu = cpu_of(v, i)) >= 0 && report_mean(v, i) > 0)
			off = put(buf, len, off, "cpu%02d: lookup %.3lfM ± %.3lfM events/sec "
				  "(approximated from %d samples of ~%lums)\n", cpu, report_mean(v, i),
				  2 * report_spread(v, i), report_samples(v, i), (unsigned long)run_ms);
}

static const struct bench bench_bpf_hashmap_full_update = {
	.name = "bpf-hashmap-full-update",
	.summary = "updates of a full preallocated hash map (each refused E2BIG), per CPU",
	.family = "bpf-hashmap",
	.metrics = full_metrics,
	.nr_metrics = HM_NR_METRICS,
	.setup = full_setup,
	.measure = hm_measure,
	.teardown = hm_teardown,
	.report = { REPORT_OPS, .lines = hm_full_lines },
};

/*
 * run_bench_bpf_hashmap_full_update.sh: -a, and nr_cpus - 1 producers,
 * which a suite's fixed text cannot say; one is the script's on 2 CPUs.
 */
static const struct suite_step full_steps[] = {
	{ "bpf_hashmap_full_update", "full update", "bpf-hashmap-full-update -a" },
	{ NULL },
};

static const struct suite suite_bpf_hashmap_full_update = {
	.name = "bpf-hashmap-full-update",
	.summary = "updates of a full hash map per CPU (run_bench_bpf_hashmap_full_update.sh)",
	.steps = full_steps,
};

const struct family family_bpf_hashmap = {
	.name = "bpf-hashmap",
	.summary = "the kernel bench's bpf-hashmap-*: a full map's updates, lookups by key size",
	.benchs = (const struct bench *const []){
		&bench_bpf_hashmap_full_update,
		&bench_bpf_hashmap_lookup,
		NULL,
	},
	.suites = (const struct suite *const []){
		&suite_bpf_hashmap_full_update,
		&suite_bpf_hashmap_lookup,
		NULL,
	},
};
