// SPDX-License-Identifier: GPL-2.0
/*
 * `bpfbench profile --diff A B`: which functions grew or shrank from A to
 * B, by self share of the samples, and by ns/op where both files carry
 * their run's ns/op (a function's share of the op, in time).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "flame.h"
#include "util.h"

struct diff_row {
	const char *name;
	double a, b;		/* self shares */
};

static double self_share(const struct profile *p, const char *name)
{
	int i;

	for (i = 0; i < p->nr_funcs; i++)
		if (!strcmp(p->funcs[i].name, name))
			return p->samples ? (double)p->funcs[i].self / p->samples : 0;
	return 0;
}

static int row_cmp(const void *x, const void *y)
{
	const struct diff_row *r = x, *s = y;
	double dr = fabs(r->b - r->a), ds = fabs(s->b - s->a);

	if (dr != ds)
		return dr < ds ? 1 : -1;
	return strcmp(r->name, s->name);
}

static bool has_func(const struct profile *p, const char *name)
{
	int i;

	for (i = 0; i < p->nr_funcs; i++)
		if (!strcmp(p->funcs[i].name, name))
			return true;
	return false;
}

/* Every function of either profile once. */
static int diff_rows(const struct prof_view *a, const struct prof_view *b, struct diff_row *rows)
{
	const struct profile *p;
	int i, k, n = 0;

	for (k = 0; k < 2; k++) {
		p = k ? b->p : a->p;
		for (i = 0; i < p->nr_funcs; i++) {
			if (k && has_func(a->p, p->funcs[i].name))
				continue;
			rows[n].name = p->funcs[i].name;
			rows[n].a = self_share(a->p, rows[n].name);
			rows[n].b = self_share(b->p, rows[n].name);
			n++;
		}
	}
	return n;
}

void prof_diff_print(FILE *out, const struct prof_view *a, const struct prof_view *b, int max)
{
	struct diff_row *rows = xcalloc(a->p->nr_funcs + b->p->nr_funcs + 1, sizeof(*rows));
	bool ns = !isnan(a->ns_per_op) && !isnan(b->ns_per_op);
	int i, n = diff_rows(a, b, rows);

	qsort(rows, n, sizeof(*rows), row_cmp);
	fprintf(out, "Profile diff: A %s (%llu samples", a->title, (unsigned long long)a->p->samples);
	if (ns)
		fprintf(out, ", %.3f ns/op", a->ns_per_op);
	fprintf(out, ") -> B %s (%llu samples", b->title, (unsigned long long)b->p->samples);
	if (ns)
		fprintf(out, ", %.3f ns/op", b->ns_per_op);
	fprintf(out, "), by self share%s:\n", ns ? " and its ns/op" : "");
	fprintf(out, "  %7s %7s %8s", "A self", "B self", "delta");
	if (ns)
		fprintf(out, " %9s %9s %9s", "A ns/op", "B ns/op", "delta");
	fprintf(out, "  function\n");
	for (i = 0; i < n && i < max; i++) {
		const struct diff_row *r = &rows[i];

		if (r->a == r->b)
			break;
		fprintf(out, "  %6.1f%% %6.1f%% %+7.1fpp", r->a * 100, r->b * 100,
			(r->b - r->a) * 100);
		if (ns)
			fprintf(out, " %9.3f %9.3f %+9.3f", r->a * a->ns_per_op, r->b * b->ns_per_op,
				r->b * b->ns_per_op - r->a * a->ns_per_op);
		fprintf(out, "  %s\n", r->name);
	}
	free(rows);
}
