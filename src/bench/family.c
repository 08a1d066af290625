// SPDX-License-Identifier: GPL-2.0
/*
 * The families' table read as flat lists: every benchmark and every suite
 * in the order of benchs/registry.c's lines.  Built once, on first use,
 * and kept for the process: the table is constant, so the lists are too.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"

static const struct bench **all_benchs;
static const struct suite **all_suites;
static pthread_once_t lists_once = PTHREAD_ONCE_INIT;

static size_t count_ptrs(const void *const *list)
{
	size_t n = 0;

	while (list && list[n])
		n++;
	return n;
}

/* Appends a NULL-terminated list (NULL: none) at *at; returns the new end. */
static size_t append(const void **dst, size_t at, const void *const *list)
{
	size_t n = count_ptrs(list);

	if (n)
		memcpy(dst + at, list, n * sizeof(*dst));
	return at + n;
}

static void build_lists(void)
{
	const struct family *const *f;
	size_t nb = 0, ns = 0;

	for (f = family_table; *f; f++) {
		nb += count_ptrs((const void *const *)(*f)->benchs);
		ns += count_ptrs((const void *const *)(*f)->suites);
	}
	all_benchs = calloc(nb + 1, sizeof(*all_benchs));
	all_suites = calloc(ns + 1, sizeof(*all_suites));
	if (!all_benchs || !all_suites)
		die("out of memory listing the benchmarks");
	nb = ns = 0;
	for (f = family_table; *f; f++) {
		nb = append((const void **)all_benchs, nb, (const void *const *)(*f)->benchs);
		ns = append((const void **)all_suites, ns, (const void *const *)(*f)->suites);
	}
}

const struct bench *const *bench_all(void)
{
	pthread_once(&lists_once, build_lists);
	return all_benchs;
}

const struct suite *const *suite_all(void)
{
	pthread_once(&lists_once, build_lists);
	return all_suites;
}

const struct family *bench_family_of(const struct bench *b)
{
	const struct family *const *f;
	const struct bench *const *m;

	for (f = family_table; *f; f++)
		for (m = (*f)->benchs; *m; m++)
			if (*m == b)
				return *f;
	return NULL;
}

bool bench_is_quick(const struct bench *b)
{
	const struct family *f = bench_family_of(b);
	const char *const *q;

	if (!f || !f->quick)
		return true;
	for (q = f->quick; *q; q++)
		if (!strcmp(*q, b->name))
			return true;
	return false;
}
