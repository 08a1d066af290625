// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "host.h"
#include "sysfs.h"

/* A /sys or /proc path under BPFBENCH_SYSFS_ROOT (tests), else as it is. */
static const char *at_root(const char *path, char *buf, size_t len)
{
	const char *root = getenv("BPFBENCH_SYSFS_ROOT");

	if (!root || !*root)
		return path;
	snprintf(buf, len, "%s%s", root, path);
	return buf;
}

/* src into dst, cut to fit: a fact read from a file is as long as the file says. */
static void copy_text(char *dst, size_t len, const char *src)
{
	size_t n = strnlen(src, len - 1);

	memcpy(dst, src, n);
	dst[n] = 0;
}

/* The file's first line, without its newline: 0 or -errno. */
static int read_line(const char *path, char *out, size_t len)
{
	char rp[512], buf[512];
	int err = sysfs_read(at_root(path, rp, sizeof(rp)), NULL, buf, sizeof(buf));

	if (err)
		return err;
	buf[strcspn(buf, "\n")] = 0;
	copy_text(out, len, buf);
	return 0;
}

static void read_cpuinfo(struct host_facts *h)
{
	char rp[512], line[1024], *v;
	FILE *f = fopen(at_root("/proc/cpuinfo", rp, sizeof(rp)), "re");

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		v = strchr(line, ':');
		if (!v)
			continue;
		v += 2;
		v[strcspn(v, "\n")] = 0;
		if (!strncmp(line, "model name", 10) && !h->model[0])
			copy_text(h->model, sizeof(h->model), v);
		if (!strncmp(line, "flags", 5) && strstr(v, " hypervisor"))
			h->hypervisor = true;
	}
	fclose(f);
}

/* Per CPU: its steal and total jiffies (/proc/stat "cpuN" lines). */
static void read_steal(struct host_facts *h, unsigned long long *steal, unsigned long long *total)
{
	char rp[512], line[512];
	unsigned long long v[8];
	FILE *f = fopen(at_root("/proc/stat", rp, sizeof(rp)), "re");
	int cpu, i;

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "cpu%d %llu %llu %llu %llu %llu %llu %llu %llu", &cpu, &v[0], &v[1],
			   &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) != 9 || cpu < 0 || cpu >= h->nr_cpus)
			continue;
		steal[cpu] = v[7];
		for (total[cpu] = 0, i = 0; i < 8; i++)
			total[cpu] += v[i];
	}
	fclose(f);
}

/* Per CPU: every interrupt it has taken (/proc/interrupts' columns). */
static void read_irqs(struct host_facts *h, unsigned long long *irqs)
{
	char rp[512], *line = NULL, *p, *end;
	size_t cap = 0;
	FILE *f = fopen(at_root("/proc/interrupts", rp, sizeof(rp)), "re");
	int cpu;

	if (!f)
		return;
	if (getline(&line, &cap, f) < 0) {	/* the CPUn header */
		fclose(f);
		free(line);
		return;
	}
	while (getline(&line, &cap, f) > 0) {
		p = strchr(line, ':');
		if (!p)
			continue;
		p++;
		for (cpu = 0; cpu < h->nr_cpus; cpu++) {
			unsigned long long n = strtoull(p, &end, 10);

			if (end == p)
				break;
			irqs[cpu] += n;
			p = end;
		}
	}
	free(line);
	fclose(f);
}

static void read_cpus(struct host_facts *h)
{
	char path[128];
	int cpu;

	for (cpu = 0; cpu < HOST_MAX_CPUS; cpu++) {
		struct host_cpu *c = &h->cpus[h->nr_cpus];
		char rp[512];

		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d", cpu);
		if (access(at_root(path, rp, sizeof(rp)), F_OK))
			break;
		memset(c, 0, sizeof(*c));
		c->cpu = cpu;
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor", cpu);
		read_line(path, c->governor, sizeof(c->governor));
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_driver", cpu);
		read_line(path, c->driver, sizeof(c->driver));
		h->nr_cpus++;
	}
}

static void read_boost(struct host_facts *h)
{
	char v[32];

	if (!read_line("/sys/devices/system/cpu/cpufreq/boost", v, sizeof(v)))
		snprintf(h->boost, sizeof(h->boost), "%s", atoi(v) ? "on" : "off");
	else if (!read_line("/sys/devices/system/cpu/intel_pstate/no_turbo", v, sizeof(v)))
		snprintf(h->boost, sizeof(h->boost), "%s", atoi(v) ? "off" : "on");
}

static void read_thp(struct host_facts *h)
{
	char v[128], *a, *b;

	if (read_line("/sys/kernel/mm/transparent_hugepage/enabled", v, sizeof(v)))
		return;
	a = strchr(v, '[');
	b = a ? strchr(a, ']') : NULL;
	if (a && b) {
		*b = 0;
		snprintf(h->thp, sizeof(h->thp), "%s", a + 1);
	}
}

static void read_pressure(struct host_facts *h)
{
	char v[256], *p;

	h->pressure_avg10 = -1;
	if (!read_line("/proc/pressure/cpu", v, sizeof(v)) && (p = strstr(v, "avg10=")))
		h->pressure_avg10 = atof(p + 6);
}

static void sleep_s(double s)
{
	struct timespec ts = { (time_t)s, (long)((s - (time_t)s) * 1e9) };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

int host_read(struct host_facts *h, double window_s)
{
	unsigned long long s0[HOST_MAX_CPUS] = { 0 }, t0[HOST_MAX_CPUS] = { 0 };
	unsigned long long s1[HOST_MAX_CPUS] = { 0 }, t1[HOST_MAX_CPUS] = { 0 };
	unsigned long long i0[HOST_MAX_CPUS] = { 0 }, i1[HOST_MAX_CPUS] = { 0 };
	char v[128];
	int cpu;

	memset(h, 0, sizeof(*h));
	read_cpuinfo(h);
	read_cpus(h);
	read_line("/sys/devices/system/cpu/smt/control", h->smt, sizeof(h->smt));
	read_line("/sys/devices/system/cpu/isolated", h->isolated, sizeof(h->isolated));
	read_line("/sys/devices/system/cpu/nohz_full", h->nohz_full, sizeof(h->nohz_full));
	if (!strcmp(h->nohz_full, "(null)"))
		h->nohz_full[0] = 0;
	read_boost(h);
	read_thp(h);
	read_pressure(h);
	if (!read_line("/proc/loadavg", v, sizeof(v)))
		h->loadavg1 = atof(v);
	h->window_s = window_s;
	read_steal(h, s0, t0);
	read_irqs(h, i0);
	sleep_s(window_s);
	read_steal(h, s1, t1);
	read_irqs(h, i1);
	for (cpu = 0; cpu < h->nr_cpus; cpu++) {
		h->cpus[cpu].irqs_per_s = window_s > 0 ? (i1[cpu] - i0[cpu]) / window_s : 0;
		h->cpus[cpu].steal_pct = t1[cpu] > t0[cpu] ?
			100.0 * (s1[cpu] - s0[cpu]) / (t1[cpu] - t0[cpu]) : 0;
	}
	return h->nr_cpus ? 0 : -ENOENT;
}

int host_tune_plan(struct host_knob *k, int max)
{
	struct host_facts h = { 0 };
	char path[128], rp[512], v[32];
	int n = 0, cpu;

	read_cpus(&h);
	for (cpu = 0; cpu < h.nr_cpus && n < max; cpu++) {
		if (!h.cpus[cpu].governor[0] || !strcmp(h.cpus[cpu].governor, "performance"))
			continue;
		snprintf(path, sizeof(path), HOST_KNOB_GOVERNOR, cpu);
		copy_text(k[n].path, sizeof(k[n].path), at_root(path, rp, sizeof(rp)));
		snprintf(k[n++].value, sizeof(k->value), "performance");
	}
	if (n < max && !read_line(HOST_KNOB_BOOST, v, sizeof(v)) && atoi(v)) {
		copy_text(k[n].path, sizeof(k[n].path), at_root(HOST_KNOB_BOOST, rp, sizeof(rp)));
		snprintf(k[n++].value, sizeof(k->value), "0");
	}
	if (n < max && !read_line(HOST_KNOB_NO_TURBO, v, sizeof(v)) &&
	    !atoi(v)) {
		copy_text(k[n].path, sizeof(k[n].path), at_root(HOST_KNOB_NO_TURBO, rp, sizeof(rp)));
		snprintf(k[n++].value, sizeof(k->value), "1");
	}
	return n;
}
