/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The contract between the core and a benchmark.
 *
 * A benchmark is a table entry of operations, kept in the file of its
 * family (benchs/FAMILY.c, beside benchs/FAMILY.bpf.c).  The core parses
 * options, runs producer and consumer threads, samples every period,
 * computes statistics and reports; it knows nothing about any one
 * benchmark.
 */
#ifndef BPFBENCH_BENCH_H
#define BPFBENCH_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdatomic.h>
#include "opts.h"
#include "util.h"
#include "stats.h"
#include "trigger.h"
#include "probe.h"

#define BENCH_MAX_THREADS	1024

struct run_result;
struct reporter;

/*
 * What a metric is decides how its samples may be compared (compare.c):
 * estimates (rate, time, ratio) vary sample to sample and are tested;
 * a level fixed at setup and a running maximum are not independent
 * samples at all; a count is exact; an inverse is derived from its base.
 */
/*
 * Units (README "Units"): a rate is "<prefix> ops/s" with an SI prefix
 * (k, M, G); a time "ns/op", "ms/op" or "ms" (one pass); a count a plural
 * noun, "ops", "elems", "calls/pass" (per pass where a sample is one).
 */
enum metric_kind {
	METRIC_RATE,		/* per-period estimate of a rate: "M ops/s" */
	METRIC_TIME,		/* per-sample estimate of a time: "ns/op" timed in the kernel, "ms" a pass */
	METRIC_RATIO,		/* per-sample estimate without a time unit: a speed-up, a false positive rate */
	METRIC_LEVEL,		/* fixed at setup, read each sample: memory a map holds */
	METRIC_PEAK,		/* running maximum: peak memory */
	METRIC_COUNT,		/* exact count: elements checked, retries */
	METRIC_INVERSE,		/* scale / value of metric 'base', as the kernel's bench derives latency */
};

enum metric_better {
	BETTER_BY_KIND,		/* rate, ratio: higher; time, level, peak: lower; count: none; inverse: base's opposite */
	BETTER_HIGHER,
	BETTER_LOWER,
	BETTER_NONE,
};

struct metric_def {
	const char *name;	/* JSON key and human label: "throughput" (copied when added) */
	const char *unit;	/* "M ops/s" */
	enum metric_kind kind;
	int base;		/* METRIC_INVERSE: index of the metric it inverts */
	double scale;		/* METRIC_INVERSE: value = scale / base */
	bool per_producer;	/* METRIC_INVERSE: value = scale * producers / base (the kernel's latency) */
	const char *prod_unit;	/* non-NULL: human summary adds "(X<prod_unit>/prod)" */
	enum metric_better better;
	/* levels, peaks: the smallest difference the measurement can tell (its unit); 0: exact */
	double resolution;
	/*
	 * The row of a quantity measured several ways in one run, as
	 * "op=lookup,batch=1000" (src/mkey.h; copied when added); NULL:
	 * none.  Parameters go here, never into the name: the metric is
	 * name + key, so exports can group and plot by its fields.
	 */
	const char *key;
};

/* The per-run state every operation receives. */
struct bench_env {
	const struct bench *bench;
	const struct run_opts *opts;	/* global options of this run, read-only */
	const void *args;		/* the benchmark's options: a struct of bench->args_size bytes */
	struct run_result *res;		/* where bench_add_metric() puts metrics */
	const struct reporter *reporter;	/* the run's human output (report.h) */
	struct trigger trig;		/* chosen by setup via trigger_prepare() */
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

struct bench {
	const char *name;
	const char *summary;		/* one line for --list */
	const char *family;		/* groups --list and suites */
	const struct opt_def *opts;	/* benchmark options, NULL-name terminated, at offsets in args */
	size_t args_size;		/* the struct opts describe; each run gets its own */
	const void *variant;		/* what tells this benchmark from its family's others */
	/* Kernel features every run needs, PROBE__COUNT-terminated (NULL: none); checked before setup. */
	const enum probe_id *requires;
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
	/*
	 * Optional: print the human summary in this family's own shape.
	 * Called after teardown: use env->args and res, not env->priv.
	 */
	void (*report_final)(struct bench_env *env, const struct run_result *res);
	/* Optional: the text of an Iter line after "Iter N (drift): ", for metrics too many to list. */
	void (*format_iter)(const struct bench_env *env, const double *vals, char *buf, size_t len);
	/* Optional: a suite table row in this family's own shape (its seed script's). */
	void (*format_row)(const struct run_result *res, char *buf, size_t len);
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
 * benchmarks; src/benchs.c lists them.
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
 * -EOPNOTSUPP after one line saying what is missing and what for; the
 * run then exits 4 (SKIP).
 */
int bench_require(const struct bench_env *env, enum probe_id id, const char *what);
/* Whether the kernel offers all of b->requires: 1, or 0 with why (what is missing). */
int bench_runnable(const struct bench *b, char *why, size_t len);

/* The table of all benchmarks (src/benchs.c). */
extern const struct bench *const bench_table[];
const struct bench *bench_find(const char *name);
extern const struct suite *const suite_table[];
const struct suite *suite_find(const char *name);

/* A thread's failure: stops the run, which then exits 1 with this message. */
void bench_fail(struct bench_env *env, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static inline bool bench_stopping(struct bench_env *env)
{
	return atomic_load_explicit(&env->stop, memory_order_relaxed);
}

#endif
