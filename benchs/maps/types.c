// SPDX-License-Identifier: GPL-2.0
/*
 * maps: the map types, how each is probed and made, and how user space
 * puts a map into the state an op starts from (filled with keys [0, n),
 * or empty) and counts what it holds.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "mp.h"
#include "maps.skel.h"

#define FILL_CHUNK	4096	/* elements per batch update */
#define KEY_PATTERN	2654435761u	/* the kernel's bench: word i of a long key is i times this */

/*
 * The map types, a row each: the name --map_type takes, then how the
 * type is made and probed (struct mp_type's fields; every row names its
 * probe: one left out would be 0, a probe of the core's).  The one list
 * makes both mp_types and the option's choices, in one order.
 */
#define MP_TYPES(X)										\
	X("hash", .type = BPF_MAP_TYPE_HASH, .cls = MP_HASH, .prealloc_optional = true,		\
	  .probe = PROBE_MAP_HASH)								\
	X("percpu_hash", .type = BPF_MAP_TYPE_PERCPU_HASH, .cls = MP_HASH, .percpu = true,	\
	  .prealloc_optional = true, .probe = PROBE_MAP_PERCPU_HASH)				\
	X("lru_hash", .type = BPF_MAP_TYPE_LRU_HASH, .cls = MP_HASH, .lru = true,		\
	  .probe = PROBE_MAP_LRU_HASH)								\
	X("lru_hash_no_common", .type = BPF_MAP_TYPE_LRU_HASH,					\
	  .flags = BPF_F_NO_COMMON_LRU, .cls = MP_HASH, .lru = true, .probe = MP_OWN_PROBE)	\
	X("lru_percpu_hash", .type = BPF_MAP_TYPE_LRU_PERCPU_HASH, .cls = MP_HASH,		\
	  .lru = true, .percpu = true, .probe = MP_OWN_PROBE)					\
	X("lru_percpu_hash_no_common", .type = BPF_MAP_TYPE_LRU_PERCPU_HASH,			\
	  .flags = BPF_F_NO_COMMON_LRU, .cls = MP_HASH, .lru = true, .percpu = true,		\
	  .probe = MP_OWN_PROBE)								\
	X("array", .type = BPF_MAP_TYPE_ARRAY, .cls = MP_ARRAY, .probe = PROBE_MAP_ARRAY)	\
	X("percpu_array", .type = BPF_MAP_TYPE_PERCPU_ARRAY, .cls = MP_ARRAY,			\
	  .percpu = true, .probe = PROBE_MAP_PERCPU_ARRAY)					\
	X("lpm_trie", .type = BPF_MAP_TYPE_LPM_TRIE, .flags = BPF_F_NO_PREALLOC,		\
	  .cls = MP_LPM, .probe = PROBE_MAP_LPM_TRIE)						\
	X("queue", .type = BPF_MAP_TYPE_QUEUE, .cls = MP_QUEUE, .probe = MP_OWN_PROBE)		\
	X("stack", .type = BPF_MAP_TYPE_STACK, .cls = MP_STACK, .probe = MP_OWN_PROBE)

#define MP_TYPE_ROW(n, ...)	{ .name = n, __VA_ARGS__ },
#define MP_TYPE_NAME(n, ...)	n,

const struct mp_type mp_types[] = {
	MP_TYPES(MP_TYPE_ROW)
	{ NULL },
};

const char *const mp_type_names[] = {
	MP_TYPES(MP_TYPE_NAME)
	NULL,
};

bool mp_queued(const struct mp_conf *c)
{
	return c->t->cls == MP_QUEUE || c->t->cls == MP_STACK;
}

const char *mp_op_name(enum mp_op op)
{
	static const char *const names[MP__NR] = {
		"lookup", "update", "delete", "peek", "push", "pop",
	};

	return names[op];
}

/*
 * Whether the kernel makes maps of this type: the core's probe where it
 * has one, else one of our own (a one-element map with the type's
 * flags).  -EOPNOTSUPP after the line saying what is missing.
 */
int mp_probe_type(const struct bench_env *env, const struct mp_conf *c)
{
	const struct mp_type *t = c->t;
	bool keyless = mp_queued(c);
	LIBBPF_OPTS(bpf_map_create_opts, o, .map_flags = t->flags);
	const char *name;
	char what[64];
	int fd, err;

	snprintf(what, sizeof(what), "map type %s", t->name);
	if (t->probe >= 0)
		return bench_require(env, t->probe, what);
	fd = bpf_map_create(t->type, NULL, keyless ? 0 : t->cls == MP_LPM ? 8 : 4, 8, 1, &o);
	if (fd >= 0) {
		close(fd);
		return 0;
	}
	err = -errno;
	/* a type the kernel makes in its own shape (libbpf knows it) is not one we can use */
	if (err == -EINVAL && libbpf_probe_bpf_map_type(t->type, NULL) == 1) {
		name = libbpf_bpf_map_type_str(t->type);
		errmsg("%s: map type %u (%s) is not a hash-like map: --map_type_nr takes a type "
		       "with keys and values (a 4-byte key, an 8-byte value)", env->bench->name,
		       t->type, name ?: "unnamed");
		return -EINVAL;
	}
	if (err == -EPERM || err == -EACCES) {
		errmsg("%s: no permission to create %s (%s): needs CAP_BPF", env->bench->name,
		       what, strerror(-err));
		return -EPERM;
	}
	skipmsg("%s: this kernel lacks %s (BPF_MAP_TYPE %u, flags %#x: map create failed: %s)",
		env->bench->name, what, t->type, t->flags, strerror(-err));
	return -EOPNOTSUPP;
}

/* Before load: the skeleton's map gets the run's type, sizes and flags. */
int mp_make_map(struct mp_state *s)
{
	struct bpf_map *m = s->skel->maps.target;
	const struct mp_conf *c = &s->c;
	int err;

	err = bpf_map__set_type(m, c->t->type);
	err = err ?: bpf_map__set_key_size(m, c->map_key);
	err = err ?: bpf_map__set_value_size(m, c->value_size);
	err = err ?: bpf_map__set_max_entries(m, c->max_entries);
	return err ?: bpf_map__set_map_flags(m, c->flags);
}

/* Key number index: the kernel bench's long-key pattern with index in the first word. */
void mp_key(const struct mp_conf *c, uint32_t index, void *key)
{
	uint32_t words[(MAPS_KEY_MAX + 3) / 4] = { 0 }, data = c->map_key, i;
	unsigned char *k = key;

	if (c->t->cls == MP_LPM) {
		data -= 4;
		*(uint32_t *)k = data * 8;	/* every key a full-length prefix */
		k += 4;
	}
	words[0] = index;
	for (i = 1; i < (data + 3) / 4; i++)
		words[i] = KEY_PATTERN * i;
	memcpy(k, words, data);
}

static size_t value_stride(const struct mp_conf *c)
{
	return c->t->percpu ? (size_t)((c->value_size + 7) & ~7u) * libbpf_num_possible_cpus() :
			      c->value_size;
}

/* Every CPU's copy of a per-CPU value gets the index: a lookup sees it wherever it runs. */
static void make_value(const struct mp_conf *c, uint64_t index, unsigned char *v)
{
	size_t stride = (c->value_size + 7) & ~7u;
	int i, n = c->t->percpu ? libbpf_num_possible_cpus() : 1;

	memset(v, 0, value_stride(c));
	for (i = 0; i < n; i++)
		memcpy(v + i * stride, &index, sizeof(index));
}

/* Keys [from, to) in batches; one by one where the type has no batch update. */
static int put_keys(struct mp_state *s, uint32_t from, uint32_t to)
{
	const struct mp_conf *c = &s->c;
	size_t vs = value_stride(c);
	unsigned char *keys = calloc(FILL_CHUNK, c->map_key), *vals = calloc(FILL_CHUNK, vs);
	LIBBPF_OPTS(bpf_map_batch_opts, bo);
	uint32_t i, n, done;
	int err = 0;

	if (!keys || !vals) {
		err = -ENOMEM;
		goto out;
	}
	for (; from < to && !err; from += n) {
		n = to - from < FILL_CHUNK ? to - from : FILL_CHUNK;
		for (i = 0; i < n; i++) {
			mp_key(c, from + i, keys + (size_t)i * c->map_key);
			make_value(c, from + i, vals + (size_t)i * vs);
		}
		done = n;
		if (!bpf_map_update_batch(s->fd, keys, vals, &done, &bo) && done == n)
			continue;
		for (i = 0; i < n && !err; i++)
			if (bpf_map_update_elem(s->fd, keys + (size_t)i * c->map_key,
						vals + (size_t)i * vs, BPF_ANY))
				err = -errno;
	}
out:
	free(keys);
	free(vals);
	return err;
}

static int push_values(struct mp_state *s)
{
	unsigned char *v = calloc(1, s->c.value_size);
	uint32_t i;
	int err = 0;

	if (!v)
		return -ENOMEM;
	for (i = 0; i < s->c.n && !err; i++) {
		make_value(&s->c, i, v);
		if (bpf_map_update_elem(s->fd, NULL, v, BPF_ANY))
			err = -errno;
	}
	free(v);
	return err;
}

/*
 * An LRU map hands out nodes from a free list per CPU: a fill that
 * wandered between CPUs would leave nodes stranded on one and evict on
 * the other.  So a common-LRU fill runs on one CPU, and a per-CPU-LRU
 * fill (BPF_F_NO_COMMON_LRU: each CPU owns cap / CPUs nodes) puts an
 * equal share from each CPU.
 */
static int put_keys_on(struct mp_state *s, int cpu, uint32_t from, uint32_t to)
{
	cpu_set_t saved;
	int err;

	err = -pthread_getaffinity_np(pthread_self(), sizeof(saved), &saved);
	err = err ?: pin_thread_to_cpu(cpu);
	if (err)
		return err;
	err = put_keys(s, from, to);
	pthread_setaffinity_np(pthread_self(), sizeof(saved), &saved);
	return err;
}

static int fill_lru(struct mp_state *s)
{
	uint32_t n = s->c.n, from;
	int cpus = libbpf_num_possible_cpus(), cpu, err;

	if (!(s->c.flags & BPF_F_NO_COMMON_LRU))
		return put_keys_on(s, s->fill_cpu, 0, n);
	for (cpu = 0, err = 0; cpu < cpus && !err; cpu++) {
		from = (uint64_t)n * cpu / cpus;
		err = put_keys_on(s, cpu, from, (uint64_t)n * (cpu + 1) / cpus);
	}
	return err;
}

int mp_fill(struct mp_state *s)
{
	if (mp_queued(&s->c))
		return push_values(s);
	if (s->c.t->lru)
		return fill_lru(s);
	return put_keys(s, 0, s->c.n);
}

int mp_count(struct mp_state *s, uint64_t *n)
{
	unsigned char cur[MAPS_KEY_MAX], next[MAPS_KEY_MAX];
	void *prev = NULL;

	*n = 0;
	while (!bpf_map_get_next_key(s->fd, prev, next)) {
		(*n)++;
		memcpy(cur, next, s->c.map_key);
		prev = cur;
	}
	return errno == ENOENT ? 0 : -errno;
}

/* Every key a pass may have written goes; then nothing may be left. */
int mp_empty(struct mp_state *s)
{
	unsigned char key[MAPS_KEY_MAX], *v;
	uint32_t i, end = s->c.range > s->c.n ? s->c.range : s->c.n;
	uint64_t left;
	int err;

	if (s->c.t->cls == MP_ARRAY)
		return 0;
	if (mp_queued(&s->c)) {
		v = calloc(1, s->c.value_size);
		if (!v)
			return -ENOMEM;
		while (!bpf_map_lookup_and_delete_elem(s->fd, NULL, v))
			;
		err = errno == ENOENT ? 0 : -errno;
		free(v);
		return err;
	}
	for (i = 0; i < end; i++) {
		mp_key(&s->c, i, key);
		if (bpf_map_delete_elem(s->fd, key) && errno != ENOENT)
			return -errno;
	}
	err = mp_count(s, &left);
	if (!err && left)
		err = -ENOTEMPTY;
	return err;
}
