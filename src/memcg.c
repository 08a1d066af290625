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
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include "memcg.h"
#include "probe.h"
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

static int read_text(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;
	int err;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	err = n < 0 ? -errno : 0;
	close(fd);
	if (err)
		return err;
	buf[n] = 0;
	return 0;
}

static int write_text(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;
	int err = 0;

	if (fd < 0)
		return -errno;
	n = write(fd, text, strlen(text));
	if (n < 0)
		err = -errno;
	else if ((size_t)n != strlen(text))
		err = -EIO;
	close(fd);
	return err;
}

static int read_u64_file(const char *dir, const char *name, uint64_t *val)
{
	char path[PATH_MAX + 64], buf[64], *end;
	int err;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	err = read_text(path, buf, sizeof(buf));
	if (err)
		return err;
	errno = 0;
	*val = strtoull(buf, &end, 10);
	if (errno || end == buf)
		return -EINVAL;
	return 0;
}

static bool file_has_word(const char *path, const char *word)
{
	char buf[1024], *tok, *save = NULL;

	if (read_text(path, buf, sizeof(buf)))
		return false;
	for (tok = strtok_r(buf, " \n", &save); tok; tok = strtok_r(NULL, " \n", &save))
		if (!strcmp(tok, word))
			return true;
	return false;
}

static bool list_has_word(const char *list, const char *word)
{
	size_t n = strlen(word);
	const char *p = list;

	while ((p = strstr(p, word))) {
		if ((p == list || p[-1] == ',') && (p[n] == ',' || p[n] == 0))
			return true;
		p += n;
	}
	return false;
}

/*
 * Our path inside the hierarchy from /proc/self/cgroup: the "0::" line
 * for v2, the line whose controller list names "memory" for v1.
 */
static int own_cgroup_path(bool v2, char *out, size_t len)
{
	FILE *f = fopen("/proc/self/cgroup", "re");
	char line[PATH_MAX + 256], *ctrl, *path;
	int ret = -ENOENT;

	if (!f)
		return -errno;
	while (ret && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		ctrl = strchr(line, ':');
		path = ctrl ? strchr(ctrl + 1, ':') : NULL;
		if (!path)
			continue;
		*path++ = 0;
		ctrl++;
		if (v2 ? !strcmp(line, "0") && !*ctrl : list_has_word(ctrl, "memory")) {
			snprintf(out, len, "%s", path);
			ret = 0;
		}
	}
	fclose(f);
	return ret;
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
 * cgroup whose children have controllers, the root excepted).
 */
static int v2_parent(struct memcg *m, char *parent, size_t len)
{
	char path[PATH_MAX + 64];
	int err;

	snprintf(path, sizeof(path), "%s/cgroup.subtree_control", m->home);
	if (file_has_word(path, "memory")) {
		snprintf(parent, len, "%s", m->home);
		return 0;
	}
	snprintf(path, sizeof(path), "%s/cgroup.controllers", m->home);
	if (file_has_word(path, "memory")) {
		parent_of(m->home, parent, len);
		return 0;
	}
	snprintf(path, sizeof(path), "%s/cgroup.subtree_control", m->home);
	err = write_text(path, "+memory");
	if (!err) {
		snprintf(parent, len, "%s", m->home);
		return 0;
	}
	snprintf(m->why, sizeof(m->why), "cgroup v2: memory controller not available below %s: %s",
		 m->home, strerror(-err));
	return err;
}

static bool pid_is_dead(pid_t pid)
{
	return kill(pid, 0) && errno == ESRCH;
}

/* rmdir, waiting a little while the kernel finishes with tasks that just left. */
static int remove_dir(const char *dir)
{
	struct timespec ts = { 0, 10 * 1000 * 1000 };
	int i;

	for (i = 0; i < 100; i++) {
		if (!rmdir(dir) || errno == ENOENT)
			return 0;
		if (errno != EBUSY)
			return -errno;
		nanosleep(&ts, NULL);
	}
	return -EBUSY;
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
		err = remove_dir(path);
		if (err)
			vmsg("memcg: cannot remove stale %s: %s", path, strerror(-err));
		else
			vmsg("memcg: removed stale %s", path);
	}
	closedir(d);
}

static int move_self(const char *dir)
{
	char path[PATH_MAX + 64], pid[32];

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	return write_text(path, pid);
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
	err = move_self(m->dir);
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
	char detail[PATH_MAX + 8], rel[PATH_MAX], parent[PATH_MAX];
	bool v2;
	int err;

	if (probe_feature(PROBE_MEMCG, detail, sizeof(detail)) != 1) {
		snprintf(m->why, sizeof(m->why), "no memory cgroup hierarchy mounted");
		return -ENOENT;
	}
	v2 = !strncmp(detail, "v2:", 3);
	err = own_cgroup_path(v2, rel, sizeof(rel));
	if (err) {
		snprintf(m->why, sizeof(m->why), "not found in /proc/self/cgroup: %s", strerror(-err));
		return err;
	}
	if (snprintf(m->home, sizeof(m->home), "%s%s", detail + 3,
		     strcmp(rel, "/") ? rel : "") >= (int)sizeof(m->home))
		return -ENAMETOOLONG;
	m->method = v2 ? MEMCG_V2 : MEMCG_V1;
	snprintf(parent, sizeof(parent), "%s", m->home);
	if (v2) {
		err = v2_parent(m, parent, sizeof(parent));
		if (err)
			return err;
	}
	return join_new(m, parent);
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
		if (want == MEMCG_WANT_CGROUP) {
			errmsg("memory cgroup: %s", m->why);
			return err;
		}
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
	char path[PATH_MAX + 64];
	int err = 0;

	m->peak_seen = 0;
	if (!m->has_peak || !m->joined)
		return 0;
	if (m->method == MEMCG_V1) {
		snprintf(path, sizeof(path), "%s/memory.max_usage_in_bytes", m->dir);
		err = write_text(path, "0");
	} else if (m->method == MEMCG_V2) {
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
		return read_u64_file(m->dir, peak_file(m), &m->peak_seen);
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
		err = read_u64_file(m->dir, usage_file(m), usage);
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
		err = move_self(m->home);
		if (err)
			errmsg("memory cgroup: cannot move back to %s: %s", m->home, strerror(-err));
		m->joined = false;
	}
	if (m->made) {
		err = remove_dir(m->dir);
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
