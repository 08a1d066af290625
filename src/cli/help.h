/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BPFBENCH_HELP_H
#define BPFBENCH_HELP_H

struct bench;

void cli_usage(void);
void cli_list(void);
/* --list-families: a family a line. */
void cli_list_families(void);
void cli_bench_help(const struct bench *b);

#endif
