// SPDX-License-Identifier: GPL-2.0
/*
 * lpm-trie-*: the LPM trie's operations, timed inside the kernel (seed 004).
 *
 * Every trie holds (or, for insert, will hold) the keys [0, nr_entries):
 * key i is i in the first prefix_len bits of the data, so the keys are
 * gapless and distinct for any prefix length (with /32 they are the
 * integers 0..nr_entries-1, big-endian).  One program run does up to
 * 10000 operations in a bpf_loop() between two bpf_ktime_get_ns() reads
 * and adds the operations and the nanoseconds to counters: the figures
 * exclude the test-run syscall and everything user space does between
 * runs, e.g. emptying the trie again after insert filled it, or refilling
 * it after delete emptied it.  noop (the loop) and baseline (the loop and
 * the key) are the floor to read the others against.
 *
 * Throughput is operations per second of in-kernel time, times the
 * producers (each runs its loop on its own CPU); latency is in-kernel
 * nanoseconds per operation.
 *
 * lpm-trie-free: see the comment above free_once_wq().
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <sys/stat.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "bench.h"
#include "probe.h"
#include "report.h"
#include "skel_util.h"
#include "lpm_trie.skel.h"

#define LPM_MAX_ENTRIES		(1u << 24)
#define LPM_RESET		1	/* program's return: reset the trie (lpm_trie.bpf.c) */
#define LPM_OUTSIDE_CHECKED	1000	/* keys past the range a --verify looks up */
#define FREE_TIMEOUT_NS		(60ull * 1000000000ull)
#define MEMCG_SLACK_PER_CPU	(512u << 10)	/* twice what memcg caches per CPU (64 pages) */

/* Must match lpm_trie.bpf.c. */
enum lpm_op { LPM_NOOP, LPM_BASELINE, LPM_LOOKUP, LPM_INSERT, LPM_UPDATE, LPM_DELETE, LPM_FREE };

struct lpm_key {
	__u32 prefixlen;
	__u32 data;
};

enum free_method { FREE_AUTO, FREE_WQ_TP, FREE_MEMCG };
static const char *const free_method_names[] = { "auto", "wq-tracepoint", "memcg", NULL };

static uint64_t nr_entries, prefix_len;
static bool random_keys, verify;
static int free_method;

static const struct opt_def lpm_opts[] = {
	{ "nr_entries", 0, OPT_UINT, &nr_entries, "10000", 1, LPM_MAX_ENTRIES, NULL, "N",
	  "keys in the trie: [0, N)" },
	{ "prefix_len", 0, OPT_UINT, &prefix_len, "32", 1, 32, NULL, "L",
	  "prefix length of every key (2^L >= N)" },
	{ "random", 0, OPT_FLAG, &random_keys, NULL, 0, 0, NULL, NULL,
	  "random keys instead of 0, 1, 2, ... (lookup, update, noop, baseline)" },
	{ "verify", 0, OPT_FLAG, &verify, NULL, 0, 0, NULL, NULL,
	  "before measuring, run the op over every key and check the trie (one 'verify:' line)" },
	{ NULL },
};

static const struct opt_def lpm_free_opts[] = {
	{ "nr_entries", 0, OPT_UINT, &nr_entries, "10000", 1, LPM_MAX_ENTRIES, NULL, "N",
	  "keys in each freed trie: [0, N)" },
	{ "prefix_len", 0, OPT_UINT, &prefix_len, "32", 1, 32, NULL, "L",
	  "prefix length of every key (2^L >= N)" },
	{ "random", 0, OPT_FLAG, &random_keys, NULL, 0, 0, NULL, NULL,
	  "not supported (as the kernel's bench): rejected" },
	{ "free-method", 0, OPT_CHOICE, &free_method, "auto", 0, 0, free_method_names, "HOW",
	  "wq-tracepoint: kernel-side bracket of the deferred free; memcg: user-space time until "
	  "the memory cgroup gets the trie's memory back; auto: the first that works" },
	{ NULL },
};

static const struct metric_def lpm_metrics[] = {
	{ "throughput", "M ops/s", METRIC_SAMPLED, .prod_unit = "M ops" },
	{ "latency", "ns/op", METRIC_SAMPLED },
};

static const struct metric_def lpm_free_metrics[] = {
	{ "throughput", "K ops/s", METRIC_SAMPLED, .prod_unit = "K ops" },
	{ "latency", "ms/op", METRIC_SAMPLED },
};

struct lpm_cgroup {
	char orig[400];		/* the cgroup we came from, to go back on teardown */
	char mine[512];		/* our private child; empty until made */
};

struct lpm_state {
	struct lpm_trie_bpf *skel;
	enum lpm_op op;
	int trie_fd;
	struct lpm_key *keys;
	__u32 *vals;
	struct delta ops, ns;
	/* lpm-trie-free */
	enum free_method method;
	uint32_t round;
	struct bpf_link *start_link, *end_link;
	struct lpm_cgroup cg;
};

/* Shown by the summary and in JSON: how the free figure was obtained. */
static const char *const free_method_desc[] = {
	[FREE_WQ_TP] = "wq-tracepoint: raw_tp workqueue_execute_start/end around "
		       "bpf_map_free_deferred of our trie (kernel time of the whole work item)",
	[FREE_MEMCG] = "memcg: user-space time from close() of the trie's last fd until its "
		       "memory cgroup has the trie's charge back (queueing and RCU delays included)",
};

static bool lpm_is_free(const struct bench_env *env);

static __u32 key_data(uint32_t i)
{
	return htonl(i << (32 - prefix_len));
}

static int lpm_validate(struct bench_env *env)
{
	const char *name = env->bench->name;

	if (prefix_len < 32 && nr_entries > (1ull << prefix_len)) {
		errmsg("%s: --prefix_len %llu holds at most %llu keys (--nr_entries %llu)", name,
		       (unsigned long long)prefix_len, 1ull << prefix_len,
		       (unsigned long long)nr_entries);
		return -EINVAL;
	}
	if (random_keys && (env->bench->flags & BENCH_F_ONE_PRODUCER)) {
		errmsg("%s: --random is not supported (the key sequence must cover the range)",
		       name);
		return -EINVAL;
	}
	if (verify && (!strcmp(name, "lpm-trie-noop") || !strcmp(name, "lpm-trie-baseline"))) {
		errmsg("%s: --verify checks a trie operation, and this one has none", name);
		return -EINVAL;
	}
	if (random_keys && verify) {
		errmsg("%s: --verify needs sequential keys (drop --random)", name);
		return -EINVAL;
	}
	return 0;
}

/* ---- the key set, and filling and emptying a trie with it ---- */

static int make_keys(struct lpm_state *s)
{
	uint32_t i;

	s->keys = calloc(nr_entries, sizeof(*s->keys));
	s->vals = calloc(nr_entries, sizeof(*s->vals));
	if (!s->keys || !s->vals)
		return -ENOMEM;
	for (i = 0; i < nr_entries; i++) {
		s->keys[i].prefixlen = prefix_len;
		s->keys[i].data = key_data(i);
		s->vals[i] = 1;
	}
	return 0;
}

/* Batch ops where the kernel has them for the trie, else one by one. */
static int fill_trie(struct lpm_state *s, int fd)
{
	LIBBPF_OPTS(bpf_map_batch_opts, opts);
	__u32 done = 0, n;
	int err;

	while (done < nr_entries) {
		n = nr_entries - done;
		err = bpf_map_update_batch(fd, s->keys + done, s->vals + done, &n, &opts);
		if (err && errno != EINTR && errno != EAGAIN)
			goto one_by_one;
		done += n;
		if (interrupted())
			return -EINTR;
	}
	return 0;
one_by_one:
	for (; done < nr_entries; done++) {
		if (bpf_map_update_elem(fd, &s->keys[done], &s->vals[done], BPF_ANY))
			return -errno;
		if (!(done & 0xffff) && interrupted())
			return -EINTR;
	}
	return 0;
}

static int empty_trie(struct lpm_state *s, int fd)
{
	LIBBPF_OPTS(bpf_map_batch_opts, opts);
	__u32 done = 0, n;
	int err;

	while (done < nr_entries) {
		n = nr_entries - done;
		err = bpf_map_delete_batch(fd, s->keys + done, &n, &opts);
		if (err && errno != EINTR && errno != EAGAIN)
			goto one_by_one;
		done += n;
	}
	return 0;
one_by_one:
	for (; done < nr_entries; done++)
		if (bpf_map_delete_elem(fd, &s->keys[done]) && errno != ENOENT)
			return -errno;
	return 0;
}

/* ---- lookup, insert, update, delete (and the floor: noop, baseline) ---- */

static int run_prog(struct bench_env *env, int *retval)
{
	unsigned char pkt[64] = { 0 };
	uint32_t ret = 0;
	int err = test_run_pkt(env->trig.prog_fd, pkt, sizeof(pkt), 1, &ret);

	*retval = (int)ret;
	return err;
}

/* The program filled (insert) or emptied (delete) the trie: make it as it started. */
static int reset_trie(struct lpm_state *s)
{
	if (s->op == LPM_INSERT)
		return empty_trie(s, s->trie_fd);
	if (s->op == LPM_DELETE)
		return fill_trie(s, s->trie_fd);
	return -EPROTO;
}

/* One program run and whatever its result asks for; 0 or negative errno. */
static int run_step(struct bench_env *env, bool *reset)
{
	struct lpm_state *s = env->priv;
	int err, ret = 0;

	err = run_prog(env, &ret);
	if (err)
		return err;
	*reset = ret == LPM_RESET;
	if (*reset)
		return reset_trie(s);
	return ret < 0 ? ret : (ret ? -EPROTO : 0);
}

static void lpm_producer(struct bench_env *env, int idx)
{
	bool reset;
	int err;

	while (!bench_stopping(env)) {
		err = run_step(env, &reset);
		if (err) {
			bench_fail(env, err, "the %s program failed: %s", env->bench->name,
				   strerror(-err));
			return;
		}
	}
}

static uint64_t slots_ns(const struct bench_slot *slots)
{
	uint64_t sum = 0;
	int i;

	for (i = 0; i < BENCH_NR_SLOTS; i++)
		sum += __atomic_load_n(&slots[i].extra[0], __ATOMIC_RELAXED);
	return sum;
}

static void lpm_measure(struct bench_env *env, uint64_t elapsed_ns, double *vals)
{
	struct lpm_state *s = env->priv;
	uint64_t ops = delta_next(&s->ops, slots_sum(s->skel->bss->bench_slots, SLOT_HITS));
	uint64_t ns = delta_next(&s->ns, slots_ns(s->skel->bss->bench_slots));

	vals[0] = ns ? ops * 1e3 / ns * env->nr_producers : 0.0;
	vals[1] = ops ? (double)ns / ops : 0.0;
}

/* ---- --verify: the op over every key through the program, then the trie's contents ---- */

static int count_entries(int fd, uint64_t *n)
{
	struct lpm_key cur, next;
	void *prev = NULL;

	*n = 0;
	while (!bpf_map_get_next_key(fd, prev, &next)) {
		(*n)++;
		cur = next;
		prev = &cur;
	}
	return errno == ENOENT ? 0 : -errno;
}

/* Keys found among [from, to); the value of each checked against want (0: any). */
static uint64_t count_found(int fd, uint64_t from, uint64_t to, bool want_idx_plus_1)
{
	struct lpm_key key = { .prefixlen = prefix_len };
	uint64_t i, found = 0;
	__u32 val;

	for (i = from; i < to; i++) {
		key.data = key_data(i);
		if (bpf_map_lookup_elem(fd, &key, &val))
			continue;
		if (!want_idx_plus_1 || val == i + 1)
			found++;
	}
	return found;
}

/*
 * Runs the program until it has done one operation per key; insert and
 * delete stop at their reset signal and leave the trie as it is then.
 */
static int run_over_all_keys(struct bench_env *env)
{
	struct lpm_state *s = env->priv;
	bool until_reset = s->op == LPM_INSERT || s->op == LPM_DELETE;
	int err, ret;

	s->skel->bss->next_index = 0;
	for (;;) {
		err = run_prog(env, &ret);
		if (err)
			return err;
		if (ret < 0)
			return ret;
		if (ret == LPM_RESET)
			return until_reset ? 0 : -EPROTO;
		if (ret)
			return -EPROTO;
		if (!until_reset &&
		    slots_sum(s->skel->bss->bench_slots, SLOT_HITS) >= nr_entries)
			return 0;
	}
}

static int lpm_verify(struct bench_env *env)
{
	struct lpm_state *s = env->priv;
	uint64_t space = prefix_len == 32 ? 1ull << 32 : 1ull << prefix_len;
	uint64_t out_end = nr_entries + LPM_OUTSIDE_CHECKED, ops, in, out, entries;
	bool values = s->op == LPM_UPDATE;
	int fd = s->trie_fd, err;

	if (out_end > space)
		out_end = space;
	err = run_over_all_keys(env);
	if (err)
		return err;
	ops = slots_sum(s->skel->bss->bench_slots, SLOT_HITS);
	in = count_found(fd, 0, nr_entries, values);
	out = count_found(fd, nr_entries, out_end, false);
	err = count_entries(fd, &entries);
	if (err)
		return err;
	printf("verify: %s: %llu ops by the program, %llu of %llu keys found%s, "
	       "%llu of %llu keys outside found, %llu entries\n",
	       env->bench->name, (unsigned long long)ops, (unsigned long long)in,
	       (unsigned long long)nr_entries, values ? " with the updated value" : "",
	       (unsigned long long)out, (unsigned long long)(out_end - nr_entries),
	       (unsigned long long)entries);
	fflush(stdout);
	/* back to the state the measurement starts from */
	s->skel->bss->next_index = 0;
	if (s->op == LPM_INSERT)
		return empty_trie(s, fd);
	if (s->op == LPM_DELETE)
		return fill_trie(s, fd);
	return 0;
}

static int lpm_setup_op(struct bench_env *env, enum lpm_op op)
{
	struct lpm_state *s = calloc(1, sizeof(*s));
	int err;

	if (!s)
		return -ENOMEM;
	env->priv = s;
	s->op = op;
	s->trie_fd = -1;
	s->skel = lpm_trie_bpf__open();
	if (!s->skel)
		return -errno;
	BENCH_SKEL_INIT(s->skel);
	s->skel->rodata->op = op;
	s->skel->rodata->nr_entries = nr_entries;
	s->skel->rodata->prefix_len = prefix_len;
	s->skel->rodata->random_keys = random_keys;
	bpf_map__set_max_entries(s->skel->maps.trie, nr_entries);
	bpf_program__set_autoload(s->skel->progs.lpm_free_start, false);
	bpf_program__set_autoload(s->skel->progs.lpm_free_end, false);
	err = trigger_prepare(env, &(struct trigger_progs){ .test_run = s->skel->progs.lpm_run });
	if (err)
		return err;
	err = lpm_trie_bpf__load(s->skel);
	if (err)
		return err;
	env->trig.repeat = 1;	/* one run per call: the producer acts on each run's result */
	err = trigger_attach(&env->trig);
	if (err)
		return err;
	s->trie_fd = bpf_map__fd(s->skel->maps.trie);
	err = make_keys(s);
	if (err)
		return err;
	if (op == LPM_LOOKUP || op == LPM_UPDATE || op == LPM_DELETE) {
		err = fill_trie(s, s->trie_fd);
		if (err)
			return err;
	}
	return verify ? lpm_verify(env) : 0;
}

static void lpm_teardown(struct bench_env *env)
{
	struct lpm_state *s = env->priv;

	if (!s)
		return;
	trigger_detach(&env->trig);
	bpf_link__destroy(s->start_link);
	bpf_link__destroy(s->end_link);
	lpm_trie_bpf__destroy(s->skel);
	free(s->keys);
	free(s->vals);
	free(s);
	env->priv = NULL;
}

/* The kernel bench's summary: throughput ± sd, per producer, and the mean latency. */
static void lpm_report_final(struct bench_env *env, const struct stats *st)
{
	const struct metric_def *m = env->bench->metrics;
	FILE *out = report_out();

	fprintf(out, "Summary: ");
	report_metric(out, &m[0], &st[0], env->nr_producers);
	fprintf(out, ", latency %8.3lf %s\n", st[1].mean, m[1].unit);
	if (lpm_is_free(env) && env->method)
		fprintf(out, "Method: %s\n", env->method);
}

#define LPM_SETUP(opname, OP)						\
static int lpm_setup_##opname(struct bench_env *env)			\
{									\
	return lpm_setup_op(env, OP);					\
}
LPM_SETUP(noop, LPM_NOOP)
LPM_SETUP(baseline, LPM_BASELINE)
LPM_SETUP(lookup, LPM_LOOKUP)
LPM_SETUP(insert, LPM_INSERT)
LPM_SETUP(update, LPM_UPDATE)
LPM_SETUP(delete, LPM_DELETE)

#define LPM_BENCH(opname, what, flg)					\
const struct bench bench_lpm_trie_##opname = {				\
	.name = "lpm-trie-" #opname,					\
	.summary = what,						\
	.family = "lpm-trie",						\
	.opts = lpm_opts,						\
	.metrics = lpm_metrics,						\
	.nr_metrics = ARRAY_SIZE(lpm_metrics),				\
	.flags = flg,							\
	.validate = lpm_validate,					\
	.setup = lpm_setup_##opname,					\
	.producer = lpm_producer,					\
	.measure = lpm_measure,						\
	.report_final = lpm_report_final,				\
	.teardown = lpm_teardown,					\
}

LPM_BENCH(noop, "LPM trie floor: the op loop alone (in-kernel ns/op)", 0);
LPM_BENCH(baseline, "LPM trie floor: the op loop and key generation", 0);
LPM_BENCH(lookup, "LPM trie lookup of present keys in a full trie", 0);
LPM_BENCH(insert, "LPM trie insert into an empty trie (emptied again untimed)",
	  BENCH_F_ONE_PRODUCER);
LPM_BENCH(update, "LPM trie update of present keys in a full trie", 0);
LPM_BENCH(delete, "LPM trie delete from a full trie (refilled untimed)", BENCH_F_ONE_PRODUCER);

/* ---- lpm-trie-free ---- */

static bool lpm_is_free(const struct bench_env *env)
{
	return env->bench->metrics == lpm_free_metrics;
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

static int create_trie(struct lpm_state *s, char *name, size_t len)
{
	LIBBPF_OPTS(bpf_map_create_opts, opts, .map_flags = BPF_F_NO_PREALLOC);
	int fd;

	/* unique per process and round: the tracepoint program matches it */
	snprintf(name, len, "lf%06x%07x", (unsigned int)getpid() & 0xffffff,
		 ++s->round & 0xfffffff);
	fd = bpf_map_create(BPF_MAP_TYPE_LPM_TRIE, name, sizeof(struct lpm_key), sizeof(__u32),
			    nr_entries, &opts);
	return fd < 0 ? -errno : fd;
}

static int wait_for_free(struct lpm_state *s, uint64_t count_before)
{
	uint64_t deadline = now_ns() + FREE_TIMEOUT_NS;

	while (__atomic_load_n(&s->skel->bss->free_count, __ATOMIC_ACQUIRE) == count_before) {
		if (interrupted())
			return -EINTR;
		if (now_ns() > deadline) {
			errmsg("lpm-trie-free: the trie's free did not run on the workqueue "
			       "within %llu s", FREE_TIMEOUT_NS / 1000000000ull);
			return -ETIMEDOUT;
		}
		usleep(100);
	}
	return 0;
}

static void free_vals(double *vals, uint64_t ns)
{
	vals[0] = ns ? 1e6 / ns : 0.0;	/* K frees per second */
	vals[1] = ns / 1e6;		/* ms per free */
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
static int free_once_wq(struct bench_env *env, double *vals)
{
	struct lpm_state *s = env->priv;
	uint64_t count, ns0;
	char name[16];
	int fd, err;

	fd = create_trie(s, name, sizeof(name));
	if (fd < 0)
		return fd;
	err = fill_trie(s, fd);
	if (err) {
		close(fd);
		return err;
	}
	memcpy(s->skel->bss->free_name, name, sizeof(name));
	count = __atomic_load_n(&s->skel->bss->free_count, __ATOMIC_ACQUIRE);
	ns0 = __atomic_load_n(&s->skel->bss->free_ns, __ATOMIC_ACQUIRE);
	close(fd);
	err = wait_for_free(s, count);
	if (err)
		return err;
	free_vals(vals, __atomic_load_n(&s->skel->bss->free_ns, __ATOMIC_ACQUIRE) - ns0);
	return 0;
}

/* ---- memcg fallback: a private v1 memory cgroup for this thread ---- */

static int write_str(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), err = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, text, strlen(text)) < 0)
		err = -errno;
	close(fd);
	return err;
}

static int read_u64_file(const char *path, uint64_t *v)
{
	char buf[64];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -EIO;
	buf[n] = 0;
	*v = strtoull(buf, NULL, 10);
	return 0;
}

/* Our thread's v1 memory cgroup directory, from /proc/self/task/TID/cgroup. */
static int lpm_cg_current(char *dir, size_t len)
{
	char path[64], line[512];
	FILE *f;
	int err = -ENOENT;

	snprintf(path, sizeof(path), "/proc/self/task/%d/cgroup", gettid());
	f = fopen(path, "r");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		char *p = strstr(line, ":memory:");

		if (!p)
			continue;
		p[strcspn(p, "\n")] = 0;
		if (snprintf(dir, len, "/sys/fs/cgroup/memory%s", p + 8) < (int)len)
			err = 0;
		break;
	}
	fclose(f);
	return err;
}

static int lpm_cg_enter(struct lpm_cgroup *cg)
{
	char path[600], tid[16];
	int err;

	err = lpm_cg_current(cg->orig, sizeof(cg->orig));
	if (err)
		return err;
	snprintf(cg->mine, sizeof(cg->mine), "%s/bpfbench-lpm-free.%d", cg->orig, getpid());
	if (mkdir(cg->mine, 0755)) {
		err = -errno;
		cg->mine[0] = 0;
		return err;
	}
	snprintf(path, sizeof(path), "%s/tasks", cg->mine);
	snprintf(tid, sizeof(tid), "%d", gettid());
	return write_str(path, tid);
}

/* Back to where we came from, and the private cgroup removed: on every exit path. */
static void lpm_cg_leave(struct lpm_cgroup *cg)
{
	char path[600], tid[16];

	if (!cg->mine[0])
		return;
	snprintf(path, sizeof(path), "%s/tasks", cg->orig);
	snprintf(tid, sizeof(tid), "%d", gettid());
	write_str(path, tid);
	if (rmdir(cg->mine))
		errmsg("lpm-trie-free: cannot remove %s: %s", cg->mine, strerror(errno));
	cg->mine[0] = 0;
}

static int lpm_cg_usage(struct lpm_state *s, uint64_t *v)
{
	char path[600];

	snprintf(path, sizeof(path), "%s/memory.usage_in_bytes", s->cg.mine);
	return read_u64_file(path, v);
}

/*
 * memcg: the trie is created by this thread, alone in its private
 * memory cgroup, so its nodes are charged there.  The figure is the time
 * from close() to the cgroup's usage falling back to where it was before
 * the trie, give or take the larger of 10% of the trie's charge and
 * 512 KiB per CPU (memcg caches up to 64 pages of charge per CPU): the
 * workqueue delay, the free itself, whatever the allocator defers past
 * RCU grace periods, and up to 100 us of polling.  Tries charging less
 * than four times that slack cannot be timed this way (exit 4).
 */
static int free_once_memcg(struct bench_env *env, double *vals)
{
	struct lpm_state *s = env->priv;
	uint64_t u0, u1, u, t0, deadline, slack;
	char name[16];
	int fd, err;

	err = lpm_cg_usage(s, &u0);
	if (err)
		return err;
	fd = create_trie(s, name, sizeof(name));
	if (fd < 0)
		return fd;
	err = fill_trie(s, fd);
	if (!err)
		err = lpm_cg_usage(s, &u1);
	if (err) {
		close(fd);
		return err;
	}
	slack = MEMCG_SLACK_PER_CPU * nr_online_cpus();
	if (u1 < u0 + 4 * slack) {
		close(fd);
		errmsg("lpm-trie-free: memcg: the trie's charge (%llu KiB) is too small to tell "
		       "from per-CPU charge caching; use a larger --nr_entries",
		       (unsigned long long)(u1 > u0 ? u1 - u0 : 0) / 1024);
		return -EOPNOTSUPP;
	}
	if (slack < (u1 - u0) / 10)
		slack = (u1 - u0) / 10;
	t0 = now_ns();
	close(fd);
	deadline = t0 + FREE_TIMEOUT_NS;
	for (;;) {
		err = lpm_cg_usage(s, &u);
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
	free_vals(vals, now_ns() - t0);
	return 0;
}

static int lpm_free_run_once(struct bench_env *env, double *vals)
{
	struct lpm_state *s = env->priv;

	return s->method == FREE_WQ_TP ? free_once_wq(env, vals) : free_once_memcg(env, vals);
}

/* Loads and attaches the workqueue bracket; 1: not usable here (why printed with -v). */
static int setup_wq(struct bench_env *env, bool quiet)
{
	struct lpm_state *s = env->priv;
	uint64_t fn;
	int err;

	if (probe_feature(PROBE_PROG_RAW_TP, NULL, 0) != 1 ||
	    probe_feature(PROBE_KALLSYMS, NULL, 0) != 1) {
		if (!quiet)
			errmsg("lpm-trie-free: raw_tp programs or kallsyms addresses unavailable");
		return 1;
	}
	fn = kallsyms_addr("bpf_map_free_deferred");
	if (!fn) {
		if (!quiet)
			errmsg("lpm-trie-free: no bpf_map_free_deferred in /proc/kallsyms");
		return 1;
	}
	s->skel = lpm_trie_bpf__open();
	if (!s->skel)
		return -errno;
	s->skel->rodata->free_fn = fn;
	bpf_program__set_autoload(s->skel->progs.lpm_run, false);
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

static int setup_memcg(struct bench_env *env)
{
	struct lpm_state *s = env->priv;
	int err;

	if (probe_feature(PROBE_MEMCG, NULL, 0) != 1) {
		errmsg("lpm-trie-free: no way to time the free here: raw_tp on the workqueue "
		       "tracepoints and a memory cgroup are both unavailable");
		return -EOPNOTSUPP;
	}
	err = lpm_cg_enter(&s->cg);
	if (err)
		errmsg("lpm-trie-free: cannot use a private memory cgroup: %s", strerror(-err));
	return err == -EACCES || err == -EPERM || err == -ENOENT ? -EOPNOTSUPP : err;
}

static int lpm_free_setup(struct bench_env *env)
{
	struct lpm_state *s = calloc(1, sizeof(*s));
	int err = 1;

	if (!s)
		return -ENOMEM;
	env->priv = s;
	env->trig.kind = TRIG_NONE;
	s->trie_fd = -1;
	err = make_keys(s);
	if (err)
		return err;
	if (free_method != FREE_MEMCG) {
		err = setup_wq(env, free_method == FREE_AUTO);
		if (err <= 0) {
			s->method = FREE_WQ_TP;
			env->method = free_method_desc[FREE_WQ_TP];
			return err;
		}
		if (free_method == FREE_WQ_TP)
			return -EOPNOTSUPP;
	}
	s->method = FREE_MEMCG;
	env->method = free_method_desc[FREE_MEMCG];
	return setup_memcg(env);
}

static void lpm_free_teardown(struct bench_env *env)
{
	struct lpm_state *s = env->priv;

	if (s)
		lpm_cg_leave(&s->cg);
	lpm_teardown(env);
}

const struct bench bench_lpm_trie_free = {
	.name = "lpm-trie-free",
	.summary = "LPM trie: time the kernel takes to free a trie of nr_entries",
	.family = "lpm-trie",
	.opts = lpm_free_opts,
	.metrics = lpm_free_metrics,
	.nr_metrics = ARRAY_SIZE(lpm_free_metrics),
	.flags = BENCH_F_ONESHOT | BENCH_F_ONE_PRODUCER,
	.validate = lpm_validate,
	.setup = lpm_free_setup,
	.run_once = lpm_free_run_once,
	.report_final = lpm_report_final,
	.teardown = lpm_free_teardown,
};

/* The seed's table (10K entries, /32, one producer) and the floor it reads against. */
static const struct suite_step lpm_trie_steps[] = {
	{ "LPM trie, 10K entries, /32", "noop",
	  "lpm-trie-noop --prefix_len=32 --producers=1 --nr_entries=10000" },
	{ NULL, "baseline", "lpm-trie-baseline --prefix_len=32 --producers=1 --nr_entries=10000" },
	{ NULL, "lookup", "lpm-trie-lookup --prefix_len=32 --producers=1 --nr_entries=10000" },
	{ NULL, "update", "lpm-trie-update --prefix_len=32 --producers=1 --nr_entries=10000" },
	{ NULL, "delete", "lpm-trie-delete --prefix_len=32 --producers=1 --nr_entries=10000" },
	{ NULL, "free", "lpm-trie-free --prefix_len=32 --producers=1 --nr_entries=10000" },
	{ NULL },
};

const struct suite suite_lpm_trie = {
	.name = "lpm-trie",
	.summary = "LPM trie lookup, update, delete, free at 10K /32 keys, with the floor (seed 004)",
	.steps = lpm_trie_steps,
};
