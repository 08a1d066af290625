/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BPFBENCH_SUBCMDS_H
#define BPFBENCH_SUBCMDS_H

#include "subcmd.h"

/*
 * Every subcommand main() dispatches, in the order --help lists them
 * (src/args/subcmd.h), ended by a NULL name: what main() runs, --help's
 * usage, completion, the man page, doc/usage.md and --kernel read.
 */
extern const struct subcommand subcommands[];

#endif
