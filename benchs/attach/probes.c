// SPDX-License-Identifier: GPL-2.0
/*
 * The attach family's own probes (bpfbench probe lists them under the
 * family), and the two attach steps libbpf 1.1 lacks: a uprobe.multi
 * link, and a function's offset in our own binary.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "bench.h"
#include "attach.h"

/* Newer than Debian's 6.1 uapi headers; values are the kernel's ABI. */
#define ATTACH_TRACE_UPROBE_MULTI	48
#define ATTACH_UPROBE_MULTI_RETURN	(1U << 0)
#define ATTACH_LINK_CREATE		28

/* BPF_LINK_CREATE's uprobe_multi, laid out as union bpf_attr has it (6.6+). */
struct uprobe_multi_attr {
	__u32 prog_fd, target_fd, attach_type, flags;
	__u64 path, offsets, ref_ctr_offsets, cookies;
	__u32 cnt, multi_flags, pid;
} __attribute__((aligned(8)));

int attach_uprobe_multi_link(int prog_fd, const char *path, unsigned long offset, int retprobe)
{
	struct uprobe_multi_attr a;
	__u64 off = offset;
	long fd;

	memset(&a, 0, sizeof(a));
	a.prog_fd = prog_fd;
	a.attach_type = ATTACH_TRACE_UPROBE_MULTI;
	a.path = (unsigned long)path;
	a.offsets = (unsigned long)&off;
	a.cnt = 1;
	a.multi_flags = retprobe ? ATTACH_UPROBE_MULTI_RETURN : 0;
	fd = syscall(__NR_bpf, ATTACH_LINK_CREATE, &a, sizeof(a));
	return fd < 0 ? -errno : (int)fd;
}

/* Where fn lies in the file mapped at it: its mapping's start and file offset. */
int attach_file_offset(const void *fn, unsigned long *off)
{
	unsigned long start, end, pgoff, addr = (unsigned long)fn;
	char perms[8], line[512];
	FILE *f = fopen("/proc/self/maps", "re");
	int err = -ESRCH;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx %7s %lx", &start, &end, perms, &pgoff) != 4)
			continue;
		if (addr >= start && addr < end && perms[2] == 'x') {
			*off = addr - start + pgoff;
			err = 0;
			break;
		}
	}
	fclose(f);
	return err;
}

/* A perf PMU the kernel registers only when built with it: kprobe, uprobe. */
static int pmu_present(const char *pmu, char *detail, size_t len)
{
	char path[96];

	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/type", pmu);
	if (access(path, R_OK) == 0) {
		snprintf(detail, len, "perf PMU %s", pmu);
		return 1;
	}
	snprintf(detail, len, "no perf PMU %s (%s): kernel built without %s", pmu, path,
		 !strcmp(pmu, "kprobe") ? "CONFIG_KPROBE_EVENTS" : "CONFIG_UPROBE_EVENTS");
	return 0;
}

int attach_probe_kprobe(char *detail, size_t len)
{
	return pmu_present("kprobe", detail, len);
}

int attach_probe_uprobe(char *detail, size_t len)
{
	return pmu_present("uprobe", detail, len);
}

/* A 2-insn program of type and attach type; its fd or -errno, the reason in detail. */
static int load_tiny(enum bpf_prog_type type, int attach, char *detail, size_t len)
{
	const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	LIBBPF_OPTS(bpf_prog_load_opts, o, .expected_attach_type = attach);
	int fd = bpf_prog_load(type, NULL, "GPL", insns, 2, &o);

	if (fd < 0)
		snprintf(detail, len, "load refused: %s", strerror(errno));
	return fd < 0 ? -errno : fd;
}

/* 1 attached, 0 refused by the kernel (why in detail), -EPERM not ours to tell. */
static int link_outcome(int link, const char *what, char *detail, size_t len)
{
	if (link >= 0) {
		close(link);
		snprintf(detail, len, "%s attached", what);
		return 1;
	}
	snprintf(detail, len, "%s refused: %s", what, strerror(-link));
	return link == -EPERM || link == -EACCES ? -EPERM : 0;
}

int attach_probe_kprobe_multi(char *detail, size_t len)
{
	const char *sym = "bpf_get_numa_node_id";
	LIBBPF_OPTS(bpf_link_create_opts, lo);
	int fd, link;

	fd = load_tiny(BPF_PROG_TYPE_KPROBE, BPF_TRACE_KPROBE_MULTI, detail, len);
	if (fd < 0)
		return fd == -EPERM ? -EPERM : 0;
	lo.kprobe_multi.syms = &sym;
	lo.kprobe_multi.cnt = 1;
	link = bpf_link_create(fd, 0, BPF_TRACE_KPROBE_MULTI, &lo);
	link = link < 0 ? -errno : link;
	close(fd);
	return link_outcome(link, "kprobe.multi on bpf_get_numa_node_id", detail, len);
}

int attach_probe_uprobe_multi(char *detail, size_t len)
{
	unsigned long off;
	int fd, link, err;

	err = attach_file_offset((const void *)attach_target_nop, &off);
	if (err) {
		snprintf(detail, len, "cannot find our own code in /proc/self/maps");
		return err;
	}
	fd = load_tiny(BPF_PROG_TYPE_KPROBE, ATTACH_TRACE_UPROBE_MULTI, detail, len);
	if (fd < 0)
		return fd == -EPERM ? -EPERM : 0;
	link = attach_uprobe_multi_link(fd, "/proc/self/exe", off, 0);
	close(fd);
	return link_outcome(link, "uprobe.multi on our own binary", detail, len);
}

/* The test kfunc and its tracepoint: tp, raw_tp and fmod_ret's driver calls it. */
int attach_probe_test_kfunc(char *detail, size_t len)
{
	struct btf *vmlinux = btf__load_vmlinux_btf();
	bool fn, tp;

	if (!vmlinux) {
		snprintf(detail, len, "no kernel BTF (/sys/kernel/btf/vmlinux)");
		return 0;
	}
	fn = btf__find_by_name_kind(vmlinux, "bpf_modify_return_test_tp", BTF_KIND_FUNC) > 0;
	tp = btf__find_by_name_kind(vmlinux, "btf_trace_bpf_trigger_tp", BTF_KIND_TYPEDEF) > 0;
	btf__free(vmlinux);
	if (fn && tp) {
		snprintf(detail, len, "kfunc bpf_modify_return_test_tp, tracepoint bpf_trigger_tp");
		return 1;
	}
	snprintf(detail, len, "this kernel lacks %s (6.10+)",
		 fn ? "the bpf_trigger_tp tracepoint" : "the kfunc bpf_modify_return_test_tp");
	return 0;
}
