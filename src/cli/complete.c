// SPDX-License-Identifier: GPL-2.0
/*
 * bash and zsh completion, printed from the tables the parser uses:
 * global_opts, bench_all() (each benchmark's options and choices) and
 * suite_all(), and the subcommands' table (src/cli/subcmds.c: their
 * options and positional words).
 *
 * Both scripts share their data functions and most of their logic,
 * written in the common subset of bash and zsh; only the entry point
 * that reads the command line and hands back the words differs.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include "bench.h"
#include "args.h"
#include "complete.h"
#include "opts.h"
#include "util.h"

/* What follows an option on the command line. */
enum arg_kind {
	ARG_FLAG,	/* nothing */
	ARG_VALUE,	/* a value we cannot guess (a number, a CPU list) */
	ARG_FILE,
	ARG_CHOICE,	/* one of the option's choices */
	ARG_OPTION,	/* the name of a global or benchmark option (plot --x) */
};

const struct opt_def completion_opts[] = {
	{ "help", 'h', OPT_FLAG, 0, NULL, 0, 0, NULL, NULL, "this help" },
	{ NULL },
};

/* The subcommands a user is offered: not the build's own. */
#define for_each_sub(s, subs) \
	for ((s) = (subs); (s)->name; (s)++) \
		if (!(s)->hidden)

/* Single-quoted for the shell: safe whatever a help text holds. */
static void sq(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputs("'\\''", f);
		else
			fputc(*s, f);
	}
	fputc('\'', f);
}

/* "--name:help", as both shells' lists hold an option; dashes is "--" or "". */
static void list_word(FILE *f, const char *dashes, const char *name, const char *help)
{
	char word[512];

	snprintf(word, sizeof(word), "%s%s%s%s", dashes, name, help ? ":" : "", help ? help : "");
	fputs(" ", f);
	sq(f, word);
}

/* The option as the scripts match it: '_' and '-' alike, as the parser does. */
static void opt_pattern(FILE *f, const char *dashes, const char *name)
{
	char buf[128];
	size_t i;

	snprintf(buf, sizeof(buf), "%s%s", dashes, name);
	for (i = 0; buf[i]; i++)
		if (buf[i] == '_')
			buf[i] = '-';
	sq(f, buf);
}

static enum arg_kind opt_arg(const struct opt_def *o)
{
	if (o->type == OPT_FLAG)
		return ARG_FLAG;
	if (o->type == OPT_CHOICE)
		return ARG_CHOICE;
	if (o->flags & OPT_F_OPTNAME)
		return ARG_OPTION;
	/* FILE, FILE.svg: a file (an output format's metavar says it) */
	if ((o->flags & OPT_F_PATH) ||
	    (o->type == OPT_STRING && o->metavar && !strncmp(o->metavar, "FILE", 4)))
		return ARG_FILE;
	return ARG_VALUE;
}

static void name_word(FILE *f, const char *name, const char *summary)
{
	char word[512];

	snprintf(word, sizeof(word), "%s:%s", name, summary);
	fputs("\n\t", f);
	sq(f, word);
}

static void print_names(FILE *f)
{
	const struct bench *const *b;
	const struct suite *const *s;

	fputs("_bpfbench_benchs=(", f);
	for (b = bench_all(); *b; b++)
		name_word(f, (*b)->name, (*b)->summary);
	fputs("\n)\n_bpfbench_suites=(", f);
	for (s = suite_all(); *s; s++)
		name_word(f, (*s)->name, (*s)->summary);
	/* not in suite_all(): suite.c makes them from it */
	name_word(f, "seeds", "the seed documents' tables");
	name_word(f, "all", "every suite in turn");
	name_word(f, "quick", "every benchmark once with its defaults, briefly");
	fputs("\n)\n", f);
}

static void print_subcmds(FILE *f, const struct subcommand *subs)
{
	const struct subcommand *s;
	bool first = true;

	fputs("_bpfbench_subcmds=(", f);
	for_each_sub(s, subs)
		name_word(f, s->name, s->summary);
	fputs("\n)\n\n_bpfbench_is_sub()\n{\n\tcase $1 in\n\t", f);
	for_each_sub(s, subs) {
		fputs(first ? "" : "|", f);
		sq(f, s->name);
		first = false;
	}
	fputs(") return 0 ;;\n\tesac\n\treturn 1\n}\n\n", f);
}

/* Benchmarks may share an option table: the first one using it names it ("t3"). */
static bool first_of_table(const struct bench *const *b)
{
	const struct bench *const *p;

	for (p = bench_all(); p != b; p++)
		if ((*p)->opts == (*b)->opts)
			return false;
	return true;
}

/* Whether an earlier table has an option of that name (the parser takes the first). */
static bool earlier_opt(const struct bench *const *b, const char *name)
{
	const struct bench *const *p;

	for (p = bench_all(); p != b; p++)
		if (opts_find((*p)->opts, name))
			return true;
	return false;
}

static void print_table_fn(FILE *f)
{
	const struct bench *const *b, *const *p;

	fputs("# The option table of benchmark $1, in _bpfbench_tab ('': unknown).\n"
	      "_bpfbench_table()\n{\n\tcase $1 in\n", f);
	for (b = bench_all(); *b; b++) {
		if (!first_of_table(b))
			continue;
		fputs("\t", f);
		for (p = b; *p; p++) {
			if ((*p)->opts != (*b)->opts)
				continue;
			fputs(p == b ? "" : "|", f);
			sq(f, (*p)->name);
		}
		fprintf(f, ") _bpfbench_tab=t%td ;;\n", b - bench_all());
	}
	fputs("\t*) _bpfbench_tab= ;;\n\tesac\n}\n\n", f);
}

static void print_table_words(FILE *f, const struct opt_def *t)
{
	for (; t && t->name; t++)
		if (!(t->flags & OPT_F_HIDDEN))
			list_word(f, "--", t->name, t->help);
}

/* A subcommand's options: each long name, and its short one with the same help. */
static void print_sub_words(FILE *f, const struct opt_def *t)
{
	char s[3] = "-";

	for (; t && t->name; t++) {
		if (t->flags & OPT_F_HIDDEN)
			continue;
		list_word(f, "--", t->name, t->help);
		s[1] = t->short_name;
		if (s[1])
			list_word(f, "", s, t->help);
	}
}

static void print_opts_fn(FILE *f, const struct subcommand *subs)
{
	const struct bench *const *b;
	const struct subcommand *s;
	size_t i;

	fputs("# Appends the options of $1 ('' for the global ones, an option table,\n"
	      "# or @SUBCOMMAND) to _bpfbench_list, each as \"option:description\".\n"
	      "_bpfbench_opts()\n{\n\tcase $1 in\n\t'')\n\t\t_bpfbench_list+=(", f);
	print_table_words(f, global_opts);
	if (!opts_find(global_opts, "version"))
		list_word(f, "--", "version", "version, git commit and libbpf version");
	fputs(") ;;\n", f);
	for_each_sub(s, subs) {
		fprintf(f, "\t'@%s')\n\t\t_bpfbench_list+=(", s->name);
		for (i = 0; i < SUBCMD_MAX_TABLES; i++)
			print_sub_words(f, s->opts[i]);
		fprintf(f, ")%s ;;\n", s->global_opts ? "\n\t\t_bpfbench_opts ''" : "");
	}
	for (b = bench_all(); *b; b++) {
		if (!first_of_table(b))
			continue;
		fprintf(f, "\tt%td)\n\t\t_bpfbench_list+=(", b - bench_all());
		print_table_words(f, (*b)->opts);
		fputs(") ;;\n", f);
	}
	fputs("\tesac\n}\n\n", f);
}

static void print_choices(FILE *f, const char *const *choices)
{
	fputs("\n\t\t_bpfbench_choices=(", f);
	for (; choices && *choices; choices++) {
		fputs(" ", f);
		sq(f, *choices);
	}
	fputs(")", f);
}

/* Every option name, for plot --x: the global ones first, each name once. */
static void print_option_names(FILE *f)
{
	const struct bench *const *b;
	const struct opt_def *o;

	fputs("\n\t\t_bpfbench_choices=(", f);
	for (o = global_opts; o->name; o++) {
		fputs(" ", f);
		sq(f, o->name);
	}
	for (b = bench_all(); *b; b++) {
		for (o = (*b)->opts; o && o->name; o++) {
			if (!earlier_opt(b, o->name) && !opts_find(global_opts, o->name) &&
			    !(o->flags & OPT_F_HIDDEN)) {
				fputs(" ", f);
				sq(f, o->name);
			}
		}
	}
	fputs(")", f);
}

static const char *const kind_names[] = {
	[ARG_FLAG] = "flag", [ARG_VALUE] = "value", [ARG_FILE] = "file",
	[ARG_CHOICE] = "choice", [ARG_OPTION] = "choice",
};

/*
 * "CTX:--name|CTX:-s", for a case of _bpfbench_arg; CTX "*" is any
 * context; dashes is "" when name has its own.
 */
static void print_pats(FILE *f, const char *ctx, const char *dashes, const char *name,
		       char short_name)
{
	char s[2] = { short_name, 0 };

	if (strcmp(ctx, "*"))
		sq(f, ctx);
	else
		fputs(ctx, f);
	fputs(":", f);
	opt_pattern(f, dashes, name);
	if (short_name) {
		fputs("|", f);
		print_pats(f, ctx, "-", s, 0);
	}
}

static void print_kind(FILE *f, enum arg_kind kind, const char *const *choices)
{
	fprintf(f, ")\n\t\t_bpfbench_kind=%s", kind_names[kind]);
	if (kind == ARG_CHOICE)
		print_choices(f, choices);
	else if (kind == ARG_OPTION)
		print_option_names(f);
	fputs(" ;;\n", f);
}

static void print_arg_case(FILE *f, const char *ctx, const char *dashes, const char *name,
			   char short_name, enum arg_kind kind, const char *const *choices)
{
	fputs("\t", f);
	print_pats(f, ctx, dashes, name, short_name);
	print_kind(f, kind, choices);
}

/*
 * A benchmark's option also matches before the benchmark is named, as
 * the parser accepts it there: "tN:--opt|:--opt", from the first table
 * that has it, as in the parser.
 */
static void print_bench_arg_cases(FILE *f)
{
	const struct bench *const *b;
	const struct opt_def *o;
	char tab[24];

	for (b = bench_all(); *b; b++) {
		if (!first_of_table(b))
			continue;
		snprintf(tab, sizeof(tab), "t%td", b - bench_all());
		for (o = (*b)->opts; o && o->name; o++) {
			fputs("\t", f);
			print_pats(f, tab, "--", o->name, o->short_name);
			if (!earlier_opt(b, o->name)) {
				fputs("|", f);
				print_pats(f, "", "--", o->name, o->short_name);
			}
			print_kind(f, opt_arg(o), o->choices);
		}
	}
}

static void print_sub_arg_cases(FILE *f, const char *ctx, const struct opt_def *t)
{
	for (; t && t->name; t++)
		print_arg_case(f, ctx, "--", t->name, t->short_name, opt_arg(t), t->choices);
}

static void print_arg_fn(FILE *f, const struct subcommand *subs)
{
	const struct subcommand *s;
	const struct opt_def *o;
	char ctx[64];
	size_t i;

	fputs("# What follows option $1 where the scan stands, in _bpfbench_kind:\n"
	      "# flag, value, file, choice (then in _bpfbench_choices), or '': unknown.\n"
	      "_bpfbench_arg()\n{\n"
	      "\tlocal ctx=${_bpfbench_sub:+@$_bpfbench_sub} o=${1//_/-}\n\n"
	      "\tctx=${ctx:-$_bpfbench_tab}\n"
	      "\t_bpfbench_kind=\n\t_bpfbench_choices=()\n"
	      "\tcase $ctx:$o in\n", f);
	/* A subcommand's own options first: probe's --json is a flag, the global one is not. */
	for_each_sub(s, subs) {
		snprintf(ctx, sizeof(ctx), "@%s", s->name);
		for (i = 0; i < SUBCMD_MAX_TABLES; i++)
			print_sub_arg_cases(f, ctx, s->opts[i]);
	}
	for (o = global_opts; o->name; o++)
		print_arg_case(f, "*", "--", o->name, o->short_name, opt_arg(o), o->choices);
	if (!opts_find(global_opts, "version"))
		print_arg_case(f, "*", "--", "version", 'V', ARG_FLAG, NULL);
	print_bench_arg_cases(f);
	fputs("\tesac\n}\n\n", f);
}

static const char *const pos_code[] = {
	[SUBCMD_POS_FILE] = "_bpfbench_what=file",
	[SUBCMD_POS_SUITE] = "_bpfbench_list=(\"${_bpfbench_suites[@]}\")",
	[SUBCMD_POS_SHELL] = "_bpfbench_list=('bash' 'zsh')",
	[SUBCMD_POS_DB_ACTION] = "_bpfbench_list=('record' 'show' 'changes' 'plot' 'export')",
};

static void print_pos_fn(FILE *f, const struct subcommand *subs)
{
	const struct subcommand *s;
	size_t j;

	fputs("# The positional argument number $2 (from 0) of subcommand $1:\n"
	      "# returns 1 if there is none.\n"
	      "_bpfbench_pos()\n{\n\tcase $1:$2 in\n", f);
	for_each_sub(s, subs)
		for (j = 0; j < ARRAY_SIZE(s->pos); j++)
			if (s->pos[j] != SUBCMD_POS_NONE)
				fprintf(f, "\t'%s':%zu) %s ;;\n", s->name, j, pos_code[s->pos[j]]);
	fputs("\t*) return 1 ;;\n\tesac\n}\n\n", f);
}

/* The logic both shells run, in their common subset. */
static const char shared_logic[] =
	"# Reads the words before the cursor (without the command name): the\n"
	"# benchmark or subcommand named, how many positional arguments follow a\n"
	"# subcommand, and the option whose value the next word is.\n"
	"_bpfbench_scan()\n{\n"
	"\tlocal w j\n\n"
	"\t_bpfbench_bench=\n\t_bpfbench_tab=\n\t_bpfbench_sub=\n\t_bpfbench_npos=0\n"
	"\t_bpfbench_want=\n"
	"\tfor w in \"$@\"; do\n"
	"\t\tif [[ -n $_bpfbench_want ]]; then\n"
	"\t\t\t# bash splits \"--opt=value\" into three words\n"
	"\t\t\t[[ $w == '=' ]] || _bpfbench_want=\n"
	"\t\t\tcontinue\n"
	"\t\tfi\n"
	"\t\tcase $w in\n"
	"\t\t--|--*=*) ;;\n"
	"\t\t--?*)\n"
	"\t\t\t_bpfbench_arg \"$w\"\n"
	"\t\t\t[[ $_bpfbench_kind == flag || -z $_bpfbench_kind ]] || _bpfbench_want=$w ;;\n"
	"\t\t-?*)\t# -ap8, -p 8: the first option taking a value ends the cluster\n"
	"\t\t\tfor ((j = 1; j < ${#w}; j++)); do\n"
	"\t\t\t\t_bpfbench_arg \"-${w:$j:1}\"\n"
	"\t\t\t\t[[ $_bpfbench_kind == flag || -z $_bpfbench_kind ]] && continue\n"
	"\t\t\t\t((j == ${#w} - 1)) && _bpfbench_want=\"-${w:$j:1}\"\n"
	"\t\t\t\tbreak\n"
	"\t\t\tdone ;;\n"
	"\t\t*)\n"
	"\t\t\tif [[ -n $_bpfbench_sub$_bpfbench_bench ]]; then\n"
	"\t\t\t\t_bpfbench_npos=$((_bpfbench_npos + 1))\n"
	"\t\t\telif _bpfbench_is_sub \"$w\"; then\n"
	"\t\t\t\t_bpfbench_sub=$w\n"
	"\t\t\telse\n"
	"\t\t\t\t_bpfbench_bench=$w\n"
	"\t\t\t\t_bpfbench_table \"$w\"\n"
	"\t\t\tfi ;;\n"
	"\t\tesac\n"
	"\tdone\n"
	"}\n\n"
	"# What to offer for the word $1: sets _bpfbench_what (words, file, or\n"
	"# nothing) and _bpfbench_list (the words, as \"word:description\").\n"
	"_bpfbench_candidates()\n{\n"
	"\t_bpfbench_list=()\n"
	"\t_bpfbench_what=words\n"
	"\tif [[ -n $_bpfbench_want ]]; then\n"
	"\t\t_bpfbench_arg \"$_bpfbench_want\"\n"
	"\t\tcase $_bpfbench_kind in\n"
	"\t\tfile) _bpfbench_what=file ;;\n"
	"\t\tchoice) _bpfbench_list=(\"${_bpfbench_choices[@]}\") ;;\n"
	"\t\t*) _bpfbench_what= ;;\n"
	"\t\tesac\n"
	"\telif [[ -n $_bpfbench_sub ]]; then\n"
	"\t\tif [[ $1 == -* ]] || ! _bpfbench_pos \"$_bpfbench_sub\" \"$_bpfbench_npos\"; then\n"
	"\t\t\t_bpfbench_opts \"@$_bpfbench_sub\"\n"
	"\t\tfi\n"
	"\telif [[ $1 == -* || -n $_bpfbench_bench ]]; then\n"
	"\t\t_bpfbench_opts ''\n"
	"\t\t[[ -z $_bpfbench_tab ]] || _bpfbench_opts \"$_bpfbench_tab\"\n"
	"\telse\n"
	"\t\t_bpfbench_list=(\"${_bpfbench_benchs[@]}\" \"${_bpfbench_subcmds[@]}\")\n"
	"\tfi\n"
	"}\n\n";

static const char bash_main[] =
	"_bpfbench()\n{\n"
	"\tlocal cur=${COMP_WORDS[COMP_CWORD]} pre=\n\n"
	"\t_bpfbench_scan \"${COMP_WORDS[@]:1:COMP_CWORD-1}\"\n"
	"\t[[ $cur == '=' && -n $_bpfbench_want ]] && cur=\n"
	"\tif [[ $cur == --*=* ]]; then\t# '=' not in COMP_WORDBREAKS\n"
	"\t\t_bpfbench_want=${cur%%=*}\n"
	"\t\tpre=$_bpfbench_want=\n"
	"\t\tcur=${cur#*=}\n"
	"\tfi\n"
	"\t_bpfbench_candidates \"$cur\"\n"
	"\tCOMPREPLY=()\n"
	"\tcase $_bpfbench_what in\n"
	"\tfile)\n"
	"\t\tcompopt -o filenames 2>/dev/null\n"
	"\t\tmapfile -t COMPREPLY < <(compgen -P \"$pre\" -f -- \"$cur\") ;;\n"
	"\twords)\n"
	"\t\tmapfile -t COMPREPLY < <(compgen -P \"$pre\" -W \"${_bpfbench_list[*]%%:*}\" \\\n"
	"\t\t\t-- \"$cur\") ;;\n"
	"\tesac\n"
	"}\n\n"
	"complete -F _bpfbench bpfbench\n";

static const char zsh_main[] =
	"_bpfbench()\n{\n"
	"\tlocal cur=${words[CURRENT]}\n\n"
	"\t_bpfbench_scan \"${(@)words[2,CURRENT-1]}\"\n"
	"\tif [[ $cur == --*=* ]]; then\n"
	"\t\t_bpfbench_want=${cur%%=*}\n"
	"\t\tcompset -P '*='\n"
	"\t\tcur=${cur#*=}\n"
	"\tfi\n"
	"\t_bpfbench_candidates \"$cur\"\n"
	"\tcase $_bpfbench_what in\n"
	"\tfile) _files ;;\n"
	"\twords) _describe -t bpfbench 'bpfbench' _bpfbench_list ;;\n"
	"\tesac\n"
	"}\n\n"
	"_bpfbench \"$@\"\n";

static void print_script(FILE *f, bool zsh, const struct subcommand *subs)
{
	if (zsh)
		fputs("#compdef bpfbench\n", f);
	fprintf(f, "# %s completion for bpfbench(1), printed by `bpfbench completion %s`\n"
		"# from the tables its parser uses: regenerate it, do not edit it.\n\n",
		zsh ? "zsh" : "bash", zsh ? "zsh" : "bash");
	print_names(f);
	print_subcmds(f, subs);
	print_table_fn(f);
	print_opts_fn(f, subs);
	print_arg_fn(f, subs);
	print_pos_fn(f, subs);
	fputs(shared_logic, f);
	fputs(zsh ? zsh_main : bash_main, f);
}

int complete_cmd(int argc, char **argv, const struct subcommand *subs)
{
	int i;

	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		printf("Usage: bpfbench completion bash|zsh\n\n"
		       "Prints a completion script for the shell, e.g.\n"
		       "  source <(bpfbench completion bash)\n"
		       "`make install` installs both where bash-completion and zsh look.\n\n"
		       "Options:\n");
		opts_print_help(completion_opts, NULL);
		return 0;
	}
	for (i = 1; i < argc; i++) {
		/* `bpfbench -q completion bash` arrives as "completion bash -q" */
		if (argv[i][0] == '-') {
			errmsg("completion takes no options (got '%s'): bpfbench completion bash|zsh",
			       argv[i]);
			return EXIT_USAGE;
		}
	}
	if (argc != 2 || (strcmp(argv[1], "bash") && strcmp(argv[1], "zsh"))) {
		errmsg("completion: name a shell: bpfbench completion bash|zsh");
		return EXIT_USAGE;
	}
	print_script(stdout, !strcmp(argv[1], "zsh"), subs);
	return 0;
}
