// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for src/stats/hist.c, no BPF: the bin layout the BPF side shares,
 * percentiles of synthetic histograms whose answers are known, sums,
 * the Latency line and the JSON object.  Prints TAP; exits 1 on failure.
 */
#include <json-c/json.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "hist.h"
#include "hist_report.h"
#include "jsonw.h"
#include "result.h"

#define Q(ns)	((uint64_t)llround((ns) * (1 << HIST_FRAC_BITS)))

static int test_no, failures;

static void ok(int cond, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void ok(int cond, const char *fmt, ...)
{
	va_list ap;

	test_no++;
	failures += !cond;
	printf("%sok %d - ", cond ? "" : "not ", test_no);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

/* What a timed batch does on the BPF side, for per-op value v ns, w ops (no clock cost). */
static void put(struct hist *h, double v, uint64_t w)
{
	h->bins[hist_bin_of(Q(v))] += w;
	h->ops += w;
	h->batches++;
	h->time_ns += v * w;
	if (v > h->max_ns)
		h->max_ns = v;
}

static struct hist *new_hist(void)
{
	struct hist *h = calloc(1, sizeof(*h));

	if (!h)
		abort();
	return h;
}

static uint64_t bin_sum(const struct hist *h)
{
	uint64_t n = 0;
	int i;

	for (i = 0; i < HIST_NR_BINS; i++)
		n += h->bins[i];
	return n;
}

/* Where the bin holding v starts and ends. */
static double width_at(double v)
{
	unsigned int i = hist_bin_of(Q(v));

	return hist_bin_hi(i) - hist_bin_lo(i);
}

static void test_layout(void)
{
	int i, bad_contig = 0, bad_map = 0, bad_width = 0;
	uint64_t q;

	ok(hist_bin_lo(0) == 0, "the first bin starts at 0");
	for (i = 0; i < HIST_NR_BINS; i++) {
		double lo = hist_bin_lo(i), hi = hist_bin_hi(i);

		if (!(lo < hi) || (i + 1 < HIST_NR_BINS && hi != hist_bin_lo(i + 1)))
			bad_contig++;
		/* every value of q in [lo, hi) maps to i: check both ends */
		if (hist_bin_of(Q(lo)) != (unsigned int)i || hist_bin_of(Q(hi) - 1) != (unsigned int)i)
			bad_map++;
		if (lo >= 2 && (hi - lo) > lo / HIST_SUB + 1e-12)
			bad_width++;
		if (lo < 2 && (hi - lo) != 1.0 / (1 << HIST_FRAC_BITS))
			bad_width++;
	}
	ok(!bad_contig, "bins are contiguous and ordered (%d bad)", bad_contig);
	ok(!bad_map, "each bin's first and last value map to it (%d bad)", bad_map);
	ok(!bad_width, "no bin is wider than 1/16 of its start, or 1/16 ns below 2 ns (%d bad)",
	   bad_width);
	ok(hist_bin_hi(HIST_NR_BINS - 1) >= 10e9, "the bins reach 10 s (%.3g ns)",
	   hist_bin_hi(HIST_NR_BINS - 1));
	ok(hist_bin_of(UINT64_MAX) == HIST_NR_BINS - 1 && hist_bin_of(Q(100e9)) == HIST_NR_BINS - 1,
	   "longer values land in the last bin");
	for (q = 1, bad_map = 0; q < (1ull << 40); q = q * 3 + 1) {
		unsigned int b = hist_bin_of(q);
		double v = q / 16.0;

		if (b < HIST_NR_BINS - 1 && !(hist_bin_lo(b) <= v && v < hist_bin_hi(b)))
			bad_map++;
	}
	ok(!bad_map, "values across 12 decades fall inside their bin (%d bad)", bad_map);
	ok(fabs(width_at(1.0) - 0.0625) < 1e-12 && width_at(100) <= 100.0 / HIST_SUB,
	   "a 1 ns op has 1/16 ns bins, a 100 ns op bins of at most 6.25 ns");
}

/* 1..1000 ns, one op each: the p-quantile is 1000 p, to one bin. */
static void test_uniform(void)
{
	struct hist *h = new_hist();
	struct hist_summary s;
	int v;

	for (v = 1; v <= 1000; v++)
		put(h, v, 1);
	hist_summarize(h, &s);
	ok(fabs(s.p50 - 500) <= width_at(500), "uniform 1..1000: p50 %.2f is 500 to one bin", s.p50);
	ok(fabs(s.p90 - 900) <= width_at(900), "uniform: p90 %.2f is 900 to one bin", s.p90);
	ok(fabs(s.p99 - 990) <= width_at(990), "uniform: p99 %.2f is 990 to one bin", s.p99);
	ok(fabs(s.p999 - 999) <= width_at(999), "uniform: p99.9 %.2f is 999 to one bin", s.p999);
	ok(s.max == 1000, "uniform: max %.2f is exact", s.max);
	ok(fabs(s.mean - 500.5) < 1e-9, "uniform: mean %.3f is 500.5 (exact sums, not bins)", s.mean);
	ok(s.p50 <= s.p90 && s.p90 <= s.p99 && s.p99 <= s.p999 && s.p999 <= s.max,
	   "uniform: p50 <= p90 <= p99 <= p99.9 <= max");
	ok(bin_sum(h) == h->ops && s.ops == 1000, "uniform: bin counts sum to the ops");
	free(h);
}

/* 900 ops at 10 ns, 100 at 1000 ns: p50 and p90 are 10 ns, p99 1000 ns (each in its bin). */
static void test_two_points(void)
{
	struct hist *h = new_hist();
	unsigned int b10 = hist_bin_of(Q(10)), b1k = hist_bin_of(Q(1000));
	struct hist_summary s;

	put(h, 10, 900);
	put(h, 1000, 100);
	hist_summarize(h, &s);
	ok(s.p50 >= hist_bin_lo(b10) && s.p50 <= hist_bin_hi(b10), "two points: p50 %.3f in 10 ns's bin",
	   s.p50);
	ok(s.p90 >= hist_bin_lo(b10) && s.p90 <= hist_bin_hi(b10),
	   "two points: p90 %.3f still in 10 ns's bin (900 of 1000 at or below)", s.p90);
	ok(s.p99 >= hist_bin_lo(b1k) && s.p99 <= 1000, "two points: p99 %.3f in 1000 ns's bin", s.p99);
	ok(s.max == 1000 && fabs(s.mean - 109) < 1e-9, "two points: max 1000, mean 109 (%.3f)", s.mean);
	free(h);
}

/* One op value: every percentile is in its bin and none passes the exact maximum. */
static void test_single_value(void)
{
	struct hist *h = new_hist();
	unsigned int b = hist_bin_of(Q(37.3));
	struct hist_summary s;

	put(h, 37.3, 5000);
	hist_summarize(h, &s);
	ok(s.p50 >= hist_bin_lo(b) && s.max <= 37.3 + 1e-9 && s.p999 <= s.max && s.p50 <= s.p999,
	   "one value: percentiles %.3f..%.3f inside its bin, max %.3f", s.p50, s.p999, s.max);
	free(h);
}

static void test_empty(void)
{
	struct hist *h = new_hist();
	struct hist_summary s;

	hist_summarize(h, &s);
	ok(!s.ops && !s.p50 && !s.p99 && !s.max && !s.mean && isnan(s.linearity),
	   "empty: zeros, no linearity, nothing divided by zero");
	free(h);
}

/* Random histograms: the order of percentiles holds whatever the shape. */
static void test_random_order(void)
{
	struct hist_summary s;
	struct hist *h;
	int k, i, bad = 0;

	srand(7);
	for (k = 0; k < 200; k++) {
		h = new_hist();
		for (i = 0; i < 1 + rand() % 50; i++)
			put(h, exp((rand() % 2000) / 100.0) / 16, 1 + rand() % 1000);
		hist_summarize(h, &s);
		if (!(s.p50 <= s.p90 && s.p90 <= s.p99 && s.p99 <= s.p999 && s.p999 <= s.max) ||
		    bin_sum(h) != s.ops)
			bad++;
		free(h);
	}
	ok(!bad, "200 random histograms: percentiles ordered, bins sum to ops (%d bad)", bad);
}

static void test_merge(void)
{
	struct hist *a = new_hist(), *b = new_hist();
	struct hist_set *set = NULL, *other = NULL;
	struct hist_summary s;

	put(a, 10, 100);
	a->clock_ns = 20;
	put(b, 30, 300);
	b->clock_ns = 40;
	*hist_set_get(&other, "op") = *b;
	*hist_set_get(&set, "op") = *a;
	hist_set_merge(&set, other);
	hist_set_merge(&set, other);
	hist_summarize(&set->h[0], &s);
	ok(set->n == 1 && s.ops == 700 && bin_sum(&set->h[0]) == 700,
	   "merging by name adds ops and bins (%llu)", (unsigned long long)s.ops);
	ok(fabs(s.mean - (1000 + 18000) / 700.0) < 1e-9 && s.max == 30,
	   "merged mean from the sums, max the larger");
	ok(fabs(set->h[0].clock_ns - (20 + 40 + 40) / 3.0) < 1e-9,
	   "merged clock cost is the batch-weighted mean (%.3f)", set->h[0].clock_ns);
	hist_set_get(&set, "other");
	ok(set->n == 2 && !set->h[1].ops && !strcmp(set->h[1].name, "other"),
	   "a new name makes a new, empty histogram");
	hist_set_free(set);
	hist_set_free(other);
	hist_set_free(NULL);
	free(a);
	free(b);
}

static char *line_of(const struct hist *h, const char *label, double thr)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	hist_latency_line(f, h, label, thr);
	fclose(f);
	return buf;
}

/* Full batches at 1 ns per op, half batches at half or equal: the 2N-vs-N check. */
static void test_linearity(void)
{
	struct hist *h = new_hist();
	struct hist_summary s;
	char *l;
	int i;

	for (i = 0; i < 40; i++)
		put(h, 1.0, 64);
	for (i = 0; i < 40; i++) {
		put(h, 1.0, 32);
		h->half_bins[hist_bin_of(Q(1.0))] += 32;
		h->half_batches++;
		h->half_ops += 32;
	}
	hist_summarize(h, &s);
	ok(fabs(s.linearity - 1) < 0.01, "equal per-op medians: linearity %.3f", s.linearity);
	memset(h->half_bins, 0, sizeof(h->half_bins));
	h->half_bins[hist_bin_of(Q(2.0))] += 40 * 32;	/* half batches twice as slow per op */
	hist_summarize(h, &s);
	ok(fabs(s.linearity - 0.5) < 0.05, "half batches twice as slow per op: linearity %.3f",
	   s.linearity);
	l = line_of(h, NULL, 0);
	ok(strstr(l, "batches of 2N ops took 0.9") && strstr(l, "system noise or a cost per batch"),
	   "the Latency line warns about it");
	free(l);
	h->half_batches = 3;
	hist_summarize(h, &s);
	ok(isnan(s.linearity), "a handful of half batches: no linearity figure");
	free(h);
}

/* The longest line of text, in columns (bytes: the text is ASCII). */
static int widest(const char *text)
{
	int most = 0, n;

	while (*text) {
		n = strcspn(text, "\n");
		most = n > most ? n : most;
		text += n + !!text[n];
	}
	return most;
}

/*
 * Figures far past what a benchmark here gives (ops of tens of µs, a
 * hundred million of them, a long label) with every note and warning on:
 * still no line over 120 columns.
 */
static void test_widest_lines(void)
{
	static const double thrs[] = { 99999, 34750, 999.99 };	/* outside, agree, disagree */
	struct hist *w = new_hist();
	int i, most = 0, notes = 0;
	char *l;

	for (i = 0; i < 100; i++)
		put(w, 10000 + i * 500, 1000000);
	w->clock_ns = 12345.6;
	w->below = 90;
	w->batches = 100;
	w->half_bins[hist_bin_of(Q(60000.0))] += 40 * 32;
	w->half_batches = 40;
	w->half_ops = 40 * 32;
	for (i = 0; i < 3; i++) {
		l = line_of(w, "hashmap-without-bloom", thrs[i]);
		most = widest(l) > most ? widest(l) : most;
		notes += strstr(l, "clock noise") && strstr(l, "times as long as N");
		free(l);
	}
	ok(most <= 120 && notes == 3,
	   "extreme figures, every note on: no Latency line over 120 columns (%d, %d)", most, notes);
	free(w);
}

static void test_line(void)
{
	struct hist *h = new_hist();
	char *l;
	int i;

	for (i = 0; i < 100; i++)
		put(h, 10 + i % 3, 10);
	h->clock_ns = 21;
	l = line_of(h, NULL, 11);
	ok(!strncmp(l, "Latency: p50 ", 13) && strstr(l, "p90 ") && strstr(l, "p99 ") &&
	   strstr(l, "p99.9 ") && strstr(l, "max ") && strstr(l, " ns\n  mean ") &&
	   strstr(l, "vs 11.0 ns from throughput: agree within 10%\n") &&
	   strstr(l, "\n  1000 ops sampled; clock 21.0 ns"),
	   "the Latency lines: percentiles; mean vs throughput, agreement; ops and clock");
	ok(widest(l) <= 120, "every Latency line within 120 columns (%d)", widest(l));
	free(l);
	l = line_of(h, "lookup", 40);
	ok(!strncmp(l, "Latency lookup: ", 16) && strstr(l, "(73%) is spent outside the timed ops"),
	   "a slower throughput: the share outside the timed ops");
	free(l);
	l = line_of(h, NULL, 5);
	ok(strstr(l, "DISAGREE") != NULL, "timed ops slower than the throughput allows: DISAGREE");
	free(l);
	test_widest_lines();
	l = line_of(h, NULL, 0);
	ok(!strstr(l, "throughput"), "no throughput metric: no comparison");
	free(l);
	memset(h, 0, sizeof(*h));
	l = line_of(h, NULL, 11);
	ok(!strcmp(l, "Latency: no op was timed in the measured samples\n"),
	   "nothing timed: says so, no zero figures");
	free(l);
	for (i = 0; i < 100; i++)
		put(h, 10 + i % 3, 10);
	h->below = 50;
	h->batches = 100;
	l = line_of(h, NULL, 11);
	ok(strstr(l, "50% of the timed batches took less than the clock's cost") != NULL,
	   "batches below the clock's cost are called clock noise");
	free(l);
	free(h);
}

static void test_json(void)
{
	struct hist_set *set = NULL;
	struct json_object *d, *o, *bins, *b, *v;
	struct hist *h;
	struct jsonw w;
	uint64_t sum = 0;
	char *buf = NULL;
	size_t len = 0, i;
	FILE *f = open_memstream(&buf, &len);
	int ordered = 1;
	double prev = -1;

	h = hist_set_get(&set, "op");
	put(h, 1, 10);
	put(h, 100, 5);
	put(h, 1e6, 1);
	h->clock_ns = 20;
	jsonw_init(&w, f, false);
	jsonw_obj_open(&w);
	hist_json(&w, NULL, set);
	jsonw_obj_close(&w);
	fclose(f);
	d = json_tokener_parse(buf);
	ok(d && json_object_object_get_ex(d, "histograms", &o) &&
	   json_object_object_get_ex(o, "op", &o), "JSON: histograms.op (%s)", buf ? "" : "none");
	ok(json_object_object_get_ex(o, "bins", &bins) && json_object_array_length(bins) == 3,
	   "JSON: the three non-empty bins only");
	for (i = 0; bins && i < json_object_array_length(bins); i++) {
		b = json_object_array_get_idx(bins, i);
		if (json_object_get_double(json_object_array_get_idx(b, 0)) <= prev ||
		    json_object_get_double(json_object_array_get_idx(b, 1)) <=
		    json_object_get_double(json_object_array_get_idx(b, 0)))
			ordered = 0;
		prev = json_object_get_double(json_object_array_get_idx(b, 0));
		sum += json_object_get_int64(json_object_array_get_idx(b, 2));
	}
	ok(ordered && json_object_object_get_ex(o, "count", &v) && json_object_get_int64(v) == 16 &&
	   sum == 16, "JSON: [lo, hi, count] ascending, counts sum to count");
	ok(json_object_object_get_ex(o, "unit", &v) && !strcmp(json_object_get_string(v), "ns") &&
	   json_object_object_get_ex(o, "p999", &v) && json_object_object_get_ex(o, "clock_ns", &v) &&
	   json_object_get_double(v) == 20 && json_object_object_get_ex(o, "max", &v) &&
	   json_object_get_double(v) == 1e6, "JSON: unit, p999, clock_ns, exact max");
	json_object_put(d);
	free(buf);
	hist_set_free(set);
}

/*
 * With the run's ns/op metric, the JSON carries the comparison the
 * Latency line makes; the metric is one producer's ns per op already,
 * so the producers do not scale it.
 */
static void test_json_verdict(void)
{
	struct metric_def m = { .name = "latency", .unit = "ns/op", .kind = METRIC_TIME };
	struct stats st = { .n = 1, .mean = 20 };
	struct run_result res = { .nr_metrics = 1, .metrics = &m, .st = &st };
	struct json_object *d, *o, *v;
	struct jsonw w;
	struct hist *h;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	res.spec.opts.producers = 2;
	h = hist_set_get(&res.hists, "op");
	snprintf(h->vs, sizeof(h->vs), "latency");
	put(h, 10, 100);
	jsonw_init(&w, f, false);
	jsonw_obj_open(&w);
	hist_json(&w, &res, res.hists);
	jsonw_obj_close(&w);
	fclose(f);
	d = json_tokener_parse(buf);
	ok(d && json_object_object_get_ex(d, "histograms", &o) && json_object_object_get_ex(o, "op", &o) &&
	   json_object_object_get_ex(o, "vs_ns", &v) && json_object_get_double(v) == 20 &&
	   json_object_object_get_ex(o, "verdict", &v) && !strcmp(json_object_get_string(v), "outside"),
	   "JSON: vs_ns is the ns/op metric as it is (per producer already: 20, 2 producers), "
	   "verdict outside");
	json_object_put(d);
	free(buf);
	hist_set_free(res.hists);
}

int main(void)
{
	test_layout();
	test_uniform();
	test_two_points();
	test_single_value();
	test_empty();
	test_random_order();
	test_merge();
	test_linearity();
	test_line();
	test_json();
	test_json_verdict();
	printf("1..%d\n", test_no);
	return failures ? 1 : 0;
}
