/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BPFBENCH_DB_CLI_H
#define BPFBENCH_DB_CLI_H

#include "opts.h"

/* bpfbench db record FILE.json... | show BENCH | changes [BENCH] | export --otava-csv BENCH */
int db_cmd(int argc, char **argv);
/* Its options as --help, completion and the docs show them (its parser takes these names). */
extern const struct opt_def db_opts[];

#endif
