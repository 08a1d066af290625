// SPDX-License-Identifier: GPL-2.0
/*
 * `bpfbench profile --diff A B`: which functions grew or shrank from A to
 * B, by self share of the samples, and by ns/op where both files carry
 * their run's ns/op (a function's share of the op, in time).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "flame.h"
#include "util.h"

struct diff_row {
	const char *name;
	double a, b;		/* self shares */
};

/* B's functions by name: slot -> index into b's funcs, -1 free (open addressing). */
struct name_index {
	size_t mask;
	int *slot;
};

static uint64_t hash_name(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ull;
	return h;
}

/* At most half full: a probe ends soon at a free slot. */
static void index_build(struct name_index *ix, const struct profile *p)
{
	size_t cap = 16, j;
	int i;

	while (cap < (size_t)p->nr_funcs * 2)
		cap *= 2;
	ix->mask = cap - 1;
	ix->slot = xcalloc(cap, sizeof(int));
	memset(ix->slot, 0xff, cap * sizeof(int));
	for (i = 0; i < p->nr_funcs; i++) {
		for (j = hash_name(p->funcs[i].name) & ix->mask; ix->slot[j] >= 0;
		     j = (j + 1) & ix->mask)
			;
		ix->slot[j] = i;
	}
}

static int index_find(const struct name_index *ix, const struct profile *p, const char *name)
{
	size_t j;

	for (j = hash_name(name) & ix->mask; ix->slot[j] >= 0; j = (j + 1) & ix->mask)
		if (!strcmp(p->funcs[ix->slot[j]].name, name))
			return ix->slot[j];
	return -1;
}

static double self_share(const struct profile *p, int i)
{
	return i >= 0 && p->samples ? (double)p->funcs[i].self / p->samples : 0;
}

static int row_cmp(const void *x, const void *y)
{
	const struct diff_row *r = x, *s = y;
	double dr = fabs(r->b - r->a), ds = fabs(s->b - s->a);

	if (dr != ds)
		return dr < ds ? 1 : -1;
	return strcmp(r->name, s->name);
}

/*
 * Every function of either profile once, each looked up by hash: the
 * files --diff is given can hold a million functions, and a scan of B
 * for each of A's took hours.
 */
static int diff_rows(const struct prof_view *a, const struct prof_view *b, struct diff_row *rows)
{
	const struct profile *pa = a->p, *pb = b->p;
	bool *in_a = xcalloc((size_t)pb->nr_funcs + 1, sizeof(bool));
	struct name_index ix;
	int i, k, n = 0;

	index_build(&ix, pb);
	for (i = 0; i < pa->nr_funcs; i++) {
		k = index_find(&ix, pb, pa->funcs[i].name);
		if (k >= 0)
			in_a[k] = true;
		rows[n].name = pa->funcs[i].name;
		rows[n].a = self_share(pa, i);
		rows[n++].b = self_share(pb, k);
	}
	for (i = 0; i < pb->nr_funcs; i++) {
		if (in_a[i])
			continue;
		rows[n].name = pb->funcs[i].name;
		rows[n].a = 0;
		rows[n++].b = self_share(pb, i);
	}
	free(ix.slot);
	free(in_a);
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
