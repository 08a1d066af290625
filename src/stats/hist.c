// SPDX-License-Identifier: GPL-2.0
/*
 * Per-op latency distributions: percentiles from log-linear bins and
 * their sums over CPUs and repetitions (no BPF: hist_bpf.c reads them
 * from a map, hist_report.c prints them).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "hist.h"
#include "util.h"

unsigned int hist_bin_of(uint64_t q)
{
	return hist_bin(q);
}

/* Bin i >= HIST_SUB is sub-bin i % 16 of the power of two 2^(i / 16 + 3) q. */
static uint64_t bin_lo_q(unsigned int i)
{
	unsigned int e = i / HIST_SUB + HIST_SUB_BITS - 1;

	if (i < HIST_SUB)
		return i;
	return (uint64_t)(HIST_SUB + i % HIST_SUB) << (e - HIST_SUB_BITS);
}

double hist_bin_lo(unsigned int i)
{
	return bin_lo_q(i) / Q_PER_NS;
}

double hist_bin_hi(unsigned int i)
{
	return i + 1 < HIST_NR_BINS ? hist_bin_lo(i + 1) : (double)(1ull << HIST_TOP_EXP) / Q_PER_NS;
}

/* The p-quantile of bins[] less sub[] (NULL: nothing), n values in all. */
static double quantile(const uint64_t *bins, const uint64_t *sub, uint64_t n, double p)
{
	double rank = p * (double)n, before = 0, c, lo, hi, v = 0;
	unsigned int i;

	if (!n)
		return 0;
	for (i = 0; i < HIST_NR_BINS; i++) {
		c = (double)(bins[i] - (sub ? sub[i] : 0));
		if (!c)
			continue;
		lo = hist_bin_lo(i);
		hi = hist_bin_hi(i);
		v = hi;
		if (before + c >= rank)
			return lo + (hi - lo) * (rank - before) / c;
		before += c;
	}
	return v;
}

double hist_quantile(const struct hist *h, double p)
{
	double v = quantile(h->bins, NULL, h->ops, p);

	/* the maximum is the one value known exactly: no percentile passes it */
	return h->max_ns > 0 && v > h->max_ns ? h->max_ns : v;
}

/*
 * Medians, not means: a batch an interrupt hit moves a mean of a few
 * hundred batches by more than 5%, and that is noise of the kind the
 * percentiles already show; what this check is for is a per-op time
 * that depends on how many ops a batch has: a cost per batch that the
 * clock's does not cover, a clock too coarse for the batch, frequency
 * changes, or the CPU running a loop of N differently from one of 2N
 * (noop's empty loop here: within 1% from 1024 ops, off by 8-13% at
 * 128 and 256).
 */
static double linearity(const struct hist *h)
{
	uint64_t full_batches = h->batches - h->half_batches, full_ops = h->ops - h->half_ops;
	double full, half;

	if (full_batches < 32 || h->half_batches < 32)
		return NAN;
	full = quantile(h->bins, h->half_bins, full_ops, 0.5);
	half = quantile(h->half_bins, NULL, h->half_ops, 0.5);
	return half > 0 ? full / half : NAN;
}

void hist_summarize(const struct hist *h, struct hist_summary *s)
{
	s->ops = h->ops;
	s->p50 = hist_quantile(h, 0.50);
	s->p90 = hist_quantile(h, 0.90);
	s->p99 = hist_quantile(h, 0.99);
	s->p999 = hist_quantile(h, 0.999);
	s->max = h->ops ? hist_quantile(h, 1.0) : 0;
	s->mean = h->ops ? h->time_ns / (double)h->ops : 0;
	s->linearity = linearity(h);
}

void hist_merge(struct hist *acc, const struct hist *h)
{
	uint64_t batches = acc->batches + h->batches;
	unsigned int i;

	if (batches)
		acc->clock_ns = (acc->clock_ns * acc->batches + h->clock_ns * h->batches) / batches;
	if (!acc->vs[0])
		snprintf(acc->vs, sizeof(acc->vs), "%s", h->vs);
	acc->ops += h->ops;
	acc->tail_ops += h->tail_ops;
	acc->batches = batches;
	acc->below += h->below;
	acc->time_ns += h->time_ns;
	acc->half_batches += h->half_batches;
	acc->half_ops += h->half_ops;
	acc->half_time_ns += h->half_time_ns;
	if (h->max_ns > acc->max_ns)
		acc->max_ns = h->max_ns;
	for (i = 0; i < HIST_NR_BINS; i++) {
		acc->bins[i] += h->bins[i];
		acc->half_bins[i] += h->half_bins[i];
	}
}

/* ---- a run's set ---- */

struct hist *hist_set_get(struct hist_set **set, const char *name)
{
	struct hist_set *s = *set;
	int i;

	if (!s)
		s = *set = xcalloc(1, sizeof(*s));
	for (i = 0; i < s->n; i++)
		if (!strcmp(s->h[i].name, name))
			return &s->h[i];
	s->h = realloc(s->h, (s->n + 1) * sizeof(*s->h));
	if (!s->h)
		die("out of memory");
	memset(&s->h[s->n], 0, sizeof(s->h[0]));
	snprintf(s->h[s->n].name, sizeof(s->h[0].name), "%s", name);
	return &s->h[s->n++];
}

void hist_set_merge(struct hist_set **acc, const struct hist_set *one)
{
	int i;

	for (i = 0; one && i < one->n; i++)
		hist_merge(hist_set_get(acc, one->h[i].name), &one->h[i]);
}

void hist_set_free(struct hist_set *set)
{
	if (!set)
		return;
	free(set->h);
	free(set);
}
