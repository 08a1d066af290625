// SPDX-License-Identifier: GPL-2.0
/*
 * Reading a BPF object's latency histograms (its per-CPU hist_map): the
 * clock's cost at open, a read every period, the measured phase's
 * distributions into the run's at the end.  bench.c gives a benchmark
 * the env forms of these calls.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "hist.h"
#include "hist_bpf.h"
#include "trigger.h"
#include "util.h"

static int read_hist(struct hist_bpf *hb, unsigned int id, struct hist *out)
{
	const struct hist_cpu *c;
	uint64_t sum_ns = 0, max_q = 0;
	unsigned int i;
	int cpu;

	memset(out, 0, sizeof(*out));
	if (bpf_map_lookup_elem(hb->map_fd, &id, hb->buf))
		return -errno;
	KERNEL_WROTE(hb->buf, sizeof(*hb->buf) * hb->nr_cpus);
	for (cpu = 0; cpu < hb->nr_cpus; cpu++) {
		c = &hb->buf[cpu];
		out->ops += c->ops;
		out->batches += c->batches;
		out->below += c->below;
		sum_ns += c->sum_ns;
		if (c->max_q > max_q)
			max_q = c->max_q;
		for (i = 0; i < HIST_NR_BINS; i++)
			out->bins[i] += c->bins[i];
	}
	out->clock_ns = hb->clock_ns;
	out->time_ns = sum_ns - out->batches * hb->clock_ns;
	out->max_ns = max_q / Q_PER_NS;
	return 0;
}

/* Histogram id: its full batches plus its half batches (kept apart for the linearity check). */
static int read_both(struct hist_bpf *hb, unsigned int id, struct hist *out)
{
	struct hist *half = &hb->scratch;
	int err = read_hist(hb, id, out);

	if (!err)
		err = read_hist(hb, id + HIST_HALF, half);
	if (err)
		return err;
	memcpy(out->half_bins, half->bins, sizeof(out->half_bins));
	out->half_batches = half->batches;
	out->half_ops = half->ops;
	out->half_time_ns = half->time_ns;
	hist_merge(out, half);
	return 0;
}

/*
 * The clock's cost: the median of empty timed batches.  The median, not
 * the mean: a batch an interrupt hit is no part of what every batch pays.
 */
static int time_clock(struct hist_bpf *hb, const char *who, int prog_fd)
{
	unsigned char pkt[64] = { 0 };
	struct hist clock;
	int err;

	err = test_run_pkt(prog_fd, pkt, sizeof(pkt), 200, NULL);
	if (!err)
		err = read_hist(hb, HIST_CLOCK_ID, &clock);
	if (err) {
		errmsg("%s: cannot time the clock for --latency: %s", who,
		       strerror(-err));
		return err;
	}
	hb->clock_ns = hist_quantile(&clock, 0.5);
	*hb->clock_q = (__u64)llround(hb->clock_ns * Q_PER_NS);
	return 0;
}

int hist_bpf_init(struct hist_bpf *hb, const char *who, unsigned int warm, int map_fd,
		  int clock_prog_fd, volatile __u64 *clock_q, const char *name, const char *vs)
{
	memset(hb, 0, sizeof(*hb));
	hb->map_fd = map_fd;
	hb->clock_q = clock_q;
	hb->nr_cpus = libbpf_num_possible_cpus();
	if (hb->nr_cpus < 0)
		return hb->nr_cpus;
	hb->buf = xcalloc(hb->nr_cpus, sizeof(*hb->buf));
	hb->base = xcalloc(3 * HIST_MAX, sizeof(*hb->base));
	hb->last = hb->base + HIST_MAX;
	hb->prev = hb->last + HIST_MAX;
	hb->warm = warm;
	snprintf(hb->vs, sizeof(hb->vs), "%s", vs ?: "");
	hb->open = true;
	hist_bpf_name(hb, 0, name);
	return time_clock(hb, who, clock_prog_fd);
}

void hist_bpf_name(struct hist_bpf *hb, int id, const char *name)
{
	if (id < 0 || id >= HIST_MAX)
		die("internal: histogram id %d", id);
	snprintf(hb->names[id], sizeof(hb->names[id]), "%s", name);
	if (id >= hb->n)
		hb->n = id + 1;
}

int hist_bpf_read(struct hist_bpf *hb)
{
	int id, err;

	if (!hb->open)
		return 0;
	for (id = 0; id < hb->n; id++) {
		hb->prev[id] = hb->last[id];
		err = read_both(hb, id, &hb->last[id]);
		if (err)
			return err;
		/* the runner's baseline call is call 0, then one per period */
		if (hb->calls <= hb->warm)
			hb->base[id] = hb->last[id];
	}
	hb->calls++;
	return 0;
}

uint64_t hist_bpf_period_ops(const struct hist_bpf *hb, int id)
{
	if (!hb->open || hb->calls <= hb->warm + 1)
		return 0;
	return hb->last[id].ops - hb->prev[id].ops;
}

/* last - base: what the measured samples saw. */
static void measured(const struct hist *base, const struct hist *last, struct hist *out)
{
	unsigned int i, top = 0;

	*out = *last;
	out->ops -= base->ops;
	out->batches -= base->batches;
	out->below -= base->below;
	out->time_ns -= base->time_ns;
	out->half_batches -= base->half_batches;
	out->half_ops -= base->half_ops;
	out->half_time_ns -= base->half_time_ns;
	for (i = 0; i < HIST_NR_BINS; i++) {
		out->bins[i] -= base->bins[i];
		out->half_bins[i] -= base->half_bins[i];
		if (out->bins[i])
			top = i;
	}
	/* a maximum no larger than the warm-up's may be the warm-up's: its bin bounds it */
	if (last->max_ns <= base->max_ns && out->ops && hist_bin_hi(top) < out->max_ns)
		out->max_ns = hist_bin_hi(top);
	if (!out->ops)
		out->max_ns = 0;
}

/*
 * The end of the measured phase: read now, with the producers stopped,
 * nothing is in flight (see hist_bpf.h).  The last sample's read stands
 * in if the map cannot be read.
 */
static const struct hist *final_read(struct hist_bpf *hb, int id, struct hist *out)
{
	return read_both(hb, id, out) ? &hb->last[id] : out;
}

void hist_bpf_end(struct hist_bpf *hb, struct hist_set **into)
{
	struct hist one, end, *h;
	const struct hist *fin;
	int id;

	if (!hb->open)
		return;
	for (id = 0; id < hb->n && hb->calls > hb->warm + 1; id++) {
		fin = final_read(hb, id, &end);
		measured(&hb->base[id], fin, &one);
		one.tail_ops = fin->ops - hb->last[id].ops;
		snprintf(one.vs, sizeof(one.vs), "%s", hb->vs);
		h = hist_set_get(into, hb->names[id]);
		hist_merge(h, &one);
	}
	free(hb->buf);
	free(hb->base);
	memset(hb, 0, sizeof(*hb));
}
