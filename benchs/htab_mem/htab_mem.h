/* SPDX-License-Identifier: GPL-2.0 */
/* htab-mem: what its BPF side and user side agree on. */
#ifndef BPFBENCH_HTAB_MEM_H
#define BPFBENCH_HTAB_MEM_H

/* Elements one program run works on: the unit the kernel's bench counts in. */
#define HTAB_MEM_BATCH		64
#define HTAB_MEM_VALUE_MAX	4096
/* struct bench_slot extra[] index: runs that deleted (a share of the hits) */
#define HTAB_MEM_SLOT_DELS	0

enum htab_mem_use_case {
	HTAB_MEM_OVERWRITE,		/* overwrite own 64 keys: 1 op */
	HTAB_MEM_BATCH_ADD_DEL,		/* add own 64 keys, delete them: 2 ops */
	HTAB_MEM_ADD_DEL_DIFF_CPU,	/* even producer adds 64, its odd partner deletes them: 1 op each */
};

#endif
