/* SPDX-License-Identifier: GPL-2.0 */
/*
 * --kernel-stats: the kernel's own accounting of a run's program.  While
 * a BPF_ENABLE_STATS(BPF_STATS_RUN_TIME) fd is open the kernel counts
 * every run of every program (run_cnt) and the time inside it
 * (run_time_ns); the fd is held for the measured phase only and closing
 * it (or the process ending, however it ends) turns the accounting off.
 * Beside the harness's own figure this shows what the trigger costs
 * outside the program.
 */
#ifndef BPFBENCH_KSTATS_H
#define BPFBENCH_KSTATS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct kstats {
	bool valid;		/* figures were read */
	char prog[64];		/* the program's name */
	uint64_t run_cnt;	/* runs during the measured phase, warm-up included */
	uint64_t run_time_ns;
	/* the harness's count of the same runs: each call runs `repeat` times, a cut call fewer */
	uint64_t calls, calls_cut, repeat;
	char why[128];		/* !valid: why not */
};

struct kstats_probe {
	int stats_fd, prog_fd;
	uint64_t cnt0, time0;
};

/* Turns the accounting on and notes prog_fd's counters; 0 or -errno (k->why says why). */
int kstats_begin(struct kstats_probe *p, int prog_fd, struct kstats *k);
/* Adds the runs since kstats_begin to k and turns the accounting off again. */
void kstats_end(struct kstats_probe *p, struct kstats *k);

/* The verifier's limit on processed instructions for a privileged load (BPF_COMPLEXITY_LIMIT_INSNS). */
#define VERIFIER_INSN_LIMIT	1000000u

/*
 * One "verifier: BENCH PROG processed N insns (P% of LIMIT)" line per
 * BPF program this process holds; -ENOENT when it holds none.
 */
int kstats_verifier_report(FILE *out, const char *bench);

#endif
