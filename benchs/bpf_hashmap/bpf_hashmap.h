/* SPDX-License-Identifier: GPL-2.0 */
/* bpf-hashmap: what each CPU's slot holds beside hits and drops, shared by both sides. */
#ifndef BPFBENCH_BPF_HASHMAP_H
#define BPFBENCH_BPF_HASHMAP_H

/*
 * hits: updates tried (full-update) or lookups that found their key;
 * drops: lookups that did not (a miss ends its pass, as upstream's does).
 */
#define HM_SLOT_RUNS	0	/* extra[]: program runs on this CPU */
#define HM_SLOT_NS	1	/* extra[]: their timed nanoseconds, summed */
#define HM_SLOT_FULL	2	/* extra[]: updates refused with E2BIG (full-update) */

#define HM_FULL_ENTRIES	1000	/* full-update's map, filled to its max_entries */
#define HM_FULL_LOOPS	10000	/* full-update's updates per run (upstream's MAX_LOOP_NUM) */
#define HM_MAX_KEY	1024	/* lookup's largest key, the size of its key buffer */

#endif
