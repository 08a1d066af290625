// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "jsonr.h"
#include "jsonr_int.h"
#include "util.h"

/* Where the parser is: for each open array its index, for each object its member's key. */
struct jr_frame {
	uint32_t key;		/* JR_NOKEY in an array */
	uint32_t keylen;
	uint32_t idx;
};

struct jr_parser {
	struct jr_doc *d;
	char *p, *start, *end;
	int depth;
	int skip;		/* > 0: inside a lazy array, checked but not kept */
	const char *lazy;	/* runs, and a run's LAZY array, are kept as text (JR_RAW) */
	bool elem;		/* parsing one element of runs: its own LAZY member is kept */
	bool nodup;		/* names already checked for repeats (a lazy array read again) */
	struct jr_keys keys;	/* the open objects' member names */
	uint32_t ticks;		/* values parsed, for the look at SIGINT */
	struct jr_frame path[JR_MAX_DEPTH + 1];
	char *err;
	size_t errlen;
};

static int fail(struct jr_parser *ps, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int fail(struct jr_parser *ps, const char *fmt, ...)
{
	va_list ap;

	if (!*ps->err) {	/* the first problem is the one to report */
		va_start(ap, fmt);
		vsnprintf(ps->err, ps->errlen, fmt, ap);
		va_end(ap);
	}
	return -1;
}

static int fail_at(struct jr_parser *ps, const char *what)
{
	if (ps->p >= ps->end)
		return fail(ps, "truncated JSON: the document ends early (%td bytes)",
			    ps->end - ps->start);
	return fail(ps, "not valid JSON: %s at byte %td", what, ps->p - ps->start);
}

/* The field being parsed, as runs[3].samples[17].throughput. */
static void path_text(const struct jr_parser *ps, char *buf, size_t len)
{
	size_t used = 0;
	int i, n;

	buf[0] = 0;
	for (i = 1; i <= ps->depth && used < len; i++) {
		if (ps->path[i].key == JR_NOKEY)
			n = snprintf(buf + used, len - used, "[%" PRIu32 "]", ps->path[i].idx);
		else
			n = snprintf(buf + used, len - used, "%s%.*s", used ? "." : "",
				     (int)(ps->path[i].keylen < 64 ? ps->path[i].keylen : 64),
				     ps->start + ps->path[i].key);
		if (n < 0)
			break;
		used += (size_t)n;
	}
	if (!buf[0])
		snprintf(buf, len, "the document");
}

static int fail_field(struct jr_parser *ps, const char *what)
{
	char path[256];

	path_text(ps, path, sizeof(path));
	return fail(ps, "%s is %s", path, what);
}

static int64_t new_node(struct jr_parser *ps, enum jr_type type, uint32_t key)
{
	struct jr_doc *d = ps->d;
	struct jr_node *n;

	if (ps->skip)
		return 0;	/* no node: the lazy array is read again later */
	if (d->nr == d->cap) {
		if (d->cap >= UINT32_MAX / 2)
			return fail(ps, "too many values in the document");
		d->cap = d->cap ? d->cap * 2 : 1024;
		d->nodes = realloc(d->nodes, sizeof(*d->nodes) * d->cap);
		if (!d->nodes)
			die("out of memory");
	}
	n = &d->nodes[d->nr];
	memset(n, 0, sizeof(*n));
	n->type = type;
	n->key = key;
	return d->nr++;
}

static void skip_ws(struct jr_parser *ps)
{
	while (ps->p < ps->end && (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' ||
				   *ps->p == '\r'))
		ps->p++;
}

/* \uXXXX at ps->p (past the backslash and 'u'), a surrogate pair as one character. */
static int unicode_escape(struct jr_parser *ps, unsigned int *c)
{
	unsigned int lo;

	if (ps->end - ps->p < 4 || jr_hex4(ps->p, c))
		return fail_at(ps, "a bad \\u escape");
	ps->p += 4;
	if (*c >= 0xdc00 && *c <= 0xdfff)
		return fail_at(ps, "a lone low surrogate");
	if (*c >= 0xd800 && *c <= 0xdbff) {
		if (ps->end - ps->p < 6 || ps->p[0] != '\\' || ps->p[1] != 'u' ||
		    jr_hex4(ps->p + 2, &lo) || lo < 0xdc00 || lo > 0xdfff)
			return fail_at(ps, "a high surrogate without its low half");
		ps->p += 6;
		*c = 0x10000 + ((*c - 0xd800) << 10) + (lo - 0xdc00);
	}
	if (!*c)
		return fail_at(ps, "a NUL character in a string");
	return 0;
}

/* One escape at ps->p, its character written at *w unless w is NULL (only checked). */
static int escape(struct jr_parser *ps, char **w)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	char buf[4], *b = buf;
	const char *e;
	unsigned int c;

	if (ps->p >= ps->end)
		return fail_at(ps, "");
	e = strchr(from, *ps->p);
	if (*ps->p && e) {
		*b++ = to[e - from];
		ps->p++;
	} else {
		if (*ps->p++ != 'u')
			return fail_at(ps, "a bad escape in a string");
		if (unicode_escape(ps, &c))
			return -1;
		b = jr_put_utf8(b, c);
	}
	if (w) {
		memcpy(*w, buf, (size_t)(b - buf));
		*w += b - buf;
	}
	return 0;
}

/* A string's bytes from ps->p that are not UTF-8: refused by the field's name. */
static int bad_utf8(struct jr_parser *ps, bool key)
{
	char what[64];

	if (key)
		return fail_at(ps, "a member name that is not UTF-8");
	snprintf(what, sizeof(what), "not UTF-8 (byte 0x%02x at byte %td)", (unsigned char)*ps->p,
		 ps->p - ps->start);
	return fail_field(ps, what);
}

/*
 * The string at ps->p (its opening quote), decoded onto itself: the
 * decoded form is never longer, so writing from the quote's place never
 * overtakes the reading.  *off is where it now starts.  In a lazy array
 * only checked: the text stays as it is, to be read again; dst, when
 * given, takes the decoded form instead.
 */
static int string(struct jr_parser *ps, uint32_t *off, uint32_t *len, char *dst, bool key)
{
	char *w = dst ?: ps->skip ? NULL : ps->p, *w0 = w;
	unsigned char c;
	size_t n;

	*off = (uint32_t)(ps->p - ps->start);
	ps->p++;
	for (;;) {
		if (ps->p >= ps->end)
			return fail_at(ps, "");
		c = (unsigned char)*ps->p;
		if (c == '"')
			break;
		if (c < 0x20)
			return fail_at(ps, "a control character in a string");
		if (c == '\\') {
			ps->p++;
			if (escape(ps, w ? &w : NULL))
				return -1;
			continue;
		}
		n = c < 0x80 ? 1 : jr_utf8_len((unsigned char *)ps->p, (unsigned char *)ps->end);
		if (!n)
			return bad_utf8(ps, key);
		if (w) {
			memmove(w, ps->p, n);
			w += n;
		}
		ps->p += n;
	}
	if (w) {
		*w = 0;
		*len = (uint32_t)(w - w0);
	}
	ps->p++;
	return 0;
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool literal(struct jr_parser *ps, const char *word)
{
	size_t n = strlen(word);

	if ((size_t)(ps->end - ps->p) < n || strncmp(ps->p, word, n))
		return false;
	ps->p += n;
	return true;
}

/* The number grammar of RFC 8259; returns whether it had a fraction or exponent. */
static int number_text(struct jr_parser *ps, bool *real)
{
	char *p = ps->p;

	*real = false;
	if (p < ps->end && *p == '-')
		p++;
	if (p < ps->end && *p == '0') {
		p++;
	} else if (p < ps->end && is_digit(*p)) {
		while (p < ps->end && is_digit(*p))
			p++;
	} else {
		ps->p = p;
		return fail_at(ps, "a bad number");
	}
	if (p < ps->end && *p == '.') {
		*real = true;
		if (++p >= ps->end || !is_digit(*p))
			return ps->p = p, fail_at(ps, "a bad number");
		while (p < ps->end && is_digit(*p))
			p++;
	}
	if (p < ps->end && (*p == 'e' || *p == 'E')) {
		*real = true;
		p++;
		if (p < ps->end && (*p == '+' || *p == '-'))
			p++;
		if (p >= ps->end || !is_digit(*p))
			return ps->p = p, fail_at(ps, "a bad number");
		while (p < ps->end && is_digit(*p))
			p++;
	}
	return (int)(p - ps->p);
}

static int64_t number(struct jr_parser *ps, uint32_t key)
{
	struct jr_node *n, scratch;
	int64_t idx;
	bool real;
	char *end;
	int len;

	if (literal(ps, "NaN") || literal(ps, "-NaN"))
		return fail_field(ps, "NaN, not a number");
	if (literal(ps, "Infinity") || literal(ps, "-Infinity"))
		return fail_field(ps, "infinite, not a finite number");
	len = number_text(ps, &real);
	if (len < 0 || (idx = new_node(ps, JR_NUM, key)) < 0)
		return -1;
	n = ps->skip ? &scratch : &ps->d->nodes[idx];
	/* the text ends before a delimiter or the NUL at text[len]: strto* stop there */
	errno = 0;
	if (!real) {
		n->u.i = strtoll(ps->p, &end, 10);
		if (!errno) {
			n->type = JR_INT;
			ps->p += len;
			return idx;
		}
	}
	errno = 0;
	n->u.num = strtod(ps->p, &end);
	if (!isfinite(n->u.num))
		return fail_field(ps, "beyond the range of a double");
	ps->p += len;
	return idx;
}

static int64_t value(struct jr_parser *ps, uint32_t key);

/* Links child after *last (or as the first of parent): children stay in their order. */
static void append(struct jr_parser *ps, int64_t parent, int64_t *last, int64_t child)
{
	struct jr_node *nodes = ps->d->nodes;

	if (ps->skip)
		return;
	if (*last)
		nodes[*last].next = (uint32_t)child;
	else
		nodes[parent].u.kids.first = (uint32_t)child;
	nodes[parent].u.kids.count++;
	*last = child;
}

/*
 * Whether the member key at off starts an array to keep as text: the
 * document's runs (read one at a time: nodes for one run, not all), and
 * in a run read so, its LAZY array.
 */
static bool lazy_here(struct jr_parser *ps, uint32_t off)
{
	const char *t = ps->start;

	if (!ps->lazy || ps->skip || ps->depth != 1 ||
	    strcmp(t + off, ps->elem ? ps->lazy : "runs"))
		return false;
	skip_ws(ps);
	return ps->p < ps->end && *ps->p == '[';
}

/* The array at ps->p checked whole, kept as its text: a JR_RAW node. */
static int64_t lazy(struct jr_parser *ps, uint32_t key)
{
	int64_t idx = new_node(ps, JR_RAW, key), ret;
	uint32_t from = (uint32_t)(ps->p - ps->start);

	if (idx < 0)
		return -1;
	ps->skip++;
	ret = value(ps, key);
	ps->skip--;
	if (ret < 0)
		return -1;
	ps->d->nodes[idx].u.s.off = from;
	ps->d->nodes[idx].u.s.len = (uint32_t)(ps->p - ps->start) - from;
	return idx;
}

static int64_t array(struct jr_parser *ps, int64_t self)
{
	struct jr_frame *f = &ps->path[ps->depth];
	int64_t last = 0, child;

	skip_ws(ps);
	if (ps->p < ps->end && *ps->p == ']') {
		ps->p++;
		return self;
	}
	for (f->key = JR_NOKEY, f->idx = 0;; f->idx++) {
		child = value(ps, JR_NOKEY);
		if (child < 0)
			return -1;
		append(ps, self, &last, child);
		skip_ws(ps);
		if (ps->p < ps->end && *ps->p == ']') {
			ps->p++;
			return self;
		}
		if (ps->p >= ps->end || *ps->p != ',')
			return fail_at(ps, "expected ',' or ']'");
		ps->p++;
	}
}

/*
 * The member name just read (text at off, decoded there unless in a lazy
 * array, where it is still quoted and is decoded again into the arena)
 * kept among the open object's, to find a repeat when it closes.
 */
static void keep_name(struct jr_parser *ps, uint32_t off, uint32_t len)
{
	char *room, *after = ps->p;

	if (!ps->skip) {
		memcpy(jr_keys_room(&ps->keys, len), ps->start + off, len);
		jr_keys_push(&ps->keys, len);
		return;
	}
	room = jr_keys_room(&ps->keys, (size_t)(after - ps->start) - off);
	ps->p = ps->start + off;
	string(ps, &off, &len, room, true);	/* read once already: it cannot fail */
	ps->p = after;
	jr_keys_push(&ps->keys, len);
}

static int fail_dup(struct jr_parser *ps, const char *name)
{
	char path[256];

	ps->depth--;	/* the object's own path, not its last member's */
	path_text(ps, path, sizeof(path));
	ps->depth++;
	return fail(ps, "%s has the member \"%.64s\" twice (which one counts is not defined)",
		    path, name);
}

static int64_t object(struct jr_parser *ps, int64_t self)
{
	struct jr_frame *f = &ps->path[ps->depth];
	int64_t last = 0, child;
	uint32_t off, len, mark = ps->keys.nr;
	size_t arena_mark = ps->keys.used;
	const char *dup;

	skip_ws(ps);
	if (ps->p < ps->end && *ps->p == '}') {
		ps->p++;
		return self;
	}
	for (;;) {
		skip_ws(ps);
		if (ps->p >= ps->end || *ps->p != '"')
			return fail_at(ps, "expected a member name");
		if (string(ps, &off, &len, NULL, true))
			return -1;
		if (!ps->nodup)
			keep_name(ps, off, len);
		f->key = ps->skip ? off + 1 : off;	/* a checked key is still quoted, undecoded */
		f->keylen = ps->skip ? (uint32_t)(ps->p - ps->start) - off - 2 : len;
		skip_ws(ps);
		if (ps->p >= ps->end || *ps->p != ':')
			return fail_at(ps, "expected ':'");
		ps->p++;
		child = lazy_here(ps, off) ? lazy(ps, off) : value(ps, off);
		if (child < 0)
			return -1;
		append(ps, self, &last, child);
		skip_ws(ps);
		if (ps->p < ps->end && *ps->p == '}') {
			ps->p++;
			dup = ps->nodup ? NULL : jr_keys_close(&ps->keys, mark, arena_mark);
			return dup ? fail_dup(ps, dup) : self;
		}
		if (ps->p >= ps->end || *ps->p != ',')
			return fail_at(ps, "expected ',' or '}'");
		ps->p++;
	}
}

static int64_t container(struct jr_parser *ps, uint32_t key, enum jr_type type)
{
	int64_t self, ret;

	if (ps->depth >= JR_MAX_DEPTH)
		return fail(ps, "not valid JSON: nested deeper than %d at byte %td", JR_MAX_DEPTH,
			    ps->p - ps->start);
	self = new_node(ps, type, key);
	if (self < 0)
		return -1;
	ps->p++;
	ps->depth++;
	ret = type == JR_ARR ? array(ps, self) : object(ps, self);
	ps->depth--;
	return ret;
}

static int64_t value(struct jr_parser *ps, uint32_t key)
{
	uint32_t off, len = 0;
	int64_t idx;

	/* a look at SIGINT every million values, some milliseconds */
	if (!(++ps->ticks & 0xfffff) && interrupted())
		return fail(ps, "interrupted by signal %d", interrupted_signal());
	skip_ws(ps);
	if (ps->p >= ps->end)
		return fail_at(ps, "");
	switch (*ps->p) {
	case '{':
		return container(ps, key, JR_OBJ);
	case '[':
		return container(ps, key, JR_ARR);
	case '"':
		idx = new_node(ps, JR_STR, key);
		if (idx < 0 || string(ps, &off, &len, NULL, false))
			return -1;
		if (!ps->skip) {
			ps->d->nodes[idx].u.s.off = off;
			ps->d->nodes[idx].u.s.len = len;
		}
		return idx;
	case 't':
	case 'f':
	case 'n':
		if (literal(ps, "true"))
			return new_node(ps, JR_TRUE, key);
		if (literal(ps, "false"))
			return new_node(ps, JR_FALSE, key);
		if (literal(ps, "null"))
			return new_node(ps, JR_NULL, key);
		return fail_at(ps, "an unknown word");
	default:
		if (*ps->p != '-' && !is_digit(*ps->p) && *ps->p != 'N' && *ps->p != 'I')
			return fail_at(ps, "expected a value");
		return number(ps, key);
	}
}

int jr_parse_lazy(struct jr_doc *doc, char *text, size_t len, const char *lazy, char *err,
		  size_t errlen)
{
	struct jr_parser ps = { .d = doc, .p = text, .start = text, .end = text + len,
				.err = err, .errlen = errlen, .lazy = lazy };
	int ret = 0;

	memset(doc, 0, sizeof(*doc));
	doc->text = text;
	text[len] = 0;
	err[0] = 0;
	if (len >= UINT32_MAX)
		return fail(&ps, "%zu bytes, more than the 4 GiB this reader can index", len);
	if (value(&ps, JR_NOKEY) < 0)
		ret = -1;
	skip_ws(&ps);
	if (!ret && ps.p < ps.end)
		ret = fail(&ps, "data after the JSON document at byte %td", ps.p - text);
	jr_keys_free(&ps.keys);
	return ret;
}

int jr_parse(struct jr_doc *doc, char *text, size_t len, char *err, size_t errlen)
{
	return jr_parse_lazy(doc, text, len, NULL, err, errlen);
}

/* The next element of a lazy array, parsed into it->elem (already checked: it cannot fail). */
static const struct jr_node *raw_next(struct jr_iter *it)
{
	char err[8];
	struct jr_parser ps = { .d = &it->elem, .p = it->p, .start = it->d->text, .end = it->end,
				.err = err, .errlen = sizeof(err), .lazy = it->lazy,
				.elem = true, .nodup = true };

	skip_ws(&ps);
	if (ps.p < ps.end && (*ps.p == '[' || *ps.p == ','))
		ps.p++;
	skip_ws(&ps);
	if (ps.p >= ps.end || *ps.p == ']')
		return NULL;
	it->elem.nr = 0;
	if (value(&ps, JR_NOKEY) < 0)
		return NULL;
	it->p = ps.p;
	return &it->elem.nodes[0];
}

const struct jr_node *jr_iter_next(struct jr_iter *it)
{
	if (!it->arr)
		return NULL;
	if (it->arr->type == JR_RAW)
		return raw_next(it);
	it->cur = it->cur ? jr_next(it->d, it->cur) : jr_first(it->d, it->arr);
	return it->cur;
}
