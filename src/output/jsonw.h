/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small streaming JSON writer.  Commas and nesting are tracked here so
 * that callers only say what they write, never where the separators go.
 */
#ifndef BPFBENCH_JSONW_H
#define BPFBENCH_JSONW_H

#include <stdbool.h>
#include <stdio.h>

#define JSONW_MAX_DEPTH 32

struct jsonw {
	FILE *out;
	int depth;
	bool need_comma[JSONW_MAX_DEPTH];
	bool pretty;
	bool after_key;	/* a key was written; its value follows */
};

void jsonw_init(struct jsonw *w, FILE *out, bool pretty);
void jsonw_obj_open(struct jsonw *w);
void jsonw_obj_close(struct jsonw *w);
void jsonw_arr_open(struct jsonw *w);
void jsonw_arr_close(struct jsonw *w);
/* A key inside an object; the next value call writes its value. */
void jsonw_key(struct jsonw *w, const char *key);
void jsonw_str(struct jsonw *w, const char *s);
void jsonw_double(struct jsonw *w, double v);	/* NaN/inf become null */
void jsonw_u64(struct jsonw *w, unsigned long long v);
void jsonw_i64(struct jsonw *w, long long v);
void jsonw_bool(struct jsonw *w, bool v);
void jsonw_null(struct jsonw *w);

/* key + value shorthands */
void jsonw_kstr(struct jsonw *w, const char *key, const char *s);
void jsonw_kdouble(struct jsonw *w, const char *key, double v);
void jsonw_ku64(struct jsonw *w, const char *key, unsigned long long v);
void jsonw_ki64(struct jsonw *w, const char *key, long long v);
void jsonw_kbool(struct jsonw *w, const char *key, bool v);
void jsonw_knull(struct jsonw *w, const char *key);

#endif
