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

struct addrs {
	int n, cap;
	uint64_t *a;
};

struct ksym {
	uint64_t addr;
	char *name;
};

struct ksyms {
	size_t n, cap;
	struct ksym *s;
};

/*
 * The programs the process held as it ran: a command unloads its own
 * before it exits, and their kallsyms names go with them, so each new
 * one is noted while it is loaded.
 */
struct prog_watch {
	struct addrs ids;	/* prog ids seen */
	struct addrs images;	/* their JIT'ed images' addresses: ours */
	struct ksyms syms;	/* kallsyms' [bpf] symbols, read when a new program appeared */
};

/* Notes the programs tgid holds now (cheap unless one is new). */
void prog_watch(struct prog_watch *w, pid_t tgid);
void prog_watch_free(struct prog_watch *w);
void raw_add(struct raw_table *t, const uint64_t *ips, uint32_t nr);
void raw_free(struct raw_table *t);
/* Adds tgid's executable mappings (a later read wins where they overlap). */
void maps_read(struct user_maps *m, pid_t tgid);
void maps_free(struct user_maps *m);
/* Names the raw stacks' frames and adds them, folded, to p. */
void profile_fold(struct profile *p, const struct raw_table *t, const struct user_maps *m,
		  struct prog_watch *w, pid_t tgid);

#endif
