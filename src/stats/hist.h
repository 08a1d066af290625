/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-op latency distributions timed inside BPF (BPF side:
 * bpf/hist.bpf.h; bin layout: bpf/hist_shared.h): one distribution, its
 * percentiles, and a run's set of them.  Reading them from a BPF object
 * is hist_bpf.h's; printing them hist_report.h's.
 */
#ifndef BPFBENCH_HIST_H
#define BPFBENCH_HIST_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <linux/types.h>
#include "hist_shared.h"

/*
 * Sampling rate: one run in 1024 per CPU times its batch.  A sampled run
 * pays two clock reads and the recording (about 75 ns here: noop runs
 * take 113 ns with every run timed, 36 ns with the countdown alone,
 * kernel run_time_ns / run_cnt), which spread over 1024 runs is under
 * 0.1 ns per run; every run pays the countdown (about 2.5 ns: a load, a
 * decrement, a store on its CPU's own line and the branches around).
 */
/* Values in the BPF side's unit, 1/16 ns, per ns. */
#define Q_PER_NS	((double)(1 << HIST_FRAC_BITS))

#define HIST_EVERY	1024
#define HIST_EVERY_STR	"1024"
#define HIST_NAME_MAX	32
/* Mean of the timed ops vs the throughput's ns per op: beyond this they "disagree". */
#define HIST_AGREE_PCT	10.0
/* Linearity: per-op time of N-op vs 2N-op batches beyond this: "system noise". */
#define HIST_LINEAR_PCT	5.0
/* A percentile is within one bin: at most this much of its value (1/16 ns below 2 ns). */
#define HIST_BIN_ERR_PCT	(100.0 / HIST_SUB)

/* One distribution, summed over CPUs (and repetitions). */
struct hist {
	char name[HIST_NAME_MAX];
	char vs[HIST_NAME_MAX];	/* the run's ns/op metric from throughput; "" none */
	uint64_t ops;		/* ops recorded: the sum of bins */
	uint64_t tail_ops;	/* of them, those recorded after the last sample: see above */
	uint64_t batches;	/* timed batches */
	uint64_t below;		/* batches shorter than the clock's cost (recorded as 0) */
	double time_ns;		/* the ops' time, clock cost taken off: exact mean = time_ns / ops */
	double max_ns;		/* exact where known, else the top of the highest bin */
	double clock_ns;	/* the clock's cost taken off every batch (batch-weighted mean) */
	uint64_t bins[HIST_NR_BINS];
	/* linearity: of the above, the batches that timed the first half of their ops only */
	uint64_t half_batches, half_ops;
	double half_time_ns;
	uint64_t half_bins[HIST_NR_BINS];
};

struct hist_summary {
	uint64_t ops;
	double p50, p90, p99, p999, max, mean;	/* ns per op */
	double linearity;	/* per-op median of full batches / of half batches; NAN: not measured */
};

/* The bin a value of q (1/16 ns) falls in, as the BPF side computes it. */
unsigned int hist_bin_of(uint64_t q);
/* Bin i covers [lo, hi) ns. */
double hist_bin_lo(unsigned int i);
double hist_bin_hi(unsigned int i);
/*
 * The p-quantile (0 < p <= 1) in ns: the smallest value with at least
 * p * ops values at or below it, interpolated linearly inside its bin;
 * 0 for an empty histogram.
 */
double hist_quantile(const struct hist *h, double p);
void hist_summarize(const struct hist *h, struct hist_summary *s);
/* acc += h (same name); clock_ns becomes the batch-weighted mean. */
void hist_merge(struct hist *acc, const struct hist *h);

/* A run's histograms (run_result.hists), by name. */
struct hist_set {
	int n;
	struct hist *h;
};
/* The histogram called name in *set, created (zeroed, named) if absent. */
struct hist *hist_set_get(struct hist_set **set, const char *name);
/* Adds every histogram of one into *acc, by name. */
void hist_set_merge(struct hist_set **acc, const struct hist_set *one);
void hist_set_free(struct hist_set *set);

#endif
