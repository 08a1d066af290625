/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The noise under each sample: the share of the period the hypervisor
 * stole from this VM's CPUs (/proc/stat steal) and the share some task
 * waited for a CPU (/proc/pressure/cpu, PSI).  On a shared VM these are
 * the main reasons one sample differs from the next; a sample taken
 * while either was high is flagged, so a figure shows what it stands on.
 */
#ifndef BPFBENCH_NOISE_H
#define BPFBENCH_NOISE_H

#include <stdbool.h>
#include <stdint.h>

#define NOISE_STEAL_PCT		2.0	/* of all CPUs' time in the period */
#define NOISE_PRESSURE_PCT	10.0	/* of the period's wall time */

struct noise_sample {
	float steal_pct;	/* < 0: not known */
	float pressure_pct;	/* < 0: not known (no PSI) */
	bool noisy;
};

struct noise_mon {
	bool oversubscribed;	/* our threads outnumber CPUs: waiting is by design, not noise */
	unsigned long long steal, total;
	unsigned long long psi_us;
	uint64_t t_ns;
	bool have_stat, have_psi;
};

/* Starts a period; threads: how many of ours run at once. */
void noise_begin(struct noise_mon *m, int threads);
/* The noise since the last call (or noise_begin), and starts the next period. */
void noise_next(struct noise_mon *m, struct noise_sample *out);

#endif
