// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/utsname.h>
#include <bpf/libbpf.h>
#include "cli.h"
#include "jsonw.h"
#include "report.h"
#include "util.h"

#ifndef BPFBENCH_VERSION
#define BPFBENCH_VERSION "0.0"
#endif
#ifndef BPFBENCH_GIT
#define BPFBENCH_GIT "unknown"
#endif

FILE *report_out(void)
{
	if (run_opts.json_path && !strcmp(run_opts.json_path, "-"))
		return stderr;
	return stdout;
}

void report_setup(struct bench_env *env)
{
	if (!run_opts.quiet)
		fprintf(stderr, "Setting up benchmark '%s'...\n", env->bench->name);
}

void report_started(struct bench_env *env)
{
	const struct trigger *t = &env->trig;

	if (run_opts.quiet)
		return;
	if (t->kind == TRIG_TEST_RUN)
		fprintf(stderr, "Benchmark '%s' started (trigger test-run, %u runs per syscall).\n",
			env->bench->name, t->repeat);
	else
		fprintf(stderr, "Benchmark '%s' started (trigger %s).\n", env->bench->name,
			t->kind ? trigger_names[t->kind] ?: "none" : "none");
}

void report_iter(struct bench_env *env, int iter, int64_t drift_ns, const double *vals)
{
	const struct bench *b = env->bench;
	FILE *out = report_out();
	int i;

	if (run_opts.quiet)
		return;
	fprintf(out, "Iter %3d (%7.3lfus): ", iter, drift_ns / 1000.0);
	for (i = 0; i < b->nr_metrics; i++)
		fprintf(out, "%s%s %8.3lf %s", i ? ", " : "", b->metrics[i].name, vals[i],
			b->metrics[i].unit);
	fputc('\n', out);
}

void report_metric(FILE *out, const struct metric_def *m, const struct stats *st, int nr_prod)
{
	fprintf(out, "%s %8.3lf ± %.3lf %s", m->name, st->mean, st->stddev, m->unit);
	if (m->prod_unit)
		fprintf(out, " (%7.3lf%s/prod)", st->mean / (nr_prod ? nr_prod : 1), m->prod_unit);
}

static void summary_line(FILE *out, const struct bench *b, const struct stats *st, int nr_prod)
{
	const struct metric_def *m;
	int i;

	fprintf(out, "Summary: ");
	for (i = 0; i < b->nr_metrics; i++) {
		m = &b->metrics[i];
		if (i)
			fputs(", ", out);
		if (m->kind == METRIC_INVERSE)	/* the kernel bench: scale / mean of the base */
			fprintf(out, "%s %8.3lf %s", m->name,
				st[m->base].mean ? m->scale / st[m->base].mean : 0.0, m->unit);
		else
			report_metric(out, m, &st[i], nr_prod);
	}
	fputc('\n', out);
}

static void stats_lines(FILE *out, const struct bench *b, const struct stats *st)
{
	int i;

	for (i = 0; i < b->nr_metrics; i++)
		fprintf(out, "Stats: %s n %d, median %.3lf, min %.3lf, max %.3lf, cv %.2lf%%, "
			"95%% CI [%.3lf, %.3lf] %s\n", b->metrics[i].name, st[i].n,
			st[i].median, st[i].min, st[i].max, st[i].cv * 100,
			st[i].ci95_low, st[i].ci95_high, b->metrics[i].unit);
}

/* How long --precision sampled, and whether it got there. */
static void precision_line(FILE *out, const struct bench *b, const struct run_result *res)
{
	fprintf(out, "Precision: 95%% CI ±%.3lf%% of the mean %s (target %g%%), %s after %.1lf s, "
		"%d samples\n", res->precision_pct, b->metrics[0].name, res->precision_target,
		res->precision_reached ? "reached" : "NOT reached (--max-duration)",
		res->wall_ns / 1e9, res->nr_samples);
}

void report_summary(struct bench_env *env, const struct run_result *res)
{
	const struct bench *b = env->bench;
	FILE *out = report_out();

	if (run_opts.batch)	/* a suite or sweep prints one row instead */
		return;
	if (b->report_final)
		b->report_final(env, res->st);
	else
		summary_line(out, b, res->st, env->nr_producers);
	stats_lines(out, b, res->st);
	if (res->precision_target)
		precision_line(out, b, res);
	fflush(out);
}

/* ---- JSON ---- */

static void read_cpu_model(char *buf, size_t len)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[512], *colon;

	snprintf(buf, len, "unknown");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "model name", 10))
			continue;
		colon = strchr(line, ':');
		if (colon) {
			snprintf(buf, len, "%s", colon + 2);
			buf[strcspn(buf, "\n")] = 0;
		}
		break;
	}
	fclose(f);
}

static void json_env(struct jsonw *w)
{
	char cpu[256], ver[32], when[64];
	struct utsname u;
	time_t now = time(NULL);
	struct tm tm;

	uname(&u);
	read_cpu_model(cpu, sizeof(cpu));
	snprintf(ver, sizeof(ver), "%u.%u", libbpf_major_version(), libbpf_minor_version());
	gmtime_r(&now, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm);
	jsonw_key(w, "env");
	jsonw_obj_open(w);
	jsonw_kstr(w, "bpfbench_version", BPFBENCH_VERSION);
	jsonw_kstr(w, "git_commit", BPFBENCH_GIT);
	jsonw_kstr(w, "kernel", u.release);
	jsonw_kstr(w, "machine", u.machine);
	jsonw_kstr(w, "cpu_model", cpu);
	jsonw_ki64(w, "online_cpus", nr_online_cpus());
	jsonw_kstr(w, "libbpf_version", ver);
	jsonw_kstr(w, "date", when);
	jsonw_obj_close(w);
}

static void json_opt(struct jsonw *w, const struct run_opt_value *v)
{
	uint64_t n;

	jsonw_key(w, v->def->name);
	if (v->def->type == OPT_UINT && !parse_u64(v->text, &n))
		jsonw_u64(w, n);
	else if (v->def->type == OPT_FLAG)
		jsonw_bool(w, !strcmp(v->text, "true"));
	else if (v->def->type == OPT_STRING && !v->text[0])
		jsonw_null(w);
	else
		jsonw_str(w, v->text);
}

static void json_options(struct jsonw *w, const struct run_result *r)
{
	int i;

	jsonw_key(w, "options");
	jsonw_obj_open(w);
	for (i = 0; i < r->nr_opts; i++)
		json_opt(w, &r->opts[i]);
	jsonw_obj_close(w);
}

static void json_stats(struct jsonw *w, const struct stats *s)
{
	jsonw_ki64(w, "n", s->n);
	jsonw_kdouble(w, "mean", s->mean);
	jsonw_kdouble(w, "stddev", s->stddev);
	jsonw_kdouble(w, "median", s->median);
	jsonw_kdouble(w, "min", s->min);
	jsonw_kdouble(w, "max", s->max);
	jsonw_kdouble(w, "cv", s->cv);
	jsonw_kdouble(w, "ci95_low", s->ci95_low);
	jsonw_kdouble(w, "ci95_high", s->ci95_high);
}

static void json_metrics(struct jsonw *w, const struct run_result *r)
{
	const struct bench *b = r->bench;
	const struct metric_def *m;
	int i;

	jsonw_key(w, "metrics");
	jsonw_obj_open(w);
	for (i = 0; i < b->nr_metrics; i++) {
		m = &b->metrics[i];
		jsonw_key(w, m->name);
		jsonw_obj_open(w);
		jsonw_kstr(w, "unit", m->unit);
		jsonw_kstr(w, "kind", m->kind == METRIC_INVERSE ? "inverse" : "sampled");
		if (m->kind == METRIC_INVERSE) {
			jsonw_kstr(w, "of", b->metrics[m->base].name);
			jsonw_kdouble(w, "of_mean_inverse", r->st[m->base].mean ?
				      m->scale / r->st[m->base].mean : 0.0);
		}
		json_stats(w, &r->st[i]);
		jsonw_obj_close(w);
	}
	jsonw_obj_close(w);
}

static void json_samples(struct jsonw *w, const struct run_result *r)
{
	const struct bench *b = r->bench;
	int i, m;

	jsonw_key(w, "samples");
	jsonw_arr_open(w);
	for (i = 0; i < r->nr_samples; i++) {
		jsonw_obj_open(w);
		jsonw_ku64(w, "elapsed_ns", r->elapsed_ns[i]);
		for (m = 0; m < b->nr_metrics; m++)
			jsonw_kdouble(w, b->metrics[m].name, r->vals[i][m]);
		jsonw_obj_close(w);
	}
	jsonw_arr_close(w);
}

static void json_precision(struct jsonw *w, const struct run_result *r)
{
	jsonw_key(w, "precision");
	jsonw_obj_open(w);
	jsonw_kdouble(w, "target_pct", r->precision_target);
	jsonw_kdouble(w, "achieved_pct", r->precision_pct);
	jsonw_kbool(w, "reached", r->precision_reached);
	jsonw_kdouble(w, "time_s", r->wall_ns / 1e9);
	jsonw_obj_close(w);
}

static void json_run(struct jsonw *w, const struct run_result *r)
{
	jsonw_obj_open(w);
	if (r->suite)
		jsonw_kstr(w, "suite", r->suite);
	if (r->label)
		jsonw_kstr(w, "label", r->label);
	if (r->sweep_param)
		jsonw_kstr(w, "sweep_param", r->sweep_param);
	jsonw_kstr(w, "bench", r->bench->name);
	jsonw_kstr(w, "family", r->bench->family);
	jsonw_ki64(w, "status", r->status);
	if (r->status)
		jsonw_kstr(w, "error", r->error);
	jsonw_kstr(w, "trigger", r->trigger);
	if (r->test_run_repeat)
		jsonw_ki64(w, "test_run_repeat", r->test_run_repeat);
	if (r->method)
		jsonw_kstr(w, "method", r->method);
	json_options(w, r);
	jsonw_ki64(w, "warmup_samples", r->nr_warmup);
	jsonw_kdouble(w, "measured_s", r->wall_ns / 1e9);
	if (r->precision_target)
		json_precision(w, r);
	json_metrics(w, r);
	json_samples(w, r);
	jsonw_obj_close(w);
}

static void json_doc(FILE *f, struct run_result *const *runs, int n)
{
	struct jsonw w;
	int i;

	jsonw_init(&w, f, true);
	jsonw_obj_open(&w);
	jsonw_kstr(&w, "schema", "bpfbench-result/1");
	json_env(&w);
	jsonw_key(&w, "runs");
	jsonw_arr_open(&w);
	for (i = 0; i < n; i++)
		json_run(&w, runs[i]);
	jsonw_arr_close(&w);
	jsonw_obj_close(&w);
}

struct json_doc_args {
	struct run_result *const *runs;
	int n;
};

static void write_json_doc(FILE *f, void *arg)
{
	const struct json_doc_args *a = arg;

	json_doc(f, a->runs, a->n);
}

int report_json(const char *path, struct run_result *const *runs, int n)
{
	struct json_doc_args a = { runs, n };

	return write_file_atomic(path, write_json_doc, &a);
}
