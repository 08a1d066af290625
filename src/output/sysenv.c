// SPDX-License-Identifier: GPL-2.0
/*
 * The conditions a figure was taken under, for the result's "env": what
 * decides a BPF figure on this machine (CPU and its frequency policy,
 * SMT, isolation, preemption, mitigations, the BPF JIT and stats knobs,
 * virtualisation, the load when the process started).  Every field is
 * read from procfs/sysfs; one that cannot be read is null, never guessed.
 */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include "jsonw.h"
#include "sysenv.h"
#include "util.h"

/* The first line of a file, without its newline; false if it cannot be read. */
static bool read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	bool ok;

	if (!f)
		return false;
	ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	if (ok)
		buf[strcspn(buf, "\n")] = 0;
	return ok;
}

/* "(null)" is a kernel's printk of a NULL string, never a value: null. */
static bool kernel_null(const char *text)
{
	return !strcmp(text, "(null)");
}

static void kfile_str(struct jsonw *w, const char *key, const char *path)
{
	char buf[512];

	if (read_line(path, buf, sizeof(buf)) && !kernel_null(buf))
		jsonw_kstr(w, key, buf);
	else
		jsonw_knull(w, key);
}

/*
 * A CPU list the kernel keeps in sysfs: an empty list reads "" on newer
 * kernels (7.3) and the literal "(null)" on older ones (6.1, 6.12: the
 * mask was never allocated); both are written "", so that two kernels'
 * environments compare equal and no "(null)" reaches a reader.
 */
static void kfile_cpulist(struct jsonw *w, const char *key, const char *path)
{
	char buf[512];

	if (!read_line(path, buf, sizeof(buf)))
		jsonw_knull(w, key);
	else
		jsonw_kstr(w, key, kernel_null(buf) ? "" : buf);
}

static void kfile_int(struct jsonw *w, const char *key, const char *path)
{
	char buf[64], *end;
	long v;

	if (read_line(path, buf, sizeof(buf))) {
		v = strtol(buf, &end, 10);
		if (end != buf) {
			jsonw_ki64(w, key, v);
			return;
		}
	}
	jsonw_knull(w, key);
}

/* Each file of /sys/devices/system/cpu/vulnerabilities: the kernel's word on its mitigation. */
static void mitigations(struct jsonw *w)
{
	static const char dir[] = "/sys/devices/system/cpu/vulnerabilities";
	char path[512], buf[256];
	struct dirent *e;
	DIR *d = opendir(dir);

	jsonw_key(w, "vulnerabilities");
	if (!d) {
		jsonw_null(w);
		return;
	}
	jsonw_obj_open(w);
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (read_line(path, buf, sizeof(buf)))
			jsonw_kstr(w, e->d_name, kernel_null(buf) ? NULL : buf);
	}
	closedir(d);
	jsonw_obj_close(w);
}

/* The value of a kernel command line parameter ("mitigations=auto"), or NULL. */
static const char *cmdline_param(const char *cmdline, const char *name, char *buf, size_t len)
{
	size_t n = strlen(name);
	const char *p = cmdline;

	while ((p = strstr(p, name))) {
		if ((p == cmdline || p[-1] == ' ') && p[n] == '=') {
			snprintf(buf, len, "%.*s", (int)strcspn(p + n + 1, " "), p + n + 1);
			return buf;
		}
		p += n;
	}
	return NULL;
}

static void kernel_config(struct jsonw *w)
{
	char cmdline[4096] = "", buf[128];
	const char *v;
	struct utsname u;

	uname(&u);
	/* the history's host identity (bpfbench db record): whose figures these are */
	jsonw_kstr(w, "hostname", u.nodename);
	/* the build string names the preemption model: "SMP PREEMPT_DYNAMIC", "SMP PREEMPT_RT" */
	jsonw_kstr(w, "kernel_build", u.version);
	if (read_line("/proc/cmdline", cmdline, sizeof(cmdline))) {
		v = cmdline_param(cmdline, "preempt", buf, sizeof(buf));
		v ? jsonw_kstr(w, "preempt_param", v) : jsonw_knull(w, "preempt_param");
		v = cmdline_param(cmdline, "mitigations", buf, sizeof(buf));
		v ? jsonw_kstr(w, "mitigations_param", v) : jsonw_knull(w, "mitigations_param");
	}
	mitigations(w);
}

static void cpu_policy(struct jsonw *w)
{
	/* tests plant a CPU directory of their own (bpf_loop.t) */
	const char *cpu = getenv("BPFBENCH_TEST_CPU_SYSFS") ?: "/sys/devices/system/cpu";
	char path[512];

	snprintf(path, sizeof(path), "%s/cpu0/cpufreq/scaling_driver", cpu);
	kfile_str(w, "cpufreq_driver", path);
	snprintf(path, sizeof(path), "%s/cpu0/cpufreq/scaling_governor", cpu);
	kfile_str(w, "cpufreq_governor", path);
	snprintf(path, sizeof(path), "%s/cpufreq/boost", cpu);
	kfile_int(w, "cpufreq_boost", path);
	snprintf(path, sizeof(path), "%s/intel_pstate/no_turbo", cpu);
	kfile_int(w, "intel_no_turbo", path);
	snprintf(path, sizeof(path), "%s/smt/active", cpu);
	kfile_int(w, "smt_active", path);
	snprintf(path, sizeof(path), "%s/isolated", cpu);
	kfile_cpulist(w, "isolated_cpus", path);
	snprintf(path, sizeof(path), "%s/nohz_full", cpu);
	kfile_cpulist(w, "nohz_full", path);
}

static void bpf_knobs(struct jsonw *w)
{
	kfile_int(w, "bpf_jit_enable", "/proc/sys/net/core/bpf_jit_enable");
	kfile_int(w, "bpf_jit_harden", "/proc/sys/net/core/bpf_jit_harden");
	kfile_int(w, "bpf_jit_kallsyms", "/proc/sys/net/core/bpf_jit_kallsyms");
	kfile_int(w, "bpf_stats_enabled", "/proc/sys/kernel/bpf_stats_enabled");
	kfile_int(w, "unprivileged_bpf_disabled", "/proc/sys/kernel/unprivileged_bpf_disabled");
}

/* x86's CPUID hypervisor bit and vendor leaf; elsewhere the DMI product name, if any. */
static void virtualisation(struct jsonw *w)
{
#if defined(__x86_64__) || defined(__i386__)
	unsigned int a, b, c, d;
	char vendor[13];

	__asm__ volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(1), "c"(0));
	if (!(c & (1u << 31))) {
		jsonw_kstr(w, "hypervisor", "none");
		return;
	}
	__asm__ volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(0x40000000), "c"(0));
	memcpy(vendor, &b, 4);
	memcpy(vendor + 4, &c, 4);
	memcpy(vendor + 8, &d, 4);
	vendor[12] = 0;
	jsonw_kstr(w, "hypervisor", vendor[0] ? vendor : "unknown");
#else
	kfile_str(w, "hypervisor", "/sys/class/dmi/id/product_name");
#endif
}

/* The machine as the process found it: later readings would include our own load. */
static struct {
	bool valid;
	double loadavg_1m;
	double steal_pct;	/* share of CPU time stolen by the hypervisor since boot */
} start;

void sysenv_json(struct jsonw *w)
{
	cpu_policy(w);
	kernel_config(w);
	bpf_knobs(w);
	virtualisation(w);
	if (start.valid) {
		jsonw_kdouble(w, "loadavg_1m_at_start", start.loadavg_1m);
		jsonw_kdouble(w, "steal_pct_since_boot", start.steal_pct);
	} else {
		jsonw_knull(w, "loadavg_1m_at_start");
		jsonw_knull(w, "steal_pct_since_boot");
	}
}

void sysenv_capture(void)
{
	char buf[512];
	unsigned long long v[8] = { 0 }, total = 0;
	int i;

	if (!read_line("/proc/loadavg", buf, sizeof(buf)) ||
	    sscanf(buf, "%lf", &start.loadavg_1m) != 1)
		return;
	if (!read_line("/proc/stat", buf, sizeof(buf)) ||
	    sscanf(buf, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3],
		   &v[4], &v[5], &v[6], &v[7]) != 8)
		return;
	for (i = 0; i < 8; i++)
		total += v[i];
	start.steal_pct = total ? 100.0 * v[7] / total : 0;
	start.valid = true;
}
