// SPDX-License-Identifier: GPL-2.0
/*
 * The name compare prints a run under (src/compare/cmp_match.h): its
 * benchmark, section and label, each part said once.  A sweep's section
 * ("bpf-loop: nr_loops sweep") repeats the benchmark and, with its
 * parameter, what each label says ("nr_loops=100"): the run is then
 * "bpf-loop nr_loops=100", not "bpf-loop: bpf-loop: nr_loops sweep:
 * nr_loops=100".  A section or label that starts with the benchmark's or
 * the suite's name (the seeds' "SUITE: header", the quick look's "bpf-loop
 * nr_loops 1") loses that start.
 */
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "cmp_match.h"

/* One character as names are matched: case, '-', '_' and ' ' alike. */
static int fold(int c)
{
	return c == '-' || c == '_' ? ' ' : tolower(c);
}

/* Whether s (n bytes) and the first n bytes of t are the same name. */
static bool same(const char *s, size_t n, const char *t)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!t[i] || fold((unsigned char)s[i]) != fold((unsigned char)t[i]))
			return false;
	return true;
}

/* The length of name if s (n bytes) starts with it and then one of seps, else 0. */
static size_t starts(const char *s, size_t n, const char *name, const char *seps)
{
	size_t len = name ? strlen(name) : 0;

	if (!len || n <= len || !same(name, len, s) || !strchr(seps, s[len]))
		return 0;
	return len;
}

/* Separators (", ", ": ", spaces) at the end of s (n bytes) taken off: the new length. */
static size_t trim_end(const char *s, size_t n)
{
	while (n && strchr(" ,:;", s[n - 1]))
		n--;
	return n;
}

/* Separators at the start of *s taken off. */
static void trim_start(const char **s, size_t *n)
{
	while (*n && strchr(" ,:;", **s)) {
		(*s)++;
		(*n)--;
	}
}

/*
 * The section's tail "P sweep" when the label starts with the swept
 * parameter P ("nr_loops=100", "nr_loops 100"): the section's length
 * without it, else n.  P is the run's sweep_param, else the word before
 * " sweep".
 */
static size_t drop_sweep(const struct res_run *r, const char *s, size_t n, const char *label)
{
	static const char tail[] = " sweep";
	size_t t = sizeof(tail) - 1, p, start;

	if (n < t || strncmp(s + n - t, tail, t) || !label)
		return n;
	p = r->sweep_param ? strlen(r->sweep_param) : 0;
	start = n - t;
	if (p && (start < p || !same(r->sweep_param, p, s + start - p)))
		p = 0;
	if (!p)	/* the word before " sweep" */
		for (; p < start && !strchr(" ,:;", s[start - p - 1]); p++)
			;
	if (!p || !same(s + start - p, p, label) || !strchr("= ", label[p]))
		return n;
	return trim_end(s, start - p);
}

void cmp_short_name(const struct res_run *r, char *buf, size_t size)
{
	const char *bench = r->bench ?: "?", *sec = r->section ?: "", *label = r->label;
	size_t n = strlen(sec), len, used;
	bool shortened = false;

	/* the benchmark's or the suite's name before the section ("SUITE: header") */
	while ((len = starts(sec, n, bench, ":,")) || (len = starts(sec, n, r->suite, ":,"))) {
		sec += len;
		n -= len;
		trim_start(&sec, &n);
	}
	if (label && (len = starts(label, strlen(label), bench, " :"))) {
		label += len;
		label += strspn(label, " :");
		shortened = true;
	}
	len = drop_sweep(r, sec, n, label);
	shortened |= len < n;
	n = len;
	if (n && n == strlen(bench) && same(sec, n, bench))
		n = 0;	/* the section is the benchmark */
	used = (size_t)snprintf(buf, size, "%s", bench);
	if (n && used < size)
		used += (size_t)snprintf(buf + used, size - used, ": %.*s", (int)n, sec);
	if (label && *label && used < size)
		snprintf(buf + used, size - used, "%s%s", n || !shortened ? ": " : " ", label);
}
