// SPDX-License-Identifier: GPL-2.0
/*
 * A benchmark table without BPF, for the core's unit tests: the runner,
 * suites, sweeps, reporters and exports see a real struct bench whose
 * figures are known in advance, and nothing needs root.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "bench.h"
#include "runner.h"

int mock_setups, mock_teardowns;	/* what the tests count */

struct mock_args {
	uint64_t level;		/* throughput of sample i: level + i % 3 */
	bool skip;		/* setup says the kernel lacks something */
	bool fail;		/* setup fails */
	bool bad;		/* validate refuses */
};

struct mock_state {
	uint64_t i;
};

static struct mock_state state;

static const struct opt_def mock_opts[] = {
	{ "level", 0, OPT_UINT, OPT_OFF(struct mock_args, level), "100", 1, 1000000, NULL, "N",
	  "throughput of the samples" },
	{ "skip", 0, OPT_FLAG, OPT_OFF(struct mock_args, skip), NULL, 0, 0, NULL, NULL,
	  "setup skips" },
	{ "fail", 0, OPT_FLAG, OPT_OFF(struct mock_args, fail), NULL, 0, 0, NULL, NULL,
	  "setup fails" },
	{ "bad", 0, OPT_FLAG, OPT_OFF(struct mock_args, bad), NULL, 0, 0, NULL, NULL,
	  "validate refuses" },
	{ NULL },
};

static const struct metric_def mock_metrics[] = {
	{ "throughput", "M ops/s", METRIC_RATE },
	{ "latency", "ns/op", METRIC_INVERSE, .base = 0, .scale = 1000.0 },
	{ "memory", "MiB", METRIC_LEVEL },
};

static int mock_validate(struct bench_env *env)
{
	const struct mock_args *a = env->args;

	if (a->bad) {
		errmsg("mock: --bad given");
		return -EINVAL;
	}
	return 0;
}

static int mock_setup(struct bench_env *env)
{
	const struct mock_args *a = env->args;

	mock_setups++;
	state.i = 0;
	env->priv = &state;
	env->trig.kind = TRIG_NONE;
	if (a->skip) {
		errmsg("mock: skipped on purpose");
		return -EOPNOTSUPP;
	}
	return a->fail ? -EIO : 0;
}

static void mock_producer(struct bench_env *env, int idx)
{
	while (!bench_stopping(env))
		usleep(1000);	/* a test double need not burn a CPU */
}

static void mock_measure(struct bench_env *env, uint64_t elapsed_ns, double *vals)
{
	const struct mock_args *a = env->args;
	struct mock_state *s = env->priv;

	if (elapsed_ns == 1)	/* the baseline call before sampling */
		return;
	vals[0] = a->level + s->i++ % 3;
	vals[2] = 5;
}

static int mock_run_once(struct bench_env *env, double *vals)
{
	const struct mock_args *a = env->args;

	usleep(100000);	/* a pass of a tenth of a second: ten samples a second */
	vals[0] = a->level;
	vals[2] = 5;
	return 0;
}

static void mock_teardown(struct bench_env *env)
{
	mock_teardowns++;
}

const struct bench bench_mock = {
	.name = "mock",
	.summary = "BPF-free test double",
	.family = "mock",
	.opts = mock_opts,
	.args_size = sizeof(struct mock_args),
	.metrics = mock_metrics,
	.nr_metrics = ARRAY_SIZE(mock_metrics),
	.flags = BENCH_F_NO_BPF,
	.validate = mock_validate,
	.setup = mock_setup,
	.producer = mock_producer,
	.measure = mock_measure,
	.teardown = mock_teardown,
};

const struct bench bench_mock_oneshot = {
	.name = "mock-oneshot",
	.summary = "BPF-free test double, whole-run samples",
	.family = "mock",
	.opts = mock_opts,
	.args_size = sizeof(struct mock_args),
	.metrics = mock_metrics,
	.nr_metrics = ARRAY_SIZE(mock_metrics),
	.flags = BENCH_F_NO_BPF | BENCH_F_ONESHOT,
	.setup = mock_setup,
	.run_once = mock_run_once,
	/* a declared shape of the kernel's (htab-mem's: its memory): the suite still adds the precision */
	.report = { REPORT_HTAB_MEM },
	.teardown = mock_teardown,
};


static const struct suite_step mock_steps[] = {
	{ "levels", "level 10", "mock --level 10" },
	{ NULL, "level 20", "mock --level 20" },
	{ "others", "skipped", "mock --skip" },
	{ NULL, "whole runs", "mock-oneshot --level 7" },
	{ NULL },
};

static const struct suite_step mock_quick[] = {
	{ "quick extra", "mock level 3", "mock -w0 -d1 --level 3" },
	{ NULL },
};

static const struct suite suite_mock = {
	.name = "mock",
	.summary = "the test double's suite",
	.steps = mock_steps,
	.quick = mock_quick,
};


static const struct family family_mock = {
	.name = "mock",
	.summary = "the core's BPF-free test double",
	.benchs = (const struct bench *const []){ &bench_mock, &bench_mock_oneshot, NULL },
	.suites = (const struct suite *const []){ &suite_mock, NULL },
};

const struct family *const family_table[] = { &family_mock, NULL };

