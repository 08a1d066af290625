// SPDX-License-Identifier: GPL-2.0
/*
 * Output paths walked safely (src/output/outpath.h).  bpfbench runs as root and
 * is often told to write into directories other users can write to
 * (/tmp): a link another user planted anywhere on the path, as a
 * directory or as the file, must never make root write where it points.
 * The kernel's fs.protected_symlinks would refuse such links in sticky
 * directories, but it is a sysctl and often 0; this does not rely on it.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/file.h>
#include <sys/statfs.h>
#include <linux/magic.h>
#include <sys/random.h>
#include "outpath.h"
#include "util.h"

#define MAX_LINKS	40	/* as the kernel's ELOOP limit */
/* The temporary of a name too long to take the suffix (NAME_MAX is the name's own limit). */
#define SHORT_TMP	".bpfbench.tmp."

static __thread char why[PATH_MAX + 200];

const char *outpath_why(void)
{
	return why;
}

void outpath_say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
}

/*
 * A link no user but us or root can have made or changed: it is ours or
 * root's, in a directory that is ours or root's and that nobody else
 * may write to, or that is sticky (then only the link's owner may
 * rename or remove it).  Stricter than protected_symlinks, which also
 * trusts any user's link in that user's own directory.
 */
static bool link_trusted(int dirfd, const struct stat *link)
{
	uid_t me = geteuid();
	struct stat d;

	if ((link->st_uid != me && link->st_uid != 0) || fstat(dirfd, &d))
		return false;
	if (d.st_uid != me && d.st_uid != 0)
		return false;
	return !(d.st_mode & (S_IWGRP | S_IWOTH)) || (d.st_mode & S_ISVTX);
}

static int open_dir(int at, const char *name)
{
	int fd = openat(at, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

/* The next component at *p into comp, *p moved past it: its length, 0 at the end. */
static int next_comp(const char **p, char *comp)
{
	size_t len;

	*p += strspn(*p, "/");
	len = strcspn(*p, "/");
	if (len > NAME_MAX)
		return -ENAMETOOLONG;
	memcpy(comp, *p, len);
	comp[len] = 0;
	*p += len;
	return (int)len;
}

/* The link comp in *dirfd read, and rest rewritten as its target followed by what is left (rem). */
static int splice_link(int *dirfd, const char *comp, const char *rem, bool slash, char *rest)
{
	char target[PATH_MAX], buf[PATH_MAX];
	ssize_t n = readlinkat(*dirfd, comp, target, sizeof(target) - 1);
	int fd;

	if (n < 0)
		return -errno;
	target[n] = 0;
	if (snprintf(buf, sizeof(buf), "%s%s%s", target, *rem || slash ? "/" : "", rem) >=
	    (int)sizeof(buf))
		return -ENAMETOOLONG;
	if (target[0] == '/') {
		fd = open_dir(AT_FDCWD, "/");
		if (fd < 0)
			return fd;
		close(*dirfd);
		*dirfd = fd;
	}
	strcpy(rest, buf);
	return 0;
}

static int walk(int start, const char *path, int *links, struct out_where *w);

/*
 * A link of /proc whose target its text does not name (/proc/self/fd/1:
 * "pipe:[123]"): only the kernel can follow it.  It is trusted (root's,
 * in root's directory), so it is followed, st its target's.
 */
static bool magic_link(int dirfd, const char *comp, struct stat *st)
{
	struct statfs fs;

	return !fstatfs(dirfd, &fs) && fs.f_type == PROC_SUPER_MAGIC && !fstatat(dirfd, comp, st, 0);
}

/*
 * The last component: a trusted link whose target exists is followed
 * (its target must then be reached safely too); anything else is the
 * entry itself.  Takes dirfd.
 */
static int final(int dirfd, const char *comp, int *links, struct out_where *w)
{
	struct out_where sub;
	char target[PATH_MAX];
	ssize_t n;
	int err;

	if (fstatat(dirfd, comp, &w->st, AT_SYMLINK_NOFOLLOW)) {
		if (errno != ENOENT) {
			close(dirfd);
			return -errno;
		}
	} else {
		w->exists = true;
	}
	if (w->exists && S_ISLNK(w->st.st_mode) && link_trusted(dirfd, &w->st)) {
		n = readlinkat(dirfd, comp, target, sizeof(target) - 1);
		err = n < 0 ? -errno : ++*links > MAX_LINKS ? -ELOOP : 0;
		if (!err) {
			target[n] = 0;
			err = walk(dirfd, target, links, &sub);
		}
		if (!err && sub.exists) {
			close(dirfd);
			*w = sub;
			return 0;
		}
		if (!err)
			outpath_release(&sub);	/* dangling: the link itself is replaced */
		else if (err != -ENOENT) {
			close(dirfd);
			return err;
		}
		if (magic_link(dirfd, comp, &w->st))
			w->follow = true;
	}
	w->dirfd = dirfd;
	snprintf(w->name, sizeof(w->name), "%s", comp);
	return 0;
}

static int walk(int start, const char *path, int *links, struct out_where *w)
{
	char rest[PATH_MAX], comp[NAME_MAX + 1];
	const char *p = rest, *rem;
	int dirfd, fd, len, err;
	struct stat st;
	bool slash;

	memset(w, 0, sizeof(*w));
	w->dirfd = -1;
	if (snprintf(rest, sizeof(rest), "%s", path) >= (int)sizeof(rest))
		return -ENAMETOOLONG;
	if (!*path)
		return -ENOENT;
	dirfd = open_dir(path[0] == '/' ? AT_FDCWD : start, path[0] == '/' ? "/" : ".");
	if (dirfd < 0)
		return dirfd;
	for (;;) {
		len = next_comp(&p, comp);
		if (len <= 0) {
			err = len ? len : -EISDIR;	/* "/", "dir/", "..": a directory */
			break;
		}
		slash = *p == '/';
		rem = p + strspn(p, "/");
		if (!*rem && !slash && strcmp(comp, ".") && strcmp(comp, ".."))
			return final(dirfd, comp, links, w);
		if (fstatat(dirfd, comp, &st, AT_SYMLINK_NOFOLLOW)) {
			err = -errno;
			break;
		}
		if (S_ISLNK(st.st_mode)) {
			if (!link_trusted(dirfd, &st)) {
				snprintf(why, sizeof(why), "%.*s is a symbolic link another user could "
					 "have planted (owner uid %u): refused", (int)(p - rest), rest,
					 (unsigned int)st.st_uid);
				err = -EPERM;
				break;
			}
			err = ++*links > MAX_LINKS ? -ELOOP : splice_link(&dirfd, comp, rem, slash, rest);
			if (err)
				break;
			p = rest;
			continue;
		}
		fd = S_ISDIR(st.st_mode) ? open_dir(dirfd, comp) : -ENOTDIR;
		if (fd < 0) {	/* ELOOP: a link put there since, never followed */
			err = fd;
			break;
		}
		close(dirfd);
		dirfd = fd;
		p = rem;
	}
	close(dirfd);
	return err;
}

int outpath_resolve(const char *path, struct out_where *w)
{
	int links = 0;

	why[0] = 0;
	return walk(AT_FDCWD, path, &links, w);
}

void outpath_release(struct out_where *w)
{
	if (w->dirfd >= 0)
		close(w->dirfd);
	w->dirfd = -1;
}

int outpath_tmp_create(int dirfd, const char *name, char *tmp, size_t len)
{
	static const char chars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	unsigned char rnd[6];
	int tries, i, fd, n;

	for (tries = 0; tries < 100; tries++) {
		if (getrandom(rnd, sizeof(rnd), 0) != sizeof(rnd))
			return -EIO;
		n = snprintf(tmp, len, "%s.tmp.%d.", name, (int)getpid());
		if (n < 0 || (size_t)n + sizeof(rnd) >= len || (size_t)n + sizeof(rnd) > NAME_MAX)
			n = snprintf(tmp, len, SHORT_TMP "%d.", (int)getpid());
		if (n < 0 || (size_t)n + sizeof(rnd) >= len)
			return -ENAMETOOLONG;
		for (i = 0; i < (int)sizeof(rnd); i++)
			tmp[n + i] = chars[rnd[i] % (sizeof(chars) - 1)];
		tmp[n + i] = 0;
		fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd >= 0) {
			flock(fd, LOCK_EX);	/* new, nobody else can hold it */
			return fd;
		}
		if (errno != EEXIST)
			return -errno;
	}
	return -EEXIST;
}

/* "<pid>" or "<pid>.XXXXXX" at s: the pid, else 0. */
static pid_t pid_of(const char *s, bool suffix_required)
{
	const char *p = s;
	long pid = 0;

	while (*p >= '0' && *p <= '9' && p - s < 9)
		pid = pid * 10 + (*p++ - '0');
	if (p == s || pid <= 0)
		return 0;
	if (!*p && !suffix_required)
		return (pid_t)pid;
	if (*p != '.' || strlen(p + 1) != 6 || strspn(p + 1, "abcdefghijklmnopqrstuvwxyz"
						     "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") != 6)
		return 0;
	return (pid_t)pid;
}

/* A leftover's owner is gone: not us, no such process, and its lock is free. */
static bool owner_gone(pid_t pid)
{
	return pid != getpid() && kill(pid, 0) && errno == ESRCH;
}

/* Opens name in dirfd as one of our leftovers: ours, of that type, private, unlocked. */
static int open_leftover(int dirfd, const char *name, bool dir)
{
	int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC |
			(dir ? O_DIRECTORY : 0));
	struct stat st;

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) || st.st_uid != geteuid() ||
	    (dir ? !S_ISDIR(st.st_mode) || (st.st_mode & 077) : !S_ISREG(st.st_mode)) ||
	    flock(fd, LOCK_EX | LOCK_NB)) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Entries of dirfd in turn; fn(dirfd, name, arg). */
static void each_entry(int dirfd, void (*fn)(int dirfd, const char *name, const void *arg),
		       const void *arg)
{
	int fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct dirent *de;
	DIR *d;

	if (fd < 0)
		return;
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return;
	}
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			fn(dirfd, de->d_name, arg);
	closedir(d);
}

/* entry as "<prefix><pid>[.XXXXXX]", a leftover of a dead pid opened by open_leftover(), or -1. */
static int leftover(int dirfd, const char *entry, const char *prefix, bool dir, pid_t *pid)
{
	size_t len = strlen(prefix);

	if (strncmp(entry, prefix, len))
		return -1;
	*pid = pid_of(entry + len, dir);
	if (!*pid || !owner_gone(*pid))
		return -1;
	return open_leftover(dirfd, entry, dir);
}

static void sweep_file(int dirfd, const char *entry, const void *prefix)
{
	pid_t pid;
	int fd = leftover(dirfd, entry, prefix, false, &pid);

	if (fd < 0)
		return;
	if (!unlinkat(dirfd, entry, 0))
		vmsg("removed %s, left by process %d", entry, (int)pid);
	close(fd);
}

void outpath_sweep(int dirfd, const char *name)
{
	char prefix[NAME_MAX + 8];

	snprintf(prefix, sizeof(prefix), "%s.tmp.", name);
	each_entry(dirfd, sweep_file, prefix);
	each_entry(dirfd, sweep_file, SHORT_TMP);
}

static void unlink_in(int dirfd, const char *name, const void *arg)
{
	unlinkat(dirfd, name, 0);
}

static void sweep_dir(int dirfd, const char *entry, const void *prefix)
{
	pid_t pid;
	int fd = leftover(dirfd, entry, prefix, true, &pid);

	if (fd < 0)
		return;
	each_entry(fd, unlink_in, NULL);
	if (!unlinkat(dirfd, entry, AT_REMOVEDIR))
		vmsg("removed %s, left by process %d", entry, (int)pid);
	close(fd);
}

void outpath_sweep_dirs(const char *dir, const char *prefix)
{
	int fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return;
	each_entry(fd, sweep_dir, prefix);
	close(fd);
}

int outpath_private_dir(const char *prefix, char *dir, size_t len, int *lock)
{
	outpath_sweep_dirs("/tmp", prefix);
	snprintf(dir, len, "/tmp/%s%d.XXXXXX", prefix, (int)getpid());
	if (!mkdtemp(dir))
		return -errno;
	*lock = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (*lock >= 0)
		flock(*lock, LOCK_EX);
	return 0;
}
