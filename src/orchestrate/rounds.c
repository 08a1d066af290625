// SPDX-License-Identifier: GPL-2.0
/*
 * A table's rows take turns.  The rows of one section of a suite (or of a
 * sweep) are read against each other: hash map with and without a bloom
 * filter, bpf_loop beside bpf_for, the LPM trie's ops beside its floor.
 * Under -r N their repetitions run round by round (A1 B1 C1, A2 B2 C2,
 * ...) instead of row by row (A1 A2 A3, B1 ...), so that a slow phase of
 * the host, which lasts seconds to minutes on a shared VM
 * (doc/variance.md), falls on every row alike rather than on whichever row
 * ran during it.  Each repetition is a whole run with its own warm-up and
 * setup, as -r's are; the row holds them as one run of N repetitions.
 */
#include <stdio.h>
#include <string.h>
#include "bench.h"
#include "export.h"
#include "plan.h"
#include "run_opts.h"
#include "util.h"

/* The step after the last of the section starting at from: the next header, or the end. */
int plan_section_end(const struct plan *p, int from)
{
	int i;

	for (i = from + 1; i < p->n && !p->steps[i].header; i++)
		;
	return i;
}

/*
 * The rounds the section [from, to) runs in: its -r when every row of it
 * repeats alike (two rows or more, no --precision, all parsed); else 0,
 * row after row.
 */
int plan_rounds(const struct plan *p, int from, int to)
{
	int i, runs = p->steps[from].runs;

	if (to - from < 2 || runs < 2)
		return 0;
	for (i = from; i < to; i++)
		if (p->steps[i].bad || p->steps[i].precise || p->steps[i].runs != runs)
			return 0;
	return runs;
}

/*
 * One repetition of a row, added to what it holds; a failure ends the
 * row.  One a signal cut short is dropped, as a suite drops the step it
 * cut short: what the row holds are whole repetitions.
 */
static void one_round(struct plan *p, int i, const char *section, struct result_row *row)
{
	struct result_row one = { .status = 0 };

	plan_run_step(&p->steps[i], section, &one, 1);
	if (one.res.interrupted || interrupted()) {
		run_result_free(&one.res);
		return;
	}
	if (one.status || !one.res.nr_samples) {
		run_result_free(&row->res);
		*row = one;
		row->status = row->status ?: 1;
		return;
	}
	row->header = one.header;
	row->section = one.section;
	row->label = one.label;
	row->suite = one.suite;
	run_result_append(&row->res, &one.res);
	row->res.sweep_param = one.res.sweep_param;
	run_result_free(&one.res);
}

/* The row as -r N makes it: its repetitions' statistics, and -r as given. */
static void finish_row(struct result_row *row, int rounds)
{
	struct run_result *r = &row->res;

	if (row->status || !r->bench)
		return;
	r->spec.opts.runs = (uint64_t)rounds;	/* its options, typed, now say -r N */
	run_result_finish(r);
}

/*
 * A signal ended the rounds: a row keeps the repetitions it finished, its
 * figures those of fewer than -r asked for, said so (status 128 + N and
 * "interrupted", as a single run a signal stopped after some samples).
 */
static void keep_row(struct result_row *row, int rounds)
{
	struct run_result *r = &row->res;

	if (row->status || !r->bench)
		return;
	finish_row(row, rounds);
	r->interrupted = true;
	r->signal = interrupted_signal();
	r->status = row->status = 128 + r->signal;
	snprintf(r->error, sizeof(r->error), "interrupted by signal %d after %d of %d "
		 "repetitions (%d sample%s, %.1f s measured)", r->signal, r->nr_repeats, rounds,
		 r->nr_samples, r->nr_samples == 1 ? "" : "s", r->wall_ns / 1e9);
	snprintf(row->note, sizeof(row->note), "%s", r->error);
}

int plan_run_rounds(struct plan *p, int from, int to, int rounds, const char *section,
		    struct result_row *rows, uint64_t t0)
{
	int k, i;

	for (k = 0; k < rounds && !interrupted(); k++) {
		for (i = from; i < to && !interrupted(); i++) {
			if (rows[i].status)
				continue;	/* failed or skipped in an earlier round */
			plan_progress(p, i, t0);
			one_round(p, i, section, &rows[i]);
		}
	}
	if (!interrupted()) {
		for (i = from; i < to; i++)
			finish_row(&rows[i], rounds);
		return to;
	}
	/* the rows that hold a repetition (or failed) are those before the cut of round 1 */
	for (i = from; i < to && (rows[i].res.bench || rows[i].status); i++)
		keep_row(&rows[i], rounds);
	if (i > from) {
		p->cut_round = k;
		p->cut_rounds = rounds;
	}
	return i;
}
