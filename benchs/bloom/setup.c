// SPDX-License-Identifier: GPL-2.0
/*
 * bloom: the bloom filter map (seed 003): lookups and updates per second,
 * the false positive rate against theory, and hash map lookups with and
 * without a bloom filter in front.
 *
 * User space writes every value into an mmap'ed array map: entries
 * [0, nr_entries) go into the filter (and the hash map), the probes after
 * them are values known to be absent.  Values are a keyed permutation of
 * their index, so they are random-looking yet never repeat: a probe can
 * not be an inserted value by accident.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "bench.h"
#include "probe.h"
#include "report.h"
#include "skel_util.h"
#include "bloom.h"
#include "bloom.skel.h"

#define NR_ENTRIES_MAX	(1u << 27)	/* values and probes must index a u32 array */
#define NR_PROBES_MAX	(1u << 24)
#define VALUE_SIZE_MIN	2		/* the kernel bench's range */
#define VALUE_SIZE_MAX	256
#define HASH_FUNCS_MAX	15		/* the 4 bits of map_extra the kernel reads */
#define GEN_POLL	65536		/* values written between looks at interrupted() */

static uint64_t nr_entries, nr_hash_funcs, value_size, nr_probes, hit_percent, count_ops;

#define OPT_NR_ENTRIES								\
	{ "nr_entries", 0, OPT_UINT, &nr_entries, "1000", 1, NR_ENTRIES_MAX, NULL, "N",	\
	  "values inserted (the maps' max_entries)" }
#define OPT_NR_HASH_FUNCS							\
	{ "nr_hash_funcs", 0, OPT_UINT, &nr_hash_funcs, "3", 1, HASH_FUNCS_MAX, NULL, "K", \
	  "hash functions of the bloom filter (map_extra)" }
#define OPT_VALUE_SIZE								\
	{ "value_size", 0, OPT_UINT, &value_size, "8", VALUE_SIZE_MIN, VALUE_SIZE_MAX,	\
	  NULL, "B", "bytes per value (the filter's value, the hash map's key and value)" }
#define OPT_NR_PROBES								\
	{ "nr_probes", 0, OPT_UINT, &nr_probes, "1048576", 1, NR_PROBES_MAX, NULL, "N",	\
	  "distinct values known to be absent, looked up per pass" }
#define OPT_COUNT								\
	{ "count", 0, OPT_UINT, &count_ops, "0", 0, UINT32_MAX, NULL, "N",		\
	  "test aid: before measuring, run exactly N operations from the start of "	\
	  "the window on one CPU and print their exact counts ('Counts:' line)" }

static const struct opt_def bloom_opts[] = {
	OPT_NR_ENTRIES, OPT_NR_HASH_FUNCS, OPT_VALUE_SIZE, OPT_COUNT,
	{ NULL },
};

static const struct opt_def fp_opts[] = {
	OPT_NR_ENTRIES, OPT_NR_HASH_FUNCS, OPT_VALUE_SIZE, OPT_NR_PROBES, OPT_COUNT,
	{ NULL },
};

static const struct opt_def hashmap_opts[] = {
	OPT_NR_ENTRIES, OPT_NR_HASH_FUNCS, OPT_VALUE_SIZE, OPT_NR_PROBES,
	{ "hit_percent", 0, OPT_UINT, &hit_percent, "0", 0, 100, NULL, "P",
	  "share of looked-up values that are present (0: all absent, as the kernel "
	  "bench's random values)" },
	OPT_COUNT,
	{ NULL },
};

static const struct metric_def lookup_metrics[] = {
	{ "lookups", "M/s", METRIC_SAMPLED, .prod_unit = "M/s" },
};

static const struct metric_def update_metrics[] = {
	{ "updates", "M/s", METRIC_SAMPLED, .prod_unit = "M/s" },
};

static const struct metric_def fp_metrics[] = {
	{ "false_positive_rate", "%", METRIC_SAMPLED },
	{ "theory", "%", METRIC_SAMPLED },	/* the same every pass: for tables and JSON */
	{ "lookups", "M/s", METRIC_SAMPLED },	/* of absent values, one pass */
};

static const struct metric_def hashmap_metrics[] = {
	{ "lookups", "M/s", METRIC_SAMPLED, .prod_unit = "M/s" },
	{ "hits", "M/s", METRIC_SAMPLED },
};

/* What one benchmark of the family does; found by bench name. */
struct bloom_kind {
	const char *name;
	enum bloom_op op;
	bool bloom;		/* fills the filter */
	bool hashmap;		/* fills the hash map */
	bool probes;		/* needs absent values */
};

static const struct bloom_kind kinds[] = {
	{ "bloom-lookup", BLOOM_OP_PEEK, true, false, false },
	{ "bloom-update", BLOOM_OP_PUSH, true, false, false },
	{ "bloom-false-positive", BLOOM_OP_PEEK, true, false, true },
	{ "hashmap-without-bloom", BLOOM_OP_HASH_LOOKUP, false, true, true },
	{ "hashmap-with-bloom", BLOOM_OP_HASH_FILTERED, true, true, true },
};

struct counts {
	uint64_t done, found, missed, filtered, errors;
};

struct bloom_state {
	struct bloom_bpf *skel;
	const struct bloom_kind *kind;
	uint8_t *values;	/* the mmap'ed array */
	size_t values_len;
	uint32_t stride;	/* the kernel's element size: value_size rounded up to 8 */
	uint32_t probes;	/* absent values after the inserted ones */
	uint32_t id_bits;	/* values are permutations of ids of this many bits */
	uint64_t key;		/* this run's permutation */
	uint32_t win_base, win_len, win_present;
	uint64_t pass;		/* false-positive passes: each writes fresh probes */
	int job_fd;
	struct delta ops, missed, found, errors;
};

static const struct bloom_kind *kind_of(const struct bench *b)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(kinds); i++)
		if (!strcmp(kinds[i].name, b->name))
			return &kinds[i];
	die("bloom: no kind for %s", b->name);
}

/* ---- values ---- */

static uint32_t id_bits_of(uint64_t size)
{
	return size < 8 ? size * 8 : 64;
}

/* Distinct values a value_size offers; 0 means more than any count here. */
static uint64_t value_space(uint64_t size)
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

static uint64_t splitmix64(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

/* The value of `id`: its permutation in the first 8 bytes, noise after them. */
static void write_value(struct bloom_state *s, uint64_t slot, uint64_t id)
{
	uint8_t *v = s->values + slot * s->stride;
	uint64_t head = permute(id, s->id_bits, s->key), more;
	uint32_t i, j, size = value_size;

	for (i = 0; i < size && i < 8; i++)
		v[i] = head >> (8 * i);
	for (; i < size; i += 8) {
		more = splitmix64(s->key ^ (id * 0xd6e8feb86659fd93ull) ^ i);
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
	uint64_t space = value_space(value_size), seq = s->pass * s->probes + i;

	if (space)
		seq %= space - nr_entries;
	return nr_entries + seq;
}

/* ---- theory ---- */

/*
 * The bitmap the kernel allocates (kernel/bpf/bloom_filter.c): n * k bits
 * times 7/5 (about 1/ln 2, the size that minimises false positives for k),
 * computed in u32 as (n * k / 5) * 7, at least 64 bits, rounded up to a
 * power of two; 2^32 bits when that overflows or exceeds 2^31.
 */
static uint64_t kernel_bitmap_bits(uint64_t n, uint64_t k)
{
	uint64_t bits = n * k;

	if (bits > UINT32_MAX)
		return 1ull << 32;
	bits = bits / 5 * 7;
	if (bits > UINT32_MAX || bits > (1ull << 31))
		return 1ull << 32;
	if (bits <= 64)
		return 64;
	return 1ull << (64 - __builtin_clzll(bits - 1));
}

/* (1 - e^(-kn/m))^k: the classic estimate, k independent uniform bits per value. */
static double theory_fpr(uint64_t n, uint64_t k, uint64_t m)
{
	return pow(1.0 - exp(-(double)k * n / m), k);
}

/* ---- jobs ---- */

static int run_job(struct bloom_state *s, uint32_t *job)
{
	uint32_t ret;
	int err = test_run_pkt(s->job_fd, job, JOB__WORDS * sizeof(uint32_t), 1, &ret);

	if (err)
		return err;
	return ret == XDP_PASS ? 0 : -EINVAL;
}

/* `n` operations over the window [base, base + len) from `pos`, in syscall-sized chunks. */
static int walk(struct bloom_state *s, enum bloom_op op, uint32_t base, uint32_t len,
		uint32_t pos, uint64_t n, struct counts *c)
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
		c->found += job[JOB_OUT_FOUND];
		c->missed += job[JOB_OUT_MISSED];
		c->filtered += job[JOB_OUT_FILTERED];
		c->errors += job[JOB_OUT_ERRORS];
		pos = (pos + chunk) % len;
		n -= chunk;
	}
	return 0;
}

/* Inserts every value [0, nr_entries) with `op`; each must succeed exactly once. */
static int fill(struct bloom_state *s, enum bloom_op op, const char *what)
{
	struct counts c;
	int err;

	err = walk(s, op, 0, nr_entries, 0, nr_entries, &c);
	if (err)
		return err;
	if (c.found != nr_entries || c.errors) {
		errmsg("%s: filling the %s: %" PRIu64 " of %" PRIu64 " inserted, %" PRIu64
		       " errors", s->kind->name, what, c.found, nr_entries, c.errors);
		return -EIO;
	}
	return 0;
}

/* ---- setup ---- */

/* Absent values there are room for: --nr_probes, or fewer when value_size runs out. */
static uint32_t probes_of(const struct bloom_kind *k)
{
	uint64_t space = value_space(value_size);

	if (!k->probes)
		return 0;
	if (space && space - nr_entries < nr_probes)
		return space - nr_entries;
	return nr_probes;
}

static int bloom_validate(struct bench_env *env)
{
	const struct bloom_kind *k = kind_of(env->bench);
	uint64_t space = value_space(value_size);

	if (space && nr_entries + (k->probes ? 1 : 0) > space) {
		errmsg("--nr_entries %" PRIu64 ": a %" PRIu64 "-byte value has only %" PRIu64
		       " distinct values%s", nr_entries, value_size, space,
		       k->probes ? ", and absent ones are needed too" : "");
		return -EINVAL;
	}
	if (!strcmp(k->name, "bloom-false-positive") && count_ops > probes_of(k)) {
		errmsg("--count %" PRIu64 " exceeds the %u probes (--nr_probes, or the values "
		       "left by --value_size): a fixed count must look up distinct values",
		       count_ops, probes_of(k));
		return -EINVAL;
	}
	return 0;
}

/*
 * The hash map benchmarks look up a window that starts hit_percent of its
 * length before the end of the inserted values and runs into the probes;
 * it is shortened when nr_entries cannot supply that many present values.
 */
static void set_window(struct bloom_state *s)
{
	uint64_t len = s->probes, present;

	if (!s->kind->hashmap) {
		s->win_base = s->kind->probes ? nr_entries : 0;
		s->win_len = s->kind->probes ? s->probes : nr_entries;
		s->win_present = s->kind->probes ? 0 : nr_entries;
		return;
	}
	present = len * hit_percent / 100;
	if (present > nr_entries) {
		len = nr_entries * 100 / hit_percent;
		present = len * hit_percent / 100;
	}
	s->win_base = nr_entries - present;
	s->win_len = len;
	s->win_present = present;
}

static int check_kernel(struct bench_env *env)
{
	char why[128] = "";

	if (probe_feature(PROBE_MAP_BLOOM_FILTER, why, sizeof(why)) != 1) {
		errmsg("%s: the kernel offers no BPF_MAP_TYPE_BLOOM_FILTER (%s)",
		       env->bench->name, why);
		return -EOPNOTSUPP;
	}
	if (probe_feature(PROBE_TRIG_TEST_RUN, why, sizeof(why)) != 1) {
		errmsg("%s: the maps are filled through XDP test runs, which the kernel refuses (%s)",
		       env->bench->name, why);
		return -EOPNOTSUPP;
	}
	return 0;
}

static void size_maps(struct bloom_state *s)
{
	struct bloom_bpf *skel = s->skel;
	uint32_t vs = value_size;

	bpf_map__set_value_size(skel->maps.values, vs);
	bpf_map__set_max_entries(skel->maps.values, nr_entries + s->probes);
	bpf_map__set_value_size(skel->maps.bloom, vs);
	bpf_map__set_max_entries(skel->maps.bloom, s->kind->bloom ? nr_entries : 1);
	bpf_map__set_map_extra(skel->maps.bloom, nr_hash_funcs);
	bpf_map__set_key_size(skel->maps.hashmap, vs);
	bpf_map__set_value_size(skel->maps.hashmap, vs);
	bpf_map__set_max_entries(skel->maps.hashmap, s->kind->hashmap ? nr_entries : 1);
	skel->rodata->bench_op = s->kind->op;
	skel->rodata->win_base = s->win_base;
	skel->rodata->win_len = s->win_len;
}

/* Loads the job program and, for the periodic benchmarks, the trigger's. */
static int load(struct bench_env *env, struct bloom_state *s)
{
	struct bpf_program *prog;
	int err;

	bpf_object__for_each_program(prog, s->skel->obj)
		bpf_program__set_autoload(prog, prog == s->skel->progs.bloom_job);
	if (!(env->bench->flags & BENCH_F_ONESHOT)) {
		err = trigger_prepare(env, &(struct trigger_progs){
			.test_run = s->skel->progs.bloom_test_run,
			.raw_tp = s->skel->progs.bloom_raw_tp,
			.fentry = s->skel->progs.bloom_fentry,
		});
		if (err)
			return err;
	}
	err = bloom_bpf__load(s->skel);
	if (err)
		return err;
	s->job_fd = bpf_program__fd(s->skel->progs.bloom_job);
	return 0;
}

static int map_values(struct bloom_state *s)
{
	size_t page = sysconf(_SC_PAGESIZE);
	uint64_t bytes = (uint64_t)s->stride * (nr_entries + s->probes);
	void *p;

	s->values_len = (bytes + page - 1) / page * page;
	p = mmap(NULL, s->values_len, PROT_READ | PROT_WRITE, MAP_SHARED,
		 bpf_map__fd(s->skel->maps.values), 0);
	if (p == MAP_FAILED)
		return -errno;
	s->values = p;
	return 0;
}

static int fill_maps(struct bloom_state *s)
{
	uint64_t t0 = now_ns(), t1;
	int err;

	err = write_values(s, 0, nr_entries, inserted_id);
	if (!err && s->probes)
		err = write_values(s, nr_entries, s->probes, probe_id);
	t1 = now_ns();
	if (!err && s->kind->bloom)
		err = fill(s, BLOOM_OP_PUSH, "bloom filter");
	if (!err && s->kind->hashmap)
		err = fill(s, BLOOM_OP_HASH_INSERT, "hash map");
	vmsg("%s: values written in %.2f s, maps filled in %.2f s", s->kind->name,
	     (t1 - t0) / 1e9, (now_ns() - t1) / 1e9);
	return err;
}

static void print_counts(struct bloom_state *s, const struct counts *c)
{
	fprintf(report_out(), "Counts: ops=%" PRIu64 " found=%" PRIu64 " missed=%" PRIu64
		" filtered=%" PRIu64 " errors=%" PRIu64 " window=%u present=%u\n",
		c->done, c->found, c->missed, c->filtered, c->errors, s->win_len,
		s->win_present);
}

/* --count: exact counts for the tests, from the window's start, on this CPU. */
static int run_count(struct bloom_state *s)
{
	struct counts c;
	int err;

	if (!count_ops)
		return 0;
	err = walk(s, s->kind->op, s->win_base, s->win_len, 0, count_ops, &c);
	if (err)
		return err;
	print_counts(s, &c);
	return 0;
}

/* CPUs start their walks far apart, so they do not all touch the same values at once. */
static void spread_cursors(struct bloom_state *s)
{
	struct bench_slot *slots = s->skel->bss->bench_slots;
	int i;

	for (i = 0; i < BENCH_NR_SLOTS; i++)
		slots[i].extra[SLOT_X_CURSOR] = (uint64_t)i * 2654435761u % s->win_len;
}

static int bloom_setup(struct bench_env *env)
{
	struct bloom_state *s = calloc(1, sizeof(*s));
	uint64_t t0 = now_ns();
	int err;

	if (!s)
		return -ENOMEM;
	env->priv = s;
	s->kind = kind_of(env->bench);
	s->stride = (value_size + 7) & ~7u;
	s->id_bits = id_bits_of(value_size);
	s->probes = probes_of(s->kind);
	if (getrandom(&s->key, sizeof(s->key), 0) != sizeof(s->key))
		return -EIO;
	set_window(s);
	err = check_kernel(env);
	if (err)
		return err;
	s->skel = bloom_bpf__open();
	if (!s->skel)
		return -errno;
	BENCH_SKEL_INIT(s->skel);
	size_maps(s);
	err = load(env, s);
	if (!err)
		err = map_values(s);
	if (!err)
		err = fill_maps(s);
	if (!err)
		err = run_count(s);
	if (err)
		return err;
	vmsg("%s: %" PRIu64 " values in, %u probes, ready in %.2f s", env->bench->name,
	     nr_entries, s->probes, (now_ns() - t0) / 1e9);
	if (env->bench->flags & BENCH_F_ONESHOT)
		return 0;
	spread_cursors(s);
	/*
	 * One run per test-run syscall: a run is BLOOM_BATCH operations, long
	 * enough to hide the syscall, so no calibration is needed.
	 */
	env->trig.repeat = 1;
	return trigger_attach(&env->trig);
}

/* ---- measuring ---- */

static uint64_t extra_sum(const struct bench_slot *slots, int word)
{
	uint64_t sum = 0;
	int i;

	for (i = 0; i < BENCH_NR_SLOTS; i++)
		sum += slots[i].extra[word];
	return sum;
}

static void bloom_measure(struct bench_env *env, uint64_t elapsed_ns, double *vals)
{
	struct bloom_state *s = env->priv;
	const struct bench_slot *slots = s->skel->bss->bench_slots;
	uint64_t ops = delta_next(&s->ops, slots_sum(slots, SLOT_HITS));
	uint64_t missed = delta_next(&s->missed, slots_sum(slots, SLOT_DROPS));
	uint64_t found = delta_next(&s->found, extra_sum(slots, SLOT_X_FOUND));
	uint64_t errors = delta_next(&s->errors, extra_sum(slots, SLOT_X_ERRORS));

	if (errors)
		bench_fail(env, -EIO, "%" PRIu64 " map operations failed", errors);
	else if (s->kind->op == BLOOM_OP_PEEK && missed)
		bench_fail(env, -EIO, "%" PRIu64 " false negatives: inserted values not found",
			   missed);
	vals[0] = mops(ops, elapsed_ns);
	vals[1] = mops(found, elapsed_ns);
}

/* One sample: a pass over fresh probes, each looked up once. */
static int fp_run_once(struct bench_env *env, double *vals)
{
	struct bloom_state *s = env->priv;
	struct counts c;
	uint64_t t0;
	int err;

	s->pass++;
	err = write_values(s, nr_entries, s->probes, probe_id);
	if (err)
		return err;
	t0 = now_ns();
	err = walk(s, BLOOM_OP_PEEK, s->win_base, s->win_len, 0, s->probes, &c);
	if (err)
		return err;
	if (c.errors || c.done != s->probes) {
		bench_fail(env, -EIO, "%" PRIu64 " of %u lookups failed", c.errors, s->probes);
		return -EIO;
	}
	vals[0] = 100.0 * c.found / c.done;
	vals[1] = 100.0 * theory_fpr(nr_entries, nr_hash_funcs,
				     kernel_bitmap_bits(nr_entries, nr_hash_funcs));
	vals[2] = mops(c.done, now_ns() - t0);
	return 0;
}

static void bloom_teardown(struct bench_env *env)
{
	struct bloom_state *s = env->priv;

	if (!s)
		return;
	if (s->values)
		munmap(s->values, s->values_len);
	bloom_bpf__destroy(s->skel);
	free(s);
	env->priv = NULL;
}

/* ---- reports in the seed's words ---- */

static void report_rate(struct bench_env *env, const struct stats *st, const char *what)
{
	FILE *out = report_out();

	fprintf(out, "Summary: %s - %.3f ± %.3f M/s operations (%.3f M/s per producer)\n",
		what, st[0].mean, st[0].stddev, st[0].mean / env->nr_producers);
}

static void lookup_report(struct bench_env *env, const struct stats *st)
{
	report_rate(env, st, "Lookups");
}

static void update_report(struct bench_env *env, const struct stats *st)
{
	report_rate(env, st, "Updates");
}

static void hashmap_report(struct bench_env *env, const struct stats *st)
{
	fprintf(report_out(), "Summary: Lookups - %.3f ± %.3f M/s operations, hits %.3f M/s "
		"(%.1f%% of lookups)\n", st[0].mean, st[0].stddev, st[1].mean,
		st[0].mean ? 100.0 * st[1].mean / st[0].mean : 0.0);
}

/*
 * The kernel bench counts a false positive both as a false hit and as a
 * drop and divides by hits + drops + false hits, so it prints f / (1 + f);
 * that figure is given too, to read against the seed.
 */
static void fp_report(struct bench_env *env, const struct stats *st)
{
	uint64_t m = kernel_bitmap_bits(nr_entries, nr_hash_funcs);
	double f = st[0].mean / 100;

	fprintf(report_out(), "Summary: False positive rate: %.3f ± %.3f %% "
		"(theory %.3f %% for a %" PRIu64 "-bit bitmap; as the kernel bench prints it "
		"%.2f %%), lookups of absent values %.3f M/s\n", st[0].mean, st[0].stddev,
		100 * theory_fpr(nr_entries, nr_hash_funcs, m), m, 100 * f / (1 + f),
		st[2].mean);
}

#define BLOOM_BENCH(_name, _summary, _opts, _metrics, _flags, _report)	\
	{								\
		.name = _name,						\
		.summary = _summary,					\
		.family = "bloom",					\
		.opts = _opts,						\
		.metrics = _metrics,					\
		.nr_metrics = ARRAY_SIZE(_metrics),			\
		.flags = _flags,					\
		.validate = bloom_validate,				\
		.setup = bloom_setup,					\
		.measure = (_flags) & BENCH_F_ONESHOT ? NULL : bloom_measure, \
		.run_once = (_flags) & BENCH_F_ONESHOT ? fp_run_once : NULL, \
		.report_final = _report,				\
		.teardown = bloom_teardown,				\
	}

const struct bench bench_bloom_lookup = BLOOM_BENCH("bloom-lookup",
	"bloom filter lookups of inserted values", bloom_opts, lookup_metrics, 0,
	lookup_report);
const struct bench bench_bloom_update = BLOOM_BENCH("bloom-update",
	"bloom filter updates (pushes)", bloom_opts, update_metrics, 0, update_report);
const struct bench bench_bloom_false_positive = BLOOM_BENCH("bloom-false-positive",
	"bloom filter false positive rate against theory", fp_opts, fp_metrics,
	BENCH_F_ONESHOT, fp_report);
const struct bench bench_hashmap_without_bloom = BLOOM_BENCH("hashmap-without-bloom",
	"hash map lookups (the baseline of hashmap-with-bloom)", hashmap_opts,
	hashmap_metrics, 0, hashmap_report);
const struct bench bench_hashmap_with_bloom = BLOOM_BENCH("hashmap-with-bloom",
	"hash map lookups behind a bloom filter", hashmap_opts, hashmap_metrics, 0,
	hashmap_report);

/* ---- suites: the seed's tables ---- */

#define BLOOM_ARGS(k, n, vs) \
	" --nr_entries " #n " --nr_hash_funcs " #k " --value_size " #vs

/* Lookups, updates and the false positive rate of one row of the seed's table. */
#define BLOOM_ROW(hdr, k, label, n, vs)						\
	{ hdr, label ", " #vs "-byte value: lookups",				\
	  "-w0 -d1 bloom-lookup" BLOOM_ARGS(k, n, vs) },			\
	{ NULL, label ", " #vs "-byte value: updates",				\
	  "-w0 -d1 bloom-update" BLOOM_ARGS(k, n, vs) },			\
	{ NULL, label ", " #vs "-byte value: false positive rate",		\
	  "-w0 -d1 bloom-false-positive" BLOOM_ARGS(k, n, vs) }

#define BLOOM_SIZES(hdr, k)							\
	BLOOM_ROW(hdr, k, "50k entries", 50000, 8),				\
	BLOOM_ROW(NULL, k, "50k entries", 50000, 64),				\
	BLOOM_ROW(NULL, k, "100k entries", 100000, 8),				\
	BLOOM_ROW(NULL, k, "100k entries", 100000, 64),				\
	BLOOM_ROW(NULL, k, "500k entries", 500000, 8),				\
	BLOOM_ROW(NULL, k, "500k entries", 500000, 64),				\
	BLOOM_ROW(NULL, k, "1 mil entries", 1000000, 8),			\
	BLOOM_ROW(NULL, k, "1 mil entries", 1000000, 64),			\
	BLOOM_ROW(NULL, k, "2.5 mil entries", 2500000, 8),			\
	BLOOM_ROW(NULL, k, "2.5 mil entries", 2500000, 64),			\
	BLOOM_ROW(NULL, k, "5 mil entries", 5000000, 8),			\
	BLOOM_ROW(NULL, k, "5 mil entries", 5000000, 64)

static const struct suite_step bloom_steps[] = {
	BLOOM_SIZES("1 hash function", 1),
	BLOOM_SIZES("2 hash functions", 2),
	BLOOM_SIZES("3 hash functions", 3),
	BLOOM_SIZES("4 hash functions", 4),
	BLOOM_SIZES("5 hash functions", 5),
	{ NULL },
};

const struct suite suite_bloom = {
	.name = "bloom",
	.summary = "bloom filter lookups, updates, false positive rate: 1-5 hash functions x "
		   "50k-5M entries x 8/64-byte values (seed 003)",
	.steps = bloom_steps,
};

/* The seed's with/without comparison: 5 hash functions, random (absent) lookups. */
#define HASHMAP_ROW(hdr, label, n, vs)						\
	{ hdr, label ": without bloom",						\
	  "-w0 -d1 hashmap-without-bloom" BLOOM_ARGS(5, n, vs) },		\
	{ NULL, label ": with bloom",						\
	  "-w0 -d1 hashmap-with-bloom" BLOOM_ARGS(5, n, vs) }

#define HASHMAP_SIZES(hdr, vs)							\
	HASHMAP_ROW(hdr, "10k entries", 10000, vs),				\
	HASHMAP_ROW(NULL, "50k entries", 50000, vs),				\
	HASHMAP_ROW(NULL, "100k entries", 100000, vs),				\
	HASHMAP_ROW(NULL, "500k entries", 500000, vs),				\
	HASHMAP_ROW(NULL, "1 mil entries", 1000000, vs),			\
	HASHMAP_ROW(NULL, "5 mil entries", 5000000, vs)

static const struct suite_step bloom_hashmap_steps[] = {
	HASHMAP_SIZES("value_size = 4 bytes", 4),
	HASHMAP_SIZES("value_size = 8 bytes", 8),
	HASHMAP_SIZES("value_size = 16 bytes", 16),
	HASHMAP_SIZES("value_size = 40 bytes", 40),
	{ NULL },
};

const struct suite suite_bloom_hashmap = {
	.name = "bloom-hashmap",
	.summary = "hash map lookups with vs without a bloom filter (5 hash functions) by "
		   "value size and entries (seed 003)",
	.steps = bloom_hashmap_steps,
};
