// SPDX-License-Identifier: GPL-2.0
/*
 * local-storage-tasks-trace: a task storage created and deleted at each
 * getpgid() of our process or of the sleepers it forked (each delete
 * frees through RCU Tasks Trace), and the grace periods of RCU Tasks
 * Trace timed from their start (rcu_tasks_trace_pregp_step) to their end
 * (rcu_tasks_trace_postgp), as upstream's.  Those two need fentry: where
 * the kernel refuses it the benchmark exits 4 (create.c's sibling,
 * tasks_trace.c).  hits are the get-and-deletes.
 */
#include "bench_common.bpf.h"

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, int);
} task_storage SEC(".maps");

__u64 gp_hits, gp_times, current_gp_start, unexpected;
bool postgp_seen;

/* Ours or a sleeper's: upstream's fentry runs for every task's getpgid(). */
static __always_inline void churn(void)
{
	struct task_struct *task = bpf_get_current_task_btf();
	int *s;

	if (task->tgid != bench_tgid && task->real_parent->tgid != bench_tgid)
		return;
	s = bpf_task_storage_get(&task_storage, task, NULL, BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (!s)
		return;
	*s = 3;
	bpf_task_storage_delete(&task_storage, task);
	__sync_fetch_and_add(&bench_my_slot()->hits, 1);
}

SEC("raw_tp/sys_enter")
int tt_get_raw_tp(struct bpf_raw_tracepoint_args *ctx)
{
	if (ctx->args[1] == bench_getpgid_nr)
		churn();
	return 0;
}

SEC("fentry")
int tt_get_fentry(void *ctx)
{
	churn();
	return 0;
}

SEC("fentry/rcu_tasks_trace_pregp_step")
int BPF_PROG(tt_pregp)
{
	current_gp_start = bpf_ktime_get_ns();
	return 0;
}

SEC("fentry/rcu_tasks_trace_postgp")
int BPF_PROG(tt_postgp)
{
	if (!current_gp_start && postgp_seen) {
		/* a grace period ended that we did not see start */
		__sync_fetch_and_add(&unexpected, 1);
		return 0;
	}
	__sync_fetch_and_add(&gp_times, bpf_ktime_get_ns() - current_gp_start);
	__sync_fetch_and_add(&gp_hits, 1);
	current_gp_start = 0;
	postgp_seen = true;
	return 0;
}
