// SPDX-License-Identifier: GPL-2.0
/*
 * The core's side of the contract (bench.h) that a benchmark calls: its
 * failures, the features it requires, the trigger it declares, and the
 * env forms of the trigger's and the histograms' calls.  What writes the
 * run's result (metrics, totals, notes) is the runner's: run/env.c.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <bpf/libbpf.h>
#include "bench.h"

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

void bench_trigger_single(struct bench_env *env)
{
	if (!env->opts->test_run_repeat)
		env->trig.repeat = 1;
}

void bench_trigger_measured(struct bench_env *env, int prog_fd)
{
	env->trig.kind = TRIG_NONE;
	env->trig.prog_fd = prog_fd;
}

void bench_trigger_own(struct bench_env *env, enum trigger_kind kind, uint32_t repeat)
{
	env->trig.kind = kind;
	env->trig.repeat = repeat;
}

/*
 * 0; -EOPNOTSUPP where the kernel lacks the feature (a skip); -EPERM where
 * our privileges do not let us tell (an error naming the capability), or
 * another -errno where the probe itself could not run (out of fds...).
 */
static int require(enum probe_id id, const char *what, char *why, size_t len)
{
	char detail[256] = "";
	int ret = probe_feature(id, detail, sizeof(detail));

	if (ret == 1)
		return 0;
	if (ret == 0) {
		snprintf(why, len, "this kernel lacks %s%s%s (%s)", probe_name(id),
			 what ? " for " : "", what ?: "", *detail ? detail : "missing");
		return -EOPNOTSUPP;
	}
	if (ret == -EPERM || ret == -EACCES) {
		snprintf(why, len, "no permission to use %s%s%s: %s", probe_name(id),
			 what ? " for " : "", what ?: "", *detail ? detail : strerror(-ret));
		return -EPERM;
	}
	snprintf(why, len, "cannot tell whether this kernel offers %s%s%s: %s", probe_name(id),
		 what ? " for " : "", what ?: "", *detail ? detail : strerror(-ret));
	return ret;
}

int bench_require(const struct bench_env *env, enum probe_id id, const char *what)
{
	char why[400];
	int err = require(id, what, why, sizeof(why));

	if (err == -EOPNOTSUPP)
		skipmsg("%s: %s", env->bench->name, why);
	else if (err)
		errmsg("%s: %s", env->bench->name, why);
	return err;
}

int bench_runnable(const struct bench *b, char *why, size_t len)
{
	const enum probe_id *id;
	int err;

	for (id = b->requires; id && *id != PROBE__COUNT; id++) {
		err = require(*id, NULL, why, len);
		if (err)
			return err == -EOPNOTSUPP ? 0 : err;
	}
	return b->runnable ? b->runnable(b, why, len) : 1;
}

int trigger_prepare(struct bench_env *env, const struct trigger_progs *progs)
{
	return trigger_choose(&env->trig, env->bench->name, env->opts, progs);
}

int hist_bpf_open(struct hist_bpf *hb, const struct bench_env *env, int map_fd,
		  int clock_prog_fd, volatile __u64 *clock_q, const char *name, const char *vs)
{
	unsigned int warm = env->opts->warmup_ms / env->opts->period_ms;

	return hist_bpf_init(hb, env->bench->name, warm, map_fd, clock_prog_fd, clock_q, name, vs);
}

int hist_bpf_sample(struct hist_bpf *hb, const struct bench_env *env)
{
	return hist_bpf_read(hb);
}

void hist_bpf_measure(struct hist_bpf *hb, struct bench_env *env, double *sampled)
{
	int err;

	if (!hb->open)
		return;
	err = hist_bpf_read(hb);
	if (err)
		bench_fail(env, err, "cannot read the latency histogram: %s", strerror(-err));
	*sampled = hist_bpf_period_ops(hb, 0);
}
