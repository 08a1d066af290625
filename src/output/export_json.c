// SPDX-License-Identifier: GPL-2.0
/*
 * The result document, "bpfbench-result/1": the environment, then one
 * object per run with its options, metrics (kind, better direction,
 * statistics), repetitions and every sample.  doc/json.md documents it;
 * compare and plot read it back (resdoc.c).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/utsname.h>
#include <bpf/libbpf.h>
#include "bench.h"
#include "conditions.h"
#include "export.h"
#include "flame.h"
#include "hist_report.h"
#include "jsonw.h"
#include "mkey.h"
#include "sysenv.h"
#include "util.h"

#ifndef BPFBENCH_VERSION
#define BPFBENCH_VERSION "0.0"
#endif
#ifndef BPFBENCH_GIT
#define BPFBENCH_GIT "unknown"
#endif

static const char *const kind_names[] = {
	[METRIC_RATE] = "rate", [METRIC_TIME] = "time", [METRIC_RATIO] = "ratio",
	[METRIC_LEVEL] = "level", [METRIC_PEAK] = "peak", [METRIC_COUNT] = "count",
	[METRIC_INVERSE] = "inverse",
};

static const char *const better_names[] = {
	[BETTER_BY_KIND] = "none", [BETTER_HIGHER] = "higher", [BETTER_LOWER] = "lower",
	[BETTER_NONE] = "none",
};


static void json_env(struct jsonw *w)
{
	struct conditions c;
	char ver[32];

	conditions_read(&c);
	snprintf(ver, sizeof(ver), "%u.%u", libbpf_major_version(), libbpf_minor_version());
	jsonw_key(w, "env");
	jsonw_obj_open(w);
	jsonw_kstr(w, "bpfbench_version", c.version);
	jsonw_kstr(w, "git_commit", c.git);
	jsonw_kstr(w, "kernel", c.kernel);
	jsonw_kstr(w, "machine", c.machine);
	jsonw_kstr(w, "cpu_model", c.cpu);
	jsonw_ki64(w, "online_cpus", c.cpus);
	jsonw_kstr(w, "libbpf_version", ver);
	jsonw_kstr(w, "date", c.date);
	if (*c.vm)
		jsonw_kstr(w, "vm_info", c.vm);
	sysenv_json(w);
	jsonw_obj_close(w);
}

/* An option's value as its type holds it: numbers as numbers, seconds in seconds. */
static void json_opt(struct jsonw *w, const struct run_result *r, int i)
{
	const struct opt_def *d = r->opts[i].def;
	const void *args = res_opt_args(r, i);
	union opt_value v = opts_get(d, args);
	char key[64], text[OPT_TEXT_MAX], *c;

	/* one spelling for every key, whatever the option's: period-ms -> period_ms */
	snprintf(key, sizeof(key), "%s", d->name);
	for (c = key; *c; c++)
		if (*c == '-')
			*c = '_';
	jsonw_key(w, key);
	if (d->type == OPT_UINT) {
		jsonw_u64(w, v.u);
	} else if (d->type == OPT_SECONDS) {
		jsonw_double(w, v.u / 1e3);
	} else if (d->type == OPT_FLAG) {
		jsonw_bool(w, v.flag);
	} else if (!opts_is_set(d, args)) {	/* unset: null, for every type */
		jsonw_null(w);
	} else if (d->type == OPT_CHOICE || d->type == OPT_STRING) {
		jsonw_str(w, v.str);
	} else {	/* a list or a CPU set: "10,1000", "0,1,7" */
		opts_format(d, args, text, sizeof(text));
		jsonw_str(w, text);
	}
}

static void json_options(struct jsonw *w, const struct run_result *r)
{
	int i;

	jsonw_key(w, "options");
	jsonw_obj_open(w);
	for (i = 0; i < r->nr_opts; i++)
		json_opt(w, r, i);
	jsonw_obj_close(w);
}

/* A spread from one sample is no figure: null, not 0. */
static void spread(struct jsonw *w, const char *key, const struct stats *s, double v)
{
	if (s->n > 1)
		jsonw_kdouble(w, key, v);
	else
		jsonw_knull(w, key);
}

static void json_stats(struct jsonw *w, const struct stats *s)
{
	jsonw_ki64(w, "n", s->n);
	jsonw_kdouble(w, "mean", s->mean);
	spread(w, "stddev", s, s->stddev);
	jsonw_kdouble(w, "median", s->median);
	jsonw_kdouble(w, "min", s->min);
	jsonw_kdouble(w, "max", s->max);
	spread(w, "cv", s, s->cv);
	spread(w, "ci95_low", s, s->ci95_low);
	spread(w, "ci95_high", s, s->ci95_high);
}

/* "key": {"op": "lookup", "batch": 1000}: its fields, integers as numbers. */
static void json_key(struct jsonw *w, const char *key)
{
	char name[MKEY_MAX], val[MKEY_MAX];
	uint64_t n;

	jsonw_key(w, "key");
	jsonw_obj_open(w);
	while (mkey_next(&key, name, sizeof(name), val, sizeof(val))) {
		jsonw_key(w, name);
		if (mkey_is_int(val) && val[0] != '-' && !parse_u64(val, &n))
			jsonw_u64(w, n);
		else
			jsonw_str(w, val);
	}
	jsonw_obj_close(w);
}

static void json_metric(struct jsonw *w, const struct run_result *r, int i)
{
	const struct metric_def *m = &r->metrics[i];
	char id[MKEY_ID_MAX];
	struct run_spread sp;

	/* keyed by name and key, which stay unique; name and key also apart */
	jsonw_key(w, res_metric_id(r, i, id, sizeof(id)));
	jsonw_obj_open(w);
	jsonw_kstr(w, "name", m->name);
	if (m->key)
		json_key(w, m->key);
	jsonw_kstr(w, "unit", m->unit);
	jsonw_kstr(w, "kind", kind_names[m->kind]);
	jsonw_kstr(w, "better", better_names[m->better]);
	if (m->resolution > 0)
		jsonw_kdouble(w, "resolution", m->resolution);
	if (m->kind == METRIC_INVERSE) {
		jsonw_kstr(w, "of", res_metric_id(r, m->base, id, sizeof(id)));
		jsonw_kdouble(w, "of_mean_inverse", res_shown_mean(r, i));
	}
	json_stats(w, &r->st[i]);
	if (r->nr_repeats > 1) {
		run_spread(r, i, &sp);
		jsonw_kdouble(w, "between_run_stddev", sp.between_stddev);
		jsonw_kdouble(w, "between_share", sp.between_share);
	}
	jsonw_obj_close(w);
}

static void json_metrics(struct jsonw *w, const struct run_result *r)
{
	int i;

	jsonw_key(w, "metrics");
	jsonw_obj_open(w);
	for (i = 0; i < r->nr_metrics; i++)
		json_metric(w, r, i);
	jsonw_obj_close(w);
}

/* The figures the Summary shape derives (derived.c): the JSON holds what the lines print. */
static void json_derived(struct jsonw *w, const struct run_result *r)
{
	int i;

	if (!r->nr_derived)
		return;
	jsonw_key(w, "derived");
	jsonw_obj_open(w);
	for (i = 0; i < r->nr_derived; i++) {
		jsonw_key(w, r->derived[i].name);
		jsonw_obj_open(w);
		jsonw_kstr(w, "unit", r->derived[i].unit);
		jsonw_ki64(w, "n", r->derived[i].st.n);
		jsonw_kdouble(w, "mean", r->derived[i].st.mean);
		spread(w, "stddev", &r->derived[i].st, r->derived[i].st.stddev);
		jsonw_obj_close(w);
	}
	jsonw_obj_close(w);
}

static void json_noise(struct jsonw *w, const struct noise_sample *ns)
{
	if (ns->steal_pct >= 0)
		jsonw_kdouble(w, "steal_pct", ns->steal_pct);
	else
		jsonw_knull(w, "steal_pct");
	if (ns->pressure_pct >= 0)
		jsonw_kdouble(w, "cpu_pressure_pct", ns->pressure_pct);
	else
		jsonw_knull(w, "cpu_pressure_pct");
	jsonw_kbool(w, "noisy", ns->noisy);
}

/* Where the threads ran in the sample's period, and --speed-ref's times after it. */
static void json_placement(struct jsonw *w, const struct noise_sample *ns)
{
	int i;

	if (ns->nr_threads) {
		jsonw_key(w, "cpus");
		jsonw_arr_open(w);
		for (i = 0; i < ns->nr_threads; i++)
			if (ns->cpu[i] >= 0)
				jsonw_i64(w, ns->cpu[i]);
			else
				jsonw_null(w);
		jsonw_arr_close(w);
		jsonw_key(w, "migrations");
		jsonw_arr_open(w);
		for (i = 0; i < ns->nr_threads; i++)
			jsonw_i64(w, ns->migrations[i]);
		jsonw_arr_close(w);
		jsonw_key(w, "oncpu");
		jsonw_arr_open(w);
		for (i = 0; i < ns->nr_threads; i++)
			if (ns->oncpu[i] >= 0)
				jsonw_double(w, round(ns->oncpu[i] * 1e4) / 1e4);
			else
				jsonw_null(w);
		jsonw_arr_close(w);
		jsonw_kbool(w, "moved", ns->moved);
	}
	if (ns->ref_user_ns >= 0)
		jsonw_kdouble(w, "ref_user_ns", ns->ref_user_ns);
	if (ns->ref_bpf_ns >= 0)
		jsonw_kdouble(w, "ref_bpf_ns", ns->ref_bpf_ns);
}

static void json_kstats(struct jsonw *w, const struct kstats *k)
{
	jsonw_key(w, "kernel_stats");
	jsonw_obj_open(w);
	jsonw_kbool(w, "valid", k->valid);
	if (!k->valid) {
		jsonw_kstr(w, "why", k->why);
	} else {
		jsonw_kstr(w, "program", k->prog);
		jsonw_ku64(w, "run_cnt", k->run_cnt);
		jsonw_ku64(w, "run_time_ns", k->run_time_ns);
		jsonw_kdouble(w, "ns_per_run", k->run_cnt ? (double)k->run_time_ns / k->run_cnt : 0);
	}
	if (k->calls) {
		/* each call runs `repeat` times; one cut short by the stop ran fewer */
		jsonw_ku64(w, "harness_runs_max", k->calls * k->repeat);
		jsonw_ku64(w, "harness_runs_min", (k->calls - k->calls_cut) * k->repeat);
	}
	jsonw_obj_close(w);
}

static void json_samples(struct jsonw *w, const struct run_result *r)
{
	char id[MKEY_ID_MAX];
	int i, m;

	jsonw_key(w, "samples");
	jsonw_arr_open(w);
	for (i = 0; i < r->nr_samples; i++) {
		jsonw_obj_open(w);
		jsonw_ku64(w, "elapsed_ns", r->elapsed_ns[i]);
		if (r->nr_repeats > 1)
			jsonw_ki64(w, "repeat", r->sample_repeat[i]);
		json_noise(w, &r->noise[i]);
		json_placement(w, &r->noise[i]);
		for (m = 0; m < r->nr_metrics; m++)
			jsonw_kdouble(w, res_metric_id(r, m, id, sizeof(id)), res_sample(r, i)[m]);
		jsonw_obj_close(w);
	}
	jsonw_arr_close(w);
}

/* -r N: each repetition's statistics, for run-level comparison. */
static void json_repeats(struct jsonw *w, const struct run_result *r)
{
	char id[MKEY_ID_MAX];
	const struct stats *st;
	int k, m;

	jsonw_key(w, "repeats");
	jsonw_arr_open(w);
	for (k = 0; k < r->nr_repeats; k++) {
		jsonw_obj_open(w);
		jsonw_ki64(w, "index", k);
		if (r->repeat_started)
			jsonw_kdouble(w, "started", r->repeat_started[k]);
		jsonw_key(w, "metrics");
		jsonw_obj_open(w);
		for (m = 0; m < r->nr_metrics; m++) {
			st = res_repeat_st(r, k, m);
			jsonw_key(w, res_metric_id(r, m, id, sizeof(id)));
			jsonw_obj_open(w);
			jsonw_ki64(w, "n", st->n);
			jsonw_kdouble(w, "mean", st->mean);
			spread(w, "stddev", st, st->stddev);
			jsonw_obj_close(w);
		}
		jsonw_obj_close(w);
		jsonw_obj_close(w);
	}
	jsonw_arr_close(w);
}

static void json_precision(struct jsonw *w, const struct run_result *r)
{
	jsonw_key(w, "precision");
	jsonw_obj_open(w);
	jsonw_kdouble(w, "target_pct", r->precision_target);
	jsonw_kdouble(w, "achieved_pct", r->precision_pct);	/* null: one sample, no CI */
	jsonw_kbool(w, "reached", r->precision_reached);
	jsonw_kdouble(w, "time_s", r->wall_ns / 1e9);
	jsonw_obj_close(w);
}

/* The benchmark's run-level counts ("totals": a digest as hex text) and its notes. */
static void json_totals_notes(struct jsonw *w, const struct run_result *r)
{
	char hex[20];
	int i;

	if (r->nr_totals) {
		jsonw_key(w, "totals");
		jsonw_obj_open(w);
		for (i = 0; i < r->nr_totals; i++) {
			const struct run_total *t = &r->totals[i];

			if (t->hex) {
				snprintf(hex, sizeof(hex), "%016llx", (unsigned long long)t->value);
				jsonw_kstr(w, t->name, hex);
			} else {
				jsonw_ku64(w, t->name, t->value);
			}
		}
		jsonw_obj_close(w);
	}
	if (!r->nr_notes)
		return;
	jsonw_key(w, "notes");
	jsonw_arr_open(w);
	for (i = 0; i < r->nr_notes; i++)
		jsonw_str(w, r->notes[i]);
	jsonw_arr_close(w);
}

static void json_run(struct jsonw *w, const struct run_result *r)
{
	jsonw_obj_open(w);
	if (r->suite)
		jsonw_kstr(w, "suite", r->suite);
	if (r->section)
		jsonw_kstr(w, "section", r->section);
	if (r->label)
		jsonw_kstr(w, "label", r->label);
	if (r->sweep_param)
		jsonw_kstr(w, "sweep_param", r->sweep_param);
	jsonw_kstr(w, "bench", r->bench->name);
	jsonw_kstr(w, "family", r->bench->family);
	jsonw_ki64(w, "status", r->status);
	if (r->status)
		jsonw_kstr(w, "error", r->error);
	if (r->interrupted)	/* its samples are whole ones, fewer than asked for */
		jsonw_kbool(w, "interrupted", true);
	jsonw_kstr(w, "trigger", r->trigger);
	if (r->test_run_repeat)
		jsonw_ki64(w, "test_run_repeat", r->test_run_repeat);
	if (r->method)
		jsonw_kstr(w, "method", r->method);
	json_totals_notes(w, r);
	json_options(w, r);
	jsonw_ki64(w, "warmup_samples", r->nr_warmup);
	jsonw_kdouble(w, "measured_s", r->wall_ns / 1e9);
	jsonw_kdouble(w, "warmup_s", r->warmup_ns / 1e9);
	jsonw_ki64(w, "runs", r->nr_repeats);
	jsonw_ki64(w, "noisy_samples", r->nr_noisy);
	jsonw_ki64(w, "moved_samples", res_moved_samples(r));
	if (r->spec.opts.kernel_stats)
		json_kstats(w, &r->kstats);
	if (r->spec.opts.counters)
		counters_json(w, r);
	if (r->spec.opts.profile)
		prof_json(w, &(struct prof_view){ &r->prof, NULL, prof_ns_per_op(r) });
	if (r->precision_target)
		json_precision(w, r);
	json_metrics(w, r);
	json_derived(w, r);
	hist_json(w, r, r->hists);
	if (r->nr_repeats > 1)
		json_repeats(w, r);
	json_samples(w, r);
	jsonw_obj_close(w);
}

void export_json_doc(FILE *f, struct run_result *const *runs, int n)
{
	struct jsonw w;
	int i;

	jsonw_init(&w, f, true);
	jsonw_obj_open(&w);
	jsonw_kstr(&w, "schema", "bpfbench-result/1");
	if (interrupted())	/* a signal stopped the invocation: what it measured until then */
		jsonw_kbool(&w, "interrupted", true);
	json_env(&w);
	jsonw_key(&w, "runs");
	jsonw_arr_open(&w);
	for (i = 0; i < n; i++)
		json_run(&w, runs[i]);
	jsonw_arr_close(&w);
	jsonw_obj_close(&w);
}
