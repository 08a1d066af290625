/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The views of a profile (src/run/profile.h): the collapsed stacks
 * FlameGraph, inferno and speedscope read, a flame graph SVG of our own
 * (Debian packages no generator), and the top table the human summary
 * and the JSON carry.
 */
#ifndef BPFBENCH_FLAME_H
#define BPFBENCH_FLAME_H

#include <stdio.h>
#include "jsonw.h"
#include "profile.h"
#include "result.h"

#define PROF_TOP_HUMAN	10
#define PROF_TOP_JSON	25

/* A profile with what it was taken of, for the files' headers and the SVG's title. */
struct prof_view {
	const struct profile *p;
	const char *title;	/* "bpfbench bpf-loop -d 1": what ran */
	double ns_per_op;	/* NAN: the run has no rate to attribute */
	const char *basis;	/* what ns_per_op is, for the table's total; NULL: unsaid */
};

/* ns per op of a run: 1e3 / its first "M ops/s" rate (scaled for k, G); NAN if none. */
double prof_ns_per_op(const struct run_result *res);
/* What prof_ns_per_op() is: "the wall time of an op, 1 / throughput 602.406 M ops/s". */
void prof_ns_basis(const struct run_result *res, char *buf, size_t len);
/* "bpfbench BENCH -w 0 -d 1 --opt v": the run's command, options at their default left out. */
void prof_run_title(const struct run_result *res, char *buf, size_t len);
/* "cpu-clock at 999 Hz, 1234 samples (0 lost)". */
void prof_conditions(const struct profile *p, char *buf, size_t len);

/* The ops a run measured: its first rate x the measured time; NAN if it has no rate. */
double run_ops(const struct run_result *res);
/* --counters: the per-op lines, and the JSON's "counters" object. */
void counters_lines(FILE *out, const struct run_result *res);
void counters_json(struct jsonw *w, const struct run_result *res);

/*
 * The top table, at most n functions by self share, the rest in one row
 * and the total the ns/op column adds up to; a note where the samples are
 * too few for the shares to mean much.
 */
void prof_top_lines(FILE *out, const struct prof_view *v, int n);
/* A run's table, and how its ns/op stands to the Summary's where they differ. */
void prof_run_lines(FILE *out, const struct run_result *res);
/* The JSON's "profile" object. */
void prof_json(struct jsonw *w, const struct prof_view *v);
/* Folded stacks, "# "-lines first (the standard tools skip them): 0 or -errno. */
void prof_write_folded(FILE *f, void *view);
/* The SVG (flame.c). */
void prof_write_svg(FILE *f, void *view);
/* A vs B: the max functions whose self share moved most (prof_diff.c). */
void prof_diff_print(FILE *out, const struct prof_view *a, const struct prof_view *b, int max);
/* The view into each profile format of paths[OUT_NR]; 0, or 1 after a line per file not written. */
int prof_write_view(const struct prof_view *v, const char *const *paths);
/* --folded and --flame of one run; 0, or 1 after a line saying which failed. */
int prof_write_files(const struct run_result *res);

#endif
