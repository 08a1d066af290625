// SPDX-License-Identifier: GPL-2.0
/*
 * The ring buffer family's suites: run_bench_ringbufs.sh, section by
 * section.  Its single-producer runs are pinned (-a: the consumer on the
 * first CPU, the producer on the next), as the script's ./bench -a; the
 * multi-producer sweeps are not, as the script's -a cannot place more
 * threads than there are CPUs.
 */
#include "bench.h"

#define RB4(hdr, extra)							\
	{ hdr, "rb-libbpf", "-a -c1 " extra "rb-libbpf" },		\
	{ NULL, "rb-custom", "-a -c1 " extra "rb-custom" },		\
	{ NULL, "pb-libbpf", "-a -c1 " extra "pb-libbpf" },		\
	{ NULL, "pb-custom", "-a -c1 " extra "pb-custom" }

#define B2B(hdr, b)							\
	{ hdr, b, "-a -c1 --rb-b2b " b },				\
	{ NULL, b "-sampled", "-a -c1 --rb-sampled --rb-b2b " b }

#define RATE(hdr, kind, bench, n)					\
	{ hdr, kind "-sampled-" #n,					\
	  "-a -c1 --rb-b2b --rb-batch-cnt " #n " --rb-sampled --rb-sample-rate " #n " " bench }

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
	{ "Ringbuf back-to-back, reserve+commit vs output", "reserve", "-a -c1 --rb-b2b rb-custom" },
	{ NULL, "output", "-a -c1 --rb-b2b --rb-use-output rb-custom" },
	{ "Ringbuf sampled, reserve+commit vs output", "reserve-sampled",
	  "-a -c1 --rb-sampled rb-custom" },
	{ NULL, "output-sampled", "-a -c1 --rb-sampled --rb-use-output rb-custom" },
	RB4("Single-producer, consumer/producer competing on the same CPU, low batch count",
	    "--rb-batch-cnt 1 --rb-sample-rate 1 --prod-affinity 0 --cons-affinity 0 "),
	SWEEP(MP, "Ringbuf, multi-producer contention" OVERSUB),
	SWEEP(OW, "Ringbuf, multi-producer contention in overwrite mode, no consumer" OVERSUB),
	{ NULL },
};

/* The quick look adds the two modes the defaults leave out. */
static const struct suite_step ringbufs_quick[] = {
	{ "Ringbuf, back-to-back and producers alone", "rb-custom b2b",
	  "-w0 -d1 -c1 --rb-b2b rb-custom" },
	{ NULL, "rb-libbpf no consumer", "-w0 -d1 --rb-batch-cnt 50 --rb-bench-producer rb-libbpf" },
	{ NULL },
};

const struct suite suite_ringbufs = {
	.name = "ringbufs",
	.seed = true,
	.summary = "ring vs perf buffer: libbpf and custom consumers, sampling, "
		   "back-to-back, contention, overwrite mode",
	.steps = ringbufs_steps,
	.quick = ringbufs_quick,
};

extern const struct bench bench_rb_libbpf, bench_rb_custom, bench_pb_libbpf, bench_pb_custom;

const struct family family_ringbufs = {
	.name = "ringbufs",
	.summary = "samples/s through the BPF ring buffer and the perf buffer",
	.benchs = (const struct bench *const []){
		&bench_rb_libbpf,
		&bench_rb_custom,
		&bench_pb_libbpf,
		&bench_pb_custom,
		NULL,
	},
	.suites = (const struct suite *const []){ &suite_ringbufs, NULL },
};
