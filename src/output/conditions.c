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
#include "bench.h"
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

/* The trigger a run reports; a benchmark that drives its own programs (trig-*) has none of the core's. */
static const char *trigger_text(const struct run_result *r)
{
	if (r->trigger && strcmp(r->trigger, "none"))
		return r->trigger;
	return r->bench && (r->bench->flags & BENCH_F_SELF_DRIVEN) ? "self-driven" : "none";
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
		snprintf(buf + n, len - n, ", trigger %s", trigger_text(r));
}

static void diff_item(char *buf, size_t len, size_t *off, const char *fmt, double v)
{
	if (*off < len)
		*off += snprintf(buf + *off, len - *off, fmt, *off ? " " : "", v);
}

void conditions_diff(const struct run_result *r, const struct run_result *base, char *buf,
		     size_t len)
{
	const struct run_opts *o = &r->spec.opts, *b = &base->spec.opts;
	const char *t = trigger_text(r), *bt = trigger_text(base);
	size_t off = 0;

	buf[0] = 0;
	if (o->warmup_ms != b->warmup_ms)
		diff_item(buf, len, &off, "%s-w %g", o->warmup_ms / 1e3);
	if (o->duration_ms != b->duration_ms)
		diff_item(buf, len, &off, "%s-d %g", o->duration_ms / 1e3);
	if (o->period_ms != b->period_ms)
		diff_item(buf, len, &off, "%s--period-ms %g", (double)o->period_ms);
	if (o->runs != b->runs)
		diff_item(buf, len, &off, "%s-r %g", (double)o->runs);
	if ((o->producers > 1 || b->producers > 1) && o->producers != b->producers)
		diff_item(buf, len, &off, "%s-p %g", (double)o->producers);
	if (o->precision_pct != b->precision_pct)
		diff_item(buf, len, &off, "%s--precision %g", o->precision_pct);
	if (strcmp(t, bt) && off < len)
		snprintf(buf + off, len - off, "%strigger %s", off ? ", " : "", t);
}
