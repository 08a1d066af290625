// SPDX-License-Identifier: GPL-2.0
/*
 * The skeleton sequence of a family (bench.h): our tgid and the
 * histograms' rate into its rodata, the trigger among its programs,
 * load, the latency histograms into the run's result, attach; and the
 * end of its teardown.  The runner's, as what it writes is the result's.
 */
#include <stdlib.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <bpf/libbpf.h>
#include "bench.h"

const struct metric_def bench_sampled_metric = { "sampled_ops", "ops", METRIC_COUNT };

static bool skel_has_trigger(const struct bench_skel *sk)
{
	return sk->progs.test_run || sk->progs.raw_tp || sk->progs.fentry;
}

int bench_skel_load(struct bench_env *env, const struct bench_skel *sk, unsigned int every,
		    struct hist_bpf *hb, int *m_sampled)
{
	int err = 0;

	*sk->tgid = getpid();
	*sk->getpgid_nr = __NR_getpgid;
	if (sk->hist_map) {
		*sk->hist_every = every;
		bpf_program__set_autoload(sk->hist_clock, every != 0);
		bpf_map__set_max_entries(sk->hist_map, every ? HIST_MAP_ENTRIES : 1);
	}
	if (skel_has_trigger(sk))
		err = trigger_prepare(env, &sk->progs);
	err = err ?: bpf_object__load_skeleton(sk->obj);
	if (!err && every) {
		*m_sampled = bench_add_metric(env, &bench_sampled_metric);
		err = hist_bpf_open(hb, env, bpf_map__fd(sk->hist_map), bpf_program__fd(sk->hist_clock),
				    sk->clock_q, "op", "latency");
	}
	return err;
}

int bench_skel_setup(struct bench_env *env, const struct bench_skel *sk, unsigned int every,
		     struct hist_bpf *hb, int *m_sampled)
{
	return bench_skel_load(env, sk, every, hb, m_sampled) ?: trigger_attach(&env->trig);
}

void bench_skel_teardown(struct bench_env *env, struct hist_bpf *hb,
			 struct bpf_object_skeleton *obj, void *skel)
{
	if (hb)
		hist_bpf_close(hb, env);
	if (obj)
		bpf_object__destroy_skeleton(obj);
	free(skel);
	free(env->priv);
	env->priv = NULL;
}
