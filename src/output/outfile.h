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
 *   an existing device, fifo or socket: opened as it is and written (no
 *       O_CREAT, no O_TRUNC), never replaced;
 *   a directory: -EISDIR;
 *   a regular file or a new name: a temporary beside it, created
 *       O_EXCL|O_NOFOLLOW under an unguessable name (mkostemp), given the
 *       replaced file's mode and owner (0644 if new, whatever the umask),
 *       fsync'ed and renamed over the name, so a reader never sees half
 *       a file.  Hard links to a replaced file keep the old content.
 *
 * A symbolic link is followed only if we own it and no other user can
 * replace it (its directory is ours or root's, and writable by nobody
 * else or sticky: /dev/stdout, a link in our own directory); any other
 * link is replaced by the result, its target untouched, so a link
 * someone planted in /tmp never makes root write where it points.
 */
int write_file_atomic(const char *path, void (*write)(FILE *f, void *arg), void *arg);
/*
 * Whether write_file_atomic(path) can succeed, before any benchmark runs:
 * 0 or -errno, nothing written (a temporary is created and removed).
 */
int output_path_check(const char *path);
/* The same for n paths (NULL ones skipped): 0, or 1 after one line naming the first that fails. */
int output_paths_check(const char *const *paths, int n);

#endif
