/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shell completion written from the option tables, so that it offers
 * exactly what the parser accepts: `bpfbench completion bash|zsh`.
 */
#ifndef BPFBENCH_COMPLETE_H
#define BPFBENCH_COMPLETE_H

/*
 * argv[0] is "completion", argv[1] the shell.  subcmds: the subcommands
 * main() dispatches, NULL terminated.  Returns the exit code.
 */
int complete_cmd(int argc, char **argv, const char *const *subcmds);

#endif
