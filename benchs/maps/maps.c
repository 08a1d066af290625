// SPDX-License-Identifier: GPL-2.0
/*
 * maps: every map type's ops measured the same way.
 *
 * map-lookup, map-update, map-delete (keyed types), map-push, map-pop
 * (queue, stack) time one op kind; map-ops times each op of the type in
 * turn, one figure per op: a row of the matrix.  Ops run in a BPF
 * program, MAPS_CHUNK of them between two clock reads, so latency is
 * kernel time per op; throughput is ops over all producers per wall
 * second of the passes (what the kernel's bench calls hits/s).  Every
 * op's result is checked against what the map must hold (engine.c).
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "mp.h"


#define OFF(f)	OPT_OFF(struct maps_args, f)

/* What every maps benchmark takes beside --map_type. */
#define MAPS_OPTS							\
	{ "key_size", 0, OPT_UINT, OFF(key_size), "4", 4, 256, NULL, "BYTES",	\
	  "key size (lpm_trie: data after the 4-byte prefix length)",	\
	  OPT_F_DEFINES },	\
	{ "value_size", 0, OPT_UINT, OFF(value_size), "8", 8, MAPS_VALUE_MAX,	\
	  NULL, "BYTES", "value size", OPT_F_DEFINES },					\
	{ "max_entries", 0, OPT_UINT, OFF(max_entries), "10000", 1,		\
	  MP_MAX_ENTRIES, NULL, "N", "the map's max_entries", OPT_F_DEFINES },		\
	{ "fill", 0, OPT_UINT, OFF(fill), "100", 1, 100, NULL, "PCT",		\
	  "how full the map is when an op starts: keys [0, max_entries * "	\
	  "PCT / 100); common LRU maps: at most max_entries in whole 128s" },	\
	{ "nr_entries", 0, OPT_UINT, OFF(nr_entries), NULL, 0,			\
	  2ull * MP_MAX_ENTRIES, NULL, "N", "instead of --fill: keys [0, N); "	\
	  "above max_entries for map-update of LRU maps (they evict)" },	\
	{ "hit", 0, OPT_UINT, OFF(hit), "100", 0, 100, NULL, "PCT",		\
	  "lookups: share that target keys the map holds (the others: keys "	\
	  "never inserted)" },							\
	{ "no_prealloc", 0, OPT_FLAG, OFF(no_prealloc), NULL, 0, 0, NULL, NULL,	\
	  "BPF_F_NO_PREALLOC (hash, percpu_hash): elements allocated as "	\
	  "they are inserted" },						\
	{ "latency", 0, OPT_FLAG, OFF(latency), NULL, 0, 0, NULL, NULL,	\
	  "also put the timed chunks of 1000 ops into a histogram per op: "	\
	  "per-op distribution (Latency line)" },				\
	{ "latency-every", 0, OPT_UINT, OFF(latency_every), MP_HIST_EVERY_STR,	\
	  1, 1u << 20, NULL, "N", "--latency records one timed chunk in N "	\
	  "on each CPU" }

static const struct opt_def maps_opts[] = {
	{ "map_type", 0, OPT_CHOICE, OFF(map_type), "hash", 0, 0, mp_type_names, "TYPE",
	  "the map type (_no_common: BPF_F_NO_COMMON_LRU, an LRU list per CPU)", OPT_F_DEFINES },
	MAPS_OPTS,
	{ "map_type_nr", 0, OPT_UINT, OFF(map_type_nr), NULL, 0, UINT32_MAX, NULL, "N",
	  "instead of --map_type: BPF_MAP_TYPE_* number N, used as a hash map (a type newer "
	  "than bpfbench); a SKIP where the kernel has no such type" },
	{ NULL },
};

/* map-push and map-pop: a queue unless told otherwise. */
static const struct opt_def queue_opts[] = {
	{ "map_type", 0, OPT_CHOICE, OFF(map_type), "queue", 0, 0, mp_type_names, "TYPE",
	  "the map type: queue or stack", OPT_F_DEFINES },
	MAPS_OPTS,
	{ NULL },
};

static const struct metric_def op_metrics[] = {
	{ "throughput", "M ops/s", METRIC_RATE, .prod_unit = "M ops" },
	{ "latency", "ns/op", METRIC_TIME },
	/* the raw counts the two figures come from */
	{ "ops", "ops", METRIC_COUNT },
	{ "kernel_ns", "ns", METRIC_COUNT },
	{ "pass_ns", "ns", METRIC_COUNT },
};

static const enum probe_id maps_requires[] = {
	PROBE_TRIG_TEST_RUN, PROBE_HELPER_BPF_LOOP, PROBE__COUNT
};

static int usage(const struct bench_env *env, const char *fmt, const char *a, const char *b)
{
	char msg[200];

	snprintf(msg, sizeof(msg), fmt, a, b);
	errmsg("%s: %s", env->bench->name, msg);
	return -EINVAL;
}

static const struct mp_type *resolve_type(const struct maps_args *a, struct mp_conf *c)
{
	if (!a->map_type_nr)
		return &mp_types[a->map_type];
	snprintf(c->raw_name, sizeof(c->raw_name), "number %llu", (unsigned long long)a->map_type_nr);
	c->raw = (struct mp_type){ .name = c->raw_name, .type = (uint32_t)a->map_type_nr,
				   .cls = MP_HASH, .prealloc_optional = true, .probe = MP_OWN_PROBE };
	return &c->raw;
}

static int resolve_ops(const struct bench_env *env, struct mp_conf *c)
{
	const struct mp_variant *v = env->bench->variant;
	const enum mp_op *ops = mp_queued(c) ? v->queued : v->keyed;
	int i, n = mp_queued(c) ? v->nr_queued : v->nr_keyed;

	if (!n)
		return usage(env, mp_queued(c) ? "a %s has no keys: use map-push, map-pop or map-ops%s" :
			     "%s maps have keys: use map-lookup, map-update, map-delete or map-ops%s",
			     c->t->name, "");
	for (i = 0, c->nr_ops = 0; i < n; i++)
		if (!(ops[i] == MP_DELETE && c->t->cls == MP_ARRAY))
			c->ops[c->nr_ops++] = ops[i];
	if (!c->nr_ops)
		return usage(env, "%s elements cannot be deleted%s", c->t->name, "");
	return 0;
}

static bool has_op(const struct mp_conf *c, enum mp_op op)
{
	int i;

	for (i = 0; i < c->nr_ops; i++)
		if (c->ops[i] == op)
			return true;
	return false;
}

static int resolve_sizes(const struct bench_env *env, const struct maps_args *a,
			 struct mp_conf *c)
{
	bool queued = mp_queued(c);

	if ((queued || c->t->cls == MP_ARRAY) && a->key_size != 4)
		return usage(env, "--key_size: %s %s", c->t->name,
			     queued ? "has no keys" : "keys are 4-byte indexes");
	c->map_key = queued ? 0 : c->t->cls == MP_LPM ? 4 + a->key_size : a->key_size;
	c->value_size = a->value_size;
	c->max_entries = a->max_entries;
	c->flags = c->t->flags;
	if (a->no_prealloc && !c->t->prealloc_optional && c->t->cls != MP_LPM)
		return usage(env, "--no_prealloc: %s maps are always preallocated%s", c->t->name, "");
	if (a->no_prealloc)
		c->flags |= BPF_F_NO_PREALLOC;
	return 0;
}

/* Which keys: [0, n) held when an op starts, updates over [0, range). */
static int resolve_keys(const struct bench_env *env, const struct maps_args *a,
			struct mp_conf *c)
{
	const struct mp_variant *v = env->bench->variant;
	bool lru_update = c->t->lru && !v->multi && has_op(c, MP_UPDATE);

	if (a->nr_entries && a->fill != 100)
		return usage(env, "give --fill or --nr_entries, not both%s%s", "", "");
	c->n = a->nr_entries ? a->nr_entries : a->max_entries * a->fill / 100;
	c->range = c->n;
	if (c->n > a->max_entries && !lru_update)
		return usage(env, "--nr_entries above --max_entries: only map-update of an LRU map "
			     "takes more keys than the map holds%s%s", "", "");
	if (c->n > a->max_entries)
		c->n = a->max_entries;
	if (c->t->lru && !(c->flags & BPF_F_NO_COMMON_LRU) && c->n > mp_lru_full(a->max_entries))
		c->n = mp_lru_full(a->max_entries);
	if (!c->n)
		return usage(env, "--fill: that leaves no key at all (raise --max_entries)%s%s", "",
			     "");
	if (c->t->cls == MP_ARRAY && c->n != a->max_entries)
		return usage(env, "%s maps hold every index: --fill and --nr_entries cannot be lower%s",
			     c->t->name, "");
	c->hit = a->hit;
	if (a->hit != 100 && !has_op(c, MP_LOOKUP))
		return usage(env, "--hit applies to lookups%s%s", "", "");
	return 0;
}

static int resolve(const struct bench_env *env, struct mp_conf *c)
{
	const struct maps_args *a = env->args;
	enum trigger_kind trig = env->opts->trigger;
	int err;

	memset(c, 0, sizeof(*c));
	if (a->map_type_nr && a->map_type)
		return usage(env, "give --map_type or --map_type_nr, not both%s%s", "", "");
	if (trig != TRIG_AUTO && trig != TRIG_TEST_RUN)
		return usage(env, "ops are timed inside test-run programs; --trigger %s does not apply%s",
			     trigger_names[trig], "");
	if (env->nr_producers > MAPS_MAX_PROD) {
		errmsg("%s: at most %d producers", env->bench->name, MAPS_MAX_PROD);
		return -EINVAL;
	}
	c->t = resolve_type(a, c);
	c->nr_prod = env->nr_producers;
	err = resolve_ops(env, c);
	err = err ?: resolve_sizes(env, a, c);
	return err ?: resolve_keys(env, a, c);
}

/* ---- metrics ---- */

static int add_metric(struct bench_env *env, const char *name, const char *unit,
		      enum metric_kind kind)
{
	struct metric_def d = { .name = name, .unit = unit, .kind = kind };

	return bench_add_metric(env, &d);
}

static void add_metrics(struct bench_env *env, const struct mp_conf *c, struct mp_metrics *m)
{
	const struct mp_variant *v = env->bench->variant;
	bool keyed = !mp_queued(c) && c->t->cls != MP_ARRAY;
	char name[48];
	enum mp_op op;

	memset(m, -1, sizeof(*m));
	for (op = 0; v->multi && op < MP__NR; op++)
		if (has_op(c, op))
			m->ns[op] = add_metric(env, mp_op_name(op), "ns/op", METRIC_TIME);
	for (op = 0; v->multi && op < MP__NR; op++) {
		if (!has_op(c, op))
			continue;
		snprintf(name, sizeof(name), "%s_ops", mp_op_name(op));
		m->ops[op] = add_metric(env, name, "ops", METRIC_COUNT);
		snprintf(name, sizeof(name), "%s_kernel_ns", mp_op_name(op));
		m->kns[op] = add_metric(env, name, "ns", METRIC_COUNT);
	}
	if (has_op(c, MP_LOOKUP)) {
		m->hits = add_metric(env, "hits", "lookups", METRIC_COUNT);
		m->misses = add_metric(env, "misses", "lookups", METRIC_COUNT);
	}
	if (!v->multi && (keyed || mp_queued(c)))
		m->elements = add_metric(env, "elements", "elems", METRIC_COUNT);
	mp_hist_metrics(env, c, m);
}

static int maps_validate(struct bench_env *env)
{
	struct mp_conf c;
	struct mp_metrics m;
	int err = resolve(env, &c);

	if (!err)
		add_metrics(env, &c, &m);
	return err;
}

/* ---- setup, a sample, teardown ---- */

static int first_cpu(void)
{
	cpu_set_t set;
	int cpu;

	if (pthread_getaffinity_np(pthread_self(), sizeof(set), &set))
		return 0;
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &set))
			return cpu;
	return 0;
}

/* BPF_F_NO_COMMON_LRU splits the nodes among the possible CPUs: each must take its share. */
static int check_lru_cpus(const struct bench_env *env, const struct mp_conf *c)
{
	int cpus = libbpf_num_possible_cpus(), cpu;

	if (!c->t->lru || !(c->flags & BPF_F_NO_COMMON_LRU))
		return 0;
	for (cpu = 0; cpu < cpus; cpu++) {
		if (cpu_is_online(cpu))
			continue;
		errmsg("%s: skipped: %s gives each of the %d possible CPUs its own share of the "
		       "map; CPU %d is offline, so the map cannot be filled", env->bench->name,
		       c->t->name, cpus, cpu);
		return -EOPNOTSUPP;
	}
	return 0;
}

/* What the figures are: beside each other, a throughput and a latency look like inverses. */
static void explain(struct bench_env *env)
{
	if (((const struct mp_variant *)env->bench->variant)->multi) {
		bench_note(env, "each op's ns/op is kernel time per op, read inside the BPF program "
			   "around each run of %d ops (the test-run syscalls not included)", MAPS_CHUNK);
		return;
	}
	bench_note(env, "latency is kernel time per op, read inside the BPF program around each run "
		   "of %d ops; throughput is the ops of all producers over the wall time of the "
		   "passes, test-run syscalls included: it is not 1000 / latency", MAPS_CHUNK);
}

static int maps_setup(struct bench_env *env)
{
	struct mp_state *s = calloc(1, sizeof(*s));
	int err;

	if (!s)
		return -ENOMEM;
	env->priv = s;
	s->fd = -1;
	s->hist_fd = -1;
	s->opts = env->opts;
	err = resolve(env, &s->c);
	if (err)
		return err;
	add_metrics(env, &s->c, &s->m);
	explain(env);
	err = mp_probe_type(env, &s->c);
	err = err ?: check_lru_cpus(env, &s->c);
	if (err)
		return err;
	err = mp_hist_create(env, s);
	if (err)
		return err;
	s->fill_cpu = first_cpu();
	bench_trigger_own(env, TRIG_TEST_RUN, (MP_ROUND_MIN + MAPS_CHUNK - 1) / MAPS_CHUNK);
	err = mp_load(env, s);
	if (err)
		return err;
	err = mp_pool_start(s);
	/* a thread that could not start: the limit, not a bare errno */
	if (err && s->pool.failed)
		errmsg("%s: cannot start thread %d of %d: %s (limits: ulimit -u, ulimit -v, the "
		       "pids cgroup)", env->bench->name, s->pool.failed + 1, s->c.nr_prod,
		       strerror(-err));
	return err;
}

static double per(uint64_t a, uint64_t b, double scale)
{
	return b ? a * scale / b : 0.0;
}

static int maps_run_once(struct bench_env *env, double *vals)
{
	struct mp_state *s = env->priv;
	const struct mp_metrics *m = &s->m;
	struct mp_acc acc[MP__NR] = { 0 }, *a = &acc[s->c.ops[0]];
	enum mp_op op;
	int err;

	mp_hist_run_begin(env, s);
	err = mp_sample(env, acc);
	if (err)
		return err;
	mp_hist_run_end(env, s, vals);
	if (!((const struct mp_variant *)env->bench->variant)->multi) {
		vals[0] = per(a->ops, a->wall, 1e3);
		vals[1] = per(a->ns, a->ops, 1);
		vals[2] = a->ops;
		vals[3] = a->ns;
		vals[4] = a->wall;
	}
	for (op = 0; op < MP__NR; op++) {
		if (m->ns[op] >= 0) {
			vals[m->ns[op]] = per(acc[op].ns, acc[op].ops, 1);
			vals[m->ops[op]] = acc[op].ops;
			vals[m->kns[op]] = acc[op].ns;
		}
	}
	if (m->hits >= 0) {
		vals[m->hits] = acc[MP_LOOKUP].hits;
		vals[m->misses] = acc[MP_LOOKUP].misses;
	}
	if (m->elements >= 0)
		vals[m->elements] = a->elements;
	return 0;
}

static void maps_teardown(struct bench_env *env)
{
	struct mp_state *s = env->priv;

	if (!s)
		return;
	mp_pool_stop(s);
	mp_hist_close(env, s);
	if (s->skel)
		mp_unload(s);
	free(s);
	env->priv = NULL;
}

/* ---- the table entries ---- */

static const struct mp_variant v_lookup = { 1, { MP_LOOKUP } };
static const struct mp_variant v_update = { 1, { MP_UPDATE } };
static const struct mp_variant v_delete = { 1, { MP_DELETE } };
static const struct mp_variant v_push = { 0, { 0 }, 1, { MP_PUSH } };
static const struct mp_variant v_pop = { 0, { 0 }, 1, { MP_POP } };
/* a queue pops what it holds, then takes as many pushes: peek finds it as it was */
static const struct mp_variant v_ops = { 3, { MP_LOOKUP, MP_UPDATE, MP_DELETE },
					  3, { MP_PEEK, MP_POP, MP_PUSH }, true };

#define MAPS_BENCH(id, bname, what, var, mets, nmets, table, shape)	\
const struct bench bench_map_##id = {					\
	.name = bname,							\
	.summary = what,						\
	.family = "maps",						\
	.opts = table,							\
	.args_size = sizeof(struct maps_args),				\
	.variant = &var,						\
	.requires = maps_requires,					\
	.metrics = mets,						\
	.nr_metrics = nmets,						\
	.flags = BENCH_F_ONESHOT,					\
	.validate = maps_validate,					\
	.setup = maps_setup,						\
	.run_once = maps_run_once,					\
	.report = { shape },						\
	.teardown = maps_teardown,					\
}

MAPS_BENCH(lookup, "map-lookup", "lookups of held (--hit: and absent) keys timed in the kernel",
	   v_lookup, op_metrics, ARRAY_SIZE(op_metrics), maps_opts, REPORT_OPS);
MAPS_BENCH(update, "map-update", "updates of held keys (LRU: any key range) timed in the kernel",
	   v_update, op_metrics, ARRAY_SIZE(op_metrics), maps_opts, REPORT_OPS);
MAPS_BENCH(delete, "map-delete", "deletes of every held key (refilled untimed) timed in the kernel",
	   v_delete, op_metrics, ARRAY_SIZE(op_metrics), maps_opts, REPORT_OPS);
MAPS_BENCH(push, "map-push", "pushes into an empty queue or stack timed in the kernel",
	   v_push, op_metrics, ARRAY_SIZE(op_metrics), queue_opts, REPORT_OPS);
MAPS_BENCH(pop, "map-pop", "pops of a full queue or stack timed in the kernel",
	   v_pop, op_metrics, ARRAY_SIZE(op_metrics), queue_opts, REPORT_OPS);
MAPS_BENCH(ops, "map-ops", "every op of a map type in turn, ns/op each: a row of the matrix",
	   v_ops, NULL, 0, maps_opts, REPORT_TIMES);
