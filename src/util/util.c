// SPDX-License-Identifier: GPL-2.0
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include "util.h"

bool verbose;

#define WAKE_INTERVAL_NS	10000000l	/* thread_join_waking(): a wake-up every 10 ms */

static void vprint(const char *fmt, va_list ap)
{
	progress_line_hide();
	fputs("bpfbench: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	progress_line_redraw();
}

void die(const char *fmt, ...)
{
	va_list ap;

	progress_line_end();
	va_start(ap, fmt);
	vprint(fmt, ap);
	va_end(ap);
	exit(1);
}

/* Per thread: benchmark setup runs on the main thread, consumers elsewhere. */
static __thread char last_error[300];

static __thread bool muted;

/*
 * What a message echoes of its input (a name typed, a file's text) is
 * shown, never obeyed: control characters (a terminal's escape sequences,
 * line breaks) become '?', and a line longer than the buffer ends "...".
 */
char *text_mask(char *s)
{
	unsigned char *c;

	for (c = (unsigned char *)s; c && *c; c++)
		if (*c < 0x20 || *c == 0x7f)
			*c = '?';
	return s;
}

static void sanitize(char *buf, size_t len, int n)
{
	text_mask(buf);
	if (n >= (int)len && len > 4)
		memcpy(buf + len - 4, "...", 4);
}

static void say(const char *kind, const char *fmt, va_list ap)
{
	int n = vsnprintf(last_error, sizeof(last_error), fmt, ap);

	sanitize(last_error, sizeof(last_error), n);
	if (muted)
		return;
	progress_line_hide();
	fprintf(stderr, "bpfbench: %s: %s\n", kind, last_error);
	progress_line_redraw();
}

void errmsg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say("error", fmt, ap);
	va_end(ap);
}

void verrmsg(const char *fmt, va_list ap)
{
	say("error", fmt, ap);
}

void skipmsg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	say("skip", fmt, ap);
	va_end(ap);
}

bool errmsg_mute(bool on)
{
	bool was = muted;

	muted = on;
	return was;
}

const char *errmsg_last(void)
{
	return last_error;
}

static __thread char libbpf_first[160];

void errmsg_forget(void)
{
	last_error[0] = 0;
	libbpf_first[0] = 0;
}

void libbpf_warning_note(const char *fmt, va_list ap)
{
	char *nl;

	if (libbpf_first[0])
		return;
	vsnprintf(libbpf_first, sizeof(libbpf_first), fmt, ap);
	nl = strchr(libbpf_first, '\n');
	if (nl)
		*nl = 0;
}

const char *libbpf_warning(void)
{
	return libbpf_first;
}

int fds_free(void)
{
	struct rlimit rl;
	struct dirent *e;
	int open = 0;
	DIR *d;

	if (getrlimit(RLIMIT_NOFILE, &rl) || rl.rlim_cur > INT_MAX)
		return -1;
	d = opendir("/proc/self/fd");
	if (!d)
		return errno == EMFILE ? 0 : -1;
	while ((e = readdir(d)))
		open += e->d_name[0] != '.';
	closedir(d);
	open--;		/* the directory's own */
	/* inherited descriptors may lie above the limit */
	return (int)rl.rlim_cur > open ? (int)rl.rlim_cur - open : 0;
}

bool fds_ran_short(int err)
{
	const char *lw = libbpf_warning();
	int left;

	if (err == EMFILE || err == -EMFILE || err == ENFILE || err == -ENFILE ||
	    strstr(lw, strerror(EMFILE)) || strstr(lw, strerror(ENFILE)))
		return true;
	left = fds_free();
	return left >= 0 && left < FDS_LOW;
}

void vmsg(const char *fmt, ...)
{
	va_list ap;

	if (!verbose)
		return;
	va_start(ap, fmt);
	vprint(fmt, ap);
	va_end(ap);
}

const char *errname(int err)
{
	static __thread char buf[32];
	const char *name;

	if (err < 0)
		err = -err;
	if (err == ENOTSUPP)
		return "ENOTSUPP";
	name = strerrorname_np(err);
	if (name)
		return name;
	snprintf(buf, sizeof(buf), "errno %d", err);
	return buf;
}

uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

/* Parses /sys/devices/system/cpu/online once ("0-1", "0,2-5"). */
static unsigned char online_map[1024];
static int online_count = -1;

static void read_online(void)
{
	char buf[4096], *tok, *save = NULL;
	FILE *f = fopen("/sys/devices/system/cpu/online", "r");
	int lo, hi, c;

	online_count = 0;
	if (!f || !fgets(buf, sizeof(buf), f)) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);

		for (c = 0; c < n && c < 1024; c++)
			online_map[c] = 1;
		online_count = n > 0 ? (int)n : 1;
		if (f)
			fclose(f);
		return;
	}
	fclose(f);
	for (tok = strtok_r(buf, ",\n", &save); tok; tok = strtok_r(NULL, ",\n", &save)) {
		if (sscanf(tok, "%d-%d", &lo, &hi) != 2)
			hi = lo = atoi(tok);
		for (c = lo; c <= hi && c < 1024; c++) {
			if (c >= 0 && !online_map[c]) {
				online_map[c] = 1;
				online_count++;
			}
		}
	}
}

int nr_online_cpus(void)
{
	if (online_count < 0)
		read_online();
	return online_count;
}

bool cpu_is_online(int cpu)
{
	if (online_count < 0)
		read_online();
	return cpu >= 0 && cpu < 1024 && online_map[cpu];
}

int pin_thread_to_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return -pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

/* Every signal a user, a terminal or a pipe sends to end a process. */
static const int stop_signals[] = {
	SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, SIGALRM, SIGUSR1, SIGUSR2,
};

static volatile sig_atomic_t got_signal, exiting;

/*
 * The first signal wins: it is what stopped the run, later ones only
 * insist.  Once at_exit() has looked, everything of ours is cleaned up and
 * only libc's (and the sanitizers') exit work is left: a signal then ends
 * the process with its status at once rather than be lost.
 */
static void on_signal(int sig)
{
	if (exiting)
		_exit(128 + sig);
	if (!got_signal)
		got_signal = sig;
}

int interrupted_signal(void)
{
	return got_signal;
}

bool interrupted(void)
{
	return got_signal != 0;
}

/*
 * The wake-up: a signal whose handler only notes it, installed without
 * SA_RESTART, so that a syscall the woken thread sits in returns EINTR.
 * The kernel's test-run loop checks for a signal pending for the calling
 * thread between program runs; a process-directed SIGINT goes to the main
 * thread (the others block it), so a producer must be told on its own.
 */
static __thread volatile sig_atomic_t woken;

static void on_wake(int sig)
{
	woken = 1;
}

static void wake_install(void)
{
	static bool done;
	struct sigaction sa;

	if (done)
		return;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_wake;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGRTMIN, &sa, NULL);
	done = true;
}

bool thread_woken(void)
{
	return woken;
}

int thread_join_waking(pthread_t t)
{
	struct timespec ts;
	int err;

	wake_install();
	for (;;) {
		/* again and again: it may have been between its last look and the syscall */
		err = pthread_kill(t, SIGRTMIN);
		if (err)	/* already gone */
			return -pthread_join(t, NULL);
		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_nsec += WAKE_INTERVAL_NS;
		if (ts.tv_nsec >= 1000000000l) {
			ts.tv_sec++;
			ts.tv_nsec -= 1000000000l;
		}
		err = pthread_timedjoin_np(t, NULL, &ts);
		if (err != ETIMEDOUT)
			return -err;
	}
}

/* Set once a write error on stdout was reported, so close_stdout() stays quiet. */
static bool stdout_reported;

void stdout_error_said(void)
{
	stdout_reported = true;
}

/* Why stdout failed: glibc drops the buffer and errno with it, so ask the descriptor. */
static int stdout_failure(void)
{
	struct pollfd p = { .fd = 1, .events = POLLOUT };
	struct statvfs vfs;
	struct stat st;

	if (fcntl(1, F_GETFL) < 0)
		return EBADF;
	if (poll(&p, 1, 0) == 1 && (p.revents & POLLERR))
		return EPIPE;
	if (write(1, "", 0) < 0)	/* /dev/full says ENOSPC even to nothing */
		return errno;
	if (!fstat(1, &st) && S_ISREG(st.st_mode) && !fstatvfs(1, &vfs) && !vfs.f_bavail)
		return ENOSPC;
	return EIO;
}

static FILE *given_stdout;	/* human_to_stderr(): the stdout the exports write to */

/* glibc's stdout is a variable (its manual says so): printf then writes to stderr. */
void human_to_stderr(void)
{
	if (given_stdout)
		return;
	fflush(stdout);
	given_stdout = stdout;
	stdout = stderr;
}

FILE *export_stdout(void)
{
	return given_stdout ?: stdout;
}

/*
 * As coreutils' close_stdout(): an error seen earlier, or one flushing
 * what is left, is a failure; a closed stdout nobody wrote to is not.
 */
static int close_given_stdout(void)
{
	bool pending = __fpending(stdout) != 0;
	int err = ferror(stdout) ? stdout_failure() : 0;

	errno = 0;
	if (fclose(stdout) && (pending || errno != EBADF) && !err)
		err = errno ? errno : EIO;
	fflush(stderr);
	if (!err || stdout_reported)
		return err ? -err : 0;
	/* the reader went away: the SIGPIPE status says it, a message would not reach anyone */
	if (err != EPIPE || interrupted_signal() != SIGPIPE)
		errmsg("write error: %s", strerror(err));
	return -err;
}

int close_stdout(void)
{
	if (given_stdout) {	/* the stream given, closed; stderr stays open for messages */
		fflush(stderr);
		stdout = given_stdout;
		given_stdout = NULL;
	}
	return close_given_stdout();
}

/*
 * The last atexit handler.  A signal that arrived at any time, even in
 * the final teardown or while results were written, decides the status;
 * an unwritten stdout fails the run.
 */
static void at_exit(void)
{
	int bad = close_stdout();

	exiting = 1;
	if (got_signal)
		_exit(128 + got_signal);
	if (bad)
		_exit(1);
}

void install_signal_handlers(void)
{
	struct sigaction sa;
	size_t i;

	atexit(at_exit);
	wake_install();
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	/* no SA_RESTART: sleeps and waits must return early */
	for (i = 0; i < ARRAY_SIZE(stop_signals); i++)
		sigaction(stop_signals[i], &sa, NULL);
}

void stop_signals_block(sigset_t *old)
{
	sigset_t set;
	size_t i;

	sigemptyset(&set);
	for (i = 0; i < ARRAY_SIZE(stop_signals); i++)
		sigaddset(&set, stop_signals[i]);
	pthread_sigmask(SIG_BLOCK, &set, old);
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		die("out of memory");
	return p;
}

char *xstrdup(const char *s)
{
	char *d = strdup(s ?: "");

	if (!d)
		die("out of memory");
	return d;
}

void *xgrow(void *p, int n, int *cap, int first, size_t size)
{
	if (n < *cap)
		return p;
	*cap = *cap ? 2 * *cap : first;
	p = realloc(p, (size_t)*cap * size);
	if (!p)
		die("out of memory");
	return p;
}

void vbufcat(char *buf, size_t size, size_t *len, const char *fmt, va_list ap)
{
	int n;

	if (!size || *len >= size - 1)
		return;
	n = vsnprintf(buf + *len, size - *len, fmt, ap);
	if (n < 0)
		buf[*len] = 0;
	else
		*len = *len + (size_t)n < size ? *len + (size_t)n : size - 1;
}

void bufcat(char *buf, size_t size, size_t *len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vbufcat(buf, size, len, fmt, ap);
	va_end(ap);
}

int text_width(const char *s)
{
	int w = 0;

	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

int utf8_width(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/* The longest head of a word (len) that ends after a cut character and fits room, or 0. */
static int cut_point(const char *word, int len, int room, const char *cut)
{
	int n = len < room ? len : room;

	while (n > 0 && !strchr(cut, word[n - 1]))
		n--;
	return n;
}

void wrap_words(FILE *out, int col, int indent, int cols, const char *cut, const char *text)
{
	bool fresh = true;	/* no word on this line yet */
	int word, head;

	text += strspn(text, " ");
	while (*text) {
		word = (int)strcspn(text, " ");
		if (!fresh && col + 1 + word > cols) {
			col = fprintf(out, "\n%*s", indent, "") - 1;
			fresh = true;
		}
		while (cut && col + (fresh ? 0 : 1) + word > cols &&
		       (head = cut_point(text, word, cols - col - (fresh ? 0 : 1), cut)) > 0) {
			fprintf(out, "%s%.*s\n%*s", fresh ? "" : " ", head, text, indent, "");
			col = indent;
			fresh = true;
			text += head;
			word -= head;
		}
		col += fprintf(out, "%s%.*s", fresh ? "" : " ", word, text);
		fresh = false;
		text += word;
		text += strspn(text, " ");
	}
	fputc('\n', out);
}

/* The length of a well-formed UTF-8 character at s (RFC 3629), 0 if it is none. */
static size_t utf8_char(const unsigned char *s)
{
	size_t n = *s >= 0xf0 && *s <= 0xf4 ? 4 : *s >= 0xe0 ? 3 : *s >= 0xc2 && *s < 0xe0 ? 2 : 0;
	size_t i;

	if (n == 3 && *s > 0xef)
		return 0;
	if ((*s == 0xe0 && s[1] < 0xa0) || (*s == 0xed && s[1] > 0x9f) ||
	    (*s == 0xf0 && s[1] < 0x90) || (*s == 0xf4 && s[1] > 0x8f))
		return 0;	/* overlong, a surrogate, beyond U+10FFFF */
	for (i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;	/* a NUL ends the loop here too */
	return n;
}

const char *text_escape(const char *s, char *buf, size_t len)
{
	const unsigned char *p = (const unsigned char *)(s ?: "");
	size_t n = 0;

	for (buf[0] = 0; *p && n + 5 < len; p++) {
		if (*p == '\n' || *p == '\t' || *p == '\r')
			n += sprintf(buf + n, "\\%c", *p == '\n' ? 'n' : *p == '\t' ? 't' : 'r');
		else if (*p < 0x20 || *p == 0x7f)
			n += sprintf(buf + n, "\\x%02x", *p);
		else
			buf[n++] = (char)*p;
	}
	buf[n] = 0;
	return buf;
}

const char *shown_text(const char *s)
{
	static __thread char ring[SHOWN_RING][SHOWN_MAX * 4 + 48];
	static __thread unsigned int next;
	char *out = ring[next++ % SHOWN_RING], *w = out;
	const unsigned char *base = (const unsigned char *)(s ?: ""), *p = base;
	size_t n;

	for (; *p && p - base < SHOWN_MAX; p += n) {
		n = *p >= 0x80 ? utf8_char(p) : 1;
		if (*p == '\n' || *p == '\t' || *p == '\r') {
			w += sprintf(w, "\\%c", *p == '\n' ? 'n' : *p == '\t' ? 't' : 'r');
		} else if (*p < 0x20 || *p == 0x7f || !n) {
			w += sprintf(w, "\\x%02x", *p);
			n = 1;
		} else {
			memcpy(w, p, n);
			w += n;
		}
	}
	if (*p)
		sprintf(w, "...(%zu bytes)", (size_t)(p - base) + strlen((const char *)p));
	else
		*w = 0;
	return out;
}
