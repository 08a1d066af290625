/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading back a result document (report_json's "bpfbench-result/1")
 * with json-c, for compare and plot.  Anything that is not such a
 * document, whole and well formed, is refused with one line.
 */
#ifndef BPFBENCH_RESDOC_H
#define BPFBENCH_RESDOC_H

#include <json-c/json.h>

#define RESDOC_MAX_BYTES	(64u << 20)	/* a result with a million samples is ~50 MiB */

struct res_metric {
	const char *name, *unit;
	double mean, stddev;
	int n;			/* samples that carry this metric */
	double *samples;
};

struct res_run {
	const char *bench, *label, *suite, *sweep_param;
	int status;
	json_object *options;
	char *key;		/* what compare matches runs on */
	int nr_metrics;
	struct res_metric *metrics;
};

struct res_doc {
	const char *path;
	json_object *root;
	const char *kernel, *date;
	int nr_runs;
	struct res_run *runs;
};

/* 0, or EXIT_USAGE after one line naming the file and the problem. */
int resdoc_load(const char *path, struct res_doc *doc);
void resdoc_free(struct res_doc *doc);
const struct res_metric *res_run_metric(const struct res_run *r, const char *name);

#endif
