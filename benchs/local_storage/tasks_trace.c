// SPDX-License-Identifier: GPL-2.0
/*
 * local-storage-tasks-trace: how long RCU Tasks Trace's grace periods
 * take, and how many ticks of its kthread each costs, while --nr_procs
 * sleepers we fork wake every 0-3 s and, as our producer does without
 * pause, create and delete a task storage at getpgid() (each delete's
 * free waits for a Tasks Trace grace period).  The grace periods are
 * timed by fentry on rcu_tasks_trace_pregp_step and _postgp: where the
 * kernel refuses fentry, or has no such functions, the run exits 4.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include "bench.h"
#include "local_storage_int.h"
#include "local_storage_tasks_trace.skel.h"

#define TT_MAX_PROCS	150000	/* upstream's bound */

/* --gp-probe none: the sleepers and the churn without the grace periods (the tests' aid) */
static const char *const gp_probes[] = { "fentry", "none", NULL };

struct tt_args {
	uint64_t nr_procs, kthread_pid;
	int no_gp;
};

static const struct opt_def tt_opts[] = {
	{ "nr_procs", 0, OPT_UINT, OPT_OFF(struct tt_args, nr_procs), "1000", 1, TT_MAX_PROCS,
	  NULL, "N", "sleeper processes forked, each creating and deleting its storage on wakeup",
	  OPT_F_DEFINES },
	{ "kthread_pid", 0, OPT_UINT, OPT_OFF(struct tt_args, kthread_pid), "0", 0, INT32_MAX,
	  NULL, "PID", "rcu_tasks_trace_kthread's pid, whose ticks a grace period costs (0: none)",
	  0 },
	{ "gp-probe", 0, OPT_CHOICE, OPT_OFF(struct tt_args, no_gp), "fentry", 0, 0, gp_probes,
	  "HOW", "fentry on the grace period's start and end, or none", OPT_F_HIDDEN },
	{ NULL },
};

enum { M_GP_US, M_GP_TICKS, M_CHURN, M_GPS, NR_TT_METRICS };

static const struct metric_def tt_metrics[] = {
	[M_GP_US] = { "gp_latency", "us", METRIC_TIME },
	[M_GP_TICKS] = { "gp_ticks", "ticks", METRIC_RATIO, .better = BETTER_LOWER },
	[M_CHURN] = { "churn", "M ops/s", METRIC_RATE },
	[M_GPS] = { "grace_periods", "gps", METRIC_COUNT },
};

struct tt_state {
	struct local_storage_tasks_trace_bpf *skel;
	struct bpf_link *links[2];
	pid_t *procs;
	int nr_procs;
	long prev_ticks;
	struct delta gps, gp_ns, churn;
};

/* The kthread's system time in ticks (/proc/PID/stat's 15th field), or -1. */
static long kthread_ticks(const struct tt_args *a)
{
	char path[64];
	long stime = -1;
	FILE *f;

	if (!a->kthread_pid)
		return -1;
	snprintf(path, sizeof(path), "/proc/%llu/stat", (unsigned long long)a->kthread_pid);
	f = fopen(path, "r");
	if (f && fscanf(f, "%*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %ld",
			&stime) != 1)
		stime = -1;
	if (f)
		fclose(f);
	return stime;
}

/* A sleeper: dies with us; wakes every 0-3 s for a getpgid(), as upstream's. */
static void __attribute__((noreturn)) sleeper(pid_t runner)
{
	unsigned int x = getpid() * 2654435761u | 1;

	if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != runner)
		_exit(1);
	for (;;) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		sleep(x % 4);
		syscall(__NR_getpgid);
	}
}

static int fork_sleepers(struct bench_env *env, struct tt_state *s, int n)
{
	pid_t runner = getpid(), pid;

	s->procs = malloc(n * sizeof(*s->procs));
	if (!s->procs)
		return -ENOMEM;
	while (s->nr_procs < n) {
		pid = fork();
		if (pid < 0) {
			errmsg("%s: cannot fork sleeper %d of %d: %s", env->bench->name, s->nr_procs,
			       n, strerror(errno));
			return -errno;
		}
		if (!pid)
			sleeper(runner);
		s->procs[s->nr_procs++] = pid;
	}
	return 0;
}

/* Whether fentry loads here and the kernel has both functions; 1, or 0 with why. */
static int gp_probe_ok(char *why, size_t len)
{
	char detail[160], line[256], *sym;
	int found = 0;
	FILE *f;

	if (probe_feature(PROBE_TRIG_FENTRY, detail, sizeof(detail)) != 1) {
		snprintf(why, len, "timing the grace periods needs fentry on "
			 "rcu_tasks_trace_pregp_step and _postgp: %s", detail);
		return 0;
	}
	f = fopen("/proc/kallsyms", "r");
	while (f && fgets(line, sizeof(line), f))
		if ((sym = strrchr(line, ' ')) && (!strcmp(sym, " rcu_tasks_trace_pregp_step\n") ||
						   !strcmp(sym, " rcu_tasks_trace_postgp\n")))
			found++;
	if (f)
		fclose(f);
	if (found < 2) {
		snprintf(why, len, "no rcu_tasks_trace_pregp_step and _postgp in this kernel to "
			 "time the grace periods at");
		return 0;
	}
	return 1;
}

static int tt_setup(struct bench_env *env)
{
	const struct tt_args *a = env->args;
	struct tt_state *s = calloc(1, sizeof(*s));
	struct local_storage_tasks_trace_bpf *skel;
	struct trigger_progs p;
	struct bpf_program *gp[2];
	char why[256];
	int err, i;

	if (!s)
		return -ENOMEM;
	env->priv = s;
	if (!a->no_gp && gp_probe_ok(why, sizeof(why)) != 1) {
		skipmsg("%s: %s; a kernel that has it runs it: bpfbench --kernel 7.3 %s",
			env->bench->name, why, env->bench->name);
		return -EOPNOTSUPP;
	}
	err = fork_sleepers(env, s, a->nr_procs);
	if (err)
		return err;
	skel = s->skel = local_storage_tasks_trace_bpf__open();
	if (!skel)
		return -errno;
	gp[0] = skel->progs.tt_pregp;
	gp[1] = skel->progs.tt_postgp;
	for (i = 0; i < 2; i++)
		bpf_program__set_autoload(gp[i], !a->no_gp);
	p = (struct trigger_progs){
		.raw_tp = skel->progs.tt_get_raw_tp,
		.fentry = skel->progs.tt_get_fentry,
	};
	/* upstream's fentry where the kernel allows it (the core's auto takes raw-tp first) */
	if (env->opts->trigger == TRIG_AUTO &&
	    probe_feature(PROBE_TRIG_FENTRY, why, sizeof(why)) == 1) {
		bpf_program__set_autoload(p.raw_tp, false);
		p.raw_tp = NULL;
	}
	err = bench_skel_load(env, &(struct bench_skel){ BENCH_SKEL_BASE(skel), .progs = p },
			      0, NULL, NULL);
	if (err)
		return err;
	s->prev_ticks = kthread_ticks(a);
	for (i = 0; i < 2 && !a->no_gp; i++) {
		s->links[i] = bpf_program__attach(gp[i]);
		if (!s->links[i]) {
			err = -errno;
			errmsg("%s: cannot attach %s: %s", env->bench->name, bpf_program__name(gp[i]),
			       strerror(-err));
			return err;
		}
	}
	return trigger_attach(&env->trig);
}

static void tt_measure(struct bench_env *env, uint64_t elapsed_ns, double *vals)
{
	const struct tt_args *a = env->args;
	struct tt_state *s = env->priv;
	struct local_storage_tasks_trace_bpf *skel = s->skel;
	uint64_t gps = delta_next(&s->gps, __atomic_load_n(&skel->bss->gp_hits, __ATOMIC_RELAXED));
	uint64_t ns = delta_next(&s->gp_ns, __atomic_load_n(&skel->bss->gp_times, __ATOMIC_RELAXED));
	long ticks = kthread_ticks(a);

	if (skel->bss->unexpected)
		bench_fail(env, -EPROTO, "a grace period ended that did not start (postgp before "
			   "pregp): the figures cannot be trusted");
	vals[M_GP_US] = gps ? ns / 1e3 / gps : 0;
	vals[M_GP_TICKS] = gps ? (double)(ticks - s->prev_ticks) / gps : 0;
	s->prev_ticks = ticks;
	vals[M_CHURN] = mops(delta_next(&s->churn, slots_sum(skel->bss->bench_slots, SLOT_HITS)),
			     elapsed_ns);
	vals[M_GPS] = gps;
}

static void tt_teardown(struct bench_env *env)
{
	struct tt_state *s = env->priv;
	int i, alive = 0;

	if (!s)
		return;
	for (i = 0; i < s->nr_procs; i++)
		kill(s->procs[i], SIGKILL);
	/* reaped, every one: none outlives the run */
	for (i = 0; i < s->nr_procs; i++)
		alive += waitpid(s->procs[i], NULL, 0) != s->procs[i];
	if (s->nr_procs)
		bench_total(env, "sleepers", s->nr_procs - alive);
	free(s->procs);
	for (i = 0; i < 2; i++)
		bpf_link__destroy(s->links[i]);
	if (s->skel && s->skel->bss) {
		bench_total(env, "churn", slots_sum(s->skel->bss->bench_slots, SLOT_HITS));
		bench_total(env, "grace_periods", s->skel->bss->gp_hits);
	}
	BENCH_SKEL_TEARDOWN(env, NULL, s->skel);
}

/* Upstream's two SUMMARY lines (its figures: a period's mean, over the periods). */
static void tt_lines(const struct report_view *v, char *buf, size_t len)
{
	int l = report_metric(v, "gp_latency"), t = report_metric(v, "gp_ticks");

	if (l < 0 || t < 0 || report_mean(v, l) <= 0)
		return;
	snprintf(buf, len, "SUMMARY tasks_trace grace period latency\tavg %.3lf us\tstddev %.3lf us\n"
		 "SUMMARY ticks per tasks_trace grace period\tavg %.3lf\tstddev %.3lf\n",
		 report_mean(v, l), report_spread(v, l), report_mean(v, t), report_spread(v, t));
}

const struct bench bench_local_storage_tasks_trace = {
	.name = "local-storage-tasks-trace",
	.summary = "RCU Tasks Trace grace periods while --nr_procs sleepers churn task storage",
	.family = "local-storage",
	.opts = tt_opts,
	.args_size = sizeof(struct tt_args),
	.metrics = tt_metrics,
	.nr_metrics = NR_TT_METRICS,
	.flags = BENCH_F_ONE_PRODUCER,
	.setup = tt_setup,
	.measure = tt_measure,
	.teardown = tt_teardown,
	.report = { REPORT_OPS, .lines = tt_lines },
};
