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
#include <sys/mman.h>
#include <sys/stat.h>
#include "bench.h"
#include "jsonr.h"
#include "mkey.h"
#include "opts.h"
#include "resdoc.h"
#include "resdoc_int.h"
#include "util.h"

#define RESDOC_SCHEMA	"bpfbench-result/1"
#define CHUNK_BYTES	(64u << 10)
#define TEXT_RELEASE_STEP	(1u << 20)

/* Strings of a document, allocated together and freed at once. */
struct res_chunk {
	struct res_chunk *next;
	size_t used, cap;
	char data[];
};

/*
 * Options that say how long, how often or where to, not what was
 * measured: runs that differ only in these are the same measurement.
 */
static const char *const unmatched_opts[] = {
	"warmup", "duration", "period-ms", "precision", "max-duration", "runs",
	"record", "sweep", "verbose", "quiet", "list", "help", NULL,
};

int rd_bad(const struct res_doc *doc, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	errmsg("%s: %s", doc->path, msg);
	return EXIT_USAGE;
}

const char *rd_keep(struct res_doc *doc, const char *s)
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

/* EINTR from a signal that stops us, or a look between reads: the read ends. */
static int read_interrupted(struct res_doc *doc)
{
	return rd_bad(doc, "interrupted by signal %d", interrupted_signal());
}

/* The last read returned r: the end (0), an error or the interruption. */
static int read_end(struct res_doc *doc, int fd, ssize_t r, size_t n, size_t *len)
{
	int err = errno;

	close(fd);
	*len = n;
	if (interrupted())
		return read_interrupted(doc);
	if (r < 0)
		return rd_bad(doc, "cannot read: %s", strerror(err));
	return 0;
}

/*
 * Whole file into memory, one byte more for the parser's NUL: as large
 * as it is (a regular file in one read), a pipe's in doubling steps.
 * SIGINT ends it between reads, and a read waiting on a pipe returns.
 */
static int read_all(struct res_doc *doc, char **buf, size_t *len)
{
	size_t cap = 1 << 16, n = 0;
	bool known = false;
	struct stat st;
	char probe;
	ssize_t r;
	int fd;

	fd = open(doc->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return rd_bad(doc, "cannot open: %s", strerror(errno));
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_size >= 0) {
		cap = (size_t)st.st_size + 1;	/* one read, no copy */
		known = true;
	}
	*buf = malloc(cap);
	while (*buf) {
		if (n + 1 >= cap && known) {	/* the size fstat() gave: the end, without doubling? */
			known = false;
			do
				r = read(fd, &probe, 1);
			while (r < 0 && errno == EINTR && !interrupted());
			if (r != 1)
				return read_end(doc, fd, r, n, len);
			(*buf)[n++] = probe;	/* it grew meanwhile: read on, by doubling */
		}
		if (n + 1 >= cap) {
			cap *= 2;
			*buf = realloc(*buf, cap);
			if (!*buf)
				break;
		}
		r = interrupted() ? -1 : read(fd, *buf + n, cap - n - 1 > (1 << 24) ? 1 << 24 :
					      cap - n - 1);
		if (r < 0 && errno == EINTR && !interrupted())
			continue;
		if (r <= 0)
			return read_end(doc, fd, r, n, len);
		n += r;
	}
	close(fd);
	die("out of memory");
}

const char *rd_str(struct loader *l, const struct jr_node *o, const char *key)
{
	const char *s = jr_str(l->jd, jr_typed(l->jd, o, key, JR_STR));

	return s ? rd_keep(l->doc, s) : NULL;
}

/* A number, or NAN when absent or null; 0 unless present with another type. */
int rd_num(struct loader *l, const struct jr_node *o, const char *key, double *out)
{
	const struct jr_node *v = jr_member(l->jd, o, key);

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

/* An output (out_formats.h) says where to, never what was measured. */
static bool unmatched(const char *name)
{
	const char *const *u;

	for (u = unmatched_opts; *u; u++)
		if (same_name(*u, name))
			return true;
	return out_format_find(name) >= 0;
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
		snprintf(text, sizeof(text), "%s", jr_str(l->jd, v));
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

int res_name_cmp(const char *a, const char *b)
{
	unsigned char x, y;

	for (;; a++, b++) {
		x = *a == '_' ? '-' : (unsigned char)*a;
		y = *b == '_' ? '-' : (unsigned char)*b;
		if (x != y || !x)
			return x - y;
	}
}

/* Names as options match, then as spelled: one name's spellings adjacent, in strcmp order. */
static int cmp_mopt(const void *a, const void *b)
{
	const char *x = ((const char *const *)a)[0], *y = ((const char *const *)b)[0];

	return res_name_cmp(x, y) ?: strcmp(x, y);
}

/*
 * Every option as name and JSON text (plot reads -w, -d, x from them),
 * and the measured ones, sorted by name (res_name_cmp()): what compare
 * matches runs on.  Text, not json-c objects: those cost a kilobyte a
 * run, more than the run's share of the file.
 */
static void measured_opts(struct loader *l, const struct jr_node *opts, struct res_run *r)
{
	const struct bench *b = bench_find(r->bench);	/* NULL: not one of ours */
	const struct jr_node *c;
	const char **pairs, *name, *text;
	json_object *v;
	int i, k = 0, n = 0;

	pairs = xcalloc(opts->u.kids.count * 2 + 1, sizeof(*pairs));
	r->opt_name = xcalloc(opts->u.kids.count + 1, sizeof(char *));
	r->opt_value = xcalloc(opts->u.kids.count + 1, sizeof(char *));
	for (c = jr_first(l->jd, opts); c; c = jr_next(l->jd, c), n++) {
		v = to_jsonc(l->jd, c);
		name = rd_keep(l->doc, jr_key(l->jd, c));
		text = rd_keep(l->doc, v ? json_object_to_json_string_ext(v, JSON_C_TO_STRING_PLAIN) :
			       "null");
		json_object_put(v);
		r->opt_name[n] = name;
		r->opt_value[n] = text;
		if (unmatched(name) || at_default(l, b, c, name))
			continue;
		pairs[2 * k] = name;
		pairs[2 * k + 1] = text;
		k++;
	}
	r->nr_opts = n;
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


/* The fields the writer writes as strings (or null): any other type is no result of ours. */
static const char *const env_strings[] = {
	"hostname", "kernel", "kernel_build", "machine", "cpu_model", "bpfbench_version",
	"git_commit", "libbpf_version", "date", "vm_info", NULL,
};
static const char *const run_strings[] = {
	"bench", "family", "suite", "label", "section", "sweep_param", "method", "trigger", NULL,
};

static int strings_typed(struct loader *l, const struct jr_node *o, const char *const *keys,
			 const char *where)
{
	static const char *const type_name[] = {
		[JR_FALSE] = "false", [JR_TRUE] = "true", [JR_INT] = "a number", [JR_NUM] = "a number",
		[JR_ARR] = "an array", [JR_OBJ] = "an object", [JR_RAW] = "an array",
	};
	const struct jr_node *v;

	for (; *keys; keys++) {
		v = jr_member(l->jd, o, *keys);
		if (v && v->type != JR_STR && v->type != JR_NULL)
			return rd_bad(l->doc, "malformed result: %s.%s is %s, not a string", where,
				      *keys, type_name[v->type]);
	}
	return 0;
}

static int load_run(struct loader *l, int ri, const struct jr_node *jr)
{
	struct res_run *r = &l->doc->runs[ri];
	const struct jr_node *status = jr_typed(l->jd, jr, "status", JR_INT);
	const struct jr_node *opts = jr_typed(l->jd, jr, "options", JR_OBJ), *moved;
	char where[32];

	snprintf(where, sizeof(where), "runs[%d]", ri);
	if (strings_typed(l, jr, run_strings, where))
		return EXIT_USAGE;
	r->bench = rd_str(l, jr, "bench");
	if (!r->bench || !status || !opts)
		return rd_bad(l->doc, "malformed result: runs[%d] lacks bench, status or options", ri);
	r->status = (int)status->u.i;
	r->interrupted = jr_typed(l->jd, jr, "interrupted", JR_TRUE) != NULL;
	moved = jr_typed(l->jd, jr, "moved_samples", JR_INT);
	r->moved_samples = moved && moved->u.i >= 0 && moved->u.i <= INT32_MAX ? (int)moved->u.i : -1;
	r->label = rd_str(l, jr, "label");
	r->suite = rd_str(l, jr, "suite");
	r->section = rd_str(l, jr, "section");
	r->sweep_param = rd_str(l, jr, "sweep_param");
	measured_opts(l, opts, r);
	return resdoc_load_metrics(l, ri, jr, r);
}

static int check_schema(struct loader *l)
{
	const struct jr_node *root = jr_root(l->jd);
	const char *schema;

	if (root->type != JR_OBJ)
		return rd_bad(l->doc, "not a bpfbench result (the document is not a JSON object)");
	schema = jr_str(l->jd, jr_typed(l->jd, root, "schema", JR_STR));
	if (!schema)
		return rd_bad(l->doc, "not a bpfbench result (no \"schema\" member)");
	if (strcmp(schema, RESDOC_SCHEMA))
		return rd_bad(l->doc, "not a bpfbench result (schema \"%.64s\", expected \"%s\")",
			      schema, RESDOC_SCHEMA);
	return 0;
}

static int parse(struct loader *l, char *buf, size_t len)
{
	char err[400];

	if (!len)
		return rd_bad(l->doc, "empty file, not a bpfbench result");
	if (jr_parse_lazy(&l->root, buf, len, "samples", err, sizeof(err)))
		return rd_bad(l->doc, "%s", err);
	return check_schema(l);
}

/*
 * Room for run i, in doubling steps (a run array's length is known only
 * by reading it); each slot zeroed as it is taken, so the pages of the
 * room not yet used are never touched (not resident).
 */
static void grow_runs(struct res_doc *doc, int i, int *cap)
{
	if (i >= *cap) {
		*cap = *cap ? 2 * *cap : 16;
		doc->runs = realloc(doc->runs, (size_t)*cap * sizeof(*doc->runs));
		if (!doc->runs)
			die("out of memory");
	}
	memset(&doc->runs[i], 0, sizeof(*doc->runs));
}

/*
 * The text before a run is read: its pages handed back to the kernel
 * as the runs are loaded (every string kept is a copy), so the file and
 * what it becomes are not both in memory whole.  Private anonymous
 * memory, malloc's: a page dropped reads as zeros, which nobody reads.
 */
static void text_release(struct loader *l, const char *upto)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
	uintptr_t from = ((uintptr_t)l->root.text + l->released + page - 1) & ~(page - 1);
	uintptr_t to = (uintptr_t)upto & ~(page - 1);

	if (to < from + TEXT_RELEASE_STEP)
		return;	/* in steps: a system call a megabyte, not a run */
	madvise((void *)from, to - from, MADV_DONTNEED);
	l->released = to - (uintptr_t)l->root.text;
}

static int load_doc(struct loader *l)
{
	const struct jr_node *root = jr_root(l->jd), *env, *runs, *jr;
	struct res_doc *doc = l->doc;
	struct jr_iter it;
	int ret, i = 0, cap = 0;

	env = jr_typed(l->jd, root, "env", JR_OBJ);
	if (!env)	/* the schema requires it, an object */
		return rd_bad(doc, "malformed result: \"env\" is %s, not an object",
			      jr_member(l->jd, root, "env") ? "of another type" : "missing");
	if (strings_typed(l, env, env_strings, "env"))
		return EXIT_USAGE;
	doc->interrupted = jr_typed(l->jd, root, "interrupted", JR_TRUE) != NULL;
	doc->kernel = rd_str(l, env, "kernel");
	doc->date = rd_str(l, env, "date");
	resenv_load(&doc->env, l->jd, env);
	runs = jr_member(l->jd, root, "runs");
	if (!runs || (runs->type != JR_RAW && runs->type != JR_ARR))
		return rd_bad(doc, "malformed result: no \"runs\" array");
	/* one run's nodes at a time (jsonr.h): the document's would cost the file again */
	jr_iter_init_lazy(&it, l->jd, runs, "samples");
	for (ret = 0; !ret && (jr = jr_iter_next(&it)); i++) {
		grow_runs(doc, i, &cap);
		doc->nr_runs = i + 1;	/* what resdoc_free() must release, even on error */
		l->jd = jr_iter_doc(&it);
		if (interrupted())
			ret = read_interrupted(doc);
		else if (jr->type != JR_OBJ)
			ret = rd_bad(doc, "malformed result: runs[%d] is not an object", i);
		else
			ret = load_run(l, i, jr);
		text_release(l, it.p);
	}
	jr_iter_free(&it);
	l->jd = &l->root;
	return ret;
}

int resdoc_load(const char *path, struct res_doc *doc)
{
	struct loader l = { .doc = doc, .jd = &l.root };
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
	jr_free(&l.root);
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
		free(r->opt_name);
		free(r->opt_value);
	}
	free(doc->runs);
	resenv_free(&doc->env);
	for (c = doc->strings; c; c = next) {
		next = c->next;
		free(c);
	}
	memset(doc, 0, sizeof(*doc));
}

const struct res_metric *res_run_metric(const struct res_run *r, const char *name, const char *key)
{
	int i;

	for (i = 0; i < r->nr_metrics; i++)
		if (!strcmp(r->metrics[i].name, name) && mkey_eq(r->metrics[i].key, key))
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

const char *res_run_opt(const struct res_run *r, const char *name)
{
	const char *v = NULL;
	int i;

	for (i = 0; i < r->nr_opts; i++)
		if (same_name(r->opt_name[i], name))
			v = r->opt_value[i];
	return v;
}

bool res_opt_number(const char *text, double *v)
{
	char *end;

	if (!text || !*text || *text == '"' || *text == 't' || *text == 'f' || *text == 'n')
		return false;
	*v = strtod(text, &end);
	return !*end && isfinite(*v);
}
