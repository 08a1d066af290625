/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BPFBENCH_HTAB_MEM_HIST_H
#define BPFBENCH_HTAB_MEM_HIST_H

#include <stdbool.h>
#include <stdint.h>
#include "bench.h"

struct bench_env;
struct htab_mem_bpf;

/*
 * --latency's default: one run in 16 per CPU, not noop's 1024.  A run's
 * 64 updates take microseconds, so the clock and the recording (~75 ns)
 * cost under 0.1% spread over 16 runs, and a second of run times
 * thousands (one in 1024: a few dozen).
 */
#define HTAB_MEM_HIST_EVERY_STR	"16"

/*
 * htab-mem --latency (src/bench/hist_bpf.h), with its histogram map created
 * before the run enters its memory cgroup: the map is charged to its
 * creator's cgroup, and per CPU (9 entries of 4.5 KB each, one when
 * off) it would add to the memory figure what the map under test does
 * not use.  every: 0 when off.
 */
struct htab_mem_hist {
	int map_fd;		/* ours until the skeleton took it; -1 */
	uint64_t every;
	struct hist_bpf hb;
	int m_sampled;
};

/* validate: the metrics --latency adds. */
void htab_mem_hist_metrics(struct bench_env *env, bool on);
/* Before memcg_enter(): creates the map.  0 or -errno. */
int htab_mem_hist_create(struct htab_mem_hist *h, uint64_t every);
/* After open, before load: the skeleton uses that map.  0 or -errno. */
int htab_mem_hist_prepare(struct htab_mem_hist *h, struct htab_mem_bpf *skel);
/* After load: times the clock (on only).  0 or -errno. */
int htab_mem_hist_open(struct htab_mem_hist *h, struct htab_mem_bpf *skel, struct bench_env *env);
/* measure(): the period's timed ops into vals. */
void htab_mem_hist_sample(struct htab_mem_hist *h, struct bench_env *env, double *vals);
/* teardown: into the result; safe after any partial setup. */
void htab_mem_hist_close(struct htab_mem_hist *h, struct bench_env *env);

#endif
