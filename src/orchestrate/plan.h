/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A plan: the command lines of a suite or a sweep, checked before anything
 * runs, then run one after the other into one table (src/orchestrate/plan.c); the
 * suites and sweeps that build plans are in src/orchestrate/suite.c.
 */
#ifndef BPFBENCH_PLAN_H
#define BPFBENCH_PLAN_H

#include <stdbool.h>
#include "export.h"

#define SWEEP_MAX	1000

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
	int runs;		/* -r: its repetitions, once parsed */
	bool precise;		/* --precision: it repeats until a CI is reached */
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
	bool record;		/* --record: out.json into the history once written */
	const char *db;		/* --db: that history's database; NULL: the default */
	bool tty;		/* progress line on stderr */
	int cut_round;		/* a signal came in round k of cut_rounds, rows kept; else 0 */
	int cut_rounds;
};

char *plan_own(struct plan *p, char *s);
char *plan_printf(struct plan *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
struct step *plan_add(struct plan *p, const char *header, const char *label);
void step_push(struct step *s, char *arg);
void step_push_words(struct plan *p, struct step *s, const char *args);
void step_push_extra(struct plan *p, struct step *s);
bool plan_needs_bpf(const struct plan *p);
int check_extra_used(const struct plan *p, const char *suite);
void plan_free(struct plan *p);
/* Parses every step before anything runs: 0, or EXIT_USAGE after one line per distinct error. */
int plan_check(struct plan *p);
void step_args(const struct step *s, int from, int argc, char *buf, size_t len);
int run_plan(struct plan *p);
/* One step into row; runs > 0: that many repetitions instead of its -r. */
void plan_run_step(const struct step *s, const char *section, struct result_row *row, int runs);
void plan_progress(const struct plan *p, int i, uint64_t t0);

/* rounds.c: a table's rows under -r N take turns, repetition by repetition. */
int plan_section_end(const struct plan *p, int from);
int plan_rounds(const struct plan *p, int from, int to);
/*
 * Runs the section [from, to) in rounds; the end of its rows that hold
 * something: to, or after a signal those that finished a repetition
 * (each kept with its finished ones, marked interrupted; p->cut_round).
 */
int plan_run_rounds(struct plan *p, int from, int to, int rounds, const char *section,
		    struct result_row *rows, uint64_t t0);

#endif
