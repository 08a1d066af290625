// SPDX-License-Identifier: GPL-2.0
/*
 * lpm-trie-free: the time the kernel takes to free a whole trie of
 * nr_entries keys, as the kernel's bench measures it.
 *
 * A sample is one sampling period (--period-ms) of frees, each of a
 * trie created and filled for it: the frees done over the time they
 * took, in thousands per second, and that time per free in ms, as
 * upstream's frac_second_report_* turns its counters into figures.  Two
 * ways to time a free: see free_once_wq() and free_once_memcg().
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "bench.h"
#include "lpm_trie.h"
#include "lpm_trie.skel.h"

#define FREE_TIMEOUT_NS		(60ull * 1000000000ull)
#define MEMCG_SLACK_PER_CPU	(512u << 10)	/* twice what memcg caches per CPU (64 pages) */

enum free_method { FREE_AUTO, FREE_WQ_TP, FREE_MEMCG };
static const char *const free_method_names[] = { "auto", "wq-tracepoint", "memcg", NULL };

static const struct opt_def lpm_free_opts[] = {
	{ "nr_entries", 0, OPT_UINT, OPT_OFF(struct lpm_args, nr_entries), "10000", 1,
	  LPM_MAX_ENTRIES, NULL, "N", "keys in each freed trie: [0, N)" },
	{ "prefix_len", 0, OPT_UINT, OPT_OFF(struct lpm_args, prefix_len), "32", 1, 32, NULL, "L",
	  "prefix length of every key (2^L >= N)" },
	{ "random", 0, OPT_FLAG, OPT_OFF(struct lpm_args, random), NULL, 0, 0, NULL, NULL,
	  "not supported (as the kernel's bench): rejected" },
	{ "free-method", 0, OPT_CHOICE, OPT_OFF(struct lpm_args, free_method), "auto", 0, 0,
	  free_method_names, "HOW",
	  "wq-tracepoint: kernel-side bracket of the deferred free; memcg: user-space time until "
	  "the memory cgroup gets the trie's memory back; auto: the first that works" },
	{ NULL },
};

/* The same first four as the other lpm-trie benchmarks: one summary for all. */
static const struct metric_def lpm_free_metrics[] = {
	{ "throughput", "k ops/s", METRIC_RATE, .prod_unit = "k ops" },
	{ "latency", "ms/op", METRIC_TIME },
	{ "ops", "frees", METRIC_COUNT },
	{ "free_ns", "ns", METRIC_COUNT },
};

static const enum probe_id lpm_free_requires[] = { PROBE_MAP_LPM_TRIE, PROBE__COUNT };

/* Shown by the summary and in JSON: how the free figure was obtained. */
static const char desc_wq[] = "wq-tracepoint: raw_tp workqueue_execute_start/end around "
	"bpf_map_free_deferred of our trie (kernel time of the whole work item)";
static const char desc_memcg_v1[] = "memcg: user-space time from close() of the trie's last fd "
	"until its memory cgroup has the trie's charge back (queueing and RCU delays included; "
	"cgroup-v1 memory.usage_in_bytes)";
static const char desc_memcg_v2[] = "memcg: user-space time from close() of the trie's last fd "
	"until its memory cgroup has the trie's charge back (queueing and RCU delays included; "
	"cgroup-v2 memory.current)";

struct free_state {
	enum free_method method;
	struct lpm_keys keys;
	uint32_t round;
	/* wq-tracepoint */
	struct lpm_trie_bpf *skel;
	struct bpf_link *start_link, *end_link;
	/* memcg */
	struct memcg cg;
	bool cg_used;		/* memcg_enter() was called: leave must follow */
};

static int lpm_free_validate(struct bench_env *env)
{
	const struct lpm_args *a = env->args;
	int err = lpm_check_keys(env);

	if (err)
		return err;
	if (a->random) {
		errmsg("%s: --random is not supported (the key sequence must cover the range)",
		       env->bench->name);
		return -EINVAL;
	}
	return 0;
}

/* The kernel's deferred map free, by name in /proc/kallsyms; 0 if not found. */
static uint64_t kallsyms_addr(const char *sym)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	char line[512], name[256], type;
	unsigned long long addr, found = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %255s", &addr, &type, name) != 3)
			continue;
		if (!strcmp(name, sym)) {
			found = addr;
			break;
		}
	}
	fclose(f);
	return found;
}

static int create_trie(struct free_state *s, char *name, size_t len)
{
	LIBBPF_OPTS(bpf_map_create_opts, opts, .map_flags = BPF_F_NO_PREALLOC);
	int fd;

	/* unique per process and round: the tracepoint program matches it */
	snprintf(name, len, "lf%06x%07x", (unsigned int)getpid() & 0xffffff,
		 ++s->round & 0xfffffff);
	fd = bpf_map_create(BPF_MAP_TYPE_LPM_TRIE, name, sizeof(struct lpm_key), sizeof(__u32),
			    s->keys.n, &opts);
	return fd < 0 ? -errno : fd;
}

/* A trie of our own, filled: its fd, or negative errno. */
static int filled_trie(struct free_state *s, char *name, size_t len)
{
	int fd = create_trie(s, name, len), err;

	if (fd < 0)
		return fd;
	err = lpm_fill(&s->keys, fd);
	if (err) {
		close(fd);
		return err;
	}
	return fd;
}

#define FREE_MISS_GRACE_NS	(2ull * 1000000000ull)
#define FREE_TRIES		3

/*
 * Waits for the end-of-free program to count our trie's work item.  The
 * kernel may skip either program for it as a recursion miss (a workqueue
 * program preempted mid-run on that CPU, as preemptible 7.x kernels do):
 * then no count ever comes.  A miss seen (prog info's recursion_misses)
 * and no count within a grace period after it is -EAGAIN: the round is
 * lost, not the run; anything else waits up to FREE_TIMEOUT_NS.
 */
static int wait_for_free(struct free_state *s, uint64_t count_before)
{
	uint64_t t = now_ns(), deadline = t + FREE_TIMEOUT_NS, missed_at = 0;
	uint64_t misses = obj_recursion_misses(s->skel->obj);
	unsigned int polls = 0;

	while (__atomic_load_n(&s->skel->bss->free_count, __ATOMIC_ACQUIRE) == count_before) {
		if (interrupted())
			return -EINTR;
		t = now_ns();
		if (!missed_at && ++polls % 100 == 0 && obj_recursion_misses(s->skel->obj) != misses)
			missed_at = t;
		if (missed_at && t > missed_at + FREE_MISS_GRACE_NS)
			return -EAGAIN;
		if (t > deadline) {
			errmsg("lpm-trie-free: the trie's free did not run on the workqueue "
			       "within %llu s", FREE_TIMEOUT_NS / 1000000000ull);
			return -ETIMEDOUT;
		}
		usleep(100);
	}
	return 0;
}

/*
 * wq-tracepoint: closing the trie's last fd drops its last reference;
 * the kernel then queues the map's own work item, whose function is
 * bpf_map_free_deferred().  A raw_tp program on workqueue_execute_start
 * takes the time when that work item of our trie (the map embedding the
 * work item has type LPM trie and the unique name we gave this round, so
 * .bss/.rodata maps or other tries freed meanwhile do not count) is about
 * to run; one on workqueue_execute_end takes it when the function has
 * returned.  The figure is thus what the kernel's bench gets with
 * fentry/fexit on bpf_map_free_deferred: everything that function does
 * synchronously (trie_free() walking and freeing every node, the memory
 * cgroup and BTF references dropped, the struct freed), plus the two
 * programs' own few hundred ns; not the queueing delay before it, nor
 * work the allocator defers past an RCU grace period.
 */
static int free_once_wq(struct free_state *s, uint64_t *ns)
{
	uint64_t count, ns0;
	char name[16];
	int fd, err;

	int try;

	for (try = 0; try < FREE_TRIES; try++) {
		fd = filled_trie(s, name, sizeof(name));
		if (fd < 0)
			return fd;
		memcpy(s->skel->bss->free_name, name, sizeof(name));
		count = __atomic_load_n(&s->skel->bss->free_count, __ATOMIC_ACQUIRE);
		ns0 = __atomic_load_n(&s->skel->bss->free_ns, __ATOMIC_ACQUIRE);
		close(fd);
		err = wait_for_free(s, count);
		if (err != -EAGAIN)
			break;
		vmsg("lpm-trie-free: a round's free was skipped by the kernel (recursion miss): again");
	}
	if (err == -EAGAIN)
		errmsg("lpm-trie-free: the kernel skipped the free's tracepoint programs in %d rounds "
		       "in a row (recursion misses: prog info's recursion_misses); no time to report",
		       FREE_TRIES);
	if (err)
		return err;
	*ns = __atomic_load_n(&s->skel->bss->free_ns, __ATOMIC_ACQUIRE) - ns0;
	return 0;
}

static int cg_usage(struct free_state *s, uint64_t *usage)
{
	uint64_t peak;

	return memcg_sample(&s->cg, usage, &peak);
}

/* Closes the trie and polls until the cgroup's usage is back within slack of u0. */
static int wait_for_uncharge(struct free_state *s, int fd, uint64_t u0, uint64_t slack,
			     uint64_t *ns)
{
	uint64_t t0 = now_ns(), deadline = t0 + FREE_TIMEOUT_NS, u;
	int err;

	close(fd);
	for (;;) {
		err = cg_usage(s, &u);
		if (err)
			return err;
		if (u <= u0 + slack)
			break;
		if (interrupted())
			return -EINTR;
		if (now_ns() > deadline) {
			errmsg("lpm-trie-free: the trie's memory did not come back within %llu s",
			       FREE_TIMEOUT_NS / 1000000000ull);
			return -ETIMEDOUT;
		}
		usleep(100);
	}
	*ns = now_ns() - t0;
	return 0;
}

/*
 * memcg: the process is alone in a memory cgroup of its own (memcg.h)
 * when it creates the trie, so the trie's nodes are charged there.  The
 * figure is the time from close() to the cgroup's usage falling back to
 * where it was before the trie, give or take the larger of 10% of the
 * trie's charge and 512 KiB per CPU (memcg caches up to 64 pages of
 * charge per CPU): the workqueue delay, the free itself, whatever the
 * allocator defers past RCU grace periods, and up to 100 us of polling.
 * Tries charging less than four times that slack cannot be timed this
 * way (exit 4).
 */
static int free_once_memcg(struct free_state *s, uint64_t *ns)
{
	uint64_t u0, u1, slack = MEMCG_SLACK_PER_CPU * nr_online_cpus();
	char name[16];
	int fd, err;

	err = cg_usage(s, &u0);
	if (err)
		return err;
	fd = filled_trie(s, name, sizeof(name));
	if (fd < 0)
		return fd;
	err = cg_usage(s, &u1);
	if (err) {
		close(fd);
		return err;
	}
	if (u1 < u0 + 4 * slack) {
		close(fd);
		skipmsg("lpm-trie-free: memcg: the trie's charge (%llu KiB) is too small to tell "
		       "from per-CPU charge caching; use a larger --nr_entries",
		       (unsigned long long)(u1 > u0 ? u1 - u0 : 0) / 1024);
		return -EOPNOTSUPP;
	}
	if (slack < (u1 - u0) / 10)
		slack = (u1 - u0) / 10;
	return wait_for_uncharge(s, fd, u0, slack, ns);
}

/* One period's worth of frees (at least one): upstream's per-second counters. */
static int lpm_free_run_once(struct bench_env *env, double *vals)
{
	struct free_state *s = env->priv;
	uint64_t end = now_ns() + env->opts->period_ms * 1000000ull, total = 0, frees = 0, ns;
	int err;

	do {
		err = s->method == FREE_WQ_TP ? free_once_wq(s, &ns) : free_once_memcg(s, &ns);
		if (err)
			return err;
		if (interrupted())
			return -EINTR;
		total += ns;
		frees++;
	} while (now_ns() < end);
	vals[0] = total ? frees * 1e6 / total : 0.0;	/* K frees per second of free time */
	vals[1] = total / 1e6 / frees;			/* ms per free */
	vals[2] = frees;
	vals[3] = total;
	return 0;
}

/* What the kernel must offer the tracepoint way; quiet: say why only with -v. */
static int wq_runnable(struct bench_env *env, bool quiet)
{
	static const enum probe_id need[] = { PROBE_PROG_RAW_TP, PROBE_KALLSYMS, PROBE_BTF_VMLINUX };
	const char *what = "--free-method wq-tracepoint";
	size_t i;

	for (i = 0; i < ARRAY_SIZE(need); i++) {
		if (!quiet && bench_require(env, need[i], what))
			return -EOPNOTSUPP;
		if (quiet && probe_feature(need[i], NULL, 0) != 1) {
			vmsg("lpm-trie-free: no %s for the tracepoint way", probe_name(need[i]));
			return -EOPNOTSUPP;
		}
	}
	return 0;
}

/* Loads and attaches the workqueue bracket; 0 or negative errno (why printed unless quiet). */
static int setup_wq(struct bench_env *env, bool quiet)
{
	struct free_state *s = env->priv;
	uint64_t fn;
	int err = wq_runnable(env, quiet);

	if (err)
		return err;
	fn = kallsyms_addr("bpf_map_free_deferred");
	if (!fn) {
		if (!quiet)
			skipmsg("lpm-trie-free: no bpf_map_free_deferred in /proc/kallsyms");
		return -EOPNOTSUPP;
	}
	s->skel = lpm_trie_bpf__open();
	if (!s->skel)
		return -errno;
	s->skel->rodata->free_fn = fn;
	bpf_program__set_autoload(s->skel->progs.lpm_run, false);
	HIST_SKEL_EVERY(s->skel, 0);
	err = lpm_trie_bpf__load(s->skel);
	if (err)
		return err;
	s->start_link = bpf_program__attach(s->skel->progs.lpm_free_start);
	if (!s->start_link)
		return -errno;
	s->end_link = bpf_program__attach(s->skel->progs.lpm_free_end);
	if (!s->end_link)
		return -errno;
	return 0;
}

static void release_wq(struct free_state *s)
{
	bpf_link__destroy(s->start_link);
	bpf_link__destroy(s->end_link);
	lpm_trie_bpf__destroy(s->skel);
	s->start_link = s->end_link = NULL;
	s->skel = NULL;
}

/* v1 or v2, whichever holds the memory controller here (memcg.c). */
static int setup_memcg(struct bench_env *env)
{
	struct free_state *s = env->priv;
	int err = bench_require(env, PROBE_MEMCG, "timing the free by its memory cgroup");

	if (err)
		return err;
	s->cg_used = true;
	err = memcg_enter(&s->cg, MEMCG_WANT_CGROUP);
	if (err)
		return err;	/* memcg_enter said why: a privilege, or no hierarchy (skip) */
	s->method = FREE_MEMCG;
	env->method = s->cg.method == MEMCG_V2 ? desc_memcg_v2 : desc_memcg_v1;
	return 0;
}

static int lpm_free_setup(struct bench_env *env)
{
	const struct lpm_args *a = env->args;
	struct free_state *s = calloc(1, sizeof(*s));
	int err;

	if (!s)
		return -ENOMEM;
	env->priv = s;
	env->trig.kind = TRIG_NONE;
	err = lpm_keys_make(&s->keys, a);
	if (err)
		return err;
	if (a->free_method != FREE_MEMCG) {
		err = setup_wq(env, a->free_method == FREE_AUTO);
		if (!err) {
			s->method = FREE_WQ_TP;
			env->method = desc_wq;
			return 0;
		}
		if (a->free_method == FREE_WQ_TP)
			return err;
		/* the fallback cannot time a default trie: a skip would hide the real cause */
		if (fds_ran_short(err)) {
			errmsg("lpm-trie-free: file descriptors ran short loading the tracepoint "
			       "way (%s, %d left; see ulimit -n)", strerror(-err), fds_free());
			return -EMFILE;
		}
		vmsg("lpm-trie-free: the tracepoint way is unusable (%s): trying memcg",
		     strerror(-err));
		release_wq(s);
	}
	return setup_memcg(env);
}

static void lpm_free_teardown(struct bench_env *env)
{
	struct free_state *s = env->priv;

	if (!s)
		return;
	if (s->cg_used)
		memcg_leave(&s->cg);
	release_wq(s);
	lpm_keys_free(&s->keys);
	free(s);
	env->priv = NULL;
}

const struct bench bench_lpm_trie_free = {
	.name = "lpm-trie-free",
	.summary = "LPM trie: time the kernel takes to free a trie of nr_entries",
	.family = "lpm-trie",
	.opts = lpm_free_opts,
	.args_size = sizeof(struct lpm_args),
	.requires = lpm_free_requires,
	.metrics = lpm_free_metrics,
	.nr_metrics = ARRAY_SIZE(lpm_free_metrics),
	.flags = BENCH_F_ONESHOT | BENCH_F_ONE_PRODUCER | BENCH_F_NO_THREADS | BENCH_F_NO_TRIGGER,
	.validate = lpm_free_validate,
	.setup = lpm_free_setup,
	.run_once = lpm_free_run_once,
	.teardown = lpm_free_teardown,
};
