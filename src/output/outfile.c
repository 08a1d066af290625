// SPDX-License-Identifier: GPL-2.0
/*
 * Result files.  bpfbench runs as root and is often told to write into
 * directories other users can write to (/tmp), so no name there is
 * trusted: the temporary is made with O_EXCL|O_NOFOLLOW under a random
 * name, and a symbolic link is followed only where nobody else can have
 * planted or swapped it.  See util.h for the rules.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include "outfile.h"
#include "util.h"

enum out_kind {
	OUT_FD,		/* an open descriptor: "-", /dev/stdout, /dev/fd/N */
	OUT_DIRECT,	/* an existing device, fifo or socket: written in place */
	OUT_REPLACE,	/* a regular file or a new name: temporary + rename */
};

struct out_target {
	enum out_kind kind;
	int fd;			/* OUT_FD */
	bool follow;		/* OUT_DIRECT: the name is a trusted symlink */
	bool existed;		/* OUT_REPLACE: st is the file replaced */
	struct stat st;
	char path[PATH_MAX];	/* what is opened or replaced */
};

/* "/dev/stdout", "/dev/stderr", "/dev/fd/N", "/proc/self/fd/N": N, else -1. */
static int fd_of_name(const char *path)
{
	static const char *const dirs[] = { "/dev/fd/", "/proc/self/fd/" };
	const char *num = NULL;
	char *end;
	size_t i;
	long n;

	if (!strcmp(path, "-") || !strcmp(path, "/dev/stdout"))
		return 1;
	if (!strcmp(path, "/dev/stderr"))
		return 2;
	for (i = 0; i < ARRAY_SIZE(dirs); i++)
		if (!strncmp(path, dirs[i], strlen(dirs[i])))
			num = path + strlen(dirs[i]);
	if (!num || *num < '0' || *num > '9')
		return -1;
	errno = 0;
	n = strtol(num, &end, 10);
	return errno || *end || n > INT_MAX ? -1 : (int)n;
}

static int fd_writable(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl < 0)
		return -errno;
	return (fl & O_ACCMODE) == O_RDONLY ? -EBADF : 0;
}

static void dir_of(const char *path, char *dir, size_t len)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		snprintf(dir, len, ".");
	else if (slash == path)
		snprintf(dir, len, "/");
	else
		snprintf(dir, len, "%.*s", (int)(slash - path), path);
}

/*
 * The kernel's protected_symlinks rule, made stricter and not left to a
 * sysctl: a link is followed only if we own it and no other user can
 * replace it, i.e. its directory is ours or root's and either writable
 * by nobody else or sticky.
 */
static bool link_trusted(const char *path, const struct stat *link)
{
	char dir[PATH_MAX];
	struct stat d;

	dir_of(path, dir, sizeof(dir));
	if (link->st_uid != geteuid() || stat(dir, &d))
		return false;
	if (d.st_uid != geteuid() && d.st_uid != 0)
		return false;
	return !(d.st_mode & (S_IWGRP | S_IWOTH)) || (d.st_mode & S_ISVTX);
}

static int resolve_link(const char *path, const struct stat *lst, struct out_target *t)
{
	struct stat st;

	if (!link_trusted(path, lst) || stat(path, &st)) {
		t->kind = OUT_REPLACE;	/* the link itself is replaced, its target untouched */
		return 0;
	}
	if (S_ISDIR(st.st_mode))
		return -EISDIR;
	if (!S_ISREG(st.st_mode)) {
		t->kind = OUT_DIRECT;
		t->follow = true;
		t->st = st;
		return 0;
	}
	if (!realpath(path, t->path))
		return -errno;
	t->kind = OUT_REPLACE;
	t->existed = true;
	t->st = st;
	return 0;
}

static int resolve(const char *path, struct out_target *t)
{
	struct stat st;

	memset(t, 0, sizeof(*t));
	t->fd = fd_of_name(path);
	if (t->fd >= 0) {
		t->kind = OUT_FD;
		return fd_writable(t->fd);
	}
	if (snprintf(t->path, sizeof(t->path), "%s", path) >= (int)sizeof(t->path))
		return -ENAMETOOLONG;
	if (lstat(path, &st)) {
		if (errno != ENOENT)
			return -errno;
		t->kind = OUT_REPLACE;
		return 0;
	}
	if (S_ISLNK(st.st_mode))
		return resolve_link(path, &st, t);
	if (S_ISDIR(st.st_mode))
		return -EISDIR;
	t->kind = S_ISREG(st.st_mode) ? OUT_REPLACE : OUT_DIRECT;
	t->existed = S_ISREG(st.st_mode);
	t->st = st;
	return 0;
}

/* An unguessable name beside the target, created O_EXCL|O_NOFOLLOW (mkostemp). */
static int make_tmp(const char *path, char *tmp, size_t len)
{
	int fd;

	if (snprintf(tmp, len, "%s.tmp.XXXXXX", path) >= (int)len)
		return -ENAMETOOLONG;
	fd = mkostemp(tmp, O_CLOEXEC | O_NOFOLLOW);
	return fd < 0 ? -errno : fd;
}

int output_path_check(const char *path)
{
	struct out_target t;
	char tmp[PATH_MAX + 16];
	int err = resolve(path, &t), fd;

	if (err || t.kind == OUT_FD)
		return err;
	if (t.kind == OUT_DIRECT)	/* never opened here: opening a fifo or a tty has effects */
		return access(t.path, W_OK) ? -errno : 0;
	fd = make_tmp(t.path, tmp, sizeof(tmp));
	if (fd < 0)
		return fd;
	close(fd);
	unlink(tmp);
	return 0;
}

/* fflush + ferror + fclose; the first error as -errno. */
static int close_file(FILE *f)
{
	int err = 0;

	if (fflush(f) || ferror(f))
		err = errno ? -errno : -EIO;
	if (fclose(f) && !err)
		err = errno ? -errno : -EIO;
	return err;
}

static int write_fd(int fd, void (*write)(FILE *f, void *arg), void *arg)
{
	FILE *f;
	int copy;

	if (fd == 1) {
		write(stdout, arg);
		if (fflush(stdout) || ferror(stdout)) {
			stdout_error_said();	/* the caller reports it */
			return errno ? -errno : -EIO;
		}
		return 0;
	}
	/* whatever stdout and stderr hold goes first, as the order of a terminal */
	fflush(stdout);
	fflush(stderr);
	copy = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	if (copy < 0)
		return -errno;
	f = fdopen(copy, "w");
	if (!f) {
		close(copy);
		return -ENOMEM;
	}
	write(f, arg);
	return close_file(f);
}

/* A device, fifo or socket: opened as it is (no O_CREAT, no O_TRUNC), never replaced. */
static int write_direct(const struct out_target *t, void (*write)(FILE *f, void *arg), void *arg)
{
	int fd = open(t->path, O_WRONLY | O_NOCTTY | O_CLOEXEC | (t->follow ? 0 : O_NOFOLLOW));
	struct stat st;
	FILE *f;

	if (fd < 0)
		return -errno;
	/* what was checked is what got opened, or someone swapped the name meanwhile */
	if (fstat(fd, &st) || st.st_dev != t->st.st_dev || st.st_ino != t->st.st_ino) {
		close(fd);
		return -ESTALE;
	}
	f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		return -ENOMEM;
	}
	write(f, arg);
	return close_file(f);
}

static void sync_dir(const char *path)
{
	char dir[PATH_MAX];
	int fd;

	dir_of(path, dir, sizeof(dir));
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
}

/* A replaced file keeps its mode and owner; a new one is 0644 whatever the umask. */
static int set_attrs(int fd, const struct out_target *t)
{
	if (!t->existed)
		return fchmod(fd, 0644) ? -errno : 0;
	/* best effort: only root may give a file away, and it is root we guard against */
	if (fchown(fd, t->st.st_uid, t->st.st_gid) && errno != EPERM)
		return -errno;
	return fchmod(fd, t->st.st_mode & 0777) ? -errno : 0;
}

static int write_replace(const struct out_target *t, void (*write)(FILE *f, void *arg), void *arg)
{
	char tmp[PATH_MAX + 16];
	int fd, err;
	FILE *f;

	fd = make_tmp(t->path, tmp, sizeof(tmp));
	if (fd < 0)
		return fd;
	err = set_attrs(fd, t);
	f = err ? NULL : fdopen(fd, "w");
	if (!f) {
		close(fd);
		unlink(tmp);
		return err ? err : -ENOMEM;
	}
	write(f, arg);
	err = fflush(f) || ferror(f) || fsync(fileno(f)) ? (errno ? -errno : -EIO) : 0;
	if (fclose(f) && !err)
		err = -errno;
	if (!err && rename(tmp, t->path))
		err = -errno;
	if (err) {
		unlink(tmp);
		return err;
	}
	sync_dir(t->path);
	return 0;
}

int write_file_atomic(const char *path, void (*write)(FILE *f, void *arg), void *arg)
{
	struct out_target t;
	int err = resolve(path, &t);

	if (err)
		return err;
	switch (t.kind) {
	case OUT_FD:
		return write_fd(t.fd, write, arg);
	case OUT_DIRECT:
		return write_direct(&t, write, arg);
	default:
		return write_replace(&t, write, arg);
	}
}

int output_paths_check(const char *const *paths, int n)
{
	int i, err;

	for (i = 0; i < n; i++) {
		if (!paths[i])
			continue;
		err = output_path_check(paths[i]);
		if (err) {
			errmsg("cannot write %s: %s", paths[i], strerror(-err));
			return 1;
		}
	}
	return 0;
}
