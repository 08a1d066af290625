/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Human output of one run: the kernel bench's lines ("Setting up",
 * "Iter", "Summary") and ours ("Stats", "Runs", "Totals", "Precision").
 * What a run prints follows its own options: -q keeps the Summary only,
 * a suite step (opts->batch) prints nothing and the suite prints its row.
 */
#ifndef BPFBENCH_REPORT_H
#define BPFBENCH_REPORT_H

#include <stdint.h>
#include <stdio.h>
#include "bench.h"
#include "result.h"

struct run_observer;

/* Where human output goes: stdout, or stderr while an export (--json/--csv/--md -) takes stdout. */
FILE *report_out(const struct run_opts *o);
/* lead and text on out, broken at blanks into lines of at most 120 columns, the later indented by two. */
void report_wrapped(FILE *out, const char *lead, const char *text);
/* The lines of a run as it goes (Setting up, Iter): NULL under -q and in a suite step. */
const struct run_observer *report_observer(const struct run_opts *o);
/* A run's figures for a human: every line, or under -q the Summary alone (the shape's, last). */
void report_summary(FILE *out, const struct run_result *res);
/* "noisy", "loaded" or NULL: what the noise under its samples did to a run's figure (e: how). */
const char *report_noise_word(const struct run_result *res, struct noise_effect *e);
/* What a noise word means, for a table's legend. */
const char *report_noise_legend(const char *word);
/* The benchmark's method and notes, each said once (also after a failure). */
void report_notes(FILE *out, const struct run_result *res);
/* ab: what the benchmarks said of how they measured, once for all the pairs, once if A and B agree. */
void report_pair_notes(FILE *out, const struct run_result *ra, const struct run_result *rb,
		       const char *name_a, const char *name_b);

#endif
