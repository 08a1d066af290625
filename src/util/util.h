/* SPDX-License-Identifier: GPL-2.0 */
#ifndef BPFBENCH_UTIL_H
#define BPFBENCH_UTIL_H

#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
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
void verrmsg(const char *fmt, va_list ap);
/* The same for a run the kernel cannot do (exit 4): "bpfbench: skip: ...". */
void skipmsg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void vmsg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The calling thread's last errmsg() line (without the prefix), "" after errmsg_forget(). */
const char *errmsg_last(void);
void errmsg_forget(void);
/*
 * libbpf's first warning since errmsg_forget() (its first line), "" if
 * none: the cause libbpf saw where it returns only an errno (a map it could
 * not create for EMFILE makes a program load fail with EINVAL).
 */
void libbpf_warning_note(const char *fmt, va_list ap);
const char *libbpf_warning(void);
/* Below this many free descriptors, a BPF object's load may fail for want of them. */
#define FDS_LOW	32
/* How many more files this process may open; -1 if it cannot tell. */
int fds_free(void);
/*
 * Whether a failure may be for want of file descriptors: err (-errno or
 * errno) or libbpf's first warning is EMFILE or ENFILE, or fewer than
 * FDS_LOW are free (libbpf's feature probes then fail silently, and it
 * loads a program without the maps it needs).  A limit of ours to
 * report, never a feature the kernel lacks.
 */
bool fds_ran_short(int err);
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

/*
 * A 64-bit finalizer (SplitMix64's: every input bit reaches every output
 * bit): hashes and digests whose values must spread, in the core and in
 * a family alike.
 */
static inline uint64_t mix64(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

void *xcalloc(size_t n, size_t size);
/* A copy of s (NULL: of ""), or the process dies. */
char *xstrdup(const char *s);
/*
 * text on out from column col, its words (at blanks) on lines of at most
 * cols, each later line starting with indent blanks; cut (NULL: none)
 * names characters after which a word longer than a line may break too
 * (a choice list's '|').  Ends the last line.
 */
void wrap_words(FILE *out, int col, int indent, int cols, const char *cut, const char *text);
/* Columns a UTF-8 text takes on a terminal: its code points (our texts have no wide ones). */
int utf8_width(const char *s);
/* Room for element n of an array of *cap (doubling from first): p, moved as realloc() moves it. */
void *xgrow(void *p, int n, int *cap, int first, size_t size);

/*
 * Appends to buf (size bytes) at *len and moves *len on, never past
 * size - 1: what does not fit is cut, and so are later appends, where
 * adding snprintf()'s return would step past the buffer.
 */
void bufcat(char *buf, size_t size, size_t *len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void vbufcat(char *buf, size_t size, size_t *len, const char *fmt, va_list ap)
	__attribute__((format(printf, 4, 0)));

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
 * Flushes and closes stdout at exit, as coreutils does: a write error
 * (EPIPE, ENOSPC, EBADF) is one line "error: write error: ..." and
 * -errno; install_signal_handlers() registers it to run last.
 */
int close_stdout(void);
/* Display width of s: its bytes less UTF-8 continuation bytes ("×", "±", "µs"). */
int text_width(const char *s);
/* A write error on stdout was reported already: close_stdout() then says nothing more. */
void stdout_error_said(void);
/*
 * One road on stdout: a command with an output to stdout ('-') has its
 * human lines go to stderr, as report_out() sends a run's.  Commands that
 * print them with printf (compare, ab, db changes) call human_to_stderr()
 * once their options are read: from then stdout is stderr's stream, and
 * export_stdout() the one the command was given, which "-" writes to and
 * close_stdout() checks.
 */
void human_to_stderr(void);
FILE *export_stdout(void);
/*
 * Whether progress lines (carriage return, erase) may go to stderr: a
 * terminal, as BPFBENCH_STDERR_TTY (0 or 1) says where it is set (--kernel
 * sets it from the host's stderr: the guest's console is always a tty).
 */
bool stderr_is_tty(void);
/*
 * The progress line (src/util/progress.c), on a terminal only: drawn in
 * place of the last one, cut to the terminal's width.  progress_line_end()
 * erases it for good; every other message on stderr goes between
 * progress_line_hide() and progress_line_redraw() (errmsg(), vmsg() and
 * die() do), so it never shares a line with the progress.
 */
void progress_line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void progress_line_end(void);
void progress_line_hide(void);
void progress_line_redraw(void);

/*
 * A value a file or a database gave, as a terminal may show it: control
 * characters escaped (\n, \t, \x1b), bytes that are not UTF-8 as \xNN,
 * and cut after SHOWN_MAX bytes with its whole length said, so a 10 MB
 * hostname or a kernel string with newlines stays one short line.  The
 * text lives in a ring of SHOWN_RING buffers: enough for one message.
 */
#define SHOWN_MAX	200
#define SHOWN_RING	8
const char *shown_text(const char *s);
/*
 * s into buf whole (up to len), its control characters escaped as
 * shown_text() escapes them (\n, \t, \r, \x1b): text that goes into one
 * line of a file (a folded header, a CSV record, a Markdown cell) stays
 * one line, and a reader never takes what follows a newline for data.
 */
const char *text_escape(const char *s, char *buf, size_t len);
/*
 * s's control characters made '?' in place, as every message shows what
 * it echoes (errmsg()): a name a file gave reads the same on stdout as
 * on stderr, and never moves a terminal's cursor or starts a line.
 */
char *text_mask(char *s);

#endif
