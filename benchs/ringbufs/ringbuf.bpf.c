// SPDX-License-Identifier: GPL-2.0
/*
 * Ring buffer and perf buffer producers.  Each program run writes a batch
 * of samples of one stream.  Counted here, as the kernel bench counts
 * them: failed writes (slot drops, one atomic per failure) and, with no
 * consumer (--rb-bench-producer), successful writes (slot hits, one
 * atomic per success); what a consumer receives is counted in user
 * space.  Each stream also counts the samples it attempted, before it
 * writes them.  Outcomes are not summed in a register: the verifier
 * would then have to walk every count at every iteration of the loop.
 *
 * The stream (producer thread index) comes with the trigger: the first
 * two bytes of the test-run packet, or getpgid()'s argument for the
 * raw-tp trigger.  Each stream numbers its own samples, so a consumer can
 * tell order, loss and duplication per stream.
 */
#include "bench_common.bpf.h"
#include <bpf/bpf_core_read.h>
#include "ringbuf.h"

const volatile __u32 batch_cnt = 500;
const volatile __u32 use_output;
/* ring buffer, sampled: notify only once this much data waits (0: always) */
const volatile __u64 wakeup_data_size;
/* no consumer: count successful writes, never wake anyone */
const volatile __u32 count_written;
/* testing: all producers together stop after this many samples (0: never) */
const volatile __u64 total_limit;
/* testing: 1 + the seq of stream 0 whose checksum is spoiled (0: none) */
const volatile __u64 corrupt_at;

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 512 * 1024);
} ringbuf SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(int));
	__uint(value_size, sizeof(int));
} perfbuf SEC(".maps");

struct stream_state streams[RB_MAX_STREAMS];
__u64 claimed;		/* samples handed out under total_limit */

/* Under total_limit, how many of the wanted samples this run may write. */
static __always_inline __u32 claim(__u32 want)
{
	__u64 base;

	if (!total_limit)
		return want;
	base = __sync_fetch_and_add(&claimed, want);
	if (base >= total_limit)
		return 0;
	if (total_limit - base < want)
		return total_limit - base;
	return want;
}

static __always_inline void fill(struct rb_sample *s, __u32 seq, __u32 stream)
{
	s->seq = seq;
	s->stream = stream;
	s->check = rb_sample_check(seq, stream);
	if (corrupt_at && stream == 0 && seq == corrupt_at - 1)
		s->check ^= 1;
}

/* Sampled mode: wake the consumer only when enough data has piled up. */
static __always_inline __u64 rb_wakeup_flags(void)
{
	if (count_written)
		return BPF_RB_NO_WAKEUP;
	if (!wakeup_data_size)
		return 0;
	if (bpf_ringbuf_query(&ringbuf, BPF_RB_AVAIL_DATA) >= wakeup_data_size)
		return BPF_RB_FORCE_WAKEUP;
	return BPF_RB_NO_WAKEUP;
}

static __always_inline int rb_write_one(__u32 seq, __u32 stream)
{
	struct rb_sample *s, tmp;

	if (use_output) {
		fill(&tmp, seq, stream);
		return bpf_ringbuf_output(&ringbuf, &tmp, sizeof(tmp), rb_wakeup_flags());
	}
	s = bpf_ringbuf_reserve(&ringbuf, sizeof(*s), 0);
	if (!s)
		return -1;
	fill(s, seq, stream);
	bpf_ringbuf_submit(s, rb_wakeup_flags());
	return 0;
}

static __always_inline long pb_write_one(void *ctx, __u32 seq, __u32 stream)
{
	struct rb_sample s;

	fill(&s, seq, stream);
	return bpf_perf_event_output(ctx, &perfbuf, BPF_F_CURRENT_CPU, &s, sizeof(s));
}

/* What a batch's chunks share: the program's context (perf output wants it) and the stream. */
struct batch {
	void *ctx;
	__u32 stream;
	__u32 seq;	/* of the batch's first sample */
	__u32 n;	/* samples in the batch */
};

/*
 * Up to RB_CHUNK samples of a batch from its sample first on, one by one
 * as the kernel bench writes them.  Each outcome is counted as it comes,
 * not summed in a register: the verifier would then have to walk every
 * count at every iteration.
 */
static __always_inline void write_chunk(struct batch *b, __u32 first, bool perf)
{
	__u32 i, seq;

	for (i = 0; i < RB_CHUNK; i++) {
		if (first + i >= b->n)
			break;
		seq = b->seq + first + i;
		if (perf ? pb_write_one(b->ctx, seq, b->stream) : rb_write_one(seq, b->stream))
			bench_add_drops(1);
		else if (count_written)
			bench_add_hits(1);
	}
}

static int rb_chunk(__u32 c, void *ctx)
{
	write_chunk(ctx, c * RB_CHUNK, false);
	return 0;
}

static int pb_chunk(__u32 c, void *ctx)
{
	write_chunk(ctx, c * RB_CHUNK, true);
	return 0;
}

/*
 * A batch of one stream's samples into the ring buffer, or (perf) the
 * perf buffer: chunks of RB_CHUNK as bpf_loop() callbacks, so that the
 * verifier walks one chunk whatever --rb-batch-cnt is (a plain loop of
 * 3000 took it 62% of its limit); the call costs a chunk a few ns.
 */
static __always_inline void produce(void *ctx, __u32 stream, bool perf)
{
	struct batch b = { .ctx = ctx, .stream = stream };
	struct stream_state *st;
	__u32 chunks;

	if (stream >= RB_MAX_STREAMS)
		return;
	st = &streams[stream];
	b.n = claim(batch_cnt);	/* batch_cnt <= RB_BATCH_MAX: user space checks */
	b.seq = st->next_seq;
	/*
	 * Stored before any outcome of the batch: stores are seen in program
	 * order on x86; elsewhere a ring commit (an xchg) still orders it
	 * before any record a consumer can see.
	 */
	st->attempted += b.n;
	chunks = (b.n + RB_CHUNK - 1) / RB_CHUNK;
	if (perf)
		bpf_loop(chunks, pb_chunk, &b, 0);
	else
		bpf_loop(chunks, rb_chunk, &b, 0);
	st->next_seq = b.seq + b.n;	/* a dropped sample leaves a gap in the stream */
}

static __always_inline __u32 packet_stream(struct __sk_buff *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;
	__u16 *p = data;

	if ((void *)(p + 1) > end)
		return RB_MAX_STREAMS;	/* no stream: nothing is written */
	return *p;
}

static __always_inline __u32 syscall_stream(struct bpf_raw_tracepoint_args *ctx)
{
	struct pt_regs *regs = (struct pt_regs *)ctx->args[0];

	return (__u32)PT_REGS_PARM1_CORE_SYSCALL(regs);
}

SEC("tc")
int rb_test_run(struct __sk_buff *ctx)
{
	produce(ctx, packet_stream(ctx), false);
	return 0;	/* TC_ACT_OK */
}

SEC("raw_tp/sys_enter")
int rb_raw_tp(struct bpf_raw_tracepoint_args *ctx)
{
	if (bench_is_our_syscall(ctx))
		produce(ctx, syscall_stream(ctx), false);
	return 0;
}

SEC("tc")
int pb_test_run(struct __sk_buff *ctx)
{
	produce(ctx, packet_stream(ctx), true);
	return 0;	/* TC_ACT_OK */
}

SEC("raw_tp/sys_enter")
int pb_raw_tp(struct bpf_raw_tracepoint_args *ctx)
{
	if (bench_is_our_syscall(ctx))
		produce(ctx, syscall_stream(ctx), true);
	return 0;
}
