// SPDX-License-Identifier: GPL-2.0
/*
 * Suites and sweeps: the plans they make.  A suite is the list of steps a
 * family declares (or quick, or seeds: every suite in turn); a sweep is
 * one benchmark's command line once per value of an option.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"
#include "args.h"
#include "history.h"
#include "plan.h"
#include "runner.h"
#include "suite.h"
#include "outfile.h"
#include "util.h"

/* ---- suites ---- */

static void add_steps(struct plan *p, const struct suite_step *steps, const char *suite)
{
	const struct suite_step *st;
	struct step *s;

	for (st = steps; st->args; st++) {
		s = plan_add(p, st->header, st->label ? st->label : st->args);
		s->suite = suite;
		step_push_words(p, s, st->args);
		step_push_extra(p, s);
	}
}

static void add_suite_steps(struct plan *p, const struct suite *su, bool prefix)
{
	const struct suite_step *st;
	const char *header;
	struct step *s;

	for (st = su->steps; st->args; st++) {
		header = st->header;
		if (prefix && (header || st == su->steps))
			header = plan_printf(p, "%s: %s", su->name, header ? header : su->summary);
		s = plan_add(p, header, st->label ? st->label : st->args);
		s->suite = su->name;
		step_push_words(p, s, st->args);
		step_push_extra(p, s);
	}
}

/* What a family adds to the quick look: a short version of its suite. */
static void add_quick_extras(struct plan *p)
{
	const struct suite *const *su;

	for (su = suite_all(); *su; su++) {
		if (!(*su)->quick)
			continue;
		add_steps(p, (*su)->quick, "quick");
	}
}

/*
 * quick: every benchmark its family names quick (all, where it names
 * none) once with its defaults, briefly; grouped by family.  Benchmarks with consumers get one (-c1): the global default of
 * none is not a run they can do.
 */
static void add_quick_steps(struct plan *p)
{
	const struct bench *const *b;
	const char *family = NULL;
	struct step *s;

	for (b = bench_all(); *b; b++) {
		if (!bench_is_quick(*b))
			continue;
		s = plan_add(p, !family || strcmp(family, (*b)->family) ?
			     plan_printf(p, "family %s", (*b)->family) : NULL, (*b)->name);
		family = (*b)->family;
		s->suite = "quick";
		step_push(s, (char *)(*b)->name);
		step_push(s, "-w0");
		step_push(s, "-d1");
		if ((*b)->flags & BENCH_F_CONSUMERS)
			step_push(s, "-c1");
		step_push_extra(p, s);
	}
	add_quick_extras(p);
}

/* seeds: the suites that reproduce the seed documents' tables; all: every suite. */
static void add_suites_steps(struct plan *p, bool seeds_only)
{
	const struct suite *const *su;

	for (su = suite_all(); *su; su++)
		if ((*su)->seed || !seeds_only)
			add_suite_steps(p, *su, true);
}

static bool build_suite(struct plan *p, const char *name)
{
	const struct suite *su;

	snprintf(p->title, sizeof(p->title), "suite %s", name);
	if (!strcmp(name, "quick")) {
		add_quick_steps(p);
	} else if (!strcmp(name, "seeds") || !strcmp(name, "all")) {
		add_suites_steps(p, !strcmp(name, "seeds"));
	} else {
		su = suite_find(name);
		if (!su)
			return false;
		add_suite_steps(p, su, false);
	}
	return true;
}

static void suite_list(void)
{
	const struct suite *const *su;

	for (su = suite_all(); *su; su++)
		printf("%-16s %s\n", (*su)->name, (*su)->summary);
	printf("%-16s %s\n", "seeds", "the seed documents' tables: every suite above that reproduces one");
	printf("%-16s %s\n", "all", "every suite above in turn");
	printf("%-16s %s\n", "quick", "every benchmark once with its defaults, short: -w0 -d1 (the maps matrix -d0.1)");
}

const struct opt_def suite_opts[] = {
	{ "list", 'l', OPT_FLAG, 0, NULL, 0, 0, NULL, NULL, "the suites (no NAME)" },
	{ "help", 'h', OPT_FLAG, 0, NULL, 0, 0, NULL, NULL,
	  "this help; after NAME, the steps of that suite" },
	{ NULL },
};

static void suite_usage(void)
{
	printf("Usage: bpfbench suite NAME [options]   run a suite, one table row per step\n"
	       "       bpfbench suite --list           the suites\n"
	       "       bpfbench suite NAME --help      the steps of a suite\n\n"
	       "Options after NAME apply to every step (e.g. -w0 -d1, --precision 2): the global\n"
	       "options (bpfbench --help); --json, --csv and --md FILE export every row.\n\n"
	       "Options:\n");
	opts_print_help(suite_opts, NULL);
	printf("\nExit status: 0, 1 if a step failed (a skipped step is not a failure), 2 bad usage,\n"
	       "4 if every step was skipped (nothing measured: no file written).\n");
}

static void suite_steps(const struct plan *p)
{
	char args[256];
	int i;

	printf("%s:\n", p->title);
	for (i = 0; i < p->n; i++) {
		step_args(&p->steps[i], p->steps[i].own_from, p->steps[i].own_argc, args,
			  sizeof(args));
		printf("  %-24s bpfbench %s\n", p->steps[i].label, args);
	}
}

/* The options after the suite name: checked once, exports kept for the suite itself. */
static int parse_suite_opts(struct plan *p, int argc, char **argv, bool *help)
{
	char **args = xcalloc(argc + 2, sizeof(char *));
	struct run_spec spec;
	int ret;

	args[0] = "bpfbench";
	memcpy(args + 1, argv, argc * sizeof(char *));
	ret = cli_parse(argc + 1, args, &spec);
	free(args);
	if (ret)
		return ret;
	verbose = spec.opts.verbose;
	if (spec.bench) {
		errmsg("suite: unexpected argument '%s' (only options follow the suite name)",
		       spec.bench->name);
		run_spec_free(&spec);
		return EXIT_USAGE;
	}
	if (spec.opts.sweep || spec.opts.list) {
		errmsg("suite: --%s does not apply to a suite",
		       spec.opts.sweep ? "sweep" : "list");
		return EXIT_USAGE;
	}
	*help = spec.opts.help;
	memcpy(p->out.path, spec.opts.out, sizeof(p->out.path));
	p->record = spec.opts.record;
	p->db = spec.opts.db_path;
	p->extra = argv;
	p->nr_extra = argc;
	p->extra_used = xcalloc(argc ?: 1, sizeof(bool));
	p->adaptive = !cli_words_set(argc, argv, "duration") &&
		      !cli_words_set(argc, argv, "precision");
	/* checked once here, not once per step; a 15-minute suite must not end in "cannot write" */
	return cli_check_globals(&spec.opts) ?:
	       (p->adaptive ? 0 : cli_check_max_duration(&spec.opts)) ?:
	       output_paths_check(p->out.path, OUT_NR) ?:
	       (p->record ? history_spare_db(p->db, p->out.path, OUT_NR) : 0);
}

int suite_cmd(int argc, char **argv)
{
	struct plan p = { 0 };
	bool help = false;
	int ret;

	if (argc < 2) {
		errmsg("suite: name a suite (see 'bpfbench suite --list')");
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--list") || !strcmp(argv[1], "-l") ||
	    !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		if (argc > 2) {
			errmsg("suite %s takes no arguments (got '%.64s')", argv[1], argv[2]);
			return EXIT_USAGE;
		}
		if (argv[1][2] == 'l' || argv[1][1] == 'l')
			suite_list();
		else
			suite_usage();
		return 0;
	}
	if (argv[1][0] == '-') {
		errmsg("suite: the suite name comes first: bpfbench suite NAME [options]");
		return EXIT_USAGE;
	}
	ret = parse_suite_opts(&p, argc - 2, argv + 2, &help);
	if (!ret && !build_suite(&p, argv[1])) {
		char hint[96];

		errmsg("unknown suite '%s'%s (see 'bpfbench suite --list')", argv[1],
		       suite_suggest(hint, sizeof(hint), "", argv[1]));
		ret = EXIT_USAGE;
	}
	if (!ret)	/* every step parsed before any runs, or is listed */
		ret = check_extra_used(&p, argv[1]) ?: plan_check(&p);
	if (!ret && help)
		suite_steps(&p);
	else if (!ret && plan_needs_bpf(&p))
		ret = run_check_privileges();
	if (!ret && !help)
		ret = run_plan(&p);
	if (!ret && !help && p.record)
		ret = history_record_written(p.out.path[OUT_JSON], p.db);
	plan_free(&p);
	return ret;
}

/* ---- sweeps ---- */

/* The option --sweep names: one that takes a value and says what is measured. */
static const struct opt_def *sweep_opt(const struct bench *b, const char *name)
{
	const struct opt_def *o = opts_find(global_opts, name);

	if (!o)
		o = opts_find(b->opts, name);
	if (!o) {
		errmsg("--sweep: '%s' is not an option of %s or a global option",
		       name, b->name);
		return NULL;
	}
	if (o->flags & OPT_F_NO_MEASURE) {
		errmsg("--sweep: --%s cannot be swept", o->name);
		return NULL;
	}
	if (!opt_takes_value(o)) {
		errmsg("--sweep: --%s is a flag; sweep an option that takes a value",
		       o->name);
		return NULL;
	}
	return o;
}

static int build_sweep(struct plan *p, int argc, char **argv, const struct run_spec *rs)
{
	const struct bench *b = rs->bench;
	const char *sweep = rs->opts.sweep;
	char *spec = plan_own(p, strdup(sweep)), *eq = strchr(spec, '=');
	char *save = NULL, *v, *end;
	const struct opt_def *o;
	struct step *s;
	int i;

	if (!eq || eq == spec || !eq[1]) {
		errmsg("--sweep: '%s' is not PARAM=V1,V2,...", sweep);
		return EXIT_USAGE;
	}
	*eq = 0;
	o = sweep_opt(b, spec);
	if (!o)
		return EXIT_USAGE;
	end = eq + strlen(eq + 1);
	if (eq[1] == ',' || *end == ',' || strstr(eq + 1, ",,")) {
		errmsg("--sweep: empty value in '%s'", sweep);
		return EXIT_USAGE;
	}
	snprintf(p->title, sizeof(p->title), "%s, sweep of %s", b->name, o->name);
	for (v = strtok_r(eq + 1, ",", &save); v; v = strtok_r(NULL, ",", &save)) {
		if (p->n == SWEEP_MAX) {
			errmsg("--sweep: more than %d values", SWEEP_MAX);
			return EXIT_USAGE;
		}
		s = plan_add(p, p->n ? NULL : plan_printf(p, "%s: %s sweep", b->name, o->name),
			     plan_printf(p, "%s=%s", o->name, v));
		s->sweep_param = o->name;
		for (i = 1; i < argc; i++)
			step_push(s, argv[i]);
		step_push(s, plan_printf(p, "--%s=%s", o->name, v));	/* the last one wins */
	}
	return 0;
}

static int sweep(int argc, char **argv, const struct run_spec *spec, bool run)
{
	struct plan p = { 0 };
	int ret;

	memcpy(p.out.path, spec->opts.out, sizeof(p.out.path));
	ret = build_sweep(&p, argc, argv, spec);
	if (!ret)
		ret = plan_check(&p);	/* a bad value was named on stderr */
	if (!ret && run)
		ret = run_plan(&p);
	plan_free(&p);
	return ret;
}

int sweep_run(int argc, char **argv, const struct run_spec *spec)
{
	return sweep(argc, argv, spec, true);
}

int sweep_check(int argc, char **argv, const struct run_spec *spec)
{
	return sweep(argc, argv, spec, false);
}
