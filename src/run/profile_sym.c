// SPDX-License-Identifier: GPL-2.0
/*
 * The profile's symbolizer: raw callchains to folded stacks.  Kernel
 * frames (JIT'ed programs included) are named from /proc/kallsyms, user
 * frames by the module they fall in (/proc/PID/maps): without frame
 * pointers in the libraries a user stack is not walked further than that
 * anyway.
 */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <bpf/bpf.h>
#include "profile_int.h"
#include "util.h"

/* ---- distinct raw stacks ---- */

static uint64_t hash_ips(const uint64_t *ips, uint32_t nr)
{
	uint64_t h = 1469598103934665603ull ^ nr;
	uint32_t i;

	for (i = 0; i < nr; i++)
		h = (h ^ ips[i]) * 1099511628211ull;
	return h ?: 1;
}

static void raw_grow(struct raw_table *t)
{
	struct raw_table n = { .cap = t->cap ? t->cap * 2 : 1024 };
	size_t i, j;

	n.slots = xcalloc(n.cap, sizeof(*n.slots));
	for (i = 0; i < t->cap; i++) {
		if (!t->slots[i].hash)
			continue;
		for (j = t->slots[i].hash & (n.cap - 1); n.slots[j].hash; j = (j + 1) & (n.cap - 1))
			;
		n.slots[j] = t->slots[i];
	}
	free(t->slots);
	t->slots = n.slots;
	t->cap = n.cap;
}

void raw_add(struct raw_table *t, const uint64_t *ips, uint32_t nr)
{
	uint64_t h = hash_ips(ips, nr);
	struct raw_stack *s;
	size_t j;

	if ((t->n + 1) * 2 > t->cap)
		raw_grow(t);
	for (j = h & (t->cap - 1);; j = (j + 1) & (t->cap - 1)) {
		s = &t->slots[j];
		if (!s->hash)
			break;
		if (s->hash == h && s->nr == nr && !memcmp(s->ips, ips, nr * 8ull)) {
			s->count++;
			return;
		}
	}
	s->hash = h;
	s->nr = nr;
	s->count = 1;
	s->ips = xcalloc(nr ?: 1, 8);
	memcpy(s->ips, ips, nr * 8ull);
	t->n++;
}

void raw_free(struct raw_table *t)
{
	size_t i;

	for (i = 0; i < t->cap; i++)
		free(t->slots[i].ips);
	free(t->slots);
	memset(t, 0, sizeof(*t));
}

/* ---- user modules ---- */

void maps_read(struct user_maps *m, pid_t tgid)
{
	char path[64], line[512], perms[8], file[400];
	unsigned long long start, end;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)tgid);
	f = fopen(path, "re");
	if (!f)
		return;		/* gone: what was read before still names its frames */
	while (fgets(line, sizeof(line), f)) {
		const char *base;
		char *c;
		int ch;

		/* a longer path's tail is no mapping line of its own */
		if (!strchr(line, '\n'))
			while ((ch = getc(f)) != EOF && ch != '\n')
				;
		file[0] = 0;
		if (sscanf(line, "%llx-%llx %7s %*s %*s %*s %399[^\n]", &start, &end, perms,
			   file) < 3 || perms[2] != 'x')
			continue;
		if (m->n == m->cap) {
			m->cap = m->cap ? m->cap * 2 : 64;
			m->m = realloc(m->m, m->cap * sizeof(*m->m));
			if (!m->m)
				die("out of memory");
		}
		base = strrchr(file, '/');
		base = base ? base + 1 : *file ? file : "anon";
		m->m[m->n].start = start;
		m->m[m->n].end = end;
		snprintf(m->m[m->n].name, sizeof(m->m[m->n].name), "[%s]", base);
		/* a file called "a;b" would be two frames in the folded stacks */
		for (c = m->m[m->n].name; *c; c++)
			if (*c == ';' || (unsigned char)*c < 0x20)
				*c = '_';
		m->n++;
	}
	fclose(f);
}

void maps_free(struct user_maps *m)
{
	free(m->m);
	memset(m, 0, sizeof(*m));
}

/* The latest mapping read that holds ip wins: an exec replaces the old ones. */
static const char *user_name(const struct user_maps *m, uint64_t ip)
{
	int i;

	for (i = m->n - 1; i >= 0; i--)
		if (ip >= m->m[i].start && ip < m->m[i].end)
			return m->m[i].name;
	return "[unknown]";
}

/* ---- kernel symbols ---- */

static int ksym_cmp(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static void ksym_push(struct ksyms *k, uint64_t addr, const char *name)
{
	if (k->n == k->cap) {
		k->cap = k->cap ? k->cap * 2 : 65536;
		k->s = realloc(k->s, k->cap * sizeof(*k->s));
		if (!k->s)
			die("out of memory");
	}
	k->s[k->n].addr = addr;
	k->s[k->n].name = strdup(name);
	if (!k->s[k->n].name)
		die("out of memory");
	k->n++;
}

/*
 * Text symbols only: a data symbol between two functions would name
 * their frames; bpf_only: the JIT'ed programs' alone.
 */
static void ksyms_load(struct ksyms *k, bool bpf_only)
{
	char line[512], name[256], type;
	unsigned long long addr;
	FILE *f = fopen("/proc/kallsyms", "re");

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %255s", &addr, &type, name) != 3 || !addr)
			continue;	/* 0: kptr_restrict hides the addresses */
		type = tolower(type);
		if (bpf_only && !strstr(line, "[bpf]"))
			continue;
		if (type == 't' || type == 'w')
			ksym_push(k, addr, name);
	}
	fclose(f);
}

static const char *ksym_name(const struct ksyms *k, uint64_t ip)
{
	size_t lo = 0, hi = k->n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (k->s[mid].addr <= ip)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? k->s[lo - 1].name : "[unknown]";
}

static void ksyms_free(struct ksyms *k)
{
	size_t i;

	for (i = 0; i < k->n; i++)
		free(k->s[i].name);
	free(k->s);
}

/*
 * ---- our programs: every JIT'ed image (main program and subprograms,
 * each its own kallsyms symbol) of the programs the process holds ----
 */

static void addrs_push(struct addrs *s, uint64_t a)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 64;
		s->a = realloc(s->a, s->cap * sizeof(*s->a));
		if (!s->a)
			die("out of memory");
	}
	s->a[s->n++] = a;
}

/* By id, so the programs of another process (`bpfbench profile -- CMD`) are found as ours. */
static void prog_images(unsigned int id, struct addrs *out)
{
	struct bpf_prog_info info;
	__u64 ks[64];
	__u32 len = sizeof(info), i;
	int fd = bpf_prog_get_fd_by_id(id);

	if (fd < 0)
		return;
	memset(&info, 0, sizeof(info));
	memset(ks, 0, sizeof(ks));	/* the kernel fills it: valgrind cannot tell */
	info.nr_jited_ksyms = ARRAY_SIZE(ks);
	info.jited_ksyms = (__u64)(unsigned long)ks;
	if (!bpf_obj_get_info_by_fd(fd, &info, &len))
		for (i = 0; i < info.nr_jited_ksyms && i < ARRAY_SIZE(ks); i++)
			addrs_push(out, ks[i]);
	close(fd);
}

static bool has_addr(const struct addrs *s, uint64_t a)
{
	int i;

	for (i = 0; i < s->n; i++)
		if (s->a[i] == a)
			return true;
	return false;
}

/* The prog ids tgid's fds hold that w has not seen; 0 when none is new. */
static int new_prog_ids(struct prog_watch *w, pid_t tgid)
{
	char dir[64], path[320], line[128];
	unsigned int id;
	struct dirent *e;
	int n = 0;
	DIR *d;
	FILE *f;

	snprintf(dir, sizeof(dir), "/proc/%d/fdinfo", (int)tgid);
	d = opendir(dir);
	if (!d)
		return 0;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		f = fopen(path, "re");
		if (!f)
			continue;
		while (fgets(line, sizeof(line), f)) {
			if (sscanf(line, "prog_id: %u", &id) != 1 || has_addr(&w->ids, id))
				continue;
			addrs_push(&w->ids, id);
			prog_images(id, &w->images);
			n++;
		}
		fclose(f);
	}
	closedir(d);
	return n;
}

void prog_watch(struct prog_watch *w, pid_t tgid)
{
	struct ksyms k = { 0 };
	size_t i;

	if (!new_prog_ids(w, tgid))
		return;
	ksyms_load(&k, true);
	for (i = 0; i < k.n; i++)
		ksym_push(&w->syms, k.s[i].addr, k.s[i].name);
	ksyms_free(&k);
}

void prog_watch_free(struct prog_watch *w)
{
	free(w->ids.a);
	free(w->images.a);
	ksyms_free(&w->syms);
	memset(w, 0, sizeof(*w));
}

static void mark_ours(struct profile *p, const struct ksyms *k, const struct prog_watch *w)
{
	int i;

	for (i = 0; i < w->images.n; i++) {
		const char *name = ksym_name(k, w->images.a[i]);

		if (!strncmp(name, "bpf_prog_", 9))
			profile_add_ours(p, name);
	}
}

/* ---- folding ---- */

static void cat(char **buf, size_t *len, size_t *cap, const char *s)
{
	size_t n = strlen(s);

	if (*len + n + 2 > *cap) {
		*cap = (*len + n + 2) * 2;
		*buf = realloc(*buf, *cap);
		if (!*buf)
			die("out of memory");
	}
	if (*len)
		(*buf)[(*len)++] = ';';
	memcpy(*buf + *len, s, n + 1);
	*len += n;
}

/*
 * Root first: the chain comes leaf first, each run of frames after the
 * marker of its context (kernel, user).  Consecutive user frames in one
 * module are one frame: the module is all a frame is named by.  Beyond
 * the sampled user IP itself, a caller in no mapping is a frame-pointer
 * walk through code built without them: left out, not named [unknown].
 */
static char *fold_one(const struct raw_stack *r, const struct ksyms *k,
		      const struct user_maps *m)
{
	size_t len = 0, cap = 0;
	uint64_t ctx = PERF_CONTEXT_KERNEL;
	const char *prev = NULL, *name;
	char *buf = NULL, *ctxs = xcalloc(r->nr ?: 1, 1);
	int i;

	for (i = 0; i < (int)r->nr; i++) {
		if (r->ips[i] >= (uint64_t)PERF_CONTEXT_MAX)
			ctx = r->ips[i];
		ctxs[i] = ctx == PERF_CONTEXT_USER;
		if (ctxs[i] && i && r->ips[i - 1] == PERF_CONTEXT_USER)
			ctxs[i] = 2;	/* the sampled user IP */
	}
	for (i = (int)r->nr - 1; i >= 0; i--) {
		if (r->ips[i] >= (uint64_t)PERF_CONTEXT_MAX)
			continue;
		name = ctxs[i] ? user_name(m, r->ips[i]) : ksym_name(k, r->ips[i]);
		if (ctxs[i] && (prev == name || (ctxs[i] == 1 && !strcmp(name, "[unknown]"))))
			continue;
		prev = ctxs[i] ? name : NULL;
		cat(&buf, &len, &cap, name);
	}
	free(ctxs);
	if (!buf)
		buf = strdup("[unknown]");
	return buf;
}

void profile_fold(struct profile *p, const struct raw_table *t, const struct user_maps *m,
		  struct prog_watch *w, pid_t tgid)
{
	struct ksyms k = { 0 };
	size_t i;
	int n = p->nr_stacks;

	prog_watch(w, tgid);
	ksyms_load(&k, false);
	for (i = 0; i < (size_t)w->syms.n; i++)	/* programs unloaded since: named as they were */
		ksym_push(&k, w->syms.s[i].addr, w->syms.s[i].name);
	qsort(k.s, k.n, sizeof(*k.s), ksym_cmp);
	mark_ours(p, &k, w);
	p->stacks = realloc(p->stacks, (n + t->n + 1) * sizeof(*p->stacks));
	if (!p->stacks)
		die("out of memory");
	for (i = 0; i < t->cap; i++) {
		if (!t->slots[i].hash)
			continue;
		p->stacks[n].folded = fold_one(&t->slots[i], &k, m);
		p->stacks[n++].count = t->slots[i].count;
	}
	p->nr_stacks = n;
	ksyms_free(&k);
	profile_merge_stacks(p);
	profile_count_funcs(p);
}
