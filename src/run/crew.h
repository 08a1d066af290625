/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The run's producer and consumer threads.  All of them start behind a
 * gate: each pins itself and waits there, so that neither the work done
 * while a thousand threads are created nor its time is measured; the
 * clock starts when the gate opens.  Whatever fails on the way (a thread
 * that cannot be created, a signal), the threads that did start are
 * stopped and joined before the caller tears down what they use.
 */
#ifndef BPFBENCH_CREW_H
#define BPFBENCH_CREW_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include "bench.h"

struct crew;

struct worker {
	struct crew *crew;
	int idx;
	int cpu;		/* -1: not pinned */
	pid_t tid;		/* set before it reaches the gate: where it runs is read by tid */
	bool consumer;
	bool started;
	pthread_t thread;
	uint64_t calls, calls_cut;	/* the default producer's trigger calls; cut by the stop */
};

struct crew {
	struct bench_env *env;
	struct worker *w;
	int n, started;		/* threads wanted, threads created */
	pthread_mutex_t lock;
	pthread_cond_t arrive;	/* a thread reached the gate */
	pthread_cond_t go;	/* the gate opened */
	int arrived;
	bool open;
};

/* n threads: env's producers then its consumers, placed as -a and --*-affinity say. */
void crew_init(struct crew *c, struct bench_env *env, int n);
/*
 * Creates every thread and waits until each has reached the gate.  0, or
 * -errno (-EINTR: a signal, or a thread failed) with every started thread
 * already stopped and joined.
 */
int crew_start(struct crew *c);
/* The started threads' ids, into tids (at most max): their count. */
int crew_tids(const struct crew *c, pid_t *tids, int max);
/* Opens the gate: the threads run from now on. */
void crew_go(struct crew *c);
/* Stops, wakes (out of a long test run) and joins every started thread; idempotent. */
void crew_stop(struct crew *c);
void crew_free(struct crew *c);

#endif
