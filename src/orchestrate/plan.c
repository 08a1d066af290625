// SPDX-License-Identifier: GPL-2.0
/*
 * Plans: a suite or sweep is a list of command lines run one after the
 * other in this process, printed as one table with a row per run, the way
 * the kernel's run_bench_*.sh scripts summarize theirs.
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
#include "args.h"
#include "export.h"
#include "rows.h"
#include "plan.h"
#include "runner.h"
#include "util.h"

#define STEP_SETUP_S	0.5	/* rough cost of loading a step's programs, for the estimate */

/*
 * How a suite samples a row unless told otherwise (-d or --precision):
 * short periods until the 95% CI of the first metric is within 2% of its
 * mean, at most 1 s, so quiet rows stop after three samples and `suite
 * seeds` (313 such rows) fits in 10 minutes on 2 vCPUs.  Each row then
 * states the precision it reached; a longer cap buys little on a noisy
 * host (doc/suites-exports-plots.md).
 */
static const char *const adaptive_opts[] = {
	"--precision", "2", "--max-duration", "1", "--period-ms", "200", "-w", "0.2",
};



char *plan_own(struct plan *p, char *s)
{
	if (!s)
		die("out of memory");
	p->owned = realloc(p->owned, (p->nr_owned + 1) * sizeof(*p->owned));
	if (!p->owned)
		die("out of memory");
	p->owned[p->nr_owned++] = s;
	return s;
}

char *plan_printf(struct plan *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

char *plan_printf(struct plan *p, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	return plan_own(p, s);
}

struct step *plan_add(struct plan *p, const char *header, const char *label)
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

void step_push(struct step *s, char *arg)
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
void step_push_words(struct plan *p, struct step *s, const char *args)
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
void step_push_extra(struct plan *p, struct step *s)
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

bool plan_needs_bpf(const struct plan *p)
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
int check_extra_used(const struct plan *p, const char *suite)
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

void plan_free(struct plan *p)
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
	verbose = spec->opts.verbose;
	if (spec->bench && !cli_validate(spec))
		return true;
	run_spec_free(spec);
	return false;
}

/* A step's error, told once however many steps share it. */
struct plan_errors {
	char msg[8][300];
	int count[8];
	int n, more;
};

static void note_error(struct plan_errors *e, const char *msg)
{
	int i;

	for (i = 0; i < e->n; i++) {
		if (!strcmp(e->msg[i], msg)) {
			e->count[i]++;
			return;
		}
	}
	if (e->n == (int)ARRAY_SIZE(e->msg)) {
		e->more++;
		return;
	}
	snprintf(e->msg[e->n], sizeof(e->msg[0]), "%s", msg);
	e->count[e->n++] = 1;
}

static void print_errors(const struct plan_errors *e)
{
	int i;

	for (i = 0; i < e->n; i++) {
		if (e->count[i] > 1)
			errmsg("%s (%d steps)", e->msg[i], e->count[i]);
		else
			errmsg("%s", e->msg[i]);
	}
	if (e->more)
		errmsg("and %d more steps with other errors", e->more);
}

int plan_check(struct plan *p)
{
	const struct run_opts *o;
	struct plan_errors e = { .n = 0 };
	struct run_spec spec;
	struct step *s;
	bool was = errmsg_mute(true);
	int i;

	for (i = 0; i < p->n; i++) {
		s = &p->steps[i];
		errmsg_forget();
		s->bad = !step_parse(s, &spec);
		if (s->bad) {
			note_error(&e, errmsg_last());
			continue;
		}
		o = &spec.opts;
		s->bench = spec.bench->name;
		s->planned_s = (o->warmup_ms / 1e3 + STEP_SETUP_S + run_opts_measure_ms(o) / 1e3) *
			       o->runs;
		s->runs = (int)o->runs;
		s->precise = o->precision_pct > 0;
		run_spec_free(&spec);
	}
	errmsg_mute(was);
	print_errors(&e);
	return e.n ? EXIT_USAGE : 0;
}

void step_args(const struct step *s, int from, int argc, char *buf, size_t len)
{
	size_t off = 0;
	int i;

	buf[0] = 0;
	for (i = from; i < argc && off < len; i++)
		off += snprintf(buf + off, len - off, "%s%s", i > from ? " " : "", s->argv[i]);
}

void plan_run_step(const struct step *s, const char *section, struct result_row *row, int runs)
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
	if (runs > 0)
		spec.opts.runs = (uint64_t)runs;
	spec.opts.batch = true;	/* the row is the summary */
	spec.opts.quiet = true;
	row->status = run_bench(&spec, NULL, &row->res);
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

void plan_progress(const struct plan *p, int i, uint64_t t0)
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
	progress_line("[%d/%d] %s (%s), about %s left ", i + 1, p->n, s->label, s->bench ?: "?",
		      when);
}

/*
 * A signal stopped the plan in step n + 1: the step it cut short is
 * dropped, the n before it are whole rows, and the exports hold just
 * those (JSON marks the document interrupted).  With none, nothing is
 * written and an older file stays as it was.
 */
static int plan_interrupted(const struct plan *p, int n, bool figures)
{
	bool files = out_any(p->out.path, OUT_K_ROWS);
	int sig = interrupted_signal();

	if (p->cut_round)
		errmsg("interrupted by signal %d in round %d of %d, after %d of %d steps%s", sig,
		       p->cut_round, p->cut_rounds, n, p->n, !files ? "" :
		       ": the files hold each one's finished repetitions, marked interrupted");
	else if (!n)
		errmsg("interrupted by signal %d before the first of %d steps completed%s", sig,
		       p->n, files ? ": nothing written" : "");
	else
		errmsg("interrupted by signal %d after %d of %d steps%s", sig, n, p->n,
		       !files ? "" : figures ? ": the files hold those, marked interrupted" :
		       ": none measured anything, nothing written");
	return 128 + sig;
}

static bool has_figures(const struct result_row *rows, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (row_has_figures(&rows[i]))
			return true;
	return false;
}

/*
 * After the table: the steps that failed, by reason, on stderr (the
 * table may have gone to a file or scrolled away, and a suite mutes each
 * step's own line), and why no file was written when no step measured
 * anything.  The status: 4 when every step was skipped.
 */
static int plan_outcome(const struct plan *p, const struct result_row *rows, int n, int status)
{
	bool files = out_any(p->out.path, OUT_K_ROWS);
	struct plan_errors e = { .n = 0 };
	int i, failed = 0, skipped = 0, figures = 0;

	for (i = 0; i < n; i++) {
		figures += row_has_figures(&rows[i]);
		skipped += rows[i].status == EXIT_SKIP;
		if (rows[i].status && rows[i].status != EXIT_SKIP) {
			failed++;
			note_error(&e, rows[i].note);
		}
	}
	if (figures) {
		if (failed)
			errmsg("%s: %d of %d steps failed:", p->title, failed, n);
	} else if (failed) {
		errmsg("%s: %s %d steps failed%s:", p->title, failed == n ? "all" : "no step measured "
		       "anything;", failed, files ? ", nothing written (an older file stays)" : "");
	} else if (n) {
		errmsg("%s: all %d steps were skipped%s", p->title, skipped,
		       files ? ", nothing written (an older file stays)" : "");
		return EXIT_SKIP;
	}
	print_errors(&e);
	return status;
}

/* Every row's label and section before any runs: the table's label column fits them all. */
static struct result_row *plan_rows(const struct plan *p)
{
	struct result_row *rows = xcalloc(p->n ? p->n : 1, sizeof(*rows));
	int i;

	for (i = 0; i < p->n; i++) {
		rows[i].label = p->steps[i].label;
		rows[i].header = p->steps[i].header;
	}
	return rows;
}

/*
 * The steps, a section at a time, each section's rows handed to the
 * output layer as it ends (rows.h), then the exports of every row
 * (export.h): the plan runs steps and draws nothing itself.
 */
int run_plan(struct plan *p)
{
	struct result_row *rows = plan_rows(p);
	struct rows_table *t = rows_table_open(&p->out, rows, p->n, !p->adaptive);
	int i, n, end, rounds, status = 0;
	const char *section = NULL;
	uint64_t t0 = now_ns();

	p->tty = stderr_is_tty();
	for (n = 0; n < p->n && !interrupted(); n = end) {
		if (p->steps[n].header)
			section = p->steps[n].header;
		end = plan_section_end(p, n);
		rounds = plan_rounds(p, n, end);
		if (rounds) {
			end = plan_run_rounds(p, n, end, rounds, section, rows, t0);
		} else {
			end = n + 1;
			plan_progress(p, n, t0);
			plan_run_step(&p->steps[n], section, &rows[n], 0);
		}
		progress_line_end();
		/* the step cut short is dropped; rounds keep their rows' finished repetitions */
		if (interrupted() && (!rounds || end == n))
			break;
		rows_table_section(t, rows, n, end);
		for (i = n; i < end; i++)
			if (rows[i].status && rows[i].status != EXIT_SKIP)
				status = 1;
		if (interrupted()) {
			n = end;
			break;
		}
	}
	rows_table_close(t, rows, n);
	if (interrupted())
		status = plan_interrupted(p, n, has_figures(rows, n));
	else
		status = plan_outcome(p, rows, n, status);
	/* the rows it completed, never a file of no figures over a good one */
	if (has_figures(rows, n) && export_rows(&p->out, p->title, rows, n) && !status)
		status = 1;
	for (i = 0; i < p->n; i++)
		run_result_free(&rows[i].res);
	free(rows);
	return status;
}
