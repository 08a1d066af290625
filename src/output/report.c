// SPDX-License-Identifier: GPL-2.0
#include <math.h>
#include <string.h>
#include "cli.h"
#include "hist_report.h"
#include "mkey.h"
#include "report.h"
#include "util.h"

static bool is_stdout(const char *path)
{
	return path && !strcmp(path, "-");
}

FILE *report_out(const struct run_opts *o)
{
	if (is_stdout(o->json_path) || is_stdout(o->csv_path) || is_stdout(o->md_path))
		return stderr;
	return stdout;
}

static void human_setup(const struct bench_env *env)
{
	fprintf(stderr, "Setting up benchmark '%s'...\n", env->bench->name);
}

static void human_started(const struct bench_env *env)
{
	const struct trigger *t = &env->trig;

	if (t->kind == TRIG_TEST_RUN)
		fprintf(stderr, "Benchmark '%s' started (trigger test-run, %u runs per syscall).\n",
			env->bench->name, t->repeat);
	else
		fprintf(stderr, "Benchmark '%s' started (trigger %s).\n", env->bench->name,
			t->kind ? trigger_names[t->kind] ?: "none" : "none");
}

static void human_iter(const struct bench_env *env, int iter, int64_t drift_ns,
		       const double *vals)
{
	const struct run_result *res = env->res;
	FILE *out = report_out(env->opts);
	char id[MKEY_ID_MAX];
	int i;

	fprintf(out, "Iter %3d (%7.3lfus): ", iter, drift_ns / 1000.0);
	if (env->bench->format_iter) {
		char text[256];

		env->bench->format_iter(env, vals, text, sizeof(text));
		fprintf(out, "%s\n", text);
		return;
	}
	for (i = 0; i < res->nr_metrics; i++)
		fprintf(out, "%s%s %8.3lf %s", i ? ", " : "", res_metric_id(res, i, id, sizeof(id)),
			vals[i], res->metrics[i].unit);
	fputc('\n', out);
}

/*
 * Decimals that the spread justifies, as perf stat shows a figure: the
 * stddev to two significant digits and the mean to the same place; at
 * least one (the kernel's summarize patterns want "N.N ± N.N"), and
 * three where there is no spread (the kernel bench's %.3f), more for a
 * value below 1.
 */
static int decimals(double mean, const struct stats *st)
{
	double ref = st->n > 1 && st->stddev > 0 ? st->stddev : 0;
	int d;

	if (ref)
		d = 1 - (int)floor(log10(ref));
	else
		d = mean && fabs(mean) < 1 ? 3 - (int)floor(log10(fabs(mean))) : 3;
	return d < 1 ? 1 : d > 9 ? 9 : d;
}

const char *report_figure(char *buf, size_t len, double mean, const struct stats *st)
{
	int d = decimals(mean, st);

	if (st->n > 1)
		snprintf(buf, len, "%.*f ± %.*f", d, mean, d, st->stddev);
	else
		snprintf(buf, len, "%.*f", d, mean);
	return buf;
}

const char *report_metric_figure(char *buf, size_t len, const struct run_result *r, int i)
{
	const struct metric_def *m = &r->metrics[i];
	struct stats one = { .n = 1 };
	double v = res_shown_mean(r, i);

	/* an exact count needs no decimals; an inverse's own spread is not the figure's */
	if (m->kind == METRIC_COUNT && v == floor(v) && r->st[i].n < 2)
		snprintf(buf, len, "%.0f", v);
	else
		report_figure(buf, len, v, m->kind == METRIC_INVERSE ? &one : &r->st[i]);
	return buf;
}

void report_metric(FILE *out, const struct metric_def *m, const struct stats *st, int nr_prod)
{
	char id[MKEY_ID_MAX];

	mkey_id(m->name, m->key, id, sizeof(id));
	/* the kernel bench's own shape, which its scripts' summarize patterns read */
	if (st->n > 1)
		fprintf(out, "%s %8.3lf ± %5.3lf %s", id, st->mean, st->stddev, m->unit);
	else
		fprintf(out, "%s %8.3lf %s", id, st->mean, m->unit);
	if (m->prod_unit)
		fprintf(out, " (%7.3lf%s/prod)", st->mean / (nr_prod ? nr_prod : 1), m->prod_unit);
}

static void summary_line(FILE *out, const struct run_result *res, int nr_prod)
{
	const struct metric_def *m;
	char id[MKEY_ID_MAX];
	int i;

	fprintf(out, "Summary: ");
	for (i = 0; i < res->nr_metrics; i++) {
		m = &res->metrics[i];
		if (i)
			fputs(", ", out);
		if (m->kind == METRIC_INVERSE)	/* the kernel bench: scale / mean of the base */
			fprintf(out, "%s %8.3lf %s", res_metric_id(res, i, id, sizeof(id)),
				res_shown_mean(res, i), m->unit);
		else
			report_metric(out, m, &res->st[i], nr_prod);
	}
	fputc('\n', out);
}

static void stats_lines(FILE *out, const struct run_result *res)
{
	char id[MKEY_ID_MAX];
	const struct stats *st;
	int i;

	for (i = 0; i < res->nr_metrics; i++) {
		st = &res->st[i];
		fprintf(out, "Stats: %s n %d, median %.3lf, min %.3lf, max %.3lf",
			res_metric_id(res, i, id, sizeof(id)), st->n, st->median, st->min, st->max);
		if (st->n > 1)
			fprintf(out, ", cv %.2lf%%, 95%% CI [%.3lf, %.3lf]", st->cv * 100,
				st->ci95_low, st->ci95_high);
		fprintf(out, " %s\n", res->metrics[i].unit);
	}
}

/* -r N: each repetition's mean of the first metric, and how much of the spread lies between them. */
static void runs_line(FILE *out, const struct run_result *res)
{
	char id[MKEY_ID_MAX];
	struct run_spread sp;
	int k;

	run_spread(res, 0, &sp);
	fprintf(out, "Runs: %d, %s per run", res->nr_repeats, res_metric_id(res, 0, id, sizeof(id)));
	for (k = 0; k < res->nr_repeats; k++)
		fprintf(out, "%s%.3lf", k ? ", " : " ", res_repeat_st(res, k, 0)->mean);
	fprintf(out, " %s; between-run stddev %.3lf (%.0lf%% of the variance)\n",
		res->metrics[0].unit, sp.between_stddev, sp.between_share * 100);
}

/* --kernel-stats: the kernel's count and time beside the harness's count. */
static void kstats_line(FILE *out, const struct kstats *k)
{
	if (!k->valid) {
		fprintf(out, "Kernel: no run-time stats: %s\n", k->why);
		return;
	}
	fprintf(out, "Kernel: program %s ran %llu times, %.3lf ns per run inside it "
		"(run_time_ns / run_cnt)", k->prog, (unsigned long long)k->run_cnt,
		k->run_cnt ? (double)k->run_time_ns / k->run_cnt : 0.0);
	if (k->calls)
		fprintf(out, "; the harness fired %llu (%llu calls of %llu, %llu cut short by the "
			"stop)", (unsigned long long)(k->calls * k->repeat),
			(unsigned long long)k->calls, (unsigned long long)k->repeat,
			(unsigned long long)k->calls_cut);
	fputc('\n', out);
}

/* How long --precision sampled, and whether it got there. */
static void precision_line(FILE *out, const struct run_result *res)
{
	char id[MKEY_ID_MAX];

	if (isnan(res->precision_pct)) {
		fprintf(out, "Precision: no CI from one sample of %s (target %g%%), NOT reached "
			"(--max-duration) after %.1lf s\n", res_metric_id(res, 0, id, sizeof(id)),
			res->precision_target, res->wall_ns / 1e9);
		return;
	}
	fprintf(out, "Precision: 95%% CI ±%.3lf%% of the mean %s (target %g%%), %s after %.1lf s, "
		"%d samples\n", res->precision_pct, res_metric_id(res, 0, id, sizeof(id)),
		res->precision_target,
		res->precision_reached ? "reached" : "NOT reached (--max-duration)",
		res->wall_ns / 1e9, res->nr_samples);
}

static void human_summary(struct bench_env *env, const struct run_result *res)
{
	FILE *out = report_out(env->opts);

	if (!res->nr_metrics)
		return;
	/* the Summary comes last, as the kernel bench's scripts read it (| tail -1) */
	hist_report(out, res);
	stats_lines(out, res);
	if (res->nr_repeats > 1)
		runs_line(out, res);
	if (res->spec.opts.kernel_stats)
		kstats_line(out, &res->kstats);
	if (res->nr_noisy)
		fprintf(out, "Noise: %d of %d samples were taken under hypervisor steal > %g%% or "
			"CPU pressure > %g%%: this figure may be affected\n", res->nr_noisy,
			res->nr_samples, NOISE_STEAL_PCT, NOISE_PRESSURE_PCT);
	if (res->precision_target)
		precision_line(out, res);
	if (env->bench->report_final)
		env->bench->report_final(env, res);
	else
		summary_line(out, res, env->nr_producers);
	fflush(out);
}


static void nothing(const struct bench_env *env)
{
}

static void no_iter(const struct bench_env *env, int iter, int64_t drift_ns, const double *vals)
{
}

static void no_summary(struct bench_env *env, const struct run_result *res)
{
}

/* Every line: the kernel bench's shape. */
static const struct reporter human = {
	human_setup, human_started, human_iter, human_summary,
};

/* -q: the summary only. */
static const struct reporter quiet = {
	nothing, nothing, no_iter, human_summary,
};

/* A suite step or a sweep point: nothing per run, the suite prints the row. */
static const struct reporter row = {
	nothing, nothing, no_iter, no_summary,
};

const struct reporter *reporter_for(const struct run_opts *o)
{
	if (o->batch)
		return &row;
	return o->quiet ? &quiet : &human;
}
