// SPDX-License-Identifier: GPL-2.0
/*
 * htab-mem --latency: an op is the kernel bench's (one walk of 64
 * updates or deletes), timed inside the program one run in N per CPU.
 * Its mean is set beside latency, the inverse of per-prod-op: ns per op
 * of one producer.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "bench.h"
#include "htab_mem_hist.h"
#include "htab_mem.skel.h"

/* per-prod-op is k ops/s per producer: 1e6 / it is ns per op per producer */
static const struct metric_def latency_metric = {
	"latency", "ns/op", METRIC_INVERSE, .base = 0, .scale = 1e6,
};
static const struct metric_def sampled_metric = { "sampled_ops", "ops", METRIC_COUNT };

void htab_mem_hist_metrics(struct bench_env *env, bool on)
{
	if (!on)
		return;
	bench_add_metric(env, &latency_metric);
	bench_add_metric(env, &sampled_metric);
}

int htab_mem_hist_create(struct htab_mem_hist *h, uint64_t every)
{
	h->every = every;
	h->map_fd = bpf_map_create(BPF_MAP_TYPE_PERCPU_ARRAY, "hist_map", sizeof(__u32),
				   sizeof(struct hist_cpu), every ? HIST_MAP_ENTRIES : 1, NULL);
	return h->map_fd < 0 ? -errno : 0;
}

int htab_mem_hist_prepare(struct htab_mem_hist *h, struct htab_mem_bpf *skel)
{
	int err;

	HIST_SKEL_EVERY(skel, h->every);
	err = bpf_map__reuse_fd(skel->maps.hist_map, h->map_fd);
	/* the skeleton holds a copy of its own */
	close(h->map_fd);
	h->map_fd = -1;
	return err;
}

int htab_mem_hist_open(struct htab_mem_hist *h, struct htab_mem_bpf *skel, struct bench_env *env)
{
	if (!h->every)
		return 0;
	h->m_sampled = bench_add_metric(env, &sampled_metric);
	return HIST_SKEL_OPEN(&h->hb, skel, env, "op", "latency");
}

void htab_mem_hist_sample(struct htab_mem_hist *h, struct bench_env *env, double *vals)
{
	hist_bpf_measure(&h->hb, env, &vals[h->m_sampled]);
}

void htab_mem_hist_close(struct htab_mem_hist *h, struct bench_env *env)
{
	if (h->map_fd >= 0)
		close(h->map_fd);
	h->map_fd = -1;
	hist_bpf_close(&h->hb, env);
}
