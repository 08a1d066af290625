/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The bloom family's contract between its user side and bloom.bpf.c.
 *
 * The filter benchmarks take their values from one array map, `values`,
 * that user space fills: entries [0, nr_entries) are in the filter (and
 * the hash map), entries from nr_entries on are probes known to be
 * absent.  The hash map benchmarks look up keys cut from hash_keys, a
 * buffer of random bytes, as the kernel's bench does: value_size-byte
 * keys one after the other, each CPU going on from its own cursor.
 */
#ifndef BPFBENCH_BLOOM_H
#define BPFBENCH_BLOOM_H

/* What a walk does with each value. */
enum bloom_op {
	BLOOM_OP_PEEK,		/* bloom filter lookup: hit (found) / drop (not found) */
	BLOOM_OP_PUSH,		/* bloom filter insert: hit (done) */
	BLOOM_OP_HASH_LOOKUP,	/* hash map lookup alone: hit (found) / drop */
	BLOOM_OP_HASH_FILTERED,	/* the filter first: hit (rejected, or found) / drop */
	BLOOM_OP_HASH_INSERT,	/* hash map insert, key and value both the value: hit (done) */
	BLOOM_OP__COUNT,
};

static inline int bloom_op_is_lookup(enum bloom_op op)
{
	return op == BLOOM_OP_HASH_LOOKUP || op == BLOOM_OP_HASH_FILTERED;
}

/*
 * A job: one walk run on demand through BPF_PROG_TEST_RUN of the job
 * program, carried in (and answered through) the packet as u32 words.
 * Used to fill the maps and to count exactly.  Hash lookups walk key
 * slots of hash_keys, every other op the window [base, base + len) of
 * `values`.
 */
enum bloom_job_word {
	JOB_OP,			/* enum bloom_op */
	JOB_BASE,		/* first index of the window in `values` */
	JOB_LEN,		/* window length (key slots for hash lookups); the walk wraps */
	JOB_POS,		/* where in the window the walk starts */
	JOB_COUNT,		/* values to process (at most BLOOM_JOB_MAX) */
	JOB_OUT_DONE,		/* answers: values processed */
	JOB_OUT_HITS,		/* the kernel bench's hits: see enum bloom_op */
	JOB_OUT_DROPS,		/* the kernel bench's drops */
	JOB_OUT_FILTERED,	/* BLOOM_OP_HASH_FILTERED: the filter said "absent" (among hits) */
	JOB_OUT_ERRORS,		/* unexpected helper errors */
	JOB__WORDS,
};

#define BLOOM_JOB_MAX	(1u << 16)	/* per syscall: keeps a signal noticed quickly */
#define HASH_BATCH	1024		/* lookups per run of a measured hash map program */
#define HASH_CHUNK	16		/* of them per bpf_loop() callback */
/* --latency: ops per timed batch (a hash map run's chunk). */
#define BLOOM_HIST_BATCH	HASH_CHUNK

#define BLOOM_VALUE_MAX	256		/* the kernel bench's largest value_size */
/* The kernel bench's random bytes are 2^21 long: the space keys are cut from. */
#define HASH_KEYS_SPAN	(1u << 21)
#define HASH_KEYS_MASK	(HASH_KEYS_SPAN - 1)

/*
 * Per-CPU counters of the measured programs, bumped per op: the
 * bench_slot's own hits (found, or inserted) and drops (not found), and
 * in extra[] what the filter rejected (a hit of the kernel bench's) and
 * failures.  Operations done are their sum.
 */
enum bloom_slot_word {
	SLOT_X_CURSOR,		/* hash maps: the next key's offset on this CPU; set by user space */
	SLOT_X_FILTERED,
	SLOT_X_ERRORS,
};

#endif
