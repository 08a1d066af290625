// SPDX-License-Identifier: GPL-2.0
/*
 * TAP test for the feature probes: facts that hold on any kernel where
 * bpf() works as root, plus the promise that probing leaves no program or
 * map behind.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>

#include "probe.h"

static int test_num;
static int failures;

static void ok(bool cond, const char *what)
{
	test_num++;
	if (!cond)
		failures++;
	printf("%sok %d - %s\n", cond ? "" : "not ", test_num, what);
}

/* Count BPF objects the kernel knows about, via an id walker. */
static int count_ids(int (*next)(__u32, __u32 *))
{
	__u32 id = 0;
	int n = 0;

	while (next(id, &id) == 0)
		n++;
	return n;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* Progs and maps are freed after an RCU grace period; wait for it. */
static bool counts_settle(int progs, int maps, int *progs_now, int *maps_now)
{
	int waited;

	for (waited = 0; ; waited += 50) {
		*progs_now = count_ids(bpf_prog_get_next_id);
		*maps_now = count_ids(bpf_map_get_next_id);
		if (*progs_now == progs && *maps_now == maps)
			return true;
		if (waited >= 3000)
			return false;
		sleep_ms(50);
	}
}

static bool is_one(enum probe_id id)
{
	char detail[256];
	int ret = probe_feature(id, detail, sizeof(detail));

	if (ret != 1)
		printf("# %s = %d (%s)\n", probe_name(id), ret, detail);
	return ret == 1;
}

int main(void)
{
	int first[PROBE__COUNT];
	int progs, maps, progs_after, maps_after, i;
	bool range_ok = true, names_ok = true, same = true, settled;
	char detail[256];

	if (geteuid() != 0) {
		printf("1..0 # SKIP needs root\n");
		return 0;
	}
	printf("1..7\n");

	/* Baseline before any probe has touched the kernel. */
	progs = count_ids(bpf_prog_get_next_id);
	maps = count_ids(bpf_map_get_next_id);

	for (i = 0; i < PROBE__COUNT; i++) {
		const char *name = probe_name(i);

		detail[0] = '\0';
		first[i] = probe_feature(i, detail, sizeof(detail));
		printf("# %-24s %3d  %s\n", name ? name : "(null)", first[i],
		       detail);
		if (first[i] > 1 || first[i] < -4095)
			range_ok = false;
		if (!name || !name[0])
			names_ok = false;
	}

	ok(is_one(PROBE_BPF_SYSCALL), "bpf_syscall available");
	ok(is_one(PROBE_MAP_HASH), "map_hash available");
	ok(is_one(PROBE_TRIG_TEST_RUN), "trigger_test_run available");
	ok(range_ok, "every probe returns -errno, 0 or 1");
	ok(names_ok, "every probe has a non-empty name");

	for (i = 0; i < PROBE__COUNT; i++) {
		if (probe_feature(i, NULL, 0) != first[i]) {
			printf("# %s changed on second call\n", probe_name(i));
			same = false;
		}
	}
	ok(same, "second round of probes gives the same results");

	settled = counts_settle(progs, maps, &progs_after, &maps_after);
	if (!settled)
		printf("# progs %d -> %d, maps %d -> %d\n", progs, progs_after,
		       maps, maps_after);
	ok(settled, "no BPF programs or maps left behind");

	return failures ? 1 : 0;
}
