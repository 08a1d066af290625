/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where an output file goes, found without letting another user redirect
 * it (src/output/outpath.c), and the temporaries bpfbench leaves beside it.
 */
#ifndef BPFBENCH_OUTPATH_H
#define BPFBENCH_OUTPATH_H

#include <limits.h>
#include <stdbool.h>
#include <sys/stat.h>

struct out_where {
	int dirfd;		/* the directory, O_PATH; -1 when none */
	char name[NAME_MAX + 1];	/* the entry in it */
	bool exists;		/* st is name's, not followed (unless follow) */
	bool follow;		/* name is a trusted link of /proc (/proc/self/fd/1): st is its target's */
	struct stat st;
};

/*
 * Walks path one component at a time from / or the working directory,
 * each directory opened O_NOFOLLOW relative to the one before, so no
 * name can be swapped for a link between a check and its use.  A
 * symbolic link on the way, and a final one whose target exists, is
 * followed only when no user but us or root can have made or changed
 * it (outpath_link_trusted()); any other link on the way is refused
 * with -EPERM, a final one is the entry itself (replaced, its target
 * untouched).  0 or -errno; on success w->dirfd is the caller's to close.
 */
int outpath_resolve(const char *path, struct out_where *w);
void outpath_release(struct out_where *w);
/* Why the last outpath_resolve() of this thread failed, when strerror() would not say. */
const char *outpath_why(void);
/* Sets that reason (for a failure strerror() would misname). */
void outpath_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * Creates "<name>.tmp.<pid>.XXXXXX" in dirfd (".bpfbench.tmp.<pid>.XXXXXX"
 * where that would pass NAME_MAX: a name may be 255 bytes), O_EXCL|O_NOFOLLOW, mode
 * 0600, and holds an exclusive flock on it for as long as the returned
 * descriptor (or a dup) is open: the mark of a live writer.  tmp gets
 * the name.  The descriptor, or -errno.
 */
int outpath_tmp_create(int dirfd, const char *name, char *tmp, size_t len);
/*
 * Removes what runs killed with SIGKILL left: in dirfd, "<name>.tmp.<pid>.*",
 * ".bpfbench.tmp.<pid>.*" (and plot's older "<name>.tmp.<pid>") regular files of ours whose
 * pid is gone and whose flock nobody holds.  Best effort, silent.
 */
void outpath_sweep(int dirfd, const char *name);
/* The same for private directories "<dir>/<prefix><pid>.*" (plot's /tmp/bpfbench-plot.<pid>.XXXXXX). */
void outpath_sweep_dirs(const char *dir, const char *prefix);
/*
 * A private directory "/tmp/<prefix><pid>.XXXXXX" (its name in dir, len
 * bytes), made after sweeping those a killed process left, and flocked
 * while *lock is open (-1 if the lock could not be taken).  0 or -errno.
 */
int outpath_private_dir(const char *prefix, char *dir, size_t len, int *lock);

#endif
