// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <string.h>
#include "mkey.h"

bool mkey_eq(const char *a, const char *b)
{
	if (mkey_none(a) || mkey_none(b))
		return mkey_none(a) && mkey_none(b);
	return !strcmp(a, b);
}

const char *mkey_id(const char *name, const char *key, char *buf, size_t len)
{
	if (mkey_none(key))
		snprintf(buf, len, "%s", name);
	else
		snprintf(buf, len, "%s{%s}", name, key);
	return buf;
}

/* Copies at most len - 1 bytes of [s, s + n) into buf, terminated. */
static void copy_part(char *buf, size_t len, const char *s, size_t n)
{
	if (!len)
		return;
	if (n >= len)
		n = len - 1;
	memcpy(buf, s, n);
	buf[n] = 0;
}

bool mkey_next(const char **pos, char *name, size_t nlen, char *val, size_t vlen)
{
	const char *p = *pos, *end, *eq;

	if (!p || !*p)
		return false;
	end = p + strcspn(p, ",");
	eq = memchr(p, '=', end - p);
	if (!eq)
		eq = end;	/* a field without a value: an empty one */
	copy_part(name, nlen, p, eq - p);
	copy_part(val, vlen, eq < end ? eq + 1 : end, eq < end ? end - eq - 1 : 0);
	*pos = *end ? end + 1 : end;
	return true;
}

bool mkey_get(const char *key, const char *name, char *buf, size_t len)
{
	char n[MKEY_MAX];

	while (mkey_next(&key, n, sizeof(n), buf, len))
		if (!strcmp(n, name))
			return true;
	return false;
}

bool mkey_is_int(const char *val)
{
	const char *p = val;

	if (*p == '-')
		p++;
	if (!*p || (*p == '0' && (p[1] || p != val)) || strlen(p) > 18)
		return false;	/* no leading zeros: the number must write back as the text */
	return strspn(p, "0123456789") == strlen(p);
}
