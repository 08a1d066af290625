// SPDX-License-Identifier: GPL-2.0
/*
 * attach: what one hit of a BPF program costs per attach type, as the
 * kernel bench's trigger family measures it.  Every attached program
 * only counts its hit on its CPU's slot; the figure is hits per second.
 *
 * Kernel-side types are driven from a test-run of a raw_tp "driver"
 * program that calls the probed kernel function batch_iters times per
 * run: bpf_get_numa_node_id() (a helper: kprobe, kretprobe, their multi
 * forms, fentry, fexit), or the kfunc bpf_modify_return_test_tp(), which
 * fires the bpf_trigger_tp tracepoint (tp, raw_tp) and is fmod_ret's
 * target.  kernel-count counts in the driver itself: the ceiling.
 * User-side types (uprobe, uretprobe, their multi forms, usdt) probe
 * functions in bpfbench's own binary (benchs/attach/targets.c).
 *
 * Every program is loaded only where its benchmark needs it ("?").
 * libbpf 1.1 (Debian 12) knows no "uprobe.multi" section: that program
 * is a plain kprobe-type one whose attach type is set before load.
 */
#include "bench_common.bpf.h"
#include <bpf/usdt.bpf.h>

const volatile __u32 batch_iters = 100;

extern int bpf_modify_return_test_tp(int nonce) __ksym __weak;

static __always_inline int hit(void)
{
	bench_add_hits(1);
	return 0;
}

SEC("?raw_tp")
int attach_kernel_count(void *ctx)
{
	__u32 i;

	for (i = 0; i < batch_iters; i++)
		hit();
	return 0;
}

SEC("?raw_tp")
int attach_driver(void *ctx)
{
	__u32 i;

	for (i = 0; i < batch_iters; i++)
		(void)bpf_get_numa_node_id();
	return 0;
}

SEC("?raw_tp")
int attach_driver_kfunc(void *ctx)
{
	__u32 i;

	for (i = 0; i < batch_iters; i++)
		(void)bpf_modify_return_test_tp(0);
	return 0;
}

SEC("?kprobe/bpf_get_numa_node_id")
int attach_kprobe(void *ctx)
{
	return hit();
}

SEC("?kretprobe/bpf_get_numa_node_id")
int attach_kretprobe(void *ctx)
{
	return hit();
}

SEC("?kprobe.multi/bpf_get_numa_node_id")
int attach_kprobe_multi(void *ctx)
{
	return hit();
}

SEC("?kretprobe.multi/bpf_get_numa_node_id")
int attach_kretprobe_multi(void *ctx)
{
	return hit();
}

/* -all: attached to every other traceable kernel function, counting nothing */
SEC("?kprobe.multi")
int attach_kprobe_multi_empty(void *ctx)
{
	return 0;
}

SEC("?kretprobe.multi")
int attach_kretprobe_multi_empty(void *ctx)
{
	return 0;
}

SEC("?fentry/bpf_get_numa_node_id")
int attach_fentry(void *ctx)
{
	return hit();
}

SEC("?fexit/bpf_get_numa_node_id")
int attach_fexit(void *ctx)
{
	return hit();
}

SEC("?fmod_ret/bpf_modify_return_test_tp")
int attach_fmodret(void *ctx)
{
	hit();
	return -22;
}

SEC("?tp/bpf_test_run/bpf_trigger_tp")
int attach_tp(void *ctx)
{
	return hit();
}

SEC("?raw_tp/bpf_trigger_tp")
int attach_rawtp(void *ctx)
{
	return hit();
}

SEC("?uprobe")
int attach_uprobe(void *ctx)
{
	return hit();
}

/* attach type BPF_TRACE_UPROBE_MULTI, set by user space before load */
SEC("?kprobe")
int attach_uprobe_multi(void *ctx)
{
	return hit();
}

SEC("?usdt")
int attach_usdt(void *ctx)
{
	return hit();
}
