/* SPDX-License-Identifier: GPL-2.0 */
/* One run of a benchmark (runner.c); what it produced is result.h's. */
#ifndef BPFBENCH_RUNNER_H
#define BPFBENCH_RUNNER_H

#include "result.h"
#include "run_opts.h"

/* 0, or 1 after one line naming the privilege bpf() lacks (before anything runs). */
int run_check_privileges(void);
/* Runs spec's benchmark with spec's options (copied into res); prints human output; fills res. */
int run_bench(const struct run_spec *spec, struct run_result *res);

#endif
