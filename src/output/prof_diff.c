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
	const char *name;	/* A's, else B's */
	const char *other;	/* B's where it differs (a program's tag), else NULL */
	double a, b;		/* self shares */
};

/* A side's functions by what they are matched by: slot -> index into key, -1 free. */
struct key_index {
	size_t mask;
	int *slot;
	char **key;		/* per function */
	int *count;		/* per function: functions of its side with its key */
};

#define TAG_LEN	16	/* a program's tag in its kallsyms name, hex digits */

static uint64_t hash_name(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ull;
	return h;
}

/*
 * What a function is matched by across two profiles: a BPF program's
 * kallsyms name, "bpf_prog_<tag>_<name>", carries the tag of its
 * instructions, which a program's other configuration (a constant, a
 * map's size) can change: it is matched by its kind and name,
 * "bpf_prog_*_<name>", which no symbol is named.  Anything else by name.
 */
static char *match_key(const char *name)
{
	const char *p = name + 9;
	char *key;
	int i;

	if (strncmp(name, "bpf_prog_", 9))
		return xstrdup(name);
	for (i = 0; i < TAG_LEN; i++)
		if (!strchr("0123456789abcdef", p[i]) || !p[i])
			return xstrdup(name);
	if (p[TAG_LEN] != '_' || !p[TAG_LEN + 1])
		return xstrdup(name);
	if (asprintf(&key, "bpf_prog_*%s", p + TAG_LEN) < 0)
		die("out of memory");
	return key;
}

static int index_find(const struct key_index *ix, const char *key)
{
	size_t j;

	for (j = hash_name(key) & ix->mask; ix->slot[j] >= 0; j = (j + 1) & ix->mask)
		if (!strcmp(ix->key[ix->slot[j]], key))
			return ix->slot[j];
	return -1;
}

/* At most half full: a probe ends soon at a free slot.  A key met again is counted, not slotted. */
static void index_build(struct key_index *ix, int n)
{
	size_t cap = 16, j;
	int i, k;

	while (cap < (size_t)n * 2)
		cap *= 2;
	free(ix->slot);
	ix->mask = cap - 1;
	ix->slot = xcalloc(cap, sizeof(int));
	memset(ix->slot, 0xff, cap * sizeof(int));
	for (i = 0; i < n; i++)
		ix->count[i] = 0;
	for (i = 0; i < n; i++) {
		k = index_find(ix, ix->key[i]);
		if (k >= 0) {
			ix->count[k]++;
			ix->count[i] = -1;	/* a later one of k's key: k's count says it */
			continue;
		}
		for (j = hash_name(ix->key[i]) & ix->mask; ix->slot[j] >= 0; j = (j + 1) & ix->mask)
			;
		ix->slot[j] = i;
		ix->count[i] = 1;
	}
}

static void index_init(struct key_index *ix, const struct profile *p)
{
	int i;

	memset(ix, 0, sizeof(*ix));
	ix->key = xcalloc((size_t)p->nr_funcs + 1, sizeof(char *));
	ix->count = xcalloc((size_t)p->nr_funcs + 1, sizeof(int));
	for (i = 0; i < p->nr_funcs; i++)
		ix->key[i] = match_key(p->funcs[i].name);
	index_build(ix, p->nr_funcs);
}

/* Whether function i of x is a program whose name is several programs' on a side. */
static bool clashes(const struct key_index *x, const struct profile *px, int i,
		    const struct key_index *other)
{
	int k, o;

	if (!strcmp(x->key[i], px->funcs[i].name))
		return false;
	k = index_find(x, x->key[i]);
	o = index_find(other, x->key[i]);
	return x->count[k] > 1 || (o >= 0 && other->count[o] > 1);
}

/* Programs whose names clash on either side: matched by their whole names, tags and all. */
static void unclash(struct key_index *ia, const struct profile *pa, struct key_index *ib,
		    const struct profile *pb)
{
	bool *ra = xcalloc((size_t)pa->nr_funcs + 1, sizeof(bool));
	bool *rb = xcalloc((size_t)pb->nr_funcs + 1, sizeof(bool));
	int i;

	for (i = 0; i < pa->nr_funcs; i++)
		ra[i] = clashes(ia, pa, i, ib);
	for (i = 0; i < pb->nr_funcs; i++)
		rb[i] = clashes(ib, pb, i, ia);
	for (i = 0; i < pa->nr_funcs; i++)
		if (ra[i]) {
			free(ia->key[i]);
			ia->key[i] = xstrdup(pa->funcs[i].name);
		}
	for (i = 0; i < pb->nr_funcs; i++)
		if (rb[i]) {
			free(ib->key[i]);
			ib->key[i] = xstrdup(pb->funcs[i].name);
		}
	index_build(ia, pa->nr_funcs);
	index_build(ib, pb->nr_funcs);
	free(ra);
	free(rb);
}

static void index_free(struct key_index *ix, int n)
{
	int i;

	for (i = 0; i < n; i++)
		free(ix->key[i]);
	free(ix->key);
	free(ix->count);
	free(ix->slot);
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
 * for each of A's took hours.  Programs are matched by name; where a
 * name is several programs' on a side, by their tags too.
 */
static int diff_rows(const struct prof_view *a, const struct prof_view *b, struct diff_row *rows)
{
	const struct profile *pa = a->p, *pb = b->p;
	bool *in_a = xcalloc((size_t)pb->nr_funcs + 1, sizeof(bool));
	struct key_index ia, ib;
	int i, k, n = 0;

	index_init(&ia, pa);
	index_init(&ib, pb);
	unclash(&ia, pa, &ib, pb);
	for (i = 0; i < pa->nr_funcs; i++) {
		k = index_find(&ib, ia.key[i]);
		if (k >= 0)
			in_a[k] = true;
		rows[n].name = pa->funcs[i].name;
		rows[n].other = k >= 0 && strcmp(pb->funcs[k].name, pa->funcs[i].name) ?
				pb->funcs[k].name : NULL;
		rows[n].a = self_share(pa, i);
		rows[n++].b = self_share(pb, k);
	}
	for (i = 0; i < pb->nr_funcs; i++) {
		if (in_a[i])
			continue;
		rows[n].name = pb->funcs[i].name;
		rows[n].other = NULL;
		rows[n].a = 0;
		rows[n++].b = self_share(pb, i);
	}
	index_free(&ia, pa->nr_funcs);
	index_free(&ib, pb->nr_funcs);
	free(in_a);
	return n;
}

/* A row's function: its name, or a program's whose tag differs as "NAME (tag A -> B)". */
static void row_name(FILE *out, const struct diff_row *r)
{
	if (!r->other) {
		fprintf(out, "%s", r->name);
		return;
	}
	fprintf(out, "bpf_prog_%s (tag %.*s -> %.*s)", r->name + 9 + TAG_LEN + 1, TAG_LEN,
		r->name + 9, TAG_LEN, r->other + 9);
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
		fputs("  ", out);
		row_name(out, r);
		fputc('\n', out);
	}
	free(rows);
}
