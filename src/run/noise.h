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

/*
 * A sample is under noise above these.  Pressure: measured on the 2-vCPU
 * reference VM (doc/calibration.md, "What noise moves a figure"): samples
 * under less than 20% CPU pressure ran within a few % of the quiet ones,
 * above it 25-60% slower.  Steal: never seen there; kept at 2%.
 */
#define NOISE_STEAL_PCT		2.0	/* of all CPUs' time in the period */
#define NOISE_PRESSURE_PCT	20.0	/* of the period's wall time */
/* A shift of the noisy samples from the quiet ones smaller than this is not reported. */
#define NOISE_SHIFT_PCT		2.0

/* Threads whose placement a sample records (placement.h): the first of the run's. */
#define PLACE_MAX_THREADS	16

struct noise_sample {
	float steal_pct;	/* < 0: not known */
	float pressure_pct;	/* < 0: not known (no PSI) */
	bool noisy;
	/* where the run's threads ran in the period (placement.h) */
	bool moved;		/* a thread migrated or changed CPU */
	uint8_t nr_threads;	/* 0: not recorded */
	int16_t cpu[PLACE_MAX_THREADS];		/* the CPU each last ran on, -1: not known */
	uint16_t migrations[PLACE_MAX_THREADS];	/* in the period */
	float oncpu[PLACE_MAX_THREADS];		/* share of the period each ran on a CPU, < 0: not known */
	/* --speed-ref: the reference work's time on those CPUs after the period (speedref.h) */
	float ref_user_ns, ref_bpf_ns;	/* < 0: not measured */
};

struct noise_mon {
	bool oversubscribed;	/* our threads outnumber CPUs: waiting is by design, not noise */
	unsigned long long steal, total;
	unsigned long long psi_us;
	uint64_t t_ns;
	bool have_stat, have_psi;
};

/*
 * What the noise did to a run's first metric: its noisy samples against
 * its quiet ones (a Welch test), so that a figure is flagged only where
 * the noise moved it, with by how much.
 */
struct noise_effect {
	int noisy, quiet;
	double shift_pct;	/* noisy mean vs quiet mean, %; NAN without both sides */
	bool moved;		/* significant (p < 0.05) and beyond NOISE_SHIFT_PCT */
	double median_pressure;	/* over every sample, %; NAN: not known */
};
/* v[i * stride]: the metric of sample i; ns[i]: its noise. */
void noise_effect(const double *v, int stride, const struct noise_sample *ns, int n,
		  struct noise_effect *out);

/* Starts a period; threads: how many of ours run at once. */
void noise_begin(struct noise_mon *m, int threads);
/* The noise since the last call (or noise_begin), and starts the next period. */
void noise_next(struct noise_mon *m, struct noise_sample *out);

#endif
