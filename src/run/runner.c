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
#include "hist.h"
#include "noise.h"
#include "probe.h"
#include "report.h"
#include "result.h"
#include "runner.h"
#include "util.h"

struct worker {
	struct bench_env *env;
	int idx;
	int cpu;		/* -1: not pinned */
	bool consumer;
	bool started;
	pthread_t thread;
	uint64_t calls, calls_cut;	/* the default producer's trigger calls; cut by the stop */
};

static void default_producer(struct bench_env *env, struct worker *w)
{
	int err;

	while (!bench_stopping(env)) {
		err = trigger_fire(&env->trig);
		if (err) {
			bench_fail(env, err, "trigger %s failed: %s",
				   trigger_names[env->trig.kind], strerror(-err));
			return;
		}
		w->calls++;
		/* the stop's wake-up may have ended this call before its repeat count */
		w->calls_cut += bench_stopping(env);
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
		default_producer(w->env, w);
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

/* ---- metrics and samples of the run ---- */

/*
 * --precision: running mean and variance (Welford) of the first metric
 * within one repetition, so each new sample costs O(1).
 */
struct precision {
	int n;
	double mean, m2;
};

static void update_precision(struct run_result *res, struct precision *p, double v)
{
	double d = v - p->mean, half;

	p->n++;
	p->mean += d / p->n;
	p->m2 += d * (v - p->mean);
	if (!res->precision_target || p->n < 2)
		return;
	half = stats_t975(p->n - 1) * sqrt(p->m2 / (p->n - 1) / p->n);
	if (p->mean)
		res->precision_pct = half / fabs(p->mean) * 100;
	else
		res->precision_pct = half ? INFINITY : 0;
	/* three samples at least: two can agree by chance */
	res->precision_reached = p->n >= 3 && res->precision_pct <= res->precision_target;
}

/* A repetition starts with no CI: NaN until two samples give one. */
static void precision_start(struct run_result *res)
{
	res->precision_reached = false;
	res->precision_pct = NAN;
}

static void add_sample(struct bench_env *env, struct precision *p, const double *vals,
		       uint64_t elapsed, const struct noise_sample *ns)
{
	res_add_sample(env->res, env->repeat, vals, elapsed, ns);
	update_precision(env->res, p, vals[0]);
}

/* ---- sampling ---- */

static int sample_periods(struct bench_env *env, double *vals)
{
	const struct run_opts *o = env->opts;
	struct run_result *res = env->res;
	uint64_t period = o->period_ms * 1000000ull;
	uint64_t warm = o->warmup_ms / o->period_ms;
	uint64_t total = warm + o->duration_ms / o->period_ms;
	uint64_t start = now_ns(), last = start, measured = start, t, target, i;
	struct precision prec = { 0 };
	struct noise_sample ns;
	struct noise_mon mon;

	precision_start(res);
	if (o->precision_pct)	/* the bound; precision usually ends it sooner */
		total = warm + (o->max_duration_ms / o->period_ms ?: 1);
	noise_begin(&mon, env->nr_producers + env->nr_consumers);

	for (i = 0; i < total; i++) {
		target = start + (i + 1) * period;
		if (!sleep_until(env, target))
			break;
		t = now_ns();
		memset(vals, 0, res->nr_metrics * sizeof(double));
		env->bench->measure(env, t - last, vals);
		noise_next(&mon, &ns);
		res_derive(res, vals);
		if (i >= warm) {
			add_sample(env, &prec, vals, t - last, &ns);
		} else {
			res->nr_warmup++;
			measured = t;
		}
		env->reporter->iter(env, (int)i, (int64_t)(t - target), vals);
		last = t;
		if (res->precision_reached)
			break;
	}
	res->warmup_ns += measured - start;
	res->wall_ns += (last > measured ? last : measured) - measured;
	return i < total && !res->precision_reached ? -EINTR : 0;
}

static int one_run(struct bench_env *env, struct precision *p, double *vals, int i, bool warm)
{
	struct run_result *res = env->res;
	uint64_t t = now_ns(), dt;
	struct noise_sample ns;
	struct noise_mon mon;
	int err;

	if (interrupted() || atomic_load(&env->error))
		return -EINTR;
	memset(vals, 0, res->nr_metrics * sizeof(double));
	noise_begin(&mon, 1);
	err = env->bench->run_once(env, vals);
	if (err)
		return err;
	noise_next(&mon, &ns);
	res_derive(res, vals);
	dt = now_ns() - t;
	if (warm) {
		res->nr_warmup++;
		res->warmup_ns += dt;
	} else {
		add_sample(env, p, vals, dt, &ns);
		res->wall_ns += dt;
	}
	env->reporter->iter(env, i, 0, vals);
	return 0;
}

/* Whole runs: discarded until the warm-up time has passed, then at least one measured. */
static int sample_oneshot(struct bench_env *env, double *vals)
{
	const struct run_opts *o = env->opts;
	uint64_t end = now_ns() + o->warmup_ms * 1000000ull;
	struct precision prec = { 0 };
	int i = 0, err;

	precision_start(env->res);
	while (now_ns() < end) {
		err = one_run(env, &prec, vals, i++, true);
		if (err)
			return err;
	}
	end = now_ns() + (o->precision_pct ? o->max_duration_ms : o->duration_ms) * 1000000ull;
	do {
		err = one_run(env, &prec, vals, i++, false);
		if (err)
			return err;
	} while (now_ns() < end && !env->res->precision_reached);
	return 0;
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

static int interrupted_status(struct run_result *res)
{
	res->interrupted = true;
	return fail(res, 128 + interrupted_signal(), "interrupted by signal %d",
		    interrupted_signal());
}

/* What the default producers fired, for --kernel-stats' harness count. */
static void count_calls(struct bench_env *env, const struct worker *w, int nw)
{
	struct kstats *k = &env->res->kstats;
	int i;

	if (env->bench->producer || env->trig.kind != TRIG_TEST_RUN)
		return;
	k->repeat = env->trig.repeat;
	for (i = 0; i < nw; i++) {
		k->calls += w[i].calls;
		k->calls_cut += w[i].calls_cut;
	}
}

static int measure_run(struct bench_env *env, struct worker *w, int nw)
{
	const struct bench *b = env->bench;
	struct run_result *res = env->res;
	struct kstats_probe kp = { .stats_fd = -1 };
	double *vals = xcalloc(res->nr_metrics ?: 1, sizeof(double));
	int err;

	if (b->measure)	/* sets the benchmark's counters' baseline: setup's work is not sampled */
		b->measure(env, 1, vals);
	if (env->opts->kernel_stats)
		kstats_begin(&kp, env->trig.kind ? env->trig.prog_fd : -1, &res->kstats);
	err = start_workers(env, w, nw);
	if (err) {
		free(vals);
		kstats_end(&kp, &res->kstats);
		return fail(res, 1, "cannot start threads: %s", strerror(-err));
	}
	env->reporter->started(env);
	err = b->flags & BENCH_F_ONESHOT ? sample_oneshot(env, vals) : sample_periods(env, vals);
	stop_workers(env, w, nw);
	kstats_end(&kp, &res->kstats);
	count_calls(env, w, nw);
	free(vals);
	if (atomic_load(&env->error))
		return fail(res, 1, "%s: %s", b->name, env->errbuf);
	if (interrupted())
		return interrupted_status(res);
	if (err) {
		res->reported = err == -EOPNOTSUPP || err == -EINVAL;	/* the bench said why */
		return fail(res, setup_status(err), "%s: run failed: %s", b->name, strerror(-err));
	}
	return 0;
}

/* -a with more threads than CPUs shares CPUs, as the seeds' -a -p52 sweeps do: say so once. */
static void warn_shared_cpus(const struct bench_env *env)
{
	const struct run_opts *o = env->opts;
	int nt = env->nr_producers + env->nr_consumers, ncpu = nr_online_cpus();

	if (o->affinity && !o->prod_cpus.n && nt > ncpu && !env->repeat && !o->batch)
		fprintf(stderr, "bpfbench: warning: -a pins %d threads to %d CPUs: "
			"thread i runs on CPU i mod %d\n", nt, ncpu, ncpu);
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

static void note_trigger(struct bench_env *env)
{
	struct run_result *res = env->res;

	if (env->trig.kind && env->trig.kind != TRIG_NONE)
		res->trigger = trigger_names[env->trig.kind];
	if (env->trig.kind == TRIG_TEST_RUN)
		res->test_run_repeat = env->trig.repeat;
	res->method = env->method;
}

/* One repetition: a fresh setup, the measured phase, teardown. */
static int run_repeat(struct bench_env *env)
{
	const struct bench *b = env->bench;
	struct run_result *res = env->res;
	int nw = env->nr_producers + env->nr_consumers, err, samples_before = res->nr_samples;
	struct worker *w;

	if (b->flags & BENCH_F_ONESHOT)
		nw = 0;		/* the main thread measures whole runs itself */
	w = xcalloc(nw ?: 1, sizeof(*w));
	if (nw) {
		init_workers(env->opts, w);
		warn_shared_cpus(env);
	}
	memset(&env->trig, 0, sizeof(env->trig));
	atomic_store(&env->stop, false);
	env->priv = NULL;
	env->reporter->setup(env);
	err = b->setup(env);
	note_trigger(env);
	if (err && !(err == -EINTR && interrupted())) {
		/* by contract a benchmark says itself why it skips or rejects options */
		res->reported = err == -EOPNOTSUPP || err == -EINVAL;
		fail(res, setup_status(err), "%s: setup failed: %s%s", b->name, strerror(-err),
		     verbose ? "" : " (run with -v for the libbpf/verifier log)");
	} else if (interrupted()) {
		interrupted_status(res);
	} else if (env->opts->verifier_stats) {
		if (kstats_verifier_report(stdout, b->name))
			fail(res, 1, "%s: loaded no BPF program to report", b->name);
	} else if (!measure_run(env, w, nw) || res->nr_samples > samples_before) {
		res->nr_repeats++;	/* an interrupted repetition counts with what it measured */
	}
	trigger_detach(&env->trig);
	if (b->teardown)
		b->teardown(env);
	free(w);
	if (!res->status && interrupted())
		interrupted_status(res);
	return res->status;
}

/* One line naming what is missing, before any benchmark tries to load. */
int run_check_privileges(void)
{
	char why[160], priv[160];

	if (probe_feature(PROBE_BPF_SYSCALL, why, sizeof(why)) == 1)
		return 0;
	probe_feature(PROBE_PRIV, priv, sizeof(priv));
	errmsg("cannot use bpf(): %s; %s (run as root, or with CAP_BPF and CAP_PERFMON)",
	       why, priv);
	return 1;
}

static int add_static_metrics(struct bench_env *env)
{
	int i;

	for (i = 0; i < env->bench->nr_metrics; i++)
		bench_add_metric(env, &env->bench->metrics[i]);
	if (!env->bench->validate)
		return 0;
	return env->bench->validate(env);
}

static int run_bench_muted(const struct run_spec *spec, struct run_result *res);

/*
 * A signal ended the run after some samples: each of them was a whole
 * period (the one cut short is dropped), so the summary of those is a
 * true one, said to be partial on the line before it; the time asked
 * for beside the time measured.
 */
static void interrupted_summary(struct bench_env *env, struct run_result *res)
{
	const struct run_opts *o = env->opts;
	double asked = (o->precision_pct ? o->max_duration_ms : o->duration_ms) / 1e3 * o->runs;

	snprintf(res->error, sizeof(res->error), "interrupted by signal %d after %d sample%s "
		 "(%.1f of %g s measured)", interrupted_signal(), res->nr_samples,
		 res->nr_samples == 1 ? "" : "s", res->wall_ns / 1e9, asked);
	if (!o->batch)
		fprintf(report_out(o), "I%s: the figures below are of those samples\n",
			res->error + 1);
	env->reporter->summary(env, res);
}

int run_bench(const struct run_spec *spec, struct run_result *res)
{
	bool was = errmsg_mute(spec->opts.batch);	/* a suite's row says why, once */
	int st = run_bench_muted(spec, res);

	errmsg_mute(was);
	if (!res->st)	/* refused before it ran: still a whole result, of no samples */
		res_compute_stats(res);
	return st;
}

static int run_bench_muted(const struct run_spec *spec, struct run_result *res)
{
	const struct bench *b = spec->bench;
	struct bench_env env = { .bench = b };
	int err, k;

	memset(res, 0, sizeof(*res));
	run_spec_copy(&res->spec, spec);
	res->bench = b;
	res->trigger = "none";
	errmsg_forget();
	res->precision_target = res->spec.opts.precision_pct;
	res_capture_opts(res, (const struct opt_def *const[2]){ global_opts, b->opts });
	env.opts = &res->spec.opts;
	env.reporter = reporter_for(env.opts);
	env.args = res->spec.args;
	env.res = res;
	env.nr_producers = (int)env.opts->producers;
	env.nr_consumers = (int)env.opts->consumers;
	err = add_static_metrics(&env);
	if (err) {
		res->reported = true;	/* validate() printed the one line */
		return fail(res, setup_status(err), "%s: invalid options", b->name);
	}
	if (!bench_runnable(b, res->error, sizeof(res->error))) {
		skipmsg("%s: %s", b->name, res->error);
		res->reported = true;
		return fail(res, EXIT_SKIP, "%s", res->error);
	}
	for (k = 0; k < (int)env.opts->runs && !res->status; k++) {
		env.repeat = k;
		run_repeat(&env);
	}
	if (env.opts->verifier_stats)
		return res->status;
	if (!res->status && !res->nr_samples)
		fail(res, 1, "%s: no sample was measured", b->name);
	if (res->interrupted && !res->nr_samples)	/* no figure at all, not a summary of none */
		snprintf(res->error, sizeof(res->error), "interrupted by signal %d before any "
			 "sample was measured", interrupted_signal());
	res_compute_stats(res);
	if (res_kept(res))
		interrupted_summary(&env, res);
	else if (!res->status)
		env.reporter->summary(&env, res);
	return res->status;
}

