// SPDX-License-Identifier: GPL-2.0
/*
 * The JSON reader's checks that are not its grammar: that strings are
 * UTF-8, and that no object has a member name twice (RFC 8259 leaves
 * the choice to readers, which differ: json-c and ours kept the first,
 * Python keeps the last; a result file means one thing or is refused).
 */
#include <stdlib.h>
#include <string.h>
#include "jsonr_int.h"
#include "util.h"

int jr_hex4(const char *s, unsigned int *out)
{
	unsigned int v = 0;
	int i, c;

	for (i = 0; i < 4; i++) {
		c = s[i];
		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= c - '0';
		else if (c >= 'a' && c <= 'f')
			v |= c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			v |= c - 'A' + 10;
		else
			return -1;
	}
	*out = v;
	return 0;
}

char *jr_put_utf8(char *w, unsigned int c)
{
	if (c < 0x80) {
		*w++ = (char)c;
	} else if (c < 0x800) {
		*w++ = (char)(0xc0 | c >> 6);
		*w++ = (char)(0x80 | (c & 0x3f));
	} else if (c < 0x10000) {
		*w++ = (char)(0xe0 | c >> 12);
		*w++ = (char)(0x80 | (c >> 6 & 0x3f));
		*w++ = (char)(0x80 | (c & 0x3f));
	} else {
		*w++ = (char)(0xf0 | c >> 18);
		*w++ = (char)(0x80 | (c >> 12 & 0x3f));
		*w++ = (char)(0x80 | (c >> 6 & 0x3f));
		*w++ = (char)(0x80 | (c & 0x3f));
	}
	return w;
}

size_t jr_utf8_len(const unsigned char *p, const unsigned char *end)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t n, i;

	if (*p >= 0xc2 && *p <= 0xdf)
		n = 2;
	else if (*p >= 0xe0 && *p <= 0xef)
		n = 3;
	else if (*p >= 0xf0 && *p <= 0xf4)
		n = 4;
	else
		return 0;	/* a continuation byte first, an overlong lead, or beyond U+10FFFF */
	/* the second byte's range is what excludes overlong forms and surrogates (RFC 3629) */
	if (*p == 0xe0)
		lo = 0xa0;
	else if (*p == 0xed)
		hi = 0x9f;
	else if (*p == 0xf0)
		lo = 0x90;
	else if (*p == 0xf4)
		hi = 0x8f;
	if ((size_t)(end - p) < n || p[1] < lo || p[1] > hi)
		return 0;
	for (i = 2; i < n; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

char *jr_keys_room(struct jr_keys *k, size_t len)
{
	if (k->cap - k->used < len + 1) {
		k->cap = (k->used + len + 1) * 2;
		k->arena = realloc(k->arena, k->cap);
		if (!k->arena)
			die("out of memory");
	}
	return k->arena + k->used;
}

void jr_keys_push(struct jr_keys *k, size_t len)
{
	if (k->nr == k->nr_cap) {
		k->nr_cap = k->nr_cap ? k->nr_cap * 2 : 64;
		k->ent = realloc(k->ent, k->nr_cap * sizeof(*k->ent));
		if (!k->ent)
			die("out of memory");
	}
	k->arena[k->used + len] = 0;
	k->ent[k->nr++] = (struct jr_key){ .off = (uint32_t)k->used, .len = (uint32_t)len };
	k->used += len + 1;
}

static int key_cmp(const void *a, const void *b, void *arena)
{
	const struct jr_key *x = a, *y = b;
	size_t n = x->len < y->len ? x->len : y->len;
	int c = memcmp((char *)arena + x->off, (char *)arena + y->off, n);

	return c ?: (x->len > y->len) - (x->len < y->len);
}

const char *jr_keys_close(struct jr_keys *k, uint32_t mark, size_t arena_mark)
{
	struct jr_key *e = k->ent + mark;
	uint32_t i, n = k->nr - mark;
	const char *dup = NULL;

	/* sorted, not compared pairwise: a sample has a member per metric, hundreds */
	if (n > 1)
		qsort_r(e, n, sizeof(*e), key_cmp, k->arena);
	for (i = 1; i < n && !dup; i++)
		if (!key_cmp(&e[i - 1], &e[i], k->arena))
			dup = k->arena + e[i].off;
	if (dup)
		return dup;	/* the parse ends: the arena stays for the message */
	k->nr = mark;
	k->used = arena_mark;
	return NULL;
}

void jr_keys_free(struct jr_keys *k)
{
	free(k->arena);
	free(k->ent);
	memset(k, 0, sizeof(*k));
}
