// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <string.h>
#include "placement.h"
#include "sysfs.h"
#include "util.h"

/* The "processor" field of /proc/self/task/TID/stat: the CPU it last ran on, or -1. */
static int task_cpu(pid_t tid)
{
	char path[64];
	long long cpu;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", (int)tid);
	return proc_stat_field(path, 39, &cpu) ? -1 : (int)cpu;
}

/* se.nr_migrations of /proc/self/task/TID/sched (CONFIG_SCHED_DEBUG): 0, or -1 without it. */
static int task_migrations(pid_t tid, uint64_t *val)
{
	char path[64], buf[4096], *p;
	unsigned long long v;

	snprintf(path, sizeof(path), "/proc/self/task/%d/sched", (int)tid);
	if (sysfs_read(path, NULL, buf, sizeof(buf)) < 0)
		return -1;
	p = strstr(buf, "se.nr_migrations");
	if (!p || !(p = strchr(p, ':')) || sscanf(p + 1, "%llu", &v) != 1)
		return -1;
	*val = v;
	return 0;
}

/* The first field of /proc/self/task/TID/schedstat: ns spent on a CPU, or -1. */
static int task_run_ns(pid_t tid, uint64_t *val)
{
	char path[64], buf[128];
	unsigned long long v;

	snprintf(path, sizeof(path), "/proc/self/task/%d/schedstat", (int)tid);
	if (sysfs_read(path, NULL, buf, sizeof(buf)) < 0 || sscanf(buf, "%llu", &v) != 1)
		return -1;
	*val = v;
	return 0;
}

void place_begin(struct place_mon *m, const pid_t *tids, int n)
{
	int i;

	memset(m, 0, sizeof(*m));
	m->n = n < PLACE_MAX_THREADS ? n : PLACE_MAX_THREADS;
	m->have_migrations = m->n > 0;
	for (i = 0; i < m->n; i++) {
		m->tid[i] = tids[i];
		m->cpu[i] = (int16_t)task_cpu(tids[i]);
		if (task_migrations(tids[i], &m->migrations[i]))
			m->have_migrations = false;
		if (task_run_ns(tids[i], &m->run_ns[i]))
			m->run_ns[i] = UINT64_MAX;
	}
	m->t_ns = now_ns();
}

/* Thread i's share of the wall time dt on a CPU since the last look; < 0: not known. */
static float oncpu_share(struct place_mon *m, int i, uint64_t dt)
{
	uint64_t run, prev = m->run_ns[i];

	if (task_run_ns(m->tid[i], &run)) {
		m->run_ns[i] = UINT64_MAX;
		return -1;
	}
	m->run_ns[i] = run;
	if (prev == UINT64_MAX || !dt || run < prev)
		return -1;
	return (float)((double)(run - prev) / dt);
}

void place_next(struct place_mon *m, struct noise_sample *ns)
{
	uint64_t mig, t = now_ns(), dt = t - m->t_ns;
	int i, cpu;

	m->t_ns = t;
	ns->nr_threads = (uint8_t)m->n;
	ns->moved = false;
	for (i = 0; i < m->n; i++) {
		cpu = task_cpu(m->tid[i]);
		ns->cpu[i] = (int16_t)cpu;
		ns->migrations[i] = 0;
		if (m->have_migrations && !task_migrations(m->tid[i], &mig)) {
			ns->migrations[i] = (uint16_t)(mig - m->migrations[i] > UINT16_MAX ?
						       UINT16_MAX : mig - m->migrations[i]);
			m->migrations[i] = mig;
		}
		/* without the count, a CPU other than the last look's is a move */
		if (ns->migrations[i] || (cpu >= 0 && m->cpu[i] >= 0 && cpu != m->cpu[i]))
			ns->moved = true;
		m->cpu[i] = (int16_t)cpu;
		ns->oncpu[i] = oncpu_share(m, i, dt);
	}
}

int place_cpus(const struct noise_sample *ns, int *cpus, int max)
{
	int i, k, n = 0;

	for (i = 0; i < ns->nr_threads; i++) {
		if (ns->cpu[i] < 0)
			continue;
		for (k = 0; k < n && cpus[k] != ns->cpu[i]; k++)
			;
		if (k == n && n < max)
			cpus[n++] = ns->cpu[i];
	}
	return n;
}
