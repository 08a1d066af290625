/* SPDX-License-Identifier: GPL-2.0 */
/* What a run measures: a metric's name, unit, kind and better direction. */
#ifndef BPFBENCH_METRIC_H
#define BPFBENCH_METRIC_H

#include <stdbool.h>

/*
 * What a metric is decides how its samples may be compared (compare.c):
 * estimates (rate, time, ratio) vary sample to sample and are tested;
 * a level fixed at setup and a running maximum are not independent
 * samples at all; a count is exact; an inverse is derived from its base.
 */
/*
 * Units (doc/json.md, "Units"): a rate is "<prefix> ops/s" with an SI prefix
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
	 * "op=lookup,batch=1000" (src/stats/mkey.h; copied when added); NULL:
	 * none.  Parameters go here, never into the name: the metric is
	 * name + key, so exports can group and plot by its fields.
	 */
	const char *key;
};

#endif
