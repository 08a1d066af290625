/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The contract between the core and a benchmark, and all a benchmark
 * includes of the core (scripts/check-includes.py holds it to that).
 *
 * A benchmark is a table entry of operations, kept in its family's
 * folder (benchs/FAMILY/, beside its .bpf.c); benchs/registry.c lists
 * them.  The core parses options, runs producer and consumer threads,
 * samples every period, computes statistics and reports; it knows
 * nothing about any one benchmark.  What this header gathers:
 *   options      opts.h (tables at offsets), run_opts.h (env->opts)
 *   metrics      metric.h (what a run measures), the output shape its
 *                figures take (struct bench_report), its totals and notes
 *   BPF side     trigger.h (how programs run), skel_util.h (counters,
 *                the skeleton sequence), hist_bpf.h (latency histograms)
 *   the system   probe.h (kernel features), memcg.h (a run's memory)
 */
#ifndef BPFBENCH_BENCH_H
#define BPFBENCH_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdatomic.h>
#include <bpf/libbpf.h>
#include <linux/types.h>
#include "hist_bpf.h"
#include "memcg.h"
#include "metric.h"
#include "opts.h"
#include "probe.h"
#include "run_opts.h"
#include "skel_util.h"
#include "stats.h"
#include "trigger.h"
#include "util.h"

struct run_observer;
struct run_result;

/* The per-run state every operation receives. */
struct bench_env {
	const struct bench *bench;
	const struct run_opts *opts;	/* global options of this run, read-only */
	const void *args;		/* the benchmark's options: a struct of bench->args_size bytes */
	struct run_result *res;		/* the runner's: reached only through bench_*() calls */
	const struct run_observer *obs;	/* the runner's: who watches the run go (NULL: nobody) */
	struct trigger trig;		/* the core's: trigger_prepare() and bench_trigger_*() set it */
	void *priv;			/* the benchmark's own state */
	atomic_bool stop;		/* producers and consumers return when set */
	atomic_int error;		/* first failure of a thread, negative errno */
	char errbuf[256];
	int nr_producers, nr_consumers;
	int repeat;			/* -r: which repetition of the run this is, from 0 */
	/* Optional: how the figures were obtained, when a benchmark picks among ways (JSON "method"). */
	const char *method;
};

/* Benchmark flags. */
#define BENCH_F_CONSUMERS	(1u << 0)	/* -c N is meaningful */
#define BENCH_F_ONESHOT		(1u << 1)	/* samples are whole runs: run_once() */
#define BENCH_F_ONE_PRODUCER	(1u << 2)	/* -p must be 1 */
#define BENCH_F_NO_BPF		(1u << 3)	/* uses no bpf() (the core's test double): no privileges needed */
#define BENCH_F_NO_THREADS	(1u << 4)	/* the main thread does it all: -p, -a, --prod-affinity refused */
#define BENCH_F_NO_TRIGGER	(1u << 5)	/* runs no trigger: --trigger, --test-run-repeat, --kernel-stats refused */
/* drives its programs itself (bench_trigger_measured): --trigger, --test-run-repeat refused */
#define BENCH_F_SELF_DRIVEN	(1u << 6)

/*
 * The shapes of a summary, the kernel bench's (its run_bench_*.sh
 * scripts parse them) and ours; the reporters draw them from the
 * result, a benchmark never prints (scripts/check-includes.py).
 */
enum report_shape {
	/* "Summary: throughput X ± Y M ops/s (Z M ops/prod), latency W ns/op": every rate and time */
	REPORT_OPS,
	/* "Summary: lookup X ns/op, update Y ns/op": the times alone (map-ops) */
	REPORT_TIMES,
	/* "Summary: hits X ± YM/s (ZM/prod), drops ..., total operations ...": metrics hits, drops */
	REPORT_HITS_DROPS,
	/* "Summary: N false hits of M total operations. Percentage = P %": sums of part and whole */
	REPORT_PERCENT,
	/* "per-prod-op X ± Yk/s, memory usage X ± YMiB, peak memory usage ZMiB" (htab-mem) */
	REPORT_HTAB_MEM,
	/* a table: a row per metric key, a column per metric name (map-batch) */
	REPORT_TABLE,
};

/*
 * A finished run's figures as a family's own lines read them (struct
 * bench_report's .lines): metric i's name, key, mean, spread (sd; 0 for
 * one sample) and samples, and the run's producers.  Read-only.
 */
struct report_view;
int report_nr_metrics(const struct report_view *v);
const char *report_metric_name(const struct report_view *v, int i);
const char *report_metric_key(const struct report_view *v, int i);	/* "" for none */
double report_mean(const struct report_view *v, int i);
double report_spread(const struct report_view *v, int i);
int report_samples(const struct report_view *v, int i);
int report_producers(const struct report_view *v);	/* 1 at least */
/* Index of the metric named name with no key, or -1. */
int report_metric(const struct report_view *v, const char *name);

struct bench_report {
	enum report_shape shape;
	/* REPORT_HITS_DROPS: the metric that counts every operation (NULL: hits + drops) */
	const char *total;
	/* REPORT_HITS_DROPS: a suite row of total operations (summarize_total), not of hits */
	bool row_total;
	/* REPORT_PERCENT: metrics whose sums over the samples are the part and the rest */
	const char *part, *rest;
	/*
	 * Optional: the family's own lines before the Summary (the kernel
	 * bench's per-CPU lines, which its scripts read), written into buf
	 * from the run's figures; the family still prints nothing.  With
	 * them the human Stats and Notes lines go to stderr, so that stdout
	 * is these lines and the Summary, as upstream's.
	 */
	void (*lines)(const struct report_view *v, char *buf, size_t len);
};

struct bench {
	const char *name;
	const char *summary;		/* one line for --list */
	const char *family;		/* groups --list and suites */
	const struct opt_def *opts;	/* benchmark options, NULL-name terminated, at offsets in args */
	size_t args_size;		/* the struct opts describe; each run gets its own */
	const void *variant;		/* what tells this benchmark from its family's others */
	/* Kernel features every run needs, PROBE__COUNT-terminated (NULL: none); checked before setup. */
	const enum probe_id *requires;
	/*
	 * Optional: what else the kernel must offer, by the family's own
	 * probes (an attach type): 1, 0 with why (a skip, exit 4), or
	 * -errno with why; checked after requires, as requires is.
	 */
	int (*runnable)(const struct bench *b, char *why, size_t len);
	/* Metrics every run has, added before validate (which may add more: bench_add_metric). */
	const struct metric_def *metrics;
	int nr_metrics;
	unsigned int flags;

	/*
	 * Optional: the consumers a run gets when -c is not given (the
	 * kernel's scripts pass -c1 to the benchmarks that need one); NULL: 0.
	 */
	unsigned int (*default_consumers)(const void *args);
	/* Checks option combinations; returns 0 or prints one line and returns -EINVAL. */
	int (*validate)(struct bench_env *env);
	/* Loads programs and creates maps; negative errno on failure (the core prints context). */
	int (*setup)(struct bench_env *env);
	/* Run in its own thread until env->stop; NULL producer fires env->trig in a loop. */
	void (*producer)(struct bench_env *env, int idx);
	void (*consumer)(struct bench_env *env, int idx);
	/*
	 * End of a sampling period of elapsed_ns: write the values of the
	 * period's non-derived metrics into vals[] (counters are then reset by
	 * the benchmark itself, or it keeps the previous totals in priv).
	 */
	void (*measure)(struct bench_env *env, uint64_t elapsed_ns, double *vals);
	/* BENCH_F_ONESHOT: one whole measured run, its values in vals[]; negative errno on failure. */
	int (*run_once)(struct bench_env *env, double *vals);
	/* How its figures are shown: the kernel bench's shape of its output (zero: ops). */
	struct bench_report report;
	/* Releases everything setup made; must tolerate a partial setup. */
	void (*teardown)(struct bench_env *env);
};

/*
 * Adds a metric to the run (from validate, or setup); returns its index
 * in vals[].  Adding a name and key the run has already returns that
 * index, so a repeated setup (-r) finds its metrics again.
 */
int bench_add_metric(struct bench_env *env, const struct metric_def *def);
/* What a measurement can tell apart (setup: once the method is known); compare honours it. */
void bench_metric_resolution(struct bench_env *env, int i, double resolution);

/*
 * A suite is a named list of runs printed as one table, e.g. the table
 * of a seed's run_bench_*.sh.  Each family declares its suites beside its
 * benchmarks; benchs/registry.c lists them.
 */
struct suite_step {
	const char *header;	/* non-NULL: a section title printed before this step */
	const char *label;	/* row label */
	const char *args;	/* as typed after "bpfbench": "-c1 --rb-sampled rb-libbpf" */
};

struct suite {
	const char *name;
	const char *summary;
	const struct suite_step *steps;	/* terminated by an all-NULL step */
	const struct suite_step *quick;	/* optional: what the quick suite runs of it (-w0 -d1) */
	bool seed;	/* reproduces a seed document's table: one of suite seeds' */
};

/*
 * A feature one configuration needs (e.g. an option's flag): 0, or
 * -EOPNOTSUPP after one line saying what is missing and what for (the run
 * then exits 4, SKIP), or -EPERM (or another -errno) after one error line
 * where our privileges (or the probe itself) cannot tell: exit 1.
 */
int bench_require(const struct bench_env *env, enum probe_id id, const char *what);
/*
 * Whether the kernel offers all of b->requires: 1; 0 with why (what is
 * missing); -EPERM or another -errno with why where we cannot tell.
 */
int bench_runnable(const struct bench *b, char *why, size_t len);

/* A family's own probe of a kernel feature: `bpfbench probe` lists it under the family. */
struct family_probe {
	const char *name;			/* snake_case, "attach_kprobe" */
	int (*probe)(char *detail, size_t len);	/* 1 yes, 0 no (detail: why), -errno: cannot tell */
};

/*
 * A family: the unit of registration.  Its folder is benchs/NAME/ (a '-'
 * of the name written '_'), its tests tests/FOLDER.t, its section in
 * doc/benchmarks.md; benchs/registry.c holds one line per family, and
 * tests/registry.t checks all of that for every family.
 */
struct family {
	const char *name;
	const char *summary;			/* one line for --list-families */
	const struct bench *const *benchs;	/* NULL-terminated, each with .family = name */
	const struct suite *const *suites;	/* NULL-terminated; NULL: none */
	/*
	 * What suite quick runs of the family: these benchmarks once each
	 * at -w0 -d1 (NULL-terminated names); NULL: every benchmark.  The
	 * quick steps of its suites are added either way.
	 */
	const char *const *quick;
	const struct family_probe *probes;	/* NULL-name terminated; NULL: none */
};

/* The table of all families (benchs/registry.c, or a test's own). */
extern const struct family *const family_table[];
/* Every family's benchmarks, in the table's order; NULL-terminated. */
const struct bench *const *bench_all(void);
/* Every family's suites, in the table's order; NULL-terminated. */
const struct suite *const *suite_all(void);
/* The family a benchmark belongs to (NULL: none lists it). */
const struct family *bench_family_of(const struct bench *b);
/* Whether suite quick runs b (its family's .quick). */
bool bench_is_quick(const struct bench *b);
const struct bench *bench_find(const char *name);
const struct suite *suite_find(const char *name);

/* A thread's failure: stops the run, which then exits 1 with this message. */
void bench_fail(struct bench_env *env, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static inline bool bench_stopping(struct bench_env *env)
{
	return atomic_load_explicit(&env->stop, memory_order_relaxed);
}

/* ---- the env forms of the lower layers' calls (bench.c) ---- */

/*
 * Before the object is loaded: picks the trigger (env->opts->trigger or
 * the best the kernel offers), disables loading of the other programs.
 * Returns 0, or -EOPNOTSUPP after printing why (the run then exits SKIP).
 */
int trigger_prepare(struct bench_env *env, const struct trigger_progs *progs);
/* hist_bpf.h: after load (HIST_SKEL_OPEN); 0 or -errno after one line. */
int hist_bpf_open(struct hist_bpf *hb, const struct bench_env *env, int map_fd,
		  int clock_prog_fd, volatile __u64 *clock_q, const char *name, const char *vs);
/* hist_bpf_read() from a measure() that reads more than hist_bpf_measure() does. */
int hist_bpf_sample(struct hist_bpf *hb, const struct bench_env *env);
/*
 * measure()'s part, when open: the histograms read, a failure failing the
 * run, then the period's timed ops of histogram 0 into *sampled.
 */
void hist_bpf_measure(struct hist_bpf *hb, struct bench_env *env, double *sampled);
/* teardown()'s part, after the producers stopped: the histograms into env->res. */
void hist_bpf_close(struct hist_bpf *hb, struct bench_env *env);

/* ---- the skeleton sequence of a family (run/skel_seq.c) ---- */

/* --latency's count of the ops the program timed in each sample (hist_bpf_measure()). */
extern const struct metric_def bench_sampled_metric;

/* What bench_skel_setup() needs of a skeleton: BENCH_SKEL() fills it. */
struct bench_skel {
	struct bpf_object_skeleton *obj;	/* (skel)->skeleton */
	struct trigger_progs progs;		/* all NULL: no trigger (one-shot runs) */
	__u32 *tgid, *getpgid_nr;		/* rodata of bench_common.bpf.h */
	/* hist.bpf.h's; hist_map NULL: the BPF side has none (every must be 0) */
	__u32 *hist_every;
	struct bpf_map *hist_map;
	struct bpf_program *hist_clock;
	volatile __u64 *clock_q;
};

/* The parts of a struct bench_skel initializer, for a family that names its trigger programs. */
#define BENCH_SKEL_BASE(skel)							\
	.obj = (skel)->skeleton,						\
	.tgid = &(skel)->rodata->bench_tgid,					\
	.getpgid_nr = &(skel)->rodata->bench_getpgid_nr
#define BENCH_SKEL_HIST(skel)							\
	.hist_every = &(skel)->rodata->hist_every,				\
	.hist_map = (skel)->maps.hist_map,					\
	.hist_clock = (skel)->progs.hist_clock,					\
	.clock_q = &(skel)->bss->hist_clock_q

/*
 * A skeleton whose BPF side includes bench_common.bpf.h and hist.bpf.h
 * and names its trigger programs PREFIX_test_run, PREFIX_raw_tp and
 * PREFIX_fentry.  Its .rodata and .bss keep their address across load.
 */
#define BENCH_SKEL(skel, prefix) (&(struct bench_skel){				\
	BENCH_SKEL_BASE(skel),							\
	BENCH_SKEL_HIST(skel),							\
	.progs = {								\
		.test_run = (skel)->progs.prefix##_test_run,			\
		.raw_tp = (skel)->progs.prefix##_raw_tp,			\
		.fentry = (skel)->progs.prefix##_fentry,			\
	},									\
})

/*
 * setup's sequence after X__open() and the family's own rodata: our
 * tgid (BENCH_SKEL_INIT), the histograms' rate (every: one program run
 * in every on each CPU timed; 0: none), the trigger among the programs,
 * load, then with every the latency histograms (histogram 0 "op" beside
 * the metric "latency"; bench_sampled_metric added, *m_sampled its
 * index), and attach.  0 or -errno.
 */
int bench_skel_setup(struct bench_env *env, const struct bench_skel *sk, unsigned int every,
		     struct hist_bpf *hb, int *m_sampled);
/*
 * The same without the attach, for a family with work between load and
 * trigger_attach() (filling maps, a test-run repeat of its own).
 */
int bench_skel_load(struct bench_env *env, const struct bench_skel *sk, unsigned int every,
		    struct hist_bpf *hb, int *m_sampled);
/*
 * The end of a skeleton family's teardown: the histograms (hb may be
 * NULL) into the result, the skeleton destroyed (NULL: open failed),
 * env->priv freed.  Call it last: priv may hold hb and skel.
 */
void bench_skel_teardown(struct bench_env *env, struct hist_bpf *hb,
			 struct bpf_object_skeleton *obj, void *skel);
#define BENCH_SKEL_TEARDOWN(env, hb, skel)						\
	bench_skel_teardown(env, hb, (skel) ? (skel)->skeleton : NULL, skel)

/* ---- what a run keeps beside its samples (the runner's, run/env.c) ---- */

/*
 * A run-level count (the whole run's, warm-up and drain included), from
 * teardown: summed over repetitions; the human "Totals:" line and JSON
 * "totals" show it.  _hex: a value shown in hex and not summed (a digest).
 */
void bench_total(struct bench_env *env, const char *name, uint64_t value);
void bench_total_hex(struct bench_env *env, const char *name, uint64_t value);
/*
 * A note on how the figures were obtained or what limits them ("memory
 * measured by ...", an op skipped): said once under the figures, once
 * for all the runs of an ab, never under -q; JSON "notes".
 */
void bench_note(struct bench_env *env, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Samples discarded as warm-up so far (a run_once benchmark's own warm-up count). */
int bench_warmup_samples(const struct bench_env *env);

/* ---- the trigger, declared ---- */

/* One program run per test-run call (no calibration), unless --test-run-repeat says otherwise. */
void bench_trigger_single(struct bench_env *env);
/* The benchmark runs its programs itself, repeat runs a call: what the run reports as its trigger. */
void bench_trigger_own(struct bench_env *env, enum trigger_kind kind, uint32_t repeat);
/*
 * The benchmark drives itself (no core trigger), and prog_fd is the
 * program whose runs are its figure: --kernel-stats reads that one.
 */
void bench_trigger_measured(struct bench_env *env, int prog_fd);

#endif
