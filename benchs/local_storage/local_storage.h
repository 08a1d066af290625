/* SPDX-License-Identifier: GPL-2.0 */
/* local-storage: what its programs and user space share. */
#ifndef BPFBENCH_LOCAL_STORAGE_H
#define BPFBENCH_LOCAL_STORAGE_H

#define LS_MAX_MAPS	1000		/* the outer arrays' size: upstream's nr_maps bound */
#define LS_HASHMAP_SZ	4194304		/* each control hash map's entries, all filled */
#define LS_LOOPS	10000		/* gets a program run: upstream's bpf_loop count */

/* struct bench_slot's extra[]: hits are gets, drops unused */
enum {
	LS_SLOT_IMPORTANT,	/* gets of map 0, the "important" one */
	LS_SLOT_CREATED,	/* task storages the gets created (found zeroed, then marked) */
	LS_SLOT_MISSED,		/* gets that found no value (NULL) */
	LS_SLOT_WRONG,		/* gets whose value was not the one its map's storage holds */
};

/* local-storage-create's extra[]: hits are the storages created */
enum {
	LS_SLOT_KMALLOCS,	/* kmallocs on the machine, any task's */
	LS_SLOT_CREATE_ERRS,	/* creations that failed (no storage returned) */
};

#endif
