// SPDX-License-Identifier: GPL-2.0
/* A result's env flattened to key = value pairs (src/readback/resenv.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "jsonr.h"
#include "resenv.h"
#include "util.h"

static char *env_strdup(const char *s)
{
	char *c = strdup(s);

	if (!c)
		die("out of memory");
	return c;
}

static void add(struct res_env *env, const char *key, const char *value)
{
	env->key = realloc(env->key, (env->n + 1) * sizeof(*env->key));
	env->value = realloc(env->value, (env->n + 1) * sizeof(*env->value));
	if (!env->key || !env->value)
		die("out of memory");
	env->key[env->n] = env_strdup(key);
	env->value[env->n] = env_strdup(value);
	env->n++;
}

/* Compact JSON of a node that is no object (arrays: their elements' texts, comma-separated). */
static void node_text(const struct jr_doc *d, const struct jr_node *n, char *buf, size_t len)
{
	const struct jr_node *c;
	size_t used;

	switch (n->type) {
	case JR_NULL:
		snprintf(buf, len, "null");
		break;
	case JR_FALSE:
	case JR_TRUE:
		snprintf(buf, len, "%s", n->type == JR_TRUE ? "true" : "false");
		break;
	case JR_INT:
		snprintf(buf, len, "%lld", (long long)n->u.i);
		break;
	case JR_NUM:
		snprintf(buf, len, "%g", n->u.num);
		break;
	case JR_STR:
		/* an older file's kernel "(null)" (an empty CPU list): "", as files write it now */
		snprintf(buf, len, "%s", strcmp(jr_str(d, n), "(null)") ? jr_str(d, n) : "");
		break;
	default:
		snprintf(buf, len, "[");
		for (c = jr_first(d, n); c; c = jr_next(d, c)) {
			used = strlen(buf);
			if (used + 2 >= len)
				break;
			if (c != jr_first(d, n))
				buf[used++] = ',', buf[used] = 0;
			node_text(d, c, buf + used, len - used);
		}
		used = strlen(buf);
		if (used + 1 < len)
			snprintf(buf + used, len - used, "]");
	}
}

static void flatten(struct res_env *env, const struct jr_doc *d, const struct jr_node *obj,
		    const char *prefix, int depth)
{
	const struct jr_node *c;
	char key[256], value[1024];

	for (c = jr_first(d, obj); c; c = jr_next(d, c)) {
		snprintf(key, sizeof(key), "%s%s%s", prefix, *prefix ? "." : "", jr_key(d, c));
		if (c->type == JR_OBJ && depth < JR_MAX_DEPTH) {
			flatten(env, d, c, key, depth + 1);
			continue;
		}
		node_text(d, c, value, sizeof(value));
		add(env, key, value);
	}
}

void resenv_load(struct res_env *env, const struct jr_doc *d, const struct jr_node *obj)
{
	memset(env, 0, sizeof(*env));
	if (obj && obj->type == JR_OBJ)
		flatten(env, d, obj, "", 0);
}

void resenv_free(struct res_env *env)
{
	int i;

	for (i = 0; i < env->n; i++) {
		free(env->key[i]);
		free(env->value[i]);
	}
	free(env->key);
	free(env->value);
	memset(env, 0, sizeof(*env));
}

const char *resenv_get(const struct res_env *env, const char *key)
{
	int i;

	for (i = 0; i < env->n; i++)
		if (!strcmp(env->key[i], key))
			return env->value[i];
	return NULL;
}
