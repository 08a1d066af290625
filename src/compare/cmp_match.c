// SPDX-License-Identifier: GPL-2.0
/*
 * Run matching for compare (src/compare/cmp_match.h).
 *
 * A run's identity is a set of parts, name = value: benchmark, suite,
 * section, label and every measured option, as --match or
 * --ignore-option leave them.  Two runs differ in the names whose values
 * differ (a part one run lacks counts).  Each part hashes to 64 bits and
 * the identity to their sum, so the identity without one part is the sum
 * less that part's hash.  Three indexes of both documents' runs then
 * answer, in a few look-ups a run:
 *   full:    the identity's hash          -> runs identical (a match);
 *   drop:    identity less one part       -> runs with one part more;
 *   swap:    identity less one part, plus that part's name alone
 *                                         -> runs whose value of that part differs.
 * A run with one difference is found through them; only a run with two
 * or more is looked for by comparing runs in turn, CLOSEST_SCAN at most.
 * A hash only proposes: every candidate is checked part by part, so a
 * collision can cost time, never a wrong answer.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmp_match.h"
#include "util.h"

#define CLOSEST_SCAN	1024	/* runs compared one by one for a run without a near one */

/* A multimap of 64-bit keys to run indexes, in the order added (ascending). */
struct idx_map {
	size_t cap, nr;		/* slots (a power of two), keys */
	uint64_t *keys;
	int *head, *tail;	/* per slot: first and last entry of the key's chain */
	int *count;		/* per slot: the chain's length */
	int *next;		/* per entry: the next of its chain, -1 */
	int *run;		/* per entry */
	size_t nr_entries, cap_entries;
};

struct cmp_match {
	const struct cmp_args *a;
	const struct res_doc *doc[2];	/* OLD, NEW */
	uint64_t *full[2];		/* per run: the identity's hash */
	struct idx_map fullx[2], dropx[2], swapx[2];
	struct idx_map names[2];	/* (bench, section, label, name, value) -> count, for names */
	struct idx_map groups[2];	/* (bench, section, label) -> count */
	struct idx_map shown[2];	/* the short name (cmp_short_name) -> count */
};

/* FNV-1a of a name as options are matched ('-' and '_' alike), then of a value (NULL: none). */
static uint64_t hash_str(uint64_t h, const char *s, bool dash)
{
	if (!s)
		return mix64(h ^ 0x5bd1e995);
	for (; *s; s++)
		h = (h ^ (unsigned char)(dash && *s == '_' ? '-' : *s)) * 0x100000001b3ull;
	return (h ^ 0xff) * 0x100000001b3ull;
}

static uint64_t part_hash(const char *name, const char *value)
{
	return mix64(hash_str(hash_str(0xcbf29ce484222325ull, name, true), value, false));
}

static uint64_t name_hash(const char *name)
{
	return mix64(hash_str(0x84222325cbf29ce4ull, name, true) ^ 0x9e3779b97f4a7c15ull);
}

static void map_grow(struct idx_map *m)
{
	size_t cap = m->cap ? m->cap * 2 : 64, i, s;
	struct idx_map n = { .cap = cap, .nr = m->nr };

	n.keys = xcalloc(cap, sizeof(*n.keys));
	n.head = xcalloc(cap, sizeof(int));
	n.tail = xcalloc(cap, sizeof(int));
	n.count = xcalloc(cap, sizeof(int));
	for (s = 0; s < cap; s++)
		n.head[s] = -1;
	for (i = 0; i < m->cap; i++) {
		if (m->head[i] < 0)
			continue;
		for (s = m->keys[i] & (cap - 1); n.head[s] >= 0; s = (s + 1) & (cap - 1))
			;
		n.keys[s] = m->keys[i];
		n.head[s] = m->head[i];
		n.tail[s] = m->tail[i];
		n.count[s] = m->count[i];
	}
	free(m->keys);
	free(m->head);
	free(m->tail);
	free(m->count);
	m->cap = cap;
	m->keys = n.keys;
	m->head = n.head;
	m->tail = n.tail;
	m->count = n.count;
}

/* The slot of key, or of the empty place it would go. */
static size_t map_slot(const struct idx_map *m, uint64_t key)
{
	size_t s;

	for (s = key & (m->cap - 1); m->head[s] >= 0 && m->keys[s] != key; s = (s + 1) & (m->cap - 1))
		;
	return s;
}

static void map_add(struct idx_map *m, uint64_t key, int run)
{
	size_t s;
	int e;

	if (2 * (m->nr + 1) > m->cap)
		map_grow(m);
	if (m->nr_entries == m->cap_entries) {
		m->cap_entries = m->cap_entries ? 2 * m->cap_entries : 64;
		m->next = realloc(m->next, m->cap_entries * sizeof(int));
		m->run = realloc(m->run, m->cap_entries * sizeof(int));
		if (!m->next || !m->run)
			die("out of memory");
	}
	e = (int)m->nr_entries++;
	m->next[e] = -1;
	m->run[e] = run;
	s = map_slot(m, key);
	if (m->head[s] < 0) {
		m->keys[s] = key;
		m->head[s] = e;
		m->nr++;
	} else {
		m->next[m->tail[s]] = e;
	}
	m->tail[s] = e;
	m->count[s]++;
}

/* The first entry of key's chain, -1 if none. */
static int map_first(const struct idx_map *m, uint64_t key)
{
	return m->cap ? m->head[map_slot(m, key)] : -1;
}

static size_t map_count(const struct idx_map *m, uint64_t key)
{
	size_t s = m->cap ? map_slot(m, key) : 0;

	return m->cap && m->head[s] >= 0 ? (size_t)m->count[s] : 0;
}

static void map_free(struct idx_map *m)
{
	free(m->keys);
	free(m->head);
	free(m->tail);
	free(m->count);
	free(m->next);
	free(m->run);
	memset(m, 0, sizeof(*m));
}

/* ---- a run's identity ---- */

/* Option names match with '-' and '_' alike, as on the command line. */
static bool name_eq(const char *a, const char *b)
{
	for (; *a && *b; a++, b++)
		if ((*a == '_' ? '-' : *a) != (*b == '_' ? '-' : *b))
			return false;
	return !*a && !*b;
}

static const char *const fixed_parts[] = { "bench", "suite", "section", "label" };

bool cmp_is_fixed_part(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(fixed_parts); i++)
		if (!strcmp(name, fixed_parts[i]))
			return true;
	return false;
}

const char *cmp_part_value(const struct res_run *r, const char *name)
{
	const char *const fixed[] = { r->bench, r->suite, r->section, r->label };
	size_t i;

	int lo = 0, hi = r->nr_mopts, mid;

	for (i = 0; i < ARRAY_SIZE(fixed_parts); i++)
		if (!strcmp(name, fixed_parts[i]))
			return fixed[i];
	/* sorted as they match (resdoc.h): the first of the name's spellings, in log time */
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (res_name_cmp(r->mopt_name[mid], name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < r->nr_mopts && name_eq(r->mopt_name[lo], name) ? r->mopt_value[lo] : NULL;
}

static bool listed(const struct cmp_args *a, const char *name)
{
	int i;

	for (i = 0; i < a->nr_names; i++)
		if (name_eq(a->names[i], name))
			return true;
	return false;
}

static bool same_text(const char *x, const char *y)
{
	return x == y || (x && y && !strcmp(x, y));
}

/* Whether name is part of the identity runs match on. */
static bool keyed(const struct cmp_args *a, const char *name)
{
	if (a->match_only)
		return !strcmp(name, "bench") || listed(a, name);
	return !listed(a, name);
}

/*
 * Whether option k of r is a part of its own: keyed, no fixed part's
 * name, its name's first spelling (they are adjacent, resdoc.h).
 */
static bool own_part(const struct cmp_args *a, const struct res_run *r, int k)
{
	if (cmp_is_fixed_part(r->mopt_name[k]) || !keyed(a, r->mopt_name[k]))
		return false;
	return !k || !name_eq(r->mopt_name[k - 1], r->mopt_name[k]);
}

/* Calls fn for each part of r's identity that has a value. */
static void each_part(const struct cmp_args *a, const struct res_run *r,
		      void (*fn)(void *arg, const char *name, const char *value), void *arg)
{
	size_t i;
	int k;

	for (i = 0; i < ARRAY_SIZE(fixed_parts); i++)
		if (keyed(a, fixed_parts[i]) && cmp_part_value(r, fixed_parts[i]))
			fn(arg, fixed_parts[i], cmp_part_value(r, fixed_parts[i]));
	for (k = 0; k < r->nr_mopts; k++)
		if (own_part(a, r, k))
			fn(arg, r->mopt_name[k], r->mopt_value[k]);
}

static void sum_part(void *arg, const char *name, const char *value)
{
	*(uint64_t *)arg += part_hash(name, value);
}

/* ---- differences, as they are printed ---- */

/* Where differences are written: buf (NULL: only counted), and names alone or with values. */
struct diff_out {
	char *buf;
	size_t len, used;
	bool names;
};

/* One part: counted, and written as "name (NEW x, OLD y)" (or "name") when it differs (--names'). */
static int differ(const struct cmp_args *a, const char *name, const char *ov, const char *nv,
		  struct diff_out *out)
{
	/* an option left out of the identity is absent or at its default: the same thing */
	const char *none = cmp_is_fixed_part(name) ? "none" : "default";
	const char *sep = out->used ? (out->names ? "," : ", ") : "";

	if (!keyed(a, name) || same_text(ov, nv))
		return 0;
	if (out->buf && out->used < out->len && out->names)
		out->used += (size_t)snprintf(out->buf + out->used, out->len - out->used, "%s%s",
					      sep, name);
	else if (out->buf && out->used < out->len)
		out->used += (size_t)snprintf(out->buf + out->used, out->len - out->used,
					      "%s%s (%s %s, %s %s)", sep, name, a->o.new_name,
					      nv ?: none, a->o.old_name, ov ?: none);
	return 1;
}

/* The parts of the identity o and n differ in (written into out->buf unless NULL); their number. */
static int diff_parts(const struct cmp_args *a, const struct res_run *o, const struct res_run *n,
		      struct diff_out *out)
{
	size_t i;
	int nr = 0;

	if (out->buf)
		out->buf[0] = 0;
	for (i = 0; i < ARRAY_SIZE(fixed_parts); i++)
		nr += differ(a, fixed_parts[i], cmp_part_value(o, fixed_parts[i]),
			     cmp_part_value(n, fixed_parts[i]), out);
	for (i = 0; i < (size_t)n->nr_mopts; i++)
		nr += differ(a, n->mopt_name[i], cmp_part_value(o, n->mopt_name[i]), n->mopt_value[i],
			     out);
	for (i = 0; i < (size_t)o->nr_mopts; i++)
		if (!cmp_part_value(n, o->mopt_name[i]))
			nr += differ(a, o->mopt_name[i], o->mopt_value[i], NULL, out);
	return nr;
}

static int differences(const struct cmp_args *a, const struct res_run *o, const struct res_run *n,
		       char *buf, size_t len)
{
	struct diff_out out = { buf, len, 0, false };

	return diff_parts(a, o, n, &out);
}

/* ---- the indexes ---- */

struct index_arg {
	struct idx_map *drop, *swap;
	uint64_t full;
	int run;
};

static void index_part(void *arg, const char *name, const char *value)
{
	struct index_arg *x = arg;
	uint64_t less = x->full - part_hash(name, value);

	map_add(x->drop, less, x->run);
	map_add(x->swap, less + name_hash(name), x->run);
}

/* (bench, section, label) of a run, and with one option's name and value. */
static uint64_t group_hash(const struct res_run *r)
{
	uint64_t h = hash_str(0xcbf29ce484222325ull, r->bench, false);

	return mix64(hash_str(hash_str(h, r->section, false), r->label, false));
}

static void index_doc(struct cmp_match *m, int d)
{
	const struct res_doc *doc = m->doc[d];
	struct index_arg x = { &m->dropx[d], &m->swapx[d] };
	char name[CMP_NAME_MAX];
	uint64_t g;
	int i, k;

	m->full[d] = xcalloc(doc->nr_runs ?: 1, sizeof(uint64_t));
	for (i = 0; i < doc->nr_runs; i++) {
		x.full = 0;
		each_part(m->a, &doc->runs[i], sum_part, &x.full);
		m->full[d][i] = x.full;
		x.run = i;
		map_add(&m->fullx[d], x.full, i);
		each_part(m->a, &doc->runs[i], index_part, &x);
		g = group_hash(&doc->runs[i]);
		map_add(&m->groups[d], g, i);
		cmp_short_name(&doc->runs[i], name, sizeof(name));
		map_add(&m->shown[d], hash_str(0xcbf29ce484222325ull, name, false), i);
		for (k = 0; k < doc->runs[i].nr_mopts; k++)
			map_add(&m->names[d], g + part_hash(doc->runs[i].mopt_name[k],
							    doc->runs[i].mopt_value[k]), i);
	}
}

struct cmp_match *cmp_match_init(const struct cmp_args *a, const struct res_doc *old,
				 const struct res_doc *new)
{
	struct cmp_match *m = xcalloc(1, sizeof(*m));

	m->a = a;
	m->doc[0] = old;
	m->doc[1] = new;
	index_doc(m, 0);
	index_doc(m, 1);
	return m;
}

void cmp_match_free(struct cmp_match *m)
{
	int d;

	if (!m)
		return;
	for (d = 0; d < 2; d++) {
		free(m->full[d]);
		map_free(&m->fullx[d]);
		map_free(&m->dropx[d]);
		map_free(&m->swapx[d]);
		map_free(&m->names[d]);
		map_free(&m->groups[d]);
		map_free(&m->shown[d]);
	}
	free(m);
}

/* ---- matching ---- */

/*
 * As before the indexes, for each run of NEW in turn the first unused run
 * of OLD without a difference.  The walk goes over a copy of the chains
 * that a used run leaves, so runs of one identity repeated many times
 * cost no more than once each (closest() still sees them all).
 */
int cmp_pair_runs(struct cmp_match *m, int *pair, bool *used)
{
	const struct res_doc *old = m->doc[0], *new = m->doc[1];
	const struct idx_map *fx = &m->fullx[0];
	int *head = xcalloc(fx->cap ?: 1, sizeof(int)), *next = xcalloc(fx->nr_entries ?: 1, sizeof(int));
	int i, e, prev, matched = 0;
	size_t s;

	if (fx->cap)
		memcpy(head, fx->head, fx->cap * sizeof(int));
	if (fx->nr_entries)
		memcpy(next, fx->next, fx->nr_entries * sizeof(int));
	for (i = 0; i < new->nr_runs; i++) {
		pair[i] = -1;
		if (!fx->cap || interrupted())
			continue;
		s = map_slot(fx, m->full[1][i]);
		for (prev = -1, e = head[s]; e >= 0; prev = e, e = next[e]) {
			if (used[fx->run[e]] ||
			    differences(m->a, &old->runs[fx->run[e]], &new->runs[i], NULL, 0))
				continue;
			pair[i] = fx->run[e];
			used[pair[i]] = true;
			matched++;
			if (prev < 0)
				head[s] = next[e];
			else
				next[prev] = next[e];
			break;
		}
	}
	free(head);
	free(next);
	return matched;
}

struct near_arg {
	struct cmp_match *m;
	int other, best;
	const struct res_run *r;
	bool r_is_new;
};

static int diff_count(const struct near_arg *x, int k)
{
	const struct res_run *c = &x->m->doc[x->other]->runs[k];

	return x->r_is_new ? differences(x->m->a, c, x->r, NULL, 0) :
			     differences(x->m->a, x->r, c, NULL, 0);
}

/* The first run of key's chain in map that differs from r in exactly want parts, into best. */
static void near_in(struct near_arg *x, const struct idx_map *map, uint64_t key, int want)
{
	int e;

	for (e = map_first(map, key); e >= 0; e = map->next[e]) {
		if (x->best >= 0 && map->run[e] >= x->best)
			return;	/* ascending: no earlier one left */
		if (diff_count(x, map->run[e]) == want) {
			x->best = map->run[e];
			return;
		}
	}
}

static void near_part(void *arg, const char *name, const char *value)
{
	struct near_arg *x = arg;
	uint64_t less = x->m->full[!x->other][x->r - x->m->doc[!x->other]->runs] -
			part_hash(name, value);

	near_in(x, &x->m->fullx[x->other], less, 1);	/* the other lacks this part */
	near_in(x, &x->m->swapx[x->other], less + name_hash(name), 1);	/* its value differs */
}

/* The first run of the other document in the fewest differences from r (the old scan's answer). */
static int nearest(struct near_arg *x, int *best_d)
{
	const struct res_doc *other = x->m->doc[x->other];
	uint64_t full = x->m->full[!x->other][x->r - x->m->doc[!x->other]->runs];
	int k, d;

	x->best = -1;
	near_in(x, &x->m->fullx[x->other], full, 0);
	*best_d = 0;
	if (x->best >= 0)
		return x->best;
	near_in(x, &x->m->dropx[x->other], full, 1);	/* the other has one part more */
	each_part(x->m->a, x->r, near_part, x);
	*best_d = 1;
	if (x->best >= 0)
		return x->best;
	for (k = 0; k < other->nr_runs && k < CLOSEST_SCAN; k++) {
		d = diff_count(x, k);
		if (x->best < 0 || d < *best_d) {
			x->best = k;
			*best_d = d;
		}
		if (d <= 2)	/* none has fewer: those would have been found above */
			break;
	}
	return x->best;
}

void cmp_closest(struct cmp_match *m, int ri, bool r_is_new, char *buf, size_t len)
{
	struct near_arg x = { m, !r_is_new, -1, &m->doc[r_is_new]->runs[ri], r_is_new };
	const struct res_run *c;
	int best, d;

	best = nearest(&x, &d);
	if (best < 0) {
		snprintf(buf, len, "it has no runs");
		return;
	}
	c = &m->doc[x.other]->runs[best];
	if (r_is_new)
		differences(m->a, c, x.r, buf, len);
	else
		differences(m->a, x.r, c, buf, len);
	text_mask(buf);	/* a file's option values, shown as stderr shows them */
}

/*
 * bench[: section][: label] (shorter where parts repeat, unless another
 * run's name would then read the same), and each option whose value some
 * other run of that name does not share: the runs of that name counted
 * once, and those with this option at this value.
 */
char *cmp_run_name(struct cmp_match *m, bool is_new, int ri)
{
	const struct res_run *r = &m->doc[is_new]->runs[ri];
	uint64_t g = group_hash(r);
	size_t group = map_count(&m->groups[is_new], g);
	char *name = NULL, shown[CMP_NAME_MAX];
	bool dup = false;
	size_t len;
	FILE *f = open_memstream(&name, &len);
	int i;

	if (!f)
		die("out of memory");
	cmp_short_name(r, shown, sizeof(shown));
	if (map_count(&m->shown[is_new], hash_str(0xcbf29ce484222325ull, shown, false)) <= group)
		fputs(shown, f);
	else	/* another (bench, section, label) reads the same: every part */
		fprintf(f, "%s%s%s%s%s", r->bench, r->section ? ": " : "", r->section ?: "",
			r->label ? ": " : "", r->label ?: "");
	for (i = 0; i < r->nr_mopts && group > 1; i++) {
		if (map_count(&m->names[is_new], g + part_hash(r->mopt_name[i],
							       r->mopt_value[i])) >= group)
			continue;
		fprintf(f, "%s%s=%s", dup ? "," : " [", r->mopt_name[i], r->mopt_value[i]);
		dup = true;
	}
	if (dup)
		fputc(']', f);
	fclose(f);
	return text_mask(name);	/* a file's label or section: '?' for a control, as on stderr */
}

int cmp_closest_names(struct cmp_match *m, int ri, char *buf, size_t len)
{
	struct near_arg x = { m, false, -1, &m->doc[1]->runs[ri], true };
	struct diff_out out = { buf, len, 0, true };
	int best, d;

	buf[0] = 0;
	best = nearest(&x, &d);
	if (best < 0 || strcmp(m->doc[0]->runs[best].bench, x.r->bench))
		return 0;
	d = diff_parts(m->a, &m->doc[0]->runs[best], x.r, &out);
	text_mask(buf);
	return d;
}
