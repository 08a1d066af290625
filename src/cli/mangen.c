// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "bench.h"
#include "args.h"
#include "mangen.h"
#include "opts.h"
#include "util.h"

/*
 * Text from a table as scdoc(5) literal text: its markup characters
 * escaped, and at a line start the ones that would open a list, a table
 * or a comment.
 */
static void text(FILE *f, const char *s, bool line_start)
{
	if (line_start && *s && strchr("-.|:;#", *s))
		fputc('\\', f);
	for (; *s; s++) {
		if (strchr("\\*_", *s))
			fputc('\\', f);
		fputc(*s, f);
	}
}

/* The help text as a sentence: "... measuring." */
static void sentence(FILE *f, const char *s)
{
	size_t n = strlen(s);

	text(f, s, true);
	if (n && !strchr(".!?", s[n - 1]))
		fputc('.', f);
}

static void opt_head(FILE *f, const char *name, char short_name, const char *metavar)
{
	if (short_name)
		fprintf(f, "*-%c*, ", short_name);
	fputs("*--", f);
	text(f, name, false);
	fputs("*", f);
	if (metavar) {
		fputs(" _", f);
		text(f, metavar, false);
		fputs("_", f);
	}
	fputs("\n", f);
}

static void opt_entry(FILE *f, const struct opt_def *o)
{
	const char *const *c;

	opt_head(f, o->name, o->short_name,
		 opt_takes_value(o) ? (o->metavar ? o->metavar : "N") : NULL);
	fputs("\t", f);
	sentence(f, o->help ? o->help : "");
	if (o->type == OPT_UINT)
		fprintf(f, " From %" PRIu64 " to %" PRIu64 ".", o->min, o->max);
	else if (o->type == OPT_UINT_LIST)
		fprintf(f, " Comma-separated, each from %" PRIu64 " to %" PRIu64 ".",
			o->min, o->max);
	if (o->type == OPT_CHOICE) {
		fputs(" One of", f);
		for (c = o->choices; c && *c; c++) {
			fputs(c == o->choices ? " *" : ", *", f);
			text(f, *c, false);
			fputs("*", f);
		}
		fputs(".", f);
	}
	if (o->def) {
		fputs(" Default: ", f);
		text(f, o->def, false);
		fputs(".", f);
	}
	fputs("\n\n", f);
}

static void opt_table(FILE *f, const struct opt_def *t)
{
	for (; t && t->name; t++)
		if (!(t->flags & OPT_F_HIDDEN))
			opt_entry(f, t);
}

static void global_options(FILE *f)
{
	opt_table(f, global_opts);
	if (!opts_find(global_opts, "version")) {	/* main() answers it before parsing */
		opt_head(f, "version", 'V', NULL);
		fputs("\tPrint the version, the git commit it was built from and the version\n"
		      "\tof the libbpf it runs with, then exit. Only as the first argument.\n\n", f);
	}
}

static bool has_opts(const struct bench *b)
{
	return b->opts && b->opts->name;
}

/* The benchmarks from b on that share b's option table, within its family. */
static int same_table(const struct bench *const *b)
{
	int n = 1;

	while (b[n] && !strcmp(b[n]->family, b[0]->family) && b[n]->opts == b[0]->opts)
		n++;
	return n;
}

static void bench_names(FILE *f, const struct bench *const *b, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		fputs(i == 0 ? "" : i == n - 1 ? " and " : ", ", f);
		fputs("*", f);
		text(f, b[i]->name, false);
		fputs("*", f);
	}
}

/* The heading of an option table shared by the n benchmarks at b, of a family of total. */
static void table_heading(FILE *f, const struct bench *const *b, int n, int total)
{
	if (n == total && !has_opts(*b)) {
		fputs(n == 1 ? "No options of its own.\n\n" : "No options of their own.\n\n", f);
		return;
	}
	if (n == total) {
		fputs(n == 1 ? "Options:\n\n" : "Options of each:\n\n", f);
		return;
	}
	if (!has_opts(*b)) {
		bench_names(f, b, n);
		fputs(n == 1 ? " has no options of its own.\n\n" : " have no options of their own.\n\n",
		      f);
		return;
	}
	fputs("Options of ", f);
	bench_names(f, b, n);
	fputs(":\n\n", f);
}

/* One family: its benchmarks, then each option table once, naming who takes it. */
static const struct bench *const *family(FILE *f, const struct bench *const *first)
{
	const struct bench *const *b, *const *end;
	int n;

	fputs("## ", f);
	text(f, first[0]->family, false);
	fputs("\n\n", f);
	for (end = first; *end && !strcmp((*end)->family, first[0]->family); end++) {
		fputs("*", f);
		text(f, (*end)->name, false);
		fputs("*\n\t", f);
		sentence(f, (*end)->summary);
		fputs("\n\n", f);
	}
	for (b = first; b < end; b += n) {
		n = same_table(b);
		table_heading(f, b, n, end - first);
		opt_table(f, (*b)->opts);
	}
	return end;
}

static void benchmarks(FILE *f)
{
	const struct bench *const *b = bench_all();

	while (*b)
		b = family(f, b);
}

static void suites(FILE *f)
{
	const struct suite *const *s;

	for (s = suite_all(); *s; s++) {
		fputs("*", f);
		text(f, (*s)->name, false);
		fputs("*\n\t", f);
		sentence(f, (*s)->summary);
		fputs("\n\n", f);
	}
}

/* The subcommands main() passes: their options are in its table. */
static const struct subcommand *man_subs;

/* Each subcommand's options, a subsection each, as the global ones. */
static void subcommand_options(FILE *f)
{
	const struct subcommand *s;
	int i;

	for (s = man_subs; s && s->name; s++) {
		if (s->hidden || !s->opts[0])
			continue;
		fputs("## ", f);
		text(f, s->name, false);
		fputs(" options\n\n", f);
		for (i = 0; i < SUBCMD_MAX_TABLES; i++)
			opt_table(f, s->opts[i]);
	}
}

static const struct {
	const char *line;
	void (*print)(FILE *f);
} expansions[] = {
	{ "@GLOBAL_OPTIONS@", global_options },
	{ "@SUBCOMMAND_OPTIONS@", subcommand_options },
	{ "@BENCHMARKS@", benchmarks },
	{ "@SUITES@", suites },
};

static void copy_line(FILE *f, const char *line)
{
	const char *at;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(expansions); i++) {
		if (!strcmp(line, expansions[i].line)) {
			expansions[i].print(f);
			return;
		}
	}
	while ((at = strstr(line, "@VERSION@"))) {
		fwrite(line, 1, at - line, f);
		fputs(BPFBENCH_VERSION, f);
		line = at + strlen("@VERSION@");
	}
	fprintf(f, "%s\n", line);
}

int template_copy(const char *cmd, int argc, char **argv, void (*copy)(FILE *, const char *))
{
	char line[4096];
	FILE *in;
	size_t n;

	if (argc != 2) {
		errmsg("%s: usage: bpfbench %s TEMPLATE", cmd, cmd);
		return EXIT_USAGE;
	}
	in = fopen(argv[1], "r");
	if (!in) {
		errmsg("%s: %s: %s", cmd, argv[1], strerror(errno));
		return 1;
	}
	while (fgets(line, sizeof(line), in)) {
		n = strlen(line);
		if (n && line[n - 1] == '\n')
			line[n - 1] = 0;
		copy(stdout, line);
	}
	fclose(in);
	return ferror(stdout) ? 1 : 0;
}

int mangen_cmd(int argc, char **argv, const struct subcommand *subs)
{
	man_subs = subs;
	return template_copy("gen-man", argc, argv, copy_line);
}
