// SPDX-License-Identifier: GPL-2.0
/*
 * map-batch: BPF_MAP_{UPDATE,LOOKUP,LOOKUP_AND_DELETE,DELETE}_BATCH
 * against the one-element syscalls doing the same work, as test_maps'
 * map_batch_perf measures them.
 *
 * One sample is one pass: for every requested op, every batch size and
 * then the one-by-one baseline move all max_entries elements through the
 * real kernel map.  Only the syscall loop is timed; results land in an
 * array of max_entries slots and are checked after the clock stops:
 * exactly max_entries elements, each key once, each value as written.
 * A wrong count is a failure (exit 1), never a figure.  A census program
 * walks the map inside the kernel after every fill and every emptying.
 *
 * This file: options, the figures they call for, setup and teardown.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "mb.h"
#include "map_batch.h"
#include "map_batch.skel.h"

/*
 * The common LRU hands each CPU up to 128 free nodes at a time and
 * evicts to make up a short refill: a full LRU of exactly N holds fewer
 * than N.  One refill of headroom per CPU plus one keeps every element.
 */
#define LRU_LOCAL_FREE_TARGET	128

const char *const mb_op_names[NR_OPS] = {
	"update", "lookup", "lookup_and_delete", "delete",
};

const char *const mb_kind_names[] = {
	"hash", "percpu_hash", "lru_hash", "array", "percpu_array", NULL,
};

static const enum bpf_map_type map_kind_types[] = {
	BPF_MAP_TYPE_HASH, BPF_MAP_TYPE_PERCPU_HASH, BPF_MAP_TYPE_LRU_HASH,
	BPF_MAP_TYPE_ARRAY, BPF_MAP_TYPE_PERCPU_ARRAY,
};

#define ARG(field)	OPT_OFF(struct map_batch_args, field)

static const struct opt_def map_batch_opts[] = {
	{ "map-type", 0, OPT_CHOICE, ARG(map_kind), "hash", 0, 0, mb_kind_names, "TYPE",
	  "map under test", OPT_F_DEFINES },
	{ "max_entries", 0, OPT_UINT, ARG(max_entries), "100000", 1, MB_MAX_ENTRIES, NULL, "N",
	  "elements: the map holds N and every pass moves all N", OPT_F_DEFINES },
	{ "batch", 0, OPT_UINT_LIST, ARG(batches), "10,1000,1000000", 1, MB_MAX_ENTRIES, NULL,
	  "LIST", "batch sizes, elements per syscall (at most 8 sizes)", OPT_F_DEFINES },
	{ "key-size", 0, OPT_UINT, ARG(key_size), "4", 4, MB_MAX_KEY, NULL, "B",
	  "key bytes (arrays: 4)", OPT_F_DEFINES },
	{ "value-size", 0, OPT_UINT, ARG(value_size), "4", 4, MB_MAX_VALUE, NULL, "B",
	  "value bytes (per CPU for per-CPU maps)", OPT_F_DEFINES },
	{ "no-prealloc", 0, OPT_FLAG, ARG(no_prealloc), NULL, 0, 0, NULL, NULL,
	  "BPF_F_NO_PREALLOC (hash and percpu_hash only)" },
	{ "op", 0, OPT_STRING, ARG(op_text), "update,lookup,lookup_and_delete,delete", 0, 0, NULL,
	  "LIST", "ops to measure, in this order: update,lookup,lookup_and_delete,delete" },
	{ NULL },
};

bool mb_is_array(const struct map_batch_args *a)
{
	return a->map_kind == MT_ARRAY || a->map_kind == MT_PERCPU_ARRAY;
}

bool mb_is_percpu(const struct map_batch_args *a)
{
	return a->map_kind == MT_PERCPU_HASH || a->map_kind == MT_PERCPU_ARRAY;
}

uint32_t mb_way_batch(const struct map_batch_args *a, int j)
{
	return j < a->batches.n ? (uint32_t)a->batches.v[j] : 0;
}

/* Arrays' elements cannot be deleted: the kernel has no delete for them, batched or not. */
static bool kind_lacks(const struct map_batch_args *a, enum mb_op op)
{
	return mb_is_array(a) && (op == OP_DELETE || op == OP_LOOKUP_AND_DELETE);
}

static int find_op(const char *name)
{
	int i;

	for (i = 0; i < NR_OPS; i++)
		if (!strcmp(name, mb_op_names[i]))
			return i;
	return -1;
}

int mb_parse_ops(const struct map_batch_args *a, struct mb_plan *p)
{
	char buf[128], *tok, *save = NULL;
	bool seen[NR_OPS] = { false }, any = false;
	int op;

	if (strlen(a->op_text) >= sizeof(buf)) {
		errmsg("--op: '%s' is too long", a->op_text);
		return -EINVAL;
	}
	strcpy(buf, a->op_text);
	memset(p->lacking, 0, sizeof(p->lacking));
	p->nr_ops = 0;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		op = find_op(tok);
		if (op < 0) {
			errmsg("--op: '%s' is not one of update|lookup|lookup_and_delete|delete", tok);
			return -EINVAL;
		}
		if (seen[op]) {
			errmsg("--op: '%s' is given twice", tok);
			return -EINVAL;
		}
		seen[op] = any = true;
		p->lacking[op] = kind_lacks(a, op);
		if (!p->lacking[op])
			p->op_order[p->nr_ops++] = op;
	}
	if (!any) {
		errmsg("--op: '%s' names no op", a->op_text);
		return -EINVAL;
	}
	return 0;
}

static int check_combinations(const struct map_batch_args *a)
{
	int i, j;

	if (mb_is_array(a) && a->key_size != 4) {
		errmsg("--key-size: %s maps have 4-byte keys (the index), not %llu",
		       mb_kind_names[a->map_kind], (unsigned long long)a->key_size);
		return -EINVAL;
	}
	if (a->no_prealloc && a->map_kind != MT_HASH && a->map_kind != MT_PERCPU_HASH) {
		errmsg("--no-prealloc: %s maps are always preallocated", mb_kind_names[a->map_kind]);
		return -EINVAL;
	}
	if (a->batches.n > MB_MAX_BATCHES) {
		errmsg("--batch: %d sizes, at most %d", a->batches.n, MB_MAX_BATCHES);
		return -EINVAL;
	}
	for (i = 0; i < a->batches.n; i++)
		for (j = 0; j < i; j++)
			if (a->batches.v[i] == a->batches.v[j]) {
				errmsg("--batch: %llu is given twice",
				       (unsigned long long)a->batches.v[i]);
				return -EINVAL;
			}
	return 0;
}

/* ---- the figures: one walk names them, to add them (validate, setup) or find them (reporters) ---- */

typedef int (*metric_fn)(void *ctx, const struct metric_def *def);

struct fig_namer {
	metric_fn fn;
	void *ctx;
	const char *op;
	uint32_t batch;		/* 0: one-by-one */
};

/* A figure of one way of doing an op: a parameter-free name, the op and batch size its key. */
static int fig(const struct fig_namer *f, const char *what, struct metric_def def)
{
	char key[64];

	if (f->batch)
		snprintf(key, sizeof(key), "op=%s,batch=%u", f->op, f->batch);
	else
		snprintf(key, sizeof(key), "op=%s,batch=one-by-one", f->op);
	def.name = what;
	def.key = key;
	return f->fn(f->ctx, &def);
}

static int way_metrics(const struct map_batch_args *a, struct fig_namer *f, struct mb_figs *out)
{
	out->ms = fig(f, "time", (struct metric_def){ .unit = "ms", .kind = METRIC_TIME });
	if (out->ms < 0)
		return -ENOENT;
	/* ms for max_entries elements -> M elements/s: an op is one element moved */
	out->rate = fig(f, "rate", (struct metric_def){ .unit = "M ops/s", .kind = METRIC_INVERSE,
				.base = out->ms, .scale = a->max_entries / 1000.0 });
	out->speedup = !f->batch ? -1 :
		fig(f, "speedup", (struct metric_def){ .unit = "x one-by-one", .kind = METRIC_RATIO });
	out->calls = fig(f, "calls", (struct metric_def){ .unit = "calls/pass", .kind = METRIC_COUNT });
	return out->rate < 0 || (f->batch && out->speedup < 0) || out->calls < 0 ? -ENOENT : 0;
}

/* Per op: every batch size's ms, rate, speed-up and calls, then one-by-one's; then the counts. */
static int plan_metrics(const struct map_batch_args *a, struct mb_plan *p, metric_fn fn, void *ctx)
{
	static const struct metric_def retries = {
		"enospc_retries", "retries/pass", METRIC_COUNT, .better = BETTER_LOWER,
	};
	static const struct metric_def checked = { "elements_checked", "elems/pass", METRIC_COUNT };
	struct fig_namer f = { .fn = fn, .ctx = ctx };
	int i, j, op;

	p->nr_ways = a->batches.n + 1;
	for (i = 0; i < p->nr_ops; i++) {
		op = p->op_order[i];
		f.op = mb_op_names[op];
		for (j = 0; j < p->nr_ways; j++) {
			f.batch = mb_way_batch(a, j);
			if (way_metrics(a, &f, &p->figs[op][j]))
				return -ENOENT;
		}
	}
	p->retries = fn(ctx, &retries);
	p->checked = fn(ctx, &checked);
	return p->retries < 0 || p->checked < 0 ? -ENOENT : 0;
}

static int add_fn(void *ctx, const struct metric_def *def)
{
	return bench_add_metric(ctx, def);
}


static int map_batch_validate(struct bench_env *env)
{
	const struct map_batch_args *a = env->args;
	struct mb_plan plan;
	int err = mb_parse_ops(a, &plan);

	if (!err)
		err = check_combinations(a);
	if (!err)
		plan_metrics(a, &plan, add_fn, env);
	return err;
}

/* ---- setup and teardown ---- */

/* Asks the kernel with a zero count, which changes nothing where the op exists. */
static int probe_op(struct mb_state *s, enum mb_op op)
{
	uint32_t cnt = 0;

	switch (op) {
	case OP_UPDATE:
		return bpf_map_update_batch(s->map_fd, s->src.keys, s->src.vals, &cnt, NULL);
	case OP_LOOKUP:
		return bpf_map_lookup_batch(s->map_fd, NULL, s->cursor_out, s->out.keys,
					    s->out.vals, &cnt, NULL);
	case OP_LOOKUP_AND_DELETE:
		return bpf_map_lookup_and_delete_batch(s->map_fd, NULL, s->cursor_out, s->out.keys,
						       s->out.vals, &cnt, NULL);
	default:
		return bpf_map_delete_batch(s->map_fd, s->src.keys, &cnt, NULL);
	}
}

/*
 * A note per op the map type lacks, with the kernel's answers to the
 * batched op and to a single delete; -EOPNOTSUPP if nothing is left.
 */
static int note_lacking_ops(struct mb_state *s)
{
	const char *kind = mb_kind_names[s->a->map_kind];
	int op, batched, single;

	for (op = 0; op < NR_OPS; op++) {
		if (!s->plan.lacking[op])
			continue;
		batched = probe_op(s, op);
		single = bpf_map_delete_elem(s->map_fd, s->src.keys);
		bench_note(s->env, "%s skipped: %s maps have none (the kernel answers %s batched, "
			   "%s one-by-one)", mb_op_names[op], kind,
			   batched ? errname(batched) : "success",
			   single ? errname(single) : "success");
	}
	if (s->plan.nr_ops)
		return 0;
	skipmsg("map-batch: no requested op exists for %s maps", kind);
	return -EOPNOTSUPP;
}

/* Every op we measure must exist in this kernel; a missing one is a SKIP of the run. */
static int probe_ops(struct mb_state *s)
{
	int i, op, err;

	for (i = 0; i < s->plan.nr_ops; i++) {
		op = s->plan.op_order[i];
		err = probe_op(s, op);
		if (err == -ENOTSUPP || err == -EOPNOTSUPP || err == -EINVAL) {
			skipmsg("map-batch: this kernel has no batched %s for %s maps (%s)",
			       mb_op_names[op], mb_kind_names[s->a->map_kind], errname(err));
			return -EOPNOTSUPP;
		}
		if (err)
			return err;
	}
	return 0;
}

static uint32_t map_capacity(const struct mb_state *s)
{
	uint32_t extra;

	if (s->a->map_kind != MT_LRU_HASH)
		return s->n;
	extra = (libbpf_num_possible_cpus() + 1) * LRU_LOCAL_FREE_TARGET;
	bench_note(s->env, "lru_hash created with room for %u + %u elements: its per-CPU free "
		   "lists would evict some of a full %u", s->n, extra, s->n);
	return s->n + extra;
}

static int load_map(struct mb_state *s)
{
	const struct map_batch_args *a = s->a;
	struct bpf_map *map;
	int err;

	s->skel = map_batch_bpf__open();
	if (!s->skel)
		return -errno;
	map = s->skel->maps.batch_map;
	s->skel->rodata->nr_elems = s->n;
	s->skel->rodata->key_is_index = mb_is_array(a);
	s->skel->rodata->value_per_cpu = mb_is_percpu(a);
	err = bpf_map__set_type(map, map_kind_types[a->map_kind]);
	if (!err)
		err = bpf_map__set_key_size(map, s->ksz);
	if (!err)
		err = bpf_map__set_value_size(map, a->value_size);
	if (!err)
		err = bpf_map__set_max_entries(map, map_capacity(s));
	if (!err)
		err = bpf_map__set_map_flags(map, a->no_prealloc ? BPF_F_NO_PREALLOC : 0);
	if (!err)
		err = map_batch_bpf__load(s->skel);
	if (err)
		return err;
	s->map_fd = bpf_map__fd(map);
	s->census_fd = bpf_program__fd(s->skel->progs.take_census);
	return 0;
}

/*
 * Our copies (what update writes, what lookups return) and the map itself
 * must fit in memory: an overcommitted allocation would end in the OOM
 * killer, not in an error message.
 */
static int check_memory(const struct mb_state *s)
{
	double elem = s->ksz + s->vsz, need = (2.0 * s->n + 1) * elem + s->n * (elem + 64.0);
	uint64_t avail = mem_available();

	if (!avail || need < avail * 0.9)
		return 0;
	errmsg("map-batch: %u elements of %.0f bytes need about %.0f MB (our buffers and the map), "
	       "%.0f MB available", s->n, elem, need / 1e6, avail / 1e6);
	return -ENOMEM;
}

static int init_sizes(struct mb_state *s)
{
	const struct map_batch_args *a = s->a;

	s->n = a->max_entries;
	s->ksz = a->key_size;
	s->cursz = s->ksz > 8 ? s->ksz : 8;
	s->nr_copies = mb_is_percpu(a) ? libbpf_num_possible_cpus() : 1;
	if (s->nr_copies < 1)
		return s->nr_copies ? s->nr_copies : -EINVAL;
	/* per-CPU values travel in 8-byte slots, one per possible CPU */
	s->vstride = mb_is_percpu(a) ? (a->value_size + 7) / 8 * 8 : a->value_size;
	s->vsz = s->vstride * s->nr_copies;
	return 0;
}

static int map_batch_setup(struct bench_env *env)
{
	struct mb_state *s = calloc(1, sizeof(*s));
	int err;

	if (!s)
		return -ENOMEM;
	env->priv = s;
	env->trig.kind = TRIG_NONE;
	s->env = env;
	s->a = env->args;
	/* validate added them: this finds their indices again */
	err = mb_parse_ops(s->a, &s->plan);
	if (!err)
		err = plan_metrics(s->a, &s->plan, add_fn, env);
	if (!err)
		err = init_sizes(s);
	if (!err)
		err = check_memory(s);
	if (!err)
		err = mb_alloc_elements(s);
	if (!err)
		err = load_map(s);
	if (err)
		return err;
	s->fill = MAP_EMPTY;	/* new hashes are empty, new arrays all zero */
	err = note_lacking_ops(s);
	return err ? err : probe_ops(s);
}

static void map_batch_teardown(struct bench_env *env)
{
	struct mb_state *s = env->priv;

	if (!s)
		return;
	if (s->all_retries)
		bench_note(env, "ENOSPC: a bucket outgrew the batch buffer %.1f times per pass (the "
			   "buffer grown, the call retried)", (double)s->all_retries / s->passes);
	map_batch_bpf__destroy(s->skel);
	mb_free_elements(s);
	free(s);
	env->priv = NULL;
}

/* The census of a pass is an XDP program's test run (elems.c): CAP_NET_ADMIN. */
static const enum probe_id map_batch_requires[] = { PROBE_PROG_XDP, PROBE__COUNT };

const struct bench bench_map_batch = {
	.name = "map-batch",
	.summary = "batched map syscalls (update/lookup/lookup_and_delete/delete) vs one-by-one",
	.family = "map-batch",
	.opts = map_batch_opts,
	.args_size = sizeof(struct map_batch_args),
	.requires = map_batch_requires,
	.flags = BENCH_F_ONESHOT | BENCH_F_NO_THREADS | BENCH_F_NO_TRIGGER,
	.validate = map_batch_validate,
	.setup = map_batch_setup,
	.run_once = mb_run_once,
	.report = { REPORT_TABLE },
	.teardown = map_batch_teardown,
};

/* test_maps' map_batch_perf: a 1M-element hash of int keys and values. */
#define SEED_ARGS "map-batch --map-type hash --max_entries 1000000 --batch 10,1000,1000000"

static const struct suite_step map_batch_steps[] = {
	{ "map_batch_perf: hash, 1M int keys and values, times in ms", "measure_lookup",
	  SEED_ARGS " --op lookup" },
	{ NULL, "measure_lookup_delete", SEED_ARGS " --op lookup_and_delete" },
	{ NULL, "measure_delete", SEED_ARGS " --op delete" },
	{ NULL, "measure_update", SEED_ARGS " --op update" },
	{ NULL },
};

const struct suite suite_map_batch = {
	.name = "map-batch",
	.seed = true,
	.summary = "batched vs one-by-one lookup, lookup_and_delete, delete, update on a 1M hash",
	.steps = map_batch_steps,
};

const struct family family_map_batch = {
	.name = "map-batch",
	.summary = "batched vs one-by-one map syscalls",
	.benchs = (const struct bench *const []){
		&bench_map_batch,
		NULL,
	},
	.suites = (const struct suite *const []){ &suite_map_batch, NULL },
};
