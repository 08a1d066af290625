// SPDX-License-Identifier: GPL-2.0
/*
 * trig-kprobe-multi-all, trig-kretprobe-multi-all: the measured program on
 * bpf_get_numa_node_id() while an empty one sits on every other traceable
 * kernel function, as upstream's bench does it: tracefs'
 * available_filter_functions, less modules' functions, names /proc/kallsyms
 * does not know (kprobe.multi resolves names through it), repeats and the
 * functions upstream's trace_helpers.c leaves out (the idle loop, RCU's
 * and preemption's own, which recurse or trip RCU checks).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"
#include "attach_int.h"

static const char *const tracefs_dirs[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };

static const char *const left_out[] = {
	"arch_cpu_idle", "default_idle", "bpf_dispatcher_xdp_func", "migrate_disable",
	"migrate_enable", "rcu_read_unlock_strict", "preempt_count_add", "preempt_count_sub",
	"__rcu_read_lock", "__rcu_read_unlock", "bpf_get_numa_node_id",
};

struct names {
	char **v;
	size_t n, cap;
};

static int names_add(struct names *ns, const char *name)
{
	char **v;

	if (ns->n == ns->cap) {
		ns->cap = ns->cap ? ns->cap * 2 : 4096;
		v = realloc(ns->v, ns->cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		ns->v = v;
	}
	ns->v[ns->n] = strdup(name);
	return ns->v[ns->n++] ? 0 : -ENOMEM;
}

static void names_free(struct names *ns)
{
	while (ns->n)
		free(ns->v[--ns->n]);
	free(ns->v);
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool is_left_out(const char *name)
{
	size_t i;

	if (!strncmp(name, "rcu_", 4) || !strncmp(name, "__ftrace_invalid_address__", 26))
		return true;
	for (i = 0; i < ARRAY_SIZE(left_out); i++)
		if (!strcmp(name, left_out[i]))
			return true;
	return false;
}

/* The kernel's own function names in /proc/kallsyms, sorted. */
static int read_kallsyms(struct names *ks)
{
	char line[512], type, name[256];
	FILE *f = fopen("/proc/kallsyms", "re");
	int err = 0;

	if (!f)
		return -errno;
	while (!err && fgets(line, sizeof(line), f))
		if (sscanf(line, "%*x %c %255s", &type, name) == 2 && !strchr(line, '[') &&
		    (type == 't' || type == 'T'))
			err = names_add(ks, name);
	fclose(f);
	qsort(ks->v, ks->n, sizeof(*ks->v), cmp_name);
	return err;
}

static FILE *open_filter_functions(char *why, size_t len)
{
	char path[128];
	FILE *f;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(tracefs_dirs); i++) {
		snprintf(path, sizeof(path), "%s/available_filter_functions", tracefs_dirs[i]);
		f = fopen(path, "re");
		if (f)
			return f;
	}
	snprintf(why, len, "no available_filter_functions: tracefs is not mounted "
		 "(mount -t tracefs nodev /sys/kernel/tracing, or --kernel 7.3)");
	return NULL;
}

static int collect(struct names *out, const struct names *ks, char *why, size_t len)
{
	char line[512], name[256];
	FILE *f = open_filter_functions(why, len);
	int err = 0;

	if (!f)
		return -EOPNOTSUPP;
	while (!err && fgets(line, sizeof(line), f)) {
		if (strchr(line, '[') || sscanf(line, "%255s", name) != 1 || is_left_out(name))
			continue;
		if (bsearch(&(char *){ name }, ks->v, ks->n, sizeof(*ks->v), cmp_name))
			err = names_add(out, name);
	}
	fclose(f);
	if (err)
		return err;
	qsort(out->v, out->n, sizeof(*out->v), cmp_name);
	return 0;
}

/* Drops repeats from a sorted list (a static function of one name in two files). */
static void uniq(struct names *ns)
{
	size_t i, n = 0;

	for (i = 0; i < ns->n; i++) {
		if (n && !strcmp(ns->v[n - 1], ns->v[i])) {
			free(ns->v[i]);
			continue;
		}
		ns->v[n++] = ns->v[i];
	}
	ns->n = n;
}

int attach_all_functions(struct bpf_program *empty, bool retprobe, struct bpf_link **link,
			 char *why, size_t len)
{
	struct names ks = { 0 }, fns = { 0 };
	LIBBPF_OPTS(bpf_kprobe_multi_opts, o, .retprobe = retprobe);
	int err = read_kallsyms(&ks);

	if (!err)
		err = collect(&fns, &ks, why, len);
	names_free(&ks);
	if (!err) {
		uniq(&fns);
		o.syms = (const char **)fns.v;
		o.cnt = fns.n;
		*link = bpf_program__attach_kprobe_multi_opts(empty, NULL, &o);
		err = *link ? 0 : -errno;
		if (err)
			snprintf(why, len, "kprobe.multi on %zu functions refused: %s", fns.n,
				 strerror(-err));
	} else if (err != -EOPNOTSUPP) {
		snprintf(why, len, "cannot list the kernel's functions: %s", strerror(-err));
	}
	names_free(&fns);
	return err;
}
