// SPDX-License-Identifier: GPL-2.0
/*
 * bpf-hashmap-lookup: lookups per second of a hash map, by key size,
 * flags and fill, with upstream's options, defaults and ranges.  A run
 * makes nr_loops / nr_entries passes over the nr_entries keys inserted;
 * upstream counts nr_loops events a run whatever the division left, and
 * so do we (the figure is its).
 */
#include <endian.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include "bench.h"
#include "bpf_hashmap.h"
#include "bpf_hashmap_int.h"
#include "hashmap_lookup.skel.h"

#define HM_MAX_LOOPS	(1u << 23)	/* the kernel's BPF_MAX_LOOPS: bpf_loop()'s bound */
#define KEY_PATTERN	2654435761u	/* upstream's: word i of a key is i times this */

struct lookup_args {
	uint64_t key_size, map_flags, max_entries, nr_entries, nr_loops;
};

#define ARG(f)	OPT_OFF(struct lookup_args, f)
static const struct opt_def lookup_opts[] = {
	{ "key_size", 0, OPT_UINT, ARG(key_size), "4", 1, HM_MAX_KEY, NULL, "B",
	  "the hash map's key size in bytes", OPT_F_DEFINES },
	{ "map_flags", 0, OPT_UINT, ARG(map_flags), "0", 0, UINT32_MAX, NULL, "FLAGS",
	  "the map flags passed to BPF_MAP_CREATE (0x1: BPF_F_NO_PREALLOC)", OPT_F_DEFINES },
	{ "max_entries", 0, OPT_UINT, ARG(max_entries), "1000", 1, UINT32_MAX, NULL, "N",
	  "the hash map's max_entries", OPT_F_DEFINES },
	{ "nr_entries", 0, OPT_UINT, ARG(nr_entries), "500", 1, UINT32_MAX, NULL, "N",
	  "keys inserted, then looked up in turn (at most max_entries)", OPT_F_DEFINES },
	{ "nr_loops", 0, OPT_UINT, ARG(nr_loops), "1000000", 1, HM_MAX_LOOPS, NULL, "N",
	  "lookups per program run (at least nr_entries)" },
	{ NULL },
};
#undef ARG

static const struct metric_def lookup_metrics[HM_NR_METRICS] =
	HM_METRICS("lookup", "lookups", "misses");

static int lookup_validate(struct bench_env *env)
{
	const struct lookup_args *a = env->args;

	if (a->nr_entries > a->max_entries) {
		errmsg("--nr_entries %llu is more than --max_entries %llu",
		       (unsigned long long)a->nr_entries, (unsigned long long)a->max_entries);
		return -EINVAL;
	}
	/* upstream would run no lookup and still count nr_loops of them */
	if (a->nr_loops < a->nr_entries) {
		errmsg("--nr_loops %llu is less than one pass over --nr_entries %llu",
		       (unsigned long long)a->nr_loops, (unsigned long long)a->nr_entries);
		return -EINVAL;
	}
	return 0;
}

/* Key i: i + 1 in its first word, little-endian, then the pattern (set before load). */
static void patch_key(__u32 *key, uint64_t i)
{
	key[0] = htole32((__u32)(i + 1));
}

/* Which part the kernel refused, and with what options: the map, or the program. */
static int load_failed(struct bench_env *env, struct hashmap_lookup_bpf *skel, int err)
{
	const struct lookup_args *a = env->args;

	if (err == -EOPNOTSUPP || bpf_map__fd(skel->maps.hash_map_bench) >= 0)
		return err;	/* the trigger's (said), or the program's (libbpf said) */
	errmsg("%s: the kernel refuses a hash map of key_size %llu, max_entries %llu, "
	       "map_flags 0x%llx: %s", env->bench->name, (unsigned long long)a->key_size,
	       (unsigned long long)a->max_entries, (unsigned long long)a->map_flags,
	       strerror(-err));
	return err;
}

static int fill(struct bench_env *env, struct hashmap_lookup_bpf *skel)
{
	const struct lookup_args *a = env->args;
	int fd = bpf_map__fd(skel->maps.hash_map_bench);
	__u32 key[HM_MAX_KEY / 4];
	uint64_t i;
	__u64 val;

	memcpy(key, skel->bss->key, sizeof(key));
	for (i = 0; i < a->nr_entries; i++) {
		patch_key(key, i);
		val = i;
		if (bpf_map_update_elem(fd, key, &val, BPF_ANY)) {
			int err = -errno;

			errmsg("%s: cannot insert key %llu of %llu: %s", env->bench->name,
			       (unsigned long long)i + 1, (unsigned long long)a->nr_entries,
			       strerror(-err));
			return err;
		}
	}
	return 0;
}

static int lookup_setup(struct bench_env *env)
{
	const struct lookup_args *a = env->args;
	struct hm_state *s = calloc(1, sizeof(*s));
	struct hashmap_lookup_bpf *skel;
	struct bpf_map *map;
	unsigned int i;
	int err;

	if (!s)
		return -ENOMEM;
	env->priv = s;
	skel = hashmap_lookup_bpf__open();
	if (!skel)
		return -errno;
	s->skel = skel;
	s->obj = skel->skeleton;
	map = skel->maps.hash_map_bench;
	err = bpf_map__set_key_size(map, a->key_size) ?:
	      bpf_map__set_value_size(map, sizeof(__u64)) ?:
	      bpf_map__set_max_entries(map, a->max_entries) ?:
	      bpf_map__set_map_flags(map, a->map_flags);
	if (err)
		return err;
	skel->rodata->nr_entries = a->nr_entries;
	skel->rodata->nr_outer = a->nr_loops / a->nr_entries;
	for (i = 1; i < a->key_size / 4; i++)
		skel->bss->key[i] = KEY_PATTERN * i;
	err = bench_skel_load(env, &(struct bench_skel){
		BENCH_SKEL_BASE(skel),
		.progs = {
			.test_run = skel->progs.hashmap_lookup_test_run,
			.raw_tp = skel->progs.hashmap_lookup_raw_tp,
			.fentry = skel->progs.hashmap_lookup_fentry,
		},
	}, 0, NULL, NULL);
	if (err)
		return load_failed(env, skel, err);
	err = fill(env, skel) ?: hm_state_init(env, s, skel->bss->bench_slots, a->nr_loops);
	if (err)
		return err;
	/* a run is nr_loops lookups (a million by default): one a syscall */
	bench_trigger_single(env);
	return trigger_attach(&env->trig);
}

const struct bench bench_bpf_hashmap_lookup = {
	.name = "bpf-hashmap-lookup",
	.summary = "hash map lookups per second, per CPU, by key size, flags and fill",
	.family = "bpf-hashmap",
	.opts = lookup_opts,
	.args_size = sizeof(struct lookup_args),
	.metrics = lookup_metrics,
	.nr_metrics = HM_NR_METRICS,
	.validate = lookup_validate,
	.setup = lookup_setup,
	.measure = hm_measure,
	.teardown = hm_teardown,
	.report = { REPORT_OPS, .lines = hm_lookup_lines },
};

/*
 * The figure of the patch that made lookups of keys of a multiple of 4
 * bytes faster: lookups by key size, at upstream's defaults otherwise.
 */
#define KS(n)	{ NULL, "key_size " #n, "bpf-hashmap-lookup -a --key_size " #n }
static const struct suite_step lookup_steps[] = {
	{ "bpf-hashmap-lookup, key_size sweep", "key_size 4",
	  "bpf-hashmap-lookup -a --key_size 4" },
	KS(8), KS(12), KS(16), KS(20), KS(24), KS(28), KS(32), KS(36), KS(40), KS(44), KS(48),
	KS(52), KS(56), KS(60), KS(64),
	{ NULL },
};
#undef KS

static const struct suite_step lookup_quick[] = {
	{ "bpf-hashmap-lookup, key_size sweep", "bpf-hashmap-lookup key_size 64",
	  "bpf-hashmap-lookup -w0 -d1 --key_size 64" },
	{ NULL },
};

const struct suite suite_bpf_hashmap_lookup = {
	.name = "bpf-hashmap-lookup",
	.summary = "hash map lookups per second by key size, 4 ... 64 bytes",
	.steps = lookup_steps,
	.quick = lookup_quick,
};
