// SPDX-License-Identifier: GPL-2.0
/*
 * Feature probes: the cache and the probes of the
 * system around BPF (privileges, mounts, kallsyms, BTF); the BPF ones are
 * in probe_bpf.c.  Every probe performs the operation a benchmark would
 * rely on and closes whatever it created before returning, on every path:
 * running `bpfbench probe` must leave no program, map or link behind.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <linux/capability.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "probe.h"
#include "probe_int.h"
#include "sysfs.h"
#include "util.h"

struct probe_cache {
	bool done;
	int ret;
	char detail[DETAIL_MAX];
};

static struct probe_cache cache[PROBE__COUNT];

void probe_detail(char *d, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(d, len, fmt, ap);
	va_end(ap);
}

static bool cap_has(const struct __user_cap_data_struct *data, int cap)
{
	return data[cap / 32].effective & (1U << (cap % 32));
}

bool probe_capable(int cap)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];

	memset(data, 0, sizeof(data));
	if (syscall(SYS_capget, &hdr, data))
		return false;
	return cap_has(data, cap) || cap_has(data, CAP_SYS_ADMIN);
}

static int probe_priv(char *d, size_t len)
{
	struct __user_cap_header_struct hdr = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];
	bool sys_admin, cap_bpf, perfmon;

	memset(data, 0, sizeof(data));
	if (syscall(SYS_capget, &hdr, data)) {
		int err = -errno;

		probe_detail(d, len, "%s: capget failed", errname(err));
		return err;
	}
	sys_admin = cap_has(data, CAP_SYS_ADMIN);
	cap_bpf = cap_has(data, CAP_BPF);
	perfmon = cap_has(data, CAP_PERFMON);

	if (sys_admin && geteuid() == 0) {
		probe_detail(d, len, "root");
		return 1;
	}
	if (cap_bpf && perfmon) {
		/* XDP and other networking programs also want NET_ADMIN. */
		probe_detail(d, len, "CAP_BPF+CAP_PERFMON%s",
			   cap_has(data, CAP_NET_ADMIN) ? "" :
			   " (no CAP_NET_ADMIN)");
		return 1;
	}
	/* Kernels before 5.8 have no CAP_BPF; SYS_ADMIN covers it all. */
	if (sys_admin) {
		probe_detail(d, len, "CAP_SYS_ADMIN");
		return 1;
	}
	probe_detail(d, len, "missing %s%s%s",
		   cap_bpf ? "" : "CAP_BPF",
		   !cap_bpf && !perfmon ? "+" : "",
		   perfmon ? "" : "CAP_PERFMON");
	return 0;
}

static int probe_mounted(char *d, size_t len, const char *fstype)
{
	char dir[PATH_MAX];
	int ret = mount_find(fstype, dir, sizeof(dir));

	if (ret < 0)
		probe_detail(d, len, "%s: no mount table", errname(ret));
	else if (ret)
		probe_detail(d, len, "%s", dir);
	else
		probe_detail(d, len, "not mounted");
	return ret;
}

static int probe_tracefs(char *d, size_t len)
{
	return probe_mounted(d, len, "tracefs");
}

static int probe_bpffs(char *d, size_t len)
{
	return probe_mounted(d, len, "bpf");
}

static int probe_memcg(char *d, size_t len)
{
	struct cg_mount m;
	int ret = cgroup_memory_mount(&m);

	if (ret < 0)
		probe_detail(d, len, "%s: no mount table", errname(ret));
	else if (ret)
		probe_detail(d, len, "v%d:%s", m.version, m.dir);
	else
		probe_detail(d, len, "none");
	return ret;
}

static int probe_kallsyms(char *d, size_t len)
{
	FILE *f = fopen("/proc/kallsyms", "re");
	char line[256];
	int lines = 0;

	if (!f) {
		int err = -errno;

		probe_detail(d, len, "%s: /proc/kallsyms unreadable",
			   errname(err));
		return 0;
	}
	/* kptr_restrict zeroes every address, so a few lines decide. */
	while (lines < 64 && fgets(line, sizeof(line), f)) {
		lines++;
		if (strtoull(line, NULL, 16)) {
			fclose(f);
			probe_detail(d, len, "real addresses visible");
			return 1;
		}
	}
	fclose(f);
	probe_detail(d, len, lines ? "addresses hidden (kptr_restrict)" :
		   "empty");
	return 0;
}

static int probe_btf_vmlinux(char *d, size_t len)
{
	struct btf *btf = btf__load_vmlinux_btf();

	if (!btf) {
		int err = errno ? -errno : -ENOENT;

		probe_detail(d, len, "%s: vmlinux BTF not loadable",
			   errname(err));
		return 0;
	}
	probe_detail(d, len, "%u types", btf__type_cnt(btf));
	btf__free(btf);
	return 1;
}

/*
 * kconfig: the options (CONFIG_ left off) a kernel needs for the probe to
 * find the feature; scripts/vm/bpfbench.config has them all, which
 * tests/vm_kernel_config.t checks against this column.
 */
static const struct {
	const char *name;
	probe_fn fn;
	const char *kconfig;
} probes[PROBE__COUNT] = {
	[PROBE_BPF_SYSCALL]		= { "bpf_syscall", probe_bpf_syscall, "BPF_SYSCALL NET" },
	[PROBE_PRIV]			= { "privileges", probe_priv, "" },
	[PROBE_PROG_XDP]		= { "prog_xdp", probe_prog_xdp, "BPF_SYSCALL NET" },
	[PROBE_PROG_RAW_TP]		= { "prog_raw_tp", probe_prog_raw_tp, "BPF_EVENTS" },
	[PROBE_PROG_TRACING]		= { "prog_tracing", probe_prog_tracing, "DEBUG_INFO_BTF BPF_JIT" },
	[PROBE_PROG_SYSCALL]		= { "prog_syscall", probe_prog_syscall, "BPF_SYSCALL" },
	[PROBE_TRIG_TEST_RUN]		= { "trigger_test_run", probe_trig_test_run, "NET" },
	[PROBE_TRIG_TEST_RUN_ON_CPU]	= { "trigger_test_run_on_cpu", probe_trig_test_run_on_cpu, "BPF_EVENTS" },
	[PROBE_TRIG_RAW_TP]		= { "trigger_raw_tp", probe_trig_raw_tp, "BPF_EVENTS" },
	[PROBE_TRIG_TP_BTF]		= { "trigger_tp_btf", probe_trig_tp_btf, "BPF_EVENTS DEBUG_INFO_BTF" },
	[PROBE_TRIG_FENTRY]		= { "trigger_fentry", probe_trig_fentry, "DEBUG_INFO_BTF BPF_JIT FUNCTION_TRACER DYNAMIC_FTRACE_WITH_DIRECT_CALLS" },
	[PROBE_HELPER_BPF_LOOP]		= { "helper_bpf_loop", probe_helper_bpf_loop, "BPF_SYSCALL" },
	[PROBE_MAP_HASH]		= { "map_hash", probe_map_hash, "BPF_SYSCALL" },
	[PROBE_MAP_PERCPU_HASH]		= { "map_percpu_hash", probe_map_percpu_hash, "BPF_SYSCALL" },
	[PROBE_MAP_LRU_HASH]		= { "map_lru_hash", probe_map_lru_hash, "BPF_SYSCALL" },
	[PROBE_MAP_ARRAY]		= { "map_array", probe_map_array, "BPF_SYSCALL" },
	[PROBE_MAP_PERCPU_ARRAY]	= { "map_percpu_array", probe_map_percpu_array, "BPF_SYSCALL" },
	[PROBE_MAP_RINGBUF]		= { "map_ringbuf", probe_map_ringbuf, "BPF_SYSCALL" },
	[PROBE_MAP_PERF_EVENT_ARRAY]	= { "map_perf_event_array", probe_map_perf_event_array, "PERF_EVENTS" },
	[PROBE_MAP_BLOOM_FILTER]	= { "map_bloom_filter", probe_map_bloom_filter, "BPF_SYSCALL" },
	[PROBE_MAP_LPM_TRIE]		= { "map_lpm_trie", probe_map_lpm_trie, "BPF_SYSCALL" },
	[PROBE_MAP_BATCH_OPS]		= { "map_batch_ops", probe_map_batch_ops, "BPF_SYSCALL" },
	[PROBE_RB_OVERWRITE]		= { "rb_overwrite", probe_rb_overwrite, "BPF_SYSCALL" },
	[PROBE_MEMCG]			= { "memcg", probe_memcg, "MEMCG" },
	[PROBE_TRACEFS]			= { "tracefs", probe_tracefs, "FTRACE" },
	[PROBE_BPFFS]			= { "bpffs", probe_bpffs, "BPF_SYSCALL" },
	[PROBE_KALLSYMS]		= { "kallsyms", probe_kallsyms, "KALLSYMS" },
	[PROBE_BTF_VMLINUX]		= { "btf_vmlinux", probe_btf_vmlinux, "DEBUG_INFO_BTF" },
};

const char *probe_name(enum probe_id id)
{
	if ((unsigned int)id >= PROBE__COUNT)
		return NULL;
	return probes[id].name;
}

int probe_feature(enum probe_id id, char *detail, size_t len)
{
	struct probe_cache *c;

	if ((unsigned int)id >= PROBE__COUNT || !probes[id].fn) {
		if (detail && len)
			probe_detail(detail, len, "unknown probe");
		return -EINVAL;
	}
	c = &cache[id];
	if (!c->done) {
		/* Probes fail by design; libbpf should not warn about it. */
		libbpf_print_fn_t prev = libbpf_set_print(NULL);

		c->detail[0] = '\0';
		c->ret = probes[id].fn(c->detail, sizeof(c->detail));
		c->done = true;
		libbpf_set_print(prev);
	}
	if (detail && len)
		snprintf(detail, len, "%s", c->detail);
	return c->ret;
}
