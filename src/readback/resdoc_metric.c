// SPDX-License-Identifier: GPL-2.0
/*
 * Reading back a run's metrics, samples and repetitions (resdoc.h): each
 * metric by its identity, name{key}, with its name, key and unit as
 * today's bpfbench spells them.
 */
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "jsonr.h"
#include "mkey.h"
#include "resdoc.h"
#include "resdoc_int.h"
#include "util.h"


static const char *const kind_names[] = {
	[RES_SAMPLED] = "sampled", [RES_RATE] = "rate", [RES_TIME] = "time",
	[RES_RATIO] = "ratio", [RES_LEVEL] = "level", [RES_PEAK] = "peak",
	[RES_COUNT] = "count", [RES_INVERSE] = "inverse",
};

const char *res_kind_name(enum res_kind k)
{
	return (size_t)k < ARRAY_SIZE(kind_names) ? kind_names[k] : "?";
}

static int metric_kind(struct loader *l, int ri, const struct jr_node *jm, struct res_metric *m)
{
	const char *kind = jr_str(l->jd, jr_typed(l->jd, jm, "kind", JR_STR));
	const char *better = jr_str(l->jd, jr_typed(l->jd, jm, "better", JR_STR));
	size_t k;

	m->kind = RES_SAMPLED;
	for (k = 0; kind && k < ARRAY_SIZE(kind_names); k++)
		if (!strcmp(kind, kind_names[k]))
			break;
	if (kind && k == ARRAY_SIZE(kind_names))
		return rd_bad(l->doc, "runs[%d].metrics.%s.kind \"%.32s\" is none this bpfbench knows",
			      ri, m->id, kind);
	if (kind)
		m->kind = (enum res_kind)k;
	if (!better)
		m->better = RES_BETTER_GUESS;
	else if (!strcmp(better, "higher"))
		m->better = RES_BETTER_HIGHER;
	else if (!strcmp(better, "lower"))
		m->better = RES_BETTER_LOWER;
	else if (!strcmp(better, "none"))
		m->better = RES_BETTER_NONE;
	else
		return rd_bad(l->doc, "runs[%d].metrics.%s.better \"%.32s\" is not higher, lower or none",
			      ri, m->id, better);
	return 0;
}

/*
 * Unit spellings of older versions, read as today's (doc/json.md, "Units"):
 * the same quantity at the same scale, so that an old file's metric
 * matches a new one's and plot puts them on one axis.
 */
static const char *const old_units[][2] = {
	{ "M/s", "M ops/s" }, { "K/s", "k ops/s" }, { "k/s", "k ops/s" },
	{ "K ops/s", "k ops/s" }, { "M elem/s", "M ops/s" }, { "elem/pass", "elems/pass" },
	{ "elements", "elems" }, { "program runs", "runs" },
};

static const char *unit_today(const char *unit)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(old_units); i++)
		if (!strcmp(unit, old_units[i][0]))
			return old_units[i][1];
	return unit;
}

/* One field of a key into buf at *off, as mkey.h writes it: 0, or -1 when it is none. */
static int key_field(struct loader *l, const struct jr_node *f, char *buf, size_t *off)
{
	const char *name = jr_key(l->jd, f), *v;
	char num[32];
	int n;

	if (f->type == JR_INT) {
		snprintf(num, sizeof(num), "%" PRId64, f->u.i);
		v = num;
	} else if (f->type == JR_STR) {
		v = jr_str(l->jd, f);
	} else {
		return -1;
	}
	if (!*name || strpbrk(name, ",={}") || strpbrk(v, ",={}"))
		return -1;
	n = snprintf(buf + *off, MKEY_MAX - *off, "%s%s=%s", *off ? "," : "", name, v);
	if (n < 0 || (size_t)n >= MKEY_MAX - *off)
		return -1;
	*off += (size_t)n;
	return 0;
}

/* "key": {"op": "lookup", "batch": 1000} as the text "op=lookup,batch=1000"; absent: NULL. */
static int metric_key(struct loader *l, int ri, const struct jr_node *jm, struct res_metric *m)
{
	const struct jr_node *k = jr_member(l->jd, jm, "key"), *f;
	char buf[MKEY_MAX];
	size_t off = 0;

	m->key = NULL;
	if (!k || k->type == JR_NULL)
		return 0;
	if (k->type != JR_OBJ)
		return rd_bad(l->doc, "malformed result: runs[%d].metrics.%s.key is not an object",
			      ri, m->id);
	for (f = jr_first(l->jd, k); f; f = jr_next(l->jd, f))
		if (key_field(l, f, buf, &off))
			return rd_bad(l->doc, "malformed result: runs[%d].metrics.%s.key: each "
				      "field a string or an integer, without ',', '=', '{' or "
				      "'}', %d characters in all at most", ri, m->id,
				      MKEY_MAX - 1);
	if (off)
		m->key = rd_keep(l->doc, buf);
	return 0;
}

static int load_metric(struct loader *l, int ri, const struct jr_node *jm, struct res_metric *m)
{
	const struct jr_node *n = jr_typed(l->jd, jm, "n", JR_INT);
	double mean;

	int ret;

	m->id = rd_keep(l->doc, jr_key(l->jd, jm));
	m->name = rd_str(l, jm, "name") ?: m->id;	/* older files: the key is the name */
	ret = metric_key(l, ri, jm, m);
	if (ret)
		return ret;
	m->unit = rd_str(l, jm, "unit");
	m->of = rd_str(l, jm, "of");
	if (m->unit)
		m->unit = unit_today(m->unit);
	if (!m->unit || rd_num(l, jm, "mean", &mean) || isnan(mean))
		return rd_bad(l->doc, "malformed result: runs[%d].metrics.%s lacks a unit or mean",
			      ri, m->id);
	m->mean = mean;
	if ((!n && jr_member(l->jd, jm, "n")) || (n && (n->u.i < 0 || n->u.i > INT_MAX)))
		return rd_bad(l->doc, "malformed result: runs[%d].metrics.%s.n is not a count "
			      "(an integer >= 0)", ri, m->id);
	m->n = n ? (int)n->u.i : 0;
	if (rd_num(l, jm, "stddev", &m->stddev) ||
	    rd_num(l, jm, "of_mean_inverse", &m->of_mean_inverse) ||
	    rd_num(l, jm, "between_run_stddev", &m->between_run_stddev) ||
	    rd_num(l, jm, "between_share", &m->between_share) ||
	    rd_num(l, jm, "resolution", &m->resolution))
		return rd_bad(l->doc, "malformed result: runs[%d].metrics.%s has a field that is "
			      "not a number", ri, m->id);
	if (isnan(m->stddev))
		m->stddev = 0;
	if (isnan(m->resolution))
		m->resolution = 0;
	return metric_kind(l, ri, jm, m);
}

/* The metric named key, trying first the one after the previous match (samples keep their order). */
static struct res_metric *sample_metric(struct res_run *r, const char *key, int *hint)
{
	int i, k;

	for (i = 0; i < r->nr_metrics; i++) {
		k = (*hint + i) % r->nr_metrics;
		if (!strcmp(r->metrics[k].id, key)) {
			*hint = k + 1;
			return &r->metrics[k];
		}
	}
	return NULL;
}

/*
 * The samples of a run as they are read, their number not known before:
 * each metric's array grows by doubling, and is filled (NaN where a
 * sample lacks the metric) only up to the sample written, so memory
 * follows what was read.  A run may hold no more metric values than its
 * samples' text could spell (one per two bytes, and a million more): a
 * small file that names many metrics and has many empty samples is
 * refused, not expanded (memory stays within 4 times the text).
 */
struct cols {
	size_t cap;		/* room in every metric's array */
	size_t *filled;		/* per metric: [0, filled) hold a value or NaN */
	size_t limit;		/* metrics x samples allowed */
	const struct jr_doc *d;	/* where the sample being read lives */
};

static void fill_nan(double *v, size_t from, size_t to)
{
	for (; from < to; from++)
		v[from] = NAN;
}

static int cols_room(struct loader *l, int ri, struct res_run *r, struct cols *c, size_t si)
{
	size_t cap = c->cap ? c->cap * 2 : 8;
	int i;

	if (si < c->cap)
		return 0;
	if ((uint64_t)r->nr_metrics * (si + 1) > c->limit)
		return rd_bad(l->doc, "malformed result: runs[%d] has %d metrics and more than %zu "
			      "samples: more values than its text holds", ri, r->nr_metrics, si);
	for (i = 0; i < r->nr_metrics; i++) {
		r->metrics[i].samples = realloc(r->metrics[i].samples, cap * sizeof(double));
		if (!r->metrics[i].samples)
			die("out of memory");
	}
	if (r->sample_repeat) {
		r->sample_repeat = realloc(r->sample_repeat, cap * sizeof(int));
		if (!r->sample_repeat)
			die("out of memory");
		memset(r->sample_repeat + c->cap, 0, (cap - c->cap) * sizeof(int));
	}
	c->cap = cap;
	return 0;
}

static int sample_member(struct loader *l, int ri, size_t si, const struct jr_node *v,
			 struct res_run *r, struct cols *c, int *hint)
{
	const char *key = jr_key(c->d, v);
	struct res_metric *m;

	if (!strcmp(key, "repeat")) {
		if (v->type != JR_INT || v->u.i < 0 || v->u.i > INT32_MAX)
			return rd_bad(l->doc, "malformed result: runs[%d].samples[%zu].repeat is not "
				      "a run index", ri, si);
		if (!r->sample_repeat)
			r->sample_repeat = xcalloc(c->cap, sizeof(int));
		r->sample_repeat[si] = (int)v->u.i;
		return 0;
	}
	m = sample_metric(r, key, hint);
	if (!m || v->type == JR_NULL)
		return 0;	/* elapsed_ns and the like; NaN is written as null */
	if (v->type != JR_INT && v->type != JR_NUM)
		return rd_bad(l->doc, "malformed result: runs[%d].samples[%zu].%s is not a number",
			      ri, si, key);
	fill_nan(m->samples, c->filled[m - r->metrics], si);
	c->filled[m - r->metrics] = si + 1;
	m->samples[si] = jr_num(v);
	m->nr_values++;
	return 0;
}

/* The arrays cut to the samples read, NaN where none was. */
static void cols_finish(struct res_run *r, struct cols *c, size_t n)
{
	int i;

	for (i = 0; i < r->nr_metrics; i++) {
		/* a run without samples still has an array */
		r->metrics[i].samples = realloc(r->metrics[i].samples, (n ?: 1) * sizeof(double));
		if (!r->metrics[i].samples)
			die("out of memory");
		fill_nan(r->metrics[i].samples, c->filled[i], n);
	}
	if (r->sample_repeat && n <= c->cap)	/* else a failed load: freed as it is */
		r->sample_repeat = realloc(r->sample_repeat, (n ?: 1) * sizeof(int));
	r->nr_samples = (int)n;
	free(c->filled);
}

static int load_samples(struct loader *l, int ri, const struct jr_node *samples, struct res_run *r)
{
	struct cols c = { .filled = xcalloc(r->nr_metrics ?: 1, sizeof(size_t)) };
	const struct jr_node *s, *v;
	struct jr_iter it;
	int hint = 0, ret = 0;
	size_t si = 0;

	c.limit = (samples->type == JR_RAW ? samples->u.s.len / 2 : UINT32_MAX) + (1u << 20);
	jr_iter_init(&it, l->jd, samples);
	for (; !ret && (s = jr_iter_next(&it)); si++) {
		c.d = jr_iter_doc(&it);
		if (!(si & 4095) && interrupted())
			ret = rd_bad(l->doc, "interrupted by signal %d", interrupted_signal());
		else if (si > INT32_MAX - 1)
			ret = rd_bad(l->doc, "malformed result: runs[%d] has too many samples", ri);
		else if (s->type != JR_OBJ)
			ret = rd_bad(l->doc, "malformed result: runs[%d].samples[%zu] is not an object",
				     ri, si);
		else
			ret = cols_room(l, ri, r, &c, si);
		for (v = ret ? NULL : jr_first(c.d, s); v; v = jr_next(c.d, v)) {
			ret = sample_member(l, ri, si, v, r, &c, &hint);
			if (ret)
				break;
		}
	}
	jr_iter_free(&it);
	cols_finish(r, &c, si);
	return ret;
}

/* runs[].repeats: [{"index": k, "metrics": {NAME: {"n", "mean", "stddev"}}}], one per run. */
static int load_repeats(struct loader *l, int ri, const struct jr_node *reps, struct res_run *r)
{
	const struct jr_node *rec, *jm;
	struct res_metric *m;
	int i, k = 0, hint = 0;
	double mean;

	r->nr_repeats = (int)reps->u.kids.count;
	for (i = 0; i < r->nr_metrics; i++) {
		r->metrics[i].rep_mean = xcalloc(r->nr_repeats ?: 1, sizeof(double));
		for (k = 0; k < r->nr_repeats; k++)
			r->metrics[i].rep_mean[k] = NAN;
	}
	for (k = 0, rec = jr_first(l->jd, reps); rec; rec = jr_next(l->jd, rec), k++) {
		jm = jr_first(l->jd, jr_typed(l->jd, rec, "metrics", JR_OBJ));
		if (!jr_typed(l->jd, rec, "metrics", JR_OBJ))
			return rd_bad(l->doc, "malformed result: runs[%d].repeats[%d] lacks its metrics",
				      ri, k);
		for (; jm; jm = jr_next(l->jd, jm)) {
			m = sample_metric(r, jr_key(l->jd, jm), &hint);
			if (!m)
				continue;
			if (rd_num(l, jm, "mean", &mean))
				return rd_bad(l->doc, "malformed result: runs[%d].repeats[%d].metrics.%s"
					      ".mean is not a number", ri, k, m->id);
			m->rep_mean[k] = mean;
		}
	}
	return 0;
}

bool res_possible(enum res_kind k, double v)
{
	return isnan(v) || (isfinite(v) && (k == RES_RATIO || v >= 0));
}

/* The first figure of m its kind cannot have (mean, summary, sample, run mean), else NAN. */
static double impossible(const struct res_run *r, const struct res_metric *m)
{
	int k;

	if (!res_possible(m->kind, m->mean))
		return m->mean;
	if (!res_possible(m->kind, m->of_mean_inverse))
		return m->of_mean_inverse;
	for (k = 0; m->samples && k < r->nr_samples; k++)
		if (!res_possible(m->kind, m->samples[k]))
			return m->samples[k];
	for (k = 0; m->rep_mean && k < r->nr_repeats; k++)
		if (!res_possible(m->kind, m->rep_mean[k]))
			return m->rep_mean[k];
	return NAN;
}

/* Every reader's one rule (compare, plot, db record): a figure its kind allows, or refused. */
static int check_figures(struct loader *l, int ri, const struct res_run *r)
{
	const struct res_metric *m;
	double bad;
	int j;

	for (j = 0; j < r->nr_metrics; j++) {
		m = &r->metrics[j];
		bad = impossible(r, m);
		if (!isnan(bad))
			return rd_bad(l->doc, "runs[%d].metrics.%s: %g %s, but a %s is >= 0 "
				      "(and finite)", ri, m->id, bad, m->unit, res_kind_name(m->kind));
	}
	return 0;
}

int resdoc_load_metrics(struct loader *l, int ri, const struct jr_node *jr, struct res_run *r)
{
	const struct jr_node *metrics = jr_typed(l->jd, jr, "metrics", JR_OBJ);
	const struct jr_node *samples = jr_member(l->jd, jr, "samples");
	const struct jr_node *reps = jr_member(l->jd, jr, "repeats"), *jm;
	int ret;

	if (!metrics || !samples || (samples->type != JR_RAW && samples->type != JR_ARR))
		return rd_bad(l->doc, "malformed result: runs[%d] lacks its metrics or samples", ri);
	if (reps && reps->type != JR_ARR)
		return rd_bad(l->doc, "malformed result: runs[%d].repeats is not an array", ri);
	r->metrics = xcalloc(metrics->u.kids.count ?: 1, sizeof(*r->metrics));
	for (jm = jr_first(l->jd, metrics); jm; jm = jr_next(l->jd, jm)) {
		if (jm->type != JR_OBJ)
			return rd_bad(l->doc, "malformed result: runs[%d].metrics.%s is not an object",
				      ri, jr_key(l->jd, jm));
		ret = load_metric(l, ri, jm, &r->metrics[r->nr_metrics++]);
		if (ret)
			return ret;
	}
	ret = load_samples(l, ri, samples, r);
	if (!ret && reps)
		ret = load_repeats(l, ri, reps, r);
	return ret ?: check_figures(l, ri, r);
}
