// SPDX-License-Identifier: GPL-2.0
/*
 * A run's result as data: the metrics it declared, its samples and their
 * statistics, and repetitions accumulated into one result (-r, ab).  The
 * runner fills it; reporters and exports read it.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "hist.h"
#include "mkey.h"
#include "result.h"
#include "util.h"

static enum metric_better better_of(const struct run_result *res, const struct metric_def *m)
{
	enum metric_better base;

	if (m->better != BETTER_BY_KIND)
		return m->better;
	switch (m->kind) {
	case METRIC_RATE:
	case METRIC_RATIO:
		return BETTER_HIGHER;
	case METRIC_TIME:
	case METRIC_LEVEL:
	case METRIC_PEAK:
		return BETTER_LOWER;
	case METRIC_INVERSE:
		base = res->metrics[m->base].better;
		return base == BETTER_HIGHER ? BETTER_LOWER :
		       base == BETTER_LOWER ? BETTER_HIGHER : BETTER_NONE;
	case METRIC_COUNT:
		break;
	}
	return BETTER_NONE;
}

int res_metric_key(const struct run_result *r, const char *name, const char *key)
{
	int i;

	for (i = 0; i < r->nr_metrics; i++)
		if (!strcmp(r->metrics[i].name, name) && mkey_eq(r->metrics[i].key, key))
			return i;
	return -1;
}

int res_metric(const struct run_result *r, const char *name)
{
	return res_metric_key(r, name, NULL);
}

const char *res_metric_id(const struct run_result *r, int i, char *buf, size_t len)
{
	return mkey_id(r->metrics[i].name, r->metrics[i].key, buf, len);
}

static char *xstrdup_or_null(const char *s)
{
	char *d;

	if (mkey_none(s))
		return NULL;
	d = strdup(s);
	if (!d)
		die("out of memory");
	return d;
}

int res_add_metric(struct run_result *res, const struct metric_def *def, const char *who)
{
	struct metric_def *m;
	int i = res_metric_key(res, def->name, def->key);

	if (i >= 0)
		return i;
	if (res->nr_samples || res->nr_warmup)
		die("internal: %s adds metric %s after sampling began", who, def->name);
	if (def->kind == METRIC_INVERSE && (def->base < 0 || def->base >= res->nr_metrics))
		die("internal: %s: metric %s inverts no metric", who, def->name);
	if (res->nr_metrics == res->metrics_cap) {
		res->metrics_cap = res->metrics_cap ? res->metrics_cap * 2 : 8;
		res->metrics = realloc(res->metrics, res->metrics_cap * sizeof(*res->metrics));
		if (!res->metrics)
			die("out of memory");
	}
	m = &res->metrics[res->nr_metrics];
	*m = *def;
	m->name = xstrdup_or_null(def->name);
	m->key = xstrdup_or_null(def->key);
	if (!m->name || strlen(m->name) >= 64 || (m->key && strlen(m->key) >= MKEY_MAX))
		die("internal: %s: metric name or key missing or too long", who);
	m->better = better_of(res, m);
	return res->nr_metrics++;
}

/* An inverse's scale; the kernel bench's latency is per producer: 1000 * producers / rate. */
static double inverse_scale(const struct run_result *res, const struct metric_def *m)
{
	return m->per_producer ? m->scale * res->spec.opts.producers : m->scale;
}

double res_shown_mean(const struct run_result *r, int i)
{
	const struct metric_def *m = &r->metrics[i];
	double base;

	if (m->kind != METRIC_INVERSE)
		return r->st[i].mean;
	base = r->st[m->base].mean;
	return base ? inverse_scale(r, m) / base : 0.0;
}

void run_spread(const struct run_result *r, int m, struct run_spread *out)
{
	double *means = xcalloc(r->nr_repeats ?: 1, sizeof(double)), within = 0, between;
	struct stats st;
	int k;

	for (k = 0; k < r->nr_repeats; k++) {
		means[k] = res_repeat_st(r, k, m)->mean;
		within += pow(res_repeat_st(r, k, m)->stddev, 2) / r->nr_repeats;
	}
	stats_compute(means, r->nr_repeats, &st);
	free(means);
	between = st.stddev * st.stddev;
	out->between_mean = st.mean;
	out->between_stddev = st.stddev;
	out->between_share = between + within > 0 ? between / (between + within) : 0;
}

static void *grow(void *p, int cap, size_t size)
{
	p = realloc(p, (size_t)cap * size);
	if (!p)
		die("out of memory");
	return p;
}

void res_add_sample(struct run_result *res, int repeat, const double *vals, uint64_t elapsed,
		    const struct noise_sample *ns)
{
	if (res->nr_samples == res->cap) {
		res->cap = res->cap ? res->cap * 2 : 64;
		res->vals = grow(res->vals, res->cap, res->nr_metrics * sizeof(double));
		res->elapsed_ns = grow(res->elapsed_ns, res->cap, sizeof(uint64_t));
		res->sample_repeat = grow(res->sample_repeat, res->cap, sizeof(int));
		res->noise = grow(res->noise, res->cap, sizeof(*res->noise));
	}
	memcpy(res->vals + (size_t)res->nr_samples * res->nr_metrics, vals,
	       res->nr_metrics * sizeof(double));
	res->elapsed_ns[res->nr_samples] = elapsed;
	res->noise[res->nr_samples] = *ns;
	res->nr_noisy += ns->noisy;
	res->sample_repeat[res->nr_samples++] = repeat;
}

void res_kept_text(const struct run_result *r, bool sentence, char *buf, size_t len)
{
	const struct run_opts *o = &r->spec.opts;

	snprintf(buf, len, "%s by signal %d after %d sample%s (%.1f of %g s measured)",
		 sentence ? "Interrupted" : "interrupted", r->signal, r->nr_samples,
		 r->nr_samples == 1 ? "" : "s", r->wall_ns / 1e9,
		 run_opts_measure_ms(o) / 1e3 * o->runs);
}

int res_moved_samples(const struct run_result *r)
{
	int i, n = 0;

	for (i = 0; i < r->nr_samples; i++)
		n += r->noise[i].moved;
	return n;
}

void res_derive(const struct run_result *res, double *vals)
{
	const struct metric_def *m;
	int i;

	for (i = 0; i < res->nr_metrics; i++) {
		m = &res->metrics[i];
		if (m->kind == METRIC_INVERSE)
			vals[i] = vals[m->base] ? inverse_scale(res, m) / vals[m->base] : 0.0;
	}
}

/* Kinds that are never negative: a rate, a time or a count of ops. */
static bool nonnegative_kind(enum metric_kind k)
{
	return k == METRIC_RATE || k == METRIC_TIME || k == METRIC_COUNT || k == METRIC_INVERSE;
}

/*
 * Statistics of metric m over the samples [from, to).  The 95% CI of a
 * never-negative kind is taken on the log scale (by the delta method), so
 * that a few noisy samples never put it below zero; the symmetric
 * half-width stays in ci95_half for --precision.
 */
static void column_stats(const struct run_result *res, int m, int from, int to, double *col,
			 struct stats *out)
{
	int i;

	for (i = from; i < to; i++)
		col[i - from] = res_sample(res, i)[m];
	stats_compute(col, to - from, out);
	if (nonnegative_kind(res->metrics[m].kind) && out->min >= 0)
		stats_positive_ci(out->mean, out->stddev, out->n, 0.95, &out->ci95_low,
				  &out->ci95_high);
}

void res_compute_stats(struct run_result *res)
{
	double *col = xcalloc(res->nr_samples ?: 1, sizeof(double));
	int m, k, from, to;

	res->st = xcalloc(res->nr_metrics ?: 1, sizeof(*res->st));
	res->repeat_st = xcalloc((size_t)(res->nr_repeats ?: 1) * (res->nr_metrics ?: 1),
				 sizeof(*res->repeat_st));
	for (m = 0; m < res->nr_metrics; m++)
		column_stats(res, m, 0, res->nr_samples, col, &res->st[m]);
	for (k = 0, from = 0; k < res->nr_repeats; k++, from = to) {
		for (to = from; to < res->nr_samples && res->sample_repeat[to] == k; to++)
			;
		for (m = 0; m < res->nr_metrics; m++)
			column_stats(res, m, from, to, col,
				     &res->repeat_st[(size_t)k * res->nr_metrics + m]);
	}
	free(col);
	res_derive_figures(res);
}

void res_capture_opts(struct run_result *res, const struct opt_def *const tables[2])
{
	const struct opt_def *o;
	int t;

	res->nr_opts = 0;
	for (t = 0; t < 2; t++) {
		for (o = tables[t]; o && o->name; o++) {
			if (o->flags & OPT_F_UNRECORDED)
				continue;
			if (res->nr_opts == RUN_MAX_OPTS)
				die("internal: more than %d options", RUN_MAX_OPTS);
			res->opts[res->nr_opts].def = o;
			res->opts[res->nr_opts++].global = t == 0;
		}
	}
}

/* The first result appended gives the accumulation its identity: bench, options, metrics. */
static void adopt(struct run_result *acc, const struct run_result *one)
{
	int i;

	memset(acc, 0, sizeof(*acc));
	acc->bench = one->bench;
	run_spec_copy(&acc->spec, &one->spec);
	acc->trigger = one->trigger;
	acc->method = one->method;
	acc->test_run_repeat = one->test_run_repeat;
	acc->nr_opts = one->nr_opts;
	memcpy(acc->opts, one->opts, sizeof(one->opts));
	acc->precision_target = one->precision_target;
	for (i = 0; i < one->nr_metrics; i++)
		res_add_metric(acc, &one->metrics[i], "an interleaved run");
}

void res_add_total(struct run_result *res, const char *name, uint64_t value, bool hex)
{
	struct run_total *t;
	int i;

	for (i = 0; i < res->nr_totals; i++)
		if (!strcmp(res->totals[i].name, name))
			break;
	if (i == RUN_MAX_TOTALS)
		return;
	t = &res->totals[i];
	if (i == res->nr_totals) {
		res->nr_totals++;
		snprintf(t->name, sizeof(t->name), "%s", name);
		t->hex = hex;
		t->value = 0;
	}
	t->value = hex ? value : t->value + value;
}

bool res_has_note(const struct run_result *res, const char *text)
{
	int i;

	for (i = 0; i < res->nr_notes; i++)
		if (!strcmp(res->notes[i], text))
			return true;
	return false;
}

void res_add_note(struct run_result *res, const char *text)
{
	if (res_has_note(res, text))
		return;
	if (res->nr_notes < RUN_MAX_NOTES)
		res->notes[res->nr_notes++] = xstrdup(text);
}

/* ab: one run's totals add up; its notes are said once, as the first run's were. */
static void append_totals_notes(struct run_result *acc, const struct run_result *one)
{
	int i;

	for (i = 0; i < one->nr_totals; i++)
		res_add_total(acc, one->totals[i].name, one->totals[i].value, one->totals[i].hex);
	for (i = 0; i < one->nr_notes; i++)
		res_add_note(acc, one->notes[i]);
}

void res_note_repeat_start(struct run_result *res, int k, double t)
{
	res->repeat_started = realloc(res->repeat_started, (size_t)(k + 1) * sizeof(double));
	if (!res->repeat_started)
		die("out of memory");
	res->repeat_started[k] = t;
}

void run_result_append(struct run_result *acc, const struct run_result *one)
{
	int i;

	if (!acc->bench)
		adopt(acc, one);
	if (acc->nr_metrics != one->nr_metrics)
		die("internal: appending a run with other metrics");
	for (i = 0; i < one->nr_samples; i++)
		res_add_sample(acc, acc->nr_repeats, res_sample(one, i), one->elapsed_ns[i],
			       &one->noise[i]);
	hist_set_merge(&acc->hists, one->hists);
	if (one->spec.opts.profile)
		profile_add(&acc->prof, &one->prof);
	for (i = 0; i < CNT__COUNT; i++)
		acc->counters.count[i] += one->counters.count[i];
	acc->counters.valid |= one->counters.valid;
	acc->counters.pmu = one->counters.pmu;
	memcpy(acc->counters.why, one->counters.why, sizeof(acc->counters.why));
	append_totals_notes(acc, one);
	acc->nr_warmup += one->nr_warmup;
	acc->wall_ns += one->wall_ns;
	acc->warmup_ns += one->warmup_ns;
	res_note_repeat_start(acc, acc->nr_repeats, one->repeat_started ? one->repeat_started[0] : NAN);
	acc->nr_repeats++;
}

void run_result_finish(struct run_result *acc)
{
	free(acc->st);
	free(acc->repeat_st);
	res_compute_stats(acc);
}

void run_result_free(struct run_result *res)
{
	int i;

	for (i = 0; i < res->nr_metrics; i++) {
		free((char *)res->metrics[i].name);
		free((char *)res->metrics[i].key);
	}
	free(res->metrics);
	free(res->st);
	free(res->repeat_st);
	free(res->repeat_started);
	free(res->vals);
	free(res->elapsed_ns);
	free(res->sample_repeat);
	free(res->noise);
	hist_set_free(res->hists);
	profile_free(&res->prof);
	run_spec_free(&res->spec);
	for (i = 0; i < res->nr_notes; i++)
		free(res->notes[i]);
	memset(res, 0, sizeof(*res));
}
