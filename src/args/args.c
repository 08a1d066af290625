// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"
#include "args.h"
#include "trigger.h"
#include "util.h"

int usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verrmsg(fmt, ap);
	va_end(ap);
	return EXIT_USAGE;
}

/* ---- finding a name: exact, then an unambiguous prefix, else a suggestion ---- */

/* Edit distance (dash and underscore alike), for "did you mean". */
static int distance(const char *a, const char *b)
{
	int la = strlen(a), lb = strlen(b), i, j, d[64], prev, tmp;

	if (la > 63 || lb > 63)
		return 99;
	for (j = 0; j <= lb; j++)
		d[j] = j;
	for (i = 1; i <= la; i++) {
		prev = d[0];
		d[0] = i;
		for (j = 1; j <= lb; j++) {
			char ca = a[i - 1] == '_' ? '-' : a[i - 1];
			char cb = b[j - 1] == '_' ? '-' : b[j - 1];

			tmp = d[j];
			d[j] = ca == cb ? prev : 1 + (prev < d[j] ? (prev < d[j - 1] ? prev : d[j - 1]) :
						      (d[j] < d[j - 1] ? d[j] : d[j - 1]));
			prev = tmp;
		}
	}
	return d[lb];
}

/* Close enough to be a typo: at most 2 edits, fewer for short names. */
static bool similar(const char *typed, const char *name)
{
	int d = distance(typed, name), len = strlen(name);

	return d <= (len > 5 ? 2 : 1);
}

/* " (did you mean 'x'?)" or "" */
static const char *suggest(char *buf, size_t len, const char *what, const char *typed,
			   const char *const *names, int n)
{
	int i;

	buf[0] = 0;
	for (i = 0; i < n; i++) {
		if (similar(typed, names[i])) {
			snprintf(buf, len, " (did you mean %s'%s'?)", what, names[i]);
			break;
		}
	}
	return buf;
}

/* The suites suite.c builds from the table rather than finds in it. */
static const char *const builtin_suites[] = { "seeds", "all", "quick" };

static bool is_builtin_suite(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(builtin_suites); i++)
		if (!strcmp(name, builtin_suites[i]))
			return true;
	return false;
}

const char *suite_suggest(char *buf, size_t len, const char *what, const char *typed)
{
	const struct suite *const *su;
	const char *names[64];
	size_t i;
	int n = 0;

	for (su = suite_all(); *su && n < (int)ARRAY_SIZE(names) - 3; su++)
		names[n++] = (*su)->name;
	for (i = 0; i < ARRAY_SIZE(builtin_suites); i++)
		names[n++] = builtin_suites[i];
	return suggest(buf, len, what, typed, names, n);
}

static bool is_prefix(const char *prefix, const char *name)
{
	for (; *prefix && *name; prefix++, name++)
		if ((*prefix == '_' ? '-' : *prefix) != (*name == '_' ? '-' : *name))
			return false;
	return !*prefix;
}

/*
 * Options in scope: the globals and one benchmark's, or (first pass) every
 * benchmark's; room for every benchmark (past 63 the last family's options
 * went unseen: bpf-hashmap-lookup's --map_flags was "unknown").
 */
struct scope {
	const struct opt_def *tables[256];
	int n;
};

static bool scope_has(const struct scope *sc, const struct opt_def *table)
{
	int i;

	for (i = 0; i < sc->n; i++)
		if (sc->tables[i] == table)
			return true;
	return false;
}

static void scope_init(struct scope *sc, const struct bench *b)
{
	const struct bench *const *t;

	sc->n = 0;
	sc->tables[sc->n++] = global_opts;
	if (b) {
		sc->tables[sc->n++] = b->opts;
		return;
	}
	/* each table once: a family's benchmarks share theirs, and many have none */
	for (t = bench_all(); *t && sc->n < (int)ARRAY_SIZE(sc->tables); t++)
		if ((*t)->opts && !scope_has(sc, (*t)->opts))
			sc->tables[sc->n++] = (*t)->opts;
}

/*
 * A long option by exact name, else by an unambiguous prefix, as the
 * kernel's bench (argp) accepts.  NULL with *ambiguous set when two
 * options of different kinds share the prefix.
 */
static const struct opt_def *scope_find(const struct scope *sc, const char *name, int *table,
					bool *ambiguous)
{
	const struct opt_def *o, *hit = NULL;
	int t;

	*ambiguous = false;
	for (t = 0; t < sc->n; t++) {
		o = opts_find(sc->tables[t], name);
		if (o) {
			*table = t;
			return o;
		}
	}
	for (t = 0; t < sc->n; t++) {
		for (o = sc->tables[t]; o && o->name; o++) {
			if (!is_prefix(name, o->name))
				continue;
			if (hit && (strcmp(hit->name, o->name) ||
				    opt_takes_value(hit) != opt_takes_value(o))) {
				*ambiguous = true;
				return NULL;
			}
			if (!hit) {
				hit = o;
				*table = t;
			}
		}
	}
	return hit;
}

/* The closest option name in scope, for "did you mean". */
static const char *scope_nearest(const struct scope *sc, const char *name)
{
	const struct opt_def *o;
	int t;

	for (t = 0; t < sc->n; t++)
		for (o = sc->tables[t]; o && o->name; o++)
			if (similar(name, o->name))
				return o->name;
	return NULL;
}

/* By name, in the table of benchmarks (benchs/registry.c, or a test's own). */
const struct bench *bench_find(const char *name)
{
	const struct bench *const *b;

	for (b = bench_all(); *b; b++)
		if (!strcmp((*b)->name, name))
			return *b;
	return NULL;
}

const struct suite *suite_find(const char *name)
{
	const struct suite *const *s;

	for (s = suite_all(); *s; s++)
		if (!strcmp((*s)->name, name))
			return *s;
	return NULL;
}

/* Any benchmark's option of that name: used to skip values before the name is known. */
static const struct opt_def *any_bench_opt(const char *name, char c)
{
	const struct bench *const *b;
	const struct opt_def *o;

	for (b = bench_all(); *b; b++) {
		o = c ? opts_find_short((*b)->opts, c) : opts_find((*b)->opts, name);
		if (o)
			return o;
	}
	return NULL;
}

struct parse_state {
	int argc;
	char **argv;
	int i;
	struct run_spec *spec;		/* bench NULL in the first pass */
	bool apply;			/* second pass: store values */
	const char *positional;
};

/* The struct an option's value goes to: the run's global options or its benchmark's. */
static void *args_of(struct parse_state *ps, int table)
{
	return table ? ps->spec->args : (void *)&ps->spec->opts;
}

static const struct opt_def *lookup_short(struct parse_state *ps, char c, void **args)
{
	const struct bench *b = ps->spec->bench;
	const struct opt_def *o = opts_find_short(global_opts, c);

	*args = args_of(ps, 0);
	if (o)
		return o;
	*args = args_of(ps, 1);
	if (b)
		return opts_find_short(b->opts, c);
	return any_bench_opt(NULL, c);
}

/*
 * No benchmark (suite options): a benchmark's option is only checked, and
 * against every benchmark that has one of its name (--map-type takes
 * queue in map-ops, not in map-batch); each step then checks its own.
 */
static int check_any_bench(const struct opt_def *o, const char *val)
{
	const struct bench *const *b;
	const struct opt_def *bo;
	char err[300], first[300] = "";

	for (b = bench_all(); *b; b++) {
		bo = opts_find((*b)->opts, o->name);
		if (!bo)
			continue;
		if (!opts_check(bo, val, err, sizeof(err)))
			return 0;
		if (!*first)
			snprintf(first, sizeof(first), "%s", err);
	}
	return usage_error("%s", first);
}

static int apply_opt(struct parse_state *ps, const struct opt_def *o, void *args, const char *val)
{
	char err[300];

	if (!ps->apply)
		return 0;
	if (!args)
		return check_any_bench(o, val);
	if ((o->flags & OPT_F_ONCE) && o->type == OPT_STRING &&
	    *(const char *const *)((const char *)args + o->off))
		return usage_error("--%s given twice: give it once", o->name);
	if (opts_set(o, args, val, err, sizeof(err)))
		return usage_error("%s", err);
	if (args == (void *)&ps->spec->opts && o->off == OPT_OFF(struct run_opts, consumers))
		ps->spec->opts.consumers_given = true;
	if (args == (void *)&ps->spec->opts && o->off == OPT_OFF(struct run_opts, max_duration_ms))
		ps->spec->opts.max_duration_given = true;
	return 0;
}

static int not_found(struct parse_state *ps, const struct scope *sc, const char *shown,
		     bool ambiguous)
{
	const char *near = scope_nearest(sc, shown + 2);

	if (ambiguous)
		return usage_error("option %s is ambiguous: give more of its name", shown);
	if (ps->spec->bench && any_bench_opt(shown + 2, 0))
		return usage_error("option %s does not apply to benchmark %s (see 'bpfbench %s --help')",
				   shown, ps->spec->bench->name, ps->spec->bench->name);
	if (near)
		return usage_error("unknown option %s (did you mean '--%s'?)", shown, near);
	return usage_error("unknown option %s", shown);
}

static int parse_long(struct parse_state *ps, const char *arg)
{
	char name[128];
	const char *eq = strchr(arg, '=');
	const struct opt_def *o;
	size_t n = eq ? (size_t)(eq - arg) : strlen(arg);
	struct scope sc;
	bool ambiguous;
	int table = 0;

	if (n - 2 >= sizeof(name) - 2)
		return usage_error("unknown option %.40s...", arg);
	memcpy(name, arg, n);
	name[n] = 0;
	scope_init(&sc, ps->spec->bench);
	o = scope_find(&sc, name + 2, &table, &ambiguous);
	if (!o)
		return not_found(ps, &sc, name, ambiguous);
	if (!opt_takes_value(o)) {
		if (eq)
			return usage_error("option %s takes no value", name);
		return apply_opt(ps, o, args_of(ps, table), "1");
	}
	if (eq)
		return apply_opt(ps, o, args_of(ps, table), eq + 1);
	if (ps->i + 1 >= ps->argc)
		return usage_error("option %s needs a value", name);
	return apply_opt(ps, o, args_of(ps, table), ps->argv[++ps->i]);
}

static int parse_short(struct parse_state *ps, const char *arg)
{
	const struct opt_def *o;
	char shown[3] = "-?";
	void *args;
	int ret;

	for (arg++; *arg; arg++) {
		shown[1] = *arg;
		o = lookup_short(ps, *arg, &args);
		if (!o)
			return usage_error("unknown option %s", shown);
		if (!opt_takes_value(o)) {
			ret = apply_opt(ps, o, args, "1");
			if (ret)
				return ret;
			continue;
		}
		if (arg[1])	/* -p8 */
			return apply_opt(ps, o, args, arg + 1);
		if (ps->i + 1 >= ps->argc)
			return usage_error("option %s needs a value", shown);
		return apply_opt(ps, o, args, ps->argv[++ps->i]);
	}
	return 0;
}

static int positional(struct parse_state *ps, const char *arg)
{
	if (ps->positional)
		return usage_error("unexpected argument '%s' (benchmark is '%s'; options come "
				   "before or after it)", arg, ps->positional);
	ps->positional = arg;
	return 0;
}

static int parse_pass(struct parse_state *ps)
{
	bool options = true;	/* until "--" */
	const char *arg;
	int ret;

	for (ps->i = 1; ps->i < ps->argc; ps->i++) {
		arg = ps->argv[ps->i];
		if (options && !strcmp(arg, "--"))
			ret = (options = false, 0);
		else if (options && !strncmp(arg, "--", 2))
			ret = parse_long(ps, arg);
		else if (options && arg[0] == '-' && arg[1])
			ret = parse_short(ps, arg);
		else
			ret = positional(ps, arg);
		if (ret)
			return ret;
	}
	return 0;
}

/* Steps over one option word (and its value) without parsing it; -1 if it is unknown. */
static int quiet_skip(struct parse_state *ps, const char *arg)
{
	const struct opt_def *o;
	struct scope sc;
	char name[128];
	bool ambiguous;
	void *args;
	int table;

	if (arg[1] == '-') {
		if (strchr(arg, '='))
			return 0;
		snprintf(name, sizeof(name), "%s", arg + 2);
		scope_init(&sc, NULL);
		o = scope_find(&sc, name, &table, &ambiguous);
		if (!o)
			return -1;
		ps->i += opt_takes_value(o);
		return 0;
	}
	for (arg++; *arg; arg++) {
		o = lookup_short(ps, *arg, &args);
		if (!o)
			return -1;
		if (opt_takes_value(o)) {
			ps->i += !arg[1];
			return 0;
		}
	}
	return 0;
}

static int unknown_bench(const char *name)
{
	const char *names[256];
	char hint[128];
	int n = 0;
	const struct bench *const *b;

	if (suite_find(name) || is_builtin_suite(name))
		return usage_error("'%s' is a suite, not a benchmark: bpfbench suite %s", name, name);
	for (b = bench_all(); *b && n < (int)ARRAY_SIZE(names); b++)
		names[n++] = (*b)->name;
	suggest(hint, sizeof(hint), "", name, names, n);
	if (!*hint)
		suite_suggest(hint, sizeof(hint), "suite ", name);
	return usage_error("unknown benchmark '%s'%s (see 'bpfbench --list')", name, hint);
}

enum opt_scope cli_option_scope(const char *word, const struct bench *b, bool *takes_value)
{
	const struct opt_def *o;
	struct scope sc;
	char name[128];
	bool ambiguous;
	int table = 0;

	*takes_value = false;
	if (word[0] != '-' || !word[1])
		return OPT_SCOPE_NONE;
	if (word[1] != '-') {	/* short options are all global */
		o = opts_find_short(global_opts, word[1]);
		*takes_value = o && opt_takes_value(o) && !word[2];
		return o ? OPT_SCOPE_GLOBAL : OPT_SCOPE_NONE;
	}
	snprintf(name, sizeof(name), "%s", word + 2);
	name[strcspn(name, "=")] = 0;
	scope_init(&sc, b);
	o = scope_find(&sc, name, &table, &ambiguous);
	if (!o)
		return OPT_SCOPE_NONE;
	*takes_value = opt_takes_value(o) && !strchr(word, '=');
	return table ? OPT_SCOPE_BENCH : OPT_SCOPE_GLOBAL;
}

bool cli_words_set(int argc, char **argv, const char *name)
{
	const struct opt_def *want = opts_find(global_opts, name), *o;
	struct scope sc;
	bool ambiguous;
	char buf[128];
	int i, table;
	const char *c;

	scope_init(&sc, NULL);
	for (i = 0; i < argc; i++) {
		if (argv[i][0] != '-' || !argv[i][1])
			continue;
		if (argv[i][1] == '-') {
			snprintf(buf, sizeof(buf), "%s", argv[i] + 2);
			buf[strcspn(buf, "=")] = 0;
			o = scope_find(&sc, buf, &table, &ambiguous);
			if (o == want)
				return true;
			continue;
		}
		for (c = argv[i] + 1; *c; c++) {
			o = opts_find_short(global_opts, *c);
			if (o == want)
				return true;
			if (!o || opt_takes_value(o))
				break;
		}
	}
	return false;
}

int cli_first_word(int argc, char **argv)
{
	struct run_spec spec = { 0 };
	struct parse_state ps = { .argc = argc, .argv = argv, .spec = &spec };
	int i;

	/* the first pass only skips option values; errors are the real parse's to report */
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			return i + 1 < argc ? i + 1 : -1;
		if (argv[i][0] != '-' || !argv[i][1])
			return i;
		ps.i = i;
		if (quiet_skip(&ps, argv[i]))
			return -1;
		i = ps.i;
	}
	return -1;
}

int cli_parse(int argc, char **argv, struct run_spec *spec)
{
	struct parse_state ps = { .argc = argc, .argv = argv, .spec = spec };
	const struct bench *b = NULL;
	int ret;

	memset(spec, 0, sizeof(*spec));
	ret = parse_pass(&ps);	/* finds the benchmark name */
	if (ret)
		return ret;
	if (ps.positional) {
		b = bench_find(ps.positional);
		if (!b)
			return unknown_bench(ps.positional);
		spec->args = xcalloc(1, b->args_size ?: 1);
		spec->args_size = b->args_size;
		opts_reset(b->opts, spec->args);
	}
	spec->bench = b;
	opts_reset(global_opts, &spec->opts);
	ps.apply = true;
	ps.positional = NULL;
	ret = parse_pass(&ps);
	if (ret) {
		run_spec_free(spec);
		return ret;
	}
	return 0;
}

