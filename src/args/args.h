/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BPFBENCH_ARGS_H
#define BPFBENCH_ARGS_H

#include <stdbool.h>
#include <stdint.h>
#include "opts.h"
#include "run_opts.h"

/*
 * Parses `[global options] BENCH [bench options]` in any order ("--"
 * ends the options).  Returns 0 with spec filled (free it with
 * run_spec_free), or EXIT_USAGE after printing one line naming the
 * problem (spec then holds nothing to free).  It sets no global: the
 * caller sets util.h's verbose from spec->opts.verbose when it runs with
 * these options.
 */
int cli_parse(int argc, char **argv, struct run_spec *spec);
enum opt_scope { OPT_SCOPE_NONE, OPT_SCOPE_GLOBAL, OPT_SCOPE_BENCH };
/*
 * What an option word is for: a global option, one of b's (b NULL: of
 * any benchmark), or neither; *takes_value if the next word is its value.
 */
enum opt_scope cli_option_scope(const char *word, const struct bench *b, bool *takes_value);
/* Whether the words (options with their values) set the global option name. */
bool cli_words_set(int argc, char **argv, const char *name);
/* Index of the first word that is not an option or an option's value, or -1. */
int cli_first_word(int argc, char **argv);
/* Checks cross-option rules for the chosen benchmark; EXIT_USAGE on error. */
int cli_validate(struct run_spec *spec);
/* The global options' own checks, whatever the benchmark (a suite's, once); EXIT_USAGE on error. */
int cli_check_globals(struct run_opts *o);
/*
 * --max-duration without --precision bounds nothing: refused where the
 * user typed the run (a suite's steps take --precision from the suite).
 */
int cli_check_max_duration(const struct run_opts *o);
/* "bpfbench: error: ..." on stderr; returns EXIT_USAGE. */
int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* " (did you mean WHAT'name'?)" when typed is close to a suite's name, else "". */
const char *suite_suggest(char *buf, size_t len, const char *what, const char *typed);
/* At most one export on stdout; EXIT_USAGE after one line otherwise. */
int cli_check_outputs(const struct run_opts *o);

#endif
