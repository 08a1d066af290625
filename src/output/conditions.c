// SPDX-License-Identifier: GPL-2.0
/*
 * The conditions of a figure, read once per export: the JSON "env", the
 * Markdown header and the CSV columns say the same.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/utsname.h>
#include "conditions.h"
#include "util.h"

static void read_cpu_model(char *buf, size_t len)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[512], *colon;

	snprintf(buf, len, "unknown");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "model name", 10))
			continue;
		colon = strchr(line, ':');
		if (colon) {
			snprintf(buf, len, "%s", colon + 2);
			buf[strcspn(buf, "\n")] = 0;
		}
		break;
	}
	fclose(f);
}

void conditions_read(struct conditions *c)
{
	time_t now = time(NULL);
	const char *vm = getenv("BPFBENCH_VM_INFO");
	struct utsname u;
	struct tm tm;

	memset(c, 0, sizeof(*c));
	uname(&u);
	snprintf(c->version, sizeof(c->version), "%s", BPFBENCH_VERSION);
	snprintf(c->git, sizeof(c->git), "%s", BPFBENCH_GIT);
	snprintf(c->kernel, sizeof(c->kernel), "%s", u.release);
	snprintf(c->machine, sizeof(c->machine), "%s", u.machine);
	read_cpu_model(c->cpu, sizeof(c->cpu));
	c->cpus = nr_online_cpus();
	gmtime_r(&now, &tm);
	strftime(c->date, sizeof(c->date), "%Y-%m-%dT%H:%M:%SZ", &tm);
	snprintf(c->vm, sizeof(c->vm), "%s", vm ? vm : "");
}

void conditions_of_run(const struct run_result *r, char *buf, size_t len)
{
	const struct run_opts *o = &r->spec.opts;
	int n;

	n = snprintf(buf, len, "-w %g -d %g --period-ms %u -r %u", o->warmup_ms / 1e3,
		     o->duration_ms / 1e3, (unsigned int)o->period_ms, (unsigned int)o->runs);
	if (n > 0 && (size_t)n < len && o->producers > 1)
		n += snprintf(buf + n, len - n, " -p %u", (unsigned int)o->producers);
	if (n > 0 && (size_t)n < len && o->precision_pct)
		n += snprintf(buf + n, len - n, " --precision %g", o->precision_pct);
	if (n > 0 && (size_t)n < len)
		snprintf(buf + n, len - n, ", trigger %s", r->trigger ? r->trigger : "none");
}
