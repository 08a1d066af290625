/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A result document's "env" (the conditions its figures were taken
 * under), flattened to one key = value pair per field, so that compare
 * can say which conditions two files do not share.
 */
#ifndef BPFBENCH_RESENV_H
#define BPFBENCH_RESENV_H

struct jr_doc;
struct jr_node;

struct res_env {
	int n;
	char **key;	/* nested objects joined by dots: "vulnerabilities.spectre_v2" */
	char **value;	/* strings as they are, anything else as compact JSON */
};

/* Fills env from the object node (NULL: an empty env). */
void resenv_load(struct res_env *env, const struct jr_doc *d, const struct jr_node *obj);
void resenv_free(struct res_env *env);
/* The value of key, NULL when the file has no such field. */
const char *resenv_get(const struct res_env *env, const char *key);

#endif
