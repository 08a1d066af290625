/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A metric's key: the row it belongs to when one run measures one
 * quantity several ways, "op=lookup,batch=1000".  The name stays free of
 * parameters ("time", "rate"); name and key together are the metric.
 * Fields are name=value pairs in the order the benchmark gives them;
 * neither part holds ',', '=', '{' or '}'.
 *
 * The identity text, "time{op=lookup,batch=1000}" (the name alone when
 * there is no key), is what JSON objects are keyed by.
 */
#ifndef BPFBENCH_MKEY_H
#define BPFBENCH_MKEY_H

#include <stdbool.h>
#include <stddef.h>

#define MKEY_MAX	128	/* the longest key text */
#define MKEY_ID_MAX	(64 + MKEY_MAX + 2)

static inline bool mkey_none(const char *key)
{
	return !key || !*key;
}

/* Whether two keys are the same, NULL and "" alike. */
bool mkey_eq(const char *a, const char *b);
/* "name{key}", or name: into buf, which it returns. */
const char *mkey_id(const char *name, const char *key, char *buf, size_t len);
/*
 * The next field of the key at *pos (start with *pos = key): its name
 * and value into the buffers, *pos moved past it; false at the end.
 */
bool mkey_next(const char **pos, char *name, size_t nlen, char *val, size_t vlen);
/* The value of field name into buf: true, or false when the key lacks it. */
bool mkey_get(const char *key, const char *name, char *buf, size_t len);
/* Whether a field's value is a decimal integer (JSON writes it as a number). */
bool mkey_is_int(const char *val);

#endif
