/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BPFBENCH_SUITE_H
#define BPFBENCH_SUITE_H

struct run_spec;

/* bpfbench suite NAME [options] | suite --list */
int suite_cmd(int argc, char **argv);
/* bpfbench [options] BENCH --sweep PARAM=V1,V2,...: argv as given to main, already parsed once. */
int sweep_run(int argc, char **argv, const struct run_spec *spec);
/* The same plan, built and checked, not run (the fuzzer's entry). */
int sweep_check(int argc, char **argv, const struct run_spec *spec);

#endif
