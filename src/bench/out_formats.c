// SPDX-License-Identifier: GPL-2.0
/* The output formats' list (out_formats.h) as data, and the rules every command's outputs keep. */
#include <stddef.h>
#include <string.h>
#include "opts.h"
#include "out_formats.h"
#include "util.h"

const struct out_format_def out_format_defs[OUT_NR] = {
#define OUT_DEF(ID, name, metavar, kind, help)	\
	[OUT_##ID] = { #name, metavar, OUT_K_##kind, help },
	OUT_FORMATS(OUT_DEF)
#undef OUT_DEF
};

int out_format_find(const char *name)
{
	int i;

	for (i = 0; i < OUT_NR; i++)
		if (!strcmp(name, out_format_defs[i].name))
			return i;
	return -1;
}

static bool is_stdout(const char *path)
{
	return path && !strcmp(path, "-");
}

/* Two documents on one stream would be neither: a reader of either gets both. */
int out_check_stdout(const char *const *paths)
{
	int i, first = -1;

	for (i = 0; i < OUT_NR; i++) {
		if (!is_stdout(paths[i]))
			continue;
		if (first < 0) {
			first = i;
			continue;
		}
		errmsg("only one output can go to stdout ('-'): --%s and --%s both do",
		       out_format_defs[first].name, out_format_defs[i].name);
		return EXIT_USAGE;
	}
	return 0;
}

bool out_any(const char *const *paths, unsigned int kinds)
{
	int i;

	for (i = 0; i < OUT_NR; i++)
		if (paths[i] && (out_format_defs[i].kind & kinds))
			return true;
	return false;
}

bool out_to_stdout(const char *const *paths)
{
	int i;

	for (i = 0; i < OUT_NR; i++)
		if (is_stdout(paths[i]))
			return true;
	return false;
}

void out_print_usage(FILE *f, unsigned int kinds, const char *lead)
{
	int i, n = 0;

	for (i = 0; i < OUT_NR; i++)
		if (out_format_defs[i].kind & kinds)
			fprintf(f, "%s[--%s %s]", n++ ? " " : lead, out_format_defs[i].name,
				out_format_defs[i].metavar);
	if (n)
		fputc('\n', f);
}

void out_print_help(FILE *f, unsigned int kinds, const char *indent, int width)
{
	const struct out_format_def *d;
	int i, n;

	for (i = 0; i < OUT_NR; i++) {
		d = &out_format_defs[i];
		if (!(d->kind & kinds))
			continue;
		n = fprintf(f, "%s--%s %s", indent, d->name, d->metavar);
		fprintf(f, "%*s%s\n", n < width ? width - n : 1, "", d->help);
	}
}
