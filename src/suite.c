// SPDX-License-Identifier: GPL-2.0
/*
 * Suites and sweeps: a list of command lines run one after the other in
 * this process, printed as one table with a row per run, the way the
 * kernel's run_bench_*.sh scripts summarize theirs.
 *
 * Each step is parsed by the normal command line parser (so every option
 * starts from its default again) and run by run_bench() in batch mode: no
 * per-period lines, the row is the summary.  A step that fails or is
 * skipped is a row saying so; the suite goes on.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "bench.h"
#include "cli.h"
#include "export.h"
#include "runner.h"
#include "suite.h"
#include "util.h"

#define STEP_SETUP_S	0.5	/* rough cost of loading a step's programs, for the estimate */

/*
 * How a suite samples a row unless told otherwise (-d or --precision):
 * short periods until the 95% CI of the first metric is within 2% of its
 * mean, at most 3 s, so quiet rows take a second and noisy ones get the
 * time.  Each row then states the precision it reached.
 */
static const char *const adaptive_opts[] = {
	"--precision", "2", "--max-duration", "3", "--period-ms", "200", "-w", "0.4",
};
#define SWEEP_MAX	1000
#define ROW_TABLE_METRICS	6	/* more make a row no one reads: the exports have all */

struct step {
	const char *header;
	const char *label;
	const char *suite;
	const char *sweep_param;
	int argc;
	int own_from;		/* the step's own words start here (after the suite's defaults) */
	int own_argc;		/* ... and end here, before the suite's options */
	char **argv;
	bool bad;		/* did not parse: reported once, before the runs */
	const char *bench;	/* its benchmark, once parsed */
	double planned_s;	/* warm-up + measured time, for the time-left estimate */
};

struct plan {
	char title[256];
	int n;
	struct step *steps;
	int nr_owned;
	char **owned;		/* strings the plan allocated */
	int nr_extra;
	char **extra;		/* options appended to every step */
	bool *extra_used;	/* extra[i] is a benchmark option some step has */
	bool adaptive;		/* steps sample to a precision (adaptive_opts) */
	struct export_paths out;
	bool tty;		/* progress line on stderr */
};

static char *plan_own(struct plan *p, char *s)
{
	if (!s)
		die("out of memory");
	p->owned = realloc(p->owned, (p->nr_owned + 1) * sizeof(*p->owned));
	if (!p->owned)
		die("out of memory");
	p->owned[p->nr_owned++] = s;
	return s;
}

static char *plan_printf(struct plan *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static char *plan_printf(struct plan *p, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	return plan_own(p, s);
}

static struct step *plan_add(struct plan *p, const char *header, const char *label)
{
	struct step *s;

	p->steps = realloc(p->steps, (p->n + 1) * sizeof(*p->steps));
	if (!p->steps)
		die("out of memory");
	s = &p->steps[p->n++];
	memset(s, 0, sizeof(*s));
	s->header = header;
	s->label = label;
	s->argv = xcalloc(1, sizeof(char *));
	s->argv[s->argc++] = "bpfbench";
	s->own_from = 1;
	return s;
}

static void step_push(struct step *s, char *arg)
{
	s->argv = realloc(s->argv, (s->argc + 2) * sizeof(char *));
	if (!s->argv)
		die("out of memory");
	s->argv[s->argc++] = arg;
	s->argv[s->argc] = NULL;
}

/*
 * A suite step's command line: words split on blanks (steps never need
 * quoting), after the suite's sampling defaults unless the step fixes
 * its own duration.
 */
static void step_push_words(struct plan *p, struct step *s, const char *args)
{
	char *copy = plan_own(p, strdup(args)), *save = NULL, *w, *words[64];
	int n = 0, i;

	for (w = strtok_r(copy, " \t", &save); w && n < (int)ARRAY_SIZE(words);
	     w = strtok_r(NULL, " \t", &save))
		words[n++] = w;
	if (p->adaptive && !cli_words_set(n, words, "duration"))
		for (i = 0; i < (int)ARRAY_SIZE(adaptive_opts); i++)
			step_push(s, (char *)adaptive_opts[i]);
	s->own_from = s->argc;
	for (i = 0; i < n; i++)
		step_push(s, words[i]);
}

/*
 * The suite's options, appended to a step: global ones always, a
 * benchmark's only to steps of a benchmark that has it (`suite quick
 * --nr_loops 5` changes the bpf-loop steps and leaves the others be).
 */
static void step_push_extra(struct plan *p, struct step *s)
{
	int w = cli_first_word(s->argc, s->argv), i;
	const struct bench *b = w > 0 ? bench_find(s->argv[w]) : NULL;
	bool takes_value, unused;
	enum opt_scope scope;
	bool push;

	s->own_argc = s->argc;
	for (i = 0; i < p->nr_extra; i++) {
		cli_option_scope(p->extra[i], NULL, &takes_value);
		scope = cli_option_scope(p->extra[i], b, &unused);
		push = scope != OPT_SCOPE_NONE;
		if (scope == OPT_SCOPE_BENCH)
			p->extra_used[i] = true;
		if (push)
			step_push(s, p->extra[i]);
		if (takes_value && i + 1 < p->nr_extra && push)
			step_push(s, p->extra[i + 1]);
		i += takes_value;
	}
}

static bool plan_needs_bpf(const struct plan *p)
{
	const struct bench *b;
	int i, w;

	for (i = 0; i < p->n; i++) {
		w = cli_first_word(p->steps[i].argc, p->steps[i].argv);
		b = w > 0 ? bench_find(p->steps[i].argv[w]) : NULL;
		if (!b || !(b->flags & BENCH_F_NO_BPF))
			return true;
	}
	return false;
}

/* A benchmark option given to a suite none of whose steps has it is a mistake, not a no-op. */
static int check_extra_used(const struct plan *p, const char *suite)
{
	bool takes_value;
	int i;

	for (i = 0; i < p->nr_extra; i++) {
		if (cli_option_scope(p->extra[i], NULL, &takes_value) == OPT_SCOPE_BENCH &&
		    !p->extra_used[i]) {
			errmsg("suite %s: no step's benchmark has option %s", suite,
			       p->extra[i]);
			return EXIT_USAGE;
		}
		i += takes_value;
	}
	return 0;
}

static void plan_free(struct plan *p)
{
	int i;

	for (i = 0; i < p->n; i++)
		free(p->steps[i].argv);
	for (i = 0; i < p->nr_owned; i++)
		free(p->owned[i]);
	free(p->steps);
	free(p->owned);
	free(p->extra_used);
}

/* ---- running ---- */

/* Parses a step once before anything runs: bad steps are known early, durations estimate time. */
/* A step's command line, parsed and checked; false (after one line on stderr) if it is bad. */
static bool step_parse(const struct step *s, struct run_spec *spec)
{
	if (cli_parse(s->argc, s->argv, spec))
		return false;
	if (spec->bench && !cli_validate(spec))
		return true;
	run_spec_free(spec);
	return false;
}

static void plan_check(struct plan *p)
{
	const struct run_opts *o;
	struct run_spec spec;
	struct step *s;
	int i;

	for (i = 0; i < p->n; i++) {
		s = &p->steps[i];
		s->bad = !step_parse(s, &spec);
		if (s->bad)
			continue;
		o = &spec.opts;
		s->bench = spec.bench->name;
		s->planned_s = (o->warmup_ms / 1e3 + STEP_SETUP_S +
				(o->precision_pct ? o->max_duration_ms : o->duration_ms) / 1e3) * o->runs;
		run_spec_free(&spec);
	}
}

static void step_args(const struct step *s, int from, int argc, char *buf, size_t len)
{
	size_t off = 0;
	int i;

	buf[0] = 0;
	for (i = from; i < argc && off < len; i++)
		off += snprintf(buf + off, len - off, "%s%s", i > from ? " " : "", s->argv[i]);
}

static void run_step(const struct step *s, const char *section, struct result_row *row)
{
	struct run_spec spec;
	char args[256];

	row->header = s->header;
	row->section = section;
	row->label = s->label;
	row->suite = s->suite;
	if (s->bad || !step_parse(s, &spec)) {
		step_args(s, 1, s->argc, args, sizeof(args));
		row->status = EXIT_USAGE;
		snprintf(row->note, sizeof(row->note), "bad arguments: %s", args);
		return;
	}
	spec.opts.batch = true;	/* the row is the summary */
	spec.opts.quiet = true;
	row->status = run_bench(&spec, &row->res);
	run_spec_free(&spec);
	row->res.sweep_param = s->sweep_param;
	snprintf(row->note, sizeof(row->note), "%s", row->res.error);
}

/* Time left: the plan's remaining seconds, scaled by how the done steps compared to theirs. */
static double time_left(const struct plan *p, int i, double spent)
{
	double planned_done = 0, planned_left = 0;
	int k;

	for (k = 0; k < p->n; k++) {
		if (k < i)
			planned_done += p->steps[k].planned_s;
		else
			planned_left += p->steps[k].planned_s;
	}
	if (i && planned_done > 0)
		return planned_left * spent / planned_done;
	return planned_left;
}

static void progress(const struct plan *p, int i, uint64_t t0)
{
	const struct step *s = &p->steps[i];
	double left = time_left(p, i, (now_ns() - t0) / 1e9);
	char when[32];

	if (!p->tty)
		return;
	if (left < 90)
		snprintf(when, sizeof(when), "%.0f s", left);
	else
		snprintf(when, sizeof(when), "%.0f min", left / 60);
	fprintf(stderr, "\r\033[K[%d/%d] %s (%s), about %s left ", i + 1, p->n, s->label,
		s->bench ?: "?", when);
	fflush(stderr);
}

static void progress_clear(const struct plan *p)
{
	if (p->tty) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
	}
}

static int label_width(const struct plan *p)
{
	int i, w = 16, len;

	for (i = 0; i < p->n; i++) {
		len = (int)strlen(p->steps[i].label);
		if (len > w)
			w = len;
	}
	return w > 40 ? 40 : w;
}

/*
 * The printed table.  Consecutive steps skipped for one reason (a kernel
 * without a feature skips a whole section) are one line, not a row each.
 */
struct table {
	FILE *out;
	int width;
	const struct result_row *skip_first, *skip_last;
	int nr_skipped;
};

static void flush_skips(struct table *t)
{
	if (!t->nr_skipped)
		return;
	if (t->nr_skipped == 1)
		fprintf(t->out, "%-*s SKIP: %s\n", t->width, t->skip_first->label,
			t->skip_first->note);
	else
		fprintf(t->out, "%-*s SKIP, %d steps through '%s': %s\n", t->width,
			t->skip_first->label, t->nr_skipped, t->skip_last->label,
			t->skip_first->note);
	t->nr_skipped = 0;
	fflush(t->out);
}

static void print_header(FILE *out, const char *header)
{
	size_t i, len = strlen(header);

	fprintf(out, "\n%s\n", header);
	for (i = 0; i < len; i++)
		fputc('=', out);
	fputc('\n', out);
}

static void print_row(struct table *t, const struct result_row *row)
{
	char summary[8192];
	bool skip = row->status == EXIT_SKIP;

	if (row->header || !skip || (t->nr_skipped && strcmp(row->note, t->skip_first->note)))
		flush_skips(t);
	if (row->header)
		print_header(t->out, row->header);
	if (skip) {
		if (!t->nr_skipped++)
			t->skip_first = row;
		t->skip_last = row;
		return;
	}
	row_summary(row, ROW_TABLE_METRICS, summary, sizeof(summary));
	fprintf(t->out, "%-*s %s\n", t->width, row->label, summary);
	fflush(t->out);
}

/* The table goes where no export writes: stdout unless one of them took it. */
static FILE *table_out(const struct plan *p)
{
	const char *paths[] = { p->out.json, p->out.csv, p->out.md };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(paths); i++)
		if (paths[i] && !strcmp(paths[i], "-"))
			return stderr;
	return stdout;
}

static int run_plan(struct plan *p)
{
	struct result_row *rows = xcalloc(p->n ? p->n : 1, sizeof(*rows));
	struct table t = { .out = table_out(p), .width = label_width(p) };
	int i, n, status = 0;
	const char *section = NULL;
	uint64_t t0 = now_ns();

	p->tty = isatty(STDERR_FILENO);
	for (n = 0; n < p->n && !interrupted(); n++) {
		progress(p, n, t0);
		if (p->steps[n].header)
			section = p->steps[n].header;
		run_step(&p->steps[n], section, &rows[n]);
		progress_clear(p);
		if (interrupted())
			break;
		print_row(&t, &rows[n]);
		if (rows[n].status && rows[n].status != EXIT_SKIP)
			status = 1;
	}
	flush_skips(&t);
	if (interrupted()) {
		errmsg("interrupted by signal %d after %d of %d steps", interrupted_signal(), n, p->n);
		status = 128 + interrupted_signal();
	}
	if (export_rows(&p->out, p->title, rows, n) && !status)
		status = 1;
	for (i = 0; i < p->n; i++)
		run_result_free(&rows[i].res);
	free(rows);
	return status;
}

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

	for (su = suite_table; *su; su++) {
		if (!(*su)->quick)
			continue;
		add_steps(p, (*su)->quick, "quick");
	}
}

/*
 * quick: every benchmark once with its defaults, briefly; grouped by
 * family.  Benchmarks with consumers get one (-c1): the global default of
 * none is not a run they can do.
 */
static void add_quick_steps(struct plan *p)
{
	const struct bench *const *b;
	const char *family = NULL;
	struct step *s;

	for (b = bench_table; *b; b++) {
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

static void add_seed_steps(struct plan *p)
{
	const struct suite *const *su;

	for (su = suite_table; *su; su++)
		add_suite_steps(p, *su, true);
}

static bool build_suite(struct plan *p, const char *name)
{
	const struct suite *su;

	snprintf(p->title, sizeof(p->title), "suite %s", name);
	if (!strcmp(name, "quick")) {
		add_quick_steps(p);
	} else if (!strcmp(name, "seeds")) {
		add_seed_steps(p);
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

	for (su = suite_table; *su; su++)
		printf("%-16s %s\n", (*su)->name, (*su)->summary);
	printf("%-16s %s\n", "seeds", "every suite above in turn: the seeds' tables");
	printf("%-16s %s\n", "quick", "every benchmark once with its defaults, -w0 -d1 (-c1 if it has consumers)");
}

static void suite_usage(void)
{
	printf("Usage: bpfbench suite NAME [options]   run a suite, one table row per step\n"
	       "       bpfbench suite --list           the suites\n"
	       "       bpfbench suite NAME --help      the steps of a suite\n\n"
	       "Options after NAME apply to every step (e.g. -w0 -d1, --precision 2);\n"
	       "--json, --csv and --md FILE export every row.\n"
	       "Exit status: 0, 1 if a step failed (a skipped step is not a failure), 2 bad usage.\n");
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
	p->out = (struct export_paths){ spec.opts.json_path, spec.opts.csv_path, spec.opts.md_path };
	p->extra = argv;
	p->nr_extra = argc;
	p->extra_used = xcalloc(argc ?: 1, sizeof(bool));
	p->adaptive = !cli_words_set(argc, argv, "duration") &&
		      !cli_words_set(argc, argv, "precision");
	/* a 15-minute suite must not end in "cannot write" */
	return cli_check_outputs(&spec.opts) ?:
	       output_paths_check((const char *[]){ p->out.json, p->out.csv, p->out.md }, 3);
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
	if (!strcmp(argv[1], "--list") || !strcmp(argv[1], "-l")) {
		suite_list();
		return 0;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		suite_usage();
		return 0;
	}
	if (argv[1][0] == '-') {
		errmsg("suite: the suite name comes first: bpfbench suite NAME [options]");
		return EXIT_USAGE;
	}
	ret = parse_suite_opts(&p, argc - 2, argv + 2, &help);
	if (!ret && !build_suite(&p, argv[1])) {
		errmsg("unknown suite '%s' (see 'bpfbench suite --list')", argv[1]);
		ret = EXIT_USAGE;
	}
	if (!ret)
		ret = check_extra_used(&p, argv[1]);
	if (!ret && help)
		suite_steps(&p);
	else if (!ret && plan_needs_bpf(&p))
		ret = run_check_privileges();
	if (!ret && !help) {
		plan_check(&p);
		ret = run_plan(&p);
	}
	plan_free(&p);
	return ret;
}

/* ---- sweeps ---- */

/* The option --sweep names: one that takes a value and says what is measured. */
static const struct opt_def *sweep_opt(const struct bench *b, const char *name)
{
	const struct opt_def *o = opts_find(global_opts, name);
	const size_t out_only[] = { OPT_OFF(struct run_opts, json_path),
				    OPT_OFF(struct run_opts, csv_path),
				    OPT_OFF(struct run_opts, md_path),
				    OPT_OFF(struct run_opts, sweep) };
	bool global = o;
	size_t i;

	if (!o)
		o = opts_find(b->opts, name);
	if (!o) {
		errmsg("--sweep: '%s' is not an option of %s or a global option",
		       name, b->name);
		return NULL;
	}
	for (i = 0; global && i < ARRAY_SIZE(out_only); i++) {
		if (o->off == out_only[i]) {
			errmsg("--sweep: --%s cannot be swept", o->name);
			return NULL;
		}
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

int sweep_run(int argc, char **argv, const struct run_spec *spec)
{
	struct plan p = { 0 };
	int i, ret;

	p.out = (struct export_paths){ spec->opts.json_path, spec->opts.csv_path,
				       spec->opts.md_path };
	ret = build_sweep(&p, argc, argv, spec);
	if (!ret) {
		plan_check(&p);
		for (i = 0; i < p.n; i++)
			if (p.steps[i].bad)	/* the value was named on stderr */
				ret = EXIT_USAGE;
	}
	if (!ret)
		ret = run_plan(&p);
	plan_free(&p);
	return ret;
}
