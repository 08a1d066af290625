/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A run's result as data (result.c): what reporters, exports, suites and
 * a family's own summary read, and the runner's side that fills it.
 */
#ifndef BPFBENCH_RESULT_H
#define BPFBENCH_RESULT_H

#include <stddef.h>
#include <stdint.h>
#include "counters.h"
#include "kstats.h"
#include "metric.h"
#include "noise.h"
#include "profile.h"
#include "opts.h"
#include "run_opts.h"
#include "stats.h"

#define RUN_MAX_OPTS	64
#define RUN_MAX_TOTALS	16
#define RUN_MAX_NOTES	8
#define RUN_NOTE_MAX	400
#define RUN_MAX_DERIVED	4

/* A run-level count of the benchmark's (bench_total): summed over repetitions, unless hex. */
struct run_total {
	char name[32];
	uint64_t value;
	bool hex;	/* a digest: shown in hex, the last repetition's */
};

struct hist_set;
struct bench;

/*
 * A figure the benchmark's Summary shape derives from its metrics (the
 * kernel's "total operations" of hits + drops, a percentage of sums):
 * derived.c computes it with the statistics, so that the JSON holds
 * every figure a reporter prints ("derived").
 */
struct run_derived {
	char name[40];		/* JSON key: "total_operations", "percentage" */
	const char *unit;
	struct stats st;	/* over the samples; n 1 for one figure of the whole run */
};

/*
 * An option of the run: its definition, and where its value is, typed,
 * in the run's own copy of its options (res_opt_args()).
 */
struct run_opt_value {
	const struct opt_def *def;
	bool global;		/* a field of spec.opts; else of the benchmark's spec.args */
};

/*
 * Everything one run produced: its own copy of its options, the metrics
 * it declared, every sample, and their statistics.  A run's result is
 * complete in itself: reporters and exports need nothing else.
 */
struct run_result {
	const struct bench *bench;
	struct run_spec spec;		/* the run's options, owned */
	int status;			/* exit code: 0, 1, EXIT_SKIP, 128+signal */
	char error[300];		/* why status != 0 */
	bool reported;			/* the benchmark already printed why: don't repeat it */
	const char *trigger;		/* name of the trigger used, or "none" */
	const char *method;		/* env->method after setup, or NULL */
	uint32_t test_run_repeat;	/* test-run trigger: program runs per syscall, else 0 */
	/* metrics, fixed once sampling starts */
	int nr_metrics, metrics_cap;
	struct metric_def *metrics;	/* names owned */
	struct stats *st;		/* over every measured sample of every repetition */
	/* samples: nr_samples rows of nr_metrics values */
	int nr_samples, cap;
	double *vals;
	uint64_t *elapsed_ns;
	int *sample_repeat;		/* which repetition took sample i */
	struct noise_sample *noise;	/* steal and CPU pressure under sample i */
	int nr_noisy;			/* samples flagged noisy */
	struct kstats kstats;		/* --kernel-stats, summed over repetitions */
	struct profile prof;		/* --profile, over every repetition's measured phase */
	struct counters counters;	/* --counters, summed over repetitions */
	struct hist_set *hists;		/* per-op latency distributions (hist.h), summed over repetitions; NULL: none */
	int nr_warmup;			/* samples discarded */
	/* -r N: per repetition, the statistics of its samples (nr_repeats x nr_metrics) */
	int nr_repeats;
	double *repeat_started;		/* per repetition, when its setup began: Unix time, s */
	struct stats *repeat_st;
	uint64_t wall_ns;		/* measured time (warm-up excluded), over all repetitions */
	uint64_t warmup_ns;		/* warm-up time, over all repetitions */
	int nr_opts;
	struct run_opt_value opts[RUN_MAX_OPTS];
	/* --precision: target and where the first metric's 95% CI half-width ended, % of its mean */
	double precision_target;	/* 0: fixed duration */
	bool precision_reached;
	double precision_pct;
	/* Stopped by a signal (status 128+N); with samples, they are kept: summary and exports */
	bool interrupted;
	int signal;			/* which signal stopped it */
	/* the benchmark's run-level counts and notes (bench_total, bench_note), in order */
	int nr_totals;
	struct run_total totals[RUN_MAX_TOTALS];
	int nr_notes;
	char *notes[RUN_MAX_NOTES];
	/* what the Summary shape derives from the metrics (derived.c) */
	int nr_derived;
	struct run_derived derived[RUN_MAX_DERIVED];
	/* Set by suites and sweeps after run_bench, for the exports (NULL: none). */
	const char *suite;
	const char *section;
	const char *label;
	const char *sweep_param;
};

static inline const double *res_sample(const struct run_result *r, int i)
{
	return r->vals + (size_t)i * r->nr_metrics;
}

/* The figure a summary prints for metric i: an inverse is scale / mean of its base. */
double res_shown_mean(const struct run_result *r, int i);
/* Stats of metric m in repetition k. */
static inline const struct stats *res_repeat_st(const struct run_result *r, int k, int m)
{
	return &r->repeat_st[(size_t)k * r->nr_metrics + m];
}
/* -r N: the spread of metric m's per-repetition means. */
struct run_spread {
	double between_mean;	/* the repetitions' means' mean */
	double between_stddev;	/* sample stddev of the repetitions' means */
	double between_share;	/* var(means) / (var(means) + mean within-repetition variance) */
};
void run_spread(const struct run_result *r, int m, struct run_spread *out);
/* Index of the metric of this name and no key, or -1. */
int res_metric(const struct run_result *r, const char *name);
/* Index of the metric of this name and key (NULL: none), or -1. */
int res_metric_key(const struct run_result *r, const char *name, const char *key);
/* Metric i's identity, "name{key}" or its name (mkey.h): JSON's object key. */
const char *res_metric_id(const struct run_result *r, int i, char *buf, size_t len);

/* A family's summary reads its result through these (bench.h). */
static inline const struct stats *res_st(const struct run_result *r, int i)
{
	return &r->st[i];
}
static inline const struct metric_def *res_def(const struct run_result *r, int i)
{
	return &r->metrics[i];
}
static inline int res_nr_metrics(const struct run_result *r)
{
	return r->nr_metrics;
}
static inline int res_nr_samples(const struct run_result *r)
{
	return r->nr_samples;
}
/* Samples discarded as warm-up so far (a run_once benchmark's own warm-up count). */
static inline int res_nr_warmup(const struct run_result *r)
{
	return r->nr_warmup;
}
static inline const struct bench *res_bench(const struct run_result *r)
{
	return r->bench;
}
/* The benchmark's options (its args struct) and the global ones of the run. */
static inline const void *res_args(const struct run_result *r)
{
	return r->spec.args;
}
static inline const struct run_opts *res_opts(const struct run_result *r)
{
	return &r->spec.opts;
}

/* The struct option i's value is a field of: opts_get(r->opts[i].def, res_opt_args(r, i)). */
static inline const void *res_opt_args(const struct run_result *r, int i)
{
	return r->opts[i].global ? (const void *)&r->spec.opts : r->spec.args;
}

/* An interrupted run that measured samples: its figures are printed and written, marked so. */
static inline bool res_kept(const struct run_result *r)
{
	return r->interrupted && r->nr_samples > 0 && r->st;
}

/*
 * What a run a signal cut short kept (res_kept()), as a clause: "interrupted
 * by signal 2 after 3 samples (3.0 of 5 s measured)", or starting a
 * sentence ("Interrupted ...").  The run's error says it too.
 */
void res_kept_text(const struct run_result *r, bool sentence, char *buf, size_t len);

/* Samples in whose period one of the run's threads moved to another CPU. */
int res_moved_samples(const struct run_result *r);

void run_result_free(struct run_result *res);
/*
 * Interleaved runs (ab): one's samples become the next repetition of acc
 * (acc zeroed at first: it takes one's benchmark, options and metrics);
 * run_result_finish() then computes acc's statistics.
 */
void run_result_append(struct run_result *acc, const struct run_result *one);
void run_result_finish(struct run_result *acc);

/* ---- the runner's side ---- */

/*
 * Adds a metric (bench_add_metric); who names the benchmark in an
 * internal error.  A name and key the run has already returns its index.
 */
int res_add_metric(struct run_result *res, const struct metric_def *def, const char *who);

/* A total of this name gets value added (hex: replaced); a 17th name is dropped. */
void res_add_total(struct run_result *res, const char *name, uint64_t value, bool hex);
/* Whether the run has this note. */
bool res_has_note(const struct run_result *res, const char *text);
/* A note, unless the run has it already (a repetition says it again); a ninth is dropped. */
void res_add_note(struct run_result *res, const char *text);

/* Appends a sample (nr_metrics values) taken in repetition repeat. */
void res_add_sample(struct run_result *res, int repeat, const double *vals, uint64_t elapsed,
		    const struct noise_sample *ns);
/* Fills the derived (inverse) metrics of one sample. */
void res_derive(const struct run_result *res, double *vals);
/* Statistics over all samples and per repetition (and the derived figures). */
void res_compute_stats(struct run_result *res);
/* derived.c: the figures the benchmark's Summary shape derives, from the statistics. */
void res_derive_figures(struct run_result *res);
/* A derived figure by its name, or NULL. */
const struct run_derived *res_derived(const struct run_result *r, const char *name);
/* Repetition k began at Unix time t (s): when it ran, to set beside the host's phases. */
void res_note_repeat_start(struct run_result *res, int k, double t);
/* The run's options: every one of tables[0] (global_opts), then of tables[1] (the benchmark's). */
void res_capture_opts(struct run_result *res, const struct opt_def *const tables[2]);

#endif
