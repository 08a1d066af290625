/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Per-op latency distributions timed inside BPF (BPF side:
 * bpf/hist.bpf.h; bin layout: bpf/hist_shared.h).
 *
 * A family adopts them in a few lines (noop is the model; its
 * bench_skel_setup() and BENCH_SKEL_TEARDOWN, bench.h, make the first
 * and the last of these calls):
 *
 *	HIST_SKEL_EVERY(skel, on ? HIST_EVERY : 0);	// before load; 0 leaves them out
 *	if (on)						// after load: times the clock
 *		err = HIST_SKEL_OPEN(&s->hist, skel, env, "op", "latency");
 *	hist_bpf_measure(&s->hist, env, &vals[m]);	// in measure(), every period
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
#ifndef BPFBENCH_HIST_BPF_H
#define BPFBENCH_HIST_BPF_H

#include <stdbool.h>
#include <stdint.h>
#include <linux/types.h>
#include "hist.h"

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
 * by test-run), gives its cost to the BPF side, and names histogram 0;
 * the first warm reads are the warm-up's.  0 or -errno (after one line
 * naming who).  A benchmark calls hist_bpf_open() (bench.h), through:
 */
int hist_bpf_init(struct hist_bpf *hb, const char *who, unsigned int warm, int map_fd,
		  int clock_prog_fd, volatile __u64 *clock_q, const char *name, const char *vs);
#define HIST_SKEL_OPEN(hb, skel, env, name, vs)						\
	hist_bpf_open(hb, env, bpf_map__fd((skel)->maps.hist_map),			\
		      bpf_program__fd((skel)->progs.hist_clock), &(skel)->bss->hist_clock_q,	\
		      name, vs)
/* Names histogram id (> 0) too. */
void hist_bpf_name(struct hist_bpf *hb, int id, const char *name);
/*
 * Every period (hist_bpf_sample(), bench.h): reads the histograms.  The
 * runner's first call (its baseline) and the warm-up periods' move the
 * start, so the result covers exactly the measured samples.  0 or -errno.
 */
int hist_bpf_read(struct hist_bpf *hb);
/* The next hist_bpf_sample() starts the measured phase: what came before is warm-up. */
static inline void hist_bpf_rebase(struct hist_bpf *hb)
{
	hb->warm = hb->calls;
}
/* Ops histogram id recorded in the period the last hist_bpf_sample() closed. */
uint64_t hist_bpf_period_ops(const struct hist_bpf *hb, int id);
/*
 * After the producers stopped and before the map goes (hist_bpf_close(),
 * bench.h): reads the histograms a last time, adds what the measured
 * phase recorded to *into, frees; safe if never opened.
 */
void hist_bpf_end(struct hist_bpf *hb, struct hist_set **into);

#endif
