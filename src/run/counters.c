// SPDX-License-Identifier: GPL-2.0
/* --counters (counters.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include "counters.h"

const char *const counter_names[CNT__COUNT] = {
	"task_clock_ns", "context_switches", "cycles", "instructions", "cache_misses",
	"branch_misses",
};

static const struct { uint32_t type; uint64_t config; } events[CNT__COUNT] = {
	{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
	{ PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES },
	{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES },
};

/* inherit: the threads created after this count too, and an ioctl on it reaches theirs. */
static int open_one(int i)
{
	struct perf_event_attr a;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = events[i].type;
	a.config = events[i].config;
	a.disabled = 1;
	a.inherit = 1;
	return syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
}

static void close_all(struct counter_set *s)
{
	int i;

	for (i = 0; i < CNT__COUNT; i++) {
		if (s->fd[i] >= 0)
			close(s->fd[i]);
		s->fd[i] = -1;
	}
}

int counters_open(struct counter_set *s, struct counters *c)
{
	int i, err;

	for (i = 0; i < CNT__COUNT; i++)
		s->fd[i] = -1;
	for (i = 0; i < CNT_FIRST_HW; i++) {
		s->fd[i] = open_one(i);
		if (s->fd[i] < 0) {
			err = errno;
			snprintf(c->why, sizeof(c->why), "perf_event_open(%s) refused: %s",
				 counter_names[i], strerror(err));
			close_all(s);
			return -err;
		}
	}
	c->pmu = true;
	for (i = CNT_FIRST_HW; i < CNT__COUNT && c->pmu; i++) {
		s->fd[i] = open_one(i);
		if (s->fd[i] < 0) {	/* a VM without a PMU: ENOENT; the software counts stay */
			snprintf(c->why, sizeof(c->why), "no hardware counters (perf_event_open(%s): "
				 "%s)", counter_names[i], strerror(errno));
			c->pmu = false;
		}
	}
	for (i = CNT_FIRST_HW; i < CNT__COUNT && !c->pmu; i++) {
		if (s->fd[i] >= 0)
			close(s->fd[i]);
		s->fd[i] = -1;
	}
	return 0;
}

static void ioctl_all(struct counter_set *s, unsigned long req)
{
	int i;

	for (i = 0; i < CNT__COUNT; i++)
		if (s->fd[i] >= 0)
			ioctl(s->fd[i], req, 0);
}

void counters_enable(struct counter_set *s)
{
	ioctl_all(s, PERF_EVENT_IOC_ENABLE);
}

void counters_disable(struct counter_set *s)
{
	ioctl_all(s, PERF_EVENT_IOC_DISABLE);
}

void counters_close(struct counter_set *s, struct counters *c)
{
	uint64_t v;
	int i;

	if (s->fd[0] < 0)
		return;
	counters_disable(s);
	for (i = 0; i < CNT__COUNT; i++)
		if (s->fd[i] >= 0 && read(s->fd[i], &v, sizeof(v)) == sizeof(v))
			c->count[i] += v;
	c->valid = true;
	close_all(s);
}
