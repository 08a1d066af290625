// SPDX-License-Identifier: GPL-2.0
/* The sampler of --profile and `bpfbench profile` (profile.h). */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include "profile_int.h"
#include "util.h"

/*
 * 64 data pages (256 KiB) a CPU: at 999 Hz a sample of a deep stack is
 * ~0.5 KiB, so a ring holds half a second; the thread wakes at a quarter
 * full or every 50 ms, whichever comes first.
 */
#define RING_PAGES	64
#define POLL_MS		50
#define MAPS_EVERY_NS	200000000ull	/* a short-lived program is still caught */

static int perf_open(struct perf_event_attr *a, int cpu)
{
	return syscall(SYS_perf_event_open, a, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
}

static void attr_init(struct perf_event_attr *a, bool hw, uint64_t freq, size_t ring)
{
	memset(a, 0, sizeof(*a));
	a->size = sizeof(*a);
	a->type = hw ? PERF_TYPE_HARDWARE : PERF_TYPE_SOFTWARE;
	a->config = hw ? PERF_COUNT_HW_CPU_CYCLES : PERF_COUNT_SW_CPU_CLOCK;
	a->freq = 1;
	a->sample_freq = freq;
	a->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_CALLCHAIN;
	a->disabled = 1;
	a->watermark = 1;
	a->wakeup_watermark = ring / 4;
}

static int open_why(struct profile *p, int err, int cpu)
{
	const char *hint = "";

	if (err == EACCES || err == EPERM)
		hint = " (system-wide sampling needs root or CAP_PERFMON, or "
		       "kernel.perf_event_paranoid <= -1)";
	else if (err == ENOENT || err == EOPNOTSUPP)
		hint = " (this kernel offers no cpu-clock sampling event)";
	else if (err == EMFILE || err == ENFILE)
		hint = " (file descriptors ran short, see ulimit -n)";
	snprintf(p->why, sizeof(p->why), "perf_event_open(%s, cpu %d) refused: %s%s", p->event,
		 cpu, strerror(err), hint);
	return -err;
}

/* Cycles where a PMU answers, else cpu-clock: probed on the first CPU, never assumed. */
static int probe_event(struct profiler *pf, uint64_t freq, struct profile *p)
{
	struct perf_event_attr a;
	int fd;

	attr_init(&a, true, freq, pf->ring_bytes);
	fd = perf_open(&a, pf->cpus[0]);
	if (fd >= 0) {
		close(fd);
		snprintf(p->event, sizeof(p->event), "cycles");
		return 1;
	}
	snprintf(p->event, sizeof(p->event), "cpu-clock");
	return 0;
}

static int list_cpus(struct profiler *pf)
{
	long n = sysconf(_SC_NPROCESSORS_CONF), c;

	pf->cpus = xcalloc(n > 0 ? n : 1, sizeof(int));
	for (c = 0; c < n; c++)
		if (cpu_is_online(c))
			pf->cpus[pf->nr++] = c;
	return pf->nr;
}

static int open_all(struct profiler *pf, uint64_t freq, struct profile *p)
{
	struct perf_event_attr a;
	size_t map_len = pf->ring_bytes + getpagesize();
	int i, hw = probe_event(pf, freq, p);

	attr_init(&a, hw, freq, pf->ring_bytes);
	pf->fds = xcalloc(pf->nr, sizeof(int));
	pf->rings = xcalloc(pf->nr, sizeof(void *));
	for (i = 0; i < pf->nr; i++)
		pf->fds[i] = -1;
	for (i = 0; i < pf->nr; i++) {
		pf->fds[i] = perf_open(&a, pf->cpus[i]);
		if (pf->fds[i] < 0)
			return open_why(p, errno, pf->cpus[i]);
		pf->rings[i] = mmap(NULL, map_len, PROT_READ | PROT_WRITE, MAP_SHARED,
				    pf->fds[i], 0);
		if (pf->rings[i] == MAP_FAILED) {
			pf->rings[i] = NULL;
			snprintf(p->why, sizeof(p->why), "cannot map the perf ring of cpu %d: %s "
				 "(see /proc/sys/kernel/perf_event_mlock_kb)", pf->cpus[i],
				 strerror(errno));
			return -ENOMEM;
		}
	}
	return 0;
}

/* ---- the rings ---- */

struct sample_hdr {
	uint64_t ip;
	uint32_t pid, tid;
	uint64_t nr;
};

static void take_record(struct profiler *pf, const struct perf_event_header *h)
{
	const struct sample_hdr *s = (const void *)(h + 1);

	if (h->type == PERF_RECORD_LOST) {
		pf->lost += ((const uint64_t *)(h + 1))[1];
		return;
	}
	if (h->type != PERF_RECORD_SAMPLE || h->size < sizeof(*h) + sizeof(*s))
		return;
	if ((pid_t)s->pid != pf->tgid || (int)s->tid == atomic_load(&pf->self_tid)) {
		pf->others++;
		return;
	}
	if (sizeof(*h) + sizeof(*s) + s->nr * 8 > h->size)
		return;		/* malformed: never read past the record */
	pf->samples++;
	raw_add(pf->raw, (const uint64_t *)(s + 1), (uint32_t)s->nr);
}

/* Everything in one ring: a record that wraps is copied out whole first. */
static void drain_ring(struct profiler *pf, struct perf_event_mmap_page *m)
{
	const uint8_t *data = (const uint8_t *)m + getpagesize();
	uint64_t size = pf->ring_bytes, tail = m->data_tail;
	uint64_t head = __atomic_load_n(&m->data_head, __ATOMIC_ACQUIRE);
	uint64_t buf[1024];

	while (tail + sizeof(struct perf_event_header) <= head) {
		const struct perf_event_header *h = (const void *)(data + tail % size);
		uint64_t off = tail % size;

		if (off + sizeof(*h) > size || off + h->size > size) {
			uint64_t first = size - off, len;

			struct perf_event_header hh;

			memcpy(&hh, data + off, first < sizeof(hh) ? first : sizeof(hh));
			if (first < sizeof(hh))
				memcpy((uint8_t *)&hh + first, data, sizeof(hh) - first);
			len = hh.size;
			if (len > sizeof(buf) || len < sizeof(*h))
				break;
			memcpy(buf, data + off, first < len ? first : len);
			if (first < len)
				memcpy((uint8_t *)buf + first, data, len - first);
			h = (const void *)buf;
		}
		if (!h->size)
			break;
		take_record(pf, h);
		tail += h->size;
	}
	__atomic_store_n(&m->data_tail, head, __ATOMIC_RELEASE);
}

static void drain_all(struct profiler *pf)
{
	int i;

	pthread_mutex_lock(&pf->lock);
	for (i = 0; i < pf->nr; i++)
		if (pf->rings[i])
			drain_ring(pf, pf->rings[i]);
	pthread_mutex_unlock(&pf->lock);
}

/*
 * User frames are named by the mapping they fall in: a command that
 * execs or loads libraries late is read again now and then, while it
 * lives.
 */
static void maybe_read_maps(struct profiler *pf)
{
	uint64_t t = now_ns();

	if (pf->maps_at && t - pf->maps_at < MAPS_EVERY_NS)
		return;
	pf->maps_at = t;
	pthread_mutex_lock(&pf->lock);
	maps_read(pf->maps, pf->tgid);
	if (pf->tgid != getpid())	/* our own programs outlive the sampling */
		prog_watch(pf->watch, pf->tgid);
	pthread_mutex_unlock(&pf->lock);
}

static void *drain_thread(void *arg)
{
	struct profiler *pf = arg;
	struct pollfd *pfd = xcalloc(pf->nr, sizeof(*pfd));
	int i;

	atomic_store(&pf->self_tid, (int)gettid());
	for (i = 0; i < pf->nr; i++) {
		pfd[i].fd = pf->fds[i];
		pfd[i].events = POLLIN;
	}
	while (!atomic_load(&pf->stop)) {
		poll(pfd, pf->nr, POLL_MS);
		drain_all(pf);
		if (atomic_load(&pf->enabled))
			maybe_read_maps(pf);
	}
	free(pfd);
	return NULL;
}

/* ---- the profiler's life ---- */

static void close_fds(struct profiler *pf)
{
	size_t map_len = pf->ring_bytes + getpagesize();
	int i;

	for (i = 0; pf->fds && i < pf->nr; i++) {
		if (pf->rings[i])
			munmap(pf->rings[i], map_len);
		if (pf->fds[i] >= 0)
			close(pf->fds[i]);
	}
	free(pf->fds);
	free(pf->rings);
	free(pf->cpus);
	pf->fds = NULL;
	pf->rings = NULL;
	pf->cpus = NULL;
	pf->nr = 0;
}

static void free_tables(struct profiler *pf)
{
	if (pf->raw) {
		raw_free(pf->raw);
		free(pf->raw);
	}
	if (pf->maps) {
		maps_free(pf->maps);
		free(pf->maps);
	}
	if (pf->watch) {
		prog_watch_free(pf->watch);
		free(pf->watch);
	}
	pf->raw = NULL;
	pf->maps = NULL;
	pf->watch = NULL;
}

int profiler_open(struct profiler *pf, pid_t tgid, uint64_t freq, struct profile *p)
{
	sigset_t old;
	int err;

	memset(pf, 0, sizeof(*pf));
	pf->tgid = tgid;
	pf->ring_bytes = (size_t)RING_PAGES * getpagesize();
	p->freq = freq;
	if (!list_cpus(pf)) {
		snprintf(p->why, sizeof(p->why), "no online CPU found");
		close_fds(pf);
		return -ENOENT;
	}
	p->nr_cpus = pf->nr;
	err = open_all(pf, freq, p);
	if (err) {
		close_fds(pf);
		return err;
	}
	pf->raw = xcalloc(1, sizeof(*pf->raw));
	pf->maps = xcalloc(1, sizeof(*pf->maps));
	pf->watch = xcalloc(1, sizeof(*pf->watch));
	pthread_mutex_init(&pf->lock, NULL);
	stop_signals_block(&old);	/* signals go to the main thread, which stops the run */
	err = -pthread_create(&pf->thread, NULL, drain_thread, pf);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err) {
		snprintf(p->why, sizeof(p->why), "cannot start the sampler's thread: %s",
			 strerror(-err));
		pthread_mutex_destroy(&pf->lock);
		free_tables(pf);
		close_fds(pf);
		return err;
	}
	pf->thread_started = true;
	return 0;
}

static void ioctl_all(struct profiler *pf, unsigned long req)
{
	int i;

	for (i = 0; i < pf->nr; i++)
		ioctl(pf->fds[i], req, 0);
}

void profiler_enable(struct profiler *pf)
{
	if (!pf->thread_started || atomic_load(&pf->enabled))
		return;
	pthread_mutex_lock(&pf->lock);
	maps_read(pf->maps, pf->tgid);
	pthread_mutex_unlock(&pf->lock);
	atomic_store(&pf->enabled, true);
	ioctl_all(pf, PERF_EVENT_IOC_ENABLE);
}

void profiler_disable(struct profiler *pf)
{
	if (!pf->thread_started)
		return;
	ioctl_all(pf, PERF_EVENT_IOC_DISABLE);
}

void profiler_close(struct profiler *pf, struct profile *p)
{
	if (!pf->thread_started)
		return;
	profiler_disable(pf);
	atomic_store(&pf->stop, true);
	pthread_join(pf->thread, NULL);
	drain_all(pf);		/* what came after the thread's last pass */
	maps_read(pf->maps, pf->tgid);
	p->samples += pf->samples;
	p->lost += pf->lost;
	p->others += pf->others;
	profile_fold(p, pf->raw, pf->maps, pf->watch, pf->tgid);
	p->valid = true;
	pthread_mutex_destroy(&pf->lock);
	free_tables(pf);
	close_fds(pf);
	pf->thread_started = false;
}
