// SPDX-License-Identifier: GPL-2.0
/*
 * TAP test for the procfs/sysfs/cgroup layer (src/kernel/sysfs.c): file values,
 * the mount table, and a memory cgroup of our own made, entered, read,
 * left and removed on whichever cgroup version this host has, as
 * lpm-trie-free's memory-cgroup fallback will do.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "sysfs.h"
#include "util.h"

#include "tap.h"

static void put(const char *dir, const char *name, const char *text)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static void files(void)
{
	char dir[] = "/tmp/sysfs_test.XXXXXX", buf[64];
	uint64_t v = 0;

	if (!mkdtemp(dir)) {
		ok(false, "a temporary directory");
		return;
	}
	put(dir, "n", "123456789012\n");
	put(dir, "max", "max\n");
	put(dir, "junk", "12x\n");
	put(dir, "ctrl", "cpu io memory pids\n");
	ok(!sysfs_read_u64(dir, "n", &v) && v == 123456789012ull, "a number with its newline");
	ok(sysfs_read_u64(dir, "max", &v) == -ERANGE, "\"max\" is -ERANGE, not 0");
	ok(sysfs_read_u64(dir, "junk", &v) == -EINVAL, "trailing junk is -EINVAL");
	ok(sysfs_read_u64(dir, "none", &v) == -ENOENT, "a missing file is -ENOENT");
	ok(!sysfs_write(dir, "n", "7") && !sysfs_read(dir, "n", buf, sizeof(buf)) &&
	   !strncmp(buf, "7", 1), "write then read back");
	ok(sysfs_has_word(dir, "ctrl", "memory") && !sysfs_has_word(dir, "ctrl", "mem"),
	   "a word of a list, not a part of one");
	ok(list_has_word("rw,cpu,memory", "memory", ",") && !list_has_word("rw,memoryx", "memory", ","),
	   "a super option among commas");
	ok(!strcmp(errname(-EPERM), "EPERM") && !strcmp(errname(524), "ENOTSUPP") &&
	   !strcmp(errname(EINVAL), "EINVAL"), "errno names, the kernel's ENOTSUPP included");
	snprintf(buf, sizeof(buf), "rm -rf %s", dir);
	if (system(buf))
		printf("# could not remove %s\n", dir);
}

static void mounts(void)
{
	char dir[PATH_MAX];

	ok(mount_find("proc", dir, sizeof(dir)) == 1 && !strcmp(dir, "/proc"), "proc is found at /proc");
	ok(mount_find("no-such-fs", dir, sizeof(dir)) == 0, "an absent file system is 0");
}

/* Our own memory cgroup: the process is in it and its usage reads. */
static void own_cgroup(const struct cg_mount *m, const char *home)
{
	char mine[PATH_MAX], name[64], back[PATH_MAX];
	uint64_t usage = 0;
	struct stat st;
	int err;

	snprintf(name, sizeof(name), "bpfbench-sysfs-test.%d", (int)getpid());
	err = cgroup_create(home, name, mine, sizeof(mine));
	if (err == -EBUSY || err == -EACCES || err == -EROFS) {
		printf("ok %d # SKIP cannot make a cgroup under %s: %s\n", ++test_num, home,
		       strerror(-err));
		return;
	}
	ok(!err, "a cgroup of our own is made");
	err = cgroup_enter(mine);
	ok(!err && !cgroup_own_dir(m, back, sizeof(back)) && !strcmp(back, mine),
	   "the process moves in: /proc/self/cgroup says so");
	/* v2: a child of home may lack the controller (memcg.c knows where to go) */
	if (!sysfs_read_u64(mine, cgroup_memory_usage_file(m), &usage))
		ok(usage > 0, "its memory usage reads, above zero");
	else
		printf("ok %d # SKIP no %s in %s\n", ++test_num, cgroup_memory_usage_file(m), mine);
	ok(!cgroup_enter(home) && !cgroup_remove(mine) && stat(mine, &st) && errno == ENOENT,
	   "back home, and the cgroup is removed");
	ok(!cgroup_remove(mine), "removing it again is no error");
}

int main(void)
{
	char home[PATH_MAX];
	struct cg_mount m;
	int ret;

	files();
	mounts();
	ret = cgroup_memory_mount(&m);
	ok(ret >= 0, "the mount table reads");
	if (ret != 1 || geteuid()) {
		printf("ok %d # SKIP %s\n", ++test_num, ret != 1 ? "no memory cgroup" : "needs root");
	} else {
		printf("# memory cgroup v%d at %s\n", m.version, m.dir);
		ret = cgroup_own_dir(&m, home, sizeof(home));
		ok(!ret && !strncmp(home, m.dir, strlen(m.dir)), "our cgroup is inside that hierarchy");
		if (!ret)
			own_cgroup(&m, home);
	}
	printf("1..%d\n", test_num);
	return failures ? 1 : 0;
}
