// SPDX-License-Identifier: GPL-2.0
/*
 * TAP test for the feature probes: facts that hold on any kernel where
 * bpf() works as root, plus the promise that probing leaves no program,
 * map or link behind.
 */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "probe.h"

#include "../unit/tap.h"

/*
 * BPF objects this process holds.  A probe's program, map or link can
 * outlive the probe only through an fd left open (none attaches without
 * one), so our own fds are the exact count, whatever else the machine
 * loads meanwhile; system-wide ids would see every other BPF user.
 */
static int own_bpf_fds(void)
{
	char path[300], target[64];
	struct dirent *de;
	DIR *d = opendir("/proc/self/fd");
	ssize_t n;
	int count = 0;

	if (!d)
		return -1;
	while ((de = readdir(d))) {
		snprintf(path, sizeof(path), "/proc/self/fd/%s", de->d_name);
		n = readlink(path, target, sizeof(target) - 1);
		if (n <= 0)
			continue;
		target[n] = 0;
		if (!strncmp(target, "anon_inode:bpf-", 15) || !strcmp(target, "anon_inode:bpf_link"))
			count++;
	}
	closedir(d);
	return count;
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
	int fds, fds_after, i;
	bool range_ok = true, names_ok = true, same = true;
	char detail[256];

	if (geteuid() != 0) {
		printf("1..0 # SKIP needs root\n");
		return 0;
	}
	printf("1..7\n");

	/* Baseline before any probe has touched the kernel. */
	fds = own_bpf_fds();

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

	fds_after = own_bpf_fds();
	if (fds_after != fds)
		printf("# BPF fds held: %d before, %d after\n", fds, fds_after);
	ok(fds >= 0 && fds_after == fds, "no BPF program, map or link left open by the probes");

	return failures ? 1 : 0;
}
