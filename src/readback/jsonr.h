/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A JSON reader whose memory is in proportion to its input: one pass over
 * the text builds a flat array of 24-byte nodes, strings decoded in place
 * in the text.  json-c's tree costs tens of times the text for a document
 * that is mostly numbers (a 60 MB result took 6.5 GB); this one costs
 * about the text again.  Strict RFC 8259, except that NaN, Infinity and
 * -Infinity are recognised so that they can be refused by the name of the
 * field that holds them, as is a number beyond the range of a double.
 */
#ifndef BPFBENCH_JSONR_H
#define BPFBENCH_JSONR_H

#include <stddef.h>
#include <stdint.h>

#define JR_MAX_DEPTH	16
#define JR_NOKEY	UINT32_MAX

/* JR_RAW: an array jr_parse_lazy() checked but kept as text, read with jr_iter. */
enum jr_type { JR_NULL, JR_FALSE, JR_TRUE, JR_INT, JR_NUM, JR_STR, JR_ARR, JR_OBJ, JR_RAW };

struct jr_node {
	uint8_t type;		/* enum jr_type */
	uint32_t key;		/* offset in the text of the member's name; JR_NOKEY outside objects */
	uint32_t next;		/* index of the next sibling; 0 ends the list (the root is node 0) */
	union {
		double num;		/* JR_NUM */
		int64_t i;		/* JR_INT: a number written without fraction or exponent */
		struct {
			uint32_t off, len;	/* JR_STR: decoded, NUL-terminated in the text;
						 * JR_RAW: the array's text, '[' to ']' */
		} s;
		struct {
			uint32_t first, count;	/* JR_ARR, JR_OBJ: first child's index (0: none) */
		} kids;
	} u;
};

struct jr_doc {
	char *text;		/* the caller's buffer, rewritten in place by the parse */
	struct jr_node *nodes;
	uint32_t nr, cap;
};

/*
 * Parses text[0..len) (text[len] must be writable: it is set to NUL) into
 * doc; nesting beyond JR_MAX_DEPTH is an error.  0, or -1 with one line in
 * err: what is wrong and where (byte offset, or the field's path).
 */
int jr_parse(struct jr_doc *doc, char *text, size_t len, char *err, size_t errlen);
/*
 * The same, but the root's "runs" array is checked whole, NaN and range
 * included, and kept as its text, a JR_RAW node, to be read one run at a
 * time with jr_iter_init_lazy(..., LAZY), whose runs keep their LAZY
 * array (the samples: most of a long run's file) as text in turn, read
 * one element at a time with jr_iter: the nodes then cost a run's
 * share of the document, not the document.
 */
int jr_parse_lazy(struct jr_doc *doc, char *text, size_t len, const char *lazy, char *err,
		  size_t errlen);
void jr_free(struct jr_doc *doc);	/* the nodes; the text stays the caller's */

/*
 * The elements of an array, JR_ARR or JR_RAW, in turn.  An element of a
 * JR_RAW array is parsed into the iterator's own nodes (read it in
 * jr_iter_doc(), until the next call); its strings are decoded in the
 * text then, so a lazy array is read once.
 */
struct jr_iter {
	const struct jr_doc *d;
	const struct jr_node *arr, *cur;
	char *p, *end;
	struct jr_doc elem;
	const char *lazy;	/* an element's member of this name kept as text */
};

void jr_iter_init(struct jr_iter *it, const struct jr_doc *d, const struct jr_node *arr);
/* The same, each element's member LAZY (an array) kept as a JR_RAW node (jr_parse_lazy()). */
void jr_iter_init_lazy(struct jr_iter *it, const struct jr_doc *d, const struct jr_node *arr,
		       const char *lazy);
const struct jr_node *jr_iter_next(struct jr_iter *it);
const struct jr_doc *jr_iter_doc(const struct jr_iter *it);
void jr_iter_free(struct jr_iter *it);

static inline const struct jr_node *jr_root(const struct jr_doc *d)
{
	return d->nr ? &d->nodes[0] : NULL;
}

/* The first child of an array or object, then its next sibling: NULL at the end. */
const struct jr_node *jr_first(const struct jr_doc *d, const struct jr_node *n);
const struct jr_node *jr_next(const struct jr_doc *d, const struct jr_node *n);
/* The member key of obj, NULL when obj is no object or lacks it. */
const struct jr_node *jr_member(const struct jr_doc *d, const struct jr_node *obj, const char *key);
/* A member of the given type (JR_NUM also matches JR_INT), else NULL. */
const struct jr_node *jr_typed(const struct jr_doc *d, const struct jr_node *obj, const char *key,
			       enum jr_type type);
const char *jr_key(const struct jr_doc *d, const struct jr_node *n);
const char *jr_str(const struct jr_doc *d, const struct jr_node *n);	/* JR_STR only */
double jr_num(const struct jr_node *n);		/* JR_INT or JR_NUM */

#endif
