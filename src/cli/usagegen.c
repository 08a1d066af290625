// SPDX-License-Identifier: GPL-2.0
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "bench.h"
#include "mangen.h"
#include "opts.h"
#include "usagegen.h"
#include "util.h"

#define MD_COLS		100	/* a generated line's width, within the docs' 120 */

static const struct subcommand *md_subs;

/* Help text as Markdown: the characters that would start emphasis, code or HTML escaped. */
static void md_escape(char *out, size_t len, const char *s)
{
	size_t n = 0;

	for (; *s && n + 3 < len; s++) {
		if (strchr("\\*_`<", *s))
			out[n++] = '\\';
		out[n++] = *s;
	}
	out[n] = 0;
}

/* "- `-q`, `--quiet`: text", the text wrapped under the item. */
static void md_option(FILE *f, const struct opt_def *o)
{
	char text[1024], esc[2048];
	int col;

	col = fprintf(f, "- ");
	if (o->short_name)
		col += fprintf(f, "`-%c`, ", o->short_name);
	col += fprintf(f, "`--%s%s%s`:", o->name, opt_takes_value(o) ? " " : "",
		       opt_takes_value(o) ? (o->metavar ? o->metavar : "N") : "");
	opts_help_text(o, text, sizeof(text));
	md_escape(esc, sizeof(esc), text);
	fputc(' ', f);
	wrap_words(f, col + 1, 2, MD_COLS, NULL, esc);
}

static void md_options(FILE *f, const struct opt_def *t)
{
	for (; t && t->name; t++)
		if (!(t->flags & OPT_F_HIDDEN))
			md_option(f, t);
}

static void synopsis(FILE *f)
{
	const struct subcommand *s;

	for (s = md_subs; s->name; s++)
		if (!s->hidden)
			fprintf(f, "bpfbench %s\n", s->usage);
}

static void global_options(FILE *f)
{
	md_options(f, global_opts);
}

/* What it does, and what --kernel does with it, as one paragraph. */
static void about(FILE *f, const struct subcommand *s)
{
	static const char *const vm[] = {
		[SUBCMD_VM_STDOUT] = "runs in the VM, its output as it is",
		[SUBCMD_VM_ANNOUNCED] = "runs in the VM, its output after a line naming the kernel",
		[SUBCMD_VM_SUITE] = "runs in the VM; its --json, --csv and --md files are written here",
	};
	char text[1024], esc[2048];
	size_t n;

	n = (size_t)snprintf(text, sizeof(text), "%c%s. Under --kernel: ",
			     s->summary[0] - 'a' + 'A', s->summary + 1);
	if (s->vm != SUBCMD_VM_NO)
		snprintf(text + n, sizeof(text) - n, "%s.", vm[s->vm]);
	else if (s->vm_instead)
		snprintf(text + n, sizeof(text) - n, "refused, it runs on this machine (%s).",
			 s->vm_instead);
	else
		snprintf(text + n, sizeof(text) - n, "refused, it runs on this machine.");
	md_escape(esc, sizeof(esc), text);
	n = strlen(esc);
	snprintf(esc + n, sizeof(esc) - n, " `bpfbench %s --help` says more.", s->name);
	wrap_words(f, 0, 0, MD_COLS, NULL, esc);
}

static void subcommands(FILE *f)
{
	const struct subcommand *s;
	int i;

	for (s = md_subs; s->name; s++) {
		if (s->hidden)
			continue;
		fprintf(f, "### %s\n\n```\nbpfbench %s\n```\n\n", s->name, s->usage);
		about(f, s);
		fputc('\n', f);
		for (i = 0; i < SUBCMD_MAX_TABLES; i++)
			md_options(f, s->opts[i]);
		if (s->global_opts)
			fputs("- and the global options, which apply to every step\n", f);
		fputc('\n', f);
	}
}

static const struct {
	const char *line;
	void (*print)(FILE *f);
} expansions[] = {
	{ "@SYNOPSIS@", synopsis },
	{ "@GLOBAL_OPTIONS@", global_options },
	{ "@SUBCOMMANDS@", subcommands },
};

static void copy_line(FILE *f, const char *line)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(expansions); i++) {
		if (!strcmp(line, expansions[i].line)) {
			expansions[i].print(f);
			return;
		}
	}
	fprintf(f, "%s\n", line);
}

int usagegen_cmd(int argc, char **argv, const struct subcommand *subs)
{
	md_subs = subs;
	return template_copy("gen-usage", argc, argv, copy_line);
}
