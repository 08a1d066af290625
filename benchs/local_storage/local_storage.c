// SPDX-License-Identifier: GPL-2.0
/*
 * local-storage: the kernel bench's local storage benchmarks.
 *
 * local-storage-cache-seq-get, -int-get, -hashmap-control: gets per
 * second through --nr_maps task storage maps (or, the control, hash maps
 * of LS_HASHMAP_SZ keys), LS_LOOPS a program run fired by our getpgid();
 * they show the cliff of the storage's per-map cache (16 slots) as
 * nr_maps grows.  important_hits are the gets of map 0 (int-get gets it
 * more often, as a program reading its own map among many).
 *
 * Upstream prints "Summary: hits throughput ..., important_hits ..."
 * (run_bench_local_storage.sh reads it); ours is cache_lines (.lines)
 * before the core's Summary.  local-storage-create is create.c's,
 * local-storage-tasks-trace tasks_trace.c's.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include "bench.h"
#include "local_storage.h"
#include "local_storage_int.h"
#include "local_storage_cache.skel.h"

struct cache_args {
	uint64_t nr_maps;
	uint64_t nr_keys;
};

static const struct opt_def cache_opts[] = {
	{ "nr_maps", 0, OPT_UINT, OPT_OFF(struct cache_args, nr_maps), "1000", 1, LS_MAX_MAPS,
	  NULL, "N", "number of maps the gets go through, in order", OPT_F_DEFINES },
	{ "hashmap_nr_keys_used", 0, OPT_UINT, OPT_OFF(struct cache_args, nr_keys), "1000", 1,
	  LS_HASHMAP_SZ, NULL, "N", "hashmap-control: keys of each map the lookups pick from "
	  "(every map holds all 4194304)", OPT_F_DEFINES },
	{ NULL },
};

enum { M_HITS, M_IMPORTANT, M_LATENCY, M_GETS, NR_CACHE_METRICS };

static const struct metric_def cache_metrics[] = {
	[M_HITS] = { "hits", "M ops/s", METRIC_RATE },
	[M_IMPORTANT] = { "important_hits", "M ops/s", METRIC_RATE },
	[M_LATENCY] = { "latency", "ns/op", METRIC_INVERSE, .base = M_HITS, .scale = 1000.0 },
	[M_GETS] = { "gets", "gets", METRIC_COUNT },
};

struct cache_variant {
	bool hashmap, interleave;
};

struct cache_state {
	struct local_storage_cache_bpf *skel;
	int *inner;		/* the maps made, nr_maps fds (-1: not made) */
	int nr_inner;
	struct delta hits, important;
};

/* Every key its own value, in batches: 4M single updates would take seconds. */
static int fill_hashmap(int fd)
{
	enum { CHUNK = 65536 };
	int *keys = malloc(CHUNK * sizeof(int));
	__u32 i, n, count;
	int err = 0;

	if (!keys)
		return -ENOMEM;
	for (i = 0; i < LS_HASHMAP_SZ && !err; i += CHUNK) {
		count = CHUNK;
		for (n = 0; n < CHUNK; n++)
			keys[n] = i + n;
		if (bpf_map_update_batch(fd, keys, keys, &count, NULL))
			err = -errno;
	}
	free(keys);
	return err;
}

/*
 * The inner maps, made as upstream's (a task storage map needs its key's
 * and value's BTF types: the object's int, which libbpf does not give
 * for an inner map here), then filled.
 */
static int make_maps(struct bench_env *env, struct cache_state *s, bool hashmap)
{
	const struct cache_args *a = env->args;
	struct bpf_map *outer = hashmap ? s->skel->maps.array_of_hash_maps :
					  s->skel->maps.array_of_local_storage_maps;
	int int_id = btf__find_by_name_kind(bpf_object__btf(s->skel->obj), "int", BTF_KIND_INT);
	LIBBPF_OPTS(bpf_map_create_opts, o,
		.btf_fd = bpf_object__btf_fd(s->skel->obj),
		.map_flags = hashmap ? 0 : BPF_F_NO_PREALLOC);
	int i, fd, err;

	if (int_id <= 0) {
		errmsg("%s: no int in the object's BTF", env->bench->name);
		return -ENOENT;
	}
	o.btf_key_type_id = o.btf_value_type_id = int_id;

	s->inner = malloc(a->nr_maps * sizeof(int));
	if (!s->inner)
		return -ENOMEM;
	for (i = 0; i < (int)a->nr_maps; i++) {
		/* named as their array (cut to 15 bytes): the tests count them as ours */
		fd = hashmap ? bpf_map_create(BPF_MAP_TYPE_HASH, bpf_map__name(outer), sizeof(int),
					      sizeof(int), LS_HASHMAP_SZ, &o) :
			       bpf_map_create(BPF_MAP_TYPE_TASK_STORAGE, bpf_map__name(outer),
					      sizeof(int), sizeof(int), 0, &o);
		if (fd < 0) {
			err = -errno;
			errmsg("%s: cannot create map %d: %s", env->bench->name, i, strerror(-err));
			return err;
		}
		s->inner[s->nr_inner++] = fd;
		if (hashmap && (err = fill_hashmap(fd))) {
			errmsg("%s: cannot fill map %d: %s", env->bench->name, i, strerror(-err));
			return err;
		}
		if (bpf_map_update_elem(bpf_map__fd(outer), &i, &fd, BPF_ANY)) {
			err = -errno;
			errmsg("%s: cannot place map %d: %s", env->bench->name, i, strerror(-err));
			return err;
		}
	}
	return 0;
}

/*
 * The control's maps are preallocated, 4194304 elements each (about
 * 80 bytes with their bucket): upstream's default of 1000 maps would ask
 * for 320 GB and end in ENOMEM after filling the first dozens; refused
 * at once with the script's choice.
 */
static int cache_validate(struct bench_env *env)
{
	const struct cache_variant *v = env->bench->variant;
	const struct cache_args *a = env->args;
	double need = 80.0 * LS_HASHMAP_SZ * a->nr_maps;
	uint64_t avail = mem_available();

	if (!v->hashmap || !avail || need < avail * 0.9)
		return 0;
	errmsg("%s: --nr_maps %llu needs about %.0f MB (%d preallocated keys a map), %.0f MB "
	       "available; run_bench_local_storage.sh runs it with --nr_maps 1", env->bench->name,
	       (unsigned long long)a->nr_maps, need / 1e6, LS_HASHMAP_SZ, avail / 1e6);
	return -EINVAL;
}

static int cache_setup(struct bench_env *env)
{
	const struct cache_variant *v = env->bench->variant;
	const struct cache_args *a = env->args;
	struct cache_state *s = calloc(1, sizeof(*s));
	struct local_storage_cache_bpf *skel;
	struct trigger_progs p;
	char why[128];
	int err;

	if (!s)
		return -ENOMEM;
	env->priv = s;
	skel = s->skel = local_storage_cache_bpf__open();
	if (!skel)
		return -errno;
	skel->rodata->use_hashmap = v->hashmap;
	skel->rodata->interleave = v->interleave;
	skel->rodata->num_maps = a->nr_maps;
	skel->rodata->hashmap_num_keys = a->nr_keys;
	p = (struct trigger_progs){
		.raw_tp = skel->progs.cache_get_raw_tp,
		.fentry = skel->progs.cache_get_fentry,
	};
	/* upstream's fentry where the kernel allows it (the core's auto takes raw-tp first) */
	if (env->opts->trigger == TRIG_AUTO &&
	    probe_feature(PROBE_TRIG_FENTRY, why, sizeof(why)) == 1) {
		bpf_program__set_autoload(p.raw_tp, false);
		p.raw_tp = NULL;
	}
	err = bench_skel_load(env, &(struct bench_skel){ BENCH_SKEL_BASE(skel), .progs = p },
			      0, NULL, NULL);
	if (err)
		return err;
	err = make_maps(env, s, v->hashmap);
	return err ?: trigger_attach(&env->trig);
}

static void cache_measure(struct bench_env *env, uint64_t elapsed_ns, double *vals)
{
	struct cache_state *s = env->priv;
	const struct bench_slot *slots = s->skel->bss->bench_slots;
	uint64_t missed = slots_extra_sum(slots, LS_SLOT_MISSED);
	uint64_t wrong = slots_extra_sum(slots, LS_SLOT_WRONG);
	uint64_t hits;

	/* every get must find its map's value: the storage its first get created, the key */
	if (missed || wrong)
		bench_fail(env, -EPROTO, "%llu gets found no value, %llu another map's or key's",
			   (unsigned long long)missed, (unsigned long long)wrong);
	hits = delta_next(&s->hits, slots_sum(slots, SLOT_HITS));
	vals[M_HITS] = mops(hits, elapsed_ns);
	vals[M_IMPORTANT] = mops(delta_next(&s->important, slots_extra_sum(slots, LS_SLOT_IMPORTANT)),
				 elapsed_ns);
	vals[M_GETS] = hits;
}

static void cache_teardown(struct bench_env *env)
{
	struct cache_state *s = env->priv;
	const struct bench_slot *slots;
	int i;

	if (!s)
		return;
	if (s->skel && s->skel->bss) {
		slots = s->skel->bss->bench_slots;
		bench_total(env, "gets", slots_sum(slots, SLOT_HITS));
		bench_total(env, "important_gets", slots_extra_sum(slots, LS_SLOT_IMPORTANT));
		bench_total(env, "created", slots_extra_sum(slots, LS_SLOT_CREATED));
		bench_total(env, "missed", slots_extra_sum(slots, LS_SLOT_MISSED));
		bench_total(env, "wrong", slots_extra_sum(slots, LS_SLOT_WRONG));
	}
	for (i = 0; i < s->nr_inner; i++)
		close(s->inner[i]);
	free(s->inner);
	BENCH_SKEL_TEARDOWN(env, NULL, s->skel);
}

/*
 * Upstream's Summary, which run_bench_local_storage.sh reads: hits
 * latency is 1000 over the mean rate, the spreads standard deviations.
 */
static void cache_lines(const struct report_view *v, char *buf, size_t len)
{
	int h = report_metric(v, "hits"), i = report_metric(v, "important_hits");

	if (h < 0 || i < 0 || report_mean(v, h) <= 0)
		return;
	snprintf(buf, len, "Summary: hits throughput %8.3lf \u00b1 %5.3lf M ops/s, "
		 "hits latency %8.3lf ns/op, important_hits throughput %8.3lf \u00b1 %5.3lf M ops/s\n",
		 report_mean(v, h), report_spread(v, h), 1000.0 / report_mean(v, h),
		 report_mean(v, i), report_spread(v, i));
}

#define CACHE_BENCH(id, name_, hm, il, sum)							\
	static const struct bench bench_##id = {						\
		.name = name_,									\
		.summary = sum,									\
		.family = "local-storage",							\
		.variant = &(const struct cache_variant){ .hashmap = hm, .interleave = il },	\
		.opts = cache_opts,								\
		.args_size = sizeof(struct cache_args),						\
		.metrics = cache_metrics,							\
		.nr_metrics = NR_CACHE_METRICS,							\
		.flags = BENCH_F_ONE_PRODUCER,							\
		.validate = cache_validate,							\
		.setup = cache_setup,								\
		.measure = cache_measure,							\
		.teardown = cache_teardown,							\
		.report = { REPORT_OPS, .lines = cache_lines },					\
	};
CACHE_BENCH(ls_seq_get, "local-storage-cache-seq-get", false, false,
	    "task storage gets through --nr_maps maps in order (the storage cache's cliff)")
CACHE_BENCH(ls_int_get, "local-storage-cache-int-get", false, true,
	    "as seq-get, with a get of map 0 after every third map (important_hits)")
CACHE_BENCH(ls_hashmap_control, "local-storage-cache-hashmap-control", true, false,
	    "the control: random lookups in --nr_maps hash maps of 4194304 keys")

/* run_bench_local_storage.sh's table */
#define HM_STEP(n)	{ NULL, "hashmap-control keys " #n,					\
			  "--nr_maps 1 --hashmap_nr_keys_used=" #n " local-storage-cache-hashmap-control" }
#define LS_STEPS(n)	{ NULL, "seq-get maps " #n, "--nr_maps " #n " local-storage-cache-seq-get" }, \
			{ NULL, "int-get maps " #n, "--nr_maps " #n " local-storage-cache-int-get" }
static const struct suite_step cache_steps[] = {
	{ "Hashmap Control", "hashmap-control keys 10",
	  "--nr_maps 1 --hashmap_nr_keys_used=10 local-storage-cache-hashmap-control" },
	HM_STEP(1000), HM_STEP(10000), HM_STEP(100000), HM_STEP(4194304),
	{ "Local Storage", "seq-get maps 1", "--nr_maps 1 local-storage-cache-seq-get" },
	{ NULL, "int-get maps 1", "--nr_maps 1 local-storage-cache-int-get" },
	LS_STEPS(10), LS_STEPS(16), LS_STEPS(17), LS_STEPS(24), LS_STEPS(32), LS_STEPS(100),
	LS_STEPS(1000),
	{ NULL },
};

static const struct suite_step cache_quick[] = {
	{ "local-storage", "hashmap-control keys 1000",
	  "--nr_maps 1 local-storage-cache-hashmap-control -w0 -d1" },
	{ NULL },
};

static const struct suite suite_local_storage = {
	.name = "local-storage",
	.summary = "task storage gets by --nr_maps, the hash map control by keys used, hits M/s "
		   "(run_bench_local_storage.sh)",
	.steps = cache_steps,
	.quick = cache_quick,
};

const struct family family_local_storage = {
	.name = "local-storage",
	.summary = "task storage gets through many maps vs a hash map's, storage creation "
		   "(the kernel bench's local-storage-*)",
	.benchs = (const struct bench *const []){
		&bench_ls_seq_get,
		&bench_ls_int_get,
		&bench_ls_hashmap_control,
		&bench_local_storage_create,
		&bench_local_storage_tasks_trace,
		NULL,
	},
	.suites = (const struct suite *const []){ &suite_local_storage, NULL },
	/* the control at its default 1000 maps does not fit: the quick step above runs it */
	.quick = (const char *const []){ "local-storage-cache-seq-get", "local-storage-cache-int-get",
					 "local-storage-create", NULL },
};
