/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BPFBENCH_BISECT_HELP_H
#define BPFBENCH_BISECT_HELP_H

#include "opts.h"

/*
 * bisect's options as --help, completion and the docs show them: the
 * parser is scripts/vm/bisect.sh's, which takes these names.
 */
extern const struct opt_def bisect_opts[];
void bisect_help(void);

#endif
