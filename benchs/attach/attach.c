// SPDX-License-Identifier: GPL-2.0
/*
 * attach: the cost of one BPF program hit per attach type (the kernel
 * bench's trig-* family); its names, the table of variants, are in
 * table.c.  Hits are counted as upstream counts them: by the attached
 * program on its CPU's slot, or, for the harness's own ceilings
 * (usermode-count, syscall-count), by the producer in user space.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <bpf/bpf.h>
#include "bench.h"
#include "attach.h"
#include "attach_int.h"
#include "attach.skel.h"

#define SELF_EXE	"/proc/self/exe"
#ifndef ENOTSUPP
#define ENOTSUPP	524	/* the kernel's own, not in uapi */
#endif

/* A producer's own count, alone on its cache line, as upstream's buckets are. */
struct user_count {
	_Atomic uint64_t n;
} __attribute__((aligned(64)));

struct attach_state {
	struct attach_bpf *skel;
	struct bpf_link *link;		/* the measured program's */
	struct bpf_link *all_link;	/* -all: the empty program's */
	int multi_fd;			/* a uprobe.multi link (libbpf 1.1 has none) */
	int driver_fd;
	/*
	 * One per producer: user_count's figure, read each period; the
	 * others' calls (driver runs), written once as the producer
	 * stops, for the totals that check the hits.
	 */
	struct user_count *counts;
	int nr_counts;
	struct delta hits;
};

enum { M_HITS, M_DROPS, M_HITS_N };

const struct metric_def attach_metrics[ATTACH_NR_METRICS] = {
	[M_HITS] = { "hits", "M ops/s", METRIC_RATE, .prod_unit = "M" },
	[M_DROPS] = { "drops", "M ops/s", METRIC_RATE, .better = BETTER_LOWER },
	[M_HITS_N] = { "hits_count", "hits", METRIC_COUNT },
};

int attach_validate(struct bench_env *env)
{
	return 0;
}

static int load_prog(struct attach_state *s, const char *name, int attach_type)
{
	struct bpf_program *p = bpf_object__find_program_by_name(s->skel->obj, name);

	if (!p)
		return -ENOENT;
	bpf_program__set_autoload(p, true);
	if (attach_type)
		return bpf_program__set_expected_attach_type(p, attach_type);
	return 0;
}

static struct bpf_program *prog_of(struct attach_state *s, const char *name)
{
	return bpf_object__find_program_by_name(s->skel->obj, name);
}

static int open_and_load(struct bench_env *env, struct attach_state *s)
{
	const struct attach_variant *v = env->bench->variant;
	const struct attach_args *a = env->args;
	int err = 0;

	s->skel = attach_bpf__open();
	if (!s->skel)
		return -errno;
	BENCH_SKEL_INIT(s->skel);
	s->skel->rodata->batch_iters = a ? a->batch_iters : 0;
	if (v->driver)
		err = load_prog(s, v->driver, 0);
	if (!err && v->prog)
		err = load_prog(s, v->prog, v->multi && v->drive == DRIVE_USER ? 48 : 0);
	if (!err && v->all)
		err = load_prog(s, v->retprobe ? "attach_kretprobe_multi_empty" :
				"attach_kprobe_multi_empty", 0);
	if (err)
		return err;
	if (attach_bpf__load(s->skel))
		return -errno;
	if (v->driver)
		s->driver_fd = bpf_program__fd(prog_of(s, v->driver));
	return 0;
}

static int attach_user(struct bench_env *env, struct attach_state *s, struct bpf_program *p)
{
	const struct attach_variant *v = env->bench->variant;
	unsigned long off;
	int err;

	if (v->usdt) {
		s->link = bpf_program__attach_usdt(p, 0, SELF_EXE, "bpfbench", v->usdt, NULL);
		return s->link ? 0 : -errno;
	}
	err = attach_file_offset(v->target, &off);
	if (err)
		return err;
	if (v->multi) {
		s->multi_fd = attach_uprobe_multi_link(bpf_program__fd(p), SELF_EXE, off, v->retprobe);
		return s->multi_fd < 0 ? s->multi_fd : 0;
	}
	s->link = bpf_program__attach_uprobe(p, v->retprobe, -1, SELF_EXE, off);
	return s->link ? 0 : -errno;
}

/* uprobe, uretprobe, usdt, kprobe, kretprobe, tp: perf_event_open()'s, not a BPF link's own. */
static bool perf_based(const struct attach_variant *v)
{
	if (v->drive == DRIVE_USER)
		return !v->multi;
	return !v->multi && (!strcmp(v->prog, "attach_kprobe") || !strcmp(v->prog, "attach_kretprobe") ||
			     !strcmp(v->prog, "attach_tp"));
}

static int attach_measured(struct bench_env *env, struct attach_state *s)
{
	const struct attach_variant *v = env->bench->variant;
	struct bpf_program *p = prog_of(s, v->prog);
	char why[200];
	int err;

	if (v->all) {
		err = attach_all_functions(prog_of(s, v->retprobe ? "attach_kretprobe_multi_empty" :
						   "attach_kprobe_multi_empty"),
					   v->retprobe, &s->all_link, why, sizeof(why));
		if (err) {
			errmsg("%s: %s", env->bench->name, why);
			return err;
		}
	}
	if (v->drive == DRIVE_USER)
		err = attach_user(env, s, p);
	else
		err = (s->link = bpf_program__attach(p)) ? 0 : -errno;
	if (err == -ENOTSUPP || err == -EOPNOTSUPP) {
		/* the kernel cannot probe that instruction (a 10-byte nop before 7.x) */
		skipmsg("%s: this kernel refuses %s on its target (%s); a newer kernel runs it: "
			"bpfbench --kernel 7.3 %s", env->bench->name, v->prog, strerror(EOPNOTSUPP),
			env->bench->name);
		return -EOPNOTSUPP;
	}
	if (err == -EPERM || err == -EACCES)
		errmsg("%s: cannot attach %s: %s: %s", env->bench->name, v->prog, strerror(-err),
		       perf_based(v) ? "an attach through a perf event needs CAP_SYS_ADMIN "
		       "(CAP_BPF+CAP_PERFMON are not enough)" : "it needs CAP_BPF and CAP_PERFMON");
	else if (err)
		errmsg("%s: cannot attach %s: %s", env->bench->name, v->prog, strerror(-err));
	return err;
}

int attach_setup(struct bench_env *env)
{
	const struct attach_variant *v = env->bench->variant;
	struct attach_state *s = calloc(1, sizeof(*s));
	int err;

	if (!s)
		return -ENOMEM;
	env->priv = s;
	s->multi_fd = -1;
	s->nr_counts = env->nr_producers;
	/* calloc() aligns to 16 bytes, not the 64 a count alone on its line needs */
	if (posix_memalign((void **)&s->counts, 64, s->nr_counts * sizeof(*s->counts)))
		return -ENOMEM;
	memset(s->counts, 0, s->nr_counts * sizeof(*s->counts));
	if (v->user_count)
		return 0;
	err = open_and_load(env, s);
	if (err)
		return err;
	if (v->prog) {
		err = attach_measured(env, s);
		if (err)
			return err;
	}
	bench_trigger_measured(env, v->prog ? bpf_program__fd(prog_of(s, v->prog)) : s->driver_fd);
	env->method = v->drive == DRIVE_BATCH ? "test-run driver" : "user-space calls";
	return 0;
}

static uint64_t user_total(const struct attach_state *s)
{
	uint64_t sum = 0;
	int i;

	for (i = 0; i < s->nr_counts; i++)
		sum += atomic_load_explicit(&s->counts[i].n, memory_order_relaxed);
	return sum;
}

void attach_measure(struct bench_env *env, uint64_t elapsed_ns, double *vals)
{
	struct attach_state *s = env->priv;
	const struct attach_variant *v = env->bench->variant;
	uint64_t total = v->user_count ? user_total(s) :
			 slots_sum(s->skel->bss->bench_slots, SLOT_HITS);
	uint64_t n = delta_next(&s->hits, total);

	vals[M_HITS] = mops(n, elapsed_ns);
	vals[M_DROPS] = 0;
	vals[M_HITS_N] = n;
}

void attach_teardown(struct bench_env *env)
{
	struct attach_state *s = env->priv;

	if (!s)
		return;
	if (s->counts && !s->skel)
		bench_total(env, "calls", user_total(s));
	if (s->skel && s->skel->obj && s->skel->bss) {
		bench_total(env, ((const struct attach_variant *)env->bench->variant)->drive ==
			    DRIVE_BATCH ? "driver_runs" : "calls", user_total(s));
		bench_total(env, "hits", slots_sum(s->skel->bss->bench_slots, SLOT_HITS));
		bench_total(env, "recursion_misses", obj_recursion_misses(s->skel->obj));
	}
	if (s->multi_fd >= 0)
		close(s->multi_fd);
	bpf_link__destroy(s->link);
	bpf_link__destroy(s->all_link);
	free(s->counts);
	BENCH_SKEL_TEARDOWN(env, NULL, s->skel);
}

/* ---- the producers: each loop calls its target directly, as upstream's do ---- */

/* The calls a producer made, kept in a register as it runs and written once. */
static void calls_done(struct bench_env *env, int idx, uint64_t calls)
{
	struct attach_state *s = env->priv;

	atomic_store_explicit(&s->counts[idx].n, calls, memory_order_relaxed);
}

void attach_produce_batch(struct bench_env *env, int idx)
{
	struct attach_state *s = env->priv;
	uint64_t runs = 0;

	while (!bench_stopping(env)) {
		if (bpf_prog_test_run_opts(s->driver_fd, NULL)) {
			if (!bench_stopping(env))
				bench_fail(env, -errno, "test run of the driver failed");
			break;
		}
		runs++;
	}
	calls_done(env, idx, runs);
}

/*
 * getpgid() of the thread itself: upstream passes no argument, so the
 * kernel reads whatever the register holds, which in its loop is the
 * thread's id (its counter's hash leaves it there; profile --diff shows
 * the lookup and security_task_getpgid() a found task costs); a pid
 * that finds no task would be an 18% cheaper syscall.
 */
void attach_produce_syscall(struct bench_env *env, int idx)
{
	struct attach_state *s = env->priv;
	_Atomic uint64_t *n = &s->counts[idx].n;
	long tid = syscall(__NR_gettid);

	while (!bench_stopping(env)) {
		(void)syscall(__NR_getpgid, tid);
		atomic_fetch_add_explicit(n, 1, memory_order_relaxed);
	}
}

void attach_produce_count(struct bench_env *env, int idx)
{
	struct attach_state *s = env->priv;
	_Atomic uint64_t *n = &s->counts[idx].n;

	while (!bench_stopping(env)) {
		attach_target_nop();
		atomic_fetch_add_explicit(n, 1, memory_order_relaxed);
	}
}

#define PRODUCE(name, call)						\
void attach_produce_##name(struct bench_env *env, int idx)		\
{									\
	uint64_t calls = 0;						\
									\
	while (!bench_stopping(env)) {					\
		call();							\
		calls++;						\
	}								\
	calls_done(env, idx, calls);					\
}

PRODUCE(nop, attach_target_nop)
PRODUCE(push, attach_target_push)
PRODUCE(ret, attach_target_ret)
PRODUCE(nop5, attach_target_nop5)
PRODUCE(nop10, attach_target_nop10)
PRODUCE(usdt, attach_target_usdt)
PRODUCE(usdt10, attach_target_usdt10)
