// SPDX-License-Identifier: GPL-2.0
/*
 * Where the SQLite database is, found by the output files' rules
 * (src/output/outpath.h): root's `--db /tmp/x/a.db` must not follow a
 * link another user planted, nor record into a file another user owns
 * or can write, whose triggers would run inside root's record.  What
 * SQLite is then given is the folder's real path (no link left for it to
 * follow) and the file the checks saw, created here if new.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include "outpath.h"
#include "store.h"

/* The files SQLite keeps beside a database, which it opens as it does the database. */
static const char *const sidecars[] = { "-wal", "-shm", "-journal" };

static int refuse(struct store *s, const char *fmt, const char *what, const struct stat *st)
{
	char msg[sizeof(s->err)];

	snprintf(msg, sizeof(msg), fmt, what, (unsigned int)st->st_uid,
		 (unsigned int)(st->st_mode & 07777));
	snprintf(s->err, sizeof(s->err), "%s", msg);
	s->refused = true;
	return -1;
}

/* Another user's, or writable by others: what only --db-trust lets us use. */
static bool foreign(const struct stat *st)
{
	uid_t me = geteuid();

	return st->st_uid != me || (st->st_mode & (S_IWGRP | S_IWOTH));
}

/* The folder: ours or root's, and writable by nobody else unless sticky (as a trusted link's). */
static int check_dir(struct store *s, int dirfd, const char *target)
{
	uid_t me = geteuid();
	struct stat d;

	if (fstat(dirfd, &d)) {
		snprintf(s->err, sizeof(s->err), "%s", strerror(errno));
		return -1;
	}
	if ((s->flags & STORE_TRUST) ||
	    ((d.st_uid == me || d.st_uid == 0) &&
	     (!(d.st_mode & (S_IWGRP | S_IWOTH)) || (d.st_mode & S_ISVTX))))
		return 0;
	return refuse(s, "its folder can be changed by another user (owner uid %2$u, mode "
		      "%3$04o): refused (--db-trust or BPFBENCH_DB_TRUST=1 to use it)%1$s", "", &d);
}

static int check_entry(struct store *s, const char *name, const struct stat *st)
{
	if (S_ISLNK(st->st_mode))
		return refuse(s, "%s is a symbolic link another user could have planted (owner uid "
			      "%u, mode %04o): refused", name, st);
	if (!S_ISREG(st->st_mode))
		return refuse(s, "%s is not a regular file (owner uid %u, mode %04o): refused", name,
			      st);
	if (!(s->flags & STORE_TRUST) && foreign(st))
		return refuse(s, "%s is another user's or writable by others (owner uid %u, mode "
			      "%04o): refused (--db-trust or BPFBENCH_DB_TRUST=1 to use it)", name, st);
	return 0;
}

static int check_sidecars(struct store *s, int dirfd, const char *name)
{
	char side[NAME_MAX + 16];
	struct stat st;
	size_t i;

	for (i = 0; i < sizeof(sidecars) / sizeof(sidecars[0]); i++) {
		snprintf(side, sizeof(side), "%s%s", name, sidecars[i]);
		if (!fstatat(dirfd, side, &st, AT_SYMLINK_NOFOLLOW) && check_entry(s, side, &st))
			return -1;
	}
	return 0;
}

/* A name SQLite would take for something else than a file that stays. */
static bool not_a_file(const char *t)
{
	return !*t || !strcmp(t, ":memory:") || !strncmp(t, "file:", 5);
}

int store_file_resolve(struct store *s, const char *target, char *path, size_t len,
		       struct stat *st)
{
	char proc[64], dir[PATH_MAX];
	struct out_where w;
	ssize_t n;
	int err, fd;

	if (not_a_file(target)) {
		snprintf(s->err, sizeof(s->err), "a URI filename or an in-memory database keeps "
			 "nothing past the command: name a file");
		s->refused = true;
		return -1;
	}
	err = outpath_resolve(target, &w);
	if (err) {
		snprintf(s->err, sizeof(s->err), "%s", *outpath_why() ? outpath_why() : strerror(-err));
		s->refused = err == -EPERM;
		return -1;
	}
	err = check_dir(s, w.dirfd, target);
	if (!err && w.exists)
		err = check_entry(s, w.name, &w.st) ?: check_sidecars(s, w.dirfd, w.name);
	if (!err && !w.exists) {
		if (s->flags & STORE_READONLY) {
			snprintf(s->err, sizeof(s->err), "no such database (record into it first)");
			err = -1;
		} else {
			fd = openat(w.dirfd, w.name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
				    0644);
			if (fd < 0 || fstat(fd, st)) {
				snprintf(s->err, sizeof(s->err), "cannot create it: %s", strerror(errno));
				err = -1;
			}
			if (fd >= 0)
				close(fd);
		}
	} else if (!err) {
		*st = w.st;
	}
	if (!err) {
		snprintf(proc, sizeof(proc), "/proc/self/fd/%d", w.dirfd);
		n = readlink(proc, dir, sizeof(dir) - 1);
		if (n < 0 || n == 0 || dir[0] != '/') {
			snprintf(s->err, sizeof(s->err), "cannot tell its folder's path");
			err = -1;
		} else {
			dir[n] = 0;
			if (snprintf(path, len, "%s/%s", n == 1 ? "" : dir, w.name) >= (int)len) {
				snprintf(s->err, sizeof(s->err), "%s", strerror(ENAMETOOLONG));
				err = -1;
			}
		}
	}
	outpath_release(&w);
	return err;
}

int store_file_same(struct store *s, const char *path, const struct stat *st)
{
	struct stat now;

	if (!lstat(path, &now) && now.st_dev == st->st_dev && now.st_ino == st->st_ino)
		return 0;
	snprintf(s->err, sizeof(s->err), "it was replaced while it was opened: refused");
	s->refused = true;
	return -1;
}
