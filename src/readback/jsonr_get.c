// SPDX-License-Identifier: GPL-2.0
/* Reading parsed JSON (src/readback/jsonr.h): members, siblings, values, iterators. */
#include <stdlib.h>
#include <string.h>
#include "jsonr.h"

const struct jr_node *jr_first(const struct jr_doc *d, const struct jr_node *n)
{
	if (!n || (n->type != JR_ARR && n->type != JR_OBJ) || !n->u.kids.first)
		return NULL;
	return &d->nodes[n->u.kids.first];
}

const struct jr_node *jr_next(const struct jr_doc *d, const struct jr_node *n)
{
	return n->next ? &d->nodes[n->next] : NULL;
}

const struct jr_node *jr_member(const struct jr_doc *d, const struct jr_node *obj, const char *key)
{
	const struct jr_node *c;

	if (!obj || obj->type != JR_OBJ)
		return NULL;
	for (c = jr_first(d, obj); c; c = jr_next(d, c))
		if (!strcmp(d->text + c->key, key))
			return c;
	return NULL;
}

const struct jr_node *jr_typed(const struct jr_doc *d, const struct jr_node *obj, const char *key,
			       enum jr_type type)
{
	const struct jr_node *v = jr_member(d, obj, key);

	if (v && (v->type == type || (type == JR_NUM && v->type == JR_INT)))
		return v;
	return NULL;
}

const char *jr_key(const struct jr_doc *d, const struct jr_node *n)
{
	return n->key == JR_NOKEY ? NULL : d->text + n->key;
}

const char *jr_str(const struct jr_doc *d, const struct jr_node *n)
{
	return n && n->type == JR_STR ? d->text + n->u.s.off : NULL;
}

double jr_num(const struct jr_node *n)
{
	return n->type == JR_INT ? (double)n->u.i : n->u.num;
}

void jr_iter_init_lazy(struct jr_iter *it, const struct jr_doc *d, const struct jr_node *arr,
		       const char *lazy)
{
	jr_iter_init(it, d, arr);
	it->lazy = lazy;
}

void jr_iter_init(struct jr_iter *it, const struct jr_doc *d, const struct jr_node *arr)
{
	memset(it, 0, sizeof(*it));
	it->d = d;
	it->arr = arr;
	if (arr && arr->type == JR_RAW) {
		it->p = d->text + arr->u.s.off;
		it->end = it->p + arr->u.s.len;
		it->elem.text = d->text;
	}
}

const struct jr_doc *jr_iter_doc(const struct jr_iter *it)
{
	return it->arr && it->arr->type == JR_RAW ? &it->elem : it->d;
}

void jr_iter_free(struct jr_iter *it)
{
	free(it->elem.nodes);
	it->elem.nodes = NULL;
}

void jr_free(struct jr_doc *doc)
{
	free(doc->nodes);
	memset(doc, 0, sizeof(*doc));
}
