// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "bench.h"
#include "cli.h"
#include "jsonr.h"
#include "opts.h"
#include "resdoc.h"
#include "util.h"

#define RESDOC_SCHEMA	"bpfbench-result/1"
#define RESDOC_MAX_VALUES	(32u << 20)	/* metrics x samples of one run */
#define CHUNK_BYTES	(64u << 10)

/* Strings of a document, allocated together and freed at once. */
struct res_chunk {
	struct res_chunk *next;
	size_t used, cap;
	char data[];
};

/* What one load is working on. */
struct loader {
	struct res_doc *doc;
	struct jr_doc jd;
};

/*
 * Options that say how long, how often or where to, not what was
 * measured: runs that differ only in these are the same measurement.
 */
static const char *const unmatched_opts[] = {
	"warmup", "duration", "period-ms", "precision", "max-duration", "runs",
	"json", "csv", "md", "sweep", "verbose", "quiet", "list", "help", NULL,
};

static const char *const kind_names[] = {
	[RES_SAMPLED] = "sampled", [RES_RATE] = "rate", [RES_TIME] = "time",
	[RES_RATIO] = "ratio", [RES_LEVEL] = "level", [RES_PEAK] = "peak",
	[RES_COUNT] = "count", [RES_INVERSE] = "inverse",
};

static int bad(const struct res_doc *doc, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int bad(const struct res_doc *doc, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	errmsg("%s: %s", doc->path, msg);
	return EXIT_USAGE;
}

static const char *keep(struct res_doc *doc, const char *s)
{
	size_t len = strlen(s) + 1, cap;
	struct res_chunk *c = doc->strings;

	if (!c || c->cap - c->used < len) {
		cap = len > CHUNK_BYTES ? len : CHUNK_BYTES;
		c = malloc(sizeof(*c) + cap);
		if (!c)
			die("out of memory");
		c->next = doc->strings;
		c->used = 0;
		c->cap = cap;
		doc->strings = c;
	}
	memcpy(c->data + c->used, s, len);
	c->used += len;
	return c->data + c->used - len;
}

/* Whole file into memory, one byte more for the parser's NUL, refusing anything over the cap. */
static int read_all(struct res_doc *doc, char **buf, size_t *len)
{
	size_t cap = 1 << 16, n = 0;
	struct stat st;
	ssize_t r;
	int fd;

	fd = open(doc->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return bad(doc, "cannot open: %s", strerror(errno));
	if (!fstat(fd, &st) && S_ISREG(st.st_mode)) {
		if (st.st_size > RESDOC_MAX_BYTES) {
			close(fd);
			return bad(doc, "%lld bytes, more than the %u MiB a result may have",
				   (long long)st.st_size, RESDOC_MAX_BYTES >> 20);
		}
		cap = (size_t)st.st_size + 1;	/* one read, no copy */
	}
	*buf = malloc(cap);
	while (*buf) {
		if (n + 1 >= cap) {
			cap *= 2;
			*buf = realloc(*buf, cap);
			if (!*buf)
				break;
		}
		r = read(fd, *buf + n, cap - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			close(fd);
			*len = n;
			if (r < 0)
				return bad(doc, "cannot read: %s", strerror(errno));
			return 0;
		}
		n += r;
		if (n > RESDOC_MAX_BYTES) {
			close(fd);
			return bad(doc, "more than the %u MiB a result may have",
				   RESDOC_MAX_BYTES >> 20);
		}
	}
	close(fd);
	die("out of memory");
}

static const char *str_member(struct loader *l, const struct jr_node *o, const char *key)
{
	const char *s = jr_str(&l->jd, jr_typed(&l->jd, o, key, JR_STR));

	return s ? keep(l->doc, s) : NULL;
}

/* A number, or NAN when absent or null; 0 unless present with another type. */
static int num_member(struct loader *l, const struct jr_node *o, const char *key, double *out)
{
	const struct jr_node *v = jr_member(&l->jd, o, key);

	*out = NAN;
	if (!v || v->type == JR_NULL)
		return 0;
	if (v->type != JR_INT && v->type != JR_NUM)
		return -1;
	*out = jr_num(v);
	return 0;
}

/* Option names as files spell them: period_ms and period-ms alike. */
static bool same_name(const char *a, const char *b)
{
	for (; *a && *b; a++, b++)
		if ((*a == '_' ? '-' : *a) != (*b == '_' ? '-' : *b))
			return false;
	return !*a && !*b;
}

static bool unmatched(const char *name)
{
	const char *const *u;

	for (u = unmatched_opts; *u; u++)
		if (same_name(*u, name))
			return true;
	return false;
}

/*
 * An option this bpfbench knows, at its default, counts as absent: a
 * document from a version without that option then matches one that
 * records it unchanged.  An option it does not know always counts.
 */
static bool at_default(struct loader *l, const struct bench *b, const struct jr_node *v,
		       const char *name)
{
	const struct opt_def *o = opts_find(global_opts, name);
	char text[OPT_TEXT_MAX];

	if (!o && b)
		o = opts_find(b->opts, name);
	if (!o)
		return false;
	switch (v->type) {
	case JR_NULL:
		text[0] = 0;
		break;
	case JR_TRUE:
	case JR_FALSE:
		snprintf(text, sizeof(text), "%s", v->type == JR_TRUE ? "true" : "false");
		break;
	case JR_INT:
		snprintf(text, sizeof(text), "%" PRId64, v->u.i);
		break;
	case JR_STR:
		snprintf(text, sizeof(text), "%s", jr_str(&l->jd, v));
		break;
	default:
		return false;
	}
	return opts_is_default(o, text);
}

static json_object *to_jsonc(const struct jr_doc *d, const struct jr_node *n)
{
	const struct jr_node *c;
	json_object *o = NULL;

	switch (n->type) {
	case JR_FALSE:
	case JR_TRUE:
		return json_object_new_boolean(n->type == JR_TRUE);
	case JR_INT:
		return json_object_new_int64(n->u.i);
	case JR_NUM:
		return json_object_new_double(n->u.num);
	case JR_STR:
		return json_object_new_string_len(jr_str(d, n), (int)n->u.s.len);
	case JR_ARR:
		o = json_object_new_array();
		for (c = jr_first(d, n); o && c; c = jr_next(d, c))
			json_object_array_add(o, to_jsonc(d, c));
		return o;
	case JR_OBJ:
		o = json_object_new_object();
		for (c = jr_first(d, n); o && c; c = jr_next(d, c))
			json_object_object_add(o, jr_key(d, c), to_jsonc(d, c));
		return o;
	default:
		return NULL;
	}
}

static int cmp_mopt(const void *a, const void *b)
{
	return strcmp(((const char *const *)a)[0], ((const char *const *)b)[0]);
}

/* The measured options, sorted by name: what compare matches runs on. */
static void measured_opts(struct loader *l, const struct jr_node *opts, struct res_run *r)
{
	const struct bench *b = bench_find(r->bench);	/* NULL: not one of ours */
	const struct jr_node *c;
	const char **pairs;
	json_object *v;
	int i, k = 0;

	pairs = xcalloc(opts->u.kids.count * 2 + 1, sizeof(*pairs));
	for (c = jr_first(&l->jd, opts); c; c = jr_next(&l->jd, c)) {
		if (unmatched(jr_key(&l->jd, c)) || at_default(l, b, c, jr_key(&l->jd, c)))
			continue;
		v = to_jsonc(&l->jd, c);
		pairs[2 * k] = keep(l->doc, jr_key(&l->jd, c));
		pairs[2 * k + 1] = keep(l->doc, v ? json_object_to_json_string_ext(v,
					JSON_C_TO_STRING_PLAIN) : "null");
		json_object_put(v);
		k++;
	}
	qsort(pairs, k, 2 * sizeof(*pairs), cmp_mopt);
	r->nr_mopts = k;
	r->mopt_name = xcalloc(k + 1, sizeof(char *));
	r->mopt_value = xcalloc(k + 1, sizeof(char *));
	for (i = 0; i < k; i++) {
		r->mopt_name[i] = pairs[2 * i];
		r->mopt_value[i] = pairs[2 * i + 1];
	}
	free(pairs);
}

static int metric_kind(struct loader *l, int ri, const struct jr_node *jm, struct res_metric *m)
{
	const char *kind = jr_str(&l->jd, jr_typed(&l->jd, jm, "kind", JR_STR));
	const char *better = jr_str(&l->jd, jr_typed(&l->jd, jm, "better", JR_STR));
	size_t k;

	m->kind = RES_SAMPLED;
	for (k = 0; kind && k < ARRAY_SIZE(kind_names); k++)
		if (!strcmp(kind, kind_names[k]))
			break;
	if (kind && k == ARRAY_SIZE(kind_names))
		return bad(l->doc, "runs[%d].metrics.%s.kind \"%.32s\" is none this bpfbench knows",
			   ri, m->name, kind);
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
		return bad(l->doc, "runs[%d].metrics.%s.better \"%.32s\" is not higher, lower or none",
			   ri, m->name, better);
	return 0;
}

static int load_metric(struct loader *l, int ri, const struct jr_node *jm, struct res_metric *m)
{
	const struct jr_node *n = jr_typed(&l->jd, jm, "n", JR_INT);
	double mean;

	m->name = keep(l->doc, jr_key(&l->jd, jm));
	m->unit = str_member(l, jm, "unit");
	m->of = str_member(l, jm, "of");
	if (!m->unit || num_member(l, jm, "mean", &mean) || isnan(mean))
		return bad(l->doc, "malformed result: runs[%d].metrics.%s lacks a unit or mean",
			   ri, m->name);
	m->mean = mean;
	m->n = n ? (int)n->u.i : 0;
	if (num_member(l, jm, "stddev", &m->stddev) ||
	    num_member(l, jm, "of_mean_inverse", &m->of_mean_inverse) ||
	    num_member(l, jm, "between_run_stddev", &m->between_run_stddev) ||
	    num_member(l, jm, "between_share", &m->between_share) ||
	    num_member(l, jm, "resolution", &m->resolution))
		return bad(l->doc, "malformed result: runs[%d].metrics.%s has a field that is "
			   "not a number", ri, m->name);
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
		if (!strcmp(r->metrics[k].name, key)) {
			*hint = k + 1;
			return &r->metrics[k];
		}
	}
	return NULL;
}

static int sample_member(struct loader *l, int ri, size_t si, const struct jr_node *v,
			 struct res_run *r, int *hint)
{
	const char *key = jr_key(&l->jd, v);
	struct res_metric *m;

	if (!strcmp(key, "repeat")) {
		if (v->type != JR_INT || v->u.i < 0 || v->u.i > INT32_MAX)
			return bad(l->doc, "malformed result: runs[%d].samples[%zu].repeat is not "
				   "a run index", ri, si);
		if (!r->sample_repeat)
			r->sample_repeat = xcalloc(r->nr_samples, sizeof(int));
		r->sample_repeat[si] = (int)v->u.i;
		return 0;
	}
	m = sample_metric(r, key, hint);
	if (!m || v->type == JR_NULL)
		return 0;	/* elapsed_ns and the like; NaN is written as null */
	if (v->type != JR_INT && v->type != JR_NUM)
		return bad(l->doc, "malformed result: runs[%d].samples[%zu].%s is not a number",
			   ri, si, key);
	m->samples[si] = jr_num(v);
	m->nr_values++;
	return 0;
}

static int load_samples(struct loader *l, int ri, const struct jr_node *samples, struct res_run *r)
{
	const struct jr_node *s, *v;
	int i, hint = 0, ret;
	size_t si = 0, k;

	r->nr_samples = (int)samples->u.kids.count;
	for (i = 0; i < r->nr_metrics; i++) {
		r->metrics[i].samples = xcalloc(r->nr_samples ?: 1, sizeof(double));
		for (k = 0; k < (size_t)r->nr_samples; k++)
			r->metrics[i].samples[k] = NAN;
	}
	for (s = jr_first(&l->jd, samples); s; s = jr_next(&l->jd, s), si++) {
		if (s->type != JR_OBJ)
			return bad(l->doc, "malformed result: runs[%d].samples[%zu] is not an object",
				   ri, si);
		for (v = jr_first(&l->jd, s); v; v = jr_next(&l->jd, v)) {
			ret = sample_member(l, ri, si, v, r, &hint);
			if (ret)
				return ret;
		}
	}
	return 0;
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
	for (k = 0, rec = jr_first(&l->jd, reps); rec; rec = jr_next(&l->jd, rec), k++) {
		jm = jr_first(&l->jd, jr_typed(&l->jd, rec, "metrics", JR_OBJ));
		if (!jr_typed(&l->jd, rec, "metrics", JR_OBJ))
			return bad(l->doc, "malformed result: runs[%d].repeats[%d] lacks its metrics",
				   ri, k);
		for (; jm; jm = jr_next(&l->jd, jm)) {
			m = sample_metric(r, jr_key(&l->jd, jm), &hint);
			if (!m)
				continue;
			if (num_member(l, jm, "mean", &mean))
				return bad(l->doc, "malformed result: runs[%d].repeats[%d].metrics.%s"
					   ".mean is not a number", ri, k, m->name);
			m->rep_mean[k] = mean;
		}
	}
	return 0;
}

static int load_metrics(struct loader *l, int ri, const struct jr_node *jr, struct res_run *r)
{
	const struct jr_node *metrics = jr_typed(&l->jd, jr, "metrics", JR_OBJ);
	const struct jr_node *samples = jr_typed(&l->jd, jr, "samples", JR_ARR);
	const struct jr_node *reps = jr_member(&l->jd, jr, "repeats"), *jm;
	int ret;

	if (!metrics || !samples)
		return bad(l->doc, "malformed result: runs[%d] lacks its metrics or samples", ri);
	if ((uint64_t)metrics->u.kids.count * samples->u.kids.count > RESDOC_MAX_VALUES)
		return bad(l->doc, "malformed result: runs[%d] has more than %u values", ri,
			   RESDOC_MAX_VALUES);
	if (reps && reps->type != JR_ARR)
		return bad(l->doc, "malformed result: runs[%d].repeats is not an array", ri);
	r->metrics = xcalloc(metrics->u.kids.count ?: 1, sizeof(*r->metrics));
	for (jm = jr_first(&l->jd, metrics); jm; jm = jr_next(&l->jd, jm)) {
		if (jm->type != JR_OBJ)
			return bad(l->doc, "malformed result: runs[%d].metrics.%s is not an object",
				   ri, jr_key(&l->jd, jm));
		ret = load_metric(l, ri, jm, &r->metrics[r->nr_metrics++]);
		if (ret)
			return ret;
	}
	ret = load_samples(l, ri, samples, r);
	if (!ret && reps)
		ret = load_repeats(l, ri, reps, r);
	return ret;
}

static int load_run(struct loader *l, int ri, const struct jr_node *jr)
{
	struct res_run *r = &l->doc->runs[ri];
	const struct jr_node *status = jr_typed(&l->jd, jr, "status", JR_INT);
	const struct jr_node *opts = jr_typed(&l->jd, jr, "options", JR_OBJ);

	r->bench = str_member(l, jr, "bench");
	if (!r->bench || !status || !opts)
		return bad(l->doc, "malformed result: runs[%d] lacks bench, status or options", ri);
	r->status = (int)status->u.i;
	r->label = str_member(l, jr, "label");
	r->suite = str_member(l, jr, "suite");
	r->section = str_member(l, jr, "section");
	r->sweep_param = str_member(l, jr, "sweep_param");
	r->options = to_jsonc(&l->jd, opts);
	if (!r->options)
		die("out of memory");
	measured_opts(l, opts, r);
	return load_metrics(l, ri, jr, r);
}

static int check_schema(struct loader *l)
{
	const struct jr_node *root = jr_root(&l->jd);
	const char *schema;

	if (root->type != JR_OBJ)
		return bad(l->doc, "not a bpfbench result (the document is not a JSON object)");
	schema = jr_str(&l->jd, jr_typed(&l->jd, root, "schema", JR_STR));
	if (!schema)
		return bad(l->doc, "not a bpfbench result (no \"schema\" member)");
	if (strcmp(schema, RESDOC_SCHEMA))
		return bad(l->doc, "not a bpfbench result (schema \"%.64s\", expected \"%s\")",
			   schema, RESDOC_SCHEMA);
	return 0;
}

static int parse(struct loader *l, char *buf, size_t len)
{
	char err[400];

	if (!len)
		return bad(l->doc, "empty file, not a bpfbench result");
	if (jr_parse(&l->jd, buf, len, err, sizeof(err)))
		return bad(l->doc, "%s", err);
	return check_schema(l);
}

static int load_doc(struct loader *l)
{
	const struct jr_node *root = jr_root(&l->jd), *env, *runs, *jr;
	struct res_doc *doc = l->doc;
	int ret, i = 0;

	env = jr_typed(&l->jd, root, "env", JR_OBJ);
	doc->kernel = str_member(l, env, "kernel");
	doc->date = str_member(l, env, "date");
	resenv_load(&doc->env, &l->jd, env);
	runs = jr_typed(&l->jd, root, "runs", JR_ARR);
	if (!runs)
		return bad(doc, "malformed result: no \"runs\" array");
	doc->runs = xcalloc(runs->u.kids.count ?: 1, sizeof(*doc->runs));
	for (jr = jr_first(&l->jd, runs); jr; jr = jr_next(&l->jd, jr), i++) {
		doc->nr_runs = i + 1;	/* what resdoc_free() must release, even on error */
		if (jr->type != JR_OBJ)
			return bad(doc, "malformed result: runs[%d] is not an object", i);
		ret = load_run(l, i, jr);
		if (ret)
			return ret;
	}
	return 0;
}

int resdoc_load(const char *path, struct res_doc *doc)
{
	struct loader l = { .doc = doc };
	char *buf = NULL;
	size_t len = 0;
	int ret;

	memset(doc, 0, sizeof(*doc));
	doc->path = path;
	ret = read_all(doc, &buf, &len);
	if (!ret)
		ret = parse(&l, buf, len);
	if (!ret)
		ret = load_doc(&l);
	jr_free(&l.jd);
	free(buf);
	return ret;
}

void resdoc_free(struct res_doc *doc)
{
	struct res_chunk *c, *next;
	struct res_run *r;
	int i, m;

	for (i = 0; doc->runs && i < doc->nr_runs; i++) {
		r = &doc->runs[i];
		for (m = 0; m < r->nr_metrics; m++) {
			free(r->metrics[m].samples);
			free(r->metrics[m].rep_mean);
		}
		free(r->metrics);
		free(r->sample_repeat);
		free(r->mopt_name);
		free(r->mopt_value);
		json_object_put(r->options);
	}
	free(doc->runs);
	resenv_free(&doc->env);
	for (c = doc->strings; c; c = next) {
		next = c->next;
		free(c);
	}
	memset(doc, 0, sizeof(*doc));
}

const struct res_metric *res_run_metric(const struct res_run *r, const char *name)
{
	int i;

	for (i = 0; i < r->nr_metrics; i++)
		if (!strcmp(r->metrics[i].name, name))
			return &r->metrics[i];
	return NULL;
}

const char *res_run_mopt(const struct res_run *r, const char *name)
{
	int i;

	for (i = 0; i < r->nr_mopts; i++)
		if (!strcmp(r->mopt_name[i], name))
			return r->mopt_value[i];
	return NULL;
}
