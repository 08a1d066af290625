// SPDX-License-Identifier: GPL-2.0
/*
 * Ring buffer and perf buffer (seed 001, run_bench_ringbufs.sh).
 *
 * BPF producers write batches of 8-byte samples; one user-space consumer
 * reads them: through libbpf (rb-libbpf, pb-libbpf) or through our own
 * reader of the memory-mapped rings (rb-custom, pb-custom).  hits are the
 * samples the consumer received and verified (sequence per stream and
 * checksum), drops the writes the BPF side saw fail.  With
 * --rb-bench-producer there is no consumer and hits are samples written.
 *
 * The kernel bench fires one batch per getpgid(); we prefer the raw-tp
 * trigger (getpgid() again) for the same one-syscall-per-batch shape.
 * A test-run syscall has a fixed cost (milliseconds for XDP here), so
 * when it is used, one syscall runs many batches (see test_run_repeat()).
 */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <linux/perf_event.h>
#include <linux/types.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "bench.h"
#include "cli.h"
#include "probe.h"
#include "report.h"
#include "skel_util.h"
#include "ringbuf.h"
#include "ringbuf.skel.h"

#ifndef BPF_F_RB_OVERWRITE
#define BPF_F_RB_OVERWRITE	(1U << 19)	/* 6.19 */
#endif

#define RB_RECORD_SZ	16	/* ring buffer: 8-byte header + sample */
#define PB_RECORD_SZ	24	/* perf: header, u32 size, sample padded to 8 bytes */
#define POLL_MS		100	/* consumers notice a stop within this */
#define TEST_RUN_SAMPLES (1u << 20)	/* per test-run syscall, parallel mode */
#define PB_WRAP_MAX	65536	/* perf record sizes are u16 */

enum rb_kind { RB_LIBBPF, RB_CUSTOM, PB_LIBBPF, PB_CUSTOM };

static bool opt_b2b, opt_use_output, opt_sampled, opt_overwrite, opt_bench_producer;
static uint64_t opt_batch_cnt, opt_sample_rate, opt_ringbuf_sz, opt_perfbuf_sz;
static uint64_t opt_total, opt_corrupt_at;

#define OPT_COMMON							\
	{ "rb-b2b", 0, OPT_FLAG, &opt_b2b, NULL, 0, 0, NULL, NULL,	\
	  "back-to-back: the consumer writes a batch, then reads it" },	\
	{ "rb-batch-cnt", 0, OPT_UINT, &opt_batch_cnt, "500", 1, RB_BATCH_MAX, NULL, "N", \
	  "samples per program run" },					\
	{ "rb-sampled", 0, OPT_FLAG, &opt_sampled, NULL, 0, 0, NULL, NULL, \
	  "wake the consumer only every --rb-sample-rate samples" },	\
	{ "rb-sample-rate", 0, OPT_UINT, &opt_sample_rate, "500", 1, 1000000, NULL, "N", \
	  "samples per wake-up with --rb-sampled" },			\
	{ "rb-total", 0, OPT_UINT, &opt_total, "0", 0, UINT64_MAX / 2, NULL, "N", \
	  "testing: producers stop after N samples in all (0: never)" },	\
	{ "rb-corrupt-seq", 0, OPT_UINT, &opt_corrupt_at, "0", 0, UINT32_MAX, NULL, "N", \
	  "testing: spoil the checksum of producer 0's sample N-1 (0: none)" }

static const struct opt_def rb_opts[] = {
	OPT_COMMON,
	{ "rb-use-output", 0, OPT_FLAG, &opt_use_output, NULL, 0, 0, NULL, NULL,
	  "bpf_ringbuf_output() instead of reserve + submit" },
	{ "rb-overwrite", 0, OPT_FLAG, &opt_overwrite, NULL, 0, 0, NULL, NULL,
	  "BPF_F_RB_OVERWRITE ring: writers reclaim the oldest records (6.19+)" },
	{ "rb-bench-producer", 0, OPT_FLAG, &opt_bench_producer, NULL, 0, 0, NULL, NULL,
	  "producers only, no consumer: hits are samples written" },
	{ "ringbuf-sz", 0, OPT_UINT, &opt_ringbuf_sz, "524288", 4096, 1ull << 30, NULL, "BYTES",
	  "ring buffer size (power of 2, page multiple)" },
	{ NULL },
};

static const struct opt_def pb_opts[] = {
	OPT_COMMON,
	{ "perfbuf-sz", 0, OPT_UINT, &opt_perfbuf_sz, "128", 1, 1u << 16, NULL, "PAGES",
	  "perf buffer pages per CPU (power of 2)" },
	{ NULL },
};

static const struct metric_def rb_metrics[] = {
	{ "hits", "M/s", METRIC_SAMPLED, .prod_unit = "M" },
	{ "drops", "M/s", METRIC_SAMPLED },
};

/* One CPU's perf ring, mapped by pb-custom. */
struct pb_ring {
	struct perf_event_mmap_page *page;
	const char *data;
	uint64_t size;
	size_t map_len;
	int fd;
};

/* What the consumer knows of the samples so far. */
struct rb_check {
	uint32_t *next;		/* [ring][stream]: the least seq still acceptable */
	int nr_streams, nr_rings;
	uint64_t consumed, gaps, digest, perf_lost;
};

struct rb_state {
	enum rb_kind kind;
	struct bench_env *env;
	struct ringbuf_bpf *skel;
	bool ready, draining;
	uint32_t repeat;	/* test-run: program runs per syscall */
	atomic_int producers_running;
	_Atomic uint64_t consumed;	/* published by the consumer for measure() */
	struct delta hits, drops;
	struct rb_check chk;
	int epoll_fd;
	/* libbpf consumers */
	struct ring_buffer *rb;
	struct perf_buffer *pb;
	/* rb-custom */
	unsigned long *consumer_pos;
	void *prod_map;
	size_t prod_map_len;
	const unsigned long *producer_pos, *overwrite_pos;
	const char *data;
	unsigned long mask, cons;
	long over_off;
	uint64_t overwritten;
	/* pb-custom */
	struct pb_ring *rings;
	int nr_rings;
	char *wrap_buf;
};

/* Kept for report_final, which runs after teardown. */
static struct {
	bool valid;
	uint64_t produced, dropped, consumed, gaps, overwritten, digest;
} totals;

static bool is_rb(const struct rb_state *s)
{
	return s->kind == RB_LIBBPF || s->kind == RB_CUSTOM;
}

static bool power_of_2(uint64_t v)
{
	return v && !(v & (v - 1));
}

static uint64_t mix64(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

/* ---- checking what arrives ---- */

static int check_init(struct rb_state *s)
{
	struct rb_check *c = &s->chk;

	c->nr_streams = s->env->nr_producers > 0 ? s->env->nr_producers : 1;
	c->nr_rings = is_rb(s) ? 1 : libbpf_num_possible_cpus();
	if (c->nr_rings <= 0)
		return c->nr_rings ? c->nr_rings : -EINVAL;
	c->next = calloc((size_t)c->nr_rings * c->nr_streams, sizeof(*c->next));
	return c->next ? 0 : -ENOMEM;
}

/*
 * Within one ring a stream's samples arrive in the order they were
 * written: seq only grows (gaps are drops or overwritten records); going
 * back means duplication or misordering, a bad check means corruption.
 */
static int check_sample(struct rb_state *s, int ring, const void *data, size_t len)
{
	struct rb_check *c = &s->chk;
	struct rb_sample smp;
	uint32_t *next;
	int32_t ahead;

	if (len < sizeof(smp) || ring < 0 || ring >= c->nr_rings) {
		bench_fail(s->env, -EBADMSG, "bad record: %zu bytes in ring %d", len, ring);
		return -EBADMSG;
	}
	memcpy(&smp, data, sizeof(smp));
	if (smp.check != rb_sample_check(smp.seq, smp.stream)) {
		bench_fail(s->env, -EBADMSG, "sample checksum mismatch (stream %u, seq %u)",
			   smp.stream, smp.seq);
		return -EBADMSG;
	}
	if (smp.stream >= c->nr_streams) {
		bench_fail(s->env, -EBADMSG, "sample of unknown stream %u", smp.stream);
		return -EBADMSG;
	}
	next = &c->next[(size_t)ring * c->nr_streams + smp.stream];
	ahead = (int32_t)(smp.seq - *next);
	if (ahead < 0) {
		bench_fail(s->env, -EBADMSG, "stream %u: seq %u after %u (duplicate or out of order)",
			   smp.stream, smp.seq, *next - 1);
		return -EBADMSG;
	}
	c->gaps += ahead;
	*next = smp.seq + 1;
	c->digest += mix64(((uint64_t)smp.stream << 32) | smp.seq);
	atomic_store_explicit(&s->consumed, ++c->consumed, memory_order_relaxed);
	return 0;
}

/* ---- rb-libbpf ---- */

static int rb_libbpf_sample(void *ctx, void *data, size_t len)
{
	struct rb_state *s = ctx;
	int err = check_sample(s, 0, data, len);

	if (err)
		return err;
	/* libbpf reads on while data keeps coming: leave when asked to stop */
	if (!s->draining && bench_stopping(s->env))
		return -ECANCELED;
	return 0;
}

static int rb_libbpf_open(struct rb_state *s)
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
static int find_overwrite_pos(struct rb_state *s)
{
	struct btf *btf = btf__load_vmlinux_btf();
	long prod, over, page = sysconf(_SC_PAGESIZE);

	if (!btf) {
		errmsg("%s: no kernel BTF to locate the ring's overwrite_pos", s->env->bench->name);
		return -EOPNOTSUPP;
	}
	prod = ringbuf_member_offset(btf, "producer_pos");
	over = ringbuf_member_offset(btf, "overwrite_pos");
	btf__free(btf);
	if (prod < 0 || over <= prod || over - prod > page - (long)sizeof(long)) {
		errmsg("%s: kernel BTF shows no overwrite_pos on the ring's producer page",
		       s->env->bench->name);
		return -EOPNOTSUPP;
	}
	s->over_off = over - prod;
	return 0;
}

static int epoll_add(struct rb_state *s, int fd, uint32_t idx)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.u32 = idx };

	if (s->epoll_fd < 0) {
		s->epoll_fd = epoll_create1(EPOLL_CLOEXEC);
		if (s->epoll_fd < 0)
			return -errno;
	}
	return epoll_ctl(s->epoll_fd, EPOLL_CTL_ADD, fd, &ev) ? -errno : 0;
}

/*
 * The ring's layout: a writable consumer page, then (read-only) the
 * producer page and the data pages, mapped twice in a row so a record
 * never needs to be joined across the end.
 */
static int rb_custom_open(struct rb_state *s)
{
	int fd = bpf_map__fd(s->skel->maps.ringbuf);
	long page = sysconf(_SC_PAGESIZE);
	void *p;

	p = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return -errno;
	s->consumer_pos = p;
	s->prod_map_len = page + 2 * opt_ringbuf_sz;
	p = mmap(NULL, s->prod_map_len, PROT_READ, MAP_SHARED, fd, page);
	if (p == MAP_FAILED) {
		s->prod_map = NULL;
		return -errno;
	}
	s->prod_map = p;
	s->producer_pos = p;
	if (opt_overwrite)
		s->overwrite_pos = (const unsigned long *)((const char *)p + s->over_off);
	s->data = (const char *)p + page;
	s->mask = opt_ringbuf_sz - 1;
	s->cons = __atomic_load_n(s->consumer_pos, __ATOMIC_ACQUIRE);
	return epoll_add(s, fd, 0);
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
 * Returns 0 with the record in *copy, 1 if it was reclaimed while read,
 * or -EBADMSG.
 */
static int rb_copy_stable(struct rb_state *s, unsigned long cons, const char *hdr,
			  uint32_t len, struct rb_sample *copy)
{
	memcpy(copy, hdr + BPF_RINGBUF_HDR_SZ, sizeof(*copy));
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	if (rb_oldest(s, cons) != cons)
		return 1;
	if ((len & ~BPF_RINGBUF_DISCARD_BIT) != sizeof(*copy)) {
		bench_fail(s->env, -EBADMSG, "record of %u bytes in an overwrite ring",
			   len & ~BPF_RINGBUF_DISCARD_BIT);
		return -EBADMSG;
	}
	return 0;
}

/*
 * Reads committed records up to the first one still being written.  The
 * acquire on the header pairs with the kernel's commit, the release of
 * consumer_pos hands the space back to the producers.  In overwrite mode
 * reading starts at the oldest record not yet reclaimed, and each record
 * is read through a copy (rb_copy_stable()).
 */
static int rb_custom_consume(struct rb_state *s)
{
	unsigned long cons = s->cons, prod;
	struct rb_sample copy;
	bool progress = true;
	const void *payload;
	const char *hdr;
	uint32_t len;
	int err = 0, ret;

	while (progress && !err) {
		progress = false;
		prod = __atomic_load_n(s->producer_pos, __ATOMIC_ACQUIRE);
		if (opt_overwrite)
			cons = rb_oldest(s, cons);
		while ((long)(prod - cons) > 0) {
			hdr = s->data + (cons & s->mask);
			len = __atomic_load_n((const uint32_t *)hdr, __ATOMIC_ACQUIRE);
			if (len & BPF_RINGBUF_BUSY_BIT)
				goto out;
			payload = hdr + BPF_RINGBUF_HDR_SZ;
			if (opt_overwrite) {
				ret = rb_copy_stable(s, cons, hdr, len, &copy);
				if (ret < 0) {
					err = ret;
					goto out;
				}
				if (ret) {	/* reclaimed while we read: start again */
					progress = true;
					break;
				}
				payload = &copy;
			}
			if (!(len & BPF_RINGBUF_DISCARD_BIT))
				err = check_sample(s, 0, payload, len);
			cons += rb_record_len(len);
			__atomic_store_n(s->consumer_pos, cons, __ATOMIC_RELEASE);
			if (err)
				goto out;
			progress = true;
		}
		if (!s->draining && bench_stopping(s->env))
			break;
	}
out:
	s->cons = cons;
	return err;
}

/* ---- perf buffer ---- */

static void pb_attr(struct perf_event_attr *attr)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = PERF_TYPE_SOFTWARE;
	attr->config = PERF_COUNT_SW_BPF_OUTPUT;
	attr->sample_type = PERF_SAMPLE_RAW;
	attr->sample_period = 1;
	/* sampled: the kernel wakes the reader every N records */
	attr->wakeup_events = opt_sampled ? opt_sample_rate : 1;
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
		return check_sample(s, ring, r->data, r->size);
	}
	if (e->type == PERF_RECORD_LOST && e->size >= sizeof(struct pb_lost_rec))
		s->chk.perf_lost += ((const struct pb_lost_rec *)e)->lost;
	return 0;
}

static enum bpf_perf_event_ret pb_libbpf_event(void *ctx, int cpu, struct perf_event_header *e)
{
	return pb_record(ctx, cpu, e) ? LIBBPF_PERF_EVENT_ERROR : LIBBPF_PERF_EVENT_CONT;
}

static int pb_libbpf_open(struct rb_state *s)
{
	struct perf_event_attr attr;

	pb_attr(&attr);
	s->pb = perf_buffer__new_raw(bpf_map__fd(s->skel->maps.perfbuf), opt_perfbuf_sz, &attr,
				     pb_libbpf_event, s, NULL);
	return s->pb ? 0 : -errno;
}

static int pb_ring_open(struct rb_state *s, int cpu, int map_fd)
{
	struct pb_ring *r = &s->rings[cpu];
	long page = sysconf(_SC_PAGESIZE);
	struct perf_event_attr attr;
	void *p;
	int err;

	pb_attr(&attr);
	r->fd = syscall(__NR_perf_event_open, &attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
	if (r->fd < 0)
		return -errno;
	r->size = opt_perfbuf_sz * page;
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
	err = epoll_add(s, r->fd, cpu);
	return err;
}

/* One perf event per online CPU, its ring mapped, its fd in the map slot of its CPU. */
static int pb_custom_open(struct rb_state *s)
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
 * to it); data_tail is released only after we are done with the records
 * it frees.  A record that runs past the end of the ring is joined in
 * wrap_buf.
 */
static int pb_custom_ring(struct rb_state *s, int cpu)
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

/* ---- the consumer thread ---- */

static int custom_ring(struct rb_state *s, int idx)
{
	return s->kind == RB_CUSTOM ? rb_custom_consume(s) : pb_custom_ring(s, idx);
}

static int custom_poll(struct rb_state *s, int timeout_ms)
{
	struct epoll_event ev[64];
	int i, n, err = 0;

	n = epoll_wait(s->epoll_fd, ev, ARRAY_SIZE(ev), timeout_ms);
	if (n < 0)
		return errno == EINTR ? 0 : -errno;
	for (i = 0; i < n && !err; i++)
		err = custom_ring(s, ev[i].data.u32);
	return err;
}

static int consumer_poll(struct rb_state *s, int timeout_ms)
{
	int ret;

	switch (s->kind) {
	case RB_LIBBPF:
		ret = ring_buffer__poll(s->rb, timeout_ms);
		break;
	case PB_LIBBPF:
		ret = perf_buffer__poll(s->pb, timeout_ms);
		break;
	default:
		ret = custom_poll(s, timeout_ms);
		break;
	}
	return ret == -EINTR || ret > 0 ? 0 : ret;
}

/* Everything still in the rings, without waiting for a wake-up. */
static int consumer_drain(struct rb_state *s)
{
	int i, ret = 0;

	switch (s->kind) {
	case RB_LIBBPF:
		ret = ring_buffer__consume(s->rb);
		break;
	case PB_LIBBPF:
		ret = perf_buffer__consume(s->pb);
		break;
	case RB_CUSTOM:
		ret = rb_custom_consume(s);
		break;
	case PB_CUSTOM:
		for (i = 0; i < s->nr_rings && !ret; i++)
			if (s->rings[i].page)
				ret = pb_custom_ring(s, i);
		break;
	}
	return ret > 0 ? 0 : ret;
}

static bool limit_reached(struct rb_state *s)
{
	return opt_total && __atomic_load_n(&s->skel->bss->claimed, __ATOMIC_RELAXED) >= opt_total;
}

/* Runs the producer program once (raw-tp) or s->repeat times (test-run) as stream. */
static int fire(struct rb_state *s, uint16_t stream)
{
	unsigned char pkt[64] = { 0 };

	if (s->env->trig.kind == TRIG_RAW_TP) {
		syscall(__NR_getpgid, (pid_t)stream);	/* the program reads the argument */
		return 0;
	}
	memcpy(pkt, &stream, sizeof(stream));
	return test_run_pkt(s->env->trig.prog_fd, pkt, sizeof(pkt), s->repeat, NULL);
}

static void fire_failed(struct bench_env *env, int err)
{
	bench_fail(env, err, "trigger %s failed: %s", trigger_names[env->trig.kind], strerror(-err));
}

static void rb_producer(struct bench_env *env, int idx)
{
	struct rb_state *s = env->priv;
	int err;

	/* back-to-back: the consumer writes its own batches */
	while (!opt_b2b && !bench_stopping(env)) {
		if (limit_reached(s)) {
			usleep(1000);
			continue;
		}
		err = fire(s, idx);
		if (err) {
			fire_failed(env, err);
			break;
		}
	}
	atomic_fetch_sub(&s->producers_running, 1);
}

/* Producers see the stop within one trigger; bounded in case one never started. */
static void wait_producers(struct rb_state *s)
{
	uint64_t until = now_ns() + 2000000000ull;

	while (atomic_load(&s->producers_running) > 0 && now_ns() < until)
		usleep(100);
}

static void rb_consumer(struct bench_env *env, int idx)
{
	struct rb_state *s = env->priv;
	int err = 0;

	while (!err && !bench_stopping(env)) {
		if (opt_b2b && !limit_reached(s)) {
			err = fire(s, 0);
			if (err) {
				fire_failed(env, err);
				return;
			}
			err = consumer_poll(s, 0);
		} else {
			err = consumer_poll(s, POLL_MS);
		}
	}
	if (err && !(err == -ECANCELED && bench_stopping(env))) {
		bench_fail(env, err, "consuming failed: %s", strerror(-err));
		return;
	}
	/* the last samples, so that totals are exact */
	wait_producers(s);
	s->draining = true;
	err = consumer_drain(s);
	if (err)
		bench_fail(env, err, "consuming failed: %s", strerror(-err));
}

/* ---- setup ---- */

static int rb_validate(struct bench_env *env)
{
	const char *name = env->bench->name;
	long page = sysconf(_SC_PAGESIZE);
	bool rb = env->bench->opts == rb_opts;

	if (opt_bench_producer && env->nr_consumers) {
		errmsg("%s: --rb-bench-producer runs no consumer (drop -c%d)", name,
		       env->nr_consumers);
		return -EINVAL;
	}
	if (opt_bench_producer && opt_b2b) {
		errmsg("%s: --rb-b2b needs the consumer that --rb-bench-producer leaves out", name);
		return -EINVAL;
	}
	if (!opt_bench_producer && env->nr_consumers != 1) {
		errmsg("%s: needs exactly one consumer (-c1), got -c%d", name, env->nr_consumers);
		return -EINVAL;
	}
	if (rb && (!power_of_2(opt_ringbuf_sz) || opt_ringbuf_sz % page)) {
		errmsg("%s: --ringbuf-sz %llu is not a power of 2 multiple of the page size (%ld)",
		       name, (unsigned long long)opt_ringbuf_sz, page);
		return -EINVAL;
	}
	if (!rb && !power_of_2(opt_perfbuf_sz)) {
		errmsg("%s: --perfbuf-sz %llu is not a power of 2", name,
		       (unsigned long long)opt_perfbuf_sz);
		return -EINVAL;
	}
	if (rb && opt_overwrite && !opt_bench_producer && !strcmp(name, "rb-libbpf")) {
		errmsg("%s: --rb-overwrite needs rb-custom or --rb-bench-producer "
		       "(libbpf's ring_buffer cannot read an overwrite-mode ring)", name);
		return -EINVAL;
	}
	return 0;
}

static int overwrite_check(struct rb_state *s)
{
	char why[128] = "";

	if (probe_feature(PROBE_RB_OVERWRITE, why, sizeof(why)) != 1) {
		errmsg("%s: this kernel lacks ring buffer overwrite mode (BPF_F_RB_OVERWRITE, 6.19+): %s",
		       s->env->bench->name, why);
		return -EOPNOTSUPP;
	}
	return opt_bench_producer ? 0 : find_overwrite_pos(s);
}

/* Program runs per test-run syscall: a back-to-back batch must fit the ring. */
static uint32_t test_run_repeat(struct rb_state *s)
{
	uint64_t ring = is_rb(s) ? opt_ringbuf_sz / RB_RECORD_SZ :
		opt_perfbuf_sz * sysconf(_SC_PAGESIZE) / PB_RECORD_SZ;
	uint64_t runs = opt_b2b ? ring / 4 / opt_batch_cnt : TEST_RUN_SAMPLES / opt_batch_cnt;

	return runs ? runs : 1;
}

static void choose_maps(struct rb_state *s)
{
	struct ringbuf_bpf *k = s->skel;

	bpf_program__set_autoload(k->progs.rb_test_run, false);
	bpf_program__set_autoload(k->progs.rb_raw_tp, false);
	bpf_program__set_autoload(k->progs.pb_test_run, false);
	bpf_program__set_autoload(k->progs.pb_raw_tp, false);
	if (is_rb(s)) {
		bpf_map__set_max_entries(k->maps.ringbuf, opt_ringbuf_sz);
		if (opt_overwrite)
			bpf_map__set_map_flags(k->maps.ringbuf, BPF_F_RB_OVERWRITE);
		bpf_map__set_autocreate(k->maps.perfbuf, false);
	} else {
		bpf_map__set_autocreate(k->maps.ringbuf, false);
	}
}

static int choose_trigger(struct bench_env *env, struct rb_state *s)
{
	struct ringbuf_bpf *k = s->skel;
	struct trigger_progs progs = {
		.test_run = is_rb(s) ? k->progs.rb_test_run : k->progs.pb_test_run,
		.raw_tp = is_rb(s) ? k->progs.rb_raw_tp : k->progs.pb_raw_tp,
	};

	/* one getpgid() per batch, as the kernel bench; see the top of the file */
	if (env->opts->trigger == TRIG_AUTO && probe_feature(PROBE_TRIG_RAW_TP, NULL, 0) == 1)
		progs.test_run = NULL;
	return trigger_prepare(env, &progs);
}

static void set_rodata(struct rb_state *s)
{
	struct ringbuf_bpf *k = s->skel;

	BENCH_SKEL_INIT(k);
	k->rodata->batch_cnt = opt_batch_cnt;
	k->rodata->use_output = is_rb(s) && opt_use_output;
	if (is_rb(s) && opt_sampled)
		k->rodata->wakeup_data_size = opt_sample_rate * RB_RECORD_SZ;
	k->rodata->total_limit = opt_total;
	k->rodata->corrupt_at = opt_corrupt_at;
}

static int open_consumer(struct rb_state *s)
{
	switch (s->kind) {
	case RB_LIBBPF:
		return rb_libbpf_open(s);
	case RB_CUSTOM:
		return rb_custom_open(s);
	case PB_LIBBPF:
		return pb_libbpf_open(s);
	default:
		return pb_custom_open(s);
	}
}

static int rb_setup(struct bench_env *env, enum rb_kind kind)
{
	struct rb_state *s = calloc(1, sizeof(*s));
	int err;

	if (!s)
		return -ENOMEM;
	env->priv = s;
	s->kind = kind;
	s->env = env;
	s->epoll_fd = -1;
	atomic_init(&s->producers_running, env->nr_producers);
	memset(&totals, 0, sizeof(totals));
	if (opt_overwrite) {
		err = overwrite_check(s);
		if (err)
			return err;
	}
	s->skel = ringbuf_bpf__open();
	if (!s->skel)
		return -errno;
	set_rodata(s);
	choose_maps(s);
	err = choose_trigger(env, s);
	if (err)
		return err;
	err = ringbuf_bpf__load(s->skel);
	if (err)
		return err;
	s->repeat = test_run_repeat(s);
	env->trig.repeat = s->repeat;	/* ours: no calibration runs that would write samples */
	err = trigger_attach(&env->trig);
	if (!err)
		err = check_init(s);
	if (!err && !opt_bench_producer)
		err = open_consumer(s);
	s->ready = !err;
	return err;
}

static int rb_libbpf_setup(struct bench_env *env)
{
	return rb_setup(env, RB_LIBBPF);
}

static int rb_custom_setup(struct bench_env *env)
{
	return rb_setup(env, RB_CUSTOM);
}

static int pb_libbpf_setup(struct bench_env *env)
{
	return rb_setup(env, PB_LIBBPF);
}

static int pb_custom_setup(struct bench_env *env)
{
	return rb_setup(env, PB_CUSTOM);
}

static void rb_measure(struct bench_env *env, uint64_t elapsed_ns, double *vals)
{
	struct rb_state *s = env->priv;
	const struct bench_slot *slots = s->skel->bss->bench_slots;
	uint64_t hits;

	if (opt_bench_producer)	/* attempts less failures */
		hits = slots_sum(slots, SLOT_HITS) - slots_sum(slots, SLOT_DROPS);
	else
		hits = atomic_load_explicit(&s->consumed, memory_order_relaxed);
	vals[0] = mops(delta_next(&s->hits, hits), elapsed_ns);
	vals[1] = mops(delta_next(&s->drops, slots_sum(slots, SLOT_DROPS)), elapsed_ns);
}

static void keep_totals(struct rb_state *s)
{
	const struct bench_slot *slots = s->skel->bss->bench_slots;

	totals.valid = true;
	totals.dropped = slots_sum(slots, SLOT_DROPS);
	totals.produced = slots_sum(slots, SLOT_HITS) - totals.dropped;
	totals.consumed = s->chk.consumed;
	totals.gaps = is_rb(s) ? s->chk.gaps : 0;
	totals.overwritten = s->overwritten;
	totals.digest = s->chk.digest;
}

static void close_rings(struct rb_state *s)
{
	int i;

	for (i = 0; s->rings && i < s->nr_rings; i++) {
		if (s->rings[i].page)
			munmap(s->rings[i].page, s->rings[i].map_len);
		if (s->rings[i].fd >= 0)
			close(s->rings[i].fd);
	}
	if (s->consumer_pos)
		munmap(s->consumer_pos, sysconf(_SC_PAGESIZE));
	if (s->prod_map)
		munmap(s->prod_map, s->prod_map_len);
	if (s->epoll_fd >= 0)
		close(s->epoll_fd);
}

static void rb_teardown(struct bench_env *env)
{
	struct rb_state *s = env->priv;

	if (!s)
		return;
	if (s->ready)
		keep_totals(s);
	ring_buffer__free(s->rb);
	perf_buffer__free(s->pb);
	close_rings(s);
	ringbuf_bpf__destroy(s->skel);
	free(s->chk.next);
	free(s->rings);
	free(s->wrap_buf);
	free(s);
	env->priv = NULL;
}

/* The kernel bench's summary, the seed's table row, then what was counted in all. */
static void rb_report_final(struct bench_env *env, const struct stats *st)
{
	int np = env->nr_producers > 0 ? env->nr_producers : 1;
	FILE *out = report_out();

	fprintf(out, "Summary: hits %8.3lf ± %5.3lfM/s (%7.3lfM/prod), drops %8.3lf ± %5.3lfM/s\n",
		st[0].mean, st[0].stddev, st[0].mean / np, st[1].mean, st[1].stddev);
	fprintf(out, "%s %.3lf ± %.3lfM/s (drops %.3lf ± %.3lfM/s)\n", env->bench->name,
		st[0].mean, st[0].stddev, st[1].mean, st[1].stddev);
	if (!totals.valid)
		return;
	fprintf(out, "Totals: produced %llu, dropped %llu, consumed %llu, gaps %llu, "
		"overwritten %llu, digest %016llx\n",
		(unsigned long long)totals.produced, (unsigned long long)totals.dropped,
		(unsigned long long)totals.consumed, (unsigned long long)totals.gaps,
		(unsigned long long)totals.overwritten, (unsigned long long)totals.digest);
}

#define RB_BENCH(ident, bname, opts_table, setup_fn, text)		\
const struct bench ident = {						\
	.name = bname,							\
	.summary = text,						\
	.family = "ringbufs",						\
	.opts = opts_table,						\
	.metrics = rb_metrics,						\
	.nr_metrics = ARRAY_SIZE(rb_metrics),				\
	.flags = BENCH_F_CONSUMERS,					\
	.validate = rb_validate,					\
	.setup = setup_fn,						\
	.producer = rb_producer,					\
	.consumer = rb_consumer,					\
	.measure = rb_measure,						\
	.report_final = rb_report_final,				\
	.teardown = rb_teardown,					\
}

RB_BENCH(bench_rb_libbpf, "rb-libbpf", rb_opts, rb_libbpf_setup,
	 "BPF ring buffer read by libbpf's ring_buffer: samples per second");
RB_BENCH(bench_rb_custom, "rb-custom", rb_opts, rb_custom_setup,
	 "BPF ring buffer read by our own mmap consumer: samples per second");
RB_BENCH(bench_pb_libbpf, "pb-libbpf", pb_opts, pb_libbpf_setup,
	 "perf buffer read by libbpf's perf_buffer: samples per second");
RB_BENCH(bench_pb_custom, "pb-custom", pb_opts, pb_custom_setup,
	 "perf buffer read by our own per-CPU mmap reader: samples per second");

/* ---- run_bench_ringbufs.sh ---- */

#define RB4(hdr, extra)							\
	{ hdr, "rb-libbpf", "-c1 " extra "rb-libbpf" },		\
	{ NULL, "rb-custom", "-c1 " extra "rb-custom" },		\
	{ NULL, "pb-libbpf", "-c1 " extra "pb-libbpf" },		\
	{ NULL, "pb-custom", "-c1 " extra "pb-custom" }

#define B2B(hdr, b)							\
	{ hdr, b, "-c1 --rb-b2b " b },					\
	{ NULL, b "-sampled", "-c1 --rb-sampled --rb-b2b " b }

#define RATE(hdr, kind, bench, n)					\
	{ hdr, kind "-sampled-" #n,					\
	  "-c1 --rb-b2b --rb-batch-cnt " #n " --rb-sampled --rb-sample-rate " #n " " bench }

#define RATES(hdr, kind, bench)						\
	RATE(hdr, kind, bench, 1), RATE(NULL, kind, bench, 5),		\
	RATE(NULL, kind, bench, 10), RATE(NULL, kind, bench, 25),	\
	RATE(NULL, kind, bench, 50), RATE(NULL, kind, bench, 100),	\
	RATE(NULL, kind, bench, 250), RATE(NULL, kind, bench, 500),	\
	RATE(NULL, kind, bench, 1000), RATE(NULL, kind, bench, 2000),	\
	RATE(NULL, kind, bench, 3000)

#define MP(hdr, n)							\
	{ hdr, "rb-libbpf nr_prod " #n, "-c1 -p" #n " --rb-batch-cnt 50 rb-libbpf" }

#define OW(hdr, n)							\
	{ hdr, "rb-prod nr_prod " #n,					\
	  "-p" #n " --rb-batch-cnt 50 --rb-overwrite --rb-bench-producer rb-libbpf" }

#define SWEEP(M, hdr)							\
	M(hdr, 1), M(NULL, 2), M(NULL, 3), M(NULL, 4), M(NULL, 8),	\
	M(NULL, 12), M(NULL, 16), M(NULL, 20), M(NULL, 24), M(NULL, 28),	\
	M(NULL, 32), M(NULL, 36), M(NULL, 40), M(NULL, 44), M(NULL, 48),	\
	M(NULL, 52)

#define OVERSUB " (producers beyond the online CPUs are oversubscribed)"

static const struct suite_step ringbufs_steps[] = {
	RB4("Single-producer, parallel producer", ""),
	RB4("Single-producer, parallel producer, sampled notification", "--rb-sampled "),
	B2B("Single-producer, back-to-back mode", "rb-libbpf"),
	B2B(NULL, "rb-custom"),
	B2B(NULL, "pb-libbpf"),
	B2B(NULL, "pb-custom"),
	RATES("Ringbuf back-to-back, effect of sample rate", "rb", "rb-custom"),
	RATES("Perfbuf back-to-back, effect of sample rate", "pb", "pb-custom"),
	{ "Ringbuf back-to-back, reserve+commit vs output", "reserve", "-c1 --rb-b2b rb-custom" },
	{ NULL, "output", "-c1 --rb-b2b --rb-use-output rb-custom" },
	{ "Ringbuf sampled, reserve+commit vs output", "reserve-sampled",
	  "-c1 --rb-sampled rb-custom" },
	{ NULL, "output-sampled", "-c1 --rb-sampled --rb-use-output rb-custom" },
	RB4("Single-producer, consumer/producer competing on the same CPU, low batch count",
	    "--rb-batch-cnt 1 --rb-sample-rate 1 --prod-affinity 0 --cons-affinity 0 "),
	SWEEP(MP, "Ringbuf, multi-producer contention" OVERSUB),
	SWEEP(OW, "Ringbuf, multi-producer contention in overwrite mode, no consumer" OVERSUB),
	{ NULL },
};

const struct suite suite_ringbufs = {
	.name = "ringbufs",
	.summary = "ring buffer vs perf buffer: libbpf and custom consumers, sampling, "
		   "b2b, contention, overwrite mode (seed 001)",
	.steps = ringbufs_steps,
};
