/* SPDX-License-Identifier: GPL-2.0 */
/* What the JSON reader's parts share (jsonr.c, jsonr_check.c). */
#ifndef BPFBENCH_JSONR_INT_H
#define BPFBENCH_JSONR_INT_H

#include <stddef.h>
#include <stdint.h>

int jr_hex4(const char *s, unsigned int *out);
char *jr_put_utf8(char *w, unsigned int c);
/*
 * The length of the UTF-8 sequence at p (p < end, *p >= 0x80), or 0 when
 * it is not well-formed (RFC 3629: no overlong form, no surrogate, nothing
 * beyond U+10FFFF): the JSON text must be UTF-8 (RFC 8259, section 8.1).
 */
size_t jr_utf8_len(const unsigned char *p, const unsigned char *end);

/*
 * The member names of the objects open at once, decoded: a stack, each
 * object's names after its parent's, dropped when it closes.
 */
struct jr_keys {
	char *arena;
	size_t used, cap;
	struct jr_key { uint32_t off, len; } *ent;
	uint32_t nr, nr_cap;
};

/* Room for len bytes of a name at the arena's end. */
char *jr_keys_room(struct jr_keys *k, size_t len);
/* The name just written into the room (len bytes) taken as one of the open object's. */
void jr_keys_push(struct jr_keys *k, size_t len);
/*
 * The open object's names, those from entry mark on, sorted: the first
 * name it has twice (NUL-terminated in the arena), or NULL.  The names
 * are then dropped, the object done.
 */
const char *jr_keys_close(struct jr_keys *k, uint32_t mark, size_t arena_mark);
void jr_keys_free(struct jr_keys *k);

#endif
