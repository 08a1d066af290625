// SPDX-License-Identifier: GPL-2.0
/*
 * The attach family's names, as the kernel bench registers them (trig-*),
 * each a line of one table: the variant (how it is driven, which program
 * counts, what the kernel must offer), the producer, the summary.  The
 * benchmarks, the family's list and its suite are all drawn from it.
 */
#include <string.h>
#include "bench.h"
#include "attach.h"
#include "attach_int.h"

#define KERNEL(prog_, drv, nd, ...)	.drive = DRIVE_BATCH, .prog = prog_, .driver = drv,	\
					.needs = nd, __VA_ARGS__
#define USER(prog_, tgt, nd, ...)	.drive = DRIVE_USER, .prog = prog_,			\
					.target = (const void *)attach_target_##tgt, .needs = nd, __VA_ARGS__

/* The uprobe family over one target: plain, return, multi, multi return. */
#define UPROBES(X, t, what)									\
	X(uprobe_##t, "uprobe-" #t, produce_##t, SELF, "uprobe on " what,				\
	  USER("attach_uprobe", t, NEED_UPROBE))						\
	X(uretprobe_##t, "uretprobe-" #t, produce_##t, SELF, "uretprobe on " what,			\
	  USER("attach_uprobe", t, NEED_UPROBE, .retprobe = true))				\
	X(uprobe_multi_##t, "uprobe-multi-" #t, produce_##t, SELF, "uprobe.multi on " what,		\
	  USER("attach_uprobe_multi", t, NEED_UPROBE_MULTI, .multi = true))			\
	X(uretprobe_multi_##t, "uretprobe-multi-" #t, produce_##t, SELF, "uretprobe.multi on " what,	\
	  USER("attach_uprobe_multi", t, NEED_UPROBE_MULTI, .multi = true, .retprobe = true))

#define DRV	"attach_driver"
#define KFN	"attach_driver_kfunc"
#define NEED_TRAMPOLINE	0	/* fentry, fexit, fmod_ret: the core's trigger_fentry probe */

/* X(id, name after "trig-", producer, flags, summary, variant...) */
#define SELF	BENCH_F_SELF_DRIVEN
#define NOBPF	(BENCH_F_NO_TRIGGER | BENCH_F_NO_BPF)
#define ATTACH_BENCHES(X)									\
	X(usermode_count, "usermode-count", produce_count, NOBPF,					\
	  "ceiling: a user-space call and count, no BPF",					\
	  .drive = DRIVE_USER, .target = (const void *)attach_target_nop, .user_count = true)		\
	X(kernel_count, "kernel-count", produce_batch, SELF,						\
	  "ceiling: counting inside a test-run program, no attach",				\
	  KERNEL(NULL, "attach_kernel_count", 0))						\
	X(syscall_count, "syscall-count", produce_syscall, NOBPF,					\
	  "ceiling: a getpgid() syscall and a user-space count, no BPF",			\
	  .drive = DRIVE_SYSCALL, .user_count = true)						\
	X(kprobe, "kprobe", produce_batch, SELF, "kprobe on bpf_get_numa_node_id()",		\
	  KERNEL("attach_kprobe", DRV, NEED_KPROBE))						\
	X(kretprobe, "kretprobe", produce_batch, SELF, "kretprobe on bpf_get_numa_node_id()",	\
	  KERNEL("attach_kretprobe", DRV, NEED_KPROBE))					\
	X(kprobe_multi, "kprobe-multi", produce_batch, SELF,						\
	  "kprobe.multi on bpf_get_numa_node_id()",						\
	  KERNEL("attach_kprobe_multi", DRV, NEED_KPROBE_MULTI))				\
	X(kretprobe_multi, "kretprobe-multi", produce_batch, SELF,					\
	  "kretprobe.multi on bpf_get_numa_node_id()",					\
	  KERNEL("attach_kretprobe_multi", DRV, NEED_KPROBE_MULTI))				\
	X(kprobe_multi_all, "kprobe-multi-all", produce_batch, SELF,					\
	  "kprobe.multi while every traceable kernel function has one",			\
	  KERNEL("attach_kprobe_multi", DRV, NEED_KPROBE_MULTI | NEED_FILTER_FUNCS, .all = true)) \
	X(kretprobe_multi_all, "kretprobe-multi-all", produce_batch, SELF,				\
	  "kretprobe.multi while every traceable kernel function has one",			\
	  KERNEL("attach_kretprobe_multi", DRV, NEED_KPROBE_MULTI | NEED_FILTER_FUNCS,	\
		 .all = true, .retprobe = true))						\
	X(fentry, "fentry", produce_batch, SELF, "fentry on bpf_get_numa_node_id()",		\
	  KERNEL("attach_fentry", DRV, NEED_TRAMPOLINE))					\
	X(fexit, "fexit", produce_batch, SELF, "fexit on bpf_get_numa_node_id()",			\
	  KERNEL("attach_fexit", DRV, NEED_TRAMPOLINE))						\
	X(fmodret, "fmodret", produce_batch, SELF, "fmod_ret on bpf_modify_return_test_tp()",	\
	  KERNEL("attach_fmodret", KFN, NEED_TEST_KFUNC | NEED_TRAMPOLINE))			\
	X(tp, "tp", produce_batch, SELF, "tracepoint bpf_test_run/bpf_trigger_tp",			\
	  KERNEL("attach_tp", KFN, NEED_TEST_KFUNC | NEED_FILTER_FUNCS))			\
	X(rawtp, "rawtp", produce_batch, SELF, "raw tracepoint bpf_trigger_tp",			\
	  KERNEL("attach_rawtp", KFN, NEED_TEST_KFUNC))						\
	UPROBES(X, nop, "a nop")								\
	UPROBES(X, push, "a push (stack setup)")						\
	UPROBES(X, ret, "a ret")								\
	UPROBES(X, nop5, "a 5-byte nop (x86)")							\
	UPROBES(X, nop10, "a 10-byte nop (x86)")						\
	X(usdt_nop, "usdt-nop", produce_usdt, SELF, "USDT probe (sys/sdt.h's 1-byte nop)",		\
	  USER("attach_usdt", usdt, NEED_UPROBE, .usdt = "nop"))				\
	X(usdt_nop10, "usdt-nop10", produce_usdt10, SELF, "USDT probe behind a 10-byte nop",		\
	  USER("attach_usdt", usdt10, NEED_UPROBE, .usdt = "nop10"))

const struct opt_def attach_batch_opts[] = {
	{ "trig-batch-iters", 0, OPT_UINT, OPT_OFF(struct attach_args, batch_iters), "100", 1, 1000,
	  NULL, "N", "calls of the probed kernel function per test-run of the driver",
	  OPT_F_DEFINES },
	{ NULL },
};

#define VARIANT(id, name, prod, fl, sum, ...)						\
	static const struct attach_variant var_##id = { __VA_ARGS__ };
ATTACH_BENCHES(VARIANT)

#define BENCH(id, name_, prod, fl, sum, ...)						\
	static const struct bench bench_trig_##id = {					\
		.name = "trig-" name_,							\
		.summary = sum,								\
		.family = "attach",							\
		.variant = &var_##id,							\
		.opts = opts_of_##prod,						\
		.args_size = sizeof(struct attach_args),				\
		.metrics = attach_metrics,						\
		.nr_metrics = ATTACH_NR_METRICS,					\
		.runnable = attach_runnable,						\
		.validate = attach_validate,						\
		.setup = attach_setup,							\
		.producer = prod,							\
		.measure = attach_measure,						\
		.teardown = attach_teardown,						\
		.report = { REPORT_HITS_DROPS },					\
		.flags = fl,								\
	};
/* Only the kernel side's driver takes --trig-batch-iters. */
#define opts_of_produce_batch	attach_batch_opts
#define opts_of_produce_syscall	NULL
#define opts_of_produce_count	NULL
#define opts_of_produce_nop	NULL
#define opts_of_produce_push	NULL
#define opts_of_produce_ret	NULL
#define opts_of_produce_nop5	NULL
#define opts_of_produce_nop10	NULL
#define opts_of_produce_usdt	NULL
#define opts_of_produce_usdt10	NULL
#define produce_batch	attach_produce_batch
#define produce_syscall	attach_produce_syscall
#define produce_count	attach_produce_count
#define produce_nop	attach_produce_nop
#define produce_push	attach_produce_push
#define produce_ret	attach_produce_ret
#define produce_nop5	attach_produce_nop5
#define produce_nop10	attach_produce_nop10
#define produce_usdt	attach_produce_usdt
#define produce_usdt10	attach_produce_usdt10
ATTACH_BENCHES(BENCH)

#define ENTRY(id, ...)	&bench_trig_##id,
static const struct bench *const attach_benchs[] = {
	ATTACH_BENCHES(ENTRY)
	NULL,
};

/* What each NEED_ bit asks of the family's probes, and what to say when it is missing. */
static const struct {
	unsigned int bit;
	int (*probe)(char *detail, size_t len);
} needs[] = {
	{ NEED_KPROBE, attach_probe_kprobe },
	{ NEED_KPROBE_MULTI, attach_probe_kprobe },
	{ NEED_KPROBE_MULTI, attach_probe_kprobe_multi },
	{ NEED_UPROBE, attach_probe_uprobe },
	{ NEED_UPROBE_MULTI, attach_probe_uprobe_multi },
	{ NEED_TEST_KFUNC, attach_probe_test_kfunc },
};

/* A core probe: 1, or 0/-errno with its detail in why. */
static int core_need(enum probe_id id, const char *what, char *why, size_t len)
{
	char detail[200] = "";
	int ret = probe_feature(id, detail, sizeof(detail));

	if (ret != 1)
		snprintf(why, len, "%s: %s", what, *detail ? detail : "missing");
	return ret;
}

static bool uses_trampoline(const struct attach_variant *v)
{
	return v->prog && (strstr(v->prog, "fentry") || strstr(v->prog, "fexit") ||
			   strstr(v->prog, "fmodret"));
}

static int check_needs(const struct attach_variant *v, char *why, size_t len)
{
	char detail[200];
	size_t i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(needs); i++) {
		if (!(v->needs & needs[i].bit))
			continue;
		detail[0] = 0;
		ret = needs[i].probe(detail, sizeof(detail));
		if (ret != 1) {
			snprintf(why, len, "%s", detail);
			return ret;
		}
	}
	if (uses_trampoline(v)) {
		ret = core_need(PROBE_TRIG_FENTRY, "no BPF trampoline (fentry, fexit, fmod_ret)",
				why, len);
		if (ret != 1)
			return ret;
	}
	if (v->needs & NEED_FILTER_FUNCS)
		return core_need(PROBE_TRACEFS, "tracefs", why, len);
	return 1;
}

/* 1, or 0 / -errno with the reason and where the benchmark does run. */
int attach_runnable(const struct bench *b, char *why, size_t len)
{
	char reason[300] = "";
	int ret = check_needs(b->variant, reason, sizeof(reason));

	if (ret == 1)
		return 1;
	snprintf(why, len, "%s; a kernel that has it runs it: bpfbench --kernel 7.3 %s",
		 reason, b->name);
	return ret;
}

static const struct family_probe attach_probes[] = {
	{ "attach_kprobe", attach_probe_kprobe },
	{ "attach_kprobe_multi", attach_probe_kprobe_multi },
	{ "attach_uprobe", attach_probe_uprobe },
	{ "attach_uprobe_multi", attach_probe_uprobe_multi },
	{ "attach_test_kfunc", attach_probe_test_kfunc },
	{ NULL },
};

/* The table a trampoline, kprobe or uprobe patch quotes: one row per attach type. */
static const struct suite_step attach_steps[] = {
	{ "kernel side: test-run driver, --trig-batch-iters 100", "kernel-count",
	  "-a trig-kernel-count" },
	{ NULL, "kprobe", "-a trig-kprobe" },
	{ NULL, "kretprobe", "-a trig-kretprobe" },
	{ NULL, "kprobe-multi", "-a trig-kprobe-multi" },
	{ NULL, "kretprobe-multi", "-a trig-kretprobe-multi" },
	{ NULL, "fentry", "-a trig-fentry" },
	{ NULL, "fexit", "-a trig-fexit" },
	{ NULL, "fmodret", "-a trig-fmodret" },
	{ NULL, "tp", "-a trig-tp" },
	{ NULL, "rawtp", "-a trig-rawtp" },
	{ "user side: bpfbench's own functions", "usermode-count", "-a trig-usermode-count" },
	{ NULL, "syscall-count", "-a trig-syscall-count" },
	{ NULL, "uprobe-nop", "-a trig-uprobe-nop" },
	{ NULL, "uretprobe-nop", "-a trig-uretprobe-nop" },
	{ NULL, "uprobe-multi-nop", "-a trig-uprobe-multi-nop" },
	{ NULL, "uretprobe-multi-nop", "-a trig-uretprobe-multi-nop" },
	{ NULL, "uprobe-push", "-a trig-uprobe-push" },
	{ NULL, "uprobe-ret", "-a trig-uprobe-ret" },
	{ NULL, "usdt-nop", "-a trig-usdt-nop" },
	{ NULL },
};

static const struct suite suite_attach = {
	.name = "attach",
	.summary = "one program hit per attach type, hits M/s (run_bench_trigger.sh's and "
		   "run_bench_uprobes.sh's rows)",
	.steps = attach_steps,
};

const struct family family_attach = {
	.name = "attach",
	.summary = "what one BPF program hit costs per attach type (the kernel bench's trig-*)",
	.benchs = attach_benchs,
	.suites = (const struct suite *const []){ &suite_attach, NULL },
	.quick = (const char *const []){ "trig-kernel-count", "trig-rawtp", "trig-uprobe-nop", NULL },
	.probes = attach_probes,
};
