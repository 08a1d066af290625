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

#define BENCH_MAX_METRICS	128	/* map-batch needs up to 106: 4 ops x (8 batch sizes x 3 + 2) + 2 */
#define BENCH_MAX_THREADS	1024

/* How a metric is obtained for each sample. */
enum metric_kind {
	METRIC_SAMPLED,		/* measure() writes it */
	METRIC_INVERSE,		/* scale / value of metric 'base', as the kernel's bench derives latency */
};

struct metric_def {
	const char *name;	/* JSON key and human label: "throughput" */
	const char *unit;	/* "M ops/s" */
	enum metric_kind kind;
	int base;		/* METRIC_INVERSE: index of the metric it inverts */
	double scale;		/* METRIC_INVERSE: value = scale / base */
	const char *prod_unit;	/* non-NULL: human summary adds "(X<prod_unit>/prod)" */
};

/* The per-run state every operation receives. */
struct bench_env {
	const struct bench *bench;
	const struct run_opts *opts;	/* global options, read-only */
	struct trigger trig;		/* chosen by setup via trigger_prepare() */
	void *priv;			/* the benchmark's own state */
	atomic_bool stop;		/* producers and consumers return when set */
	atomic_int error;		/* first failure of a thread, negative errno */
	char errbuf[256];
	int nr_producers, nr_consumers;
	/* Optional: how the figures were obtained, when a benchmark picks among ways (JSON "method"). */
	const char *method;
};

/* Benchmark flags. */
#define BENCH_F_CONSUMERS	(1u << 0)	/* -c N is meaningful */
#define BENCH_F_ONESHOT		(1u << 1)	/* samples are whole runs: run_once() */
#define BENCH_F_ONE_PRODUCER	(1u << 2)	/* -p must be 1 */

struct bench {
	const char *name;
	const char *summary;		/* one line for --list */
	const char *family;		/* groups --list and suites */
	const struct opt_def *opts;	/* benchmark options, NULL-name terminated */
	const struct metric_def *metrics;
	int nr_metrics;
	unsigned int flags;

	/*
	 * Checks option combinations; returns 0 or prints one line and returns -EINVAL.
	 * May point env->bench to a copy of the bench whose metrics depend on
	 * the options (same name, options and operations; it must outlive the run,
	 * as results point to it); the run then uses it.
	 */
	int (*validate)(struct bench_env *env);
	/* Loads programs and creates maps; negative errno on failure (the core prints context). */
	int (*setup)(struct bench_env *env);
	/* Run in its own thread until env->stop; NULL producer fires env->trig in a loop. */
	void (*producer)(struct bench_env *env, int idx);
	void (*consumer)(struct bench_env *env, int idx);
	/*
	 * End of a sampling period of elapsed_ns: write the METRIC_SAMPLED
	 * values of the period into vals[] (counters are then reset by the
	 * benchmark itself, or it keeps the previous totals in priv).
	 */
	void (*measure)(struct bench_env *env, uint64_t elapsed_ns, double *vals);
	/* BENCH_F_ONESHOT: one whole measured run, its values in vals[]; negative errno on failure. */
	int (*run_once)(struct bench_env *env, double *vals);
	/*
	 * Optional: print the human summary in this family's own shape.
	 * Called after teardown: use options and st, not env->priv.
	 */
	void (*report_final)(struct bench_env *env, const struct stats *st);
	/*
	 * Optional: a suite table row in this family's own shape (its seed
	 * script's), from st; b is the bench that ran (validate's copy, if any).
	 */
	void (*format_row)(const struct bench *b, const struct stats *st, char *buf, size_t len);
	/* Releases everything setup made; must tolerate a partial setup. */
	void (*teardown)(struct bench_env *env);
};

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
};

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
