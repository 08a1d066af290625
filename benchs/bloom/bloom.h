/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The bloom family's contract between benchs/bloom.c and bloom.bpf.c.
 *
 * Every value the programs touch lives in one array map, `values`, that
 * user space fills: entries [0, nr_entries) are in the filter (and the
 * hash map), entries from nr_entries on are probes known to be absent.
 * A program walks a window of that array, applying one operation to
 * each value.
 */
#ifndef BPFBENCH_BLOOM_H
#define BPFBENCH_BLOOM_H

/* What a walk does with each value. */
enum bloom_op {
	BLOOM_OP_PEEK,		/* bloom filter lookup: found / missed */
	BLOOM_OP_PUSH,		/* bloom filter insert */
	BLOOM_OP_HASH_LOOKUP,	/* hash map lookup alone: found / missed */
	BLOOM_OP_HASH_FILTERED,	/* bloom filter first, the hash map only on "maybe" */
	BLOOM_OP_HASH_INSERT,	/* hash map insert, key and value both the value */
	BLOOM_OP__COUNT,
};

/*
 * A job: one walk run on demand through BPF_PROG_TEST_RUN of the job
 * program, carried in (and answered through) the XDP packet as u32
 * words.  Used to fill the maps and to count exactly.
 */
enum bloom_job_word {
	JOB_OP,			/* enum bloom_op */
	JOB_BASE,		/* first index of the window in `values` */
	JOB_LEN,		/* window length; the walk wraps around it */
	JOB_POS,		/* where in the window the walk starts */
	JOB_COUNT,		/* values to process (at most BLOOM_JOB_MAX) */
	JOB_OUT_DONE,		/* answers: values processed */
	JOB_OUT_FOUND,		/* peek/lookup found it; insert succeeded */
	JOB_OUT_MISSED,		/* peek/lookup did not find it */
	JOB_OUT_FILTERED,	/* BLOOM_OP_HASH_FILTERED: the filter said "absent" */
	JOB_OUT_ERRORS,		/* unexpected helper errors */
	JOB__WORDS,
};

#define BLOOM_JOB_MAX	(1u << 16)	/* per syscall: keeps a signal noticed quickly */
#define BLOOM_BATCH	16384		/* values per run of a measured program */

/*
 * Per-CPU counters of the measured programs, in the extra[] words of
 * their bench_slot (hits counts values processed, drops those missed).
 */
enum bloom_slot_word {
	SLOT_X_CURSOR,		/* where this CPU's walk goes on; set by user space */
	SLOT_X_FOUND,
	SLOT_X_FILTERED,
	SLOT_X_ERRORS,
};

#endif
