/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BPFBENCH_VM_H
#define BPFBENCH_VM_H

#include <stdbool.h>
#include "subcmd.h"

/*
 * Another kernel: `bpfbench --kernel K ARGS` and `bpfbench ab --kernel A
 * --kernel B "ARGS"` hand over to the VM runner's scripts (scripts/vm/,
 * installed under share/bpfbench/vm/), which boot K in QEMU and run this
 * same binary there.  vm_wanted() tells whether argv asks for it; subs
 * (main()'s table) says what each subcommand does under --kernel.
 * `bpfbench bisect` runs scripts/vm/bisect.sh, which builds and boots
 * each commit it tries.
 */
bool vm_wanted(int argc, char **argv, bool ab);
int vm_exec(int argc, char **argv, bool ab, const struct subcommand *subs);
/* `bpfbench bisect ...`: scripts/vm/bisect.sh, its --json FILE written here. */
int bisect_cmd(int argc, char **argv);

#endif
