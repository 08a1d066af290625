/* SPDX-License-Identifier: GPL-2.0 */
/* What the parts of the result reader share (resdoc.c, resdoc_metric.c). */
#ifndef BPFBENCH_RESDOC_INT_H
#define BPFBENCH_RESDOC_INT_H

#include "jsonr.h"
#include "resdoc.h"

/* What one load is working on. */
struct loader {
	struct res_doc *doc;
	struct jr_doc root;		/* the document, its runs kept as text */
	const struct jr_doc *jd;	/* the nodes being read: root's, or a run's */
	size_t released;		/* the text before this offset was handed back */
};

/* One line "PATH: what" on stderr; returns EXIT_USAGE. */
int rd_bad(const struct res_doc *doc, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* A copy of s that lives as long as the document. */
const char *rd_keep(struct res_doc *doc, const char *s);
/* A string member, kept, or NULL when absent or of another type. */
const char *rd_str(struct loader *l, const struct jr_node *o, const char *key);
/* A number, or NAN when absent or null; 0 unless present with another type. */
int rd_num(struct loader *l, const struct jr_node *o, const char *key, double *out);
/* runs[ri]'s metrics, samples and repeats into r: 0 or EXIT_USAGE. */
int resdoc_load_metrics(struct loader *l, int ri, const struct jr_node *jr, struct res_run *r);

#endif
