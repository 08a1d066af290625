// SPDX-License-Identifier: GPL-2.0
/*
 * Readers of the perf buffer: libbpf's perf_buffer (pb-libbpf) and our
 * own reader of the per-CPU memory-mapped rings (pb-custom).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <linux/perf_event.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "rb.h"

/*
 * The kernel bench also sets sample_period to the sample rate when
 * sampled; bpf_perf_event_output() writes every record whatever the
 * period, so only wakeup_events changes what happens.
 */
static void pb_attr(const struct rb_args *a, struct perf_event_attr *attr)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = PERF_TYPE_SOFTWARE;
	attr->config = PERF_COUNT_SW_BPF_OUTPUT;
	attr->sample_type = PERF_SAMPLE_RAW;
	attr->sample_period = 1;
	/* sampled: the kernel wakes the reader every N records */
	attr->wakeup_events = a->sampled ? a->sample_rate : 1;
}

struct pb_sample_rec {
	struct perf_event_header hdr;
	__u32 size;
	char data[];
};

struct pb_lost_rec {
	struct perf_event_header hdr;
	__u64 id;
	__u64 lost;
};

static int pb_record(struct rb_state *s, int ring, const struct perf_event_header *e)
{
	const struct pb_sample_rec *r = (const void *)e;

	if (e->type == PERF_RECORD_SAMPLE) {
		if (e->size < sizeof(*r) || r->size > e->size - sizeof(*r)) {
			bench_fail(s->env, -EBADMSG, "malformed perf sample record");
			return -EBADMSG;
		}
		return rb_check_sample(s, ring, r->data, r->size);
	}
	if (e->type == PERF_RECORD_LOST && e->size >= sizeof(struct pb_lost_rec))
		s->chk.perf_lost += ((const struct pb_lost_rec *)e)->lost;
	return 0;
}

static enum bpf_perf_event_ret pb_libbpf_event(void *ctx, int cpu, struct perf_event_header *e)
{
	return pb_record(ctx, cpu, e) ? LIBBPF_PERF_EVENT_ERROR : LIBBPF_PERF_EVENT_CONT;
}

int pb_libbpf_open(struct rb_state *s)
{
	struct perf_event_attr attr;

	pb_attr(s->a, &attr);
	s->pb = perf_buffer__new_raw(bpf_map__fd(s->skel->maps.perfbuf), s->a->perfbuf_sz, &attr,
				     pb_libbpf_event, s, NULL);
	return s->pb ? 0 : -errno;
}

static int pb_ring_open(struct rb_state *s, int cpu, int map_fd)
{
	struct pb_ring *r = &s->rings[cpu];
	long page = sysconf(_SC_PAGESIZE);
	struct perf_event_attr attr;
	void *p;

	pb_attr(s->a, &attr);
	r->fd = syscall(__NR_perf_event_open, &attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	if (r->fd < 0)
		return -errno;
	r->size = s->a->perfbuf_sz * page;
	r->map_len = page + r->size;
	p = mmap(NULL, r->map_len, PROT_READ | PROT_WRITE, MAP_SHARED, r->fd, 0);
	if (p == MAP_FAILED)
		return -errno;
	r->page = p;
	r->data = (const char *)p + page;
	if (bpf_map_update_elem(map_fd, &cpu, &r->fd, BPF_ANY))
		return -errno;
	if (ioctl(r->fd, PERF_EVENT_IOC_ENABLE, 0))
		return -errno;
	return rb_epoll_add(s, r->fd, cpu);
}

/* One perf event per online CPU, its ring mapped, its fd in the map slot of its CPU. */
int pb_custom_open(struct rb_state *s)
{
	int map_fd = bpf_map__fd(s->skel->maps.perfbuf);
	int cpu, err;

	s->nr_rings = s->chk.nr_rings;
	s->rings = calloc(s->nr_rings, sizeof(*s->rings));
	s->wrap_buf = malloc(PB_WRAP_MAX);
	if (!s->rings || !s->wrap_buf)
		return -ENOMEM;
	for (cpu = 0; cpu < s->nr_rings; cpu++)
		s->rings[cpu].fd = -1;
	for (cpu = 0; cpu < s->nr_rings; cpu++) {
		if (!cpu_is_online(cpu))
			continue;
		err = pb_ring_open(s, cpu, map_fd);
		if (err)
			return err;
	}
	return 0;
}

static void ring_copy(void *dst, const struct pb_ring *r, uint64_t off, size_t len)
{
	size_t first = len;

	if (off + len > r->size)
		first = r->size - off;
	memcpy(dst, r->data + off, first);
	memcpy((char *)dst + first, r->data, len - first);
}

/*
 * data_head is read with acquire (the kernel's records are complete up
 * to it); data_tail is released once, after every record up to that
 * head was read, as the kernel bench's reader does.  A record that runs
 * past the end of the ring is joined in wrap_buf.
 */
int pb_custom_ring(struct rb_state *s, int cpu)
{
	struct pb_ring *r = &s->rings[cpu];
	uint64_t head, tail = r->page->data_tail, off;
	const struct perf_event_header *e;
	struct perf_event_header h;
	int err = 0;

	head = __atomic_load_n(&r->page->data_head, __ATOMIC_ACQUIRE);
	while (tail != head && !err) {
		off = tail & (r->size - 1);
		ring_copy(&h, r, off, sizeof(h));
		if (h.size < sizeof(h) || h.size > head - tail) {
			bench_fail(s->env, -EBADMSG, "corrupt perf record on CPU %d", cpu);
			err = -EBADMSG;
			break;
		}
		if (off + h.size <= r->size) {
			e = (const void *)(r->data + off);
		} else {
			ring_copy(s->wrap_buf, r, off, h.size);
			e = (const void *)s->wrap_buf;
		}
		err = pb_record(s, cpu, e);
		tail += h.size;
	}
	__atomic_store_n(&r->page->data_tail, tail, __ATOMIC_RELEASE);
	return err;
}
