// SPDX-License-Identifier: GPL-2.0
/*
 * Ring buffer and perf buffer, as the kernel's run_bench_ringbufs.sh.
 *
 * BPF producers write batches of 8-byte samples; one user-space consumer
 * reads them: through libbpf (rb-libbpf, pb-libbpf) or through our own
 * reader of the memory-mapped rings (rb-custom, pb-custom).  As in the
 * kernel bench, hits are the samples the consumer received (here also
 * checked: sequence per stream and checksum, one sample in 64, every one
 * with --rb-verify), drops the writes the BPF side saw fail; with --rb-bench-producer there is no consumer and hits
 * are the writes the BPF side saw succeed.
 *
 * The kernel bench fires one batch per getpgid(); we prefer the raw-tp
 * trigger (getpgid() again) for the same one-syscall-per-batch shape.
 * A test-run syscall has a fixed cost, so when it is used, one syscall
 * runs many batches (see test_run_repeat()).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <bpf/libbpf.h>
#include "rb.h"


#define POLL_MS		100	/* consumers notice a stop within this */
#define TEST_RUN_SAMPLES (1u << 20)	/* per test-run syscall, parallel mode */

#define OPT_COMMON							\
	{ "rb-b2b", 0, OPT_FLAG, OPT_OFF(struct rb_args, b2b), NULL, 0, 0, NULL, NULL, \
	  "back-to-back: the consumer writes a batch, then reads it" },	\
	{ "rb-batch-cnt", 0, OPT_UINT, OPT_OFF(struct rb_args, batch_cnt), "500", 1, \
	  RB_BATCH_MAX, NULL, "N", "samples per program run", OPT_F_DEFINES },		\
	{ "rb-sampled", 0, OPT_FLAG, OPT_OFF(struct rb_args, sampled), NULL, 0, 0, NULL, NULL, \
	  "wake the consumer only every --rb-sample-rate samples" },	\
	{ "rb-sample-rate", 0, OPT_UINT, OPT_OFF(struct rb_args, sample_rate), "500", 1, \
	  1000000, NULL, "N", "samples per wake-up with --rb-sampled" },	\
	{ "rb-verify", 0, OPT_FLAG, OPT_OFF(struct rb_args, verify), NULL, 0, 0, NULL, NULL, \
	  "check every sample (checksum, stream, order) and count gaps and a digest; " \
	  "default: one in 64, as cheap as the kernel bench's count" },	\
	{ "rb-total", 0, OPT_UINT, OPT_OFF(struct rb_args, total), "0", 0, UINT64_MAX / 2, \
	  NULL, "N", "testing: producers stop after N samples in all (0: never)", \
	  OPT_F_HIDDEN },							\
	{ "rb-corrupt-seq", 0, OPT_UINT, OPT_OFF(struct rb_args, corrupt_at), "0", 0, \
	  UINT32_MAX, NULL, "N", "testing: spoil the checksum of producer 0's sample N-1 (0: none)", \
	  OPT_F_HIDDEN }

static const struct opt_def rb_opts[] = {
	OPT_COMMON,
	{ "rb-use-output", 0, OPT_FLAG, OPT_OFF(struct rb_args, use_output), NULL, 0, 0, NULL,
	  NULL, "bpf_ringbuf_output() instead of reserve + submit" },
	{ "rb-overwrite", 0, OPT_FLAG, OPT_OFF(struct rb_args, overwrite), NULL, 0, 0, NULL, NULL,
	  "BPF_F_RB_OVERWRITE ring: writers reclaim the oldest records (6.19+)" },
	{ "rb-bench-producer", 0, OPT_FLAG, OPT_OFF(struct rb_args, bench_producer), NULL, 0, 0,
	  NULL, NULL, "producers only, no consumer: hits are samples written" },
	{ "ringbuf-sz", 0, OPT_UINT, OPT_OFF(struct rb_args, ringbuf_sz), "524288", 4096,
	  1ull << 30, NULL, "BYTES", "ring buffer size (power of 2, page multiple)" },
	{ NULL },
};

static const struct opt_def pb_opts[] = {
	OPT_COMMON,
	{ "perfbuf-sz", 0, OPT_UINT, OPT_OFF(struct rb_args, perfbuf_sz), "128", 1, 1u << 16,
	  NULL, "PAGES", "perf buffer pages per CPU (power of 2)" },
	{ NULL },
};

/*
 * hits and drops as the kernel bench reports them; then what each
 * sample counted, for checking: rate x period == count, and no more
 * outcomes than attempts (see rb_measure()).
 */
enum { M_HITS, M_DROPS, M_HITS_N, M_DROPS_N, M_ATTEMPTS_N };

static const struct metric_def rb_metrics[] = {
	[M_HITS] = { "hits", "M ops/s", METRIC_RATE, .prod_unit = "M" },
	[M_DROPS] = { "drops", "M ops/s", METRIC_RATE, .better = BETTER_LOWER },
	[M_HITS_N] = { "hits_count", "samples", METRIC_COUNT },
	[M_DROPS_N] = { "drops_count", "samples", METRIC_COUNT, .better = BETTER_LOWER },
	[M_ATTEMPTS_N] = { "attempts_count", "samples", METRIC_COUNT },
};

static const struct rb_variant rb_libbpf = { RB_LIBBPF, false };
static const struct rb_variant rb_custom = { RB_CUSTOM, false };
static const struct rb_variant pb_libbpf = { PB_LIBBPF, true };
static const struct rb_variant pb_custom = { PB_CUSTOM, true };

static const enum probe_id rb_requires[] = { PROBE_MAP_RINGBUF, PROBE__COUNT };
static const enum probe_id pb_requires[] = { PROBE_MAP_PERF_EVENT_ARRAY, PROBE__COUNT };

static bool power_of_2(uint64_t v)
{
	return v && !(v & (v - 1));
}

/* ---- the consumer thread ---- */

static int custom_ring(struct rb_state *s, int idx)
{
	return s->v->kind == RB_CUSTOM ? rb_custom_consume(s) : pb_custom_ring(s, idx);
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

	switch (s->v->kind) {
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

	switch (s->v->kind) {
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
	return s->a->total &&
	       __atomic_load_n(&s->skel->bss->claimed, __ATOMIC_RELAXED) >= s->a->total;
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
	while (!s->a->b2b && !bench_stopping(env)) {
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

/*
 * Back-to-back, as the kernel bench: write a batch, wait for its
 * wake-up, read what came, and again.
 */
static void rb_consumer(struct bench_env *env, int idx)
{
	struct rb_state *s = env->priv;
	int err = 0;

	while (!err && !bench_stopping(env)) {
		if (s->a->b2b && !limit_reached(s)) {
			err = fire(s, 0);
			if (err) {
				fire_failed(env, err);
				return;
			}
		}
		err = consumer_poll(s, POLL_MS);
		/*
		 * With --rb-sampled the last few records of a finite
		 * --rb-total never send a wake-up: read them in the window.
		 */
		if (!err && limit_reached(s))
			err = consumer_drain(s);
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

static int usage(struct bench_env *env, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* One line naming the problem, prefixed with the benchmark; -EINVAL (exit 2). */
static int usage(struct bench_env *env, const char *fmt, ...)
{
	char line[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	errmsg("%s: %s", env->bench->name, line);
	return -EINVAL;
}

/* What needs a consumer, and what only a single one makes sense of. */
static int validate_consumers(struct bench_env *env)
{
	const struct rb_args *a = env->args;

	if (a->bench_producer && env->nr_consumers)
		return usage(env, "--rb-bench-producer runs no consumer (drop -c%d)",
			     env->nr_consumers);
	if (a->bench_producer && a->b2b)
		return usage(env, "--rb-b2b needs the consumer that --rb-bench-producer leaves out");
	if (a->bench_producer && a->sampled)
		return usage(env, "--rb-sampled paces the wake-ups of a consumer that "
			     "--rb-bench-producer leaves out");
	if (!a->bench_producer && env->nr_consumers != 1)
		return usage(env, "needs exactly one consumer (-c1), got -c%d", env->nr_consumers);
	if (a->b2b && env->nr_producers > 1)
		return usage(env, "--rb-b2b has the consumer write its own batches: one producer "
			     "(-p1), got -p%d", env->nr_producers);
	/* a batch that never reaches the wake-up threshold would leave the consumer waiting */
	if (a->b2b && a->sampled && a->sample_rate > a->batch_cnt)
		return usage(env, "--rb-b2b --rb-sampled: --rb-sample-rate %llu exceeds "
			     "--rb-batch-cnt %llu, no batch would wake the consumer",
			     (unsigned long long)a->sample_rate, (unsigned long long)a->batch_cnt);
	return 0;
}

/* One consumer, as the kernel's scripts pass -c1; none for --rb-bench-producer. */
static unsigned int rb_default_consumers(const void *args)
{
	const struct rb_args *a = args;

	return a->bench_producer ? 0 : 1;
}

static int rb_validate(struct bench_env *env)
{
	const struct rb_variant *v = env->bench->variant;
	const struct rb_args *a = env->args;
	long page = sysconf(_SC_PAGESIZE);
	int err = validate_consumers(env);

	if (err)
		return err;
	if (!v->perf && (!power_of_2(a->ringbuf_sz) || a->ringbuf_sz % page))
		return usage(env, "--ringbuf-sz %llu is not a power of 2 multiple of the page "
			     "size (%ld)", (unsigned long long)a->ringbuf_sz, page);
	if (v->perf && !power_of_2(a->perfbuf_sz))
		return usage(env, "--perfbuf-sz %llu is not a power of 2",
			     (unsigned long long)a->perfbuf_sz);
	if (a->overwrite && !a->bench_producer && v->kind == RB_LIBBPF)
		return usage(env, "--rb-overwrite needs rb-custom or --rb-bench-producer "
			     "(libbpf's ring_buffer cannot read an overwrite-mode ring)");
	if (a->overwrite)
		return bench_require(env, PROBE_RB_OVERWRITE, "--rb-overwrite");
	return 0;
}

/* Program runs per test-run syscall: a back-to-back batch must fit the ring. */
static uint32_t test_run_repeat(struct rb_state *s)
{
	const struct rb_args *a = s->a;
	uint64_t ring = rb_is_perf(s) ? a->perfbuf_sz * sysconf(_SC_PAGESIZE) / PB_RECORD_SZ :
		a->ringbuf_sz / RB_RECORD_SZ;
	uint64_t runs = a->b2b ? ring / 4 / a->batch_cnt : TEST_RUN_SAMPLES / a->batch_cnt;

	return runs ? runs : 1;
}

static void choose_maps(struct rb_state *s)
{
	struct ringbuf_bpf *k = s->skel;

	bpf_program__set_autoload(k->progs.rb_test_run, false);
	bpf_program__set_autoload(k->progs.rb_raw_tp, false);
	bpf_program__set_autoload(k->progs.pb_test_run, false);
	bpf_program__set_autoload(k->progs.pb_raw_tp, false);
	if (rb_is_perf(s)) {
		bpf_map__set_autocreate(k->maps.ringbuf, false);
		return;
	}
	bpf_map__set_max_entries(k->maps.ringbuf, s->a->ringbuf_sz);
	if (s->a->overwrite)
		bpf_map__set_map_flags(k->maps.ringbuf, BPF_F_RB_OVERWRITE);
	bpf_map__set_autocreate(k->maps.perfbuf, false);
}

/* The trigger programs of the variant's buffer. */
static struct trigger_progs trigger_progs_of(struct bench_env *env, struct rb_state *s)
{
	struct ringbuf_bpf *k = s->skel;
	bool perf = rb_is_perf(s);
	struct trigger_progs progs = {
		.test_run = perf ? k->progs.pb_test_run : k->progs.rb_test_run,
		.raw_tp = perf ? k->progs.pb_raw_tp : k->progs.rb_raw_tp,
	};

	/* one getpgid() per batch, as the kernel bench; see the top of the file */
	if (env->opts->trigger == TRIG_AUTO && probe_feature(PROBE_TRIG_RAW_TP, NULL, 0) == 1)
		progs.test_run = NULL;
	return progs;
}

static void set_rodata(struct rb_state *s)
{
	struct ringbuf_bpf *k = s->skel;
	const struct rb_args *a = s->a;

	k->rodata->batch_cnt = a->batch_cnt;
	k->rodata->use_output = !rb_is_perf(s) && a->use_output;
	if (!rb_is_perf(s) && a->sampled)	/* a record and its header take 16 bytes */
		k->rodata->wakeup_data_size = a->sample_rate * RB_RECORD_SZ;
	k->rodata->count_written = a->bench_producer;
	k->rodata->total_limit = a->total;
	k->rodata->corrupt_at = a->corrupt_at;
}

static int open_consumer(struct rb_state *s)
{
	switch (s->v->kind) {
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

static int rb_setup(struct bench_env *env)
{
	struct rb_state *s = calloc(1, sizeof(*s));
	int err;

	if (!s)
		return -ENOMEM;
	env->priv = s;
	s->v = env->bench->variant;
	s->a = env->args;
	s->env = env;
	s->epoll_fd = -1;
	atomic_init(&s->producers_running, env->nr_producers);
	if (s->a->overwrite && !s->a->bench_producer) {
		err = rb_find_overwrite_pos(s);
		if (err)
			return err;
	}
	s->skel = ringbuf_bpf__open();
	if (!s->skel)
		return -errno;
	set_rodata(s);
	choose_maps(s);
	/* no histograms: the BPF side has none */
	err = bench_skel_load(env, &(struct bench_skel){
				BENCH_SKEL_BASE(s->skel), .progs = trigger_progs_of(env, s),
			      }, 0, NULL, NULL);
	if (err)
		return err;
	s->repeat = test_run_repeat(s);
	env->trig.repeat = s->repeat;	/* ours: no calibration runs that would write samples */
	err = trigger_attach(&env->trig);
	if (!err)
		err = rb_check_init(s);
	if (!err && !s->a->bench_producer)
		err = open_consumer(s);
	s->ready = !err;
	return err;
}

/* ---- figures ---- */

static uint64_t attempted(const struct rb_state *s)
{
	uint64_t n = 0;
	int i;

	for (i = 0; i < s->chk.nr_streams; i++)
		n += __atomic_load_n(&s->skel->bss->streams[i].attempted, __ATOMIC_ACQUIRE);
	return n;
}

static uint64_t written(const struct rb_state *s)
{
	if (s->a->bench_producer)
		return slots_sum(s->skel->bss->bench_slots, SLOT_HITS);
	return atomic_load_explicit(&s->consumed, memory_order_acquire);
}

/*
 * hits are counted where they happen: by the consumer, or (no consumer)
 * per successful write in BPF, never derived from two other counters.
 * Read hits, then drops, then attempts: every outcome counted was
 * attempted before its count was read, so over any first k samples the
 * counts of hits and drops add up to no more than the attempts.
 */
static void rb_measure(struct bench_env *env, uint64_t elapsed_ns, double *vals)
{
	struct rb_state *s = env->priv;
	uint64_t hits, drops, tries;

	hits = delta_next(&s->hits, written(s));
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	drops = delta_next(&s->drops, slots_sum(s->skel->bss->bench_slots, SLOT_DROPS));
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	tries = delta_next(&s->attempts, attempted(s));
	vals[M_HITS] = mops(hits, elapsed_ns);
	vals[M_DROPS] = mops(drops, elapsed_ns);
	vals[M_HITS_N] = hits;
	vals[M_DROPS_N] = drops;
	vals[M_ATTEMPTS_N] = tries;
}

/*
 * What was counted over the whole run (warm-up and the final drain
 * included), once the threads are done: the run's totals.
 */
static void record_totals(struct bench_env *env, struct rb_state *s)
{
	uint64_t tries = attempted(s), drops, produced;

	if (!s->ready || atomic_load(&env->error) || interrupted())
		return;
	drops = slots_sum(s->skel->bss->bench_slots, SLOT_DROPS);
	produced = s->a->bench_producer ? written(s) : tries - drops;
	bench_total(env, "attempted", tries);
	bench_total(env, "produced", produced);
	bench_total(env, "dropped", drops);
	bench_total(env, "consumed", s->chk.consumed);
	if (s->chk.every)
		bench_total(env, "gaps", rb_is_perf(s) ? 0 : s->chk.gaps);
	bench_total(env, "overwritten", s->overwritten);
	if (s->chk.every)
		bench_total_hex(env, "digest", s->chk.digest);
	if (s->a->overwrite && drops && env->nr_producers > 1)
		bench_note(env, "overwrite mode dropped %llu of %llu writes: the kernel refuses a "
			   "reservation while the record it would overwrite is still reserved by "
			   "another producer (a descheduled or emulated vCPU holds its record); "
			   "the drops are that contention, not lost records",
			   (unsigned long long)drops, (unsigned long long)tries);
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
	record_totals(env, s);
	ring_buffer__free(s->rb);
	perf_buffer__free(s->pb);
	close_rings(s);
	free(s->chk.next);
	free(s->rings);
	free(s->wrap_buf);
	BENCH_SKEL_TEARDOWN(env, NULL, s->skel);
}

#define RB_BENCH(ident, bname, opts_table, var, req, text)		\
const struct bench ident = {						\
	.name = bname,							\
	.summary = text,						\
	.family = "ringbufs",						\
	.opts = opts_table,						\
	.args_size = sizeof(struct rb_args),				\
	.variant = &var,						\
	.requires = req,						\
	.metrics = rb_metrics,						\
	.nr_metrics = ARRAY_SIZE(rb_metrics),				\
	.flags = BENCH_F_CONSUMERS,					\
	.default_consumers = rb_default_consumers,			\
	.validate = rb_validate,					\
	.setup = rb_setup,						\
	.producer = rb_producer,					\
	.consumer = rb_consumer,					\
	.measure = rb_measure,						\
	.report = { REPORT_HITS_DROPS },				\
	.teardown = rb_teardown,					\
}

RB_BENCH(bench_rb_libbpf, "rb-libbpf", rb_opts, rb_libbpf, rb_requires,
	 "BPF ring buffer read by libbpf's ring_buffer: samples per second");
RB_BENCH(bench_rb_custom, "rb-custom", rb_opts, rb_custom, rb_requires,
	 "BPF ring buffer read by our own mmap consumer: samples per second");
RB_BENCH(bench_pb_libbpf, "pb-libbpf", pb_opts, pb_libbpf, pb_requires,
	 "perf buffer read by libbpf's perf_buffer: samples per second");
RB_BENCH(bench_pb_custom, "pb-custom", pb_opts, pb_custom, pb_requires,
	 "perf buffer read by our own per-CPU mmap reader: samples per second");
