/* SPDX-License-Identifier: GPL-2.0 */
/* The runner's side of a result (src/result.c); readers use runner.h. */
#ifndef BPFBENCH_RESULT_H
#define BPFBENCH_RESULT_H

#include "runner.h"

/* Appends a sample (nr_metrics values) taken in repetition repeat. */
void res_add_sample(struct run_result *res, int repeat, const double *vals, uint64_t elapsed,
		    const struct noise_sample *ns);
/* Fills the derived (inverse) metrics of one sample. */
void res_derive(const struct run_result *res, double *vals);
/* Statistics over all samples and per repetition. */
void res_compute_stats(struct run_result *res);
/* The run's options as text, for JSON and compare. */
void res_capture_opts(struct run_result *res);

#endif
