/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The man page's generated parts, written from the option and benchmark
 * tables so that the page never drifts from the parser.
 */
#ifndef BPFBENCH_MANGEN_H
#define BPFBENCH_MANGEN_H

#include <stdio.h>
#include "subcmd.h"

/*
 * A template (argv[1], the only word after cmd's) to stdout, each line
 * through copy, which writes it or what it stands for: gen-man's and
 * gen-usage's loop.  0, or the exit status after a line.
 */
int template_copy(const char *cmd, int argc, char **argv, void (*copy)(FILE *, const char *));

/*
 * `bpfbench gen-man TEMPLATE.scd.in` (used by the build): copies the
 * template to stdout, expanding the lines @GLOBAL_OPTIONS@,
 * @SUBCOMMAND_OPTIONS@ (of subs, main()'s table), @BENCHMARKS@ and
 * @SUITES@, and @VERSION@ anywhere, into scdoc(5).
 */
int mangen_cmd(int argc, char **argv, const struct subcommand *subs);

#endif
