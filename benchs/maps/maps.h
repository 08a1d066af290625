/* SPDX-License-Identifier: GPL-2.0 */
/* maps: what the BPF side (maps.bpf.c) and user space (maps/) agree on. */
#ifndef BPFBENCH_MAPS_H
#define BPFBENCH_MAPS_H

#define MAPS_MAX_PROD	64	/* producer slots in .bss; -p is at most this */
#define MAPS_KEY_MAX	260	/* LPM: 4 bytes of prefix length + 256 of data */
#define MAPS_VALUE_MAX	1024
#define MAPS_CHUNK	1000	/* ops per program run: one clock read pair around them */
#define MAPS_ABSENT	0x80000000u	/* index bit of keys never inserted */
/* Op kinds, one program each, in user space's enum mp_op order: lookup update delete peek push pop. */
#define MAPS_NR_OPS	6

/* What a job asks the program to check as it goes. */
#define MAPS_JOB_STRICT	(1u << 0)	/* an op whose result is not the expected one is "bad" */
#define MAPS_JOB_ORDER	(1u << 1)	/* pop: values must come in order (one producer) */

/*
 * One producer's work for a pass, written by user space before it and
 * advanced by the program run after run: keys [0, range) from cursor
 * on, wrapping; lookups follow a 100-op pattern of which the first `hit`
 * target present keys.
 */
struct maps_job {
	__u64 remaining;	/* ops still to do */
	__u32 cursor;		/* next key index */
	__u32 range;
	__u32 phase;		/* lookup: position in the 100-op hit pattern */
	__u32 hit;
	__u32 flags;
	__s32 step;		/* pop with MAPS_JOB_ORDER: +1 (queue) or -1 (stack) */
	__u64 expect;		/* peek: the head's value; ordered pop: the next value */
};

/*
 * A producer's slot: its job, what the program counted during the pass
 * (user space zeroes them before it), and its key and value buffers
 * (user space writes the bytes the program never changes).
 */
struct maps_prod {
	struct maps_job job;
	__u64 ops;		/* ops done */
	__u64 ns;		/* kernel time around them */
	__u64 hits;		/* lookups/peeks that found an element */
	__u64 misses;		/* lookups that found none */
	__u64 bad;		/* results other than the expected (MAPS_JOB_STRICT) */
	__u64 bad_index;	/* the first bad op: its key index or value */
	__s64 bad_ret;		/* and what it returned (0: found, 1: found but wrong value) */
	__u64 sum;		/* pop: sum of the values popped */
	__u8 key[MAPS_KEY_MAX] __attribute__((aligned(8)));
	__u8 val[MAPS_VALUE_MAX] __attribute__((aligned(8)));
} __attribute__((aligned(64)));

#endif
