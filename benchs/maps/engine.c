// SPDX-License-Identifier: GPL-2.0
/*
 * maps: passes and their oracle.
 *
 * A pass is one op kind done by every producer at once, each on its own
 * share of the keys, through test-run of that op's program (producer 0
 * on the calling thread, the others on threads of our own that wait
 * between passes).  Before a pass the map is put into the state the op
 * starts from: filled with keys [0, n) (or values 0 .. n-1), or empty;
 * after it, what the op must have left is checked from user space.
 * The programs check every single op; a pass whose counts differ in
 * any way from what the jobs imply fails the run.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "mp.h"
#include "maps.skel.h"

/* ---- loading ---- */

static struct bpf_program *prog_of(struct maps_bpf *skel, enum mp_op op)
{
	struct bpf_program *const progs[MP__NR] = {
		skel->progs.maps_lookup, skel->progs.maps_update, skel->progs.maps_delete,
		skel->progs.maps_peek, skel->progs.maps_push, skel->progs.maps_pop,
	};

	return progs[op];
}

static bool run_has_op(const struct mp_conf *c, enum mp_op op)
{
	int i;

	for (i = 0; i < c->nr_ops; i++)
		if (c->ops[i] == op)
			return true;
	return false;
}

static int map_capacity(struct mp_state *s)
{
	struct bpf_map_info info = { 0 };
	__u32 len = sizeof(info);

	if (bpf_obj_get_info_by_fd(s->fd, &info, &len))
		return -errno;
	s->cap = info.max_entries;
	return 0;
}

/* A fresh fill must hold exactly the keys asked for: proof the fill works for this type. */
static int check_fill(struct bench_env *env, struct mp_state *s)
{
	uint64_t n;
	int err;

	if (mp_queued(&s->c) || s->c.t->cls == MP_ARRAY)
		return 0;
	err = mp_count(s, &n);
	if (err)
		return err;
	if (n == s->c.n)
		return 0;
	errmsg("%s: filling %s with %u keys left %llu in it", env->bench->name, s->c.t->name,
	       s->c.n, (unsigned long long)n);
	return -EPROTO;
}

/* Opens, sizes, loads the run's programs, fills the map: the state every op starts from. */
int mp_load(struct bench_env *env, struct mp_state *s)
{
	struct maps_prod *prods;
	enum mp_op op;
	int err, p;

	s->skel = maps_bpf__open();
	if (!s->skel)
		return -errno;
	BENCH_SKEL_INIT(s->skel);
	s->skel->rodata->key_off = s->c.t->cls == MP_LPM ? 4 : 0;
	s->skel->rodata->check_value = !s->c.t->percpu;
	err = mp_make_map(s);
	for (op = 0; op < MP__NR && !err; op++)
		err = bpf_program__set_autoload(prog_of(s->skel, op), run_has_op(&s->c, op));
	err = err ?: mp_hist_prepare(s);
	err = err ?: maps_bpf__load(s->skel);
	err = err ?: mp_hist_open(env, s);
	if (err)
		return err;
	for (op = 0; op < MP__NR; op++)
		s->prog_fd[op] = run_has_op(&s->c, op) ? bpf_program__fd(prog_of(s->skel, op)) : -1;
	s->fd = bpf_map__fd(s->skel->maps.target);
	prods = s->skel->bss->prods;
	for (p = 0; p < MAPS_MAX_PROD; p++)
		mp_key(&s->c, 0, prods[p].key);
	err = map_capacity(s);
	err = err ?: mp_fill(s);
	err = err ?: check_fill(env, s);
	s->st = err ? MP_UNKNOWN : MP_FILLED;
	return err;
}

void mp_unload(struct mp_state *s)
{
	maps_bpf__destroy(s->skel);
	s->skel = NULL;
	s->fd = -1;
}

/* ---- producers ---- */

/* One producer's job, as many runs per syscall as it has chunks left. */
static int run_job(struct mp_state *s, int p, int fd)
{
	struct maps_prod *slot = &s->skel->bss->prods[p];
	uint64_t left, cap = s->opts->test_run_repeat ?: TEST_RUN_MAX_REPEAT;
	unsigned char pkt[64] = { 0 };
	uint32_t idx = p, ret = 0, repeat;
	int err;

	memcpy(pkt, &idx, sizeof(idx));
	while ((left = __atomic_load_n(&slot->job.remaining, __ATOMIC_ACQUIRE))) {
		repeat = (left + MAPS_CHUNK - 1) / MAPS_CHUNK;
		if (repeat > cap)
			repeat = cap;
		err = test_run_pkt(fd, pkt, sizeof(pkt), repeat, &ret);
		if (err == -EINTR && !interrupted())
			continue;
		if (err)
			return err;
		if (ret)
			return -EPROTO;
	}
	return 0;
}

static void *worker(void *arg)
{
	struct mp_state *s = arg;
	struct mp_pool *pl = &s->pool;
	unsigned int seen = 0;
	int idx, fd, err, pin;

	pthread_mutex_lock(&pl->mu);
	idx = ++pl->pending;	/* start order is the producer index: 1, 2, ... */
	pthread_cond_signal(&pl->done);
	pin = pl->cpu[idx] >= 0 ? pin_thread_to_cpu(pl->cpu[idx]) : 0;
	for (;;) {
		while (pl->gen == seen && !pl->quit)
			pthread_cond_wait(&pl->go, &pl->mu);
		if (pl->quit)
			break;
		seen = pl->gen;
		fd = pl->fd;
		pthread_mutex_unlock(&pl->mu);
		err = pin ?: run_job(s, idx, fd);
		pthread_mutex_lock(&pl->mu);
		pl->err[idx] = err;
		if (--pl->pending == 0)
			pthread_cond_signal(&pl->done);
	}
	pthread_mutex_unlock(&pl->mu);
	return NULL;
}

/* The kernel bench's placement, as the core's runner: -a pins producers to CPUs 0, 1, ... */
static int producer_cpu(const struct run_opts *o, int i)
{
	if (o->prod_cpus.n)
		return o->prod_cpus.cpu[i % o->prod_cpus.n];
	if (!o->affinity)
		return -1;
	return ((int)o->consumers + i) % nr_online_cpus();
}

int mp_pool_start(struct mp_state *s)
{
	struct mp_pool *pl = &s->pool;
	sigset_t block, old;
	int i, err = 0;

	pthread_mutex_init(&pl->mu, NULL);
	pthread_cond_init(&pl->go, NULL);
	pthread_cond_init(&pl->done, NULL);
	pl->inited = true;
	for (i = 0; i < s->c.nr_prod; i++)
		pl->cpu[i] = producer_cpu(s->opts, i);
	if (pl->cpu[0] >= 0) {
		err = -pthread_getaffinity_np(pthread_self(), sizeof(pl->saved), &pl->saved);
		err = err ?: pin_thread_to_cpu(pl->cpu[0]);
		if (err)
			return err;
		pl->pinned = true;
	}
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	for (i = 1; i < s->c.nr_prod && !err; i++) {
		err = -pthread_create(&pl->th[i], NULL, worker, s);
		if (!err)
			pl->n = i;
		else
			pl->failed = i;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	pthread_mutex_lock(&pl->mu);
	while (pl->pending < pl->n)	/* every thread knows its index */
		pthread_cond_wait(&pl->done, &pl->mu);
	pl->pending = 0;
	pthread_mutex_unlock(&pl->mu);
	return err;
}

void mp_pool_stop(struct mp_state *s)
{
	struct mp_pool *pl = &s->pool;
	int i;

	if (!pl->inited)
		return;
	pthread_mutex_lock(&pl->mu);
	pl->quit = true;
	pthread_cond_broadcast(&pl->go);
	pthread_mutex_unlock(&pl->mu);
	for (i = 1; i <= pl->n; i++)
		pthread_join(pl->th[i], NULL);
	if (pl->pinned)
		pthread_setaffinity_np(pthread_self(), sizeof(pl->saved), &pl->saved);
	pthread_mutex_destroy(&pl->mu);
	pthread_cond_destroy(&pl->go);
	pthread_cond_destroy(&pl->done);
	pl->inited = false;
}

/* Every producer's job at once; the first error. */
static int pool_run(struct mp_state *s, int fd)
{
	struct mp_pool *pl = &s->pool;
	int i, err;

	pthread_mutex_lock(&pl->mu);
	pl->fd = fd;
	pl->gen++;
	pl->pending = pl->n;
	pthread_cond_broadcast(&pl->go);
	pthread_mutex_unlock(&pl->mu);
	err = run_job(s, 0, fd);
	pthread_mutex_lock(&pl->mu);
	while (pl->pending)
		pthread_cond_wait(&pl->done, &pl->mu);
	pthread_mutex_unlock(&pl->mu);
	for (i = 1; i <= pl->n && !err; i++)
		err = pl->err[i];
	return err;
}

/* ---- jobs ---- */

static uint64_t share_at_least(uint64_t keys, int nr_prod, uint64_t round)
{
	uint64_t share = (keys + nr_prod - 1) / nr_prod;

	if (share < MP_ROUND_MIN)
		share = MP_ROUND_MIN;
	return (share + round - 1) / round * round;
}

/*
 * Producer p's part of a pass.  Lookups and peeks: a whole number of
 * 100-op hit patterns from key n * p / P on, so hits are exactly
 * ops * hit / 100; updates: every key of the range at least once
 * between them; deletes, pushes and pops: a slice of [0, n) each.
 */
static uint64_t set_job(const struct mp_conf *c, enum mp_op op, int p, struct maps_job *j)
{
	uint64_t lo = (uint64_t)c->n * p / c->nr_prod, hi = (uint64_t)c->n * (p + 1) / c->nr_prod;
	bool lifo = c->t->cls == MP_STACK;

	memset(j, 0, sizeof(*j));
	j->flags = MAPS_JOB_STRICT;
	j->range = c->n;
	j->cursor = lo;
	j->hit = 100;
	switch (op) {
	case MP_LOOKUP:
	case MP_PEEK:
		j->remaining = share_at_least(c->n, c->nr_prod, 100);
		j->hit = op == MP_LOOKUP ? c->hit : 100;
		j->expect = lifo ? c->n - 1 : 0;
		break;
	case MP_UPDATE:
		j->range = c->range;
		j->cursor = (uint64_t)c->range * p / c->nr_prod;
		j->remaining = share_at_least(c->range, c->nr_prod, 1);
		break;
	case MP_POP:
		if (c->nr_prod == 1) {
			j->flags |= MAPS_JOB_ORDER;
			j->expect = lifo ? c->n - 1 : 0;
			j->step = lifo ? -1 : 1;
		}
		/* fallthrough */
	case MP_DELETE:
	case MP_PUSH:
		j->remaining = hi - lo;
		break;
	default:
		break;
	}
	return j->remaining;
}

/* ---- a pass and its checks ---- */

static const char *bad_what(long ret)
{
	switch (ret) {
	case -ENOENT:
		return "found nothing where the map holds an element";
	case 0:
		return "found an element the map never held";
	case 1:
		return "returned a different value than the one stored";
	default:
		return strerror(-ret);
	}
}

static int check_prod(struct bench_env *env, struct mp_state *s, enum mp_op op, int p,
		      uint64_t share)
{
	const struct maps_prod *m = &s->skel->bss->prods[p];
	const char *name = mp_op_name(op);
	uint64_t want = op == MP_LOOKUP ? share * s->c.hit / 100 : share;

	if (m->bad) {
		bench_fail(env, -EPROTO, "%s: %llu of %llu, the first with key or value %#llx: %s",
			   name, (unsigned long long)m->bad, (unsigned long long)m->ops,
			   (unsigned long long)m->bad_index, bad_what(m->bad_ret));
		return -EPROTO;
	}
	if (m->ops != share || m->job.remaining) {
		bench_fail(env, -EPROTO, "%s: producer %d did %llu ops of %llu", name, p,
			   (unsigned long long)m->ops, (unsigned long long)share);
		return -EPROTO;
	}
	if ((op == MP_LOOKUP || op == MP_PEEK) &&
	    (m->hits != want || m->hits + m->misses != m->ops)) {
		bench_fail(env, -EPROTO, "%s: %llu found and %llu not of %llu, %llu should find",
			   name, (unsigned long long)m->hits, (unsigned long long)m->misses,
			   (unsigned long long)m->ops, (unsigned long long)want);
		return -EPROTO;
	}
	return 0;
}

static int pass(struct bench_env *env, struct mp_state *s, enum mp_op op, struct mp_acc *a)
{
	struct maps_prod *prods = s->skel->bss->prods;
	uint64_t share[MAPS_MAX_PROD], t0, sum = 0, n = s->c.n;
	int p, err;

	for (p = 0; p < s->c.nr_prod; p++) {
		memset(&prods[p].ops, 0, offsetof(struct maps_prod, key) -
					 offsetof(struct maps_prod, ops));
		share[p] = set_job(&s->c, op, p, &prods[p].job);
	}
	t0 = now_ns();
	err = pool_run(s, s->prog_fd[op]);
	a->wall += now_ns() - t0;
	if (err)
		return err;
	for (p = 0; p < s->c.nr_prod; p++) {
		err = check_prod(env, s, op, p, share[p]);
		if (err)
			return err;
		a->ops += prods[p].ops;
		a->ns += prods[p].ns;
		a->hits += prods[p].hits;
		a->misses += prods[p].misses;
		sum += prods[p].sum;
	}
	if (op == MP_POP && sum != n * (n - 1) / 2) {
		bench_fail(env, -EPROTO, "pop: the values popped add up to %llu, not %llu",
			   (unsigned long long)sum, (unsigned long long)(n * (n - 1) / 2));
		return -EPROTO;
	}
	return 0;
}

/*
 * Updates that had to take a node from a full LRU map evict: each CPU
 * refills its local free list with up to MP_LRU_BATCH nodes at a time,
 * the rest being elements evicted from the inactive list.  Nodes can
 * also sit on another CPU's list a while, so allow two batches per CPU
 * and one more for the global list.
 */
uint64_t mp_lru_slack(void)
{
	return (2ull * libbpf_num_possible_cpus() + 1) * MP_LRU_BATCH;
}

/*
 * A common LRU list refills a CPU's local free list MP_LRU_BATCH nodes
 * at a time and evicts to make up a short batch, so filled from one CPU
 * it keeps max_entries only down to a whole number of batches (all of
 * them below one batch: the first refill finds nothing to evict).
 */
uint32_t mp_lru_full(uint32_t max_entries)
{
	return max_entries < MP_LRU_BATCH ? max_entries : max_entries - max_entries % MP_LRU_BATCH;
}

/*
 * Updates only take nodes from the updating CPU's own list with
 * BPF_F_NO_COMMON_LRU: the map may end up holding one CPU's share.
 */
static uint64_t lru_floor(const struct mp_state *s, uint64_t hi)
{
	uint64_t slack = mp_lru_slack(), lo = hi;

	if ((s->c.flags & BPF_F_NO_COMMON_LRU) && s->cap / libbpf_num_possible_cpus() < lo)
		lo = s->cap / libbpf_num_possible_cpus();
	return lo > slack ? lo - slack : 0;
}

static int check_elements(struct bench_env *env, struct mp_state *s, enum mp_op op,
			  struct mp_acc *a)
{
	uint64_t want = op == MP_DELETE ? 0 : s->c.n, hi, lo;
	const char *name = mp_op_name(op);
	int err = mp_count(s, &a->elements);

	if (err)
		return err;
	if (op == MP_UPDATE && s->c.t->lru) {
		hi = s->c.range < s->cap ? s->c.range : s->cap;
		lo = lru_floor(s, hi);
		if (a->elements >= lo && a->elements <= hi)
			return 0;
		bench_fail(env, -EPROTO, "update: the LRU map holds %llu elements, not %llu ... %llu",
			   (unsigned long long)a->elements, (unsigned long long)lo,
			   (unsigned long long)hi);
		return -EPROTO;
	}
	if (a->elements == want)
		return 0;
	bench_fail(env, -EPROTO, "%s: the map holds %llu elements, not %llu", name,
		   (unsigned long long)a->elements, (unsigned long long)want);
	return -EPROTO;
}

/* After pushes: everything pops again, as many as were pushed, in order for one producer. */
static int drain_check(struct bench_env *env, struct mp_state *s, struct mp_acc *a)
{
	uint64_t v[MAPS_VALUE_MAX / 8], n = s->c.n, sum = 0, got = 0;
	bool lifo = s->c.t->cls == MP_STACK, ordered = s->c.nr_prod == 1;

	while (!bpf_map_lookup_and_delete_elem(s->fd, NULL, v)) {
		if (ordered && v[0] != (lifo ? n - 1 - got : got)) {
			bench_fail(env, -EPROTO, "push: value %llu came out as number %llu",
				   (unsigned long long)v[0], (unsigned long long)got);
			return -EPROTO;
		}
		sum += v[0];
		got++;
	}
	if (errno != ENOENT)
		return -errno;
	a->elements = got;
	if (got == n && sum == n * (n - 1) / 2)
		return 0;
	bench_fail(env, -EPROTO, "push: %llu values came out (sum %llu), not %llu (sum %llu)",
		   (unsigned long long)got, (unsigned long long)sum, (unsigned long long)n,
		   (unsigned long long)(n * (n - 1) / 2));
	return -EPROTO;
}

static int check_empty_queue(struct bench_env *env, struct mp_state *s)
{
	uint64_t v[MAPS_VALUE_MAX / 8];

	if (bpf_map_lookup_elem(s->fd, NULL, v) && errno == ENOENT)
		return 0;
	bench_fail(env, -EPROTO, "pop: the %s is not empty after every value popped",
		   s->c.t->name);
	return -EPROTO;
}

/* What an op leaves: checked, and the state the next op finds. */
static bool has_keys(const struct mp_conf *c)
{
	return !mp_queued(c) && c->t->cls != MP_ARRAY;
}

static int after(struct bench_env *env, struct mp_state *s, enum mp_op op, struct mp_acc *a)
{
	bool keyed = has_keys(&s->c);
	int err = 0;

	switch (op) {
	case MP_UPDATE:
		if (keyed)
			err = check_elements(env, s, op, a);
		if (s->c.t->lru)
			s->st = MP_DIRTY;
		break;
	case MP_DELETE:
		err = check_elements(env, s, op, a);
		s->st = MP_EMPTY;
		break;
	case MP_PUSH:
		err = drain_check(env, s, a);
		s->st = MP_EMPTY;
		break;
	case MP_POP:
		err = check_empty_queue(env, s);
		s->st = MP_EMPTY;
		break;
	default:
		break;
	}
	return err;
}

/*
 * The state an op starts from.  Pushes start from an empty queue, LRU
 * updates from whatever the last ones left; everything else from a full
 * map.  An LRU map updates left may have free nodes on any CPU's list,
 * which a refill would not find (it would evict what it just put in):
 * it is made again instead.
 */
static int prepare(struct bench_env *env, struct mp_state *s, enum mp_op op)
{
	int err = 0;

	if (op == MP_UPDATE && s->c.t->lru && s->st == MP_DIRTY)
		return 0;
	if (op == MP_PUSH) {
		if (s->st != MP_EMPTY)
			err = mp_empty(s);
		s->st = err ? MP_UNKNOWN : MP_EMPTY;
		return err;
	}
	if (s->st == MP_FILLED)
		return 0;
	if (s->st == MP_DIRTY && s->c.t->lru) {
		mp_unload(s);
		return mp_load(env, s);
	}
	if (s->st != MP_EMPTY)
		err = mp_empty(s);
	err = err ?: mp_fill(s);
	s->st = err ? MP_UNKNOWN : MP_FILLED;
	return err;
}

/* One sample: every op of the run in turn, again until MP_SAMPLE_NS have passed. */
int mp_sample(struct bench_env *env, struct mp_acc *acc)
{
	struct mp_state *s = env->priv;
	uint64_t t0 = now_ns();
	enum mp_op op;
	int i, err;

	do {
		for (i = 0; i < s->c.nr_ops; i++) {
			op = s->c.ops[i];
			err = prepare(env, s, op);
			err = err ?: pass(env, s, op, &acc[op]);
			err = err ?: after(env, s, op, &acc[op]);
			if (err)
				return err;
		}
	} while (now_ns() - t0 < MP_SAMPLE_NS && !interrupted());
	/* lookups change nothing: one count at the end proves every pass found the map whole */
	if (s->c.nr_ops == 1 && s->c.ops[0] == MP_LOOKUP && has_keys(&s->c))
		return check_elements(env, s, MP_LOOKUP, &acc[MP_LOOKUP]);
	return 0;
}
