/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BPFBENCH_UTIL_H
#define BPFBENCH_UTIL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

extern bool verbose;	/* -v */

/* Internal error that must not happen: message and exit 1. */
void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
/* One line on stderr prefixed "bpfbench: ". */
void errmsg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void vmsg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The calling thread's last errmsg() line (without the prefix), "" after errmsg_forget(). */
const char *errmsg_last(void);
void errmsg_forget(void);

uint64_t now_ns(void);
/* Number of CPUs the kernel reports possible/online. */
int nr_online_cpus(void);
bool cpu_is_online(int cpu);
int pin_thread_to_cpu(int cpu);

/* Set by SIGINT/SIGTERM; long loops poll it. */
int interrupted_signal(void);
bool interrupted(void);
void install_signal_handlers(void);

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
 * Writes a file through a temporary name beside it and a rename, mode
 * 0644 whatever the umask, so a reader never sees half a file; "-" is
 * stdout.  write(f, arg) produces the content.  Returns 0 or -errno.
 */
int write_file_atomic(const char *path, void (*write)(FILE *f, void *arg), void *arg);

#endif
