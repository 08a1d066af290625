// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <linux/bpf.h>
#include "placement.h"
#include "result.h"
#include "speedref.h"
#include "util.h"

#define REF_USER_ITERS	20000	/* ~40 us on the reference VM */
#define REF_BPF_REPEAT	64	/* program runs per test-run call */
#define REF_BPF_CALLS	4
#define REF_TRIES	7

int speedref_add_metrics(struct run_result *res)
{
	static const struct metric_def defs[] = {
		{ .name = "ref-user", .unit = "us", .kind = METRIC_TIME },
		{ .name = "ref-bpf", .unit = "us", .kind = METRIC_TIME },
	};
	int i = res_add_metric(res, &defs[0], "--speed-ref");

	res_add_metric(res, &defs[1], "--speed-ref");
	return i;
}

void speedref_open(struct speed_ref *r)
{
	const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	int fd;

	r->why[0] = 0;
	fd = bpf_prog_load(BPF_PROG_TYPE_SCHED_CLS, "bpfbench_ref", "GPL", insns, 2, NULL);
	if (fd < 0)
		snprintf(r->why, sizeof(r->why), "cannot load the reference program: %s",
			 strerror(errno));
	r->prog_fd = fd < 0 ? -1 : fd;
}

void speedref_close(struct speed_ref *r)
{
	if (r->prog_fd >= 0)
		close(r->prog_fd);
	r->prog_fd = -1;
}

static double user_work_ns(void)
{
	volatile uint64_t x = 1;
	uint64_t t = now_ns(), v = x;
	int i;

	/* a dependency chain: its time is the CPU's speed, not its width */
	for (i = 0; i < REF_USER_ITERS; i++)
		v = v * 6364136223846793005ull + 1442695040888963407ull;
	x = v;
	return (double)(now_ns() - t);
}

static double bpf_work_ns(int prog_fd)
{
	unsigned char pkt[64] = { 0 };
	uint64_t t;
	int i;

	LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = pkt, .data_size_in = sizeof(pkt),
		    .repeat = REF_BPF_REPEAT);
	t = now_ns();
	for (i = 0; i < REF_BPF_CALLS; i++)
		if (bpf_prog_test_run_opts(prog_fd, &opts))
			return NAN;
	return (double)(now_ns() - t);
}

static void time_here(struct speed_ref *r, double *user_ns, double *bpf_ns)
{
	double u, b;
	int k;

	*user_ns = *bpf_ns = INFINITY;
	for (k = 0; k < REF_TRIES; k++) {
		u = user_work_ns();
		b = r->prog_fd >= 0 ? bpf_work_ns(r->prog_fd) : NAN;
		*user_ns = fmin(*user_ns, u);
		*bpf_ns = isnan(b) ? NAN : fmin(*bpf_ns, b);
	}
}

int speedref_on_cpu(struct speed_ref *r, int cpu, double *user_ns, double *bpf_ns)
{
	cpu_set_t old, set;
	int err;

	if (pthread_getaffinity_np(pthread_self(), sizeof(old), &old))
		CPU_ZERO(&old);
	if (cpu >= 0) {
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		err = -pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
		if (err)
			return err;
	}
	time_here(r, user_ns, bpf_ns);
	if (cpu >= 0 && CPU_COUNT(&old))
		pthread_setaffinity_np(pthread_self(), sizeof(old), &old);
	return 0;
}

void speedref_measure(struct speed_ref *r, struct noise_sample *ns)
{
	int cpus[PLACE_MAX_THREADS], n, i, used = 0;
	double u, b, su = 0, sb = 0;

	n = place_cpus(ns, cpus, PLACE_MAX_THREADS);
	if (!n) {
		cpus[0] = -1;	/* where the caller runs */
		n = 1;
	}
	for (i = 0; i < n; i++) {
		if (speedref_on_cpu(r, cpus[i], &u, &b))
			continue;
		su += u;
		sb += b;
		used++;
	}
	ns->ref_user_ns = used ? (float)(su / used) : -1;
	ns->ref_bpf_ns = used && !isnan(sb) ? (float)(sb / used) : -1;
}
