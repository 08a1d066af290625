// SPDX-License-Identifier: GPL-2.0
/* A run's latency histograms in its outputs: the Latency line and the JSON object. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "hist.h"
#include "hist_report.h"
#include "jsonw.h"
#include "result.h"

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

/*
 * The verdict on the mean against the throughput's ns per op; the
 * reason a DISAGREE may have goes on a line of its own, so that no line
 * passes 120 columns.
 */
static void consistency(FILE *out, const struct hist *h, double thr)
{
	double diff = thr - h->time_ns / h->ops;
	char a[32];

	switch (verdict(h, thr)) {
	case V_AGREE:
		fprintf(out, ": agree within %g%%\n", HIST_AGREE_PCT);
		break;
	case V_OUTSIDE:
		fprintf(out, ": %s ns per op (%.0f%%) is spent outside the timed ops: trigger, harness\n",
			ns(a, sizeof(a), diff), diff / thr * 100);
		break;
	case V_DISAGREE:
		fprintf(out, ": DISAGREE by %.0f%% (over %g%%), the timed ops take longer\n"
			"  than the throughput allows: an op is mis-counted, or timing slows the runs\n",
			-diff / thr * 100, HIST_AGREE_PCT);
		break;
	case V_NONE:
		fputc('\n', out);
		break;
	}
}

/*
 * Percentiles; the mean beside the throughput with its verdict; the ops
 * sampled and the clock's cost; then a line for each warning.
 */
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
	fprintf(out, "p50 %s ns, p90 %s ns, p99 %s ns, p99.9 %s ns, max %s ns\n",
		ns(a, sizeof(a), s.p50), ns(b, sizeof(b), s.p90), ns(c, sizeof(c), s.p99),
		ns(d, sizeof(d), s.p999), ns(e, sizeof(e), s.max));
	fprintf(out, "  mean %s ns", ns(a, sizeof(a), s.mean));
	if (thr > 0) {
		fprintf(out, " vs %s ns from throughput", ns(b, sizeof(b), thr));
		consistency(out, h, thr);
	} else {
		fputc('\n', out);
	}
	fprintf(out, "  %llu ops sampled; clock %s ns per timed batch, taken off each\n",
		(unsigned long long)s.ops, ns(a, sizeof(a), h->clock_ns));
	if (h->batches && h->below * 10 > h->batches)
		fprintf(out, "  %.0f%% of the timed batches took less than the clock's cost: these are "
			"clock noise, time more ops per batch\n", 100.0 * h->below / h->batches);
	if (linear_warning(&s))
		fprintf(out, "  batches of 2N ops took %.2f times as long as N, not 2: system noise "
			"or a cost per batch may affect this figure\n", 2 * s.linearity);
}

void hist_report(FILE *out, const struct run_result *res)
{
	const struct hist_set *set = res->hists;
	int k;

	for (k = 0; set && k < set->n; k++)
		hist_latency_line(out, &set->h[k], set->n > 1 ? set->h[k].name : NULL,
				  thr_ns(res, &set->h[k]));
}
