// SPDX-License-Identifier: GPL-2.0
/*
 * bloom: what every benchmark of the family shares: the maps, the values
 * they are filled with, the jobs that fill and count, the measured
 * programs' counters.
 *
 * User space writes every value into an mmap'ed array map: entries
 * [0, nr_entries) go into the filter (and the hash map), the probes after
 * them are values known to be absent.  Values are a keyed permutation of
 * their index, so they are random-looking yet never repeat: a probe can
 * not be an inserted value by accident.
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "bench.h"
#include "common.h"
#include "bloom.skel.h"

#define GEN_POLL	65536		/* values written between looks at interrupted() */

/* The maps are filled and counted through tc test runs of the job program. */
const enum probe_id bloom_requires[] = {
	PROBE_MAP_BLOOM_FILTER, PROBE_HELPER_BPF_LOOP, PROBE_TRIG_TEST_RUN, PROBE__COUNT
};

/* ---- values ---- */

static uint32_t id_bits_of(uint64_t size)
{
	return size < 8 ? size * 8 : 64;
}

uint64_t bloom_value_space(uint64_t size)
{
	return size < 8 ? 1ull << (size * 8) : 0;
}

/*
 * A bijection on ids of `bits` bits: adding a key, xor-shifting right and
 * multiplying by an odd constant are each invertible modulo 2^bits, so
 * distinct ids give distinct values and inserted values and probes never
 * collide.
 */
static uint64_t permute(uint64_t x, uint32_t bits, uint64_t key)
{
	uint64_t mask = bits >= 64 ? ~0ull : (1ull << bits) - 1;
	uint32_t shift = bits / 2;
	int round;

	for (round = 0; round < 3; round++) {
		x = (x + key) & mask;
		x ^= x >> shift;
		x = (x * 0x9e3779b97f4a7c15ull) & mask;
		key = key * 0xbf58476d1ce4e5b9ull + 0x94d049bb133111ebull;
	}
	return x ^ (x >> shift);
}

/* The value of `id`: its permutation in the first 8 bytes, noise after them. */
static void write_value(struct bloom_state *s, uint64_t slot, uint64_t id)
{
	uint8_t *v = s->values + slot * s->stride;
	uint64_t head = permute(id, s->id_bits, s->key), more;
	uint32_t i, j, size = s->a->value_size;

	for (i = 0; i < size && i < 8; i++)
		v[i] = head >> (8 * i);
	for (; i < size; i += 8) {	/* SplitMix64's output there: its step, then mix64() */
		more = mix64((s->key ^ (id * 0xd6e8feb86659fd93ull) ^ i) + 0x9e3779b97f4a7c15ull);
		for (j = 0; j < 8 && i + j < size; j++)
			v[i + j] = more >> (8 * j);
	}
}

static int write_values(struct bloom_state *s, uint64_t first_slot, uint64_t n,
			uint64_t (*id_of)(const struct bloom_state *, uint64_t))
{
	uint64_t i;

	for (i = 0; i < n; i++) {
		if (i % GEN_POLL == 0 && interrupted())
			return -EINTR;
		write_value(s, first_slot + i, id_of(s, i));
	}
	return 0;
}

static uint64_t inserted_id(const struct bloom_state *s, uint64_t i)
{
	return i;
}

/* Pass p's probes: ids after the inserted ones, fresh each pass while the value space lasts. */
static uint64_t probe_id(const struct bloom_state *s, uint64_t i)
{
	uint64_t space = bloom_value_space(s->a->value_size);
	uint64_t seq = s->pass * s->probes + i;

	if (space)
		seq %= space - s->a->nr_entries;
	return s->a->nr_entries + seq;
}

int bloom_write_probes(struct bloom_state *s)
{
	return write_values(s, s->a->nr_entries, s->probes, probe_id);
}

const uint8_t *bloom_value(const struct bloom_state *s, uint64_t i)
{
	return s->values + i * s->stride;
}

/* ---- jobs ---- */

static int run_job(struct bloom_state *s, uint32_t *job)
{
	/* a tc test run wants at least an Ethernet header's worth of packet */
	uint32_t ret, len = JOB__WORDS * sizeof(uint32_t);
	int err = test_run_pkt(s->job_fd, job, len < 64 ? 64 : len, 1, &ret);

	if (err)
		return err;
	return ret == 0 ? 0 : -EINVAL;
}

int bloom_walk(struct bloom_state *s, enum bloom_op op, uint32_t base, uint32_t len,
	       uint32_t pos, uint64_t n, struct bloom_tally *c)
{
	uint32_t job[16];
	uint64_t chunk;
	int err;

	memset(c, 0, sizeof(*c));
	while (n) {
		if (interrupted())
			return -EINTR;
		chunk = n < BLOOM_JOB_MAX ? n : BLOOM_JOB_MAX;
		memset(job, 0, sizeof(job));
		job[JOB_OP] = op;
		job[JOB_BASE] = base;
		job[JOB_LEN] = len;
		job[JOB_POS] = pos;
		job[JOB_COUNT] = chunk;
		err = run_job(s, job);
		if (err)
			return err;
		c->done += job[JOB_OUT_DONE];
		c->hits += job[JOB_OUT_HITS];
		c->drops += job[JOB_OUT_DROPS];
		c->filtered += job[JOB_OUT_FILTERED];
		c->errors += job[JOB_OUT_ERRORS];
		pos = (pos + chunk) % len;
		n -= chunk;
	}
	return 0;
}

static void tally_add(struct bloom_tally *sum, const struct bloom_tally *t)
{
	sum->done += t->done;
	sum->hits += t->hits;
	sum->drops += t->drops;
	sum->filtered += t->filtered;
	sum->errors += t->errors;
}

#define FILL_SPLIT_MIN	(1u << 18)	/* fewer inserts: a second thread saves nothing */

/* The upper half of a fill, on a thread of its own. */
struct fill_half {
	struct bloom_state *s;
	enum bloom_op op;
	uint32_t pos;
	uint64_t n;
	struct bloom_tally c;
	int err;
};

static void *fill_half_run(void *arg)
{
	struct fill_half *h = arg;

	h->err = bloom_walk(h->s, h->op, 0, h->s->a->nr_entries, h->pos, h->n, &h->c);
	return NULL;
}

/*
 * Every value [0, n) with `op`, both halves at once where there are two
 * CPUs: 5M inserts take seconds a step, and the maps take concurrent
 * inserts (a filter's bits are set atomically; the hash map's keys are
 * distinct).
 */
static int walk_inserted(struct bloom_state *s, enum bloom_op op, struct bloom_tally *c)
{
	uint64_t n = s->a->nr_entries;
	struct fill_half h = { .s = s, .op = op, .pos = n / 2, .n = n - n / 2 };
	pthread_t th;
	int err;

	if (n < FILL_SPLIT_MIN || nr_online_cpus() < 2 ||
	    pthread_create(&th, NULL, fill_half_run, &h))
		return bloom_walk(s, op, 0, n, 0, n, c);
	err = bloom_walk(s, op, 0, n, 0, n / 2, c);
	pthread_join(th, NULL);
	tally_add(c, &h.c);
	return err ?: h.err;
}

/* Inserts every value [0, nr_entries) with `op`; each must succeed exactly once. */
static int fill(struct bench_env *env, struct bloom_state *s, enum bloom_op op, const char *what)
{
	uint64_t n = s->a->nr_entries;
	struct bloom_tally c;
	int err;

	err = walk_inserted(s, op, &c);
	if (err)
		return err;
	if (c.hits != n || c.errors) {
		errmsg("%s: filling the %s: %" PRIu64 " of %" PRIu64 " inserted, %" PRIu64
		       " errors", env->bench->name, what, c.hits, n, c.errors);
		return -EIO;
	}
	return 0;
}

/* ---- options ---- */

/* Absent values there are room for: --nr_probes, or fewer when value_size runs out. */
static uint32_t probes_of(const struct bloom_args *a, const struct bloom_variant *v)
{
	uint64_t space = bloom_value_space(a->value_size);

	if (!v->probes)
		return 0;
	if (space && space - a->nr_entries < a->nr_probes)
		return space - a->nr_entries;
	return a->nr_probes;
}

int bloom_validate(struct bench_env *env)
{
	const struct bloom_args *a = env->args;
	const struct bloom_variant *v = bloom_variant_of(env);
	uint64_t space = bloom_value_space(a->value_size);

	/*
	 * As the kernel's bench: a hash map's values are distinct, absent ones
	 * must exist too; a filter alone takes a value twice (the values then
	 * repeat), as the kernel's run_bench_bloom_filter_map.sh asks of
	 * 2-byte values.
	 */
	if (space && (v->hashmap || v->probes) && a->nr_entries + (v->probes ? 1 : 0) > space) {
		errmsg("--nr_entries %" PRIu64 ": a %" PRIu64 "-byte value has only %" PRIu64
		       " distinct values%s", a->nr_entries, a->value_size, space,
		       v->probes ? ", and absent ones are needed too" : "");
		return -EINVAL;
	}
	if (v->probes && a->count > probes_of(a, v)) {
		errmsg("--count %" PRIu64 " exceeds the %u probes (--nr_probes, or the values "
		       "left by --value_size): a fixed count must look up distinct values",
		       a->count, probes_of(a, v));
		return -EINVAL;
	}
	bloom_latency_validate(env);
	return v->validate ? v->validate(env) : 0;
}

/* ---- setup ---- */

/* Filter benchmarks walk the inserted values, or (false positives) the probes. */
static void set_window(struct bloom_state *s)
{
	uint64_t n = s->a->nr_entries;

	if (s->v->hashmap) {
		s->win_base = 0;
		s->win_len = hash_key_slots(s->a);
		return;		/* win_present: hash_keys_fill() */
	}
	s->win_base = s->v->probes ? n : 0;
	s->win_len = s->v->probes ? s->probes : n;
	s->win_present = s->v->probes ? 0 : n;
}

static void size_maps(struct bloom_state *s)
{
	const struct bloom_args *a = s->a;
	struct bloom_bpf *skel = s->skel;
	uint32_t vs = a->value_size;

	bpf_map__set_value_size(skel->maps.values, vs);
	bpf_map__set_max_entries(skel->maps.values, a->nr_entries + s->probes);
	bpf_map__set_value_size(skel->maps.bloom, vs);
	bpf_map__set_max_entries(skel->maps.bloom, s->v->bloom ? a->nr_entries : 1);
	bpf_map__set_map_extra(skel->maps.bloom, a->nr_hash_funcs);
	bpf_map__set_key_size(skel->maps.hashmap, vs);
	bpf_map__set_value_size(skel->maps.hashmap, vs);
	bpf_map__set_max_entries(skel->maps.hashmap, s->v->hashmap ? a->nr_entries : 1);
	skel->rodata->bench_op = s->v->op;
	skel->rodata->win_base = s->win_base;
	skel->rodata->win_len = s->win_len;
	skel->rodata->key_size = vs;
	skel->rodata->keys_end = s->v->hashmap ? s->win_len * vs : vs;
}

/*
 * The hash map benchmarks' way in, under --trigger auto: the kernel
 * bench's, a syscall per run of HASH_BATCH lookups, whose cost per run
 * (the syscall, and what it leaves behind: with page table isolation and
 * no PCID every entry flushes the TLB the lookups then refill) is part
 * of its figure.  --trigger test-run leaves it out.  The filter
 * benchmarks' runs are whole passes: any trigger is as good.
 */
/* The periodic benchmarks' trigger programs; a one-shot run has none. */
static struct trigger_progs trigger_progs_of(struct bench_env *env, struct bloom_state *s)
{
	struct trigger_progs progs = {
		.test_run = s->skel->progs.bloom_test_run,
		.raw_tp = s->skel->progs.bloom_raw_tp,
		.fentry = s->skel->progs.bloom_fentry,
	};

	if (env->bench->flags & BENCH_F_ONESHOT)
		return (struct trigger_progs){ 0 };
	if (s->v->hashmap && env->opts->trigger == TRIG_AUTO &&
	    probe_feature(PROBE_TRIG_RAW_TP, NULL, 0) == 1)
		progs.test_run = NULL;
	return progs;
}

/* Loads the job program and, for the periodic benchmarks, the trigger's. */
static int load(struct bench_env *env, struct bloom_state *s)
{
	struct bpf_program *prog;
	int err;

	bpf_object__for_each_program(prog, s->skel->obj)
		bpf_program__set_autoload(prog, prog == s->skel->progs.bloom_job);
	err = bench_skel_load(env, &(struct bench_skel){
				BENCH_SKEL_BASE(s->skel), BENCH_SKEL_HIST(s->skel),
				.progs = trigger_progs_of(env, s),
			      }, s->a->latency ? s->a->latency_every : 0, &s->hist, &s->m_sampled);
	if (!err)
		s->job_fd = bpf_program__fd(s->skel->progs.bloom_job);
	return err;
}

static int map_values(struct bloom_state *s)
{
	size_t page = sysconf(_SC_PAGESIZE);
	uint64_t bytes = (uint64_t)s->stride * (s->a->nr_entries + s->probes);
	void *p;

	s->values_len = (bytes + page - 1) / page * page;
	p = mmap(NULL, s->values_len, PROT_READ | PROT_WRITE, MAP_SHARED,
		 bpf_map__fd(s->skel->maps.values), 0);
	if (p == MAP_FAILED)
		return -errno;
	s->values = p;
	return 0;
}

static int fill_maps(struct bench_env *env, struct bloom_state *s)
{
	uint64_t t0 = now_ns(), t1;
	int err;

	err = write_values(s, 0, s->a->nr_entries, inserted_id);
	if (!err && s->probes)
		err = bloom_write_probes(s);
	if (!err && s->v->hashmap)
		err = hash_keys_fill(s);
	t1 = now_ns();
	if (!err && s->v->bloom)
		err = fill(env, s, BLOOM_OP_PUSH, "bloom filter");
	if (!err && s->v->hashmap)
		err = fill(env, s, BLOOM_OP_HASH_INSERT, "hash map");
	vmsg("%s: values written in %.2f s, maps filled in %.2f s", env->bench->name,
	     (t1 - t0) / 1e9, (now_ns() - t1) / 1e9);
	return err;
}

/*
 * --count's totals, "window_" before each: found and missed are what the
 * lookups answered (the filter's "absent" is a miss); hits and drops are
 * the kernel bench's classes.
 */
static void count_totals(struct bench_env *env, struct bloom_state *s, const struct bloom_tally *c)
{
	bench_total(env, "window_ops", c->done);
	bench_total(env, "window_hits", c->hits);
	bench_total(env, "window_drops", c->drops);
	bench_total(env, "window_found", c->hits - c->filtered);
	bench_total(env, "window_missed", c->drops + c->filtered);
	bench_total(env, "window_filtered", c->filtered);
	bench_total(env, "window_errors", c->errors);
	bench_total(env, "window", s->win_len);
	bench_total(env, "window_present", s->win_present);
}

/* --count: exact counts for the tests, from the window's start, on this CPU. */
static int run_count(struct bench_env *env, struct bloom_state *s)
{
	struct bloom_tally c;
	int err;

	if (!s->a->count)
		return 0;
	err = bloom_walk(s, s->v->op, s->win_base, s->win_len, 0, s->a->count, &c);
	if (err)
		return err;
	count_totals(env, s, &c);
	return 0;
}

/* CPUs start their hash key walks far apart (byte offsets), not all on the same keys at once. */
static void spread_cursors(struct bloom_state *s)
{
	struct bench_slot *slots = s->skel->bss->bench_slots;
	int i;

	for (i = 0; i < BENCH_NR_SLOTS && s->v->hashmap; i++)
		slots[i].extra[SLOT_X_CURSOR] = (uint64_t)i * 2654435761u % s->win_len *
						s->a->value_size;
}

static int open_and_fill(struct bench_env *env, struct bloom_state *s)
{
	int err;

	s->skel = bloom_bpf__open();
	if (!s->skel)
		return -errno;
	size_maps(s);
	err = load(env, s);
	if (!err)
		err = map_values(s);
	if (!err)
		err = fill_maps(env, s);
	if (!err)
		err = run_count(env, s);
	return err;
}

int bloom_setup(struct bench_env *env)
{
	struct bloom_state *s = calloc(1, sizeof(*s));
	uint64_t t0 = now_ns();
	int err;

	if (!s)
		return -ENOMEM;
	env->priv = s;
	s->a = env->args;
	s->v = bloom_variant_of(env);
	s->stride = (s->a->value_size + 7) & ~7u;
	s->id_bits = id_bits_of(s->a->value_size);
	s->probes = probes_of(s->a, s->v);
	if (getrandom(&s->key, sizeof(s->key), 0) != sizeof(s->key))
		return -EIO;
	set_window(s);
	err = open_and_fill(env, s);
	if (err)
		return err;
	vmsg("%s: %" PRIu64 " values in, %u probes, ready in %.2f s", env->bench->name,
	     s->a->nr_entries, s->probes, (now_ns() - t0) / 1e9);
	if (env->bench->flags & BENCH_F_ONESHOT)
		return 0;
	spread_cursors(s);
	/*
	 * A filter run is a pass over all the values, long enough to hide
	 * the syscall; a hash map run (HASH_BATCH) is not, and calibrates.
	 */
	if (!s->v->hashmap)
		bench_trigger_single(env);
	return trigger_attach(&env->trig);
}

/* ---- the measured programs' counters ---- */

static uint64_t load_u64(const __u64 *p)
{
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

/*
 * One slot's counts: each bumped per op, read one by one (a rate needs
 * no more).  Hits are what the kernel bench counts as hits: the filter's
 * rejections with what was found.
 */
static void slot_read(const struct bench_slot *sl, struct bloom_tally *t)
{
	uint64_t found = load_u64(&sl->hits);

	t->drops = load_u64(&sl->drops);
	t->filtered = load_u64(&sl->extra[SLOT_X_FILTERED]);
	t->errors = load_u64(&sl->extra[SLOT_X_ERRORS]);
	t->hits = found + t->filtered;
	t->done = t->hits + t->drops + t->errors;
}

static void read_totals(const struct bloom_state *s, struct bloom_tally *sum)
{
	const struct bench_slot *slots = s->skel->bss->bench_slots;
	struct bloom_tally t;
	int i;

	memset(sum, 0, sizeof(*sum));
	for (i = 0; i < BENCH_NR_SLOTS; i++) {
		slot_read(&slots[i], &t);
		tally_add(sum, &t);
	}
}

void bloom_period(struct bench_env *env, struct bloom_tally *d)
{
	struct bloom_state *s = env->priv;
	struct bloom_tally now;

	read_totals(s, &now);
	d->done = now.done - s->last.done;
	d->hits = now.hits - s->last.hits;
	d->drops = now.drops - s->last.drops;
	d->filtered = now.filtered - s->last.filtered;
	d->errors = now.errors - s->last.errors;
	s->last = now;
	if (d->errors)
		bench_fail(env, -EIO, "%" PRIu64 " map operations failed", d->errors);
}

/*
 * What the programs counted in all, read once they have stopped: the
 * run's totals, for the tests to hold the samples against.
 */
static void record_totals(struct bench_env *env, const struct bloom_state *s)
{
	struct bloom_tally t;

	if (!s->skel || !s->skel->bss || (env->bench->flags & BENCH_F_ONESHOT))
		return;
	read_totals(s, &t);
	/* -v: when the counters were read, for the tests' bound on runs after the last sample */
	vmsg("%s: counted in all: ops=%" PRIu64 " hits=%" PRIu64 " drops=%" PRIu64
	     " filtered=%" PRIu64 " errors=%" PRIu64, env->bench->name, t.done, t.hits,
	     t.drops, t.filtered, t.errors);
	bench_total(env, "ops", t.done);
	bench_total(env, "hits", t.hits);
	bench_total(env, "drops", t.drops);
	bench_total(env, "filtered", t.filtered);
	bench_total(env, "errors", t.errors);
}

void bloom_teardown(struct bench_env *env)
{
	struct bloom_state *s = env->priv;

	if (!s)
		return;
	record_totals(env, s);
	if (s->values)
		munmap(s->values, s->values_len);
	BENCH_SKEL_TEARDOWN(env, &s->hist, s->skel);
}

extern const struct bench bench_bloom_lookup, bench_bloom_update, bench_bloom_false_positive;
extern const struct bench bench_hashmap_without_bloom, bench_hashmap_with_bloom;
extern const struct suite suite_bloom, suite_bloom_hashmap;

const struct family family_bloom = {
	.name = "bloom",
	.summary = "the bloom filter map; hash map lookups with and without one in front",
	.benchs = (const struct bench *const []){
		&bench_bloom_lookup,
		&bench_bloom_update,
		&bench_bloom_false_positive,
		&bench_hashmap_without_bloom,
		&bench_hashmap_with_bloom,
		NULL,
	},
	.suites = (const struct suite *const []){ &suite_bloom, &suite_bloom_hashmap, NULL },
};
