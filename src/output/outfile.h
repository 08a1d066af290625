/* SPDX-License-Identifier: GPL-2.0 */
/* Result files written safely (outfile.c). */
#ifndef BPFBENCH_OUTFILE_H
#define BPFBENCH_OUTFILE_H

#include <stdio.h>

/*
 * Writes a result file; write(f, arg) produces the content.  0 or -errno.
 *
 *   "-", /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N: that open
 *       descriptor, whatever it is (stdout keeps its buffer's order);
 *   an existing character device: opened as it is and written (no
 *       O_CREAT, no O_TRUNC, O_NONBLOCK while opening), never replaced;
 *   an existing fifo: the same, but it must have a reader: opened
 *       without blocking (-ENXIO without a reader), by output_path_check()
 *       before the run, that descriptor kept until the write;
 *   a directory: -EISDIR; a block device or socket: -EINVAL;
 *   a regular file or a new name: a temporary "<name>.tmp.<pid>.XXXXXX"
 *       beside it, created O_EXCL|O_NOFOLLOW, locked (flock) while its
 *       writer lives, given the replaced file's mode and owner (0644 if
 *       new, whatever the umask), fsync'ed and renamed over the name, so
 *       a reader never sees half a file.  Hard links to a replaced file
 *       keep the old content.  Temporaries of ours whose writer was
 *       killed (pid gone, lock free) are removed first.
 *
 * The path is walked one directory at a time, each opened O_NOFOLLOW
 * from the one before (src/output/outpath.h).  A symbolic link, on the way or
 * as the name, is followed only if we or root own it and no other user
 * can replace it (its directory is ours or root's, and writable by
 * nobody else or sticky: /dev/stdout, a link in our own directory);
 * another one on the way is refused (-EPERM), another one as the name is
 * replaced by the result, its target untouched: a link someone planted
 * in /tmp never makes root write where it points.
 */
int write_file_atomic(const char *path, void (*write)(FILE *f, void *arg), void *arg);
/*
 * Whether write_file_atomic(path) can succeed, before any benchmark runs:
 * 0 or -errno, nothing written (a temporary is created and removed; a
 * fifo is opened and kept, see above).
 */
int output_path_check(const char *path);
/*
 * The same for n paths (NULL ones skipped): 0, or 1 after one
 * line naming the first that fails; EXIT_USAGE when two name one file
 * (the same path, a link to it, "-" and /dev/stdout), whose later write
 * would replace the earlier (character devices, /dev/null, excepted).
 */
int output_paths_check(const char *const *paths, int n);
/*
 * Whether any of n output paths (NULL ones skipped) is the file input is,
 * however named (a link, a relative path): an output replaces its file
 * whole, so the run would destroy what it reads (what: "the database",
 * "the input").  EXIT_USAGE after one line, else 0; before anything runs.
 */
int output_paths_spare(const char *const *paths, int n, const char *input, const char *what);
/* What went wrong in the last of those calls that returned err (more precise than strerror). */
const char *output_strerror(int err);

#endif
