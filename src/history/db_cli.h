/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BPFBENCH_DB_CLI_H
#define BPFBENCH_DB_CLI_H

/* bpfbench db record FILE.json... | show BENCH | changes [BENCH] | export --otava-csv BENCH */
int db_cmd(int argc, char **argv);

#endif
