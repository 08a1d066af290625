// SPDX-License-Identifier: GPL-2.0
/*
 * map-batch: the timed loops.  Each moves all n elements through the map
 * with one op, in batches of a size or one element at a time (the
 * one-by-one baseline, test_maps' "not batch"), and counts its syscalls;
 * nothing but the syscalls is inside the clock.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "mb.h"

int mb_pass_fail(const struct pass *p, int err, const char *fmt, ...)
{
	char what[160], how[32];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (p->batch)
		snprintf(how, sizeof(how), "batch %u", p->batch);
	else
		snprintf(how, sizeof(how), "one-by-one");
	bench_fail(p->s->env, err, "%s, %s: %s", mb_op_names[p->op], how, what);
	return err;
}

int mb_syscall_fail(const struct pass *p, int err, const char *call)
{
	return mb_pass_fail(p, err, "%s: %s", call, strerror(-err));
}

/* Update or delete: one syscall for a batch of the n source elements. */
static int write_batch(const struct pass *p, uint32_t off, uint32_t *cnt)
{
	LIBBPF_OPTS(bpf_map_batch_opts, opts, .elem_flags = BPF_ANY);
	struct mb_state *s = p->s;

	s->calls++;
	if (p->op == OP_DELETE)
		return bpf_map_delete_batch(s->map_fd, key_at(&s->src, s, off), cnt, NULL);
	return bpf_map_update_batch(s->map_fd, key_at(&s->src, s, off), val_at(&s->src, s, off),
				    cnt, &opts);
}

/* Updates, or deletes, the n source elements in chunks of the batch size. */
static int write_batched(const struct pass *p, uint32_t *done)
{
	bool del = p->op == OP_DELETE;
	struct mb_state *s = p->s;
	uint32_t off, want, cnt;
	int err;

	for (off = 0; off < s->n; off += want) {
		want = min_u32(p->batch, s->n - off);
		cnt = want;
		err = write_batch(p, off, &cnt);
		if (err)	/* delete: ENOENT included, the map lacked one of our keys */
			return mb_syscall_fail(p, err, del ? "BPF_MAP_DELETE_BATCH" :
					       "BPF_MAP_UPDATE_BATCH");
		if (cnt != want)
			return mb_pass_fail(p, -EIO, "%s %u of %u", del ? "deleted" : "updated",
					    cnt, want);
		if (interrupted())
			return -EINTR;
	}
	*done = s->n;
	return 0;
}

static int update_one_by_one(const struct pass *p, uint32_t *done)
{
	struct mb_state *s = p->s;
	uint32_t i;
	int err;

	for (i = 0; i < s->n; i++) {
		s->calls++;
		err = bpf_map_update_elem(s->map_fd, key_at(&s->src, s, i),
					  val_at(&s->src, s, i), BPF_ANY);
		if (err)
			return mb_syscall_fail(p, err, "BPF_MAP_UPDATE_ELEM");
		if (!(i & 4095) && interrupted())
			return -EINTR;
	}
	*done = s->n;
	return 0;
}

/*
 * A hash bucket is never split across batches: when the next one holds
 * more elements than the window, the kernel returns ENOSPC having copied
 * nothing.  The window grows (and stays grown, as a real caller's buffer
 * would) and the same cursor is asked again.
 */
static int grow_window(const struct pass *p, uint32_t *window, uint32_t cnt)
{
	struct mb_state *s = p->s;
	uint32_t old = *window;

	if (cnt)
		return mb_pass_fail(p, -EIO, "ENOSPC with %u elements copied", cnt);
	if (old >= s->n)
		return mb_pass_fail(p, -EIO, "ENOSPC with a window of all %u elements", s->n);
	*window = min_u32(old * 2, s->n);
	s->retries++;
	vmsg("map-batch: %s batch %u: a bucket holds more than %u elements (ENOSPC), "
	     "batch buffer grown to %u, retrying", mb_op_names[p->op], p->batch, old, *window);
	return 0;
}

static int lookup_call(const struct pass *p, bool first, uint32_t at, uint32_t *cnt)
{
	struct mb_state *s = p->s;
	void *in = first ? NULL : s->cursor_in;

	s->calls++;
	if (p->op == OP_LOOKUP_AND_DELETE)
		return bpf_map_lookup_and_delete_batch(s->map_fd, in, s->cursor_out,
						       key_at(&s->out, s, at), val_at(&s->out, s, at),
						       cnt, NULL);
	return bpf_map_lookup_batch(s->map_fd, in, s->cursor_out, key_at(&s->out, s, at),
				    val_at(&s->out, s, at), cnt, NULL);
}

/* Dumps the map with the in/out cursor into consecutive result slots. */
static int lookup_batched(const struct pass *p, uint32_t *total)
{
	struct mb_state *s = p->s;
	uint32_t window = min_u32(p->batch, s->n), want, cnt;
	bool first = true;
	int err;

	*total = 0;
	for (;;) {
		/*
		 * Never more than one past the elements still expected: the
		 * kernel returns what there is either way, one extra shows a
		 * duplicate, and the results fit in n + 1 slots.
		 */
		want = min_u32(window, s->n - *total + 1);
		cnt = want;
		err = lookup_call(p, first, *total, &cnt);
		if (err == -ENOSPC && want < window)
			return mb_pass_fail(p, -EIO, "a bucket holds more than the %u elements still "
					    "expected", want);
		if (err == -ENOSPC) {
			err = grow_window(p, &window, cnt);
			if (err)
				return err;
			continue;
		}
		if (err && err != -ENOENT)
			return mb_syscall_fail(p, err, p->op == OP_LOOKUP_AND_DELETE ?
					       "BPF_MAP_LOOKUP_AND_DELETE_BATCH" :
					       "BPF_MAP_LOOKUP_BATCH");
		KERNEL_WROTE(key_at(&s->out, s, *total), (size_t)cnt * s->ksz);
		KERNEL_WROTE(val_at(&s->out, s, *total), (size_t)cnt * s->vsz);
		*total += cnt;	/* ENOENT: the end, after a last (maybe partial, maybe empty) batch */
		if (*total > s->n)
			return mb_pass_fail(p, -EIO, "more than the %u elements: a key came twice", s->n);
		if (err == -ENOENT)
			return 0;
		memcpy(s->cursor_in, s->cursor_out, s->cursz);
		first = false;
		if (interrupted())
			return -EINTR;
	}
}

/*
 * test_maps' one-by-one walk: get_next_key from the previous key, then
 * delete the previous key (the next is already known: a hash restarts
 * from its first bucket after a deleted key, which would make this
 * quadratic), then look the new key up.
 */
static int walk_one_by_one(const struct pass *p, uint32_t *total)
{
	struct mb_state *s = p->s;
	bool del = p->op != OP_LOOKUP, look = p->op != OP_DELETE;
	uint8_t *prev = NULL, *key;
	uint32_t i = 0;
	int err;

	for (;;) {
		key = key_at(&s->out, s, i);
		s->calls++;
		err = bpf_map_get_next_key(s->map_fd, prev, key);
		if (err == -ENOENT)
			break;
		if (err)
			return mb_syscall_fail(p, err, "BPF_MAP_GET_NEXT_KEY");
		s->calls += del && prev;
		if (del && prev && (err = bpf_map_delete_elem(s->map_fd, prev)))
			return mb_syscall_fail(p, err, "BPF_MAP_DELETE_ELEM");
		s->calls += look;
		if (look && (err = bpf_map_lookup_elem(s->map_fd, key, val_at(&s->out, s, i))))
			return mb_syscall_fail(p, err, "BPF_MAP_LOOKUP_ELEM");
		prev = key;
		if (++i > s->n)
			return mb_pass_fail(p, -EIO, "more than the %u elements: a key came twice", s->n);
		if (!(i & 4095) && interrupted())
			return -EINTR;
	}
	s->calls += del && prev;
	if (del && prev && (err = bpf_map_delete_elem(s->map_fd, prev)))
		return mb_syscall_fail(p, err, "BPF_MAP_DELETE_ELEM");
	*total = i;
	return 0;
}

static int run_op(const struct pass *p, uint32_t *total)
{
	if (!p->batch)
		return p->op == OP_UPDATE ? update_one_by_one(p, total) : walk_one_by_one(p, total);
	if (p->op == OP_UPDATE || p->op == OP_DELETE)
		return write_batched(p, total);
	return lookup_batched(p, total);
}

/* What mb_check_pass established, for -v: [op][one-by-one]. */
static const char *const check_words[NR_OPS][2] = {
	{ "census: exactly these keys, values as written",
	  "census: exactly these keys, values as written" },
	{ "each key returned once, values as written", "each key returned once, values as written" },
	{ "each key returned once, values as written; census: map empty",
	  "each key returned once, values as written; census: map empty" },
	{ "every batch deleted all its keys; census: map empty",
	  "each key walked and deleted once; census: map empty" },
};

/* One timed loop and its checks: ms and calls into vals[]. */
static int measure(struct mb_state *s, enum mb_op op, int way, double *vals)
{
	const struct mb_figs *f = &s->plan.figs[op][way];
	struct pass p = { .s = s, .op = op, .batch = mb_way_batch(s->a, way) };
	uint32_t total = 0;
	uint64_t t0, t1;
	int err;

	err = mb_prepare(&p, op == OP_UPDATE ? MAP_EMPTY : MAP_FULL);
	if (err)
		return err;
	s->fill = MAP_UNKNOWN;
	s->calls = 0;
	t0 = now_ns();
	err = run_op(&p, &total);
	t1 = now_ns();
	if (!err)
		err = mb_check_pass(&p, total);
	if (err)
		return err;
	s->checked += s->n;
	if (!s->passes)
		vmsg("map-batch: %s %s%.0u: %u elements checked: %s", mb_op_names[op],
		     p.batch ? "batch " : "one-by-one", p.batch, s->n, check_words[op][!p.batch]);
	s->fill = op == OP_UPDATE || op == OP_LOOKUP ? MAP_FULL : MAP_EMPTY;
	vals[f->ms] = (t1 - t0) / 1e6;
	vals[f->calls] = s->calls;
	return 0;
}

/* One pass: every op, every batch size, then one-by-one, whose time gives the speed-ups. */
int mb_run_once(struct bench_env *env, double *vals)
{
	struct mb_state *s = env->priv;
	const struct mb_plan *pl = &s->plan;
	int i, j, op, one = pl->nr_ways - 1, err;
	const struct mb_figs *f;

	s->retries = 0;
	s->checked = 0;
	for (i = 0; i < pl->nr_ops; i++) {
		op = pl->op_order[i];
		for (j = 0; j < pl->nr_ways; j++) {
			err = measure(s, op, j, vals);
			if (err)
				return err;
		}
		for (j = 0; j < one; j++) {
			f = &pl->figs[op][j];
			vals[f->speedup] = vals[f->ms] ? vals[pl->figs[op][one].ms] / vals[f->ms] : 0;
		}
	}
	vals[pl->retries] = s->retries;
	vals[pl->checked] = s->checked;
	s->all_retries += s->retries;
	s->passes++;
	return 0;
}
