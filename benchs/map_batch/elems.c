// SPDX-License-Identifier: GPL-2.0
/*
 * map-batch: the elements a pass moves, and the untimed checks that the
 * pass moved exactly them: the results user space got back, and the
 * kernel's own census of the map.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "mb.h"
#include "map_batch.h"
#include "map_batch.skel.h"

#define PAGE_BYTES	4096

/* Keys: the first 4 bytes give the id (arrays: the index), the rest vary with it. */
static void make_key(const struct mb_state *s, uint32_t id, uint8_t *key)
{
	uint32_t head = mb_is_array(s->a) ? id : id + 1;
	size_t j;

	memcpy(key, &head, sizeof(head));
	for (j = sizeof(head); j < s->ksz; j++)
		key[j] = (uint8_t)(id * 13 + j);
}

/* Values: CPU c's copy starts with id + 2 + c (the census checks that), the rest varies. */
static void make_value(const struct mb_state *s, uint32_t id, uint8_t *val)
{
	uint8_t *copy;
	uint32_t head;
	size_t j;
	int c;

	for (c = 0; c < s->nr_copies; c++) {
		copy = val + c * s->vstride;
		head = id + 2 + c;
		memcpy(copy, &head, sizeof(head));
		for (j = sizeof(head); j < s->a->value_size; j++)
			copy[j] = (uint8_t)(id * 7 + j + c);
	}
}

static uint32_t key_id(const struct mb_state *s, const uint8_t *key)
{
	uint32_t head;

	memcpy(&head, key, sizeof(head));
	return mb_is_array(s->a) ? head : head - 1;	/* key 0: UINT32_MAX, out of range */
}

/* Compares what each CPU's copy holds; the padding to 8 bytes is not the value's. */
static bool value_equal(const struct mb_state *s, const uint8_t *a, const uint8_t *b)
{
	int c;

	for (c = 0; c < s->nr_copies; c++)
		if (memcmp(a + c * s->vstride, b + c * s->vstride, s->a->value_size))
			return false;
	return true;
}

/*
 * The kernel writes results into fresh memory: touching every page once
 * now keeps the first pass's page faults out of its timed loop.  One byte
 * a page, so valgrind still sees the rest as unwritten.
 */
static void prefault(uint8_t *p, size_t len)
{
	volatile uint8_t *v = p;
	size_t i;

	for (i = 0; i < len; i += PAGE_BYTES)
		v[i] = 0;
}

static int elem_buf_alloc(struct elem_buf *b, const struct mb_state *s, size_t cap)
{
	b->keys = malloc(cap * s->ksz);
	b->vals = malloc(cap * s->vsz);
	return b->keys && b->vals ? 0 : -ENOMEM;
}

int mb_alloc_elements(struct mb_state *s)
{
	uint32_t i;
	int err;

	err = elem_buf_alloc(&s->src, s, s->n);
	if (!err)	/* +1: room for the one element too many that shows a duplicate */
		err = elem_buf_alloc(&s->out, s, (size_t)s->n + 1);
	if (err)
		return err;
	s->seen = calloc(s->n, 1);
	s->cursor_in = calloc(1, s->cursz);
	s->cursor_out = calloc(1, s->cursz);
	if (mb_is_array(s->a))
		s->zero_vals = calloc(s->n, s->vsz);
	if (!s->seen || !s->cursor_in || !s->cursor_out || (mb_is_array(s->a) && !s->zero_vals))
		return -ENOMEM;
	for (i = 0; i < s->n; i++) {
		make_key(s, i, key_at(&s->src, s, i));
		memset(val_at(&s->src, s, i), 0, s->vsz);
		make_value(s, i, val_at(&s->src, s, i));
	}
	prefault(s->out.keys, ((size_t)s->n + 1) * s->ksz);
	prefault(s->out.vals, ((size_t)s->n + 1) * s->vsz);
	return 0;
}

void mb_free_elements(struct mb_state *s)
{
	free(s->src.keys);
	free(s->src.vals);
	free(s->out.keys);
	free(s->out.vals);
	free(s->zero_vals);
	free(s->seen);
	free(s->cursor_in);
	free(s->cursor_out);
}

/* The kernel's own count of the map: elements, sum of ids, mismatches. */
static int take_census(const struct pass *p, struct census *c)
{
	struct mb_state *s = p->s;
	unsigned char pkt[64] = { 0 };
	int err = test_run_pkt(s->census_fd, pkt, sizeof(pkt), 1, NULL);

	if (err)
		return mb_syscall_fail(p, err, "census BPF_PROG_TEST_RUN");
	*c = s->skel->bss->census;
	return 0;
}

static int census_expect(const struct pass *p, enum map_fill want)
{
	bool array = mb_is_array(p->s->a);
	uint64_t n = p->s->n, elems = want == MAP_FULL || array ? n : 0;
	uint64_t sum = elems ? n * (n - 1) / 2 : 0;
	struct census c = { 0 };
	int err = take_census(p, &c);

	if (err)
		return err;
	if (want == MAP_EMPTY && array)
		return c.elems == n ? 0 : mb_pass_fail(p, -EIO, "census: the array has %llu of %llu slots",
							(unsigned long long)c.elems, (unsigned long long)n);
	if (c.elems != elems || c.id_sum != sum || c.bad)
		return mb_pass_fail(p, -EIO, "census: the map holds %llu elements (expected %llu), "
				    "id sum %llu (expected %llu), %llu wrong keys or values",
				    (unsigned long long)c.elems, (unsigned long long)elems,
				    (unsigned long long)c.id_sum, (unsigned long long)sum,
				    (unsigned long long)c.bad);
	return 0;
}

/* Every element returned exactly once, with the value update wrote. */
static int verify_results(const struct pass *p, uint32_t total, bool values)
{
	struct mb_state *s = p->s;
	const uint8_t *key;
	uint32_t i, id;

	if (total != s->n)
		return mb_pass_fail(p, -EIO, "saw %u elements, expected exactly %u", total, s->n);
	memset(s->seen, 0, s->n);
	for (i = 0; i < total; i++) {
		key = key_at(&s->out, s, i);
		id = key_id(s, key);
		if (id >= s->n || memcmp(key, key_at(&s->src, s, id), s->ksz))
			return mb_pass_fail(p, -EIO, "result %u: a key that was never written", i);
		if (s->seen[id]++)
			return mb_pass_fail(p, -EIO, "result %u: element %u returned twice", i, id);
		if (values && !value_equal(s, val_at(&s->out, s, i), val_at(&s->src, s, id)))
			return mb_pass_fail(p, -EIO, "element %u: value differs from the one written", id);
	}
	return 0;
}

int mb_check_pass(const struct pass *p, uint32_t total)
{
	int err;

	switch (p->op) {
	case OP_UPDATE:
		return census_expect(p, MAP_FULL);
	case OP_LOOKUP:
		return verify_results(p, total, true);
	case OP_LOOKUP_AND_DELETE:
		err = verify_results(p, total, true);
		return err ? err : census_expect(p, MAP_EMPTY);
	case OP_DELETE:
		if (p->batch)	/* our keys: the batched loop counted each */
			err = total == p->s->n ? 0 : mb_pass_fail(p, -EIO, "deleted %u of %u", total,
								  p->s->n);
		else
			err = verify_results(p, total, false);
		return err ? err : census_expect(p, MAP_EMPTY);
	default:
		return -EINVAL;
	}
}

/* Brings the map to the state the op starts from, in one untimed batch call. */
int mb_prepare(const struct pass *p, enum map_fill want)
{
	LIBBPF_OPTS(bpf_map_batch_opts, opts, .elem_flags = BPF_ANY);
	struct mb_state *s = p->s;
	uint32_t cnt = s->n;
	int err;

	if (s->fill == want)
		return 0;
	if (want == MAP_FULL || mb_is_array(s->a))
		err = bpf_map_update_batch(s->map_fd, s->src.keys,
					   want == MAP_FULL ? s->src.vals : s->zero_vals, &cnt, &opts);
	else
		err = bpf_map_delete_batch(s->map_fd, s->src.keys, &cnt, NULL);
	if (err)
		return mb_pass_fail(p, err, "preparing the map: %s", strerror(-err));
	err = census_expect(p, want);
	if (!err)
		s->fill = want;
	return err;
}
