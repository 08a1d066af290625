// SPDX-License-Identifier: GPL-2.0
/*
 * rename-{base,kprobe,kretprobe,rawtp,fentry,fexit}: writes to
 * /proc/self/comm per second with one program on the rename path (base:
 * none), as the kernel bench's rename family measures them; one producer.
 * The process's own name is put back at teardown.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include "bench.h"
#include "rename.skel.h"

struct rename_variant {
	const char *prog;	/* NULL: base, nothing attached */
	bool kprobe;		/* needs the kprobe PMU */
	bool trampoline;	/* fentry, fexit */
};

struct rename_state {
	struct rename_bpf *skel;
	struct bpf_link *link;
	int fd;
	char comm[16];		/* our name before the run */
	_Atomic uint64_t writes;
	struct delta hits;
};

enum { M_HITS, M_DROPS, M_HITS_N };

static const struct metric_def rename_metrics[] = {
	[M_HITS] = { "hits", "M ops/s", METRIC_RATE, .prod_unit = "M" },
	[M_DROPS] = { "drops", "M ops/s", METRIC_RATE, .better = BETTER_LOWER },
	[M_HITS_N] = { "hits_count", "writes", METRIC_COUNT },
};

static int attach_prog(struct bench_env *env, struct rename_state *s, const char *name)
{
	struct bpf_program *p;

	s->skel = rename_bpf__open();
	if (!s->skel)
		return -errno;
	p = bpf_object__find_program_by_name(s->skel->obj, name);
	if (!p)
		return -ENOENT;
	bpf_program__set_autoload(p, true);
	if (rename_bpf__load(s->skel))
		return -errno;
	s->link = bpf_program__attach(p);
	if (!s->link) {
		errmsg("%s: cannot attach %s: %s", env->bench->name, name, strerror(errno));
		return -errno;
	}
	bench_trigger_measured(env, bpf_program__fd(p));
	return 0;
}

static int rename_setup(struct bench_env *env)
{
	const struct rename_variant *v = env->bench->variant;
	struct rename_state *s = calloc(1, sizeof(*s));

	if (!s)
		return -ENOMEM;
	env->priv = s;
	s->fd = -1;
	if (prctl(PR_GET_NAME, s->comm))
		return -errno;
	s->fd = open("/proc/self/comm", O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (s->fd < 0)
		return -errno;
	return v->prog ? attach_prog(env, s, v->prog) : 0;
}

static void rename_producer(struct bench_env *env, int idx)
{
	static const char name[] = "test_overhead";	/* the length upstream writes */
	struct rename_state *s = env->priv;

	while (!bench_stopping(env)) {
		if (write(s->fd, name, sizeof(name)) < 0) {
			bench_fail(env, -errno, "write to /proc/self/comm failed");
			return;
		}
		atomic_fetch_add_explicit(&s->writes, 1, memory_order_relaxed);
	}
}

static void rename_measure(struct bench_env *env, uint64_t elapsed_ns, double *vals)
{
	struct rename_state *s = env->priv;
	uint64_t n = delta_next(&s->hits, atomic_load(&s->writes));

	vals[M_HITS] = mops(n, elapsed_ns);
	vals[M_DROPS] = 0;
	vals[M_HITS_N] = n;
}

static void rename_teardown(struct bench_env *env)
{
	struct rename_state *s = env->priv;

	if (!s)
		return;
	if (s->fd >= 0)
		close(s->fd);
	if (s->comm[0])
		prctl(PR_SET_NAME, s->comm);
	bpf_link__destroy(s->link);
	rename_bpf__destroy(s->skel);
	free(s);
	env->priv = NULL;
}

/* 1, or 0 with the reason and where the benchmark does run. */
static int rename_runnable(const struct bench *b, char *why, size_t len)
{
	const struct rename_variant *v = b->variant;
	char detail[200] = "";
	int ret = 1;

	if (v->kprobe && access("/sys/bus/event_source/devices/kprobe/type", R_OK)) {
		snprintf(detail, sizeof(detail), "no perf PMU kprobe (kernel built without "
			 "CONFIG_KPROBE_EVENTS)");
		ret = 0;
	} else if (v->trampoline) {
		ret = probe_feature(PROBE_TRIG_FENTRY, detail, sizeof(detail));
	}
	if (ret != 1)
		snprintf(why, len, "%s; a kernel that has it runs it: bpfbench --kernel 7.3 %s",
			 detail, b->name);
	return ret;
}

#define RENAME_BENCHES(X)								\
	X(base, NULL, "nothing attached: the write alone", false, false)		\
	X(kprobe, "rename_kprobe", "kprobe on __set_task_comm()", true, false)		\
	X(kretprobe, "rename_kretprobe", "kretprobe on __set_task_comm()", true, false)	\
	X(rawtp, "rename_rawtp", "raw tracepoint task_rename", false, false)		\
	X(fentry, "rename_fentry", "fentry on __set_task_comm()", false, true)		\
	X(fexit, "rename_fexit", "fexit on __set_task_comm()", false, true)

#define RENAME_BENCH(id, prog_, sum, kp, tr)						\
	static const struct rename_variant var_##id = { prog_, kp, tr };		\
	static const struct bench bench_rename_##id = {					\
		.name = "rename-" #id,							\
		.summary = "writes to /proc/self/comm, " sum,				\
		.family = "rename",							\
		.variant = &var_##id,							\
		.metrics = rename_metrics,						\
		.nr_metrics = ARRAY_SIZE(rename_metrics),				\
		.flags = BENCH_F_ONE_PRODUCER | (prog_ ? BENCH_F_SELF_DRIVEN :		\
						 BENCH_F_NO_TRIGGER | BENCH_F_NO_BPF),	\
		.runnable = rename_runnable,						\
		.setup = rename_setup,							\
		.producer = rename_producer,						\
		.measure = rename_measure,						\
		.teardown = rename_teardown,						\
		.report = { REPORT_HITS_DROPS },					\
	};
RENAME_BENCHES(RENAME_BENCH)

#define RENAME_ENTRY(id, ...)	&bench_rename_##id,
#define RENAME_STEP(id, ...)	{ NULL, #id, "-a rename-" #id },

/* run_bench_rename.sh's table */
static const struct suite_step rename_steps[] = {
	RENAME_BENCHES(RENAME_STEP)
	{ NULL },
};

static const struct suite suite_rename = {
	.name = "rename",
	.summary = "a comm write with a program on the rename path, per attach type "
		   "(run_bench_rename.sh)",
	.steps = rename_steps,
};

const struct family family_rename = {
	.name = "rename",
	.summary = "what a program on the task-rename path adds to a write to /proc/self/comm",
	.benchs = (const struct bench *const []){ RENAME_BENCHES(RENAME_ENTRY) NULL },
	.suites = (const struct suite *const []){ &suite_rename, NULL },
	.quick = (const char *const []){ "rename-base", "rename-rawtp", NULL },
};
