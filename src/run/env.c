// SPDX-License-Identifier: GPL-2.0
/*
 * The runner's side of the contract (bench.h): the calls of a benchmark
 * that write its run's result.  The benchmark reaches the result only
 * through these: metrics, totals, notes, histograms, its warm-up count.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"
#include "hist.h"
#include "result.h"
#include "util.h"

int bench_add_metric(struct bench_env *env, const struct metric_def *def)
{
	return res_add_metric(env->res, def, env->bench->name);
}

void bench_metric_resolution(struct bench_env *env, int i, double resolution)
{
	if (i >= 0 && i < env->res->nr_metrics)
		env->res->metrics[i].resolution = resolution;
}

void hist_bpf_close(struct hist_bpf *hb, struct bench_env *env)
{
	hist_bpf_end(hb, &env->res->hists);
}

int bench_warmup_samples(const struct bench_env *env)
{
	return env->res->nr_warmup;
}

void bench_total(struct bench_env *env, const char *name, uint64_t value)
{
	res_add_total(env->res, name, value, false);
}

void bench_total_hex(struct bench_env *env, const char *name, uint64_t value)
{
	res_add_total(env->res, name, value, true);
}

void bench_note(struct bench_env *env, const char *fmt, ...)
{
	char text[RUN_NOTE_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	res_add_note(env->res, text);
}
