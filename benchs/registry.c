// SPDX-License-Identifier: GPL-2.0
/*
 * The table of families: adding one is a folder benchs/FAMILY/ that
 * defines `const struct family family_FAMILY` and its line here
 * (tests/registry.t checks the rest: names, folder, tests, docs).
 */
#include "bench.h"

#define FAMILIES(F)	\
	F(noop)		\
	F(bpf_loop)	\
	F(bpf_for)	\
	F(bloom)	\
	F(lpm_trie)	\
	F(map_batch)	\
	F(htab_mem)	\
	F(ringbufs)	\
	F(maps)		\
	F(attach)	\
	F(rename)	\
	F(count)	\
	F(bpf_hashmap)	\
	F(strncmp)	\
	F(local_storage)

#define FAMILY_EXTERN(f)	extern const struct family family_##f;
#define FAMILY_ENTRY(f)		&family_##f,

FAMILIES(FAMILY_EXTERN)

const struct family *const family_table[] = {
	FAMILIES(FAMILY_ENTRY)
	NULL,
};
