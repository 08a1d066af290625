// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include "probe.h"
#include "run_opts.h"
#include "trigger.h"
#include "util.h"

const char *const trigger_names[] = {
	[TRIG_AUTO] = "auto",
	[TRIG_TEST_RUN] = "test-run",
	[TRIG_RAW_TP] = "raw-tp",
	[TRIG_FENTRY] = "fentry",
	[TRIG_NONE] = NULL,	/* not selectable: ends the choice list */
};

/* The syscall handler fentry attaches to, as named in this kernel's BTF. */
static const char *const fentry_targets[] = {
	"__x64_sys_getpgid", "__arm64_sys_getpgid", "__se_sys_getpgid", "__do_sys_getpgid",
};

static int probe_of(enum trigger_kind k)
{
	switch (k) {
	case TRIG_TEST_RUN:
		return PROBE_TRIG_TEST_RUN;
	case TRIG_RAW_TP:
		return PROBE_TRIG_RAW_TP;
	case TRIG_FENTRY:
		return PROBE_TRIG_FENTRY;
	default:
		return -1;
	}
}

static struct bpf_program *prog_of(const struct trigger_progs *p, enum trigger_kind k)
{
	switch (k) {
	case TRIG_TEST_RUN:
		return p->test_run;
	case TRIG_RAW_TP:
		return p->raw_tp;
	case TRIG_FENTRY:
		return p->fentry;
	default:
		return NULL;
	}
}

/*
 * BPFBENCH_TRUST_TRIGGER=1 skips the probe for an explicit --trigger, so
 * the tests can watch the kernel refuse a real program load.
 */
static int kernel_has(enum trigger_kind k, char *why, size_t len)
{
	const char *trust = getenv("BPFBENCH_TRUST_TRIGGER");

	if (trust && !strcmp(trust, "1"))
		return 1;
	return probe_feature(probe_of(k), why, len);
}

static int set_fentry_target(struct bpf_program *prog)
{
	struct btf *vmlinux = btf__load_vmlinux_btf();
	size_t i;
	int ret = -ENOENT;

	if (!vmlinux)
		return -errno;
	for (i = 0; i < ARRAY_SIZE(fentry_targets); i++) {
		if (btf__find_by_name_kind(vmlinux, fentry_targets[i], BTF_KIND_FUNC) > 0) {
			ret = bpf_program__set_attach_target(prog, 0, fentry_targets[i]);
			break;
		}
	}
	btf__free(vmlinux);
	return ret;
}

static enum trigger_kind pick_auto(const struct trigger_progs *p)
{
	static const enum trigger_kind order[] = { TRIG_TEST_RUN, TRIG_RAW_TP, TRIG_FENTRY };
	char why[128];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(order); i++)
		if (prog_of(p, order[i]) && kernel_has(order[i], why, sizeof(why)) == 1)
			return order[i];
	return TRIG_NONE;
}

int trigger_choose(struct trigger *t, const char *bench, const struct run_opts *o,
		   const struct trigger_progs *progs)
{
	enum trigger_kind want = o->trigger;
	char why[256] = "";
	int k, has;

	if (want == TRIG_AUTO) {
		want = pick_auto(progs);
		if (want == TRIG_NONE && kernel_has(TRIG_TEST_RUN, why, sizeof(why)) == -EPERM) {
			errmsg("%s: %s", bench, why);
			return -EPERM;	/* a privilege, not the kernel: exit 1 */
		}
		if (want == TRIG_NONE) {
			skipmsg("%s: no trigger works on this kernel (see 'bpfbench probe')",
			       bench);
			return -EOPNOTSUPP;
		}
	} else if (!prog_of(progs, want)) {
		skipmsg("%s: has no %s trigger", bench, trigger_names[want]);
		return -EOPNOTSUPP;
	} else if ((has = kernel_has(want, why, sizeof(why))) != 1) {
		(has == -EPERM ? errmsg : skipmsg)("%s: %s the %s trigger (%s)", bench,
						  has == -EPERM ? "no permission for" :
						  "the kernel refuses", trigger_names[want], why);
		return has == -EPERM ? -EPERM : -EOPNOTSUPP;
	}
	for (k = TRIG_TEST_RUN; k <= TRIG_FENTRY; k++)
		if (prog_of(progs, k))
			bpf_program__set_autoload(prog_of(progs, k), k == (int)want);
	t->kind = want;
	t->prog = prog_of(progs, want);
	t->repeat = o->test_run_repeat;
	t->user_repeat = t->repeat;
	t->max_call_ns = o->period_ms * 1000000ull / 10;
	t->prog_fd = -1;
	if (want == TRIG_FENTRY)
		return set_fentry_target(t->prog);
	return 0;
}

/*
 * Each test-run syscall has a fixed cost, so `repeat` doubles until one
 * syscall takes both TEST_RUN_TARGET_NS and FIXED_COST_SHARE times the
 * cost of a single run: the fixed part is then spread thin.  It stops
 * doubling before one call would take more than t->max_call_ns (a tenth
 * of the period), so each period holds ten calls or more and its sample
 * is not made of one call's leftovers.
 */
#define TEST_RUN_TARGET_NS	2000000ull
#define TEST_RUN_MAX_NS		100000000ull
#define FIXED_COST_SHARE	20
#define MEASURE_NS		1000000ull	/* a user's repeat: extrapolated from a call this long */
#define MEASURE_TRIES		5		/* ... the least of this many */

/* Doubles t->repeat from 1 until a call takes target/2 or repeat reaches max; *took its time. */
static int double_until(struct trigger *t, uint64_t target, uint32_t max, uint64_t *took)
{
	uint64_t t0;
	int err;

	for (t->repeat = 1;; t->repeat *= 2) {
		if (t->repeat > max)
			t->repeat = max;
		t0 = now_ns();
		err = trigger_fire(t);
		if (err)
			return err;
		*took = now_ns() - t0;
		if (*took >= target / 2 || t->repeat >= max)
			return 0;
	}
}

/* One more call at t->repeat: *took becomes the least time seen. */
static int fire_min(struct trigger *t, uint64_t *took)
{
	uint64_t t0 = now_ns();
	int err = trigger_fire(t);

	if (!err && now_ns() - t0 < *took)
		*took = now_ns() - t0;
	return err;
}

static int calibrate_repeat(struct trigger *t)
{
	uint64_t target = TEST_RUN_TARGET_NS, first;
	int err;

	err = double_until(t, 0, 1, &first);	/* one run alone */
	if (err)
		return err;
	if (target < FIXED_COST_SHARE * first)
		target = FIXED_COST_SHARE * first;
	if (target > TEST_RUN_MAX_NS)
		target = TEST_RUN_MAX_NS;
	if (target > t->max_call_ns)
		target = t->max_call_ns;
	err = double_until(t, target, TEST_RUN_MAX_REPEAT, &first);
	if (!err && first > t->max_call_ns && t->repeat > 1) {	/* a noisy step overshot */
		t->repeat /= 2;
		first /= 2;
	}
	if (!err)
		vmsg("test-run: %u program runs per syscall (%.3f ms)", t->repeat, first / 1e6);
	return err;
}

/*
 * --test-run-repeat N is refused (exit 2) when one call would take longer
 * than the bound: measured with up to N runs for about a millisecond (the
 * least of MEASURE_TRIES calls, as a busy machine preempts us), then
 * extrapolated.  Reducing it instead would measure what was not asked for.
 */
static int check_repeat(struct trigger *t)
{
	uint32_t want = t->repeat, most;
	uint64_t took;
	double est;
	int err = double_until(t, 2 * MEASURE_NS, want, &took), i;

	/* being preempted only adds time: the least of a few calls is the cost */
	for (i = 0; !err && i < MEASURE_TRIES - 1 && t->repeat < want; i++)
		err = fire_min(t, &took);
	if (err)
		return err;
	est = (double)took * want / t->repeat;
	if (est > t->max_call_ns) {
		most = (uint32_t)((double)t->max_call_ns / est * want);
		errmsg("--test-run-repeat %u: one test-run call would take about %.0f ms here, "
		       "over the %.0f ms bound (a tenth of --period-ms); at most about %u",
		       want, est / 1e6, t->max_call_ns / 1e6, most ? most : 1);
		return -EINVAL;
	}
	t->repeat = want;
	return 0;
}

int trigger_attach(struct trigger *t)
{
	t->prog_fd = bpf_program__fd(t->prog);
	if (t->prog_fd < 0)
		return -EBADF;
	if (t->kind != TRIG_TEST_RUN)
		goto attach;
	if (!t->repeat)
		return calibrate_repeat(t);
	/* a repeat the benchmark chose itself is its own business, and may not tolerate extra runs */
	return t->repeat == t->user_repeat ? check_repeat(t) : 0;
attach:
	t->link = bpf_program__attach(t->prog);
	if (!t->link)
		return -errno;
	return 0;
}

/*
 * data_out is given even where nobody reads it: the kernel copies the
 * packet back once per syscall, and valgrind expects a buffer there.
 */
int test_run_pkt(int prog_fd, void *pkt, uint32_t len, uint32_t repeat, uint32_t *retval)
{
	LIBBPF_OPTS(bpf_test_run_opts, opts,
		    .data_in = pkt,
		    .data_size_in = len,
		    .data_out = pkt,
		    .data_size_out = len,
		    .repeat = repeat);

	/* a single run is never cut short, so callers that read retval see it */
	if (repeat > 1 && thread_woken())
		return 0;
	if (bpf_prog_test_run_opts(prog_fd, &opts))
		return errno == EINTR && repeat > 1 && thread_woken() ? 0 : -errno;
	if (retval)
		*retval = opts.retval;
	return 0;
}

int trigger_fire(struct trigger *t)
{
	unsigned char pkt[sizeof(t->pkt)];

	switch (t->kind) {
	case TRIG_TEST_RUN:
		/* a copy: producers share t, and the kernel writes the packet back */
		memcpy(pkt, t->pkt, sizeof(pkt));
		return test_run_pkt(t->prog_fd, pkt, sizeof(pkt), t->repeat, NULL);
	case TRIG_RAW_TP:
	case TRIG_FENTRY:
		syscall(__NR_getpgid, 0);
		return 0;
	default:
		return -EINVAL;
	}
}

void trigger_detach(struct trigger *t)
{
	bpf_link__destroy(t->link);
	t->link = NULL;
}

int trigger_tgid(void)
{
	return getpid();
}
