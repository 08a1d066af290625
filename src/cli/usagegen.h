/* SPDX-License-Identifier: GPL-2.0 */
/*
 * doc/usage.md's generated parts, written from the option tables and the
 * subcommands' table as the man page's are (mangen.h): the committed
 * doc/usage.md is what this prints (tests/docs.t; make usage-md).
 */
#ifndef BPFBENCH_USAGEGEN_H
#define BPFBENCH_USAGEGEN_H

#include "subcmd.h"

/*
 * `bpfbench gen-usage TEMPLATE.md.in`: copies the template to stdout,
 * expanding the lines @SYNOPSIS@ (a line per subcommand of subs),
 * @GLOBAL_OPTIONS@ and @SUBCOMMANDS@ (a section per subcommand: what it
 * does, its synopsis, what --kernel does with it, its options).
 */
int usagegen_cmd(int argc, char **argv, const struct subcommand *subs);

#endif
