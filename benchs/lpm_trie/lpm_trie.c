// SPDX-License-Identifier: GPL-2.0
/*
 * lpm-trie-{noop,baseline,lookup,insert,update,delete}: the LPM trie's
 * operations, as the kernel's bench measures them.
 *
 * One program run does up to 10000 operations in a bpf_loop() between
 * two bpf_ktime_get_ns() reads and adds the operations and the
 * nanoseconds to its producer's counters.  The figures are the kernel
 * bench's:
 *   lookup, update, noop, baseline: operations of all producers per
 *     wall second of the sampling period (upstream's ops_report_*);
 *     latency is 1000 / throughput x producers, ns per op per producer;
 *   insert, delete: operations per second of in-kernel time, which
 *     leaves out the untimed refills (upstream's frac_second_report_*);
 *     latency is the in-kernel ns per op.
 * Every run also gives the raw counts of its periods (ops, kernel_ns,
 * and with several producers each one's ops), and the wall-timed ones
 * the in-kernel ns per op (kernel_latency), which does not see the
 * producer thread waiting for a CPU.  noop (the loop) and baseline (the
 * loop and the key) are the floor to read the others against.
 *
 * --latency times one batch of 16 ops in 64 (per CPU) inside the program
 * (src/bench/hist_bpf.h): the Latency line's mean is set beside latency, so for
 * the wall-timed ones its gap is the trigger and harness per op.
 *
 * lpm-trie-free is in lpm_trie_free.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "bench.h"
#include "lpm_trie.h"
#include "lpm_trie.skel.h"

#define LPM_OUTSIDE_CHECKED	1000	/* keys past the range a --verify looks up */

/* What tells one operation's benchmark from the others. */
struct lpm_variant {
	enum lpm_op op;
	bool filled;		/* the trie starts full: lookup, update, delete */
	/*
	 * The trie must be reset after a pass (insert fills it, delete
	 * empties it): one producer, sequential keys, figures over in-kernel
	 * time only, as the resets are not part of the operation.
	 */
	bool resets;
};

/* Where each figure is in vals[]: the same first four in every variant. */
enum lpm_metric {
	M_THROUGHPUT,
	M_LATENCY,
	M_OPS,
	M_KERNEL_NS,
	M_KERNEL_LATENCY,	/* wall-timed variants only, like what follows */
	M_OPS_PROD0,		/* -p 2 and more: ops of producer 0, 1, ... */
};

static const struct opt_def lpm_opts[] = {
	{ "nr_entries", 0, OPT_UINT, OPT_OFF(struct lpm_args, nr_entries), "10000", 1,
	  LPM_MAX_ENTRIES, NULL, "N", "keys in the trie: [0, N)" },
	{ "prefix_len", 0, OPT_UINT, OPT_OFF(struct lpm_args, prefix_len), "32", 1, 32, NULL, "L",
	  "prefix length of every key (2^L >= N)" },
	{ "random", 0, OPT_FLAG, OPT_OFF(struct lpm_args, random), NULL, 0, 0, NULL, NULL,
	  "random keys instead of 0, 1, 2, ... (lookup, update, noop, baseline)" },
	{ "verify", 0, OPT_FLAG, OPT_OFF(struct lpm_args, verify), NULL, 0, 0, NULL, NULL,
	  "before measuring, run the op over every key and check the trie (one 'verify:' line)" },
	{ "latency", 0, OPT_FLAG, OPT_OFF(struct lpm_args, latency), NULL, 0, 0, NULL, NULL,
	  "also time batches of 16 ops inside the program: per-op distribution (Latency line)" },
	{ "latency-every", 0, OPT_UINT, OPT_OFF(struct lpm_args, latency_every),
	  LPM_HIST_EVERY_STR, 1, 1u << 20, NULL, "N",
	  "--latency times one batch in N on each CPU" },
	{ NULL },
};

static const struct metric_def lpm_wall_metrics[] = {
	{ "throughput", "M ops/s", METRIC_RATE, .prod_unit = "M ops" },
};

static const struct metric_def lpm_kernel_metrics[] = {
	{ "throughput", "M ops/s", METRIC_RATE, .prod_unit = "M ops" },
	{ "latency", "ns/op", METRIC_TIME },
	{ "ops", "ops", METRIC_COUNT },
	{ "kernel_ns", "ns", METRIC_COUNT },
};

/* --latency: the ops the program timed in each sample (the histogram holds them all). */
static const enum probe_id lpm_requires[] = {
	PROBE_MAP_LPM_TRIE, PROBE_HELPER_BPF_LOOP, PROBE_TRIG_TEST_RUN, PROBE__COUNT
};

struct lpm_state {
	const struct lpm_variant *v;
	struct lpm_trie_bpf *skel;
	int trie_fd;
	struct lpm_keys keys;
	struct delta ops[LPM_MAX_PROD], ns[LPM_MAX_PROD];
	struct hist_bpf hist;
	int m_sampled;
};

/* ---- the key set, and filling and emptying a trie with it ---- */

int lpm_keys_make(struct lpm_keys *k, const struct lpm_args *a)
{
	uint32_t i;

	k->n = a->nr_entries;
	k->keys = calloc(k->n, sizeof(*k->keys));
	k->vals = calloc(k->n, sizeof(*k->vals));
	if (!k->keys || !k->vals)
		return -ENOMEM;
	for (i = 0; i < k->n; i++) {
		k->keys[i].prefixlen = a->prefix_len;
		k->keys[i].data = lpm_key_data(i, a->prefix_len);
		k->vals[i] = 1;
	}
	return 0;
}

void lpm_keys_free(struct lpm_keys *k)
{
	free(k->keys);
	free(k->vals);
	k->keys = NULL;
	k->vals = NULL;
}

/* Batch ops where the kernel has them for the trie, else one by one. */
int lpm_fill(const struct lpm_keys *k, int fd)
{
	LIBBPF_OPTS(bpf_map_batch_opts, opts);
	__u32 done = 0, n;
	int err;

	while (done < k->n) {
		n = k->n - done;
		err = bpf_map_update_batch(fd, k->keys + done, k->vals + done, &n, &opts);
		if (err && errno != EINTR && errno != EAGAIN)
			goto one_by_one;
		done += n;
		if (interrupted())
			return -EINTR;
	}
	return 0;
one_by_one:
	for (; done < k->n; done++) {
		if (bpf_map_update_elem(fd, &k->keys[done], &k->vals[done], BPF_ANY))
			return -errno;
		if (!(done & 0xffff) && interrupted())
			return -EINTR;
	}
	return 0;
}

int lpm_empty(const struct lpm_keys *k, int fd)
{
	LIBBPF_OPTS(bpf_map_batch_opts, opts);
	__u32 done = 0, n;
	int err;

	while (done < k->n) {
		n = k->n - done;
		err = bpf_map_delete_batch(fd, k->keys + done, &n, &opts);
		if (err && errno != EINTR && errno != EAGAIN)
			goto one_by_one;
		done += n;
	}
	return 0;
one_by_one:
	for (; done < k->n; done++)
		if (bpf_map_delete_elem(fd, &k->keys[done]) && errno != ENOENT)
			return -errno;
	return 0;
}

int lpm_check_keys(const struct bench_env *env)
{
	const struct lpm_args *a = env->args;

	if (a->prefix_len < 32 && a->nr_entries > (1ull << a->prefix_len)) {
		errmsg("%s: --prefix_len %llu holds at most %llu keys (--nr_entries %llu)",
		       env->bench->name, (unsigned long long)a->prefix_len, 1ull << a->prefix_len,
		       (unsigned long long)a->nr_entries);
		return -EINVAL;
	}
	return 0;
}

/* ---- options and metrics ---- */

static int add_metric(struct bench_env *env, const struct metric_def *def, int want)
{
	if (bench_add_metric(env, def) != want) {
		errmsg("%s: metric %s is not at index %d", env->bench->name, def->name, want);
		return -EPROTO;
	}
	return 0;
}

/* Upstream's ops_report_final latency: 1000 / throughput x producers. */
static int add_wall_metrics(struct bench_env *env)
{
	struct metric_def latency = { "latency", "ns/op", METRIC_INVERSE, .base = M_THROUGHPUT,
				      .scale = 1000.0 * env->nr_producers };
	const struct metric_def fixed[] = {
		{ "ops", "ops", METRIC_COUNT },
		{ "kernel_ns", "ns", METRIC_COUNT },
		{ "kernel_latency", "ns/op", METRIC_TIME },
	};
	struct metric_def prod = { "ops", "ops", METRIC_COUNT };
	char key[32];
	int err, i;

	err = add_metric(env, &latency, M_LATENCY);
	for (i = 0; !err && i < (int)ARRAY_SIZE(fixed); i++)
		err = add_metric(env, &fixed[i], M_OPS + i);
	for (i = 0; !err && env->nr_producers > 1 && i < env->nr_producers; i++) {
		snprintf(key, sizeof(key), "producer=%d", i);	/* ops{producer=i} */
		prod.key = key;
		err = add_metric(env, &prod, M_OPS_PROD0 + i);
	}
	return err;
}

static int lpm_validate(struct bench_env *env)
{
	const struct lpm_variant *v = env->bench->variant;
	const struct lpm_args *a = env->args;
	const char *name = env->bench->name;
	int err = lpm_check_keys(env);

	if (err)
		return err;
	if (a->random && v->resets) {
		errmsg("%s: --random is not supported (the key sequence must cover the range)",
		       name);
		return -EINVAL;
	}
	if (a->verify && (v->op == LPM_NOOP || v->op == LPM_BASELINE)) {
		errmsg("%s: --verify checks a trie operation, and this one has none", name);
		return -EINVAL;
	}
	if (a->random && a->verify) {
		errmsg("%s: --verify needs sequential keys (drop --random)", name);
		return -EINVAL;
	}
	if (env->nr_producers > LPM_MAX_PROD) {
		errmsg("%s: at most %d producers", name, LPM_MAX_PROD);
		return -EINVAL;
	}
	err = v->resets ? 0 : add_wall_metrics(env);
	if (!err && a->latency)
		bench_add_metric(env, &bench_sampled_metric);
	return err;
}

/* ---- the measured loop ---- */

/* One run of the program for producer idx; its return value in *retval. */
static int run_prog(struct bench_env *env, int idx, int *retval)
{
	unsigned char pkt[64] = { 0 };
	uint32_t ret = 0, prod = idx;
	int err;

	memcpy(pkt + LPM_PKT_PROD, &prod, sizeof(prod));
	err = test_run_pkt(env->trig.prog_fd, pkt, sizeof(pkt), 1, &ret);
	*retval = (int)ret;
	return err;
}

/* The program filled (insert) or emptied (delete) the trie: make it as it started. */
static int reset_trie(struct lpm_state *s)
{
	if (s->v->op == LPM_INSERT)
		return lpm_empty(&s->keys, s->trie_fd);
	if (s->v->op == LPM_DELETE)
		return lpm_fill(&s->keys, s->trie_fd);
	return -EPROTO;
}

/* One program run and whatever its result asks for; 0 or negative errno. */
static int run_step(struct bench_env *env, int idx)
{
	int err, ret = 0;

	err = run_prog(env, idx, &ret);
	if (err)
		return err;
	if (ret == LPM_RESET)
		return reset_trie(env->priv);
	return ret < 0 ? ret : (ret ? -EPROTO : 0);
}

static void lpm_producer(struct bench_env *env, int idx)
{
	int err;

	while (!bench_stopping(env)) {
		err = run_step(env, idx);
		if (err) {
			bench_fail(env, err, "the %s program failed: %s", env->bench->name,
				   strerror(-err));
			return;
		}
	}
}

static uint64_t read_u64(const __u64 *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

static void lpm_measure(struct bench_env *env, uint64_t elapsed_ns, double *vals)
{
	struct lpm_state *s = env->priv;
	const struct lpm_prod *p = s->skel->bss->prod;
	uint64_t ops = 0, ns = 0, n;
	int i;

	for (i = 0; i < env->nr_producers; i++) {
		n = delta_next(&s->ops[i], read_u64(&p[i].ops));
		ns += delta_next(&s->ns[i], read_u64(&p[i].ns));
		ops += n;
		if (env->nr_producers > 1)
			vals[M_OPS_PROD0 + i] = n;
	}
	vals[M_OPS] = ops;
	vals[M_KERNEL_NS] = ns;
	if (s->v->resets) {
		vals[M_THROUGHPUT] = mops(ops, ns);
		vals[M_LATENCY] = ops ? (double)ns / ops : 0.0;
	} else {
		vals[M_THROUGHPUT] = mops(ops, elapsed_ns);
		vals[M_KERNEL_LATENCY] = ops ? (double)ns / ops : 0.0;
	}
	hist_bpf_measure(&s->hist, env, &vals[s->m_sampled]);
}

/* ---- --verify: the op over every key through the program, then the trie's contents ---- */

static int count_entries(int fd, uint64_t *n)
{
	struct lpm_key cur, next;
	void *prev = NULL;

	*n = 0;
	while (!bpf_map_get_next_key(fd, prev, &next)) {
		(*n)++;
		cur = next;
		prev = &cur;
	}
	return errno == ENOENT ? 0 : -errno;
}

/* Keys found among [from, to); with want_idx_plus_1, only those whose value is index + 1. */
static uint64_t count_found(const struct lpm_args *a, int fd, uint64_t from, uint64_t to,
			    bool want_idx_plus_1)
{
	struct lpm_key key = { .prefixlen = a->prefix_len };
	uint64_t i, found = 0;
	__u32 val;

	for (i = from; i < to; i++) {
		key.data = lpm_key_data(i, a->prefix_len);
		if (bpf_map_lookup_elem(fd, &key, &val))
			continue;
		if (!want_idx_plus_1 || val == i + 1)
			found++;
	}
	return found;
}

/*
 * Runs the program (as producer 0) until it has done one operation per
 * key; insert and delete stop at their reset signal and leave the trie
 * as it is then.
 */
static int run_over_all_keys(struct bench_env *env)
{
	const struct lpm_args *a = env->args;
	struct lpm_state *s = env->priv;
	bool until_reset = s->v->resets;
	int err, ret;

	s->skel->bss->next_index = 0;
	for (;;) {
		err = run_prog(env, 0, &ret);
		if (err)
			return err;
		if (ret < 0)
			return ret;
		if (ret == LPM_RESET)
			return until_reset ? 0 : -EPROTO;
		if (ret)
			return -EPROTO;
		if (!until_reset && read_u64(&s->skel->bss->prod[0].ops) >= a->nr_entries)
			return 0;
	}
}

static int lpm_verify(struct bench_env *env)
{
	const struct lpm_args *a = env->args;
	struct lpm_state *s = env->priv;
	uint64_t space = 1ull << a->prefix_len;
	uint64_t out_end = a->nr_entries + LPM_OUTSIDE_CHECKED, ops, in, out, entries;
	bool values = s->v->op == LPM_UPDATE;
	int fd = s->trie_fd, err;

	if (out_end > space)
		out_end = space;
	err = run_over_all_keys(env);
	if (err)
		return err;
	ops = read_u64(&s->skel->bss->prod[0].ops);
	in = count_found(a, fd, 0, a->nr_entries, values);
	out = count_found(a, fd, a->nr_entries, out_end, false);
	err = count_entries(fd, &entries);
	if (err)
		return err;
	bench_note(env, "verify: %llu ops by the program, %llu of %llu keys found%s, "
		   "%llu of %llu keys outside found, %llu entries",
		   (unsigned long long)ops, (unsigned long long)in,
		   (unsigned long long)a->nr_entries, values ? " with the updated value" : "",
		   (unsigned long long)out, (unsigned long long)(out_end - a->nr_entries),
		   (unsigned long long)entries);
	/* back to the state the measurement starts from */
	s->skel->bss->next_index = 0;
	return s->v->resets ? reset_trie(s) : 0;
}

/* ---- setup, teardown, summary ---- */

static int lpm_setup(struct bench_env *env)
{
	const struct lpm_args *a = env->args;
	struct lpm_state *s = calloc(1, sizeof(*s));
	int err;

	if (!s)
		return -ENOMEM;
	env->priv = s;
	s->v = env->bench->variant;
	s->trie_fd = -1;
	s->skel = lpm_trie_bpf__open();
	if (!s->skel)
		return -errno;
	s->skel->rodata->op = s->v->op;
	s->skel->rodata->nr_entries = a->nr_entries;
	s->skel->rodata->prefix_len = a->prefix_len;
	s->skel->rodata->random_keys = a->random;
	bpf_map__set_max_entries(s->skel->maps.trie, a->nr_entries);
	bpf_program__set_autoload(s->skel->progs.lpm_free_start, false);
	bpf_program__set_autoload(s->skel->progs.lpm_free_end, false);
	err = bench_skel_load(env, &(struct bench_skel){
				BENCH_SKEL_BASE(s->skel), BENCH_SKEL_HIST(s->skel),
				.progs = { .test_run = s->skel->progs.lpm_run },
			      }, a->latency ? a->latency_every : 0, &s->hist, &s->m_sampled);
	if (err)
		return err;
	env->trig.repeat = 1;	/* one run per call: the producer acts on each run's result */
	err = trigger_attach(&env->trig);
	if (err)
		return err;
	s->trie_fd = bpf_map__fd(s->skel->maps.trie);
	err = lpm_keys_make(&s->keys, a);
	if (!err && s->v->filled)
		err = lpm_fill(&s->keys, s->trie_fd);
	if (err)
		return err;
	return a->verify ? lpm_verify(env) : 0;
}

static void lpm_teardown(struct bench_env *env)
{
	struct lpm_state *s = env->priv;

	if (!s)
		return;
	trigger_detach(&env->trig);
	lpm_keys_free(&s->keys);
	BENCH_SKEL_TEARDOWN(env, &s->hist, s->skel);
}

#define LPM_BENCH(opname, OP, fill, reset, what)				\
static const struct lpm_variant lpm_##opname##_variant = {			\
	.op = OP, .filled = fill, .resets = reset,				\
};										\
const struct bench bench_lpm_trie_##opname = {					\
	.name = "lpm-trie-" #opname,						\
	.summary = what,							\
	.family = "lpm-trie",							\
	.opts = lpm_opts,							\
	.args_size = sizeof(struct lpm_args),					\
	.variant = &lpm_##opname##_variant,					\
	.requires = lpm_requires,						\
	.metrics = reset ? lpm_kernel_metrics : lpm_wall_metrics,		\
	.nr_metrics = reset ? ARRAY_SIZE(lpm_kernel_metrics) : ARRAY_SIZE(lpm_wall_metrics), \
	.flags = reset ? BENCH_F_ONE_PRODUCER : 0,				\
	.validate = lpm_validate,						\
	.setup = lpm_setup,							\
	.producer = lpm_producer,						\
	.measure = lpm_measure,							\
	.teardown = lpm_teardown,						\
}

LPM_BENCH(noop, LPM_NOOP, false, false, "LPM trie floor: the op loop alone");
LPM_BENCH(baseline, LPM_BASELINE, false, false, "LPM trie floor: the op loop and key generation");
LPM_BENCH(lookup, LPM_LOOKUP, true, false, "LPM trie lookup of present keys in a full trie");
LPM_BENCH(insert, LPM_INSERT, false, true,
	  "LPM trie insert into an empty trie (emptied again untimed)");
LPM_BENCH(update, LPM_UPDATE, true, false, "LPM trie update of present keys in a full trie");
LPM_BENCH(delete, LPM_DELETE, true, true, "LPM trie delete from a full trie (refilled untimed)");

/* The kernel bench's table (10K entries, /32, one producer) and the floor it reads against. */
static const struct suite_step lpm_trie_steps[] = {
	{ "LPM trie, 10K entries, /32", "noop",
	  "lpm-trie-noop --prefix_len=32 --producers=1 --nr_entries=10000" },
	{ NULL, "baseline", "lpm-trie-baseline --prefix_len=32 --producers=1 --nr_entries=10000" },
	{ NULL, "lookup", "lpm-trie-lookup --prefix_len=32 --producers=1 --nr_entries=10000" },
	{ NULL, "update", "lpm-trie-update --prefix_len=32 --producers=1 --nr_entries=10000" },
	{ NULL, "delete", "lpm-trie-delete --prefix_len=32 --producers=1 --nr_entries=10000" },
	{ NULL, "free", "lpm-trie-free --prefix_len=32 --producers=1 --nr_entries=10000" },
	{ NULL },
};

const struct suite suite_lpm_trie = {
	.name = "lpm-trie",
	.seed = true,
	.summary = "LPM trie lookup, update, delete, free at 10K /32 keys, with the floor",
	.steps = lpm_trie_steps,
};

extern const struct bench bench_lpm_trie_free;

const struct family family_lpm_trie = {
	.name = "lpm-trie",
	.summary = "LPM trie ops: lookup, insert, update, delete, free",
	.benchs = (const struct bench *const []){
		&bench_lpm_trie_noop,
		&bench_lpm_trie_baseline,
		&bench_lpm_trie_lookup,
		&bench_lpm_trie_insert,
		&bench_lpm_trie_update,
		&bench_lpm_trie_delete,
		&bench_lpm_trie_free,
		NULL,
	},
	.suites = (const struct suite *const []){ &suite_lpm_trie, NULL },
};
