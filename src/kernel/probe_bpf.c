// SPDX-License-Identifier: GPL-2.0
/*
 * The BPF feature probes: bpf() itself, program types, triggers, helpers,
 * map types and flags.  Each loads, attaches, creates or test-runs what a
 * benchmark would and closes it again on every path.  EPERM is told apart
 * from a missing feature by our privileges (denied()).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "probe.h"
#include "probe_int.h"
#include "util.h"

/* Newer than the 6.1 uapi headers we build against. */
#ifndef BPF_F_TEST_RUN_ON_CPU
#define BPF_F_TEST_RUN_ON_CPU	(1U << 0)
#endif

#define INSN_MOV64_IMM(dst, val)					\
	((struct bpf_insn){ .code = BPF_ALU64 | BPF_MOV | BPF_K,	\
			    .dst_reg = (dst), .imm = (val) })
#define INSN_EXIT()							\
	((struct bpf_insn){ .code = BPF_JMP | BPF_EXIT })

/*
 * EPERM or EACCES.  With the privileges bpfbench needs, the kernel itself
 * refuses (a policy, a lockdown): missing, 0.  Without them nothing can be
 * told about the kernel: -EPERM, the detail saying permission, so that no
 * caller reports a missing feature where a privilege is missing.
 */
static int denied(char *d, size_t len, int err, const char *what)
{
	char priv[DETAIL_MAX];

	if (probe_feature(PROBE_PRIV, priv, sizeof(priv)) == 1) {
		probe_detail(d, len, "%s: %s refused by the kernel (we have %s)",
			   errname(err), what, priv);
		return 0;
	}
	probe_detail(d, len, "%s: no permission, %s refused (%s): cannot tell what the kernel offers",
		   errname(err), what, priv);
	return -EPERM;
}

static bool is_denial(int err)
{
	return err == -EPERM || err == -EACCES;
}

/* Load "r0 = ret; exit" as the given program type. */
static int load_ret(enum bpf_prog_type type, int ret,
		    const struct bpf_prog_load_opts *opts)
{
	const struct bpf_insn insns[] = {
		INSN_MOV64_IMM(BPF_REG_0, ret),
		INSN_EXIT(),
	};

	return bpf_prog_load(type, NULL, "GPL", insns, ARRAY_SIZE(insns), opts);
}

/* Most "is this usable" errors mean missing; say which kind of missing, or that we may not know. */
static int load_failed(char *d, size_t len, int err, const char *what)
{
	if (is_denial(err))
		return denied(d, len, err, what);
	if (err == -EINVAL)
		probe_detail(d, len, "EINVAL: %s unknown to this kernel", what);
	else
		probe_detail(d, len, "%s: %s failed to load",
			   errname(err), what);
	return 0;
}

int probe_bpf_syscall(char *d, size_t len)
{
	int fd = load_ret(BPF_PROG_TYPE_SOCKET_FILTER, 0, NULL);

	if (fd < 0) {
		if (fd == -ENOSYS)
			probe_detail(d, len, "ENOSYS: kernel built without bpf()");
		else if (fd == -EPERM)
			probe_detail(d, len, "EPERM: bpf() refused (privileges or unprivileged_bpf_disabled)");
		else
			probe_detail(d, len, "%s: socket filter load failed",
				   errname(fd));
		return 0;
	}
	close(fd);
	probe_detail(d, len, "socket filter loaded");
	return 1;
}

static int probe_prog_type(char *d, size_t len, enum bpf_prog_type type,
			   int ret, const struct bpf_prog_load_opts *opts,
			   const char *what)
{
	int fd = load_ret(type, ret, opts);

	if (fd < 0)
		return load_failed(d, len, fd, what);
	close(fd);
	probe_detail(d, len, "%s loaded", what);
	return 1;
}

int probe_prog_xdp(char *d, size_t len)
{
	return probe_prog_type(d, len, BPF_PROG_TYPE_XDP, XDP_PASS, NULL,
			       "XDP program");
}

int probe_prog_raw_tp(char *d, size_t len)
{
	return probe_prog_type(d, len, BPF_PROG_TYPE_RAW_TRACEPOINT, 0, NULL,
			       "raw_tp program");
}

int probe_prog_syscall(char *d, size_t len)
{
	/* The verifier only accepts sleepable syscall programs. */
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .prog_flags = BPF_F_SLEEPABLE);

	return probe_prog_type(d, len, BPF_PROG_TYPE_SYSCALL, 0, &opts,
			       "syscall program");
}

/*
 * Look a vmlinux BTF type up by name.  names is NULL-terminated; the first
 * one found wins and is stored in *found.  Returns its id, or -errno with
 * the reason in d.
 */
static int find_btf_id(const char *const *names, __u32 kind,
		       const char **found, char *d, size_t len)
{
	struct btf *btf = btf__load_vmlinux_btf();
	const char *const *p;
	int id = -ENOENT;

	if (!btf) {
		int err = errno ? -errno : -ENOENT;

		probe_detail(d, len, "%s: no vmlinux BTF", errname(err));
		return err;
	}
	for (p = names; *p; p++) {
		id = btf__find_by_name_kind(btf, *p, kind);
		if (id > 0) {
			*found = *p;
			break;
		}
	}
	btf__free(btf);
	if (id <= 0) {
		probe_detail(d, len, "ENOENT: no %s in vmlinux BTF", names[0]);
		return -ENOENT;
	}
	return id;
}

static int load_tracing(enum bpf_attach_type type, int btf_id)
{
	LIBBPF_OPTS(bpf_prog_load_opts, opts,
		    .expected_attach_type = type,
		    .attach_btf_id = btf_id);

	return load_ret(BPF_PROG_TYPE_TRACING, 0, &opts);
}

/*
 * Tracing programs attach through raw_tracepoint_open(NULL) since 5.5;
 * newer kernels also take link_create.  Try both, report the first error.
 */
static int attach_tracing(int prog_fd, enum bpf_attach_type type)
{
	int fd = bpf_raw_tracepoint_open(NULL, prog_fd);
	int fd2;

	if (fd >= 0)
		return fd;
	fd2 = bpf_link_create(prog_fd, 0, type, NULL);
	return fd2 >= 0 ? fd2 : fd;
}

static const char *const tp_btf_names[] = { "btf_trace_sys_enter", NULL };

int probe_prog_tracing(char *d, size_t len)
{
	const char *name = NULL;
	int id, fd;

	id = find_btf_id(tp_btf_names, BTF_KIND_TYPEDEF, &name, d, len);
	if (id < 0)
		return id;
	fd = load_tracing(BPF_TRACE_RAW_TP, id);
	if (fd < 0)
		return load_failed(d, len, fd, "tracing program");
	close(fd);
	probe_detail(d, len, "tp_btf program loaded");
	return 1;
}

int probe_trig_test_run(char *d, size_t len)
{
	unsigned char pkt[64] = { 0 };
	/* the trigger's call: a packet in and out (see trigger.c's test_run_pkt) */
	LIBBPF_OPTS(bpf_test_run_opts, opts,
		    .data_in = pkt,
		    .data_size_in = sizeof(pkt),
		    .data_out = pkt,
		    .data_size_out = sizeof(pkt),
		    .repeat = 2);
	int fd, err;

	/* what the trigger uses: a tc program (see trigger.c) */
	fd = load_ret(BPF_PROG_TYPE_SCHED_CLS, TC_ACT_OK, NULL);
	if (fd < 0)
		return load_failed(d, len, fd, "tc program");
	err = bpf_prog_test_run_opts(fd, &opts) ? -errno : 0;
	close(fd);
	if (is_denial(err))
		return denied(d, len, err, "tc test_run");
	if (err) {
		probe_detail(d, len, "%s: tc test_run failed", errname(err));
		return 0;
	}
	if (opts.retval != TC_ACT_OK) {
		probe_detail(d, len, "test_run returned %u, expected TC_ACT_OK", opts.retval);
		return 0;
	}
	probe_detail(d, len, "tc test_run works");
	return 1;
}

int probe_trig_test_run_on_cpu(char *d, size_t len)
{
	/* raw_tp test_run rejects repeat and data; only ctx and flags. */
	LIBBPF_OPTS(bpf_test_run_opts, opts,
		    .flags = BPF_F_TEST_RUN_ON_CPU,
		    .cpu = 0);
	int fd, err;

	fd = load_ret(BPF_PROG_TYPE_RAW_TRACEPOINT, 0, NULL);
	if (fd < 0)
		return load_failed(d, len, fd, "raw_tp program");
	err = bpf_prog_test_run_opts(fd, &opts);
	close(fd);
	if (err == -EINVAL || err == -ENOTSUPP || err == -EOPNOTSUPP) {
		probe_detail(d, len, "%s: raw_tp test_run on CPU unknown to this kernel",
			   errname(err));
		return 0;
	}
	if (is_denial(err))
		return denied(d, len, err, "raw_tp test_run on a CPU");
	if (err) {
		probe_detail(d, len, "%s: raw_tp test_run on CPU 0 failed",
			   errname(err));
		return 0;
	}
	probe_detail(d, len, "raw_tp test_run on CPU 0 works");
	return 1;
}

/* Closes the program and the link; says where it attached or why not. */
static int attach_outcome(char *d, size_t len, int fd, int link, const char *what,
			  const char *target)
{
	close(fd);
	if (is_denial(link)) {
		char name[128];

		snprintf(name, sizeof(name), "%s attach to %s", what, target);
		return denied(d, len, link, name);
	}
	if (link < 0) {
		probe_detail(d, len, "%s: %s refused at attach (%s)", errname(link), what,
			   target);
		return 0;
	}
	close(link);
	probe_detail(d, len, "attached to %s", target);
	return 1;
}

int probe_trig_raw_tp(char *d, size_t len)
{
	int fd, link;

	fd = load_ret(BPF_PROG_TYPE_RAW_TRACEPOINT, 0, NULL);
	if (fd < 0)
		return load_failed(d, len, fd, "raw_tp program");
	link = bpf_raw_tracepoint_open("sys_enter", fd);
	return attach_outcome(d, len, fd, link, "raw_tp", "sys_enter");
}

int probe_trig_tp_btf(char *d, size_t len)
{
	const char *name = NULL;
	int id, fd, link;

	id = find_btf_id(tp_btf_names, BTF_KIND_TYPEDEF, &name, d, len);
	if (id < 0)
		return id;
	fd = load_tracing(BPF_TRACE_RAW_TP, id);
	if (fd < 0)
		return load_failed(d, len, fd, "tp_btf program");
	link = attach_tracing(fd, BPF_TRACE_RAW_TP);
	return attach_outcome(d, len, fd, link, "tp_btf", "sys_enter");
}

int probe_trig_fentry(char *d, size_t len)
{
	static const char *const names[] = {
		"__x64_sys_getpgid", "__arm64_sys_getpgid",
		"__se_sys_getpgid", "__do_sys_getpgid", NULL,
	};
	const char *name = NULL;
	int id, fd, link;

	id = find_btf_id(names, BTF_KIND_FUNC, &name, d, len);
	if (id < 0) {
		if (id == -ENOENT)
			probe_detail(d, len, "ENOENT: no getpgid handler in vmlinux BTF");
		return id;
	}
	fd = load_tracing(BPF_TRACE_FENTRY, id);
	if (fd < 0) {
		if (is_denial(fd))
			return denied(d, len, fd, "fentry load");
		if (fd == -EINVAL)
			probe_detail(d, len, "EINVAL: fentry on %s unknown to this kernel",
				   name);
		else
			probe_detail(d, len, "%s: fentry refused at load (%s)",
				   errname(fd), name);
		return 0;
	}
	link = attach_tracing(fd, BPF_TRACE_FENTRY);
	return attach_outcome(d, len, fd, link, "fentry", name);
}

int probe_helper_bpf_loop(char *d, size_t len)
{
	int fd, ret;

	/*
	 * libbpf counts any load error other than "unknown func" as the
	 * helper being present, so an EPERM would read as "yes".  Make sure
	 * XDP programs load at all before asking it.
	 */
	fd = load_ret(BPF_PROG_TYPE_XDP, XDP_PASS, NULL);
	if (fd < 0) {
		if (is_denial(fd) && denied(d, len, fd, "XDP program") < 0)
			return -EPERM;
		probe_detail(d, len, "%s: XDP programs refused, cannot tell",
			   errname(fd));
		return fd;
	}
	close(fd);

	ret = libbpf_probe_bpf_helper(BPF_PROG_TYPE_XDP, BPF_FUNC_loop, NULL);
	if (ret > 0)
		probe_detail(d, len, "bpf_loop callable from XDP");
	else if (ret == 0)
		probe_detail(d, len, "bpf_loop unknown to this kernel");
	else
		probe_detail(d, len, "%s: helper probe failed", errname(ret));
	return ret > 0 ? 1 : ret;
}

struct map_spec {
	enum bpf_map_type type;
	__u32 key_size;
	__u32 value_size;
	__u32 max_entries;	/* 0: one page, for ring buffers */
	__u32 flags;
};

static int map_create(const struct map_spec *s)
{
	LIBBPF_OPTS(bpf_map_create_opts, opts, .map_flags = s->flags);
	__u32 max = s->max_entries;

	if (!max)
		max = sysconf(_SC_PAGESIZE);
	return bpf_map_create(s->type, NULL, s->key_size, s->value_size, max,
			      &opts);
}

static int probe_map(char *d, size_t len, const struct map_spec *s)
{
	int fd = map_create(s);

	if (fd >= 0) {
		close(fd);
		probe_detail(d, len, "created");
		return 1;
	}
	if (fd == -EINVAL || fd == -ENOTSUPP || fd == -EOPNOTSUPP) {
		probe_detail(d, len, "%s: map type unknown to this kernel",
			   errname(fd));
		return 0;
	}
	if (is_denial(fd))
		return denied(d, len, fd, "map creation");
	/* ENOMEM and friends say nothing about the map type itself. */
	probe_detail(d, len, "%s: map creation failed", errname(fd));
	return fd;
}

#define MAP_PROBE(fn, ...)						\
int fn(char *d, size_t len)						\
{									\
	static const struct map_spec s = { __VA_ARGS__ };		\
	return probe_map(d, len, &s);					\
}

MAP_PROBE(probe_map_hash, BPF_MAP_TYPE_HASH, 4, 8, 1, 0)
MAP_PROBE(probe_map_percpu_hash, BPF_MAP_TYPE_PERCPU_HASH, 4, 8, 1, 0)
MAP_PROBE(probe_map_lru_hash, BPF_MAP_TYPE_LRU_HASH, 4, 8, 1, 0)
MAP_PROBE(probe_map_array, BPF_MAP_TYPE_ARRAY, 4, 8, 1, 0)
MAP_PROBE(probe_map_percpu_array, BPF_MAP_TYPE_PERCPU_ARRAY, 4, 8, 1, 0)
MAP_PROBE(probe_map_ringbuf, BPF_MAP_TYPE_RINGBUF, 0, 0, 0, 0)
MAP_PROBE(probe_map_perf_event_array, BPF_MAP_TYPE_PERF_EVENT_ARRAY, 4, 4, 1, 0)
/* Bloom filters have no keys; values are what gets hashed. */
MAP_PROBE(probe_map_bloom_filter, BPF_MAP_TYPE_BLOOM_FILTER, 0, 8, 1, 0)
/* LPM keys are a u32 prefix length plus data; the kernel demands NO_PREALLOC. */
MAP_PROBE(probe_map_lpm_trie, BPF_MAP_TYPE_LPM_TRIE, 8, 8, 1, BPF_F_NO_PREALLOC)

int probe_map_batch_ops(char *d, size_t len)
{
	static const struct map_spec s = { BPF_MAP_TYPE_HASH, 4, 8, 4, 0 };
	__u32 keys[4], count = ARRAY_SIZE(keys);
	__u64 vals[4], out_batch = 0;
	int fd, err;

	fd = map_create(&s);
	if (is_denial(fd))
		return denied(d, len, fd, "hash map creation");
	if (fd < 0) {
		probe_detail(d, len, "%s: hash map creation failed",
			   errname(fd));
		return fd;
	}
	/* An empty map ends the walk at once: ENOENT if the command exists. */
	err = bpf_map_lookup_batch(fd, NULL, &out_batch, keys, vals, &count,
				   NULL);
	close(fd);
	if (err == 0 || err == -ENOENT) {
		probe_detail(d, len, "lookup_batch supported");
		return 1;
	}
	if (err == -EINVAL || err == -ENOTSUPP || err == -EOPNOTSUPP) {
		probe_detail(d, len, "%s: batch ops unknown to this kernel",
			   errname(err));
		return 0;
	}
	probe_detail(d, len, "%s: lookup_batch failed", errname(err));
	return err;
}

int probe_rb_overwrite(char *d, size_t len)
{
	struct map_spec s = {
		.type = BPF_MAP_TYPE_RINGBUF,
		.max_entries = sysconf(_SC_PAGESIZE) * 4,
		.flags = BPF_F_RB_OVERWRITE,
	};
	int fd, rb = probe_feature(PROBE_MAP_RINGBUF, d, len);

	if (rb < 0)	/* its detail says why we cannot tell */
		return rb;
	if (!rb) {
		probe_detail(d, len, "ring buffer maps unavailable");
		return 0;
	}
	fd = map_create(&s);
	if (fd >= 0) {
		close(fd);
		probe_detail(d, len, "overwrite mode accepted");
		return 1;
	}
	if (fd == -EINVAL) {
		probe_detail(d, len, "EINVAL: flag unknown to this kernel");
		return 0;
	}
	if (is_denial(fd))
		return denied(d, len, fd, "overwrite ring buffer creation");
	probe_detail(d, len, "%s: overwrite ring buffer creation failed",
		   errname(fd));
	return fd;
}

