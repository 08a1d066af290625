/* SPDX-License-Identifier: GPL-2.0 */
/* strncmp: the strings' size and the counts beside hits, shared by both sides. */
#ifndef BPFBENCH_STRNCMP_H
#define BPFBENCH_STRNCMP_H

/* both strings' buffers, as upstream's: --cmp-str-len is at most one less */
#define STRNCMP_STR_SZ		4096

/*
 * extra[] words: runs whose result was 0 or positive.  hits counts the
 * negative ones, upstream's definition; with upstream's strings every run
 * is one, and these two stay 0.
 */
#define STRNCMP_SLOT_EQUAL	0
#define STRNCMP_SLOT_GREATER	1

#endif
