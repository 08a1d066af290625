/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the ring buffer family's BPF producers and user-space consumers
 * agree on: the sample they exchange and how it is checked.
 */
#ifndef BPFBENCH_RINGBUF_H
#define BPFBENCH_RINGBUF_H

/*
 * 8 bytes, as the kernel bench's sample, so a record (8-byte header +
 * sample) is 16 bytes there and here.  seq counts per stream (producer
 * thread) and wraps at 2^32; check mixes seq and stream so a torn or
 * misplaced sample fails it.
 */
struct rb_sample {
	__u32 seq;
	__u16 stream;
	__u16 check;
};

/*
 * BPF side, per stream (one writer each: the thread that fires it), a
 * cache line each, as producers run on different CPUs.  attempted grows
 * before a batch is written, so a sample is never counted written or
 * dropped before it was counted attempted.
 */
struct stream_state {
	__u64 attempted;
	__u32 next_seq;
} __attribute__((aligned(64)));

#define RB_MAX_STREAMS	1024	/* BENCH_MAX_THREADS: one stream per producer */
#define RB_BATCH_MAX	3000	/* samples per program run at most */
#define RB_CHUNK	32	/* samples per bpf_loop() callback */

static inline __u16 rb_sample_check(__u32 seq, __u32 stream)
{
	__u32 x = seq * 0x9e3779b1u + stream * 0x85ebca6bu;

	x ^= x >> 15;
	x *= 0xc2b2ae35u;
	return (__u16)(x ^ (x >> 16));
}

#endif
