/* SPDX-License-Identifier: GPL-2.0 */
/*
 * map-batch internals, shared by its four parts: options and setup
 * (map_batch.c), element buffers and their checks (elems.c), the timed
 * passes (passes.c); its table is the core's (REPORT_TABLE).
 */
#ifndef BPFBENCH_MAP_BATCH_MB_H
#define BPFBENCH_MAP_BATCH_MB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "bench.h"

#define MB_MAX_ENTRIES		(1u << 24)
#define MB_MAX_BATCHES		8
#define MB_MAX_KEY		512	/* MAX_BPF_STACK: the kernel's limit for hash keys */
#define MB_MAX_VALUE		32768	/* PCPU_MIN_UNIT_SIZE: the per-CPU maps' limit */

enum mb_op { OP_UPDATE, OP_LOOKUP, OP_LOOKUP_AND_DELETE, OP_DELETE, NR_OPS };
enum map_kind { MT_HASH, MT_PERCPU_HASH, MT_LRU_HASH, MT_ARRAY, MT_PERCPU_ARRAY };

extern const char *const mb_op_names[NR_OPS];
extern const char *const mb_kind_names[];

struct map_batch_args {
	int map_kind;			/* enum map_kind */
	uint64_t max_entries;
	uint64_t key_size, value_size;
	struct uint_list batches;
	bool no_prealloc;
	const char *op_text;		/* "update,lookup,..." */
};

/* Where the figures of one way of doing an op (a batch size, or one-by-one) go in vals[]. */
struct mb_figs {
	int ms;		/* METRIC_TIME: the timed loop, one full pass */
	int rate;	/* METRIC_INVERSE of ms: M elements/s */
	int speedup;	/* METRIC_RATIO: one-by-one ms / this ms; -1 for one-by-one itself */
	int calls;	/* METRIC_COUNT: syscalls the timed loop made */
};

/*
 * What one run measures, derived from its options alone, so validate,
 * setup and the reporters (which see only the result) agree on it.
 * Way j < batches.n is batch size batches.v[j]; way batches.n is one-by-one.
 */
struct mb_plan {
	int op_order[NR_OPS], nr_ops;	/* requested ops the map type has */
	bool lacking[NR_OPS];		/* requested, but the map type has no such op */
	int nr_ways;			/* batch sizes + one-by-one */
	struct mb_figs figs[NR_OPS][MB_MAX_BATCHES + 1];
	int retries, checked;
};

bool mb_is_array(const struct map_batch_args *a);
bool mb_is_percpu(const struct map_batch_args *a);
/* Fills p->op_order and p->lacking; -EINVAL after one line if op_text is wrong. */
int mb_parse_ops(const struct map_batch_args *a, struct mb_plan *p);
/* The figures' indices in a finished result (the reporters); -ENOENT if one is missing. */
/* Batch size of way j, 0 for one-by-one. */
uint32_t mb_way_batch(const struct map_batch_args *a, int j);

/* n elements laid out as the batch syscalls take them. */
struct elem_buf {
	uint8_t *keys, *vals;
};

enum map_fill { MAP_UNKNOWN, MAP_EMPTY, MAP_FULL };	/* arrays: "empty" is all values zero */

struct map_batch_bpf;

struct mb_state {
	struct bench_env *env;
	const struct map_batch_args *a;
	struct mb_plan plan;
	struct map_batch_bpf *skel;
	int map_fd, census_fd;
	uint32_t n;
	size_t ksz;		/* key bytes */
	size_t vstride;		/* bytes of one CPU's copy of a value in syscall buffers */
	size_t vsz;		/* bytes of a value in syscall buffers (all CPUs' copies) */
	size_t cursz;		/* bytes of a batch cursor: hashes' a u32 bucket, arrays' a key */
	int nr_copies;		/* 1, or the possible CPUs of a per-CPU map */
	struct elem_buf src;	/* what update writes: element id i at slot i */
	struct elem_buf out;	/* what lookups return, in the order they return it */
	uint8_t *zero_vals;	/* arrays: the values of an "empty" array */
	uint8_t *seen;		/* per element id: returned already in this pass */
	uint8_t *cursor_in, *cursor_out;
	enum map_fill fill;
	uint64_t retries;	/* ENOSPC retries in the current pass */
	uint64_t checked;	/* elements the current pass found where they belong */
	uint64_t calls;		/* syscalls of the current timed loop */
	uint64_t passes;	/* passes completed */
	uint64_t all_retries;	/* ENOSPC retries of every pass */
};

/* One timed loop: an op, done with one batch size (0: one-by-one). */
struct pass {
	struct mb_state *s;
	enum mb_op op;
	uint32_t batch;
};

static inline uint8_t *key_at(const struct elem_buf *b, const struct mb_state *s, uint32_t i)
{
	return b->keys + (size_t)i * s->ksz;
}

static inline uint8_t *val_at(const struct elem_buf *b, const struct mb_state *s, uint32_t i)
{
	return b->vals + (size_t)i * s->vsz;
}

static inline uint32_t min_u32(uint32_t a, uint32_t b)
{
	return a < b ? a : b;
}

/* elems.c */
int mb_alloc_elements(struct mb_state *s);
void mb_free_elements(struct mb_state *s);
int mb_check_pass(const struct pass *p, uint32_t total);
int mb_prepare(const struct pass *p, enum map_fill want);

/* passes.c */
/* Stops the run with "OP, batch N: what happened"; returns err (exit 1). */
int mb_pass_fail(const struct pass *p, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int mb_syscall_fail(const struct pass *p, int err, const char *call);
int mb_run_once(struct bench_env *env, double *vals);


#endif
