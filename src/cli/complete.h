/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shell completion written from the option tables, so that it offers
 * exactly what the parser accepts: `bpfbench completion bash|zsh`.
 */
#ifndef BPFBENCH_COMPLETE_H
#define BPFBENCH_COMPLETE_H

#include "subcmd.h"

/*
 * argv[0] is "completion", argv[1] the shell.  subs: the subcommands
 * main() dispatches (src/cli/subcmds.c), their options and positional
 * words.  Returns the exit code.
 */
int complete_cmd(int argc, char **argv, const struct subcommand *subs);
/* completion's own options, as its --help and the docs show them. */
extern const struct opt_def completion_opts[];

#endif
