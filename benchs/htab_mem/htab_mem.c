// SPDX-License-Identifier: GPL-2.0
/*
 * htab-mem: hash map operation rate and memory, preallocated or served
 * by the BPF memory allocator, in three use cases: the kernel's
 * selftests bench htab-mem (benchs/bench_htab_mem.c).
 *
 * Every program run works on 64 elements of the calling producer's own
 * part of the map, on the producer's CPU: the allocator's per-CPU caches
 * are what is measured.  Memory is what the run's own memory cgroup is
 * charged (src/bench/memcg.h), sampled every period.  --latency times ops
 * inside the program (htab_mem_hist.c).
 */
#include <errno.h>
#include <inttypes.h>
#include <linux/futex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "bench.h"
#include "htab_mem.h"
#include "htab_mem_hist.h"
#include "htab_mem_pair.h"
#include "htab_mem.skel.h"

#define MIB		(1024.0 * 1024.0)
#define DEF_ENTRIES	8192	/* the kernel bench's floor */
#define MAX_ENTRIES	(1u << 24)
#define PAIR_SPIN_NS	200000ull	/* --pair-wait spin: how long before it sleeps */

static const char *const use_case_names[] = {
	[HTAB_MEM_OVERWRITE] = "overwrite",
	[HTAB_MEM_BATCH_ADD_DEL] = "batch_add_batch_del",
	[HTAB_MEM_ADD_DEL_DIFF_CPU] = "add_del_on_diff_cpu",
	NULL,
};

enum pair_wait { PAIR_WAIT_SLEEP, PAIR_WAIT_SPIN };

static const char *const pair_wait_names[] = {
	[PAIR_WAIT_SLEEP] = "sleep",
	[PAIR_WAIT_SPIN] = "spin",
	NULL,
};

static const char *const mem_method_names[] = {
	[MEMCG_WANT_AUTO] = "auto",
	[MEMCG_WANT_CGROUP] = "cgroup",
	[MEMCG_WANT_FDINFO] = "fdinfo",
	NULL,
};

struct htab_mem_args {
	int use_case;
	bool preallocated;
	uint64_t value_size;
	uint64_t max_entries;
	int mem_method;
	int pair_wait;
	bool latency;
	uint64_t latency_every;
};

#define ARG(field)	OPT_OFF(struct htab_mem_args, field)

static const struct opt_def htab_mem_opts[] = {
	{ "use-case", 0, OPT_CHOICE, ARG(use_case), "overwrite", 0, 0, use_case_names, "CASE",
	  "what each producer does with its 64 keys per program run" },
	{ "preallocated", 0, OPT_FLAG, ARG(preallocated), NULL, 0, 0, NULL, NULL,
	  "preallocated hash map (default: BPF_F_NO_PREALLOC, the BPF memory allocator)" },
	{ "value-size", 0, OPT_UINT, ARG(value_size), "8", 1, HTAB_MEM_VALUE_MAX, NULL, "BYTES",
	  "value size of the hash map", OPT_F_DEFINES },
	{ "max-entries", 0, OPT_UINT, ARG(max_entries), "0", 0, MAX_ENTRIES, NULL, "N",
	  "map size; 0: max(8192, 64 x CPUs, 64 x producers) as the kernel bench", OPT_F_DEFINES },
	{ "memory-method", 0, OPT_CHOICE, ARG(mem_method), "auto", 0, 0, mem_method_names, "HOW",
	  "memory measurement: own memory cgroup, else the map's fdinfo memlock" },
	{ "pair-wait", 0, OPT_CHOICE, ARG(pair_wait), "sleep", 0, 0, pair_wait_names, "HOW",
	  "add_del_on_diff_cpu: wait for the partner asleep, as the kernel bench (a round pays two "
	  "cross-CPU wake-ups), or spin up to 200 us first (nearer the map's own cost)" },
	{ "latency", 0, OPT_FLAG, ARG(latency), NULL, 0, 0, NULL, NULL,
	  "also time the ops (64 updates or deletes) inside the program: per-op distribution "
	  "(Latency line)" },
	{ "latency-every", 0, OPT_UINT, ARG(latency_every), HTAB_MEM_HIST_EVERY_STR, 1, 1u << 20,
	  NULL, "N",
	  "--latency times one program run in N on each CPU" },
	{ NULL },
};

enum { M_OP, M_MEM, M_PEAK, M_FAILED, M_OPS, M_DELS, M_SETUP_PEAK };

/*
 * An op is the kernel bench's: one program run's 64 updates or 64
 * deletes (batch_add_batch_del's run is two).  per-prod-op is the
 * period's ops over all producers, divided by the producer count, per
 * second; ops and del-ops are the period's raw counts behind it.
 * Memory is a level, not an estimate: a preallocated map's is fixed at
 * setup, and a cgroup's usage also carries the per-CPU charge batches
 * (up to 64 pages a CPU) left over from setup.
 */
static const struct metric_def htab_mem_metrics[] = {
	[M_OP] = { "per-prod-op", "k ops/s", METRIC_RATE },
	[M_MEM] = { "memory", "MiB", METRIC_LEVEL },
	[M_PEAK] = { "peak-memory", "MiB", METRIC_PEAK },
	/* map operations (elements) that failed: none when parts are kept */
	[M_FAILED] = { "failed-ops", "elems", METRIC_COUNT, .better = BETTER_LOWER },
	[M_OPS] = { "ops", "ops", METRIC_COUNT },
	[M_DELS] = { "del-ops", "ops", METRIC_COUNT },
	/* peak-memory starts with the producers; the kernel bench's is the larger of the two */
	[M_SETUP_PEAK] = { "setup-peak-memory", "MiB", METRIC_LEVEL },
};

/*
 * cgroup v1 also keeps the kernel memory charged (the map, the programs,
 * the threads' kernel stacks) in a counter of its own, charged page by
 * page: unlike usage, it carries no per-CPU charge batches, so identical
 * runs read the same figure.
 */
static const struct metric_def kmem_metric = { "kernel-memory", "MiB", METRIC_LEVEL };

#define KMEM_FILE	"memory.kmem.usage_in_bytes"

/*
 * A cgroup's usage moves in per-CPU charge batches (MEMCG_CHARGE_BATCH,
 * 64 pages a CPU): figures that differ by less cannot be told apart, so
 * compare calls them equal however far apart in percent.
 */
#define CHARGE_BATCH_PAGES	64

static void set_charge_resolution(struct bench_env *env)
{
	double mib = (double)CHARGE_BATCH_PAGES * sysconf(_SC_PAGESIZE) * nr_online_cpus() /
		     (1 << 20);

	bench_metric_resolution(env, M_MEM, mib);
	bench_metric_resolution(env, M_PEAK, mib);
	bench_metric_resolution(env, M_SETUP_PEAK, mib);
}

static const enum probe_id htab_mem_requires[] = { PROBE_HELPER_BPF_LOOP, PROBE__COUNT };

/* A producer's program runs as it triggered them: the BPF side's count, kept independently. */
struct fire_count {
	atomic_ullong runs;
	atomic_ullong cut;	/* runs of calls the stop may have cut short (woken out of the kernel) */
} __attribute__((aligned(64)));

struct htab_mem_state {
	struct htab_mem_bpf *skel;
	struct memcg mem;
	struct pair_barrier *pairs;
	uint64_t spin_ns;	/* how long a producer spins at a barrier before it sleeps */
	struct fire_count *fired;	/* one per producer */
	struct delta ops, dels, failed;
	uint64_t ops_base;	/* the BPF side's ops before the producers started */
	bool primed;		/* the peak restarted when producers were about to start */
	uint64_t setup_peak;	/* bytes, before that restart */
	int m_kmem;		/* index of kernel-memory, -1: not measured */
	struct htab_mem_hist hist;
};

/* Keys a part needs: producer i (or pair i) uses i + k * parts, k < 64. */
static uint64_t keys_needed(const struct htab_mem_args *a, int producers)
{
	int parts = a->use_case == HTAB_MEM_ADD_DEL_DIFF_CPU ? producers / 2 : producers;

	return (uint64_t)HTAB_MEM_BATCH * (parts ? parts : 1);
}

static uint64_t map_entries(const struct htab_mem_args *a, int producers)
{
	uint64_t n = DEF_ENTRIES;

	if (a->max_entries)
		return a->max_entries;
	if ((uint64_t)HTAB_MEM_BATCH * nr_online_cpus() > n)
		n = (uint64_t)HTAB_MEM_BATCH * nr_online_cpus();
	if (keys_needed(a, producers) > n)
		n = keys_needed(a, producers);
	return n;
}

static int htab_mem_validate(struct bench_env *env)
{
	const struct htab_mem_args *a = env->args;

	if (a->use_case == HTAB_MEM_ADD_DEL_DIFF_CPU && env->nr_producers % 2) {
		errmsg("htab-mem: add_del_on_diff_cpu pairs producers (one adds, its partner deletes): "
		       "-p must be even, got %d", env->nr_producers);
		return -EINVAL;
	}
	if (a->pair_wait == PAIR_WAIT_SPIN && a->use_case != HTAB_MEM_ADD_DEL_DIFF_CPU) {
		errmsg("htab-mem: --pair-wait spin applies to --use-case add_del_on_diff_cpu only");
		return -EINVAL;
	}
	if (a->max_entries && a->max_entries < keys_needed(a, env->nr_producers)) {
		errmsg("htab-mem: --max-entries %llu cannot hold 64 keys per part: %d producers need %llu",
		       (unsigned long long)a->max_entries, env->nr_producers,
		       (unsigned long long)keys_needed(a, env->nr_producers));
		return -EINVAL;
	}
	htab_mem_hist_metrics(env, a->latency);
	if (a->mem_method == MEMCG_WANT_CGROUP)
		return bench_require(env, PROBE_MEMCG, "--memory-method cgroup");
	return 0;
}

/* The kernel bench's way in: a program per syscall.  Else test-run. */
static struct trigger_progs trigger_progs_of(struct bench_env *env, struct htab_mem_bpf *skel)
{
	struct trigger_progs progs = {
		.test_run = skel->progs.htab_mem_test_run,
		.raw_tp = skel->progs.htab_mem_raw_tp,
	};
	char why[128];

	/*
	 * Auto prefers raw-tp: like the kernel's tracepoint, each syscall is
	 * one run of 64 operations in its own RCU read section, whereas a
	 * repeated test-run holds one across many runs and so delays the
	 * grace periods after which the allocator reuses freed elements.
	 */
	if (env->opts->trigger == TRIG_AUTO &&
	    probe_feature(PROBE_TRIG_RAW_TP, why, sizeof(why)) == 1) {
		bpf_program__set_autoload(progs.test_run, false);
		progs.test_run = NULL;
	}
	return progs;
}

static int configure_map(struct bench_env *env, struct htab_mem_bpf *skel)
{
	const struct htab_mem_args *a = env->args;
	struct bpf_map *map = skel->maps.htab_mem_map;
	__u32 flags = bpf_map__map_flags(map);
	int err;

	err = bpf_map__set_value_size(map, a->value_size);
	if (!err)
		err = bpf_map__set_max_entries(map, map_entries(a, env->nr_producers));
	if (!err && a->preallocated)
		err = bpf_map__set_map_flags(map, flags & ~BPF_F_NO_PREALLOC);
	return err;
}

/* Zeroed, each element on cache lines of its own (calloc aligns to 16 bytes only). */
static void *calloc_lines(size_t n, size_t size)
{
	void *p;

	if (posix_memalign(&p, 64, n * size))
		return NULL;
	return memset(p, 0, n * size);
}

static int read_kmem(const struct htab_mem_state *s, double *mib)
{
	char path[PATH_MAX + 64];
	uint64_t bytes = 0;
	FILE *f;
	int ret;

	snprintf(path, sizeof(path), "%s/" KMEM_FILE, s->mem.dir);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	ret = fscanf(f, "%" SCNu64, &bytes) == 1 ? 0 : -EINVAL;
	fclose(f);
	*mib = bytes / MIB;
	return ret;
}

static int htab_mem_setup(struct bench_env *env)
{
	const struct htab_mem_args *a = env->args;
	struct htab_mem_state *s = calloc(1, sizeof(*s));
	char desc[PATH_MAX + 200];
	int err;

	if (!s)
		return -ENOMEM;
	env->priv = s;
	s->hist.map_fd = -1;
	err = htab_mem_hist_create(&s->hist, a->latency ? a->latency_every : 0);
	if (err)
		return err;
	/* first: the map's memory is charged to the cgroup its creator is in */
	err = memcg_enter(&s->mem, a->mem_method);
	if (err)
		return err;	/* a cgroup was demanded: memcg_enter said why we have none */
	s->skel = htab_mem_bpf__open();
	if (!s->skel)
		return -errno;
	s->skel->rodata->use_case = a->use_case;
	s->skel->rodata->nr_producers = env->nr_producers;
	err = configure_map(env, s->skel);
	err = err ?: htab_mem_hist_prepare(&s->hist, s->skel);
	/* its histograms are htab_mem_hist's: the helper's parts left out */
	err = err ?: bench_skel_load(env, &(struct bench_skel){
					BENCH_SKEL_BASE(s->skel),
					.progs = trigger_progs_of(env, s->skel),
				     }, 0, NULL, NULL);
	err = err ?: htab_mem_hist_open(&s->hist, s->skel, env);
	if (err)
		return err;
	memcg_watch_map(&s->mem, bpf_map__fd(s->skel->maps.htab_mem_map));
	/* a pair's turns are single runs; calibrating would add twice */
	if (a->use_case == HTAB_MEM_ADD_DEL_DIFF_CPU)
		bench_trigger_own(env, env->trig.kind, 1);
	err = trigger_attach(&env->trig);
	if (err)
		return err;
	s->fired = calloc_lines(env->nr_producers, sizeof(*s->fired));
	if (!s->fired)
		return -ENOMEM;
	if (a->use_case == HTAB_MEM_ADD_DEL_DIFF_CPU) {
		s->pairs = calloc_lines(env->nr_producers / 2, sizeof(*s->pairs));
		if (!s->pairs)
			return -ENOMEM;
		s->spin_ns = a->pair_wait == PAIR_WAIT_SPIN ? PAIR_SPIN_NS : 0;
	}
	s->m_kmem = -1;
	if (s->mem.method == MEMCG_V1 || s->mem.method == MEMCG_V2)
		set_charge_resolution(env);
	if (s->mem.method == MEMCG_V1 && !read_kmem(s, &(double){ 0 }))
		s->m_kmem = bench_add_metric(env, &kmem_metric);
	env->method = memcg_method_label(&s->mem);
	memcg_describe(&s->mem, desc, sizeof(desc));
	bench_note(env, "memory measured by %s", desc);
	return 0;
}

/* One program run on this producer's part, on this CPU (test-run: repeat runs). */
static int fire(struct bench_env *env, int idx)
{
	struct htab_mem_state *s = env->priv;
	unsigned char pkt[sizeof(env->trig.pkt)] = { 0 };
	__u32 word = idx;
	uint64_t runs = 1;
	int err = 0;

	if (env->trig.kind == TRIG_RAW_TP) {
		syscall(__NR_getpgid, 0, (long)idx);
	} else {
		memcpy(pkt, &word, sizeof(word));
		err = test_run_pkt(env->trig.prog_fd, pkt, sizeof(pkt), env->trig.repeat, NULL);
		runs = env->trig.repeat;
	}
	if (!err)
		atomic_fetch_add_explicit(bench_stopping(env) ? &s->fired[idx].cut : &s->fired[idx].runs,
					  runs, memory_order_relaxed);
	return err;
}

static bool fire_ok(struct bench_env *env, int idx)
{
	int err = fire(env, idx);

	if (err)
		bench_fail(env, err, "trigger %s failed: %s", trigger_names[env->trig.kind],
			   strerror(-err));
	return !err;
}

/* The kernel bench's order: the adder runs first, the deleter between the two barriers. */
static void pair_producer(struct bench_env *env, int idx)
{
	struct htab_mem_state *s = env->priv;
	struct pair_barrier *b = &s->pairs[idx / 2];
	bool adder = !(idx & 1);

	while (!bench_stopping(env)) {
		if (adder && !fire_ok(env, idx))
			return;
		if (!pair_meet(env, b, s->spin_ns))
			return;
		if (!adder && !fire_ok(env, idx))
			return;
		if (!pair_meet(env, b, s->spin_ns))
			return;
	}
}

static void htab_mem_producer(struct bench_env *env, int idx)
{
	const struct htab_mem_args *a = env->args;

	if (a->use_case == HTAB_MEM_ADD_DEL_DIFF_CPU)
		pair_producer(env, idx);
	else
		while (!bench_stopping(env) && fire_ok(env, idx))
			;
}

static uint64_t dels_sum(const struct bench_slot *slots)
{
	return slots_extra_sum(slots, HTAB_MEM_SLOT_DELS);
}

/*
 * The peak restarts when the producers start: setup's is mostly
 * libbpf's, which parses the kernel's BTF (5 MiB of it) for our CO-RE
 * reads, and no part of the map.  What setup reached is kept apart.
 */
static void prime_peak(struct htab_mem_state *s)
{
	uint64_t usage = 0, peak = 0;
	int err;

	if (!memcg_sample(&s->mem, &usage, &peak))
		s->setup_peak = peak > usage ? peak : usage;
	err = memcg_reset_peak(&s->mem);
	if (err)
		vmsg("htab-mem: cannot restart the memory peak (%s); using the largest sample",
		     strerror(-err));
	s->primed = true;
}

static void htab_mem_measure(struct bench_env *env, uint64_t elapsed_ns, double *vals)
{
	struct htab_mem_state *s = env->priv;
	const struct bench_slot *slots = s->skel->bss->bench_slots;
	uint64_t total = slots_sum(slots, SLOT_HITS), ops, dels, failed;
	double secs = elapsed_ns / 1e9;
	uint64_t usage = 0, peak = 0;
	int err;

	/* a run counts its deletes before its ops: read in the other order */
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	ops = delta_next(&s->ops, total);
	dels = delta_next(&s->dels, dels_sum(slots));
	failed = delta_next(&s->failed, slots_sum(slots, SLOT_DROPS));
	/* the first call comes before the producers start */
	if (!s->primed) {
		s->ops_base = total;
		prime_peak(s);
	}
	err = memcg_sample(&s->mem, &usage, &peak);
	if (!err && s->m_kmem >= 0)
		err = read_kmem(s, &vals[s->m_kmem]);
	if (err)
		bench_fail(env, err, "cannot read memory (%s): %s", memcg_method_label(&s->mem),
			   strerror(-err));
	vals[M_OP] = ops / (double)env->nr_producers / secs / 1000.0;
	vals[M_MEM] = usage / MIB;
	vals[M_PEAK] = peak / MIB;
	vals[M_SETUP_PEAK] = s->setup_peak / MIB;
	vals[M_FAILED] = failed;
	vals[M_OPS] = ops;
	vals[M_DELS] = dels;
	htab_mem_hist_sample(&s->hist, env, vals);
}

/*
 * What the programs counted while the producers ran against what the
 * producers triggered: equal unless a count is lost or made up, or the
 * kernel skipped triggers (recursion misses, said with their number:
 * per-prod-op counts the runs that ran, so it reads low by as many).
 */
static void check_counts(struct bench_env *env, struct htab_mem_state *s)
{
	const struct htab_mem_args *a = env->args;
	uint64_t fired = 0, cut = 0, counted, misses, per_run = a->use_case == HTAB_MEM_BATCH_ADD_DEL ? 2 : 1;
	int i;

	if (!s->primed || !s->fired || atomic_load(&env->error))
		return;
	for (i = 0; i < env->nr_producers; i++) {
		fired += atomic_load(&s->fired[i].runs);
		cut += atomic_load(&s->fired[i].cut);
	}
	counted = slots_sum(s->skel->bss->bench_slots, SLOT_HITS) - s->ops_base;
	/* a call the stop woke ran some of its runs: count those exactly as the programs did */
	if (counted >= fired * per_run && counted <= (fired + cut) * per_run)
		fired = counted / per_run;
	misses = obj_recursion_misses(s->skel->obj);
	if (misses)
		errmsg("htab-mem: warning: the kernel skipped %llu triggers as recursion misses "
		       "(a program preempted mid-run); per-prod-op counts only the runs that ran",
		       (unsigned long long)misses);
	if (counted != fired * per_run)
		errmsg("htab-mem: warning: the programs counted %llu ops, the producers triggered "
		       "%llu%s", (unsigned long long)counted, (unsigned long long)(fired * per_run),
		       counted + misses * per_run == fired * per_run ?
		       " (the difference: the recursion misses)" : "");
	else
		vmsg("htab-mem: ops counted by the programs %llu, triggered by the producers %llu",
		     (unsigned long long)counted, (unsigned long long)(fired * per_run));
}

static void htab_mem_teardown(struct bench_env *env)
{
	struct htab_mem_state *s = env->priv;

	if (!s)
		return;
	if (s->skel)
		check_counts(env, s);
	htab_mem_hist_close(&s->hist, env);
	htab_mem_bpf__destroy(s->skel);
	free(s->fired);
	free(s->pairs);
	memcg_leave(&s->mem);
	free(s);
	env->priv = NULL;
}

const struct bench bench_htab_mem = {
	.name = "htab-mem",
	.summary = "hash map: per-producer ops and memory, preallocated vs BPF memory allocator",
	.family = "htab-mem",
	.opts = htab_mem_opts,
	.args_size = sizeof(struct htab_mem_args),
	.requires = htab_mem_requires,
	.metrics = htab_mem_metrics,
	.nr_metrics = ARRAY_SIZE(htab_mem_metrics),
	.validate = htab_mem_validate,
	.setup = htab_mem_setup,
	.producer = htab_mem_producer,
	.measure = htab_mem_measure,
	.report = { REPORT_HTAB_MEM },
	.teardown = htab_mem_teardown,
};

/* run_bench_htab_mem.sh: three use cases, preallocated then the BPF memory allocator. */
#define HTAB_MEM_STEP(hdr, name, extra) \
	{ hdr, name, "-a -p2 htab-mem --use-case " name extra }

static const struct suite_step htab_mem_steps[] = {
	HTAB_MEM_STEP("preallocated", "overwrite", " --preallocated"),
	HTAB_MEM_STEP(NULL, "batch_add_batch_del", " --preallocated"),
	HTAB_MEM_STEP(NULL, "add_del_on_diff_cpu", " --preallocated"),
	HTAB_MEM_STEP("BPF memory allocator", "overwrite", ""),
	HTAB_MEM_STEP(NULL, "batch_add_batch_del", ""),
	HTAB_MEM_STEP(NULL, "add_del_on_diff_cpu", ""),
	{ NULL },
};

/* The quick look adds the one use case the default run does not cover: paired producers. */
static const struct suite_step htab_mem_quick[] = {
	{ "htab-mem, paired producers", "add_del_on_diff_cpu",
	  "-w0 -d1 -a -p2 htab-mem --use-case add_del_on_diff_cpu" },
	{ NULL },
};

const struct suite suite_htab_mem = {
	.name = "htab-mem",
	.seed = true,
	.summary = "hash map ops and memory: 3 use cases x preallocated / BPF memory allocator, -p2",
	.steps = htab_mem_steps,
	.quick = htab_mem_quick,
};

const struct family family_htab_mem = {
	.name = "htab-mem",
	.summary = "hash map ops and memory, preallocated or through the BPF memory allocator",
	.benchs = (const struct bench *const []){
		&bench_htab_mem,
		NULL,
	},
	.suites = (const struct suite *const []){ &suite_htab_mem, NULL },
};
