/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Feature probes: what this kernel, with our privileges, lets a benchmark
 * use.  Each probe does the real operation a benchmark would do (load,
 * attach, create, test-run) and tears it down again, so the answer is
 * "usable here", not "compiled into the kernel".
 */
#ifndef BPFBENCH_PROBE_H
#define BPFBENCH_PROBE_H

#include <stddef.h>

/* Newer than Debian's uapi headers: the ring buffer's overwrite mode (6.19). */
#ifndef BPF_F_RB_OVERWRITE
#define BPF_F_RB_OVERWRITE	(1U << 19)
#endif

enum probe_id {
	PROBE_BPF_SYSCALL,	/* bpf() works with our privileges (load a 2-insn socket filter) */
	PROBE_PRIV,		/* detail: "root", "CAP_BPF+CAP_PERFMON", or what is missing (capget) */
	PROBE_PROG_XDP, PROBE_PROG_RAW_TP, PROBE_PROG_TRACING, PROBE_PROG_SYSCALL,
	PROBE_TRIG_TEST_RUN,	/* 2-insn tc prog, BPF_PROG_TEST_RUN repeat=2 on a 64-byte packet */
	PROBE_TRIG_TEST_RUN_ON_CPU, /* raw_tp test_run with BPF_F_TEST_RUN_ON_CPU, cpu 0 */
	PROBE_TRIG_RAW_TP,	/* raw_tp prog attached to "sys_enter", then detached */
	PROBE_TRIG_TP_BTF,	/* tracing/BPF_TRACE_RAW_TP on btf_trace_sys_enter, attached */
	PROBE_TRIG_FENTRY,	/* BPF_TRACE_FENTRY on getpgid's syscall handler; errno in detail */
	PROBE_HELPER_BPF_LOOP,	/* libbpf_probe_bpf_helper(BPF_PROG_TYPE_XDP, BPF_FUNC_loop) */
	PROBE_MAP_HASH, PROBE_MAP_PERCPU_HASH, PROBE_MAP_LRU_HASH, PROBE_MAP_ARRAY, PROBE_MAP_PERCPU_ARRAY,
	PROBE_MAP_RINGBUF, PROBE_MAP_PERF_EVENT_ARRAY, PROBE_MAP_BLOOM_FILTER, PROBE_MAP_LPM_TRIE,
	PROBE_MAP_BATCH_OPS,	/* lookup_batch on an empty hash: ENOENT => supported */
	PROBE_RB_OVERWRITE,	/* ringbuf with BPF_F_RB_OVERWRITE; EINVAL => missing */
	PROBE_MEMCG,		/* detail: "v2:<path>", "v1:<path>" or "none" */
	PROBE_TRACEFS, PROBE_BPFFS,	/* mounted? */
	PROBE_KALLSYMS,		/* /proc/kallsyms readable with real (non-zero) addresses */
	PROBE_BTF_VMLINUX,	/* /sys/kernel/btf/vmlinux loads */
	PROBE__COUNT
};

/*
 * 1: available, 0: missing, negative: could not tell (-errno).  "Missing"
 * includes the kernel refusing it to a process with the privileges
 * bpfbench needs (a policy, a lockdown); the detail says which.  Negative
 * means the probe itself could not run (e.g. no vmlinux BTF to look a
 * target up in), and -EPERM that we lack the privileges to ask: the detail
 * then says "no permission", and a caller must report that (exit 1),
 * never a missing kernel feature (exit 4).
 *
 * detail (may be NULL) gets a short human reason.  Results are cached per
 * process; call from the main thread only.
 */
int probe_feature(enum probe_id id, char *detail, size_t len);

/* Stable snake_case key, e.g. "trigger_fentry"; NULL for a bad id. */
const char *probe_name(enum probe_id id);

#endif
