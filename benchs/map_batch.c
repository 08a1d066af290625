// SPDX-License-Identifier: GPL-2.0
/*
 * map-batch: BPF_MAP_{UPDATE,LOOKUP,LOOKUP_AND_DELETE,DELETE}_BATCH
 * against the one-element syscalls doing the same work (seed 002).
 *
 * One sample is one pass: for every requested op, every batch size and
 * then the one-by-one baseline move all max_entries elements through the
 * real kernel map.  Only the syscall loop is timed; results land in an
 * array of max_entries slots and are checked after the clock stops:
 * exactly max_entries elements, each key once, each value as written.
 * A wrong count is a failure (exit 1), never a figure.  A census program
 * walks the map inside the kernel after every fill and every emptying.
 */
#include <errno.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "bench.h"
#include "cli.h"
#include "report.h"
#include "skel_util.h"
#include "map_batch.h"
#include "map_batch.skel.h"

#ifndef ENOTSUPP
#define ENOTSUPP	524	/* kernel-internal errno: the map type lacks the batch op */
#endif

#define MB_MAX_ENTRIES		(1u << 24)
#define MB_MAX_BATCHES		8
#define MB_MAX_KEY		512	/* MAX_BPF_STACK: the kernel's limit for hash keys */
#define MB_MAX_VALUE		32768	/* PCPU_MIN_UNIT_SIZE: the per-CPU maps' limit */
/*
 * The common LRU hands each CPU up to 128 free nodes at a time and
 * evicts to make up a short refill: a full LRU of exactly N holds fewer
 * than N.  One refill of headroom per CPU plus one keeps every element.
 */
#define LRU_LOCAL_FREE_TARGET	128

extern const struct bench bench_map_batch;

enum mb_op { OP_UPDATE, OP_LOOKUP, OP_LOOKUP_AND_DELETE, OP_DELETE, NR_OPS };

static const char *const op_names[NR_OPS] = {
	"update", "lookup", "lookup_and_delete", "delete",
};
/* The seed's function names and wording, for lines in its shape. */
static const char *const op_seed_names[NR_OPS] = {
	"measure_update", "measure_lookup", "measure_lookup_delete", "measure_delete",
};
static const char *const op_seed_nobatch[NR_OPS] = {
	"not batch", "no batching", "not batch", "not batch",
};

enum map_kind { MT_HASH, MT_PERCPU_HASH, MT_LRU_HASH, MT_ARRAY, MT_PERCPU_ARRAY };

static const char *const map_kind_names[] = {
	"hash", "percpu_hash", "lru_hash", "array", "percpu_array", NULL,
};
static const enum bpf_map_type map_kind_types[] = {
	BPF_MAP_TYPE_HASH, BPF_MAP_TYPE_PERCPU_HASH, BPF_MAP_TYPE_LRU_HASH,
	BPF_MAP_TYPE_ARRAY, BPF_MAP_TYPE_PERCPU_ARRAY,
};

static int map_kind;
static uint64_t max_entries, key_size, value_size;
static struct uint_list batches;
static bool no_prealloc;
static const char *op_text;

static const struct opt_def map_batch_opts[] = {
	{ "map-type", 0, OPT_CHOICE, &map_kind, "hash", 0, 0, map_kind_names, "TYPE",
	  "map under test" },
	{ "max_entries", 0, OPT_UINT, &max_entries, "100000", 1, MB_MAX_ENTRIES, NULL, "N",
	  "elements: the map holds N and every pass moves all N" },
	{ "batch", 0, OPT_UINT_LIST, &batches, "10,1000,1000000", 1, MB_MAX_ENTRIES, NULL, "LIST",
	  "batch sizes, elements per syscall (at most 8 sizes)" },
	{ "key-size", 0, OPT_UINT, &key_size, "4", 4, MB_MAX_KEY, NULL, "B",
	  "key bytes (arrays: 4)" },
	{ "value-size", 0, OPT_UINT, &value_size, "4", 4, MB_MAX_VALUE, NULL, "B",
	  "value bytes (per CPU for per-CPU maps)" },
	{ "no-prealloc", 0, OPT_FLAG, &no_prealloc, NULL, 0, 0, NULL, NULL,
	  "BPF_F_NO_PREALLOC (hash and percpu_hash only)" },
	{ "op", 0, OPT_STRING, &op_text, "update,lookup,lookup_and_delete,delete", 0, 0, NULL,
	  "LIST", "ops to measure, in this order: update,lookup,lookup_and_delete,delete" },
	{ NULL },
};

/* ---- what a run measures: set by validate, read by run_once and report_final ---- */

static int op_order[NR_OPS], nr_ops;	/* requested ops the map type has */
static bool op_lacking[NR_OPS];		/* requested, but the map type has no such op */
/* Metric indices: ms; the rate follows at +1, the speed-up at +2 (batched only). */
static int m_batch[NR_OPS][MB_MAX_BATCHES], m_one[NR_OPS], m_retries, m_checked;

/*
 * bench_map_batch specialised for one run's options.  Results keep
 * pointing to it after the run (suites, sweeps and exports read them
 * later), so each run gets its own, with what its summaries need, and
 * all stay reachable from mb_specs.
 */
struct mb_spec {
	struct bench bench;
	struct metric_def metrics[BENCH_MAX_METRICS];
	char names[BENCH_MAX_METRICS][48];
	int op_order[NR_OPS], nr_ops;
	int m_batch[NR_OPS][MB_MAX_BATCHES], m_one[NR_OPS], m_retries;
	struct uint_list batches;
	uint64_t max_entries, key_size, value_size;
	int map_kind;
	bool no_prealloc;
	struct mb_spec *older;
};

static struct mb_spec *mb_specs;

static bool kind_is_array(void)
{
	return map_kind == MT_ARRAY || map_kind == MT_PERCPU_ARRAY;
}

static bool kind_is_percpu(void)
{
	return map_kind == MT_PERCPU_HASH || map_kind == MT_PERCPU_ARRAY;
}

/* Arrays' elements cannot be deleted: the kernel has no delete for them, batched or not. */
static bool kind_lacks(enum mb_op op)
{
	return kind_is_array() && (op == OP_DELETE || op == OP_LOOKUP_AND_DELETE);
}

static int parse_ops(void)
{
	char buf[128], *tok, *save = NULL;
	bool seen[NR_OPS] = { false };
	int i;

	if (strlen(op_text) >= sizeof(buf)) {
		errmsg("--op: '%s' is too long", op_text);
		return -EINVAL;
	}
	strcpy(buf, op_text);
	nr_ops = 0;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < NR_OPS && strcmp(tok, op_names[i]); i++)
			;
		if (i == NR_OPS) {
			errmsg("--op: '%s' is not one of update|lookup|lookup_and_delete|delete", tok);
			return -EINVAL;
		}
		if (seen[i]) {
			errmsg("--op: '%s' is given twice", tok);
			return -EINVAL;
		}
		seen[i] = true;
		op_lacking[i] = kind_lacks(i);
		if (!op_lacking[i])
			op_order[nr_ops++] = i;
	}
	if (!seen[0] && !seen[1] && !seen[2] && !seen[3]) {
		errmsg("--op: '%s' names no op", op_text);
		return -EINVAL;
	}
	return 0;
}

static int check_combinations(void)
{
	int i, j;

	if (kind_is_array() && key_size != 4) {
		errmsg("--key-size: %s maps have 4-byte keys (the index), not %llu",
		       map_kind_names[map_kind], (unsigned long long)key_size);
		return -EINVAL;
	}
	if (no_prealloc && map_kind != MT_HASH && map_kind != MT_PERCPU_HASH) {
		errmsg("--no-prealloc: %s maps are always preallocated", map_kind_names[map_kind]);
		return -EINVAL;
	}
	if (batches.n > MB_MAX_BATCHES) {
		errmsg("--batch: %d sizes, at most %d", batches.n, MB_MAX_BATCHES);
		return -EINVAL;
	}
	for (i = 0; i < batches.n; i++)
		for (j = 0; j < i; j++)
			if (batches.v[i] == batches.v[j]) {
				errmsg("--batch: %llu is given twice",
				       (unsigned long long)batches.v[i]);
				return -EINVAL;
			}
	return 0;
}

static int add_metric(struct mb_spec *sp, const char *op, const char *what, const char *unit,
		      enum metric_kind kind, int base)
{
	int i = sp->bench.nr_metrics++;

	snprintf(sp->names[i], sizeof(sp->names[i]), "%s%s%s", op, *op ? "_" : "", what);
	sp->metrics[i] = (struct metric_def){
		.name = sp->names[i], .unit = unit, .kind = kind, .base = base,
		/* ms of max_entries elements -> M elements/s */
		.scale = kind == METRIC_INVERSE ? max_entries / 1000.0 : 0,
	};
	return i;
}

/* Per op: per batch size ms, M elem/s, speed-up; then one-by-one ms, M elem/s. */
static void build_metrics(struct mb_spec *sp)
{
	char what[40];
	int i, j, op, ms;

	sp->bench = bench_map_batch;
	sp->bench.metrics = sp->metrics;
	sp->bench.nr_metrics = 0;
	for (i = 0; i < nr_ops; i++) {
		op = op_order[i];
		for (j = 0; j < batches.n; j++) {
			snprintf(what, sizeof(what), "batch_%llu_ms", (unsigned long long)batches.v[j]);
			ms = add_metric(sp, op_names[op], what, "ms", METRIC_SAMPLED, 0);
			snprintf(what, sizeof(what), "batch_%llu_rate", (unsigned long long)batches.v[j]);
			add_metric(sp, op_names[op], what, "M elem/s", METRIC_INVERSE, ms);
			snprintf(what, sizeof(what), "batch_%llu_speedup", (unsigned long long)batches.v[j]);
			add_metric(sp, op_names[op], what, "x one-by-one", METRIC_SAMPLED, 0);
			m_batch[op][j] = ms;
		}
		m_one[op] = add_metric(sp, op_names[op], "one_by_one_ms", "ms", METRIC_SAMPLED, 0);
		add_metric(sp, op_names[op], "one_by_one_rate", "M elem/s", METRIC_INVERSE, m_one[op]);
	}
	m_retries = add_metric(sp, "", "enospc_retries", "retries/pass", METRIC_SAMPLED, 0);
	m_checked = add_metric(sp, "", "elements_checked", "elem/pass", METRIC_SAMPLED, 0);
	memcpy(sp->op_order, op_order, sizeof(op_order));
	sp->nr_ops = nr_ops;
	memcpy(sp->m_batch, m_batch, sizeof(m_batch));
	memcpy(sp->m_one, m_one, sizeof(m_one));
	sp->m_retries = m_retries;
	sp->batches = batches;
	sp->max_entries = max_entries;
	sp->key_size = key_size;
	sp->value_size = value_size;
	sp->map_kind = map_kind;
	sp->no_prealloc = no_prealloc;
}

static int map_batch_validate(struct bench_env *env)
{
	struct mb_spec *sp;
	int err = parse_ops();

	if (!err)
		err = check_combinations();
	if (err)
		return err;
	sp = calloc(1, sizeof(*sp));
	if (!sp)
		return -ENOMEM;
	build_metrics(sp);
	sp->older = mb_specs;
	mb_specs = sp;
	env->bench = &sp->bench;
	return 0;
}

/* ---- elements ---- */

/* n elements laid out as the batch syscalls take them. */
struct elem_buf {
	uint8_t *keys, *vals;
};

enum map_fill { MAP_UNKNOWN, MAP_EMPTY, MAP_FULL };	/* arrays: "empty" is all values zero */

struct mb_state {
	struct bench_env *env;
	struct map_batch_bpf *skel;
	int map_fd, census_fd;
	uint32_t n;
	size_t ksz;		/* key bytes */
	size_t vstride;		/* bytes of one CPU's copy of a value in syscall buffers */
	size_t vsz;		/* bytes of a value in syscall buffers (all CPUs' copies) */
	int nr_copies;		/* 1, or the possible CPUs of a per-CPU map */
	struct elem_buf src;	/* what update writes: element id i at slot i */
	struct elem_buf out;	/* what lookups return, in the order they return it */
	uint8_t *zero_vals;	/* arrays: the values of an "empty" array */
	uint8_t *seen;		/* per element id: returned already in this pass */
	uint8_t *cursor_in, *cursor_out;
	enum map_fill fill;
	uint64_t retries;	/* ENOSPC retries in the current pass */
	uint64_t checked;	/* elements the current pass found where they belong */
	uint64_t passes;	/* passes completed */
};

static uint8_t *key_at(const struct elem_buf *b, const struct mb_state *s, uint32_t i)
{
	return b->keys + (size_t)i * s->ksz;
}

static uint8_t *val_at(const struct elem_buf *b, const struct mb_state *s, uint32_t i)
{
	return b->vals + (size_t)i * s->vsz;
}

/* Keys: the first 4 bytes give the id (arrays: the index), the rest vary with it. */
static void make_key(const struct mb_state *s, uint32_t id, uint8_t *key)
{
	uint32_t head = kind_is_array() ? id : id + 1;
	size_t j;

	memcpy(key, &head, sizeof(head));
	for (j = sizeof(head); j < s->ksz; j++)
		key[j] = (uint8_t)(id * 13 + j);
}

/* Values: CPU c's copy starts with id + 2 + c (the census checks that), the rest varies. */
static void make_value(const struct mb_state *s, uint32_t id, uint8_t *val)
{
	uint8_t *copy;
	uint32_t head;
	size_t j;
	int c;

	for (c = 0; c < s->nr_copies; c++) {
		copy = val + c * s->vstride;
		head = id + 2 + c;
		memcpy(copy, &head, sizeof(head));
		for (j = sizeof(head); j < value_size; j++)
			copy[j] = (uint8_t)(id * 7 + j + c);
	}
}

static uint32_t key_id(const struct mb_state *s, const uint8_t *key)
{
	uint32_t head;

	memcpy(&head, key, sizeof(head));
	return kind_is_array() ? head : head - 1;	/* key 0: UINT32_MAX, out of range */
}

/* Compares what each CPU's copy holds; the padding to 8 bytes is not the value's. */
static bool value_equal(const struct mb_state *s, const uint8_t *a, const uint8_t *b)
{
	int c;

	for (c = 0; c < s->nr_copies; c++)
		if (memcmp(a + c * s->vstride, b + c * s->vstride, value_size))
			return false;
	return true;
}

static int elem_buf_alloc(struct elem_buf *b, const struct mb_state *s, size_t cap)
{
	uint8_t *keys = realloc(b->keys, cap * s->ksz);

	if (!keys)
		return -ENOMEM;
	b->keys = keys;
	b->vals = realloc(b->vals, cap * s->vsz);
	if (!b->vals)
		return -ENOMEM;
	return 0;
}

static int alloc_elements(struct mb_state *s)
{
	size_t cursz = s->ksz > 8 ? s->ksz : 8;	/* hash cursors are a u32 bucket, arrays' a key */
	uint32_t i;
	int err;

	err = elem_buf_alloc(&s->src, s, s->n);
	if (!err)	/* +1: room for the one element too many that shows a duplicate */
		err = elem_buf_alloc(&s->out, s, (size_t)s->n + 1);
	if (err)
		return err;
	s->seen = calloc(s->n, 1);
	s->cursor_in = calloc(1, cursz);
	s->cursor_out = calloc(1, cursz);
	if (kind_is_array())
		s->zero_vals = calloc(s->n, s->vsz);
	if (!s->seen || !s->cursor_in || !s->cursor_out || (kind_is_array() && !s->zero_vals))
		return -ENOMEM;
	for (i = 0; i < s->n; i++) {
		make_key(s, i, key_at(&s->src, s, i));
		memset(val_at(&s->src, s, i), 0, s->vsz);
		make_value(s, i, val_at(&s->src, s, i));
	}
	return 0;
}

/* ---- one timed loop, and its failures ---- */

struct pass {
	struct mb_state *s;
	enum mb_op op;
	uint32_t batch;		/* 0: one by one */
};

static int pass_fail(const struct pass *p, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Stops the run with "OP batch N: what happened"; exit 1. */
static int pass_fail(const struct pass *p, int err, const char *fmt, ...)
{
	char what[160], how[32];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (p->batch)
		snprintf(how, sizeof(how), "batch %u", p->batch);
	else
		snprintf(how, sizeof(how), "one by one");
	bench_fail(p->s->env, err, "%s, %s: %s", op_names[p->op], how, what);
	return err;
}

static int syscall_fail(const struct pass *p, int err, const char *call)
{
	return pass_fail(p, err, "%s: %s", call, strerror(-err));
}

static uint32_t min_u32(uint32_t a, uint32_t b)
{
	return a < b ? a : b;
}

/* Update or delete: one syscall for a batch of the n source elements. */
static int write_batch(const struct pass *p, uint32_t off, uint32_t *cnt)
{
	LIBBPF_OPTS(bpf_map_batch_opts, opts, .elem_flags = BPF_ANY);
	struct mb_state *s = p->s;

	if (p->op == OP_DELETE)
		return bpf_map_delete_batch(s->map_fd, key_at(&s->src, s, off), cnt, NULL);
	return bpf_map_update_batch(s->map_fd, key_at(&s->src, s, off), val_at(&s->src, s, off),
				    cnt, &opts);
}

/* Updates, or deletes, the n source elements in chunks of the batch size. */
static int write_batched(const struct pass *p, uint32_t *done)
{
	bool del = p->op == OP_DELETE;
	struct mb_state *s = p->s;
	uint32_t off, want, cnt;
	int err;

	for (off = 0; off < s->n; off += want) {
		want = min_u32(p->batch, s->n - off);
		cnt = want;
		err = write_batch(p, off, &cnt);
		if (err)	/* delete: ENOENT included, the map lacked one of our keys */
			return syscall_fail(p, err, del ? "BPF_MAP_DELETE_BATCH" :
					    "BPF_MAP_UPDATE_BATCH");
		if (cnt != want)
			return pass_fail(p, -EIO, "%s %u of %u", del ? "deleted" : "updated",
					 cnt, want);
		if (interrupted())
			return -EINTR;
	}
	*done = s->n;
	return 0;
}

static int update_one_by_one(const struct pass *p, uint32_t *done)
{
	struct mb_state *s = p->s;
	uint32_t i;
	int err;

	for (i = 0; i < s->n; i++) {
		err = bpf_map_update_elem(s->map_fd, key_at(&s->src, s, i),
					  val_at(&s->src, s, i), BPF_ANY);
		if (err)
			return syscall_fail(p, err, "BPF_MAP_UPDATE_ELEM");
		if (!(i & 4095) && interrupted())
			return -EINTR;
	}
	*done = s->n;
	return 0;
}

/*
 * A hash bucket is never split across batches: when the next one holds
 * more elements than the window, the kernel returns ENOSPC having copied
 * nothing.  The window grows (and stays grown, as a real caller's buffer
 * would) and the same cursor is asked again.
 */
static int grow_window(const struct pass *p, uint32_t *window, uint32_t cnt)
{
	struct mb_state *s = p->s;
	uint32_t old = *window;

	if (cnt)
		return pass_fail(p, -EIO, "ENOSPC with %u elements copied", cnt);
	if (old >= s->n)
		return pass_fail(p, -EIO, "ENOSPC with a window of all %u elements", s->n);
	*window = min_u32(old * 2, s->n);
	s->retries++;
	vmsg("map-batch: %s batch %u: a bucket holds more than %u elements (ENOSPC), "
	     "batch buffer grown to %u, retrying", op_names[p->op], p->batch, old, *window);
	return 0;
}

/* Dumps the map with the in/out cursor into consecutive result slots. */
static int lookup_batched(const struct pass *p, uint32_t *total)
{
	struct mb_state *s = p->s;
	bool del = p->op == OP_LOOKUP_AND_DELETE, first = true;
	uint32_t window = min_u32(p->batch, s->n), want, cnt;
	size_t cursz = s->ksz > 8 ? s->ksz : 8;
	int err;

	*total = 0;
	for (;;) {
		/*
		 * Never more than one past the elements still expected: the
		 * kernel returns what there is either way, one extra shows a
		 * duplicate, and the results fit in n + 1 slots.
		 */
		want = min_u32(window, s->n - *total + 1);
		cnt = want;
		if (del)
			err = bpf_map_lookup_and_delete_batch(s->map_fd, first ? NULL : s->cursor_in,
							      s->cursor_out, key_at(&s->out, s, *total),
							      val_at(&s->out, s, *total), &cnt, NULL);
		else
			err = bpf_map_lookup_batch(s->map_fd, first ? NULL : s->cursor_in,
						   s->cursor_out, key_at(&s->out, s, *total),
						   val_at(&s->out, s, *total), &cnt, NULL);
		if (err == -ENOSPC && want < window)
			return pass_fail(p, -EIO, "a bucket holds more than the %u elements still "
					 "expected", want);
		if (err == -ENOSPC) {
			err = grow_window(p, &window, cnt);
			if (err)
				return err;
			continue;
		}
		if (err && err != -ENOENT)
			return syscall_fail(p, err, del ? "BPF_MAP_LOOKUP_AND_DELETE_BATCH" :
					    "BPF_MAP_LOOKUP_BATCH");
		KERNEL_WROTE(key_at(&s->out, s, *total), (size_t)cnt * s->ksz);
		KERNEL_WROTE(val_at(&s->out, s, *total), (size_t)cnt * s->vsz);
		*total += cnt;	/* ENOENT: the end, after a last (maybe partial, maybe empty) batch */
		if (*total > s->n)
			return pass_fail(p, -EIO, "more than the %u elements: a key came twice", s->n);
		if (err == -ENOENT)
			return 0;
		memcpy(s->cursor_in, s->cursor_out, cursz);
		first = false;
		if (interrupted())
			return -EINTR;
	}
}

/*
 * The seed's one-by-one walk: get_next_key from the previous key, then
 * delete the previous key (the next is already known: a hash restarts
 * from its first bucket after a deleted key, which would make this
 * quadratic), then look the new key up.
 */
static int walk_one_by_one(const struct pass *p, uint32_t *total)
{
	struct mb_state *s = p->s;
	bool del = p->op != OP_LOOKUP, look = p->op != OP_DELETE;
	uint8_t *prev = NULL, *key;
	uint32_t i = 0;
	int err;

	for (;;) {
		key = key_at(&s->out, s, i);
		err = bpf_map_get_next_key(s->map_fd, prev, key);
		if (err == -ENOENT)
			break;
		if (err)
			return syscall_fail(p, err, "BPF_MAP_GET_NEXT_KEY");
		if (del && prev && (err = bpf_map_delete_elem(s->map_fd, prev)))
			return syscall_fail(p, err, "BPF_MAP_DELETE_ELEM");
		if (look && (err = bpf_map_lookup_elem(s->map_fd, key, val_at(&s->out, s, i))))
			return syscall_fail(p, err, "BPF_MAP_LOOKUP_ELEM");
		prev = key;
		if (++i > s->n)
			return pass_fail(p, -EIO, "more than the %u elements: a key came twice", s->n);
		if (!(i & 4095) && interrupted())
			return -EINTR;
	}
	if (del && prev && (err = bpf_map_delete_elem(s->map_fd, prev)))
		return syscall_fail(p, err, "BPF_MAP_DELETE_ELEM");
	*total = i;
	return 0;
}

static int run_op(const struct pass *p, uint32_t *total)
{
	if (!p->batch)
		return p->op == OP_UPDATE ? update_one_by_one(p, total) : walk_one_by_one(p, total);
	if (p->op == OP_UPDATE || p->op == OP_DELETE)
		return write_batched(p, total);
	return lookup_batched(p, total);
}

/* ---- checks, untimed ---- */

/* The kernel's own count of the map: elements, sum of ids, mismatches. */
static int take_census(const struct pass *p, struct census *c)
{
	struct mb_state *s = p->s;
	unsigned char pkt[64] = { 0 };
	int err = test_run_pkt(s->census_fd, pkt, sizeof(pkt), 1, NULL);

	if (err)
		return syscall_fail(p, err, "census BPF_PROG_TEST_RUN");
	*c = s->skel->bss->census;
	return 0;
}

static int census_expect(const struct pass *p, enum map_fill want)
{
	uint64_t n = p->s->n, elems = want == MAP_FULL || kind_is_array() ? n : 0;
	uint64_t sum = elems ? n * (n - 1) / 2 : 0;
	struct census c = { 0 };
	int err = take_census(p, &c);

	if (err)
		return err;
	if (want == MAP_EMPTY && kind_is_array())
		return c.elems == n ? 0 : pass_fail(p, -EIO, "census: the array has %llu of %llu slots",
						     (unsigned long long)c.elems, (unsigned long long)n);
	if (c.elems != elems || c.id_sum != sum || c.bad)
		return pass_fail(p, -EIO, "census: the map holds %llu elements (expected %llu), "
				 "id sum %llu (expected %llu), %llu wrong keys or values",
				 (unsigned long long)c.elems, (unsigned long long)elems,
				 (unsigned long long)c.id_sum, (unsigned long long)sum,
				 (unsigned long long)c.bad);
	return 0;
}

/* Every element returned exactly once, with the value update wrote. */
static int verify_results(const struct pass *p, uint32_t total, bool values)
{
	struct mb_state *s = p->s;
	const uint8_t *key;
	uint32_t i, id;

	if (total != s->n)
		return pass_fail(p, -EIO, "saw %u elements, expected exactly %u", total, s->n);
	memset(s->seen, 0, s->n);
	for (i = 0; i < total; i++) {
		key = key_at(&s->out, s, i);
		id = key_id(s, key);
		if (id >= s->n || memcmp(key, key_at(&s->src, s, id), s->ksz))
			return pass_fail(p, -EIO, "result %u: a key that was never written", i);
		if (s->seen[id]++)
			return pass_fail(p, -EIO, "result %u: element %u returned twice", i, id);
		if (values && !value_equal(s, val_at(&s->out, s, i), val_at(&s->src, s, id)))
			return pass_fail(p, -EIO, "element %u: value differs from the one written", id);
	}
	return 0;
}

static int check_pass(const struct pass *p, uint32_t total)
{
	int err;

	switch (p->op) {
	case OP_UPDATE:
		return census_expect(p, MAP_FULL);
	case OP_LOOKUP:
		return verify_results(p, total, true);
	case OP_LOOKUP_AND_DELETE:
		err = verify_results(p, total, true);
		return err ? err : census_expect(p, MAP_EMPTY);
	case OP_DELETE:
		if (p->batch)	/* our keys: write_batched counted each */
			err = total == p->s->n ? 0 : pass_fail(p, -EIO, "deleted %u of %u", total,
							       p->s->n);
		else
			err = verify_results(p, total, false);
		return err ? err : census_expect(p, MAP_EMPTY);
	default:
		return -EINVAL;
	}
}

/* Brings the map to the state the op starts from, in one untimed batch call. */
static int prepare(const struct pass *p, enum map_fill want)
{
	LIBBPF_OPTS(bpf_map_batch_opts, opts, .elem_flags = BPF_ANY);
	struct mb_state *s = p->s;
	uint32_t cnt = s->n;
	int err;

	if (s->fill == want)
		return 0;
	if (want == MAP_FULL || kind_is_array())
		err = bpf_map_update_batch(s->map_fd, s->src.keys,
					   want == MAP_FULL ? s->src.vals : s->zero_vals, &cnt, &opts);
	else
		err = bpf_map_delete_batch(s->map_fd, s->src.keys, &cnt, NULL);
	if (err)
		return pass_fail(p, err, "preparing the map: %s", strerror(-err));
	err = census_expect(p, want);
	if (!err)
		s->fill = want;
	return err;
}

/* What check_pass established, for -v: [op][one by one]. */
static const char *const check_words[NR_OPS][2] = {
	{ "census: exactly these keys, values as written",
	  "census: exactly these keys, values as written" },
	{ "each key returned once, values as written", "each key returned once, values as written" },
	{ "each key returned once, values as written; census: map empty",
	  "each key returned once, values as written; census: map empty" },
	{ "every batch deleted all its keys; census: map empty",
	  "each key walked and deleted once; census: map empty" },
};

static int measure(struct mb_state *s, enum mb_op op, uint32_t batch, double *ms)
{
	struct pass p = { .s = s, .op = op, .batch = batch };
	uint32_t total = 0;
	uint64_t t0, t1;
	int err;

	err = prepare(&p, op == OP_UPDATE ? MAP_EMPTY : MAP_FULL);
	if (err)
		return err;
	s->fill = MAP_UNKNOWN;
	t0 = now_ns();
	err = run_op(&p, &total);
	t1 = now_ns();
	if (!err)
		err = check_pass(&p, total);
	if (err)
		return err;
	s->checked += s->n;
	if (!s->passes)
		vmsg("map-batch: %s %s%.0u: %u elements checked: %s", op_names[op],
		     batch ? "batch " : "one by one", batch, s->n, check_words[op][!batch]);
	s->fill = op == OP_UPDATE || op == OP_LOOKUP ? MAP_FULL : MAP_EMPTY;
	*ms = (t1 - t0) / 1e6;
	return 0;
}

static int map_batch_run_once(struct bench_env *env, double *vals)
{
	struct mb_state *s = env->priv;
	int i, j, op, err;
	double one;

	s->retries = 0;
	s->checked = 0;
	for (i = 0; i < nr_ops; i++) {
		op = op_order[i];
		for (j = 0; j < batches.n; j++) {
			err = measure(s, op, batches.v[j], &vals[m_batch[op][j]]);
			if (err)
				return err;
		}
		err = measure(s, op, 0, &vals[m_one[op]]);
		if (err)
			return err;
		one = vals[m_one[op]];
		for (j = 0; j < batches.n; j++)
			vals[m_batch[op][j] + 2] = vals[m_batch[op][j]] ?
				one / vals[m_batch[op][j]] : 0;
	}
	vals[m_retries] = s->retries;
	vals[m_checked] = s->checked;
	s->passes++;
	return 0;
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

static const char *errno_name(int err)
{
	switch (-err) {
	case ENOTSUPP:
		return "ENOTSUPP";
	case EOPNOTSUPP:
		return "EOPNOTSUPP";
	case EINVAL:
		return "EINVAL";
	default:
		return "an error";
	}
}

/*
 * One SKIP line per op the map type lacks, with the kernel's answers to
 * the batched op and to a single delete; -EOPNOTSUPP if nothing is left.
 */
static int report_skips(struct mb_state *s)
{
	FILE *out = report_out();
	int op, batched, single;

	for (op = 0; op < NR_OPS; op++) {
		if (!op_lacking[op])
			continue;
		batched = probe_op(s, op);
		single = bpf_map_delete_elem(s->map_fd, s->src.keys);
		fprintf(out, "SKIP %s: %s maps have no %s (the kernel answers %s batched, "
			"%s one by one)\n", op_names[op], map_kind_names[map_kind], op_names[op],
			batched ? errno_name(batched) : "success", single ? errno_name(single) : "success");
	}
	fflush(out);
	if (nr_ops)
		return 0;
	errmsg("map-batch: no requested op exists for %s maps", map_kind_names[map_kind]);
	return -EOPNOTSUPP;
}

/* Every op we measure must exist in this kernel; a missing one is a SKIP of the run. */
static int probe_ops(struct mb_state *s)
{
	int i, err;

	for (i = 0; i < nr_ops; i++) {
		err = probe_op(s, op_order[i]);
		if (err == -ENOTSUPP || err == -EOPNOTSUPP || err == -EINVAL) {
			errmsg("map-batch: this kernel has no batched %s for %s maps (%s)",
			       op_names[op_order[i]], map_kind_names[map_kind], errno_name(err));
			return -EOPNOTSUPP;
		}
		if (err)
			return err;
	}
	return 0;
}

static uint32_t map_capacity(struct mb_state *s)
{
	uint32_t extra;

	if (map_kind != MT_LRU_HASH)
		return s->n;
	extra = (libbpf_num_possible_cpus() + 1) * LRU_LOCAL_FREE_TARGET;
	if (!run_opts.quiet)
		fprintf(stderr, "map-batch: lru_hash created with room for %u + %u elements: "
			"its per-CPU free lists would evict some of a full %u\n", s->n, extra, s->n);
	return s->n + extra;
}

static int load_map(struct mb_state *s)
{
	struct bpf_map *map;
	int err;

	s->skel = map_batch_bpf__open();
	if (!s->skel)
		return -errno;
	map = s->skel->maps.batch_map;
	s->skel->rodata->nr_elems = s->n;
	s->skel->rodata->key_is_index = kind_is_array();
	s->skel->rodata->value_per_cpu = kind_is_percpu();
	err = bpf_map__set_type(map, map_kind_types[map_kind]);
	if (!err)
		err = bpf_map__set_key_size(map, s->ksz);
	if (!err)
		err = bpf_map__set_value_size(map, value_size);
	if (!err)
		err = bpf_map__set_max_entries(map, map_capacity(s));
	if (!err)
		err = bpf_map__set_map_flags(map, no_prealloc ? BPF_F_NO_PREALLOC : 0);
	if (!err)
		err = map_batch_bpf__load(s->skel);
	if (err)
		return err;
	s->map_fd = bpf_map__fd(map);
	s->census_fd = bpf_program__fd(s->skel->progs.take_census);
	return 0;
}

static uint64_t mem_available(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	unsigned long long kb = 0;
	char line[128];

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb * 1024;
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

static int map_batch_setup(struct bench_env *env)
{
	struct mb_state *s = calloc(1, sizeof(*s));
	int err;

	if (!s)
		return -ENOMEM;
	env->priv = s;
	env->trig.kind = TRIG_NONE;
	s->env = env;
	s->n = max_entries;
	s->ksz = key_size;
	s->nr_copies = kind_is_percpu() ? libbpf_num_possible_cpus() : 1;
	if (s->nr_copies < 1)
		return s->nr_copies ? s->nr_copies : -EINVAL;
	s->vstride = kind_is_percpu() ? (value_size + 7) / 8 * 8 : value_size;
	s->vsz = s->vstride * s->nr_copies;
	err = check_memory(s);
	if (!err)
		err = alloc_elements(s);
	if (err)
		return err;
	err = load_map(s);
	if (err)
		return err;
	s->fill = MAP_EMPTY;	/* new hashes are empty, new arrays all zero */
	err = report_skips(s);
	return err ? err : probe_ops(s);
}

static void map_batch_teardown(struct bench_env *env)
{
	struct mb_state *s = env->priv;

	if (!s)
		return;
	map_batch_bpf__destroy(s->skel);
	free(s->src.keys);
	free(s->src.vals);
	free(s->out.keys);
	free(s->out.vals);
	free(s->zero_vals);
	free(s->seen);
	free(s->cursor_in);
	free(s->cursor_out);
	free(s);
	env->priv = NULL;
}

/* ---- the summary, in the seed's shape ---- */

/* The spec of a run, or NULL if the bench is not one of ours (not specialised). */
static const struct mb_spec *spec_of(const struct bench *b)
{
	const struct mb_spec *sp;

	for (sp = mb_specs; sp; sp = sp->older)
		if (b == &sp->bench)
			return sp;
	return NULL;
}

/* "batch 10, time 342 (± 3.1 ms, 2.924 M elem/s, 3.94x one-by-one, n 3)" */
static int seed_figures(char *buf, size_t len, const struct mb_spec *sp, const char *how,
			const struct stats *ms, const struct stats *speedup)
{
	double mean = ms->mean;
	int off;

	off = snprintf(buf, len, mean >= 10 ? "%s, time %.0f" : "%s, time %.3f", how, mean);
	off += snprintf(buf + off, len > (size_t)off ? len - off : 0, " (± %.3f ms, %.3f M elem/s",
			ms->stddev, mean > 0 ? sp->max_entries / 1000.0 / mean : 0.0);
	if (speedup)
		off += snprintf(buf + off, len > (size_t)off ? len - off : 0,
				", %.2fx one-by-one", speedup->mean);
	off += snprintf(buf + off, len > (size_t)off ? len - off : 0, ", n %d)", ms->n);
	return off;
}

/* Calls emit for each figure of an op: every batch size, then one by one. */
static void op_figures(const struct mb_spec *sp, int op, const struct stats *st,
		       void (*emit)(void *ctx, const char *fig), void *ctx)
{
	char how[32], fig[160];
	int j;

	for (j = 0; j < sp->batches.n; j++) {
		snprintf(how, sizeof(how), "batch %llu", (unsigned long long)sp->batches.v[j]);
		seed_figures(fig, sizeof(fig), sp, how, &st[sp->m_batch[op][j]],
			     &st[sp->m_batch[op][j] + 2]);
		emit(ctx, fig);
	}
	seed_figures(fig, sizeof(fig), sp, op_seed_nobatch[op], &st[sp->m_one[op]], NULL);
	emit(ctx, fig);
}

struct line_ctx {
	FILE *out;
	const struct mb_spec *sp;
	int op;
};

static void emit_line(void *ctx, const char *fig)
{
	struct line_ctx *l = ctx;

	fprintf(l->out, "%s: max_entries %llu, %s\n", op_seed_names[l->op],
		(unsigned long long)l->sp->max_entries, fig);
}

static void map_batch_report_final(struct bench_env *env, const struct stats *st)
{
	const struct mb_spec *sp = spec_of(env->bench);
	struct line_ctx l = { .out = report_out(), .sp = sp };
	int i;

	if (!sp)
		return;
	fprintf(l.out, "Summary: %s map, key %llu B, value %llu B%s, time in ms (mean of passes)\n",
		map_kind_names[sp->map_kind], (unsigned long long)sp->key_size,
		(unsigned long long)sp->value_size, sp->no_prealloc ? ", not preallocated" : "");
	for (i = 0; i < sp->nr_ops; i++) {
		l.op = sp->op_order[i];
		op_figures(sp, l.op, st, emit_line, &l);
	}
	if (st[sp->m_retries].max > 0)
		fprintf(l.out, "ENOSPC: a bucket outgrew the batch buffer %.1f times per pass "
			"(buffer grown, call retried)\n", st[sp->m_retries].mean);
}

struct row_ctx {
	char *buf;
	size_t len, off;
};

static void emit_row(void *ctx, const char *fig)
{
	struct row_ctx *r = ctx;

	if (r->off < r->len)
		r->off += snprintf(r->buf + r->off, r->len - r->off, "; %s", fig);
}

/*
 * A suite row: "max_entries N; batch 10, time 342 (...); ...; no batching,
 * time 1346 (...)" for each op.  The bench that ran, our spec, says which
 * metric is which.
 */
static void map_batch_format_row(const struct bench *b, const struct stats *st, char *buf,
				 size_t len)
{
	const struct mb_spec *sp = spec_of(b);
	struct row_ctx row = { .buf = buf, .len = len };
	int i;

	if (!sp) {
		snprintf(buf, len, "(see --json)");
		return;
	}
	row.off = snprintf(buf, len, "max_entries %llu", (unsigned long long)sp->max_entries);
	for (i = 0; i < sp->nr_ops; i++) {
		if (sp->nr_ops > 1 && row.off < len)
			row.off += snprintf(buf + row.off, len - row.off, "; %s:",
					    op_seed_names[sp->op_order[i]]);
		op_figures(sp, sp->op_order[i], st, emit_row, &row);
	}
}

const struct bench bench_map_batch = {
	.name = "map-batch",
	.summary = "batched map syscalls (update/lookup/lookup_and_delete/delete) vs one by one",
	.family = "map-batch",
	.opts = map_batch_opts,
	.nr_metrics = 0,	/* validate makes a copy with the metrics of the options */
	.flags = BENCH_F_ONESHOT,
	.validate = map_batch_validate,
	.setup = map_batch_setup,
	.run_once = map_batch_run_once,
	.report_final = map_batch_report_final,
	.format_row = map_batch_format_row,
	.teardown = map_batch_teardown,
};

/* test_map_batch_perf: a 1M-element hash of int keys and values. */
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
	.summary = "batched vs one-by-one lookup, lookup_and_delete, delete, update on a 1M hash (seed 002)",
	.steps = map_batch_steps,
};
