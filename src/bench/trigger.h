/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How a benchmark's BPF program is made to run.
 *
 * test-run: BPF_PROG_TEST_RUN of a tc program, `repeat` runs per
 *   syscall, on the calling CPU; the cheapest way in.
 * raw-tp:   a raw tracepoint program on sys_enter, fired by getpgid()
 *   from our own process (the program filters on both).
 * fentry:   an fentry program on the getpgid syscall handler; some
 *   kernels refuse these (EPERM), so it is never assumed.
 *
 * A benchmark offers one program per trigger it supports; the core picks
 * one (or obeys --trigger) before the object is loaded, so the programs
 * of the other triggers are never loaded.
 */
#ifndef BPFBENCH_TRIGGER_H
#define BPFBENCH_TRIGGER_H

#include <stdint.h>

struct bpf_program;
struct bpf_link;
struct run_opts;

enum trigger_kind {
	TRIG_AUTO,
	TRIG_TEST_RUN,
	TRIG_RAW_TP,
	TRIG_FENTRY,
	TRIG_NONE,	/* the benchmark drives itself (syscalls from user space) */
};

extern const char *const trigger_names[];	/* --trigger choices, indexed by kind */

struct trigger_progs {
	struct bpf_program *test_run;	/* SEC("tc"): any type with test_run works */
	struct bpf_program *raw_tp;	/* SEC("raw_tp/sys_enter") */
	struct bpf_program *fentry;	/* SEC("fentry") target set at run time */
};

#define TEST_RUN_MAX_REPEAT	(1u << 24)

struct trigger {
	enum trigger_kind kind;
	struct bpf_program *prog;
	struct bpf_link *link;
	int prog_fd;
	uint32_t repeat;	/* test-run: program runs per syscall; 0: calibrate */
	uint32_t user_repeat;	/* --test-run-repeat, 0 if not given */
	uint64_t max_call_ns;	/* test-run: one call's bound, a tenth of --period-ms */
	unsigned char pkt[64];	/* test-run: the packet */
};

/*
 * Before the object is loaded: picks the trigger (o->trigger or the best
 * the kernel offers), disables loading of the other programs.  Returns 0,
 * or -EOPNOTSUPP after printing why, naming bench (the run then exits
 * SKIP).  A benchmark calls trigger_prepare() (bench.h).
 */
int trigger_choose(struct trigger *t, const char *bench, const struct run_opts *o,
		   const struct trigger_progs *progs);
/*
 * After load: attach (raw-tp, fentry) and remember the fd.  test-run: one
 * call is bounded by max_call_ns (a tenth of the period, so a period
 * holds ten calls or more); repeat 0 is calibrated below it, and a
 * --test-run-repeat whose call would take longer is refused with one
 * line, -EINVAL (exit 2).  A repeat the benchmark set itself is kept.
 */
int trigger_attach(struct trigger *t);
/* Makes the program run once (raw-tp, fentry) or `repeat` times (test-run). */
int trigger_fire(struct trigger *t);
/*
 * BPF_PROG_TEST_RUN of prog_fd on the len-byte pkt, repeat times; the
 * packet as the last run left it is copied back into pkt.  0 or -errno;
 * *retval (may be NULL) gets the program's return value.  In a worker
 * that thread_join_waking() woke, a call of repeat > 1 returns 0 at once
 * or when cut short (EINTR), pkt and *retval as they were: the run is
 * over, and the programs counted what they did.  One run is never cut.
 */
int test_run_pkt(int prog_fd, void *pkt, uint32_t len, uint32_t repeat, uint32_t *retval);
void trigger_detach(struct trigger *t);
/* The pid the BPF programs filter on: set it in the skeleton's rodata. */
int trigger_tgid(void);

#endif
