// SPDX-License-Identifier: GPL-2.0
#include <math.h>
#include <string.h>
#include "flame.h"
#include "hist_report.h"
#include "mkey.h"
#include "report.h"
#include "runner.h"
#include "figure.h"
#include "summary.h"
#include "util.h"

#define REPORT_COLS	120	/* the widest line of the default output */

FILE *report_out(const struct run_opts *o)
{
	return out_to_stdout(o->out) ? stderr : stdout;
}

void report_wrapped(FILE *out, const char *lead, const char *text)
{
	wrap_words(out, fprintf(out, "%s", lead), 2, REPORT_COLS, NULL, text);
}

static void human_setup(const struct bench_env *env)
{
	fprintf(stderr, "Setting up benchmark '%s'...\n", env->bench->name);
}

static void human_started(const struct bench_env *env)
{
	const struct trigger *t = &env->trig;

	if (env->bench->flags & BENCH_F_SELF_DRIVEN)
		fprintf(stderr, "Benchmark '%s' started (it drives its own programs; no --trigger).\n",
			env->bench->name);
	else if (t->kind == TRIG_TEST_RUN)
		fprintf(stderr, "Benchmark '%s' started (trigger test-run, %u runs per syscall).\n",
			env->bench->name, t->repeat);
	else
		fprintf(stderr, "Benchmark '%s' started (trigger %s).\n", env->bench->name,
			t->kind ? trigger_names[t->kind] ?: "none" : "none");
}

/* A value as our own lines print it: a count whole, anything else to 3 decimals. */
static const char *fmt_value(char *buf, size_t len, const struct metric_def *m, double v)
{
	if (m->kind == METRIC_COUNT)
		snprintf(buf, len, "%.0lf", v);
	else
		snprintf(buf, len, "%.3lf", v);
	return buf;
}

#define ITER_COLS	REPORT_COLS	/* an Iter line's width without -v */
#define ITER_HEAD_COLS	24	/* "Iter NNN (DDDDD.DDDus): " */
#define ITER_RUN_HEAD_COLS	28	/* a whole run's: "Iter NNN (took DDDDD.DDDms): " */
#define ITER_NUM_COLS	8	/* a figure's width as the budget counts it (%8.3lf) */

/*
 * Whether metric i goes on the Iter lines: with -v every one; else not
 * the raw counts, and only what fits ITER_COLS at nominal figure widths,
 * so that every Iter line of a run shows the same metrics.
 */
static bool iter_shows(const struct bench_env *env, int i, int *cols)
{
	const struct run_result *res = env->res;
	const struct metric_def *m = &res->metrics[i];
	char id[MKEY_ID_MAX];
	int w;

	if (env->opts->verbose)
		return true;
	if (m->kind == METRIC_COUNT)
		return false;
	w = (*cols > 0 ? 2 : 0) + (int)strlen(res_metric_id(res, i, id, sizeof(id))) + 1 +
	    ITER_NUM_COLS + 1 + (int)strlen(m->unit);
	if (*cols + w > ITER_COLS - (env->bench->flags & BENCH_F_ONESHOT ? ITER_RUN_HEAD_COLS :
				     ITER_HEAD_COLS))
		return false;
	*cols += w;
	return true;
}

/*
 * A period's line says how late its sample was taken, in us, as the
 * kernel bench's; a whole run's (no tick to be late for) how long it took.
 */
static void human_iter(const struct bench_env *env, int iter, int64_t ns, const double *vals)
{
	const struct run_result *res = env->res;
	FILE *out = report_out(env->opts);
	char id[MKEY_ID_MAX], num[64];
	int i, cols = 0, k = 0;

	if (env->bench->flags & BENCH_F_ONESHOT)
		fprintf(out, "Iter %3d (took %7.3lfms): ", iter, ns / 1e6);
	else
		fprintf(out, "Iter %3d (%7.3lfus): ", iter, ns / 1000.0);
	for (i = 0; i < res->nr_metrics; i++) {
		const struct metric_def *m = &res->metrics[i];

		if (!iter_shows(env, i, &cols))
			continue;
		if (m->kind == METRIC_COUNT)
			fprintf(out, "%s%s %s %s", k++ ? ", " : "",
				res_metric_id(res, i, id, sizeof(id)),
				fmt_value(num, sizeof(num), m, vals[i]), m->unit);
		else
			fprintf(out, "%s%s %8.3lf %s", k++ ? ", " : "",
				res_metric_id(res, i, id, sizeof(id)), vals[i], m->unit);
	}
	fputc('\n', out);
}

/*
 * Our figures beside the kernel's line: n, median, min, max, cv and the
 * 95% CI, a count's whole.  One sample has no spread and no CI, whatever
 * the Summary's "± 0.000" (the kernel bench's shape) seems to say.
 */
static void stats_lines(FILE *out, const struct run_result *res)
{
	char id[MKEY_ID_MAX], a[64], b[64], c[64];
	const struct metric_def *m;
	const struct stats *st;
	int i;

	for (i = 0; i < res->nr_metrics; i++) {
		st = &res->st[i];
		m = &res->metrics[i];
		res_metric_id(res, i, id, sizeof(id));
		if (st->n < 2) {
			fprintf(out, "Stats: %s n %d, %s %s (one sample: no spread, no CI)\n", id,
				st->n, fmt_value(a, sizeof(a), m, st->mean), m->unit);
			continue;
		}
		fprintf(out, "Stats: %s n %d, median %s, min %s, max %s", id, st->n,
			fmt_value(a, sizeof(a), m, st->median), fmt_value(b, sizeof(b), m, st->min),
			fmt_value(c, sizeof(c), m, st->max));
		fprintf(out, ", cv %.2lf%%, 95%% CI [%s, %s] %s\n", st->cv * 100,
			fmt_value(a, sizeof(a), m, st->ci95_low),
			fmt_value(b, sizeof(b), m, st->ci95_high), m->unit);
	}
}

/*
 * How far one run's mean strays here, in % (the sd of the runs' means over
 * their mean): what compare needs to judge a single run (--run-noise).
 */
static void runs_noise_line(FILE *out, int nr_repeats, const struct run_spread *sp)
{
	double pct = sp->between_stddev / sp->between_mean * 100;

	if (nr_repeats >= 3 && sp->between_mean > 0)
		fprintf(out, "  one run's mean strays %.1f%% (sd of the run means): compare --run-noise "
			"%.1f judges single runs by it\n", pct, pct);
}

/* -r N: each repetition's mean of the first metric, and how much of the spread lies between them. */
static void runs_line(FILE *out, const struct run_result *res)
{
	const struct metric_def *m = &res->metrics[0];
	char id[MKEY_ID_MAX], num[64];
	struct run_spread sp;
	int k;

	run_spread(res, 0, &sp);
	fprintf(out, "Runs: %d, %s per run", res->nr_repeats, res_metric_id(res, 0, id, sizeof(id)));
	for (k = 0; k < res->nr_repeats; k++)
		fprintf(out, "%s%s", k ? ", " : " ",
			fmt_value(num, sizeof(num), m, res_repeat_st(res, k, 0)->mean));
	fprintf(out, " %s; between-run stddev %s (%.0lf%% of the variance)\n", m->unit,
		fmt_value(num, sizeof(num), m, sp.between_stddev), sp.between_share * 100);
	runs_noise_line(out, res->nr_repeats, &sp);
}

/* --kernel-stats: the kernel's count and time beside the harness's count. */
static void kstats_line(FILE *out, const struct kstats *k)
{
	char text[512];
	int n;

	if (!k->valid) {
		report_wrapped(out, "Kernel: no run-time stats: ", k->why);
		return;
	}
	n = snprintf(text, sizeof(text), "program %s ran %llu times, %.3lf ns per run inside it "
		     "(run_time_ns / run_cnt)", k->prog, (unsigned long long)k->run_cnt,
		     k->run_cnt ? (double)k->run_time_ns / k->run_cnt : 0.0);
	if (k->calls && n > 0 && (size_t)n < sizeof(text))
		snprintf(text + n, sizeof(text) - n, "; the harness fired %llu (%llu calls of %llu, "
			 "%llu cut short by the stop)", (unsigned long long)(k->calls * k->repeat),
			 (unsigned long long)k->calls, (unsigned long long)k->repeat,
			 (unsigned long long)k->calls_cut);
	report_wrapped(out, "Kernel: ", text);
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

/*
 * What the noise did to a run's figure, the Noise line's verdict and a
 * suite row's word: "noisy" where its noisy samples ran measurably apart
 * from its quiet ones, "loaded" where every sample ran under a pressure
 * that moves figures on the reference VM, NULL where neither.
 */
const char *report_noise_word(const struct run_result *res, struct noise_effect *e)
{
	memset(e, 0, sizeof(*e));
	if (!res->nr_noisy || !res->nr_metrics)
		return NULL;
	noise_effect(res->vals, res->nr_metrics, res->noise, res->nr_samples, e);
	return e->moved ? "noisy" : !e->quiet ? "loaded" : NULL;
}

const char *report_noise_legend(const char *word)
{
	if (!strcmp(word, "noisy"))
		return "its samples under CPU pressure or steal ran measurably apart from the others: "
		       "the figure is affected (rerun on an idle machine)";
	return "every sample ran under CPU pressure or steal, which moves figures by 25-60% on a "
	       "2-vCPU VM: the figure is likely affected";
}

/*
 * A Noise line only where the noise moved the figure (report_noise_word);
 * otherwise one quiet line under -v.
 */
static void noise_line(FILE *out, const struct run_result *res, bool loud)
{
	struct noise_effect e;
	const char *word = report_noise_word(res, &e);

	if (!res->nr_noisy || !res->nr_metrics)
		return;
	if (word && e.moved)
		fprintf(out, "Noise: %d of %d samples under CPU pressure > %g%% or steal > %g%% "
			"ran %+.1f%% from the other %d:\n  this figure is affected (rerun on an "
			"idle machine)\n", e.noisy, e.noisy + e.quiet, NOISE_PRESSURE_PCT,
			NOISE_STEAL_PCT, e.shift_pct, e.quiet);
	else if (word)
		fprintf(out, "Noise: every sample ran under CPU pressure > %g%% or steal > %g%% "
			"(median pressure %.0f%%),\n  which moves figures by 25-60%% on a 2-vCPU "
			"VM: this figure is likely affected\n", NOISE_PRESSURE_PCT,
			NOISE_STEAL_PCT, e.median_pressure);
	else if (loud)
		fprintf(out, "Noise: %d of %d samples under CPU pressure or steal, %+.1f%% from the "
			"rest: not a measurable effect\n", e.noisy, e.noisy + e.quiet, e.shift_pct);
}

/*
 * Where the threads moved between CPUs: on a VM whose vCPUs run at
 * unequal speeds, a move can move the figure (doc/variance.md).
 */
static void placement_line(FILE *out, const struct run_result *res)
{
	int n = res_moved_samples(res);

	if (n)
		fprintf(out, "Placement: the threads moved between CPUs in %d of %d samples "
			"(-a or --prod-affinity pins them)\n", n, res->nr_samples);
}

/* "Totals: name N, ...": the benchmark's run-level counts, a pair never broken over two lines. */
static void totals_line(FILE *out, const struct run_result *res)
{
	int i, col = 0, n;
	char item[64];

	for (i = 0; i < res->nr_totals; i++) {
		const struct run_total *t = &res->totals[i];

		n = t->hex ? snprintf(item, sizeof(item), "%s %016llx", t->name,
				      (unsigned long long)t->value) :
			     snprintf(item, sizeof(item), "%s %llu", t->name,
				      (unsigned long long)t->value);
		if (!i)
			col = fprintf(out, "Totals: %s", item);
		else if (col + 2 + n + 1 > REPORT_COLS)
			col = fprintf(out, ",\n  %s", item) - 2;
		else
			col += fprintf(out, ", %s", item);
	}
	if (res->nr_totals)
		fputc('\n', out);
}

/* The benchmark's notes and how it measured, each said once. */
void report_notes(FILE *out, const struct run_result *res)
{
	int i;

	if (res->method)
		report_wrapped(out, "Method: ", res->method);
	for (i = 0; i < res->nr_notes; i++)
		report_wrapped(out, "Note: ", res->notes[i]);
}

void report_pair_notes(FILE *out, const struct run_result *ra, const struct run_result *rb,
		       const char *name_a, const char *name_b)
{
	char lead[64];
	int i;

	for (i = 0; i < ra->nr_notes; i++) {
		snprintf(lead, sizeof(lead), "Note (%s): ", res_has_note(rb, ra->notes[i]) ? "both" :
			 name_a);
		report_wrapped(out, lead, ra->notes[i]);
	}
	for (i = 0; i < rb->nr_notes; i++) {
		if (res_has_note(ra, rb->notes[i]))
			continue;
		snprintf(lead, sizeof(lead), "Note (%s): ", name_b);
		report_wrapped(out, lead, rb->notes[i]);
	}
}

/* Our lines, then the Summary last, as the kernel bench's scripts read it (| tail -1). */
static void human_summary(FILE *out, const struct run_result *res)
{
	const struct run_opts *o = &res->spec.opts;

	hist_report(out, res);
	stats_lines(out, res);
	if (res->nr_repeats > 1)
		runs_line(out, res);
	if (o->kernel_stats)
		kstats_line(out, &res->kstats);
	if (o->counters)
		counters_lines(out, res);
	if (o->profile)
		prof_run_lines(out, res);
	noise_line(out, res, o->verbose);
	placement_line(out, res);
	if (res->precision_target)
		precision_line(out, res);
	totals_line(out, res);
	report_notes(out, res);
}

void report_summary(FILE *out, const struct run_result *res)
{
	if (!res->nr_metrics || !res->nr_samples)	/* --verifier-stats: nothing measured */
		return;
	if (!res->spec.opts.quiet)
		human_summary(summary_lines_apart(res) ? stderr : out, res);
	else if (res->spec.opts.profile)	/* asked for by name: -q keeps it */
		prof_run_lines(out, res);
	summary_write(out, res);
	fflush(out);
}

/* Every line as the run goes: the kernel bench's shape. */
static const struct run_observer human = {
	human_setup, human_started, human_iter,
};

const struct run_observer *report_observer(const struct run_opts *o)
{
	return o->batch || o->quiet ? NULL : &human;
}
