/* SPDX-License-Identifier: GPL-2.0 */
/* bpf-hashmap: what its two benchmarks share (bpf_hashmap.c) and lookup.c's benchmark. */
#ifndef BPFBENCH_BPF_HASHMAP_INT_H
#define BPFBENCH_BPF_HASHMAP_INT_H

#include "bench.h"

/*
 * A run's counters: each CPU's slot read every period, and the previous
 * reads, for the period's deltas.  A CPU's figure is carried over a
 * period in which it finished no run (upstream's figure is its last run).
 */
struct hm_state {
	void *skel;			/* hashmap_full_bpf or hashmap_lookup_bpf */
	struct bpf_object_skeleton *obj;
	const struct bench_slot *slots;	/* the skeleton's .bss */
	uint64_t per_run;		/* events a run counts: upstream's nr_loops */
	int nr_cpus;
	int m_cpu;			/* index of cpu 0's metric; the others follow */
	uint64_t *prev_runs, *prev_ns;
	double *last, last_all;
	bool full;			/* full-update: HM_M_MISSES counts refused updates */
	struct delta hits, drops, refused;
};

enum { HM_M_EVENTS, HM_M_RUN_MS, HM_M_OPS, HM_M_MISSES, HM_M_RUNS, HM_NR_METRICS };

/*
 * The metrics of a benchmark whose figure is named name ("full_update",
 * "lookup"), ops what it counts, misses its failures.
 */
#define HM_METRICS(name, ops, misses)								\
	{										\
		[HM_M_EVENTS] = { name, "M ops/s", METRIC_RATE },			\
		[HM_M_RUN_MS] = { "run_time", "ms", METRIC_TIME },			\
		[HM_M_OPS] = { ops, ops, METRIC_COUNT },				\
		[HM_M_MISSES] = { misses, ops, METRIC_COUNT },				\
		[HM_M_RUNS] = { "runs", "runs", METRIC_COUNT },				\
	}

/* After load: the per-CPU state and metrics (setup's part); 0 or -ENOMEM. */
int hm_state_init(struct bench_env *env, struct hm_state *s, const struct bench_slot *slots,
		  uint64_t per_run);
void hm_measure(struct bench_env *env, uint64_t elapsed_ns, double *vals);
/* The totals, then the skeleton and the state freed (teardown's part). */
void hm_teardown(struct bench_env *env);
/* The kernel bench's per-CPU lines before the Summary (struct bench_report's .lines). */
void hm_full_lines(const struct report_view *v, char *buf, size_t len);
void hm_lookup_lines(const struct report_view *v, char *buf, size_t len);

extern const struct bench bench_bpf_hashmap_lookup;
extern const struct suite suite_bpf_hashmap_lookup;

#endif
