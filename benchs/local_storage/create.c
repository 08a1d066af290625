// SPDX-License-Identifier: GPL-2.0
/*
 * local-storage-create: storages created per second, and kmallocs per
 * create, as the kernel bench measures them.  Each producer makes
 * --batch-size threads (task: pthread_create, then joined) or UDP/IPv6
 * sockets (socket: then closed) in a loop; a program creates a 64-byte
 * storage for each.  The programs and what this kernel allows of them:
 * local_storage_create.bpf.c; the producers count what they made, so the
 * tests can hold the creates to it.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/socket.h>
#include <bpf/bpf.h>
#include "bench.h"
#include "local_storage.h"
#include "local_storage_int.h"
#include "local_storage_create.skel.h"

enum { ST_SOCKET, ST_TASK };
static const char *const storage_types[] = { "socket", "task", NULL };

/* --sock-hook: which socket program (the tests' aid: each refusal can be seen) */
enum { HOOK_AUTO, HOOK_LSM, HOOK_CGROUP };
static const char *const sock_hooks[] = { "auto", "lsm", "cgroup", NULL };

struct create_args {
	int storage_type;
	uint64_t batch;
	int sock_hook;
};

static const struct opt_def create_opts[] = {
	{ "storage-type", 0, OPT_CHOICE, OPT_OFF(struct create_args, storage_type), "socket", 0, 0,
	  storage_types, "TYPE", "what gets a storage: each socket or each task made",
	  OPT_F_DEFINES },
	{ "batch-size", 0, OPT_UINT, OPT_OFF(struct create_args, batch), "32", 1, 65536, NULL, "N",
	  "sockets or threads a producer makes before closing or joining them", OPT_F_DEFINES },
	{ "sock-hook", 0, OPT_CHOICE, OPT_OFF(struct create_args, sock_hook), "auto", 0, 0,
	  sock_hooks, "HOOK", "socket: BPF LSM's socket_post_create (upstream's), cgroup/sock_create, "
	  "or the first this kernel offers", OPT_F_HIDDEN },
	{ NULL },
};

enum { M_CREATES, M_KPC, M_CREATES_N, M_KMALLOCS, NR_CREATE_METRICS };

static const struct metric_def create_metrics[] = {
	[M_CREATES] = { "creates", "k/s", METRIC_RATE, .prod_unit = "k" },
	[M_KPC] = { "kmallocs_per_create", "kmallocs", METRIC_RATIO, .better = BETTER_LOWER },
	[M_CREATES_N] = { "creates_count", "creates", METRIC_COUNT },
	[M_KMALLOCS] = { "kmallocs", "kmallocs", METRIC_COUNT },
};

/* A producer's count of what it made, alone on its cache line. */
struct made {
	_Atomic uint64_t made, errs;
} __attribute__((aligned(64)));

struct create_state {
	struct local_storage_create_bpf *skel;
	struct bpf_link *links[2];
	struct made *made;		/* one a producer */
	int nr_made;
	int cg_fd;
	struct delta creates, kmallocs;
};

/* Whether BPF LSM runs: "bpf" among the active LSMs (securityfs). */
static bool bpf_lsm_active(void)
{
	char buf[512], *tok, *save;
	FILE *f = fopen("/sys/kernel/security/lsm", "r");
	bool yes = false;

	if (!f)
		return false;
	if (fgets(buf, sizeof(buf), f))
		for (tok = strtok_r(buf, ",\n", &save); tok; tok = strtok_r(NULL, ",\n", &save))
			yes |= !strcmp(tok, "bpf");
	fclose(f);
	return yes;
}

/* The cgroup v2 directory our process is in, opened; -errno if none is mounted. */
static int own_cgroup2(void)
{
	char line[4096], mnt[2048] = "", path[PATH_MAX], dev[64], type[64];
	FILE *f = fopen("/proc/mounts", "r");
	int fd;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%63s %2047s %63s", dev, mnt, type) == 3 && !strcmp(type, "cgroup2"))
			break;
		else
			mnt[0] = '\0';
	if (f)
		fclose(f);
	if (!mnt[0])
		return -ENOENT;
	f = fopen("/proc/self/cgroup", "r");
	path[0] = '\0';
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "0::", 3)) {
			line[strcspn(line, "\n")] = '\0';
			snprintf(path, sizeof(path), "%s%s", mnt, line + 3);
		}
	if (f)
		fclose(f);
	if (!path[0])
		return -ENOENT;
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

static int create_refused(struct bench_env *env, const char *why)
{
	skipmsg("%s: %s; a kernel that has it runs it: bpfbench --kernel 7.3 %s", env->bench->name,
		why, env->bench->name);
	return -EOPNOTSUPP;
}

/* Picks the creating program, turning the others off; 0 or -EOPNOTSUPP after why. */
static int pick_program(struct bench_env *env, struct create_state *s, struct bpf_program **p)
{
	const struct create_args *a = env->args;
	struct local_storage_create_bpf *skel = s->skel;
	char why[160];

	bpf_program__set_autoload(skel->progs.create_fork, a->storage_type == ST_TASK);
	bpf_program__set_autoload(skel->progs.create_sock_lsm, false);
	bpf_program__set_autoload(skel->progs.create_sock_cg, false);
	if (a->storage_type == ST_TASK) {
		if (probe_feature(PROBE_TRIG_TP_BTF, why, sizeof(why)) != 1)
			return create_refused(env, why);
		*p = skel->progs.create_fork;
	} else if (a->sock_hook != HOOK_CGROUP && bpf_lsm_active()) {
		*p = skel->progs.create_sock_lsm;
	} else if (a->sock_hook == HOOK_LSM) {
		return create_refused(env, "no BPF LSM for socket_post_create (\"bpf\" is not "
				      "among the active LSMs)");
	} else {
		s->cg_fd = own_cgroup2();
		if (s->cg_fd < 0)
			return create_refused(env, a->sock_hook == HOOK_CGROUP ?
					      "no cgroup v2 mounted for cgroup/sock_create" :
					      "no BPF LSM (socket_post_create) and no cgroup v2 "
					      "mounted for cgroup/sock_create");
		*p = skel->progs.create_sock_cg;
	}
	bpf_program__set_autoload(*p, true);
	return 0;
}

static int create_setup(struct bench_env *env)
{
	struct create_state *s = calloc(1, sizeof(*s));
	struct bpf_program *p = NULL;
	int err;

	if (!s)
		return -ENOMEM;
	env->priv = s;
	s->cg_fd = -1;
	s->nr_made = env->nr_producers;
	/* calloc() aligns to 16 bytes, not the 64 a count alone on its line needs */
	if (posix_memalign((void **)&s->made, 64, s->nr_made * sizeof(*s->made)))
		return -ENOMEM;
	memset(s->made, 0, s->nr_made * sizeof(*s->made));
	s->skel = local_storage_create_bpf__open();
	if (!s->skel)
		return -errno;
	BENCH_SKEL_INIT(s->skel);
	err = pick_program(env, s, &p);
	if (err)
		return err;
	err = local_storage_create_bpf__load(s->skel);
	if (err == -EPERM || err == -EACCES) {
		/* a cgroup socket program needs CAP_NET_ADMIN, a tracing one CAP_PERFMON, beside CAP_BPF */
		errmsg("%s: cannot load its programs: %s: they need CAP_BPF, CAP_PERFMON and "
		       "CAP_NET_ADMIN (or root)", env->bench->name, strerror(-err));
		return err;
	}
	if (err) {
		errmsg("%s: cannot load its programs: %s", env->bench->name, strerror(-err));
		return err;
	}
	s->links[0] = s->cg_fd >= 0 ? bpf_program__attach_cgroup(p, s->cg_fd) :
				      bpf_program__attach(p);
	if (!s->links[0]) {
		err = -errno;
		errmsg("%s: cannot attach %s: %s", env->bench->name, bpf_program__name(p),
		       strerror(-err));
		return err;
	}
	s->links[1] = bpf_program__attach(s->skel->progs.create_kmalloc);
	if (!s->links[1]) {
		err = -errno;
		errmsg("%s: cannot attach to kmalloc: %s", env->bench->name, strerror(-err));
		return err;
	}
	bench_trigger_measured(env, bpf_program__fd(p));
	/* a literal: the JSON is written after teardown freed the skeleton */
	env->method = p == s->skel->progs.create_fork ? "tp_btf/sched_process_fork" :
		      p == s->skel->progs.create_sock_lsm ? "lsm.s/socket_post_create" :
		      "cgroup/sock_create";
	return 0;
}

static void *thread_nop(void *arg)
{
	return NULL;
}

static void create_producer(struct bench_env *env, int idx)
{
	const struct create_args *a = env->args;
	struct create_state *s = env->priv;
	struct made *m = &s->made[idx];
	pthread_t *th = NULL;
	int *fds = NULL, *ok = NULL;
	uint64_t i, n;

	if (a->storage_type == ST_TASK) {
		th = malloc(a->batch * sizeof(*th));
		ok = malloc(a->batch * sizeof(*ok));
	} else {
		fds = malloc(a->batch * sizeof(*fds));
	}
	if ((a->storage_type == ST_TASK && (!th || !ok)) || (a->storage_type != ST_TASK && !fds)) {
		bench_fail(env, -ENOMEM, "producer %d: no memory for a batch", idx);
		goto out;
	}
	while (!bench_stopping(env)) {
		/* a whole batch made, then all of it gone: nothing outlives the run */
		for (i = n = 0; i < a->batch; i++) {
			if (th)
				n += (ok[i] = !pthread_create(&th[i], NULL, thread_nop, NULL));
			else
				n += (fds[i] = socket(AF_INET6, SOCK_DGRAM, 0)) >= 0;
		}
		for (i = 0; i < a->batch; i++) {
			if (th && ok[i])
				pthread_join(th[i], NULL);
			else if (fds && fds[i] >= 0)
				close(fds[i]);
		}
		atomic_fetch_add_explicit(&m->made, n, memory_order_relaxed);
		atomic_fetch_add_explicit(&m->errs, a->batch - n, memory_order_relaxed);
	}
out:
	free(th);
	free(ok);
	free(fds);
}

static void create_measure(struct bench_env *env, uint64_t elapsed_ns, double *vals)
{
	struct create_state *s = env->priv;
	const struct bench_slot *slots = s->skel->bss->bench_slots;
	uint64_t c = delta_next(&s->creates, slots_sum(slots, SLOT_HITS));
	uint64_t k = delta_next(&s->kmallocs, slots_extra_sum(slots, LS_SLOT_KMALLOCS));

	vals[M_CREATES] = elapsed_ns ? c * 1e6 / elapsed_ns : 0;
	vals[M_KPC] = c ? (double)k / c : 0;
	vals[M_CREATES_N] = c;
	vals[M_KMALLOCS] = k;
}

static void create_teardown(struct bench_env *env)
{
	struct create_state *s = env->priv;
	const struct bench_slot *slots;
	uint64_t made = 0, errs = 0;
	int i;

	if (!s)
		return;
	for (i = 0; i < 2; i++)
		bpf_link__destroy(s->links[i]);
	if (s->skel && s->skel->bss && s->made) {
		slots = s->skel->bss->bench_slots;
		for (i = 0; i < s->nr_made; i++) {
			made += s->made[i].made;
			errs += s->made[i].errs;
		}
		bench_total(env, "made", made);
		bench_total(env, "make_errors", errs);
		bench_total(env, "creates", slots_sum(slots, SLOT_HITS));
		bench_total(env, "create_errors", slots_extra_sum(slots, LS_SLOT_CREATE_ERRS));
		bench_total(env, "kmallocs", slots_extra_sum(slots, LS_SLOT_KMALLOCS));
	}
	free(s->made);
	if (s->cg_fd >= 0)
		close(s->cg_fd);
	BENCH_SKEL_TEARDOWN(env, NULL, s->skel);
}

/* Upstream's Summary: creates k/s, and kmallocs over creates of the whole run. */
static void create_lines(const struct report_view *v, char *buf, size_t len)
{
	int c = report_metric(v, "creates"), n = report_metric(v, "creates_count");
	int k = report_metric(v, "kmallocs"), prods = report_producers(v);

	if (c < 0 || n < 0 || k < 0 || report_mean(v, n) <= 0)
		return;
	snprintf(buf, len, "Summary: creates %8.3lf \u00b1 %5.3lfk/s (%7.3lfk/prod), "
		 "%4.2lf kmallocs/create\n", report_mean(v, c), report_spread(v, c),
		 report_mean(v, c) / (prods > 0 ? prods : 1), report_mean(v, k) / report_mean(v, n));
}

const struct bench bench_local_storage_create = {
	.name = "local-storage-create",
	.summary = "storages created a second for new sockets or tasks, and kmallocs per create",
	.family = "local-storage",
	.opts = create_opts,
	.args_size = sizeof(struct create_args),
	.metrics = create_metrics,
	.nr_metrics = NR_CREATE_METRICS,
	.flags = BENCH_F_SELF_DRIVEN,
	.setup = create_setup,
	.producer = create_producer,
	.measure = create_measure,
	.teardown = create_teardown,
	.report = { REPORT_OPS, .lines = create_lines },
};
