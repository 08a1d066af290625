/* SPDX-License-Identifier: GPL-2.0 */
/* Between the sampler (profile.c) and its symbolizer (profile_sym.c). */
#ifndef BPFBENCH_PROFILE_INT_H
#define BPFBENCH_PROFILE_INT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "profile.h"

/* A distinct raw callchain (leaf first, as the kernel gives it, context markers kept). */
struct raw_stack {
	uint64_t hash, count;
	uint32_t nr;
	uint64_t *ips;
};

struct raw_table {
	size_t cap, n;
	struct raw_stack *slots;
};

/* The executable mappings of the profiled process: user frames are named by module. */
struct user_map {
	uint64_t start, end;
	char name[64];
};

struct user_maps {
	int n, cap;
	struct user_map *m;
};

void raw_add(struct raw_table *t, const uint64_t *ips, uint32_t nr);
void raw_free(struct raw_table *t);
/* Adds tgid's executable mappings (a later read wins where they overlap). */
void maps_read(struct user_maps *m, pid_t tgid);
void maps_free(struct user_maps *m);
/* Names the raw stacks' frames and adds them, folded, to p. */
void profile_fold(struct profile *p, const struct raw_table *t, const struct user_maps *m,
		  pid_t tgid);

#endif
