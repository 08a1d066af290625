/* SPDX-License-Identifier: GPL-2.0 */
/*
 * maps family, user side: map types (types.c), the passes and their
 * oracle (engine.c), options, metrics and table entries (maps.c).
 */
#ifndef BPFBENCH_MAPS_MP_H
#define BPFBENCH_MAPS_MP_H

#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <linux/types.h>
#include "bench.h"
#include "bench_shared.h"
#include "maps.h"

#define MP_MAX_ENTRIES	(1u << 24)	/* keys stay below MAPS_ABSENT */
#define MP_ROUND_MIN	65536		/* lookups/updates per producer and pass, at least */
#define MP_SAMPLE_NS	50000000ull	/* a sample: passes until 50 ms have gone by */
#define MP_LRU_BATCH	128		/* LOCAL_FREE_TARGET, kernel/bpf/bpf_lru_list.c */

enum mp_op { MP_LOOKUP, MP_UPDATE, MP_DELETE, MP_PEEK, MP_PUSH, MP_POP, MP__NR };

enum mp_class {
	MP_HASH,	/* keyed, any key: the hash family */
	MP_ARRAY,	/* keyed by index < max_entries, always full */
	MP_LPM,		/* keyed by prefix length + data */
	MP_QUEUE,	/* no keys: push and pop, FIFO */
	MP_STACK,	/* no keys: push and pop, LIFO */
};

struct mp_type {
	const char *name;
	uint32_t type;		/* BPF_MAP_TYPE_* */
	uint32_t flags;		/* create flags the type is made with */
	enum mp_class cls;
	bool lru, percpu;
	bool prealloc_optional;	/* --no_prealloc allowed */
	int probe;		/* enum probe_id, or MP_OWN_PROBE */
};

#define MP_OWN_PROBE	(-1)	/* no probe of the core's: probed here by creating one */

/* What tells map-lookup from map-update, ...: the ops a run times, in execution order. */
struct mp_variant {
	int nr_keyed;		/* 0: refuses keyed types */
	enum mp_op keyed[3];
	int nr_queued;		/* 0: refuses queue and stack */
	enum mp_op queued[3];
	bool multi;		/* map-ops: a figure per op, no throughput */
};

struct maps_args {
	int map_type;		/* index into mp_types */
	uint64_t map_type_nr;	/* non-zero: this BPF_MAP_TYPE_* number, hash-like */
	uint64_t key_size;
	uint64_t value_size;
	uint64_t max_entries;
	uint64_t nr_entries;	/* 0: max_entries * fill / 100 */
	uint64_t fill;
	uint64_t hit;
	bool no_prealloc;
	bool latency;
	uint64_t latency_every;
};

/* A run's configuration, resolved from its options. */
struct mp_conf {
	const struct mp_type *t;
	struct mp_type raw;	/* --map_type_nr */
	char raw_name[32];
	uint32_t map_key;	/* the map's key size: LPM adds 4, queues have none */
	uint32_t value_size;
	uint32_t max_entries;
	uint32_t flags;		/* create flags */
	uint32_t n;		/* keys [0, n) (queues: values) the map holds when an op starts */
	uint32_t range;		/* keys updates cycle over */
	uint32_t hit;
	int nr_prod;
	int nr_ops;
	enum mp_op ops[3];
};

/* Per op, what a sample's passes added up to. */
struct mp_acc {
	uint64_t ops, ns, wall, hits, misses;
	uint64_t elements;	/* counted after the sample's last pass */
};

struct mp_pool {
	int n;			/* threads made (producers 1..n) */
	int failed;		/* the producer whose thread could not be made, 0: none */
	pthread_t th[MAPS_MAX_PROD];
	int cpu[MAPS_MAX_PROD];	/* -1: not pinned */
	int err[MAPS_MAX_PROD];
	pthread_mutex_t mu;
	pthread_cond_t go, done;
	unsigned int gen;
	int pending;
	bool quit, inited;
	bool pinned;		/* the calling thread is producer 0, pinned */
	cpu_set_t saved;	/* its affinity before */
	int fd;			/* the program of the pass under way */
};

/* Where each figure goes in a sample's values (-1: the run has none). */
struct mp_metrics {
	int hits, misses, elements;
	int ns[MP__NR], ops[MP__NR], kns[MP__NR];	/* map-ops: per op */
	int wall;			/* --latency, one op kind: wall_latency */
	int sampled[MP__NR];		/* --latency: the ops the histogram took in the sample */
};

enum mp_fill_state { MP_UNKNOWN, MP_FILLED, MP_EMPTY, MP_DIRTY };

struct maps_bpf;

struct mp_state {
	struct maps_bpf *skel;
	struct mp_conf c;
	const struct run_opts *opts;
	int fd;			/* the map */
	uint32_t cap;		/* max_entries as the kernel made it */
	int prog_fd[MP__NR];
	enum mp_fill_state st;
	int fill_cpu;		/* common LRU: fills run on this CPU */
	struct mp_pool pool;
	struct mp_metrics m;
	/* --latency (latency.c) */
	uint64_t hist_every;	/* 0: off */
	int hist_fd;		/* the histogram map, kept across reloads; -1 */
	struct hist_bpf hist;
	int hist_runs;		/* run_once calls since setup */
	int hist_warm0;		/* the run's warm-up samples at setup */
};

/* types.c */
extern const struct mp_type mp_types[];
extern const char *const mp_type_names[];
int mp_probe_type(const struct bench_env *env, const struct mp_conf *c);
int mp_make_map(struct mp_state *s);
int mp_fill(struct mp_state *s);
int mp_empty(struct mp_state *s);
int mp_count(struct mp_state *s, uint64_t *n);
void mp_key(const struct mp_conf *c, uint32_t index, void *key);
const char *mp_op_name(enum mp_op op);
bool mp_queued(const struct mp_conf *c);

/* engine.c */
int mp_load(struct bench_env *env, struct mp_state *s);
void mp_unload(struct mp_state *s);
int mp_pool_start(struct mp_state *s);
void mp_pool_stop(struct mp_state *s);
int mp_sample(struct bench_env *env, struct mp_acc *acc);
uint64_t mp_lru_slack(void);
uint32_t mp_lru_full(uint32_t max_entries);

/* latency.c */
#define MP_HIST_EVERY_STR	"1"
void mp_hist_metrics(struct bench_env *env, const struct mp_conf *c, struct mp_metrics *m);
int mp_hist_create(struct bench_env *env, struct mp_state *s);
int mp_hist_prepare(struct mp_state *s);
int mp_hist_open(struct bench_env *env, struct mp_state *s);
void mp_hist_run_begin(struct bench_env *env, struct mp_state *s);
void mp_hist_run_end(struct bench_env *env, struct mp_state *s, double *vals);
void mp_hist_close(struct bench_env *env, struct mp_state *s);

#endif
