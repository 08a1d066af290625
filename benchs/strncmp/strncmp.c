// SPDX-License-Identifier: GPL-2.0
/*
 * strncmp-no-helper, strncmp-helper: the kernel bench's strncmp family.
 * A program run compares a string of --cmp-str-len bytes with a target
 * of random digits, by a loop in the program or by bpf_strncmp() (5.17+);
 * hits are the runs whose result is negative, which with upstream's
 * strings is every run.  Upstream's producers call getpgid() under a
 * tp/syscalls program; tracefs is not mounted everywhere, so the same
 * body runs from the core's triggers, raw-tp on our getpgid() first
 * (one run a syscall, as upstream's), else a tc test run
 * (doc/differences.md).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "bench.h"
#include "strncmp.h"
#include "strncmp.skel.h"

/* --cmp-str-case: how str compares with the target (the tests' aid; upstream's is less) */
enum { CASE_LESS, CASE_EQUAL, CASE_GREATER };
static const char *const case_names[] = { "less", "equal", "greater", NULL };

struct strncmp_args {
	uint64_t cmp_str_len;
	int str_case;
};

static const struct opt_def strncmp_opts[] = {
	{ "cmp-str-len", 0, OPT_UINT, OPT_OFF(struct strncmp_args, cmp_str_len), "32", 1,
	  STRNCMP_STR_SZ - 1, NULL, "N", "length of the compared string", OPT_F_DEFINES },
	{ "cmp-str-case", 0, OPT_CHOICE, OPT_OFF(struct strncmp_args, str_case), "less", 0, 0,
	  case_names, "CASE", "the string compares less than the target (upstream's), equal "
	  "or greater", OPT_F_HIDDEN | OPT_F_DEFINES },
	{ NULL },
};

enum { M_HITS, M_DROPS, M_HITS_N };

static const struct metric_def strncmp_metrics[] = {
	[M_HITS] = { "hits", "M ops/s", METRIC_RATE, .prod_unit = "M" },
	[M_DROPS] = { "drops", "M ops/s", METRIC_RATE, .better = BETTER_LOWER },
	[M_HITS_N] = { "hits_count", "hits", METRIC_COUNT },
};

struct strncmp_state {
	struct strncmp_bpf *skel;
	int want;	/* the sign C's strncmp gives over the same strings: -1, 0, 1 */
	/* the counts when the runner took its baseline: setup's trial calls are not the run's */
	uint64_t base[3];
	bool based;
	struct delta hits;
};

/* The runs whose result had each sign, over the whole run so far. */
static void results(const struct strncmp_state *s, uint64_t n[3])
{
	const struct bench_slot *slot = s->skel->bss->bench_slots;
	int i;

	n[0] = slots_sum(slot, SLOT_HITS);
	n[1] = n[2] = 0;
	for (i = 0; i < BENCH_NR_SLOTS; i++) {
		n[1] += slot[i].extra[STRNCMP_SLOT_EQUAL];
		n[2] += slot[i].extra[STRNCMP_SLOT_GREATER];
	}
}

/* Digits '1'...'9' (a zero byte would end the strings early), from a seed of our own. */
static void fill_target(char *t, size_t sz)
{
	uint64_t x = ((uint64_t)time(NULL) * 2654435761u ^ (uint64_t)getpid() << 32) | 1;
	size_t i;

	for (i = 0; i < sz - 1; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		t[i] = '1' + x % 9;
	}
	t[sz - 1] = '\0';
}

/*
 * Upstream's strings: str is the target's first len bytes, ended, its
 * last byte one smaller; the program compares len + 1 bytes.  Returns the
 * sign C's strncmp gives over the same bytes.
 */
static int make_strings(struct strncmp_bpf *skel, const struct strncmp_args *a)
{
	char *target = (char *)skel->rodata->target, *str = skel->bss->str;
	size_t len = a->cmp_str_len;
	int ret;

	fill_target(target, sizeof(skel->rodata->target));
	memcpy(str, target, len);
	str[len] = '\0';
	if (a->str_case == CASE_LESS)
		str[len - 1] -= 1;
	else if (a->str_case == CASE_GREATER)
		str[len - 1] += 1;
	else
		str[len] = target[len];	/* all len + 1 bytes alike */
	ret = strncmp(str, target, len + 1);
	return (ret > 0) - (ret < 0);
}

static bool helper_variant(const struct bench *b)
{
	return b->variant != NULL;
}

/* Raw-tp first: a run a syscall, as upstream's tracepoint; else the core's choice. */
static struct trigger_progs trigger_progs_of(struct bench_env *env, struct strncmp_bpf *skel)
{
	bool helper = helper_variant(env->bench);
	struct trigger_progs p = {
		.test_run = helper ? skel->progs.strncmp_helper_test_run :
				     skel->progs.strncmp_no_helper_test_run,
		.raw_tp = helper ? skel->progs.strncmp_helper_raw_tp :
				   skel->progs.strncmp_no_helper_raw_tp,
		.fentry = helper ? skel->progs.strncmp_helper_fentry :
				   skel->progs.strncmp_no_helper_fentry,
	};
	struct bpf_program *other[] = {
		helper ? skel->progs.strncmp_no_helper_test_run : skel->progs.strncmp_helper_test_run,
		helper ? skel->progs.strncmp_no_helper_raw_tp : skel->progs.strncmp_helper_raw_tp,
		helper ? skel->progs.strncmp_no_helper_fentry : skel->progs.strncmp_helper_fentry,
	};
	char why[128];
	size_t i;

	/* the other benchmark's body is never loaded (the helper's may not verify here) */
	for (i = 0; i < ARRAY_SIZE(other); i++)
		bpf_program__set_autoload(other[i], false);
	/*
	 * A repeated test run would measure the comparison alone, while
	 * upstream's figure is a syscall with the comparison in it: auto
	 * takes raw-tp where the kernel offers it.
	 */
	if (env->opts->trigger == TRIG_AUTO &&
	    probe_feature(PROBE_TRIG_RAW_TP, why, sizeof(why)) == 1) {
		bpf_program__set_autoload(p.test_run, false);
		p.test_run = NULL;
	}
	return p;
}

static int strncmp_setup(struct bench_env *env)
{
	const struct strncmp_args *a = env->args;
	struct strncmp_state *s = calloc(1, sizeof(*s));
	int err;

	if (!s)
		return -ENOMEM;
	env->priv = s;
	s->skel = strncmp_bpf__open();
	if (!s->skel)
		return -errno;
	s->skel->rodata->cmp_str_len = a->cmp_str_len;
	s->want = make_strings(s->skel, a);
	err = bench_skel_load(env, &(struct bench_skel){
				BENCH_SKEL_BASE(s->skel),
				.progs = trigger_progs_of(env, s->skel),
			      }, 0, NULL, NULL);
	return err ?: trigger_attach(&env->trig);
}

static void strncmp_measure(struct bench_env *env, uint64_t elapsed_ns, double *vals)
{
	static const char *const sign[] = { "negative", "zero", "positive" };
	struct strncmp_state *s = env->priv;
	uint64_t n[3];
	int i;

	results(s, n);
	if (!s->based) {
		memcpy(s->base, n, sizeof(n));
		s->based = true;
	}
	/* every run must have got the sign C's strncmp gives over the same strings */
	for (i = 0; i < 3; i++)
		if (i != s->want + 1 && n[i])
			bench_fail(env, -EPROTO, "%llu runs got a %s result, C's strncmp over the "
				   "same strings a %s one", (unsigned long long)n[i], sign[i],
				   sign[s->want + 1]);
	n[0] = delta_next(&s->hits, n[0]);
	vals[M_HITS] = mops(n[0], elapsed_ns);
	vals[M_DROPS] = 0;
	vals[M_HITS_N] = n[0];
}

static void strncmp_teardown(struct bench_env *env)
{
	struct strncmp_state *s = env->priv;
	uint64_t n[3];

	if (!s)
		return;
	if (s->based) {
		/* the run's results by sign from its start: hits (negative), the others apart */
		results(s, n);
		bench_total(env, "hits", n[0] - s->base[0]);
		bench_total(env, "results_zero", n[1] - s->base[1]);
		bench_total(env, "results_positive", n[2] - s->base[2]);
	}
	BENCH_SKEL_TEARDOWN(env, NULL, s->skel);
}

/* bpf_strncmp(), 5.17+: among the helpers every program type gets. */
static int strncmp_probe_helper(char *detail, size_t len)
{
	int ret = libbpf_probe_bpf_helper(BPF_PROG_TYPE_SOCKET_FILTER, BPF_FUNC_strncmp, NULL);

	if (ret > 0)
		snprintf(detail, len, "bpf_strncmp callable");
	else if (ret == 0)
		snprintf(detail, len, "bpf_strncmp unknown to this kernel (added in 5.17)");
	else
		snprintf(detail, len, "helper probe failed: %s", strerror(-ret));
	return ret > 0 ? 1 : ret;
}

static int strncmp_runnable(const struct bench *b, char *why, size_t len)
{
	char detail[128];
	int ret;

	if (!helper_variant(b))
		return 1;
	ret = strncmp_probe_helper(detail, sizeof(detail));
	if (ret != 1)
		snprintf(why, len, "%s; a kernel that has it runs it: bpfbench --kernel 7.3 %s",
			 detail, b->name);
	return ret;
}

#define STRNCMP_BENCH(id, name_, helper, sum)						\
	static const struct bench bench_##id = {					\
		.name = name_,								\
		.summary = sum,								\
		.family = "strncmp",							\
		.variant = helper ? "helper" : NULL,					\
		.opts = strncmp_opts,							\
		.args_size = sizeof(struct strncmp_args),				\
		.runnable = strncmp_runnable,						\
		.metrics = strncmp_metrics,						\
		.nr_metrics = ARRAY_SIZE(strncmp_metrics),				\
		.setup = strncmp_setup,							\
		.measure = strncmp_measure,						\
		.teardown = strncmp_teardown,						\
		.report = { REPORT_HITS_DROPS },					\
	};
STRNCMP_BENCH(strncmp_no_helper, "strncmp-no-helper", false,
	      "strncmp() as a loop in the program, a comparison per program run")
STRNCMP_BENCH(strncmp_helper, "strncmp-helper", true,
	      "the bpf_strncmp() helper (5.17+), a comparison per program run")

/* run_bench_strncmp.sh's table: both ways at each length */
#define STEPS(len)									\
	{ NULL, "no-helper-" #len, "strncmp-no-helper --cmp-str-len " #len },		\
	{ NULL, "helper-" #len, "strncmp-helper --cmp-str-len " #len }
static const struct suite_step strncmp_steps[] = {
	{ "strncmp, --cmp-str-len sweep", "no-helper-1", "strncmp-no-helper --cmp-str-len 1" },
	{ NULL, "helper-1", "strncmp-helper --cmp-str-len 1" },
	STEPS(8), STEPS(64), STEPS(512), STEPS(2048), STEPS(4095),
	{ NULL },
};

static const struct suite suite_strncmp = {
	.name = "strncmp",
	.summary = "strncmp in the program vs bpf_strncmp(), --cmp-str-len 1 ... 4095, hits M/s "
		   "(run_bench_strncmp.sh)",
	.steps = strncmp_steps,
};

static const struct family_probe strncmp_probes[] = {
	{ "helper_strncmp", strncmp_probe_helper },
	{ NULL },
};

const struct family family_strncmp = {
	.name = "strncmp",
	.summary = "string comparison in a program: a loop vs the bpf_strncmp() helper "
		   "(the kernel bench's strncmp-*)",
	.benchs = (const struct bench *const []){
		&bench_strncmp_no_helper,
		&bench_strncmp_helper,
		NULL,
	},
	.suites = (const struct suite *const []){ &suite_strncmp, NULL },
	.probes = strncmp_probes,
};
