// SPDX-License-Identifier: GPL-2.0
/* A profile's functions, and a folded file read back (`bpfbench profile --diff`). */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "profile.h"
#include "util.h"

const char *profile_leaf(const char *folded)
{
	const char *s = strrchr(folded, ';');

	return s ? s + 1 : folded;
}

struct fn_table {
	size_t cap;
	int *idx;		/* slot -> index into p->funcs, -1 free */
};

static uint64_t hash_str(const char *s, size_t n)
{
	uint64_t h = 1469598103934665603ull;

	while (n--)
		h = (h ^ (unsigned char)*s++) * 1099511628211ull;
	return h;
}

/* The function's index in p->funcs, added if new. */
static int fn_find(struct profile *p, struct fn_table *t, const char *name, size_t n)
{
	size_t j;
	struct prof_func *f;

	for (j = hash_str(name, n) & (t->cap - 1); t->idx[j] >= 0; j = (j + 1) & (t->cap - 1)) {
		f = &p->funcs[t->idx[j]];
		if (strlen(f->name) == n && !memcmp(f->name, name, n))
			return t->idx[j];
	}
	f = &p->funcs[p->nr_funcs];
	memset(f, 0, sizeof(*f));
	f->name = strndup(name, n);
	if (!f->name)
		die("out of memory");
	t->idx[j] = p->nr_funcs;
	return p->nr_funcs++;
}

bool profile_is_ours(const struct profile *p, const char *name, size_t n)
{
	int i;

	if (strncmp(name, "bpf_prog_", n < 9 ? n : 9))
		return false;
	for (i = 0; i < p->nr_ours; i++)
		if (strlen(p->ours[i]) == n && !memcmp(p->ours[i], name, n))
			return true;
	return false;
}

void profile_add_ours(struct profile *p, const char *name)
{
	int i;

	for (i = 0; i < p->nr_ours; i++)
		if (!strcmp(p->ours[i], name))
			return;
	if (p->nr_ours < PROFILE_MAX_OURS)
		snprintf(p->ours[p->nr_ours++], sizeof(p->ours[0]), "%s", name);
}

static int func_cmp(const void *a, const void *b)
{
	const struct prof_func *x = a, *y = b;

	if (x->self != y->self)
		return x->self < y->self ? 1 : -1;
	if (x->total != y->total)
		return x->total < y->total ? 1 : -1;
	return strcmp(x->name, y->name);
}

static size_t nr_frames_max(const struct profile *p)
{
	size_t n = 0;
	int i;

	for (i = 0; i < p->nr_stacks; i++) {
		const char *s = p->stacks[i].folded;

		n++;
		while ((s = strchr(s, ';')))
			n++, s++;
	}
	return n;
}

/* A stack counts once in a function's total, however often it recurs in it. */
static void count_stack(struct profile *p, struct fn_table *t, const struct prof_stack *st,
			int *seen, int *nseen)
{
	const char *s = st->folded, *e;
	int i, k, n = 0;

	for (;;) {
		e = strchr(s, ';');
		k = fn_find(p, t, s, e ? (size_t)(e - s) : strlen(s));
		for (i = 0; i < n && seen[i] != k; i++)
			;
		if (i == n) {
			seen[n++] = k;
			p->funcs[k].total += st->count;
		}
		if (!e)
			break;
		s = e + 1;
	}
	p->funcs[k].self += st->count;	/* the last frame: the leaf */
	*nseen = n;
}

void profile_count_funcs(struct profile *p)
{
	size_t max = nr_frames_max(p) + 1;
	struct fn_table t = { .cap = 16 };
	int i, nseen, *seen = xcalloc(max, sizeof(int));

	for (i = 0; i < p->nr_funcs; i++)
		free(p->funcs[i].name);
	free(p->funcs);
	p->nr_funcs = 0;
	p->funcs = xcalloc(max, sizeof(*p->funcs));
	while (t.cap < max * 2)
		t.cap *= 2;
	t.idx = xcalloc(t.cap, sizeof(int));
	memset(t.idx, 0xff, t.cap * sizeof(int));
	for (i = 0; i < p->nr_stacks; i++)
		count_stack(p, &t, &p->stacks[i], seen, &nseen);
	for (i = 0; i < p->nr_funcs; i++)
		p->funcs[i].ours = profile_is_ours(p, p->funcs[i].name, strlen(p->funcs[i].name));
	qsort(p->funcs, p->nr_funcs, sizeof(*p->funcs), func_cmp);
	free(t.idx);
	free(seen);
}

static int stack_cmp(const void *a, const void *b)
{
	return strcmp(((const struct prof_stack *)a)->folded, ((const struct prof_stack *)b)->folded);
}

void profile_merge_stacks(struct profile *p)
{
	int i, n = 0;

	if (!p->nr_stacks)
		return;
	qsort(p->stacks, p->nr_stacks, sizeof(*p->stacks), stack_cmp);
	for (i = 1; i < p->nr_stacks; i++) {
		if (!strcmp(p->stacks[i].folded, p->stacks[n].folded)) {
			p->stacks[n].count += p->stacks[i].count;
			free(p->stacks[i].folded);
		} else {
			p->stacks[++n] = p->stacks[i];
		}
	}
	p->nr_stacks = n + 1;
}

void profile_add(struct profile *dst, const struct profile *src)
{
	int i, n = dst->nr_stacks;

	if (!src->valid) {
		if (!dst->valid)
			snprintf(dst->why, sizeof(dst->why), "%s", src->why);
		return;
	}
	dst->valid = true;
	memcpy(dst->event, src->event, sizeof(dst->event));
	dst->freq = src->freq;
	dst->nr_cpus = src->nr_cpus;
	dst->samples += src->samples;
	dst->lost += src->lost;
	dst->others += src->others;
	for (i = 0; i < src->nr_ours; i++)
		profile_add_ours(dst, src->ours[i]);
	dst->stacks = realloc(dst->stacks, (n + src->nr_stacks + 1) * sizeof(*dst->stacks));
	if (!dst->stacks)
		die("out of memory");
	for (i = 0; i < src->nr_stacks; i++) {
		dst->stacks[n + i].folded = strdup(src->stacks[i].folded);
		if (!dst->stacks[n + i].folded)
			die("out of memory");
		dst->stacks[n + i].count = src->stacks[i].count;
	}
	dst->nr_stacks = n + src->nr_stacks;
	profile_merge_stacks(dst);
	profile_count_funcs(dst);
}

/*
 * "stack count": the count after the last space; the stack itself may hold
 * spaces.  NULL, or what is wrong with the line.  strtoull() takes "-5"
 * as 2^64 - 5 and skips blanks and a "+": the count is digits alone.
 */
static const char *parse_line(char *line, struct prof_stack *st)
{
	char *sp, *end;
	unsigned long long n;

	line[strcspn(line, "\r\n")] = 0;
	sp = strrchr(line, ' ');
	if (!sp || sp == line)
		return "not a folded stack line ('frame;frame;... COUNT')";
	if (sp[1] == '-')
		return "a negative count";
	if (sp[1] < '0' || sp[1] > '9')
		return "not a folded stack line ('frame;frame;... COUNT')";
	errno = 0;
	n = strtoull(sp + 1, &end, 10);
	if (errno == ERANGE)
		return "a count beyond 2^64";
	if (*end)
		return "not a folded stack line ('frame;frame;... COUNT')";
	*sp = 0;
	st->folded = strdup(line);
	if (!st->folded)
		die("out of memory");
	st->count = n;
	return NULL;
}

static void header_line(const char *line, struct profile *p, double *ns_per_op)
{
	char name[PROFILE_NAME_MAX];

	if (sscanf(line, "# ns_per_op=%lf", ns_per_op) == 1)
		return;
	if (sscanf(line, "# ours=%63s", name) == 1)
		profile_add_ours(p, name);
}

static int read_lines(FILE *f, const char *path, struct profile *p, double *ns_per_op)
{
	const char *bad = NULL;
	char *line = NULL;
	size_t cap = 0, nalloc = 0;
	long lineno = 0;
	struct prof_stack *st;

	errno = 0;
	/* a stop signal ends the read: getline() sees EINTR, or the check below */
	while (!interrupted() && getline(&line, &cap, f) > 0) {
		lineno++;
		if (line[0] == '#' || line[0] == '\n') {
			header_line(line, p, ns_per_op);
			continue;
		}
		if ((size_t)p->nr_stacks == nalloc) {
			if (nalloc >= INT_MAX / 2)
				die("%s: too many stacks", path);
			nalloc = nalloc ? nalloc * 2 : 256;
			p->stacks = realloc(p->stacks, nalloc * sizeof(*p->stacks));
			if (!p->stacks)
				die("out of memory");
		}
		st = &p->stacks[p->nr_stacks];
		bad = parse_line(line, st);
		if (!bad && p->samples + st->count < p->samples) {
			free(st->folded);
			bad = "the counts add up beyond 2^64";
		}
		if (bad)
			break;
		p->samples += st->count;
		p->nr_stacks++;
	}
	free(line);
	if (bad) {
		snprintf(p->why, sizeof(p->why), "%s:%ld: %s", path, lineno, bad);
		return -EINVAL;
	}
	if (interrupted()) {
		snprintf(p->why, sizeof(p->why), "%s: interrupted", path);
		return -EINTR;
	}
	if (ferror(f)) {
		snprintf(p->why, sizeof(p->why), "cannot read %s: %s", path, strerror(errno ?: EIO));
		return -(errno ?: EIO);
	}
	return 0;
}

int profile_read_folded(const char *path, struct profile *p, double *ns_per_op)
{
	FILE *f = fopen(path, "re");
	int err;

	memset(p, 0, sizeof(*p));
	*ns_per_op = NAN;
	if (!f) {
		err = -errno;
		snprintf(p->why, sizeof(p->why), "cannot read %s: %s", path, strerror(-err));
		return err;
	}
	err = read_lines(f, path, p, ns_per_op);
	fclose(f);
	if (!err)
		profile_count_funcs(p);
	p->valid = !err;
	return err;
}

void profile_free(struct profile *p)
{
	int i;

	for (i = 0; i < p->nr_stacks; i++)
		free(p->stacks[i].folded);
	for (i = 0; i < p->nr_funcs; i++)
		free(p->funcs[i].name);
	free(p->stacks);
	free(p->funcs);
	p->stacks = NULL;
	p->funcs = NULL;
	p->nr_stacks = p->nr_funcs = 0;
}
