/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The layout of the latency histograms, shared by the BPF side
 * (bpf/hist.bpf.h) and user space (src/stats/hist.h).
 *
 * Values are per-op times in units of 1/16 ns ("q"), so that an op far
 * below a nanosecond (an empty loop iteration) still has a figure.  Bins
 * are log-linear, as HDR histograms: 32 bins 1 q wide cover [0, 2 ns),
 * then every power of two [2^e, 2^(e+1)) q is cut into 16 bins of
 * 2^(e-4) q.  A bin is never wider than 1/16 of its lower bound, so a
 * percentile read from the bins is within 6.25% of the true one (1/16 ns
 * below 2 ns).  The last bin ends at 2^38 q = 17.2 s; longer values are
 * counted in it (the exact maximum is kept beside).
 */
#ifndef BPFBENCH_HIST_SHARED_H
#define BPFBENCH_HIST_SHARED_H

#define HIST_FRAC_BITS	4			/* q = ns << HIST_FRAC_BITS */
#define HIST_SUB_BITS	4			/* 16 bins per power of two */
#define HIST_SUB	(1 << HIST_SUB_BITS)
#define HIST_TOP_EXP	38			/* the bins end at 2^38 q */
#define HIST_NR_BINS	(HIST_SUB * (HIST_TOP_EXP - HIST_SUB_BITS + 1))

/*
 * Histograms a benchmark may keep (ids 0 .. HIST_MAX - 1); batches that
 * timed half their ops go to id + HIST_HALF; the clock's own cost has
 * the last entry.
 */
#define HIST_MAX	4
#define HIST_HALF	HIST_MAX
#define HIST_CLOCK_ID	(2 * HIST_MAX)
#define HIST_MAP_ENTRIES	(2 * HIST_MAX + 1)

/*
 * One histogram on one CPU (a per-CPU array element).  Counters are
 * added atomically: two programs may interleave on one CPU.
 *
 * A timed batch of k ops of raw clock time t ns records k ops at
 * ((t << 4) - clock) / k q, where clock is the clock's own cost (q).
 * Batches alternate (where the benchmark lets them) between timing all k
 * ops and timing the first k/2 only, kept apart: comparing the two is
 * the linearity check (time of 2N ops vs twice the time of N).
 */
struct hist_cpu {
	__u64 ops;		/* ops recorded: the sum of bins[] */
	__u64 batches;		/* timed batches recorded */
	__u64 sum_ns;		/* raw clock time of those batches, ns (clock cost not taken off) */
	__u64 max_q;		/* largest per-op value recorded (racy: a maximum, not a sum) */
	__u64 below;		/* batches shorter than the clock cost: recorded as 0 */
	__u64 pad[3];
	__u64 bins[HIST_NR_BINS];
};

/*
 * The bin of a value of q: one function for the BPF side and user
 * space, so the unit test checks what the programs run.  No builtins:
 * BPF has no count-leading-zeros instruction.
 */
static inline __attribute__((always_inline)) __u64 hist_log2(__u64 v)
{
	__u64 r = 0;

	if (v >> 32) {
		v >>= 32;
		r += 32;
	}
	if (v >> 16) {
		v >>= 16;
		r += 16;
	}
	if (v >> 8) {
		v >>= 8;
		r += 8;
	}
	if (v >> 4) {
		v >>= 4;
		r += 4;
	}
	if (v >> 2) {
		v >>= 2;
		r += 2;
	}
	if (v >> 1)
		r += 1;
	return r;
}

static inline __attribute__((always_inline)) __u64 hist_bin(__u64 q)
{
	__u64 e;

	if (q < HIST_SUB)
		return q;
	e = hist_log2(q);
	if (e >= HIST_TOP_EXP)
		return HIST_NR_BINS - 1;
	return HIST_SUB * (e - HIST_SUB_BITS + 1) + (q >> (e - HIST_SUB_BITS)) - HIST_SUB;
}

/* A CPU's sampling countdown (BPF .bss), alone on its cache line as bench_slots are. */
struct hist_tick {
	__u32 left;	/* runs until the next timed one */
	__u32 half;	/* the last timed batch timed half its ops */
} __attribute__((aligned(64)));

#endif
