/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BPFBENCH_SUITE_H
#define BPFBENCH_SUITE_H

#include "opts.h"

struct run_spec;

/* bpfbench suite NAME [options] | suite --list */
int suite_cmd(int argc, char **argv);
/* Its own options as --help, completion and the docs show them (after NAME: the global ones). */
extern const struct opt_def suite_opts[];
/* bpfbench [options] BENCH --sweep PARAM=V1,V2,...: argv as given to main, already parsed once. */
int sweep_run(int argc, char **argv, const struct run_spec *spec);
/* The same plan, built and checked, not run (the fuzzer's entry). */
int sweep_check(int argc, char **argv, const struct run_spec *spec);

#endif
