// SPDX-License-Identifier: GPL-2.0
#include <math.h>
#include "jsonw.h"

void jsonw_init(struct jsonw *w, FILE *out, bool pretty)
{
	w->out = out;
	w->depth = 0;
	w->need_comma[0] = false;
	w->pretty = pretty;
	w->after_key = false;
}

static void indent(struct jsonw *w)
{
	int i;

	if (!w->pretty)
		return;
	fputc('\n', w->out);
	for (i = 0; i < w->depth; i++)
		fputs("  ", w->out);
}

/* Called before every value or key: emits the separator it needs. */
static void before_item(struct jsonw *w)
{
	if (w->need_comma[w->depth])
		fputc(',', w->out);
	w->need_comma[w->depth] = true;
	if (w->depth)
		indent(w);
}

static void begin_value(struct jsonw *w)
{
	if (w->after_key) {
		w->after_key = false;
		return;
	}
	before_item(w);
}

static void open_scope(struct jsonw *w, char c)
{
	begin_value(w);
	fputc(c, w->out);
	if (w->depth < JSONW_MAX_DEPTH - 1)
		w->depth++;
	w->need_comma[w->depth] = false;
}

static void close_scope(struct jsonw *w, char c)
{
	bool had_items = w->need_comma[w->depth];

	if (w->depth > 0)
		w->depth--;
	if (had_items)
		indent(w);
	fputc(c, w->out);
	if (w->depth == 0 && w->pretty)
		fputc('\n', w->out);
}

void jsonw_obj_open(struct jsonw *w)
{
	open_scope(w, '{');
}

void jsonw_obj_close(struct jsonw *w)
{
	close_scope(w, '}');
}

void jsonw_arr_open(struct jsonw *w)
{
	open_scope(w, '[');
}

void jsonw_arr_close(struct jsonw *w)
{
	close_scope(w, ']');
}

static void write_escaped(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	fputc('"', out);
	for (; *p; p++) {
		switch (*p) {
		case '"':
			fputs("\\\"", out);
			break;
		case '\\':
			fputs("\\\\", out);
			break;
		case '\n':
			fputs("\\n", out);
			break;
		case '\t':
			fputs("\\t", out);
			break;
		case '\r':
			fputs("\\r", out);
			break;
		default:
			if (*p < 0x20)
				fprintf(out, "\\u%04x", *p);
			else
				fputc(*p, out);
		}
	}
	fputc('"', out);
}

void jsonw_key(struct jsonw *w, const char *key)
{
	before_item(w);
	write_escaped(w->out, key);
	fputs(w->pretty ? ": " : ":", w->out);
	w->after_key = true;
}

void jsonw_str(struct jsonw *w, const char *s)
{
	begin_value(w);
	if (s)
		write_escaped(w->out, s);
	else
		fputs("null", w->out);
}

void jsonw_double(struct jsonw *w, double v)
{
	begin_value(w);
	if (isfinite(v))
		fprintf(w->out, "%.17g", v);
	else
		fputs("null", w->out);
}

void jsonw_u64(struct jsonw *w, unsigned long long v)
{
	begin_value(w);
	fprintf(w->out, "%llu", v);
}

void jsonw_i64(struct jsonw *w, long long v)
{
	begin_value(w);
	fprintf(w->out, "%lld", v);
}

void jsonw_bool(struct jsonw *w, bool v)
{
	begin_value(w);
	fputs(v ? "true" : "false", w->out);
}

void jsonw_null(struct jsonw *w)
{
	begin_value(w);
	fputs("null", w->out);
}

void jsonw_kstr(struct jsonw *w, const char *key, const char *s)
{
	jsonw_key(w, key);
	jsonw_str(w, s);
}

void jsonw_kdouble(struct jsonw *w, const char *key, double v)
{
	jsonw_key(w, key);
	jsonw_double(w, v);
}

void jsonw_ku64(struct jsonw *w, const char *key, unsigned long long v)
{
	jsonw_key(w, key);
	jsonw_u64(w, v);
}

void jsonw_ki64(struct jsonw *w, const char *key, long long v)
{
	jsonw_key(w, key);
	jsonw_i64(w, v);
}

void jsonw_kbool(struct jsonw *w, const char *key, bool v)
{
	jsonw_key(w, key);
	jsonw_bool(w, v);
}

void jsonw_knull(struct jsonw *w, const char *key)
{
	jsonw_key(w, key);
	jsonw_null(w);
}
