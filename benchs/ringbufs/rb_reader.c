// SPDX-License-Identifier: GPL-2.0
/*
 * Readers of the BPF ring buffer: libbpf's ring_buffer (rb-libbpf) and
 * our own reader of the memory-mapped ring (rb-custom), which may also
 * read an overwrite-mode ring.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "rb.h"

/* What rb-custom found at its read position. */
enum rb_rec { REC_READ, REC_BUSY, REC_RECLAIMED };

int rb_epoll_add(struct rb_state *s, int fd, uint32_t idx)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.u32 = idx };

	if (s->epoll_fd < 0) {
		s->epoll_fd = epoll_create1(EPOLL_CLOEXEC);
		if (s->epoll_fd < 0)
			return -errno;
	}
	return epoll_ctl(s->epoll_fd, EPOLL_CTL_ADD, fd, &ev) ? -errno : 0;
}

/* ---- rb-libbpf ---- */

static int rb_libbpf_sample(void *ctx, void *data, size_t len)
{
	struct rb_state *s = ctx;
	int err = rb_check_sample(s, 0, data, len);

	if (err)
		return err;
	/* libbpf reads on while data keeps coming: leave when asked to stop */
	if (!s->draining && bench_stopping(s->env))
		return -ECANCELED;
	return 0;
}

int rb_libbpf_open(struct rb_state *s)
{
	s->rb = ring_buffer__new(bpf_map__fd(s->skel->maps.ringbuf), rb_libbpf_sample, s, NULL);
	return s->rb ? 0 : -errno;
}

/* ---- rb-custom ---- */

static unsigned long rb_record_len(uint32_t len)
{
	len &= ~BPF_RINGBUF_DISCARD_BIT;
	return (len + BPF_RINGBUF_HDR_SZ + 7) & ~7ul;
}

/* Byte offset of a struct bpf_ringbuf member in the running kernel, from its BTF. */
static long ringbuf_member_offset(const struct btf *btf, const char *name)
{
	const struct btf_member *m;
	const struct btf_type *t;
	int id, i;

	id = btf__find_by_name_kind(btf, "bpf_ringbuf", BTF_KIND_STRUCT);
	if (id < 0)
		return -1;
	t = btf__type_by_id(btf, id);
	m = btf_members(t);
	for (i = 0; i < btf_vlen(t); i++, m++)
		if (!strcmp(btf__name_by_offset(btf, m->name_off), name))
			return btf_member_bit_offset(t, i) / 8;
	return -1;
}

/*
 * Overwrite mode publishes overwrite_pos on the producer page, after
 * producer_pos; its offset there is read from the kernel's BTF rather
 * than assumed.
 */
int rb_find_overwrite_pos(struct rb_state *s)
{
	struct btf *btf = btf__load_vmlinux_btf();
	long prod, over, page = sysconf(_SC_PAGESIZE);

	if (!btf) {
		skipmsg("%s: no kernel BTF to locate the ring's overwrite_pos", s->env->bench->name);
		return -EOPNOTSUPP;
	}
	prod = ringbuf_member_offset(btf, "producer_pos");
	over = ringbuf_member_offset(btf, "overwrite_pos");
	btf__free(btf);
	if (prod < 0 || over <= prod || over - prod > page - (long)sizeof(long)) {
		skipmsg("%s: kernel BTF shows no overwrite_pos on the ring's producer page",
		       s->env->bench->name);
		return -EOPNOTSUPP;
	}
	s->over_off = over - prod;
	return 0;
}

/*
 * The ring's layout: a writable consumer page, then (read-only) the
 * producer page and the data pages, mapped twice in a row so a record
 * never needs to be joined across the end.
 */
int rb_custom_open(struct rb_state *s)
{
	int fd = bpf_map__fd(s->skel->maps.ringbuf);
	long page = sysconf(_SC_PAGESIZE);
	void *p;

	p = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return -errno;
	s->consumer_pos = p;
	s->prod_map_len = page + 2 * s->a->ringbuf_sz;
	p = mmap(NULL, s->prod_map_len, PROT_READ, MAP_SHARED, fd, page);
	if (p == MAP_FAILED) {
		s->prod_map = NULL;
		return -errno;
	}
	s->prod_map = p;
	s->producer_pos = p;
	if (s->a->overwrite)
		s->overwrite_pos = (const unsigned long *)((const char *)p + s->over_off);
	s->data = (const char *)p + page;
	s->mask = s->a->ringbuf_sz - 1;
	s->cons = __atomic_load_n(s->consumer_pos, __ATOMIC_ACQUIRE);
	return rb_epoll_add(s, fd, 0);
}

/* Overwrite mode: the oldest record still in the ring is at or after overwrite_pos. */
static unsigned long rb_oldest(struct rb_state *s, unsigned long cons)
{
	unsigned long over = __atomic_load_n(s->overwrite_pos, __ATOMIC_ACQUIRE);

	if ((long)(over - cons) <= 0)
		return cons;
	s->overwritten += (over - cons) / RB_RECORD_SZ;	/* all records are this size */
	return over;
}

/*
 * Overwrite mode (6.19+; cannot run on older kernels): writers never wait
 * for us, they reclaim the oldest records and move overwrite_pos past
 * them, then write into the space.  So a record is copied first and kept
 * only if overwrite_pos has not passed it meanwhile, as a seqlock reader
 * would.  The kernel moves overwrite_pos before it touches reclaimed
 * space, inside the reservation; that order is what this check relies on
 * (on weakly ordered CPUs a torn copy would still fail its checksum and
 * be reported, never counted).
 * Returns REC_READ with the record in *copy, REC_RECLAIMED, or -EBADMSG.
 */
static int rb_copy_stable(struct rb_state *s, unsigned long cons, const char *hdr,
			  uint32_t len, struct rb_sample *copy)
{
	unsigned long over;

	memcpy(copy, hdr + BPF_RINGBUF_HDR_SZ, sizeof(*copy));
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	/* not counted here: the caller's rb_oldest() counts them as it skips */
	over = __atomic_load_n(s->overwrite_pos, __ATOMIC_ACQUIRE);
	if ((long)(over - cons) > 0)
		return REC_RECLAIMED;
	if ((len & ~BPF_RINGBUF_DISCARD_BIT) != sizeof(*copy)) {
		bench_fail(s->env, -EBADMSG, "record of %u bytes in an overwrite ring",
			   len & ~BPF_RINGBUF_DISCARD_BIT);
		return -EBADMSG;
	}
	return REC_READ;
}

/*
 * The record at *cons: REC_READ (checked and counted, *cons moved past
 * it), REC_BUSY (still being written), REC_RECLAIMED (overwritten while
 * read), or -EBADMSG.  The acquire on the header pairs with the kernel's
 * commit.
 */
static int rb_custom_record(struct rb_state *s, unsigned long *cons)
{
	const char *hdr = s->data + (*cons & s->mask);
	uint32_t len = __atomic_load_n((const uint32_t *)hdr, __ATOMIC_ACQUIRE);
	const void *payload = hdr + BPF_RINGBUF_HDR_SZ;
	struct rb_sample copy;
	int ret;

	if (len & BPF_RINGBUF_BUSY_BIT)
		return REC_BUSY;
	if (s->a->overwrite) {
		ret = rb_copy_stable(s, *cons, hdr, len, &copy);
		if (ret != REC_READ)
			return ret;
		payload = &copy;
	}
	if (!(len & BPF_RINGBUF_DISCARD_BIT)) {
		ret = rb_check_sample(s, 0, payload, len);
		if (ret)
			return ret;
	}
	*cons += rb_record_len(len);
	return REC_READ;
}

/*
 * Reads every committed record up to producer_pos, then hands the space
 * back with one release of consumer_pos, and looks again: one
 * publication per drained batch, as the kernel bench's custom reader
 * does (that batching is what rb-custom measures against libbpf's
 * reader).  It stops at a record still being written, after publishing
 * what it read (the kernel bench's reader returns without publishing and
 * reads those records again on its next wake-up).  In overwrite mode
 * reading starts at the oldest record not yet reclaimed, and each record
 * is read through a copy (rb_copy_stable()).
 */
int rb_custom_consume(struct rb_state *s)
{
	unsigned long cons = s->cons, prod;
	bool again;
	int ret;

	do {
		ret = REC_READ;
		again = false;
		prod = __atomic_load_n(s->producer_pos, __ATOMIC_ACQUIRE);
		if (s->a->overwrite)
			cons = rb_oldest(s, cons);
		while ((long)(prod - cons) > 0) {
			ret = rb_custom_record(s, &cons);
			if (ret != REC_READ)
				break;
			again = true;
		}
		if (again)
			__atomic_store_n(s->consumer_pos, cons, __ATOMIC_RELEASE);
		if (ret == REC_RECLAIMED)
			again = true;	/* start again at the oldest record */
		else if (ret != REC_READ)
			again = false;
		if (!s->draining && bench_stopping(s->env))
			again = false;
	} while (again);
	s->cons = cons;
	return ret < 0 ? ret : 0;
}
