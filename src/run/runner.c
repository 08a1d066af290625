// SPDX-License-Identifier: GPL-2.0
/*
 * The runner: threads, sampling periods, warm-up, statistics.  Knows the
 * bench operations, never a benchmark.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include "counters.h"
#include "crew.h"
#include "hist.h"
#include "noise.h"
#include "normalize.h"
#include "placement.h"
#include "probe.h"
#include "profile.h"
#include "result.h"
#include "runner.h"
#include "speedref.h"
#include "util.h"

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

static void observe_iter(struct bench_env *env, int iter, int64_t drift_ns, const double *vals)
{
	if (env->obs && env->obs->iter)
		env->obs->iter(env, iter, drift_ns, vals);
}

/*
 * What watches the measured phase: --profile's sampler, --counters'
 * events; and between samples, where the threads ran and (--speed-ref)
 * how fast those CPUs were.
 */
struct watchers {
	struct profiler pf;
	struct counter_set cs;
	struct place_mon pm;
	struct speed_ref ref;
	bool speed_ref;
	int norm_metric;	/* --normalize: the normalized metric's index, -1: none */
	int ref_metric;		/* --speed-ref: ref-user's index (ref-bpf's the next), -1: none */
	int nprod;		/* threads that are producers: the first of those watched */
};

/* What a sample stood on, read after its period ends: placement, then the reference. */
static void sample_conditions(struct watchers *w, struct noise_sample *ns)
{
	place_next(&w->pm, ns);
	if (w->speed_ref)
		speedref_measure(&w->ref, ns);
}

/* The derived values of a sample: inverses, then --normalize's from the first metric. */
static void derive(const struct run_result *res, const struct watchers *w,
		   const struct noise_sample *ns, double *vals)
{
	res_derive(res, vals);
	if (w->norm_metric >= 0)
		normalize_sample(res, w->norm_metric, w->nprod, ns, vals);
	if (w->ref_metric >= 0) {
		vals[w->ref_metric] = ns->ref_user_ns >= 0 ? ns->ref_user_ns / 1e3 : NAN;
		vals[w->ref_metric + 1] = ns->ref_bpf_ns >= 0 ? ns->ref_bpf_ns / 1e3 : NAN;
	}
}

static void measuring(struct watchers *w, bool on)
{
	if (on) {
		counters_enable(&w->cs);
		profiler_enable(&w->pf);
	} else {
		profiler_disable(&w->pf);
		counters_disable(&w->cs);
	}
}

/*
 * Ticks stay on the grid of the first one while the sampler keeps up.
 * One that woke late by most of a period starts a new grid from where it
 * woke: firing the missed ticks back to back would give samples that
 * cover microseconds (and rates of noise), where the kernel's bench,
 * whose interval timer coalesces missed ticks, never does.
 */
static uint64_t next_tick(uint64_t prev_target, uint64_t last, uint64_t period)
{
	uint64_t next = prev_target + period;

	return next < last + period / 2 ? last + period : next;
}

static int sample_periods(struct bench_env *env, double *vals, uint64_t start,
			  struct watchers *w)
{
	const struct run_opts *o = env->opts;
	struct run_result *res = env->res;
	uint64_t period = o->period_ms * 1000000ull;
	uint64_t warm = o->warmup_ms / o->period_ms;
	/* one period at least: --precision's bound may be shorter (-d may not: cli_validate) */
	uint64_t total = warm + (run_opts_measure_ms(o) / o->period_ms ?: 1);
	uint64_t last = start, measured = start, t, target = start, i;
	struct precision prec = { 0 };
	struct noise_sample ns;
	struct noise_mon mon;

	precision_start(res);
	noise_begin(&mon, env->nr_producers + env->nr_consumers);
	if (!warm)
		measuring(w, true);

	for (i = 0; i < total; i++) {
		target = next_tick(target, last, period);
		if (!sleep_until(env, target))
			break;
		t = now_ns();
		memset(vals, 0, res->nr_metrics * sizeof(double));
		env->bench->measure(env, t - last, vals);
		noise_next(&mon, &ns);
		sample_conditions(w, &ns);
		derive(res, w, &ns, vals);
		if (i >= warm) {
			add_sample(env, &prec, vals, t - last, &ns);
		} else {
			res->nr_warmup++;
			measured = t;
			if (i + 1 == warm)	/* the next period is the first measured */
				measuring(w, true);
		}
		observe_iter(env, (int)i, (int64_t)(t - target), vals);
		last = t;
		if (res->precision_reached)
			break;
	}
	measuring(w, false);
	res->warmup_ns += measured - start;
	res->wall_ns += (last > measured ? last : measured) - measured;
	return i < total && !res->precision_reached ? -EINTR : 0;
}

static int one_run(struct bench_env *env, struct precision *p, double *vals, int i, bool warm,
		   struct watchers *w)
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
	dt = now_ns() - t;
	sample_conditions(w, &ns);	/* after the clock: the reference is not the run's time */
	derive(res, w, &ns, vals);
	if (warm) {
		res->nr_warmup++;
		res->warmup_ns += dt;
	} else {
		add_sample(env, p, vals, dt, &ns);
		res->wall_ns += dt;
	}
	observe_iter(env, i, (int64_t)dt, vals);
	return 0;
}

/* Whole runs: discarded until the warm-up time has passed, then at least one measured. */
static int sample_oneshot(struct bench_env *env, double *vals, struct watchers *w)
{
	const struct run_opts *o = env->opts;
	uint64_t end = now_ns() + o->warmup_ms * 1000000ull;
	struct precision prec = { 0 };
	int i = 0, err;

	precision_start(env->res);
	while (now_ns() < end) {
		err = one_run(env, &prec, vals, i++, true, w);
		if (err)
			return err;
	}
	end = now_ns() + run_opts_measure_ms(o) * 1000000ull;
	measuring(w, true);
	do {
		err = one_run(env, &prec, vals, i++, false, w);
	} while (!err && now_ns() < end && !env->res->precision_reached);
	measuring(w, false);
	return err;
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

/*
 * Where the benchmark (or a probe, a trigger) printed why, its errno says
 * what kind of failure it was; else it came from below (libbpf, the
 * kernel): a runtime failure, whatever the errno, and the one line is ours.
 */
static int failure_status(struct run_result *res, int err)
{
	res->reported = *errmsg_last() != 0;
	if (!res->reported)
		return 1;
	if (err == -EOPNOTSUPP)
		return EXIT_SKIP;
	if (err == -EINVAL)
		return EXIT_USAGE;
	return 1;
}

/*
 * After a failure nobody reported: libbpf's first warning (its cause
 * where it returns only an errno), whether file descriptors ran short,
 * and the hint to -v.
 */
static const char *failure_hint(char *buf, size_t len)
{
	const char *lw = libbpf_warning();
	int n = 0, left = fds_free();

	if (!strncmp(lw, "libbpf: ", 8))
		lw += 8;
	n += snprintf(buf, len, " (");
	if (*lw && !verbose)
		n += snprintf(buf + n, len - n, "libbpf: %s; ", lw);
	if (left >= 0 && left < FDS_LOW && n < (int)len)
		n += snprintf(buf + n, len - n, "only %d more file descriptors may be opened, "
			      "see ulimit -n; ", left);
	if (verbose && n < (int)len)
		n += snprintf(buf + n, len - n, "see the libbpf/verifier log above)");
	else if (n < (int)len)
		snprintf(buf + n, len - n, "run with -v for the libbpf/verifier log)");
	return buf;
}

static int interrupted_status(struct run_result *res)
{
	res->interrupted = true;
	res->signal = interrupted_signal();
	return fail(res, 128 + res->signal, "interrupted by signal %d", res->signal);
}

/* What the default producers fired, for --kernel-stats' harness count. */
static void count_calls(struct bench_env *env, const struct crew *c)
{
	struct kstats *k = &env->res->kstats;
	int i;

	if (env->bench->producer || env->trig.kind != TRIG_TEST_RUN)
		return;
	k->repeat = env->trig.repeat;
	for (i = 0; i < c->n; i++) {
		k->calls += c->w[i].calls;
		k->calls_cut += c->w[i].calls_cut;
	}
}

/* No such event on this kernel: a skip, as a feature the kernel lacks; else a failure. */
static int profile_status(int err)
{
	return err == -ENOENT || err == -EOPNOTSUPP || err == -ENODEV ? EXIT_SKIP : 1;
}

static int crew_failed(struct run_result *res, const struct crew *c, int err)
{
	if (interrupted())
		return interrupted_status(res);
	if (atomic_load(&c->env->error))
		return fail(res, 1, "%s: %s", c->env->bench->name, c->env->errbuf);
	return fail(res, 1, "%s: cannot start thread %d of %d: %s (limits: ulimit -u, ulimit -v, "
		    "the pids cgroup)", c->env->bench->name, c->started + 1, c->n, strerror(-err));
}

/* The threads whose placement each sample records: the crew's, or the main thread's whole runs. */
static void watch_threads(struct bench_env *env, const struct crew *c, struct watchers *w)
{
	pid_t tids[PLACE_MAX_THREADS];
	int n = crew_tids(c, tids, PLACE_MAX_THREADS);

	w->nprod = n ? env->nr_producers : 1;
	if (!n)
		tids[n++] = gettid();
	place_begin(&w->pm, tids, n);
	w->norm_metric = env->opts->normalize ? normalize_add(env->res) : -1;
	w->speed_ref = env->opts->speed_ref || env->opts->normalize;
	w->ref_metric = -1;
	if (w->speed_ref) {
		speedref_open(&w->ref);
		w->ref_metric = speedref_add_metrics(env->res);
	}
}

/*
 * The threads wait at the gate while the baseline is read: what they did
 * before the clock started is never counted, as the time it took is not.
 */
static int measure_run(struct bench_env *env, struct crew *c)
{
	const struct bench *b = env->bench;
	struct run_result *res = env->res;
	struct kstats_probe kp = { .stats_fd = -1 };
	struct watchers w = { .cs.fd = { -1, -1, -1, -1, -1, -1 } };
	uint64_t start;
	double *vals;
	int err;

	/* before the threads start: they inherit the events */
	if (env->opts->counters && counters_open(&w.cs, &res->counters))
		return fail(res, 1, "%s: --counters: %s", b->name, res->counters.why);
	err = crew_start(c);
	if (err) {
		counters_close(&w.cs, &res->counters);
		return crew_failed(res, c, err);
	}
	if (env->opts->profile) {	/* opened (disabled) before the gate: the measured phase alone is sampled */
		err = profiler_open(&w.pf, getpid(), env->opts->profile_freq, &res->prof);
		if (err) {
			crew_stop(c);
			counters_close(&w.cs, &res->counters);
			return fail(res, profile_status(err), "%s: --profile: %s", b->name,
				    res->prof.why);
		}
	}
	watch_threads(env, c, &w);	/* first: --normalize adds a metric */
	vals = xcalloc(res->nr_metrics ?: 1, sizeof(double));
	errmsg_forget();	/* what the run prints from now on says why it failed */
	if (b->measure)	/* sets the benchmark's counters' baseline: setup's work is not sampled */
		b->measure(env, 1, vals);
	if (env->opts->kernel_stats)
		kstats_begin(&kp, env->trig.kind ? env->trig.prog_fd : -1, &res->kstats);
	/*
	 * The clock starts before the gate opens: a main thread descheduled
	 * while hundreds of producers wake would otherwise count their first
	 * work in a first sample that does not count its time.
	 */
	start = now_ns();
	crew_go(c);
	if (env->obs && env->obs->started)
		env->obs->started(env);
	err = b->flags & BENCH_F_ONESHOT ? sample_oneshot(env, vals, &w) :
	      sample_periods(env, vals, start, &w);
	crew_stop(c);
	kstats_end(&kp, &res->kstats);
	counters_close(&w.cs, &res->counters);
	profiler_close(&w.pf, &res->prof);	/* before teardown: the programs are still in kallsyms */
	if (w.speed_ref)
		speedref_close(&w.ref);
	count_calls(env, c);
	free(vals);
	if (atomic_load(&env->error))
		return fail(res, 1, "%s: %s", b->name, env->errbuf);
	if (interrupted())
		return interrupted_status(res);
	if (err == -EMFILE || err == -ENFILE)
		return fail(res, 1, "%s: file descriptors ran short while measuring (%s, %d left; "
			    "see ulimit -n)", b->name, strerror(-err), fds_free());
	if (err)
		return fail(res, failure_status(res, err), "%s: run failed: %s", b->name,
			    strerror(-err));
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
	struct timespec started;
	struct crew crew;

	clock_gettime(CLOCK_REALTIME, &started);
	if (b->flags & BENCH_F_ONESHOT)
		nw = 0;		/* the main thread measures whole runs itself */
	crew_init(&crew, env, nw);
	if (nw)
		warn_shared_cpus(env);
	memset(&env->trig, 0, sizeof(env->trig));
	atomic_store(&env->stop, false);
	env->priv = NULL;
	if (env->obs && env->obs->setup)
		env->obs->setup(env);
	errmsg_forget();
	err = b->setup(env);
	note_trigger(env);
	if (err && !(err == -EINTR && interrupted())) {
		char hint[300];

		fail(res, failure_status(res, err), "%s: setup failed: %s%s", b->name,
		     strerror(-err), failure_hint(hint, sizeof(hint)));
	} else if (interrupted()) {
		interrupted_status(res);
	} else if (env->opts->verifier_stats) {
		if (kstats_verifier_report(stdout, b->name))
			fail(res, 1, "%s: loaded no BPF program to report", b->name);
	} else if (!measure_run(env, &crew) || res->nr_samples > samples_before) {
		/* an interrupted repetition counts with what it measured */
		res_note_repeat_start(res, res->nr_repeats++,
				      started.tv_sec + started.tv_nsec / 1e9);
	}
	crew_free(&crew);	/* every thread joined before teardown frees what they use */
	trigger_detach(&env->trig);
	if (b->teardown)
		b->teardown(env);
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

static int run_bench_body(const struct run_spec *spec, const struct run_observer *obs,
			  struct run_result *res);

int run_bench(const struct run_spec *spec, const struct run_observer *obs,
	      struct run_result *res)
{
	bool was = errmsg_mute(spec->opts.batch);	/* a suite's row says why, once */
	int st = run_bench_body(spec, obs, res);

	errmsg_mute(was);
	if (!res->st)	/* refused before it ran: still a whole result, of no samples */
		res_compute_stats(res);
	return st;
}

/* The run itself: run_bench() around it mutes its error lines in a suite (--batch). */
static int run_bench_body(const struct run_spec *spec, const struct run_observer *obs,
			  struct run_result *res)
{
	const struct bench *b = spec->bench;
	struct bench_env env = { .bench = b, .obs = obs };
	char why[400];
	int err, k;

	memset(res, 0, sizeof(*res));
	run_spec_copy(&res->spec, spec);
	res->bench = b;
	res->trigger = "none";
	errmsg_forget();
	res->precision_target = res->spec.opts.precision_pct;
	res_capture_opts(res, (const struct opt_def *const[2]){ global_opts, b->opts });
	env.opts = &res->spec.opts;
	env.args = res->spec.args;
	env.res = res;
	env.nr_producers = (int)env.opts->producers;
	env.nr_consumers = (int)env.opts->consumers;
	err = add_static_metrics(&env);
	if (err) {	/* validate() printed the one line */
		return fail(res, failure_status(res, err), "%s: invalid options", b->name);
	}
	err = bench_runnable(b, why, sizeof(why));
	if (err != 1) {
		(err ? errmsg : skipmsg)("%s: %s", b->name, why);
		res->reported = true;
		return fail(res, err ? 1 : EXIT_SKIP, "%s", why);
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
			 "sample was measured", res->signal);
	res_compute_stats(res);
	/*
	 * A signal ended the run after some samples: each of them was a
	 * whole period (the one cut short is dropped), so the summary of
	 * those is a true one, said to be partial (res_kept_text()).
	 */
	if (res_kept(res))
		res_kept_text(res, false, res->error, sizeof(res->error));
	return res->status;
}

