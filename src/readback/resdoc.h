/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading back a result document ("bpfbench-result/1"), for compare and
 * plot.  Anything that is not such a document, whole and well formed, is
 * refused with one line; so is a number that is not finite (NaN,
 * Infinity, 1e400), naming its field.
 *
 * Memory is in proportion to the file: the text is read whole and parsed
 * into compact nodes (src/readback/jsonr.c), except each run's samples, kept as
 * their text and read one sample at a time into one double per value;
 * the text and nodes are freed before resdoc_load() returns.  A long
 * run's file needs about its size again while it loads.  No size cap
 * (jsonr's offsets: 4 GiB); SIGINT ends the load with one line.
 */
#ifndef BPFBENCH_RESDOC_H
#define BPFBENCH_RESDOC_H

#include <stdbool.h>
#include <json-c/json.h>
#include "resenv.h"

/* What a metric is (JSON "kind"), which decides how compare treats it. */
enum res_kind {
	RES_SAMPLED,	/* an old file's "sampled": a rate or time, told apart by its unit */
	RES_RATE,	/* per-period estimate, M ops/s */
	RES_TIME,	/* per-sample estimate, ns/op */
	RES_RATIO,	/* estimate, a speed-up */
	RES_LEVEL,	/* fixed at setup: memory a map holds */
	RES_PEAK,	/* a running maximum */
	RES_COUNT,	/* an exact count */
	RES_INVERSE,	/* scale / the metric named in "of"; its figure is of_mean_inverse */
};

enum res_better { RES_BETTER_GUESS, RES_BETTER_HIGHER, RES_BETTER_LOWER, RES_BETTER_NONE };

struct res_metric {
	const char *id;		/* the metrics object's key: name{key}, or an old file's name */
	const char *name;	/* "name", else id */
	const char *key;	/* "op=lookup,batch=1000" (mkey.h), NULL: none */
	const char *unit;	/* as today's bpfbench spells it (older spellings read so) */
	enum res_kind kind;
	enum res_better better;	/* RES_BETTER_GUESS: absent (an old file) */
	const char *of;		/* RES_INVERSE: the base metric's id; NULL if not recorded */
	double of_mean_inverse;	/* RES_INVERSE: the summary's figure; NAN if absent */
	int n;			/* the summary's n */
	double mean, stddev;	/* stddev 0 when null (n = 1) */
	double between_run_stddev, between_share;	/* NAN unless repeated */
	double resolution;	/* the smallest difference the measurement can tell, in unit; 0: none given */
	double *samples;	/* run->nr_samples values; NAN where a sample lacks one */
	int nr_values;		/* samples that have a value */
	double *rep_mean;	/* run->nr_repeats run means from runs[].repeats, else NULL */
};

struct res_run {
	const char *bench, *label, *suite, *section, *sweep_param;
	int status;
	bool interrupted;	/* a signal cut it short: fewer samples than asked for */
	int nr_opts;		/* every option as recorded, in the file's order */
	const char **opt_name, **opt_value;	/* value as compact JSON text */
	int nr_mopts;		/* the options that say what was measured, sorted by res_name_cmp() */
	const char **mopt_name, **mopt_value;	/* value as compact JSON text */
	int nr_metrics;
	struct res_metric *metrics;
	int nr_samples;
	int *sample_repeat;	/* samples[i].repeat, or NULL when samples carry none */
	int nr_repeats;		/* records in runs[].repeats (0: not repeated) */
	int moved_samples;	/* samples whose threads moved to another CPU; -1: not recorded */
};

struct res_chunk;

struct res_doc {
	const char *path;
	const char *kernel, *date;
	bool interrupted;	/* "interrupted": a signal stopped the invocation */
	struct res_env env;	/* every env field, flattened */
	int nr_runs;
	struct res_run *runs;
	struct res_chunk *strings;	/* every string above lives here */
};

/* A kind as files spell it: "rate", "inverse"... */
const char *res_kind_name(enum res_kind k);
/*
 * Whether a figure of this kind can be v: a rate, a time, a level, a
 * peak or a count is a magnitude, finite and >= 0 (a negative throughput
 * would turn a step's direction and percentage around); a ratio alone
 * may be anything finite; NAN is no figure.  resdoc_load() refuses a
 * file with any other (exit 2): one rule for every reader.
 */
bool res_possible(enum res_kind k, double v);
/* Option names in order, '-' and '_' alike (they match so): <0, 0, >0 as strcmp(). */
int res_name_cmp(const char *a, const char *b);
/* 0, or EXIT_USAGE after one line naming the file and the problem. */
int resdoc_load(const char *path, struct res_doc *doc);
void resdoc_free(struct res_doc *doc);
/* The metric of this name and key (NULL: none), or NULL. */
const struct res_metric *res_run_metric(const struct res_run *r, const char *name, const char *key);
/* The recorded value of a measured option as JSON text, NULL when absent or at its default. */
const char *res_run_mopt(const struct res_run *r, const char *name);
/* Any recorded option's value as JSON text ('-' and '_' alike; the last of them), NULL: absent. */
const char *res_run_opt(const struct res_run *r, const char *name);
/* Whether an option's JSON text is a number, and which. */
bool res_opt_number(const char *text, double *v);

#endif
