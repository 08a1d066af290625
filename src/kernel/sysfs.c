// SPDX-License-Identifier: GPL-2.0
/* procfs, sysfs and cgroup files, the mount table, cgroups: see sysfs.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include "sysfs.h"

static int join(const char *dir, const char *name, char *path, size_t len)
{
	int n = name ? snprintf(path, len, "%s/%s", dir, name) : snprintf(path, len, "%s", dir);

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

int sysfs_read(const char *dir, const char *name, char *buf, size_t len)
{
	char path[PATH_MAX + 64];
	ssize_t n;
	int fd, err = join(dir, name, path, sizeof(path));

	if (err)
		return err;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	err = n < 0 ? -errno : 0;
	close(fd);
	buf[n < 0 ? 0 : n] = 0;
	return err;
}

int proc_stat_field(const char *path, int field, long long *val)
{
	char buf[1024], *p, *save = NULL;
	int err = sysfs_read(path, NULL, buf, sizeof(buf)), f = 2;

	if (err)
		return err;
	/* the name (field 2) may hold spaces and parentheses: count from its last ')' */
	p = strrchr(buf, ')');
	if (!p || field < 3)
		return -EINVAL;
	for (p = strtok_r(p + 1, " \n", &save); p; p = strtok_r(NULL, " \n", &save)) {
		if (++f == field) {
			*val = strtoll(p, NULL, 10);
			return 0;
		}
	}
	return -EINVAL;
}

int sysfs_read_u64(const char *dir, const char *name, uint64_t *val)
{
	char buf[64], *end;
	int err = sysfs_read(dir, name, buf, sizeof(buf));

	if (err)
		return err;
	if (buf[0] < '0' || buf[0] > '9')	/* "max", or empty */
		return -ERANGE;
	errno = 0;
	*val = strtoull(buf, &end, 10);
	if (errno || (*end && *end != '\n'))
		return -EINVAL;
	return 0;
}

int sysfs_write(const char *dir, const char *name, const char *text)
{
	char path[PATH_MAX + 64];
	ssize_t n;
	int fd, err = join(dir, name, path, sizeof(path));

	if (err)
		return err;
	/* O_TRUNC as a shell's >: the kernel's files ignore it, a test's fake tree needs it */
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
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

bool list_has_word(const char *list, const char *word, const char *sep)
{
	size_t wl = strlen(word);
	const char *p = list;

	while (*p) {
		size_t n = strcspn(p, sep);

		if (n == wl && !strncmp(p, word, wl))
			return true;
		p += n;
		p += strspn(p, sep);
	}
	return false;
}

bool sysfs_has_word(const char *dir, const char *name, const char *word)
{
	char buf[1024];

	return !sysfs_read(dir, name, buf, sizeof(buf)) && list_has_word(buf, word, " \n");
}

/* ---- the mount table ---- */

/* Undo the \ooo octal escapes /proc uses for spaces and the like. */
static void unescape_copy(char *dst, size_t size, const char *src)
{
	size_t n = 0;

	while (*src && n + 1 < size) {
		if (src[0] == '\\' && src[1] >= '0' && src[1] <= '7' &&
		    src[2] >= '0' && src[2] <= '7' && src[3] >= '0' && src[3] <= '7') {
			dst[n++] = (char)((src[1] - '0') * 64 + (src[2] - '0') * 8 + (src[3] - '0'));
			src += 4;
		} else {
			dst[n++] = *src++;
		}
	}
	dst[n] = '\0';
}

static void copy_field(char *dst, size_t size, const char *src)
{
	snprintf(dst, size, "%s", src ? src : "");
}

/* mountinfo: id parent dev root dir opts [optional...] - fstype src superopts */
static bool parse_mountinfo(char *line, struct mount_ent *m)
{
	char *save = NULL, *tok, *dir;
	int i;

	tok = strtok_r(line, " \n", &save);
	for (i = 0; tok && i < 4; i++)
		tok = strtok_r(NULL, " \n", &save);
	if (!tok)
		return false;
	dir = tok;
	while ((tok = strtok_r(NULL, " \n", &save)) && strcmp(tok, "-"))
		;
	if (!tok || !(tok = strtok_r(NULL, " \n", &save)))
		return false;
	unescape_copy(m->dir, sizeof(m->dir), dir);
	copy_field(m->fstype, sizeof(m->fstype), tok);
	strtok_r(NULL, " \n", &save);	/* source */
	copy_field(m->opts, sizeof(m->opts), strtok_r(NULL, " \n", &save));
	return true;
}

/* /proc/mounts: src dir fstype opts freq passno */
static bool parse_mounts(char *line, struct mount_ent *m)
{
	char *save = NULL, *dir, *type;

	if (!strtok_r(line, " \n", &save))
		return false;
	dir = strtok_r(NULL, " \n", &save);
	type = strtok_r(NULL, " \n", &save);
	if (!dir || !type)
		return false;
	unescape_copy(m->dir, sizeof(m->dir), dir);
	copy_field(m->fstype, sizeof(m->fstype), type);
	copy_field(m->opts, sizeof(m->opts), strtok_r(NULL, " \n", &save));
	return true;
}

int mount_each(bool (*fn)(const struct mount_ent *m, void *arg), void *arg)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	bool info = f != NULL, ok;
	struct mount_ent *m;
	char *line = NULL;
	size_t cap = 0;
	int ret = 0;

	if (!f && !(f = fopen("/proc/mounts", "re")))
		return -errno;
	m = malloc(sizeof(*m));
	if (!m) {
		fclose(f);
		return -ENOMEM;
	}
	while (getline(&line, &cap, f) > 0) {
		ok = info ? parse_mountinfo(line, m) : parse_mounts(line, m);
		if (ok && fn(m, arg)) {
			ret = 1;
			break;
		}
	}
	free(line);
	free(m);
	fclose(f);
	return ret;
}

struct fstype_match {
	const char *fstype;
	char *dir;
	size_t len;
};

static bool match_fstype(const struct mount_ent *m, void *arg)
{
	struct fstype_match *fm = arg;

	if (strcmp(m->fstype, fm->fstype))
		return false;
	snprintf(fm->dir, fm->len, "%s", m->dir);
	return true;
}

int mount_find(const char *fstype, char *dir, size_t len)
{
	struct fstype_match fm = { fstype, dir, len };

	return mount_each(match_fstype, &fm);
}

/* ---- cgroups ---- */

static bool match_memcg(const struct mount_ent *m, void *arg)
{
	struct cg_mount *cg = arg;

	if (!strcmp(m->fstype, "cgroup2") && sysfs_has_word(m->dir, "cgroup.controllers", "memory")) {
		cg->version = CG_V2;
		snprintf(cg->dir, sizeof(cg->dir), "%s", m->dir);
		return true;	/* v2 wins; nothing better to find */
	}
	/* v1 controllers may be co-mounted: "rw,cpu,memory" */
	if (!strcmp(m->fstype, "cgroup") && !cg->version && list_has_word(m->opts, "memory", ",")) {
		cg->version = CG_V1;
		snprintf(cg->dir, sizeof(cg->dir), "%s", m->dir);
	}
	return false;
}

int cgroup_memory_mount(struct cg_mount *m)
{
	int ret;

	memset(m, 0, sizeof(*m));
	ret = mount_each(match_memcg, m);
	if (ret < 0)
		return ret;
	return m->version ? 1 : 0;
}

const char *cgroup_memory_usage_file(const struct cg_mount *m)
{
	return m->version == CG_V2 ? "memory.current" : "memory.usage_in_bytes";
}

const char *cgroup_memory_peak_file(const struct cg_mount *m)
{
	return m->version == CG_V2 ? "memory.peak" : "memory.max_usage_in_bytes";
}

/* The "0::" line for v2, the line whose controller list names "memory" for v1. */
static bool is_our_line(const struct cg_mount *m, const char *id, const char *ctrl)
{
	if (m->version == CG_V2)
		return !strcmp(id, "0") && !*ctrl;
	return list_has_word(ctrl, "memory", ",");
}

int cgroup_own_dir(const struct cg_mount *m, char *dir, size_t len)
{
	FILE *f = fopen("/proc/self/cgroup", "re");
	char line[PATH_MAX + 256], *ctrl, *path;
	int ret = -ENOENT;

	if (!f)
		return -errno;
	while (ret == -ENOENT && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		ctrl = strchr(line, ':');
		path = ctrl ? strchr(ctrl + 1, ':') : NULL;
		if (!path)
			continue;
		*ctrl++ = 0;
		*path++ = 0;
		if (!is_our_line(m, line, ctrl))
			continue;
		ret = snprintf(dir, len, "%s%s", m->dir, strcmp(path, "/") ? path : "");
		ret = ret < 0 || (size_t)ret >= len ? -ENAMETOOLONG : 0;
	}
	fclose(f);
	return ret;
}

int cgroup_create(const char *parent, const char *name, char *dir, size_t len)
{
	int err = join(parent, name, dir, len);

	if (err)
		return err;
	return mkdir(dir, 0755) ? -errno : 0;
}

int cgroup_enter(const char *dir)
{
	char pid[32];

	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	return sysfs_write(dir, "cgroup.procs", pid);
}

int cgroup_remove(const char *dir)
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
