// SPDX-License-Identifier: GPL-2.0
/*
 * The runner: threads, sampling periods, warm-up, statistics.  Knows the
 * bench operations, never a benchmark.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "cli.h"
#include "report.h"
#include "runner.h"
#include "util.h"

struct worker {
	struct bench_env *env;
	int idx;
	int cpu;		/* -1: not pinned */
	bool consumer;
	bool started;
	pthread_t thread;
};

void bench_fail(struct bench_env *env, int err, const char *fmt, ...)
{
	int expected = 0;
	va_list ap;

	if (!atomic_compare_exchange_strong(&env->error, &expected, err ? err : -EIO))
		return;
	va_start(ap, fmt);
	vsnprintf(env->errbuf, sizeof(env->errbuf), fmt, ap);
	va_end(ap);
	atomic_store(&env->stop, true);
}

static void default_producer(struct bench_env *env)
{
	int err;

	while (!bench_stopping(env)) {
		err = trigger_fire(&env->trig);
		if (err) {
			bench_fail(env, err, "trigger %s failed: %s",
				   trigger_names[env->trig.kind], strerror(-err));
			return;
		}
	}
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	const struct bench *b = w->env->bench;
	int err;

	if (w->cpu >= 0) {
		err = pin_thread_to_cpu(w->cpu);
		if (err) {
			bench_fail(w->env, err, "cannot pin to CPU %d: %s", w->cpu, strerror(-err));
			return NULL;
		}
	}
	if (w->consumer)
		b->consumer(w->env, w->idx);
	else if (b->producer)
		b->producer(w->env, w->idx);
	else
		default_producer(w->env);
	return NULL;
}

/* The kernel bench's placement: -a pins consumers first, then producers, in CPU order. */
static int worker_cpu(const struct run_opts *o, bool consumer, int idx)
{
	const struct cpuset *set = consumer ? &o->cons_cpus : &o->prod_cpus;
	int ncpu = nr_online_cpus();

	if (set->n)
		return set->cpu[idx % set->n];
	if (!o->affinity)
		return -1;
	return (consumer ? idx : (int)o->consumers + idx) % ncpu;
}

static int start_workers(struct bench_env *env, struct worker *w, int n)
{
	sigset_t old;
	int i, err = 0;

	/* signals go to the main thread, which turns them into a clean stop */
	stop_signals_block(&old);
	for (i = 0; i < n; i++) {
		w[i].env = env;
		err = -pthread_create(&w[i].thread, NULL, worker_main, &w[i]);
		if (err)
			break;
		w[i].started = true;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return err;
}

static void stop_workers(struct bench_env *env, struct worker *w, int n)
{
	int i;

	atomic_store(&env->stop, true);
	for (i = 0; i < n; i++) {
		if (w[i].started && w[i].consumer)
			pthread_join(w[i].thread, NULL);
		else if (w[i].started)	/* out of a long test run at once */
			thread_join_waking(w[i].thread);
	}
}

/* Sleeps until an absolute time; false if a signal or a thread failure cut it short. */
static bool sleep_until(struct bench_env *env, uint64_t when)
{
	struct timespec ts;
	uint64_t t, step;

	while ((t = now_ns()) < when) {
		if (interrupted() || atomic_load(&env->error))
			return false;
		step = when - t;
		if (step > 50000000ull)
			step = 50000000ull;	/* wake up to notice failures */
		t += step;
		ts.tv_sec = t / 1000000000ull;
		ts.tv_nsec = t % 1000000000ull;
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
	}
	return !interrupted() && !atomic_load(&env->error);
}

/*
 * --precision: running mean and variance (Welford) of the first metric,
 * so each new sample costs O(1).  One run at a time, like run_opts.
 */
static struct {
	int n;
	double mean, m2;
} prec;

static void update_precision(struct run_result *res, double v)
{
	double d = v - prec.mean, half;

	prec.n++;
	prec.mean += d / prec.n;
	prec.m2 += d * (v - prec.mean);
	if (!res->precision_target || prec.n < 2)
		return;
	half = stats_t975(prec.n - 1) * sqrt(prec.m2 / (prec.n - 1) / prec.n);
	if (prec.mean)
		res->precision_pct = half / fabs(prec.mean) * 100;
	else
		res->precision_pct = half ? INFINITY : 0;
	/* three samples at least: two can agree by chance */
	res->precision_reached = prec.n >= 3 && res->precision_pct <= res->precision_target;
}

static void add_sample(struct run_result *res, const double *vals, uint64_t elapsed)
{
	if (res->nr_samples == res->cap) {
		res->cap = res->cap ? res->cap * 2 : 64;
		res->vals = realloc(res->vals, res->cap * sizeof(*res->vals));
		res->elapsed_ns = realloc(res->elapsed_ns, res->cap * sizeof(*res->elapsed_ns));
		if (!res->vals || !res->elapsed_ns)
			die("out of memory");
	}
	memcpy(res->vals[res->nr_samples], vals, sizeof(res->vals[0]));
	res->elapsed_ns[res->nr_samples++] = elapsed;
	update_precision(res, vals[0]);
}

static void derive_metrics(const struct bench *b, double *vals)
{
	const struct metric_def *m;
	int i;

	for (i = 0; i < b->nr_metrics; i++) {
		m = &b->metrics[i];
		if (m->kind == METRIC_INVERSE)
			vals[i] = vals[m->base] ? m->scale / vals[m->base] : 0.0;
	}
}

static int sample_periods(struct bench_env *env, struct run_result *res)
{
	const struct run_opts *o = env->opts;
	uint64_t period = o->period_ms * 1000000ull;
	uint64_t warm = o->warmup_s * 1000 / o->period_ms;
	uint64_t total = warm + o->duration_s * 1000 / o->period_ms;
	uint64_t start = now_ns(), last = start, t, target, i;
	double vals[BENCH_MAX_METRICS];

	if (o->precision_pct)	/* the bound; precision usually ends it sooner */
		total = warm + (o->max_duration_s * 1000 / o->period_ms ?: 1);

	for (i = 0; i < total; i++) {
		target = start + (i + 1) * period;
		if (!sleep_until(env, target))
			return -EINTR;
		t = now_ns();
		memset(vals, 0, sizeof(vals));
		env->bench->measure(env, t - last, vals);
		derive_metrics(env->bench, vals);
		if (i >= warm)
			add_sample(res, vals, t - last);
		else
			res->nr_warmup++;
		report_iter(env, (int)i, (int64_t)(t - target), vals);
		last = t;
		if (res->precision_reached)
			break;
	}
	return 0;
}

static int one_run(struct bench_env *env, struct run_result *res, int i, bool warm)
{
	double vals[BENCH_MAX_METRICS] = { 0 };
	uint64_t t = now_ns();
	int err;

	if (interrupted() || atomic_load(&env->error))
		return -EINTR;
	err = env->bench->run_once(env, vals);
	if (err)
		return err;
	derive_metrics(env->bench, vals);
	if (warm)
		res->nr_warmup++;
	else
		add_sample(res, vals, now_ns() - t);
	report_iter(env, i, 0, vals);
	return 0;
}

/* Whole runs: discarded until the warm-up time has passed, then at least one measured. */
static int sample_oneshot(struct bench_env *env, struct run_result *res)
{
	const struct run_opts *o = env->opts;
	uint64_t end = now_ns() + o->warmup_s * 1000000000ull;
	int i = 0, err;

	while (now_ns() < end) {
		err = one_run(env, res, i++, true);
		if (err)
			return err;
	}
	end = now_ns() + (o->precision_pct ? o->max_duration_s : o->duration_s) * 1000000000ull;
	do {
		err = one_run(env, res, i++, false);
		if (err)
			return err;
	} while (now_ns() < end && !res->precision_reached);
	return 0;
}

static void compute_stats(const struct bench *b, struct run_result *res)
{
	double *col = xcalloc(res->nr_samples, sizeof(double));
	int m, i;

	for (m = 0; m < b->nr_metrics; m++) {
		for (i = 0; i < res->nr_samples; i++)
			col[i] = res->vals[i][m];
		stats_compute(col, res->nr_samples, &res->st[m]);
	}
	free(col);
}

static void capture_opts(const struct bench *b, struct run_result *res)
{
	const struct opt_def *tables[] = { global_opts, b->opts };
	const struct opt_def *o;
	size_t t;

	for (t = 0; t < ARRAY_SIZE(tables); t++) {
		for (o = tables[t]; o && o->name; o++) {
			if (res->nr_opts == RUN_MAX_OPTS)
				return;
			res->opts[res->nr_opts].def = o;
			opts_format(o, res->opts[res->nr_opts].text,
				    sizeof(res->opts[0].text));
			res->nr_opts++;
		}
	}
}

static int fail(struct run_result *res, int status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Where the benchmark printed why (res->reported), the result keeps its words. */
static int fail(struct run_result *res, int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(res->error, sizeof(res->error), fmt, ap);
	va_end(ap);
	if (res->reported && *errmsg_last())
		snprintf(res->error, sizeof(res->error), "%s", errmsg_last());
	res->status = status;
	return status;
}

static int setup_status(int err)
{
	if (err == -EOPNOTSUPP)
		return EXIT_SKIP;
	if (err == -EINVAL)
		return EXIT_USAGE;
	return 1;
}

static int measure_run(struct bench_env *env, struct worker *w, int nw, struct run_result *res)
{
	const struct bench *b = env->bench;
	double vals[BENCH_MAX_METRICS];
	uint64_t t0;
	int err;

	if (b->measure) {	/* sets the benchmark's counters' baseline: setup's work is not sampled */
		memset(vals, 0, sizeof(vals));
		b->measure(env, 1, vals);
	}
	err = start_workers(env, w, nw);
	if (err)
		return fail(res, 1, "cannot start threads: %s", strerror(-err));
	report_started(env);
	t0 = now_ns();
	err = b->flags & BENCH_F_ONESHOT ? sample_oneshot(env, res) : sample_periods(env, res);
	res->wall_ns = now_ns() - t0;
	stop_workers(env, w, nw);
	if (atomic_load(&env->error))
		return fail(res, 1, "%s: %s", b->name, env->errbuf);
	if (interrupted())
		return fail(res, 128 + interrupted_signal(), "interrupted by signal %d",
			    interrupted_signal());
	if (err) {
		res->reported = err == -EOPNOTSUPP || err == -EINVAL;	/* the bench said why */
		return fail(res, setup_status(err), "%s: run failed: %s", b->name, strerror(-err));
	}
	return 0;
}

static void init_workers(const struct run_opts *o, struct worker *w)
{
	int i, np = (int)o->producers;

	for (i = 0; i < np; i++) {
		w[i].idx = i;
		w[i].cpu = worker_cpu(o, false, i);
	}
	for (i = 0; i < (int)o->consumers; i++) {
		w[np + i].idx = i;
		w[np + i].consumer = true;
		w[np + i].cpu = worker_cpu(o, true, i);
	}
}

int run_bench(const struct bench *b, struct run_result *res)
{
	struct bench_env env = { .bench = b, .opts = &run_opts };
	const struct run_opts *o = &run_opts;
	int nw, err;
	struct worker *w;

	memset(res, 0, sizeof(*res));
	memset(&prec, 0, sizeof(prec));
	res->bench = b;
	res->trigger = "none";
	errmsg_forget();
	res->precision_target = o->precision_pct;
	capture_opts(b, res);
	env.nr_producers = (int)o->producers;
	env.nr_consumers = (int)o->consumers;
	if (b->validate) {
		err = b->validate(&env);
		if (err) {
			res->reported = true;	/* validate() printed the one line */
			return fail(res, setup_status(err), "%s: invalid options", b->name);
		}
		/* validate may have specialised the bench (metrics sized by its options) */
		b = res->bench = env.bench;
	}
	nw = env.nr_producers + env.nr_consumers;
	if (b->flags & BENCH_F_ONESHOT)
		nw = 0;		/* the main thread measures whole runs itself */
	w = xcalloc(nw, sizeof(*w));
	if (nw)
		init_workers(o, w);
	report_setup(&env);
	err = b->setup(&env);
	if (env.trig.kind && env.trig.kind != TRIG_NONE)
		res->trigger = trigger_names[env.trig.kind];
	if (env.trig.kind == TRIG_TEST_RUN)
		res->test_run_repeat = env.trig.repeat;
	res->method = env.method;
	if (err && !(err == -EINTR && interrupted())) {
		/* by contract a benchmark says itself why it skips or rejects options */
		res->reported = err == -EOPNOTSUPP || err == -EINVAL;
		fail(res, setup_status(err), "%s: setup failed: %s%s", b->name, strerror(-err),
		     verbose ? "" : " (run with -v for the libbpf/verifier log)");
	}
	else if (interrupted())
		fail(res, 128 + interrupted_signal(), "interrupted by signal %d",
		     interrupted_signal());
	else if (!measure_run(&env, w, nw, res))
		compute_stats(b, res);
	trigger_detach(&env.trig);
	if (b->teardown)
		b->teardown(&env);
	free(w);
	if (!res->status)
		report_summary(&env, res);
	return res->status;
}

void run_result_free(struct run_result *res)
{
	free(res->vals);
	free(res->elapsed_ns);
	res->vals = NULL;
	res->elapsed_ns = NULL;
}
