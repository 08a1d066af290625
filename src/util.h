/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BPFBENCH_UTIL_H
#define BPFBENCH_UTIL_H

#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Kernel-internal errno that bpf() leaks to user space: the op is not supported. */
#ifndef ENOTSUPP
#define ENOTSUPP	524
#endif

extern bool verbose;	/* -v */

/* Internal error that must not happen: message and exit 1. */
void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
/* One line on stderr: "bpfbench: error: ..."; the message is kept for errmsg_last(). */
void errmsg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The same for a run the kernel cannot do (exit 4): "bpfbench: skip: ...". */
void skipmsg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void vmsg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The calling thread's last errmsg() line (without the prefix), "" after errmsg_forget(). */
const char *errmsg_last(void);
void errmsg_forget(void);
/* While muted, errmsg() only records (a suite row shows the reason); returns the old state. */
bool errmsg_mute(bool on);

/* "EPERM" for EPERM or -EPERM (strerrorname_np), "ENOTSUPP" for the kernel's 524, else "errno N". */
const char *errname(int err);
uint64_t now_ns(void);
/* Number of CPUs the kernel reports possible/online. */
int nr_online_cpus(void);
bool cpu_is_online(int cpu);
int pin_thread_to_cpu(int cpu);

/*
 * INT, TERM, HUP, QUIT, PIPE, ALRM, USR1 and USR2 only set a flag that
 * long loops poll (no SA_RESTART: sleeps return early), so every way a
 * process is told to end goes through the clean stop; the process then
 * exits 128+N whenever the signal came, even during the final teardown.
 * install_signal_handlers() also registers close_stdout() at exit.
 */
int interrupted_signal(void);	/* the first such signal, 0 if none */
bool interrupted(void);
void install_signal_handlers(void);
/* Blocks those signals in the calling thread, *old the previous mask: threads created next inherit it. */
void stop_signals_block(sigset_t *old);
/*
 * Joins a worker that was told to stop, waking it with a signal (SIGRTMIN,
 * a handler that only notes it, no SA_RESTART) every 10 ms until it ends,
 * so a syscall it sits in, a long BPF_PROG_TEST_RUN above all, returns
 * EINTR at once.  Only for threads that treat EINTR after a stop as the
 * end (test_run_pkt() does); 0 or -errno.
 */
int thread_join_waking(pthread_t t);
/* In a worker: thread_join_waking() has woken it, the run is over. */
bool thread_woken(void);

void *xcalloc(size_t n, size_t size);

/*
 * Tells valgrind that the kernel filled len bytes at p through a bpf()
 * command valgrind does not model (the batch lookups), so memcheck does
 * not take them for uninitialised.  A few no-op instructions otherwise.
 */
#if defined(__has_include) && __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#define KERNEL_WROTE(p, len)	((void)VALGRIND_MAKE_MEM_DEFINED(p, len))
#else
#define KERNEL_WROTE(p, len)	((void)(p), (void)(len))
#endif

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
 * from the one before (src/outpath.h).  A symbolic link, on the way or
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
/* The same for n paths (NULL ones skipped): 0, or 1 after one line naming the first that fails. */
int output_paths_check(const char *const *paths, int n);
/* What went wrong in the last of those calls that returned err (more precise than strerror). */
const char *output_strerror(int err);
/*
 * Flushes and closes stdout at exit, as coreutils does: a write error
 * (EPIPE, ENOSPC, EBADF) is one line "error: write error: ..." and
 * -errno; install_signal_handlers() registers it to run last.
 */
int close_stdout(void);

#endif
