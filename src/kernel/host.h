/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The host's state that moves a benchmark's figure (`bpfbench host`):
 * what pyperf's `system show` and Google Benchmark's "Reducing variance"
 * look at, read from sysfs and procfs, and the knobs root may turn and
 * turn back.  BPFBENCH_SYSFS_ROOT prefixes every /sys and /proc path (a
 * test's fake tree); BPFBENCH_HOST_STATE names where `host tune` keeps
 * what it changed (default /run/bpfbench-host-tune).
 */
#ifndef BPFBENCH_HOST_H
#define BPFBENCH_HOST_H

#include <stdbool.h>
#include <stddef.h>

#define HOST_MAX_CPUS	256

struct host_cpu {
	int cpu;
	char governor[32];	/* "" : no cpufreq */
	char driver[32];
	double irqs_per_s;	/* interrupts it took in the window (/proc/interrupts) */
	double steal_pct;	/* of its time in the window (/proc/stat) */
};

struct host_facts {
	bool hypervisor;	/* the CPU says it runs under one (/proc/cpuinfo) */
	char model[128];
	int nr_cpus;
	struct host_cpu cpus[HOST_MAX_CPUS];
	char smt[32];		/* /sys/devices/system/cpu/smt/control, "" : none */
	char boost[32];		/* "on", "off" or "" : no such knob */
	char isolated[64];	/* isolcpus, "" : none */
	char nohz_full[64];
	char thp[32];		/* transparent hugepages: the [chosen] word */
	double pressure_avg10;	/* CPU pressure, %; < 0: no PSI */
	double loadavg1;
	double window_s;	/* how long interrupts and steal were counted */
};

/* Reads everything, counting interrupts and steal over window_s seconds. */
int host_read(struct host_facts *h, double window_s);

/* The knobs `host tune` turns (under BPFBENCH_SYSFS_ROOT), and none else is reset. */
#define HOST_KNOB_GOVERNOR	"/sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor"
#define HOST_KNOB_BOOST		"/sys/devices/system/cpu/cpufreq/boost"
#define HOST_KNOB_NO_TURBO	"/sys/devices/system/cpu/intel_pstate/no_turbo"

/* One knob `host tune` turns: the file and the value it sets. */
struct host_knob {
	char path[256];
	char value[32];
};
/* What tune would change here (governors to performance, boost off): the count. */
int host_tune_plan(struct host_knob *k, int max);
/*
 * Applies the plan, saving the old values first: 0 or -errno; *changed
 * gets the count.  -EPERM: the state file refused (host_state_refused()).
 */
int host_tune(const struct host_knob *k, int n, int *changed);
/* Called by host_reset() for each path (or line) it could not write back, and why. */
typedef void (*host_reset_fail_fn)(const char *path, const char *why, void *arg);
/*
 * Writes back what tune saved and removes the saved state: 0; -ENOENT if
 * there is no state file; another -errno if it cannot be read or is
 * refused (said through fail); else the count of lines that failed (each
 * said through fail), the state kept.  *restored: the values written back.
 */
int host_reset(int *restored, host_reset_fail_fn fail, void *arg);
/* Where the saved state is. */
const char *host_state_path(void);
/* Why the state file was last refused (a link, another user's, writable by others), or NULL. */
const char *host_state_refused(void);

#endif
