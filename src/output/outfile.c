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
#include "opts.h"
#include "outfile.h"
#include "outpath.h"
#include "util.h"

enum out_kind {
	OUT_FD,		/* an open descriptor: "-", /dev/stdout, /dev/fd/N */
	OUT_DIRECT,	/* an existing character device or fifo: written in place */
	OUT_REPLACE,	/* a regular file or a new name: temporary + rename */
};

struct out_target {
	enum out_kind kind;
	int fd;			/* OUT_FD */
	bool existed;		/* OUT_REPLACE: w.st is the file replaced */
	struct out_where w;	/* OUT_DIRECT, OUT_REPLACE: directory and name */
};

/*
 * Fifos opened when checked, before the run, and kept open until written:
 * opened without blocking, a fifo without a reader is refused at once
 * rather than found at the end, where open() would wait forever; and the
 * reader, its open() returned, waits for the document without seeing an
 * end of file in between.
 */
#define MAX_HELD	8
static struct held_fifo {
	dev_t dev;
	ino_t ino;
	int fd;
} held[MAX_HELD];
static int nr_held;

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

static int resolve(const char *path, struct out_target *t)
{
	mode_t mode;
	int err;

	memset(t, 0, sizeof(*t));
	t->w.dirfd = -1;
	t->fd = fd_of_name(path);
	if (t->fd >= 0) {
		t->kind = OUT_FD;
		return fd_writable(t->fd);
	}
	err = outpath_resolve(path, &t->w);
	if (err)
		return err;
	t->kind = OUT_REPLACE;
	mode = t->w.st.st_mode;
	if (!t->w.exists || S_ISLNK(mode))	/* an untrusted link is replaced, its target untouched */
		return 0;
	if (S_ISDIR(mode))
		err = -EISDIR;
	else if (S_ISREG(mode) && t->w.follow)
		t->kind = OUT_DIRECT;	/* /proc/self/fd/N to a file: written through */
	else if (S_ISREG(mode))
		t->existed = true;
	else if (S_ISFIFO(mode) || S_ISCHR(mode))
		t->kind = OUT_DIRECT;
	else
		outpath_say("%s, not a file to write a result to",
			    S_ISBLK(mode) ? "a block device" : "a socket"), err = -EINVAL;
	if (err)
		outpath_release(&t->w);
	return err;
}

static void release(struct out_target *t)
{
	outpath_release(&t->w);
}

const char *output_strerror(int err)
{
	return *outpath_why() ? outpath_why() : strerror(err < 0 ? -err : err);
}

/* The entry opened as checked: no O_CREAT, no O_TRUNC, never blocking on open. */
static int open_direct(const struct out_target *t)
{
	int fd = openat(t->w.dirfd, t->w.name, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC |
			(t->w.follow ? 0 : O_NOFOLLOW) | (S_ISREG(t->w.st.st_mode) ? O_TRUNC : 0));
	struct stat st;

	if (fd < 0) {
		if (errno == ENXIO && S_ISFIFO(t->w.st.st_mode))
			outpath_say("a fifo with no reader (start the reader first)");
		return -errno;
	}
	/* what was checked is what got opened, or someone swapped the name meanwhile */
	if (fstat(fd, &st) || st.st_dev != t->w.st.st_dev || st.st_ino != t->w.st.st_ino) {
		close(fd);
		return -ESTALE;
	}
	return fd;
}

/* The fifo's descriptor held since its check (taken out of the list), or -1. */
static int take_held(const struct stat *st, bool keep)
{
	int i, fd;

	for (i = 0; i < nr_held; i++) {
		if (held[i].dev != st->st_dev || held[i].ino != st->st_ino)
			continue;
		fd = held[i].fd;
		if (!keep)
			held[i] = held[--nr_held];
		return fd;
	}
	return -1;
}

static int check_direct(const struct out_target *t)
{
	int fd;

	if (!S_ISFIFO(t->w.st.st_mode))	/* a device: opened only to write, opening a tty has effects */
		return faccessat(t->w.dirfd, t->w.name, W_OK, 0) ? -errno : 0;
	if (take_held(&t->w.st, true) >= 0)
		return 0;
	if (nr_held == MAX_HELD)
		return -EMFILE;
	fd = open_direct(t);
	if (fd < 0)
		return fd;
	held[nr_held++] = (struct held_fifo){ t->w.st.st_dev, t->w.st.st_ino, fd };
	return 0;
}

/*
 * What a path writes, once resolved: a descriptor, a device or fifo (its
 * inode), or a name in a directory (the directory's inode and the name:
 * two paths, through links or not, that rename over one entry).
 */
struct out_id {
	enum out_kind kind;
	int fd;
	dev_t dev;
	ino_t ino;
	bool device;		/* a character device: /dev/null takes any number of writers */
	char name[NAME_MAX + 1];
};

static void identify(const struct out_target *t, struct out_id *id)
{
	struct stat d;

	memset(id, 0, sizeof(*id));
	id->kind = t->kind;
	id->fd = t->fd;
	if (t->kind == OUT_DIRECT) {
		id->dev = t->w.st.st_dev;
		id->ino = t->w.st.st_ino;
		id->device = S_ISCHR(t->w.st.st_mode);
	} else if (t->kind == OUT_REPLACE && !fstat(t->w.dirfd, &d)) {
		id->dev = d.st_dev;
		id->ino = d.st_ino;
		snprintf(id->name, sizeof(id->name), "%s", t->w.name);
	}
}

static bool same_output(const struct out_id *a, const struct out_id *b)
{
	if (a->kind != b->kind)
		return false;
	if (a->kind == OUT_FD)
		return a->fd == b->fd;
	return !a->device && a->dev == b->dev && a->ino == b->ino && !strcmp(a->name, b->name);
}

static int check_path(const char *path, struct out_id *id)
{
	struct out_target t;
	char tmp[NAME_MAX + 1];
	int err = resolve(path, &t), fd;

	if (!err)
		identify(&t, id);
	if (err || t.kind == OUT_FD)
		return err;
	if (t.kind == OUT_DIRECT) {
		err = check_direct(&t);
	} else {
		fd = outpath_tmp_create(t.w.dirfd, t.w.name, tmp, sizeof(tmp));
		err = fd < 0 ? fd : 0;
		if (fd >= 0) {
			unlinkat(t.w.dirfd, tmp, 0);
			close(fd);
		}
	}
	release(&t);
	return err;
}

int output_path_check(const char *path)
{
	struct out_id id;

	return check_path(path, &id);
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
		FILE *out = export_stdout();

		write(out, arg);
		if (fflush(out) || ferror(out)) {
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

/* A device or fifo: opened as it is (no O_CREAT, no O_TRUNC), never replaced, then blocking. */
static int write_direct(const struct out_target *t, void (*write)(FILE *f, void *arg), void *arg)
{
	int fd = S_ISFIFO(t->w.st.st_mode) ? take_held(&t->w.st, false) : -1;
	FILE *f;

	if (fd < 0)
		fd = open_direct(t);
	if (fd < 0)
		return fd;
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)) {
		close(fd);
		return -errno;
	}
	f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		return -ENOMEM;
	}
	write(f, arg);
	return close_file(f);
}

static void sync_dir(int dirfd)
{
	int fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

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
	if (fchown(fd, t->w.st.st_uid, t->w.st.st_gid) && errno != EPERM)
		return -errno;
	return fchmod(fd, t->w.st.st_mode & 0777) ? -errno : 0;
}

/*
 * The temporary's lock (outpath_tmp_create()) is held through a second
 * descriptor until the rename is done: a later run's sweep never takes a
 * temporary whose writer lives.
 */
static int write_replace(const struct out_target *t, void (*write)(FILE *f, void *arg), void *arg)
{
	char tmp[NAME_MAX + 1];
	int fd, lock, err;
	FILE *f;

	outpath_sweep(t->w.dirfd, t->w.name);
	fd = outpath_tmp_create(t->w.dirfd, t->w.name, tmp, sizeof(tmp));
	if (fd < 0)
		return fd;
	lock = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	err = set_attrs(fd, t);
	f = err ? NULL : fdopen(fd, "w");
	if (!f) {
		close(fd);
		err = err ? err : -ENOMEM;
	} else {
		write(f, arg);
		err = fflush(f) || ferror(f) || fsync(fileno(f)) ? (errno ? -errno : -EIO) : 0;
		if (fclose(f) && !err)
			err = -errno;
	}
	if (!err && renameat(t->w.dirfd, tmp, t->w.dirfd, t->w.name))
		err = -errno;
	if (err)
		unlinkat(t->w.dirfd, tmp, 0);
	else
		sync_dir(t->w.dirfd);
	if (lock >= 0)
		close(lock);
	return err;
}

int write_file_atomic(const char *path, void (*write)(FILE *f, void *arg), void *arg)
{
	struct out_target t;
	int err = resolve(path, &t);

	if (err)
		return err;
	switch (t.kind) {
	case OUT_FD:
		err = write_fd(t.fd, write, arg);
		break;
	case OUT_DIRECT:
		err = write_direct(&t, write, arg);
		break;
	default:
		err = write_replace(&t, write, arg);
	}
	release(&t);
	return err;
}

int output_paths_check(const char *const *paths, int n)
{
	struct out_id *id = xcalloc(n > 0 ? n : 1, sizeof(*id));
	int i, k, err, ret = 0;

	for (i = 0; i < n && !ret; i++) {
		if (!paths[i])
			continue;
		err = check_path(paths[i], &id[i]);
		if (err) {
			errmsg("cannot write %s: %s", paths[i], output_strerror(err));
			ret = 1;
			break;
		}
		/* the later write would replace the earlier one's document */
		for (k = 0; k < i; k++) {
			if (paths[k] && same_output(&id[k], &id[i])) {
				errmsg("%s and %s name one file: give each output its own", paths[k],
				       paths[i]);
				ret = EXIT_USAGE;
				break;
			}
		}
	}
	free(id);
	return ret;
}

/* A name's folder's real path and its last component: "a/../b.json" and "./b.json" alike. */
static bool canonical(const char *path, char *buf, size_t len)
{
	char dir[PATH_MAX], real[PATH_MAX];
	const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;

	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - path) + (slash == path) : 1,
		 slash ? path : ".");
	if (!*base || !realpath(dir, real))
		return false;
	return snprintf(buf, len, "%s/%s", real, base) < (int)len;
}

/*
 * One file however named: the same inode when both exist (a link, a
 * relative path, a hard link), the same folder and name when neither
 * does yet (an output written first would then be what is read).
 */
static bool same_file(const char *a, const char *b)
{
	char ca[PATH_MAX + NAME_MAX + 2], cb[sizeof(ca)];
	struct stat sa, sb;
	bool ea = !stat(a, &sa), eb = !stat(b, &sb);

	if (ea && eb)
		return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino &&
		       !S_ISCHR(sa.st_mode);	/* /dev/null is everyone's */
	if (ea || eb)
		return false;
	return canonical(a, ca, sizeof(ca)) && canonical(b, cb, sizeof(cb)) && !strcmp(ca, cb);
}

int output_paths_spare(const char *const *paths, int n, const char *input, const char *what)
{
	int i;

	if (!input || !strcmp(input, "-"))
		return 0;
	for (i = 0; i < n; i++) {
		if (!paths[i] || !strcmp(paths[i], "-") || !same_file(paths[i], input))
			continue;
		errmsg("%s is %s %s: an output would replace it; give the output another name",
		       paths[i], what, input);
		return EXIT_USAGE;
	}
	return 0;
}
