// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "bench.h"
#include "cli.h"
#include "opts.h"
#include "resdoc.h"
#include "util.h"

#define RESDOC_SCHEMA	"bpfbench-result/1"
#define RESDOC_MAX_VALUES	(32u << 20)	/* metrics x samples of one run */
#define RESDOC_DEPTH	16	/* the schema nests 5 deep: refuse pathological nesting early */

/*
 * Options that say how long or where to, not what was measured: runs that
 * differ only in these are the same measurement.
 */
static const char *const unmatched_opts[] = {
	"warmup", "duration", "period-ms", "precision", "max-duration",
	"json", "csv", "md", "sweep", "verbose", "quiet", "list", "help", NULL,
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

/* Whole file into memory, refusing anything over the cap (also from pipes). */
static int read_all(struct res_doc *doc, char **buf, size_t *len)
{
	size_t cap = 1 << 16, n = 0;
	struct stat st;
	ssize_t r;
	int fd;

	fd = open(doc->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return bad(doc, "cannot open: %s", strerror(errno));
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_size > RESDOC_MAX_BYTES) {
		close(fd);
		return bad(doc, "%lld bytes, more than the %u MiB a result may have",
			   (long long)st.st_size, RESDOC_MAX_BYTES >> 20);
	}
	*buf = malloc(cap);
	while (*buf) {
		if (n == cap) {
			cap *= 2;
			*buf = realloc(*buf, cap);
			if (!*buf)
				break;
		}
		r = read(fd, *buf + n, cap - n);
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

static int parse(struct res_doc *doc, const char *buf, size_t len)
{
	struct json_tokener *tok = json_tokener_new_ex(RESDOC_DEPTH);
	enum json_tokener_error err;
	size_t end;

	if (!tok)
		die("out of memory");
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
	doc->root = json_tokener_parse_ex(tok, buf, (int)len);
	err = json_tokener_get_error(tok);
	end = json_tokener_get_parse_end(tok);
	json_tokener_free(tok);
	if (!len)
		return bad(doc, "empty file, not a bpfbench result");
	if (err == json_tokener_continue)
		return bad(doc, "truncated JSON: the document ends early (%zu bytes)", len);
	if (!doc->root || err != json_tokener_success)
		return bad(doc, "not valid JSON: %s at byte %zu", json_tokener_error_desc(err), end);
	for (; end < len; end++)
		if (!strchr(" \t\r\n", buf[end]))
			return bad(doc, "data after the JSON document at byte %zu", end);
	return 0;
}

static json_object *member(json_object *o, const char *key, json_type type)
{
	json_object *v;

	if (!json_object_is_type(o, json_type_object) || !json_object_object_get_ex(o, key, &v))
		return NULL;
	if (type == json_type_double && json_object_is_type(v, json_type_int))
		return v;
	return json_object_is_type(v, type) ? v : NULL;
}

static const char *str_member(json_object *o, const char *key)
{
	json_object *v = member(o, key, json_type_string);

	return v ? json_object_get_string(v) : NULL;
}

static bool unmatched(const char *name)
{
	const char *const *u;

	for (u = unmatched_opts; *u; u++)
		if (!strcmp(*u, name))
			return true;
	return false;
}

/*
 * An option this bpfbench knows, at its default, is left out of the key:
 * a document from a version without that option then matches one that
 * records it unchanged.  An option it does not know always counts.
 */
static bool at_default(const struct bench *b, const char *name, json_object *val)
{
	const struct opt_def *o = opts_find(global_opts, name);
	char text[OPT_TEXT_MAX];

	if (!o && b)
		o = opts_find(b->opts, name);
	if (!o)
		return false;
	switch (json_object_get_type(val)) {
	case json_type_null:
		text[0] = 0;
		break;
	case json_type_boolean:
	case json_type_int:
	case json_type_string:
		snprintf(text, sizeof(text), "%s", json_object_get_string(val));
		break;
	default:
		return false;
	}
	return opts_is_default(o, text);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* bench, label and the measured options sorted by name: stable across option order. */
static char *run_key(const struct res_run *r)
{
	int n = json_object_object_length(r->options), k = 0, i;
	const struct bench *b = bench_find(r->bench);	/* NULL: not one of ours */
	char **parts = xcalloc(n ? n : 1, sizeof(char *));
	char *key = NULL, *next;
	size_t len;
	FILE *f;

	json_object_object_foreach(r->options, name, val) {
		if (unmatched(name) || at_default(b, name, val))
			continue;
		if (asprintf(&parts[k], "%s=%s", name,
			     json_object_to_json_string_ext(val, JSON_C_TO_STRING_PLAIN)) < 0)
			die("out of memory");
		k++;
	}
	qsort(parts, k, sizeof(char *), cmp_str);
	f = open_memstream(&key, &len);
	if (!f)
		die("out of memory");
	fprintf(f, "%s|%s", r->bench, r->label ? r->label : "");
	for (i = 0; i < k; i++) {
		next = parts[i];
		fprintf(f, "|%s", next);
		free(next);
	}
	fclose(f);
	free(parts);
	return key;
}

static int load_samples(struct res_doc *doc, int ri, json_object *samples, struct res_metric *m)
{
	size_t i, n = json_object_array_length(samples);
	json_object *s, *v;

	m->samples = xcalloc(n ? n : 1, sizeof(double));
	for (i = 0; i < n; i++) {
		s = json_object_array_get_idx(samples, i);
		if (!json_object_is_type(s, json_type_object))
			return bad(doc, "malformed result: runs[%d].samples[%zu] is not an object",
				   ri, i);
		if (!json_object_object_get_ex(s, m->name, &v) || json_object_is_type(v, json_type_null))
			continue;	/* NaN is written as null: no value */
		if (!json_object_is_type(v, json_type_double) && !json_object_is_type(v, json_type_int))
			return bad(doc, "malformed result: runs[%d].samples[%zu].%s is not a number",
				   ri, i, m->name);
		m->samples[m->n++] = json_object_get_double(v);
	}
	return 0;
}

static int load_metrics(struct res_doc *doc, int ri, json_object *jr, struct res_run *r)
{
	json_object *metrics = member(jr, "metrics", json_type_object);
	json_object *samples = member(jr, "samples", json_type_array);
	json_object *mean, *sd;
	struct res_metric *m;
	int ret;

	if (!metrics || !samples)
		return bad(doc, "malformed result: runs[%d] lacks its metrics or samples", ri);
	if ((uint64_t)json_object_object_length(metrics) * json_object_array_length(samples) >
	    RESDOC_MAX_VALUES)
		return bad(doc, "malformed result: runs[%d] has more than %u values", ri,
			   RESDOC_MAX_VALUES);
	r->metrics = xcalloc(json_object_object_length(metrics) ?: 1, sizeof(*r->metrics));
	json_object_object_foreach(metrics, name, val) {
		m = &r->metrics[r->nr_metrics++];
		m->name = name;
		m->unit = str_member(val, "unit");
		mean = member(val, "mean", json_type_double);
		sd = member(val, "stddev", json_type_double);
		if (!m->unit || !mean)
			return bad(doc, "malformed result: runs[%d].metrics.%s lacks a unit or mean",
				   ri, name);
		m->mean = json_object_get_double(mean);
		m->stddev = sd ? json_object_get_double(sd) : 0;
		ret = load_samples(doc, ri, samples, m);
		if (ret)
			return ret;
	}
	return 0;
}

static int load_run(struct res_doc *doc, int ri, json_object *jr)
{
	struct res_run *r = &doc->runs[ri];
	json_object *status = member(jr, "status", json_type_int);

	r->bench = str_member(jr, "bench");
	r->options = member(jr, "options", json_type_object);
	if (!r->bench || !status || !r->options)
		return bad(doc, "malformed result: runs[%d] lacks bench, status or options", ri);
	r->status = json_object_get_int(status);
	r->label = str_member(jr, "label");
	r->suite = str_member(jr, "suite");
	r->sweep_param = str_member(jr, "sweep_param");
	r->key = run_key(r);
	return load_metrics(doc, ri, jr, r);
}

static int check_schema(struct res_doc *doc)
{
	const char *schema;

	if (!json_object_is_type(doc->root, json_type_object))
		return bad(doc, "not a bpfbench result (the document is not a JSON object)");
	schema = str_member(doc->root, "schema");
	if (!schema)
		return bad(doc, "not a bpfbench result (no \"schema\" member)");
	if (strcmp(schema, RESDOC_SCHEMA))
		return bad(doc, "not a bpfbench result (schema \"%.64s\", expected \"%s\")",
			   schema, RESDOC_SCHEMA);
	return 0;
}

int resdoc_load(const char *path, struct res_doc *doc)
{
	json_object *runs, *env;
	char *buf = NULL;
	size_t len = 0;
	int ret, i;

	memset(doc, 0, sizeof(*doc));
	doc->path = path;
	ret = read_all(doc, &buf, &len);
	if (!ret)
		ret = parse(doc, buf, len);
	free(buf);
	if (!ret)
		ret = check_schema(doc);
	if (ret)
		return ret;
	env = member(doc->root, "env", json_type_object);
	doc->kernel = str_member(env, "kernel");
	doc->date = str_member(env, "date");
	runs = member(doc->root, "runs", json_type_array);
	if (!runs)
		return bad(doc, "malformed result: no \"runs\" array");
	doc->nr_runs = (int)json_object_array_length(runs);
	doc->runs = xcalloc(doc->nr_runs ?: 1, sizeof(*doc->runs));
	for (i = 0; i < doc->nr_runs; i++) {
		ret = load_run(doc, i, json_object_array_get_idx(runs, i));
		if (ret)
			return ret;
	}
	return 0;
}

void resdoc_free(struct res_doc *doc)
{
	int i, m;

	for (i = 0; doc->runs && i < doc->nr_runs; i++) {
		for (m = 0; m < doc->runs[i].nr_metrics; m++)
			free(doc->runs[i].metrics[m].samples);
		free(doc->runs[i].metrics);
		free(doc->runs[i].key);
	}
	free(doc->runs);
	json_object_put(doc->root);
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
