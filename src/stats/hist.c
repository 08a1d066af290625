// SPDX-License-Identifier: GPL-2.0
/*
 * Per-op latency distributions: percentiles from log-linear bins, their
 * sums over CPUs and repetitions, the Latency line and the JSON object;
 * and reading them from a BPF object's per-CPU map.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "bench.h"
#include "cli.h"
#include "hist.h"
#include "jsonw.h"
#include "runner.h"
#include "trigger.h"
#include "util.h"

#define Q_PER_NS	((double)(1 << HIST_FRAC_BITS))

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

/* ---- output ---- */

/*
 * The throughput's ns per op for h's comparison, per producer; 0: none.
 * The vs metric is that already (noop's and bloom's latency are 1000 x
 * producers / throughput, lpm-trie's scale has the producers in it):
 * taking it times the producers again would set the mean beside p^2
 * over the throughput.
 */
static double thr_ns(const struct run_result *res, const struct hist *h)
{
	int m = res && h->vs[0] ? res_metric(res, h->vs) : -1;

	return m >= 0 ? res_shown_mean(res, m) : 0;
}

enum verdict { V_NONE, V_AGREE, V_OUTSIDE, V_DISAGREE };

static const char *const verdict_names[] = {
	[V_NONE] = NULL, [V_AGREE] = "agree", [V_OUTSIDE] = "outside", [V_DISAGREE] = "disagree",
};

/* How the timed ops' mean reads against the throughput's ns per op. */
static enum verdict verdict(const struct hist *h, double thr)
{
	double diff = thr - (h->ops ? h->time_ns / h->ops : 0);

	if (thr <= 0 || !h->ops)
		return V_NONE;
	if (fabs(diff) <= thr * HIST_AGREE_PCT / 100)
		return V_AGREE;
	return diff > 0 ? V_OUTSIDE : V_DISAGREE;
}

static bool linear_warning(const struct hist_summary *s)
{
	return !isnan(s->linearity) && fabs(s->linearity - 1) * 100 > HIST_LINEAR_PCT;
}

static void json_bins(struct jsonw *w, const struct hist *h)
{
	unsigned int i;

	jsonw_key(w, "bins");
	jsonw_arr_open(w);
	for (i = 0; i < HIST_NR_BINS; i++) {
		if (!h->bins[i])
			continue;
		jsonw_arr_open(w);
		jsonw_double(w, hist_bin_lo(i));
		jsonw_double(w, hist_bin_hi(i));
		jsonw_u64(w, h->bins[i]);
		jsonw_arr_close(w);
	}
	jsonw_arr_close(w);
}

static void json_hist(struct jsonw *w, const struct run_result *res, const struct hist *h)
{
	double thr = thr_ns(res, h);
	struct hist_summary s;
	enum verdict v;

	hist_summarize(h, &s);
	v = verdict(h, thr);
	jsonw_key(w, h->name);
	jsonw_obj_open(w);
	jsonw_kstr(w, "unit", "ns");
	json_bins(w, h);
	jsonw_ku64(w, "count", h->ops);
	jsonw_ku64(w, "tail_ops", h->tail_ops);
	jsonw_ku64(w, "batches", h->batches);
	jsonw_ku64(w, "below_clock", h->below);
	jsonw_kdouble(w, "p50", s.p50);
	jsonw_kdouble(w, "p90", s.p90);
	jsonw_kdouble(w, "p99", s.p99);
	jsonw_kdouble(w, "p999", s.p999);
	jsonw_kdouble(w, "max", s.max);
	jsonw_kdouble(w, "mean", s.mean);
	jsonw_kdouble(w, "clock_ns", h->clock_ns);
	jsonw_kdouble(w, "bin_error_pct", HIST_BIN_ERR_PCT);
	jsonw_kdouble(w, "linearity", s.linearity);
	jsonw_kbool(w, "linearity_warning", linear_warning(&s));
	jsonw_ku64(w, "half_batches", h->half_batches);
	jsonw_ku64(w, "half_ops", h->half_ops);
	if (h->vs[0])
		jsonw_kstr(w, "vs", h->vs);
	if (v != V_NONE) {
		jsonw_kdouble(w, "vs_ns", thr);
		jsonw_kstr(w, "verdict", verdict_names[v]);
	}
	jsonw_obj_close(w);
}

void hist_json(struct jsonw *w, const struct run_result *res, const struct hist_set *set)
{
	int k;

	if (!set || !set->n)
		return;
	jsonw_key(w, "histograms");
	jsonw_obj_open(w);
	for (k = 0; k < set->n; k++)
		json_hist(w, res, &set->h[k]);
	jsonw_obj_close(w);
}

/* ns with the digits that mean something at its size. */
static const char *ns(char *buf, size_t len, double v)
{
	snprintf(buf, len, "%.*f", v < 10 ? 3 : v < 1000 ? 1 : 0, v);
	return buf;
}

static void consistency(FILE *out, const struct hist *h, double thr)
{
	double diff = thr - h->time_ns / h->ops;
	char a[32];

	switch (verdict(h, thr)) {
	case V_AGREE:
		fprintf(out, ": agree within %g%%", HIST_AGREE_PCT);
		break;
	case V_OUTSIDE:
		fprintf(out, ": %s ns per op (%.0f%%) is spent outside the timed ops (trigger, harness)",
			ns(a, sizeof(a), diff), diff / thr * 100);
		break;
	case V_DISAGREE:
		fprintf(out, ": DISAGREE by %.0f%% (more than %g%%): the timed ops take longer than "
			"the throughput allows; an op is mis-counted or timing slows the runs",
			-diff / thr * 100, HIST_AGREE_PCT);
		break;
	case V_NONE:
		break;
	}
}

void hist_latency_line(FILE *out, const struct hist *h, const char *label, double thr)
{
	char a[32], b[32], c[32], d[32], e[32];
	struct hist_summary s;

	fprintf(out, "Latency%s%s: ", label ? " " : "", label ?: "");
	if (!h->ops) {
		fprintf(out, "no op was timed in the measured samples\n");
		return;
	}
	hist_summarize(h, &s);
	fprintf(out, "p50 %s ns, p90 %s ns, p99 %s ns, p99.9 %s ns, max %s ns",
		ns(a, sizeof(a), s.p50), ns(b, sizeof(b), s.p90), ns(c, sizeof(c), s.p99),
		ns(d, sizeof(d), s.p999), ns(e, sizeof(e), s.max));
	fprintf(out, " (%llu ops sampled; mean %s ns", (unsigned long long)s.ops,
		ns(a, sizeof(a), s.mean));
	if (thr > 0) {
		fprintf(out, " vs %s ns from throughput", ns(b, sizeof(b), thr));
		consistency(out, h, thr);
	}
	fprintf(out, "; clock %s ns per timed batch taken off)", ns(a, sizeof(a), h->clock_ns));
	if (h->batches && h->below * 10 > h->batches)
		fprintf(out, "; %.0f%% of the timed batches took less than the clock's cost: "
			"these are clock noise, time more ops per batch", 100.0 * h->below / h->batches);
	if (linear_warning(&s))
		fprintf(out, "; batches of 2N ops took %.2f times as long as N, not 2: system noise "
			"or a cost per batch may affect this figure", 2 * s.linearity);
	fputc('\n', out);
}

void hist_report(FILE *out, const struct run_result *res)
{
	const struct hist_set *set = res->hists;
	int k;

	for (k = 0; set && k < set->n; k++)
		hist_latency_line(out, &set->h[k], set->n > 1 ? set->h[k].name : NULL,
				  thr_ns(res, &set->h[k]));
}

/* ---- from a BPF object ---- */

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
static int time_clock(struct hist_bpf *hb, const struct bench_env *env, int prog_fd)
{
	unsigned char pkt[64] = { 0 };
	struct hist clock;
	int err;

	err = test_run_pkt(prog_fd, pkt, sizeof(pkt), 200, NULL);
	if (!err)
		err = read_hist(hb, HIST_CLOCK_ID, &clock);
	if (err) {
		errmsg("%s: cannot time the clock for --latency: %s", env->bench->name,
		       strerror(-err));
		return err;
	}
	hb->clock_ns = hist_quantile(&clock, 0.5);
	*hb->clock_q = (__u64)llround(hb->clock_ns * Q_PER_NS);
	return 0;
}

int hist_bpf_open(struct hist_bpf *hb, const struct bench_env *env, int map_fd,
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
	hb->warm = env->opts->warmup_ms / env->opts->period_ms;
	snprintf(hb->vs, sizeof(hb->vs), "%s", vs ?: "");
	hb->open = true;
	hist_bpf_name(hb, 0, name);
	return time_clock(hb, env, clock_prog_fd);
}

void hist_bpf_name(struct hist_bpf *hb, int id, const char *name)
{
	if (id < 0 || id >= HIST_MAX)
		die("internal: histogram id %d", id);
	snprintf(hb->names[id], sizeof(hb->names[id]), "%s", name);
	if (id >= hb->n)
		hb->n = id + 1;
}

int hist_bpf_sample(struct hist_bpf *hb, const struct bench_env *env)
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
 * nothing is in flight (see src/hist.h).  The last sample's read stands
 * in if the map cannot be read.
 */
static const struct hist *final_read(struct hist_bpf *hb, int id, struct hist *out)
{
	return read_both(hb, id, out) ? &hb->last[id] : out;
}

void hist_bpf_close(struct hist_bpf *hb, struct bench_env *env)
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
		h = hist_set_get(&env->res->hists, hb->names[id]);
		hist_merge(h, &one);
	}
	free(hb->buf);
	free(hb->base);
	memset(hb, 0, sizeof(*hb));
}

void hist_bpf_measure(struct hist_bpf *hb, struct bench_env *env, double *sampled)
{
	int err;

	if (!hb->open)
		return;
	err = hist_bpf_sample(hb, env);
	if (err)
		bench_fail(env, err, "cannot read the latency histogram: %s", strerror(-err));
	*sampled = hist_bpf_period_ops(hb, 0);
}
