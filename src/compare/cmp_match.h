/* SPDX-License-Identifier: GPL-2.0 */
/*
 * compare's run matching (src/compare/cmp_match.c): which run of OLD is which
 * run of NEW, which one is closest when none is, and the names runs are
 * printed under, in time about linear in the number of runs.
 */
#ifndef BPFBENCH_CMP_MATCH_H
#define BPFBENCH_CMP_MATCH_H

#include <stdbool.h>
#include <stddef.h>
#include "resdoc.h"
#include "cmp_cli.h"

/*
 * What matching keeps of two documents: each run's identity hashed, and
 * indexes of them, built once (cmp_match_init) for pair_runs(),
 * cmp_closest() and cmp_run_name().
 */
struct cmp_match;

struct cmp_match *cmp_match_init(const struct cmp_args *a, const struct res_doc *old,
				 const struct res_doc *new);
void cmp_match_free(struct cmp_match *m);
/* For each run of NEW, the index of its partner in OLD or -1; used[] marks OLD's; their number. */
int cmp_pair_runs(struct cmp_match *m, int *pair, bool *used);
/* The run of the other document with the fewest differences from run ri, and what they are. */
void cmp_closest(struct cmp_match *m, int ri, bool r_is_new, char *buf, size_t len);
/*
 * The names of the parts (options, label, ...) run ri of NEW differs in
 * from its closest run of OLD of the same benchmark, comma-joined as
 * --ignore-option takes them; their number, 0 when no run of OLD is of
 * that benchmark.
 */
int cmp_closest_names(struct cmp_match *m, int ri, char *buf, size_t len);
/*
 * bench[: section][: label], each part said once ("bpf-loop nr_loops=100"
 * for a sweep's run), and the options that tell it from a run of the same
 * name (malloc'ed).
 */
char *cmp_run_name(struct cmp_match *m, bool is_new, int ri);
/*
 * The name alone, in buf (cut to size): bench, section and label, without
 * a section or label's start that repeats the benchmark or the suite, and
 * a sweep's section when the label names the swept value (cmp_name.c).
 */
#define CMP_NAME_MAX	1024
void cmp_short_name(const struct res_run *r, char *buf, size_t size);

/* The parts of a run's identity that are not options: bench, suite, section, label. */
bool cmp_is_fixed_part(const char *name);
/* The value of a part of r's identity (a fixed part or a recorded option), or NULL. */
const char *cmp_part_value(const struct res_run *r, const char *name);

#endif
