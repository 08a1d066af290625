// SPDX-License-Identifier: GPL-2.0
/* A memory cgroup of our own for the length of a run: see memcg.h. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "memcg.h"
#include "sysfs.h"
#include "util.h"

#define MEMCG_PREFIX	"bpfbench-"

/* The measurement in progress, for the atexit safety net. */
static struct memcg *active;

static const char *const method_names[] = {
	[MEMCG_NONE] = "none",
	[MEMCG_V2] = "cgroup-v2",
	[MEMCG_V1] = "cgroup-v1",
	[MEMCG_FDINFO] = "fdinfo",
};

const char *memcg_method_name(enum memcg_method method)
{
	if ((size_t)method >= ARRAY_SIZE(method_names))
		return "?";
	return method_names[method];
}

static const char *usage_file(const struct memcg *m)
{
	return m->method == MEMCG_V2 ? "memory.current" : "memory.usage_in_bytes";
}

static const char *peak_file(const struct memcg *m)
{
	return m->method == MEMCG_V2 ? "memory.peak" : "memory.max_usage_in_bytes";
}

static void parent_of(const char *dir, char *out, size_t len)
{
	char *slash;

	snprintf(out, len, "%s", dir);
	slash = strrchr(out, '/');
	if (slash && slash != out)
		*slash = 0;
}

/*
 * Where, in v2, a child with the memory controller can hold us: under
 * home if its children get the controller (or can be given it), else
 * beside home when home itself has it (v2 lets no process live in a
 * cgroup whose children have controllers, the root excepted).  At the
 * root (a bare init, a container's own namespace) there is no "beside":
 * the root may hold processes and enable the controller for its children,
 * so we do (+memory in its subtree_control), as systemd would at boot.
 */
static int v2_parent(struct memcg *m, const char *mnt, char *parent, size_t len)
{
	bool root = !strcmp(m->home, mnt);
	int err;

	if (sysfs_has_word(m->home, "cgroup.subtree_control", "memory")) {
		snprintf(parent, len, "%s", m->home);
		return 0;
	}
	if (!root && sysfs_has_word(m->home, "cgroup.controllers", "memory")) {
		parent_of(m->home, parent, len);
		return 0;
	}
	err = sysfs_write(m->home, "cgroup.subtree_control", "+memory");
	if (!err) {
		snprintf(parent, len, "%s", m->home);
		return 0;
	}
	snprintf(m->why, sizeof(m->why), "cgroup v2: %s lacks the memory controller for its "
		 "children and refused +memory in cgroup.subtree_control: %s%s", m->home,
		 strerror(-err), err == -EBUSY ? " (it holds processes: only the root may)" : "");
	return err;
}

static bool pid_is_dead(pid_t pid)
{
	return kill(pid, 0) && errno == ESRCH;
}

/*
 * The pid a cgroup name of ours ends with, 0 if the name is not ours:
 * every name bpfbench gives a cgroup starts with "bpfbench-" and ends
 * with its creator's pid after '-' or '.' (bpfbench-<pid>, lpm-trie-free's
 * bpfbench-lpm-free.<pid>).
 */
static pid_t owner_of(const char *name)
{
	const char *end = name + strlen(name), *p = end;
	long pid;

	if (strncmp(name, MEMCG_PREFIX, strlen(MEMCG_PREFIX)))
		return 0;
	while (p > name + strlen(MEMCG_PREFIX) && isdigit((unsigned char)p[-1]))
		p--;
	if (p == end || (p[-1] != '-' && p[-1] != '.') || end - p > 9)
		return 0;
	pid = strtol(p, NULL, 10);
	return pid > 0 ? (pid_t)pid : 0;
}

/*
 * A cgroup left by a run that could not clean up (SIGKILL): its pid is
 * gone.  A live owner's is left alone, whatever it is, even if the pid
 * was reused: a cgroup of another run is never taken.  Runs in the
 * parent ours is made in and in home, where lpm-trie-free makes its own.
 */
static void remove_stale(const char *parent)
{
	char path[PATH_MAX + 300];
	struct dirent *de;
	pid_t pid;
	int err;
	DIR *d = opendir(parent);

	if (!d)
		return;
	while ((de = readdir(d))) {
		pid = owner_of(de->d_name);
		/* ours too: one run at a time per process, so a leftover of an earlier one */
		if (!pid || (pid != getpid() && !pid_is_dead(pid)))
			continue;
		snprintf(path, sizeof(path), "%s/%s", parent, de->d_name);
		err = cgroup_remove(path);
		if (err)
			vmsg("memcg: cannot remove stale %s: %s", path, strerror(-err));
		else
			vmsg("memcg: removed stale %s", path);
	}
	closedir(d);
}

static void memcg_atexit(void)
{
	if (active)
		memcg_leave(active);
}

/* Creates .../bpfbench-<pid> under parent and moves the whole process into it. */
static int join_new(struct memcg *m, const char *parent)
{
	static bool registered;
	char path[PATH_MAX + 64];
	int err;

	remove_stale(parent);
	if (strcmp(parent, m->home))	/* v2 beside home: lpm-trie-free's are under home */
		remove_stale(m->home);
	if (snprintf(m->dir, sizeof(m->dir), "%s/" MEMCG_PREFIX "%d", parent,
		     (int)getpid()) >= (int)sizeof(m->dir))
		return -ENAMETOOLONG;
	if (mkdir(m->dir, 0755)) {
		err = -errno;
		snprintf(m->why, sizeof(m->why), "cannot create %s: %s", m->dir, strerror(-err));
		return err;
	}
	m->made = true;
	if (!registered) {
		atexit(memcg_atexit);
		registered = true;
	}
	active = m;
	err = cgroup_enter(m->dir);
	if (err) {
		snprintf(m->why, sizeof(m->why), "cannot move into %s: %s", m->dir, strerror(-err));
		memcg_leave(m);
		return err;
	}
	m->joined = true;
	snprintf(path, sizeof(path), "%s/%s", m->dir, peak_file(m));
	m->has_peak = !access(path, R_OK);
	return 0;
}

static int try_cgroup(struct memcg *m)
{
	char parent[PATH_MAX];
	struct cg_mount cg;
	int err;

	if (cgroup_memory_mount(&cg) != 1) {
		snprintf(m->why, sizeof(m->why), "no memory cgroup hierarchy mounted");
		return -ENOENT;
	}
	err = cgroup_own_dir(&cg, m->home, sizeof(m->home));
	if (err) {
		snprintf(m->why, sizeof(m->why), "not found in /proc/self/cgroup: %s", strerror(-err));
		return err;
	}
	m->method = cg.version == CG_V2 ? MEMCG_V2 : MEMCG_V1;
	snprintf(parent, sizeof(parent), "%s", m->home);
	if (cg.version == CG_V2) {
		err = v2_parent(m, cg.dir, parent, sizeof(parent));
		if (err)
			return err;
	}
	return join_new(m, parent);
}

/* A cgroup demanded and not had: a privilege (exit 1), none here (skip), or another error. */
static int refused(const struct memcg *m, int err)
{
	if (err == -EACCES || err == -EPERM) {
		errmsg("memory cgroup: %s (no permission: run as root, or with CAP_DAC_OVERRIDE "
		       "and CAP_SYS_ADMIN)", m->why);
		return -EPERM;
	}
	if (err == -ENOENT || err == -EROFS) {
		skipmsg("memory cgroup: %s", m->why);
		return -EOPNOTSUPP;
	}
	errmsg("memory cgroup: %s", m->why);
	return err;
}

int memcg_enter(struct memcg *m, enum memcg_want want)
{
	int err;

	memset(m, 0, sizeof(*m));
	m->map_fd = -1;
	m->peak_fd = -1;
	if (want != MEMCG_WANT_FDINFO) {
		err = try_cgroup(m);
		if (!err)
			return 0;
		m->method = MEMCG_NONE;
		if (want == MEMCG_WANT_CGROUP)
			return refused(m, err);
		vmsg("memcg: %s; measuring the map's memlock instead", m->why);
	} else {
		snprintf(m->why, sizeof(m->why), "not asked for");
	}
	m->method = MEMCG_FDINFO;
	return 0;
}

void memcg_watch_map(struct memcg *m, int map_fd)
{
	m->map_fd = map_fd;
}

static int fdinfo_memlock(int fd, uint64_t *val)
{
	char path[64], line[256];
	int ret = -ENOENT;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (ret && fgets(line, sizeof(line), f))
		if (sscanf(line, "memlock: %" SCNu64, val) == 1)
			ret = 0;
	fclose(f);
	return ret;
}

/* v2 (6.12+): writing to memory.peak restarts it for reads through the same file. */
static int v2_reset_peak(struct memcg *m)
{
	char path[PATH_MAX + 64];
	int fd;

	snprintf(path, sizeof(path), "%s/memory.peak", m->dir);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, "reset\n", 6) != 6) {
		close(fd);
		return -errno;
	}
	if (m->peak_fd >= 0)
		close(m->peak_fd);
	m->peak_fd = fd;
	return 0;
}

int memcg_reset_peak(struct memcg *m)
{
	int err = 0;

	m->peak_seen = 0;
	if (!m->has_peak || !m->joined)
		return 0;
	if (m->method == MEMCG_V1)
		err = sysfs_write(m->dir, "memory.max_usage_in_bytes", "0");
	else if (m->method == MEMCG_V2) {
		err = v2_reset_peak(m);
	}
	if (err)	/* the kernel cannot restart it: keep the largest sample instead */
		m->has_peak = false;
	return err;
}

static int read_peak(struct memcg *m)
{
	char buf[64], *end;
	ssize_t n;

	if (m->peak_fd < 0)
		return sysfs_read_u64(m->dir, peak_file(m), &m->peak_seen);
	n = pread(m->peak_fd, buf, sizeof(buf) - 1, 0);
	if (n < 0)
		return -errno;
	buf[n] = 0;
	errno = 0;
	m->peak_seen = strtoull(buf, &end, 10);
	return errno || end == buf ? -EINVAL : 0;
}

int memcg_sample(struct memcg *m, uint64_t *usage, uint64_t *peak)
{
	int err;

	switch (m->method) {
	case MEMCG_V1:
	case MEMCG_V2:
		if (!m->joined)
			return -ENOENT;
		err = sysfs_read_u64(m->dir, usage_file(m), usage);
		if (!err && m->has_peak)
			err = read_peak(m);
		break;
	case MEMCG_FDINFO:
		err = m->map_fd < 0 ? -EBADF : fdinfo_memlock(m->map_fd, usage);
		break;
	default:
		return -ENOENT;
	}
	if (err)
		return err;
	if (!m->has_peak && *usage > m->peak_seen)
		m->peak_seen = *usage;
	*peak = m->peak_seen;
	return 0;
}

void memcg_leave(struct memcg *m)
{
	int err;

	if (m->peak_fd >= 0) {
		close(m->peak_fd);
		m->peak_fd = -1;
	}
	if (m->joined) {
		err = cgroup_enter(m->home);
		if (err)
			errmsg("memory cgroup: cannot move back to %s: %s", m->home, strerror(-err));
		m->joined = false;
	}
	if (m->made) {
		err = cgroup_remove(m->dir);
		if (err)
			errmsg("memory cgroup: cannot remove %s: %s", m->dir, strerror(-err));
		m->made = false;
	}
	if (active == m)
		active = NULL;
}

const char *memcg_method_label(const struct memcg *m)
{
	switch (m->method) {
	case MEMCG_V1:
		return m->has_peak ? "cgroup-v1 memory.usage_in_bytes, memory.max_usage_in_bytes" :
			"cgroup-v1 memory.usage_in_bytes, peak the largest sample";
	case MEMCG_V2:
		return m->has_peak ? "cgroup-v2 memory.current, memory.peak" :
			"cgroup-v2 memory.current, peak the largest sample";
	case MEMCG_FDINFO:
		return "fdinfo memlock of the map, peak the largest sample";
	default:
		return "none";
	}
}

void memcg_describe(const struct memcg *m, char *buf, size_t len)
{
	if (m->method == MEMCG_V1 || m->method == MEMCG_V2)
		snprintf(buf, len, "%s of %s", memcg_method_label(m), m->dir);
	else if (m->method == MEMCG_FDINFO)
		snprintf(buf, len, "%s (no cgroup: %s)", memcg_method_label(m), m->why);
	else
		snprintf(buf, len, "none");
}

uint64_t mem_available(void)
{
	FILE *f = fopen("/proc/meminfo", "re");
	unsigned long long kb = 0;
	char line[128];

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb * 1024;
}
