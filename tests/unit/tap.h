/* SPDX-License-Identifier: GPL-2.0 */
/* The TAP lines of the C tests that check plain conditions (tests/unit, tests/kernel). */
#ifndef BPFBENCH_TESTS_TAP_H
#define BPFBENCH_TESTS_TAP_H

#include <stdbool.h>
#include <stdio.h>

static int test_num;
static int failures;

static inline void ok(bool cond, const char *what)
{
	test_num++;
	if (!cond)
		failures++;
	printf("%sok %d - %s\n", cond ? "" : "not ", test_num, what);
}

#endif
