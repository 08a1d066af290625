/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lpm-trie: the contract between lpm_trie.bpf.c and user space, and what
 * the family's two user-side files (lpm_trie.c: the operations;
 * lpm_trie_free.c: the free) share.
 *
 * Every trie holds (or, for insert, will hold) the keys [0, nr_entries),
 * key i's data as lpm_key_data() makes it.
 */
#ifndef BPFBENCH_LPM_TRIE_H
#define BPFBENCH_LPM_TRIE_H

#define LPM_LOOPS	10000	/* operations per program run, as the kernel's bench */
/*
 * --latency: ops per timed batch (LPM_LOOPS a multiple of it), and one
 * batch in this many timed by default
 */
#define LPM_HIST_BATCH	16
#define LPM_HIST_EVERY_STR	"64"
#define LPM_RESET	1	/* a run's return: the trie is full (insert) or empty (delete) */
#define LPM_MAX_PROD	1024	/* producers the counters hold: BENCH_MAX_THREADS */
#define LPM_PKT_PROD	32	/* where in the test-run packet the producer's index is (u32) */

enum lpm_op { LPM_NOOP, LPM_BASELINE, LPM_LOOKUP, LPM_INSERT, LPM_UPDATE, LPM_DELETE };

/* The trie's key: prefix length, then up to 32 bits of data (the trie reads it bytewise). */
struct lpm_key {
	__u32 prefixlen;
	__u32 data;
};

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define LPM_LE32(x)	(x)
#define LPM_BE32(x)	__builtin_bswap32(x)
#else
#define LPM_LE32(x)	__builtin_bswap32(x)
#define LPM_BE32(x)	(x)
#endif

/*
 * Key i's data, on both sides.  Where the prefix is whole bytes, the
 * kernel bench's key: i as a little-endian u32 (what its `data = i` is on
 * x86), whose first prefix_len bits are i's low bytes, distinct for
 * i < 2^prefix_len; consecutive keys part at the first byte, so a walk of
 * them shares little of the trie's upper path.  Otherwise i in the
 * first prefix_len bits, big-endian: distinct and gapless, where the
 * kernel bench's keys would collide.
 */
static inline __u32 lpm_key_data(__u32 i, __u32 prefix_len)
{
	if (prefix_len % 8 == 0)
		return LPM_LE32(i);
	return LPM_BE32(i << (32 - prefix_len));
}

/*
 * What one producer's program runs did, alone on its cache line: the
 * producer passes its index in the packet, so the figures can be told
 * apart by producer (and add up over all of them) whatever CPU ran them.
 */
struct lpm_prod {
	__u64 ops;	/* operations done */
	__u64 ns;	/* in-kernel time of the runs' loops: bpf_ktime_get_ns() around each */
	__u64 pad[6];
} __attribute__((aligned(64)));

#ifndef __bpf__
#include <stdbool.h>
#include <stdint.h>
#include <linux/types.h>
#include "bench.h"

#define LPM_MAX_ENTRIES	(1u << 24)

/* Every option of the family; lpm-trie-free uses its own subset. */
struct lpm_args {
	uint64_t nr_entries;
	uint64_t prefix_len;
	bool random;
	bool verify;
	bool latency;
	uint64_t latency_every;
	int free_method;	/* lpm-trie-free: enum free_method */
};

/* The key set [0, nr_entries) and a value for each, for user-space fills. */
struct lpm_keys {
	struct lpm_key *keys;
	__u32 *vals;
	uint32_t n;
};

int lpm_keys_make(struct lpm_keys *k, const struct lpm_args *a);
void lpm_keys_free(struct lpm_keys *k);
/* Puts every key in (update) or takes every key out of the trie at fd: batched where possible. */
int lpm_fill(const struct lpm_keys *k, int fd);
int lpm_empty(const struct lpm_keys *k, int fd);
/* The checks every lpm-trie benchmark makes: 0 or -EINVAL after one line. */
int lpm_check_keys(const struct bench_env *env);
#endif

#endif
