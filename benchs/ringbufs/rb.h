/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ring buffer family's user side, shared by its files: ringbuf.c
 * (benchmarks, threads, figures), rb_reader.c (BPF ring buffer readers),
 * pb_reader.c (perf buffer readers), check.c (what arrives is checked).
 */
#ifndef BPFBENCH_RB_H
#define BPFBENCH_RB_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>
#include <stdatomic.h>
#include <linux/types.h>
#include "bench.h"
#include "ringbuf.h"
#include "ringbuf.skel.h"

#define RB_RECORD_SZ	16	/* ring buffer: 8-byte header + sample */
#define PB_RECORD_SZ	24	/* perf: header, u32 size, sample padded to 8 bytes */
#define PB_WRAP_MAX	65536	/* perf record sizes are u16 */

enum rb_kind { RB_LIBBPF, RB_CUSTOM, PB_LIBBPF, PB_CUSTOM };

/* What tells the four benchmarks apart (struct bench .variant). */
struct rb_variant {
	enum rb_kind kind;
	bool perf;		/* perf buffer, else BPF ring buffer */
};

/* Every option of the family; the perf benchmarks leave the ring's alone. */
struct rb_args {
	bool b2b, use_output, sampled, overwrite, bench_producer, verify;
	uint64_t batch_cnt, sample_rate, ringbuf_sz, perfbuf_sz;
	uint64_t total, corrupt_at;	/* testing */
};

/* One CPU's perf ring, mapped by pb-custom. */
struct pb_ring {
	struct perf_event_mmap_page *page;
	const char *data;
	uint64_t size;
	size_t map_len;
	int fd;
};

/* Without --rb-verify, one sample in this many is checked (a power of 2). */
#define RB_CHECK_STRIDE	64

/* What the consumer knows of the samples so far. */
struct rb_check {
	uint32_t *next;		/* [ring][stream]: the least seq still acceptable */
	int nr_streams, nr_rings;
	bool every;		/* --rb-verify: every sample checked, gaps and digest counted */
	uint32_t unchecked;	/* samples read since the last checked one */
	uint64_t consumed, gaps, digest, perf_lost;
};

struct rb_state {
	const struct rb_variant *v;
	const struct rb_args *a;
	struct bench_env *env;
	struct ringbuf_bpf *skel;
	bool ready, draining;
	uint32_t repeat;	/* test-run: program runs per syscall */
	atomic_int producers_running;
	_Atomic uint64_t consumed;	/* published by the consumer for measure() */
	struct delta hits, drops, attempts;
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

static inline bool rb_is_perf(const struct rb_state *s)
{
	return s->v->perf;
}

/* check.c */
int rb_check_init(struct rb_state *s);
int rb_check_sample(struct rb_state *s, int ring, const void *data, size_t len);

/* rb_reader.c */
int rb_epoll_add(struct rb_state *s, int fd, uint32_t idx);
int rb_find_overwrite_pos(struct rb_state *s);
int rb_libbpf_open(struct rb_state *s);
int rb_custom_open(struct rb_state *s);
int rb_custom_consume(struct rb_state *s);

/* pb_reader.c */
int pb_libbpf_open(struct rb_state *s);
int pb_custom_open(struct rb_state *s);
int pb_custom_ring(struct rb_state *s, int cpu);

#endif
