/* SPDX-License-Identifier: GPL-2.0 */
/* What the parts of a row's verdict share (verdict.c, and its tests: verdict_tests.c). */
#ifndef BPFBENCH_VERDICT_INT_H
#define BPFBENCH_VERDICT_INT_H

#include <stdbool.h>
#include "resdoc.h"
#include "verdict.h"

void run_tests(struct cmp_row *row, const struct res_run *orun, const struct res_run *nrun,
	       const struct cmp_opts *o);
bool samples_only(const struct cmp_row *row);

#endif
