/* SPDX-License-Identifier: GPL-2.0 */
/* Inside the attach family: a benchmark's variant, shared by attach.c and table.c. */
#ifndef BPFBENCH_ATTACH_INT_H
#define BPFBENCH_ATTACH_INT_H

#include "bench.h"

/* How a benchmark makes its program run. */
enum attach_drive {
	DRIVE_BATCH,	/* test-runs of a driver program: batch_iters calls of the probed function */
	DRIVE_SYSCALL,	/* getpgid() in a loop, counted in user space (syscall-count) */
	DRIVE_USER,	/* a function of ours in a loop (uprobes, usdt, usermode-count) */
};

/* The family's probes a variant needs, beyond the core's (requires). */
#define NEED_KPROBE		(1u << 0)
#define NEED_KPROBE_MULTI	(1u << 1)
#define NEED_UPROBE		(1u << 2)
#define NEED_UPROBE_MULTI	(1u << 3)
#define NEED_TEST_KFUNC		(1u << 4)
#define NEED_FILTER_FUNCS	(1u << 5)	/* -all: tracefs' available_filter_functions */

struct attach_variant {
	enum attach_drive drive;
	const char *prog;	/* the program whose hits count (NULL: the driver's, or user space's) */
	const char *driver;	/* DRIVE_BATCH: the program test-run in the loop */
	const char *usdt;	/* a usdt program: the probe's name in provider "bpfbench" */
	bool retprobe, multi;
	bool all;		/* -all: an empty program on every other traceable function too */
	bool user_count;	/* user space counts its own calls: no BPF at all */
	unsigned int needs;	/* NEED_* */
	const void *target;	/* DRIVE_USER: the function the probe sits on (its offset is attached) */
};

struct attach_args {
	uint64_t batch_iters;
};

extern const struct opt_def attach_batch_opts[];
#define ATTACH_NR_METRICS	3
extern const struct metric_def attach_metrics[ATTACH_NR_METRICS];

int attach_validate(struct bench_env *env);
int attach_setup(struct bench_env *env);
void attach_measure(struct bench_env *env, uint64_t elapsed_ns, double *vals);
void attach_teardown(struct bench_env *env);
int attach_runnable(const struct bench *b, char *why, size_t len);

/*
 * -all: empty attached to every traceable kernel function but the measured
 * one (tracefs' available_filter_functions, filtered as upstream filters
 * it); 0, or -errno with why.
 */
int attach_all_functions(struct bpf_program *empty, bool retprobe, struct bpf_link **link,
			 char *why, size_t len);

/* The producers: one loop per target, calls direct as the kernel bench's are. */
void attach_produce_batch(struct bench_env *env, int idx);
void attach_produce_syscall(struct bench_env *env, int idx);
void attach_produce_count(struct bench_env *env, int idx);
void attach_produce_nop(struct bench_env *env, int idx);
void attach_produce_push(struct bench_env *env, int idx);
void attach_produce_ret(struct bench_env *env, int idx);
void attach_produce_nop5(struct bench_env *env, int idx);
void attach_produce_nop10(struct bench_env *env, int idx);
void attach_produce_usdt(struct bench_env *env, int idx);
void attach_produce_usdt10(struct bench_env *env, int idx);

#endif
