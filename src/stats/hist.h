/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-op latency distributions timed inside BPF (BPF side:
 * bpf/hist.bpf.h; bin layout: bpf/hist_shared.h).
 *
 * A family adopts them in a few lines (noop is the model):
 *
 *	HIST_SKEL_EVERY(skel, on ? HIST_EVERY : 0);	// before load; 0 leaves them out
 *	if (on)						// after load: times the clock
 *		err = HIST_SKEL_OPEN(&s->hist, skel, env, "op", "latency");
 *	hist_bpf_sample(&s->hist, env);			// in measure(), every period
 *	hist_bpf_close(&s->hist, env);			// in teardown(): into the result
 *
 * "op" names the histogram (id 0 on the BPF side; hist_bpf_name() names
 * more), "latency" the run's metric of ns per op from throughput (one
 * producer's: 1000 x producers / throughput) that its mean is printed
 * beside.  The core then prints the Latency line and
 * writes the JSON "histograms" object; -r N and interleaved runs sum.
 * hist_bpf_period_ops() gives a per-sample count metric of the ops timed
 * (noop's sampled_ops).  When on, the map holds 9 entries of 4.5 KB per
 * CPU, created at load (charged to the loader's memory cgroup); one
 * entry when off.  Benchmarks sampled by run_once (BENCH_F_ONESHOT) read
 * the histograms as each run starts and ends, and call hist_bpf_rebase()
 * while every run so far was warm-up (maps/latency.c): the runner's
 * warm-up count knows nothing of their reads.
 *
 * What a histogram covers: from the read that ends the warm-up (without
 * one, the runner's baseline call, made before any producer starts) to
 * one more read in hist_bpf_close(), which teardown makes after the
 * runner stopped the producers: the measured samples and the tail
 * (tail_ops), the runs in flight at the last sample and any a producer
 * began before it saw the stop, a run or two.  A read while programs run
 * cannot be exact: a batch being recorded on a CPU may be in its bins
 * and not yet in its count or batches.  With nothing running at either
 * end the figures agree exactly: the bins sum to the count, the count
 * is the samples' sampled_ops plus tail_ops, and the batches times
 * their ops make the count.  After a warm-up the start is read while
 * programs run, so the first and last hold within a batch a CPU; the
 * second holds always.
 */
#ifndef BPFBENCH_HIST_H
#define BPFBENCH_HIST_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <linux/types.h>
#include "hist_shared.h"

struct bench_env;
struct jsonw;
struct run_result;

/*
 * Sampling rate: one run in 1024 per CPU times its batch.  A sampled run
 * pays two clock reads and the recording (about 75 ns here: noop runs
 * take 113 ns with every run timed, 36 ns with the countdown alone,
 * kernel run_time_ns / run_cnt), which spread over 1024 runs is under
 * 0.1 ns per run; every run pays the countdown (about 2.5 ns: a load, a
 * decrement, a store on its CPU's own line and the branches around).
 */
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

/*
 * JSON: "histograms": {NAME: {...}} (nothing without histograms); res
 * (may be NULL) gives the throughput's ns per op to compare with.
 */
void hist_json(struct jsonw *w, const struct run_result *res, const struct hist_set *set);
/*
 * The Latency line of one histogram: thr_ns is the ns per op the
 * throughput gives (per producer), 0 if none.
 */
void hist_latency_line(FILE *out, const struct hist *h, const char *label, double thr_ns);
/* Every histogram of res, one Latency line each. */
void hist_report(FILE *out, const struct run_result *res);

/* ---- reading a BPF object's histograms (needs the skeleton's hist_map) ---- */

struct hist_bpf {
	bool open;
	int map_fd, nr_cpus, n;
	unsigned int calls, warm;	/* hist_bpf_sample() calls; those that are the warm-up */
	double clock_ns;		/* measured at open */
	volatile __u64 *clock_q;	/* the BPF side's copy */
	char vs[HIST_NAME_MAX];
	char names[HIST_MAX][HIST_NAME_MAX];
	struct hist_cpu *buf;		/* one element, every CPU */
	struct hist *base, *last, *prev;	/* n each: end of warm-up, last and previous sample */
	struct hist scratch;
};

/*
 * Before load: time one run in every (0: none, and neither the clock
 * program nor more than one map entry is loaded).
 */
#define HIST_SKEL_EVERY(skel, every) do {						\
	(skel)->rodata->hist_every = (every);						\
	bpf_program__set_autoload((skel)->progs.hist_clock, (every) != 0);		\
	bpf_map__set_max_entries((skel)->maps.hist_map, (every) ? HIST_MAP_ENTRIES : 1);	\
} while (0)

/*
 * After load: times the clock (clock_prog_fd: the object's hist_clock,
 * by test-run), gives its cost to the BPF side, and names histogram 0.
 * 0 or -errno (after one line).
 */
int hist_bpf_open(struct hist_bpf *hb, const struct bench_env *env, int map_fd,
		  int clock_prog_fd, volatile __u64 *clock_q, const char *name, const char *vs);
#define HIST_SKEL_OPEN(hb, skel, env, name, vs)						\
	hist_bpf_open(hb, env, bpf_map__fd((skel)->maps.hist_map),			\
		      bpf_program__fd((skel)->progs.hist_clock), &(skel)->bss->hist_clock_q,	\
		      name, vs)
/* Names histogram id (> 0) too. */
void hist_bpf_name(struct hist_bpf *hb, int id, const char *name);
/*
 * From measure(), every period: reads the histograms.  The runner's
 * first call (its baseline) and the warm-up periods' move the start, so
 * the result covers exactly the measured samples.  0 or -errno.
 */
int hist_bpf_sample(struct hist_bpf *hb, const struct bench_env *env);
/*
 * measure()'s part, when open: hist_bpf_sample(), whose failure fails the
 * run, then the period's timed ops of histogram 0 into *sampled.
 */
void hist_bpf_measure(struct hist_bpf *hb, struct bench_env *env, double *sampled);
/* The next hist_bpf_sample() starts the measured phase: what came before is warm-up. */
static inline void hist_bpf_rebase(struct hist_bpf *hb)
{
	hb->warm = hb->calls;
}
/* Ops histogram id recorded in the period the last hist_bpf_sample() closed. */
uint64_t hist_bpf_period_ops(const struct hist_bpf *hb, int id);
/*
 * From teardown, after the producers stopped and before the map goes:
 * reads the histograms a last time, adds what the measured phase
 * recorded to env->res, frees; safe if never opened.
 */
void hist_bpf_close(struct hist_bpf *hb, struct bench_env *env);

#endif
