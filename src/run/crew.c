// SPDX-License-Identifier: GPL-2.0
/*
 * The run's threads (crew.h): created behind a gate, released together,
 * stopped and joined on every path.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "crew.h"
#include "util.h"

#define ARRIVAL_POLL_NS	50000000l	/* while threads arrive, a look at signals every 50 ms */

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

/* A thread's arrival at the gate; true once it opens for a run, false if the run stopped. */
static bool gate_pass(struct crew *c)
{
	pthread_mutex_lock(&c->lock);
	c->arrived++;
	pthread_cond_signal(&c->arrive);
	while (!c->open)
		pthread_cond_wait(&c->go, &c->lock);
	pthread_mutex_unlock(&c->lock);
	return !bench_stopping(c->env);
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct bench_env *env = w->crew->env;
	const struct bench *b = env->bench;
	int err = 0;

	w->tid = gettid();
	if (w->cpu >= 0) {
		err = pin_thread_to_cpu(w->cpu);
		if (err)
			bench_fail(env, err, "cannot pin to CPU %d: %s", w->cpu, strerror(-err));
	}
	if (!gate_pass(w->crew) || err)
		return NULL;
	if (w->consumer)
		b->consumer(env, w->idx);
	else if (b->producer)
		b->producer(env, w->idx);
	else
		default_producer(env, w);
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

void crew_init(struct crew *c, struct bench_env *env, int n)
{
	const struct run_opts *o = env->opts;
	pthread_condattr_t ca;
	int i;

	memset(c, 0, sizeof(*c));
	c->env = env;
	c->n = n;
	c->w = xcalloc(n ?: 1, sizeof(*c->w));
	for (i = 0; i < n; i++) {
		struct worker *w = &c->w[i];

		w->crew = c;
		w->consumer = i >= env->nr_producers;
		w->idx = w->consumer ? i - env->nr_producers : i;
		w->cpu = worker_cpu(o, w->consumer, w->idx);
	}
	pthread_mutex_init(&c->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&c->arrive, &ca);
	pthread_condattr_destroy(&ca);
	pthread_cond_init(&c->go, NULL);
}

/* Until all started threads are at the gate: 0, or -EINTR on a signal or a thread's failure. */
static int await_arrivals(struct crew *c)
{
	struct timespec ts;
	int err = 0;

	pthread_mutex_lock(&c->lock);
	while (c->arrived < c->started) {
		if (interrupted() || atomic_load(&c->env->error)) {
			err = -EINTR;
			break;
		}
		clock_gettime(CLOCK_MONOTONIC, &ts);
		ts.tv_nsec += ARRIVAL_POLL_NS;
		if (ts.tv_nsec >= 1000000000l) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000l;
		}
		pthread_cond_timedwait(&c->arrive, &c->lock, &ts);
	}
	pthread_mutex_unlock(&c->lock);
	return err;
}

int crew_start(struct crew *c)
{
	sigset_t old;
	int err = 0;

	while (c->started < c->n && !err) {
		if (interrupted())
			break;
		/* signals go to the main thread, which turns them into a clean stop */
		stop_signals_block(&old);
		err = -pthread_create(&c->w[c->started].thread, NULL, worker_main,
				      &c->w[c->started]);
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		if (!err)
			c->w[c->started++].started = true;
	}
	if (!err && c->started < c->n)
		err = -EINTR;
	if (!err)
		err = await_arrivals(c);
	if (err)
		crew_stop(c);
	return err;
}

static void gate_open(struct crew *c)
{
	pthread_mutex_lock(&c->lock);
	c->open = true;
	pthread_cond_broadcast(&c->go);
	pthread_mutex_unlock(&c->lock);
}

int crew_tids(const struct crew *c, pid_t *tids, int max)
{
	int i, n = 0;

	for (i = 0; i < c->n && n < max; i++)
		if (c->w[i].started)
			tids[n++] = c->w[i].tid;
	return n;
}

void crew_go(struct crew *c)
{
	gate_open(c);
}

void crew_stop(struct crew *c)
{
	struct worker *w;
	int i;

	atomic_store(&c->env->stop, true);
	gate_open(c);
	for (i = 0; i < c->n; i++) {
		w = &c->w[i];
		if (!w->started)
			continue;
		if (w->consumer)
			pthread_join(w->thread, NULL);
		else	/* out of a long test run at once */
			thread_join_waking(w->thread);
		w->started = false;
	}
}

void crew_free(struct crew *c)
{
	crew_stop(c);
	pthread_cond_destroy(&c->arrive);
	pthread_cond_destroy(&c->go);
	pthread_mutex_destroy(&c->lock);
	free(c->w);
	c->w = NULL;
}
