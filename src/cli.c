// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"
#include "cli.h"
#include "trigger.h"
#include "util.h"

#define G(field)	OPT_OFF(struct run_opts, field)

const struct opt_def global_opts[] = {
	{ "warmup", 'w', OPT_UINT, G(warmup_s), "1", 0, 3600, NULL, "SEC",
	  "seconds of samples discarded before measuring" },
	{ "duration", 'd', OPT_UINT, G(duration_s), "5", 1, 86400, NULL, "SEC",
	  "seconds measured (one sample per period)" },
	{ "producers", 'p', OPT_UINT, G(producers), "1", 1, BENCH_MAX_THREADS, NULL, "N",
	  "producer threads" },
	{ "consumers", 'c', OPT_UINT, G(consumers), "0", 0, 64, NULL, "N",
	  "consumer threads (benchmarks that have consumers)" },
	{ "period-ms", 0, OPT_UINT, G(period_ms), "1000", 10, 60000, NULL, "MS",
	  "sampling period" },
	{ "affinity", 'a', OPT_FLAG, G(affinity), NULL, 0, 0, NULL, NULL,
	  "pin consumers, then producers, to CPUs 0, 1, 2, ..." },
	{ "prod-affinity", 0, OPT_CPUSET, G(prod_cpus), NULL, 0, 0, NULL, "CPUSET",
	  "pin producer i to the i-th CPU of a list like 0-3,7" },
	{ "cons-affinity", 0, OPT_CPUSET, G(cons_cpus), NULL, 0, 0, NULL, "CPUSET",
	  "pin consumer i to the i-th CPU of the list" },
	{ "trigger", 0, OPT_CHOICE, G(trigger), "auto", 0, 0, trigger_names, "HOW",
	  "how programs are run" },
	{ "test-run-repeat", 0, OPT_UINT, G(test_run_repeat), NULL,
	  1, TEST_RUN_MAX_REPEAT, NULL, "N",
	  "test-run trigger: program runs per syscall (default: calibrated to >= 2 ms)" },
	{ "json", 0, OPT_STRING, G(json_path), NULL, 0, 0, NULL, "FILE",
	  "write results as JSON to FILE ('-': stdout)" },
	{ "csv", 0, OPT_STRING, G(csv_path), NULL, 0, 0, NULL, "FILE",
	  "write results as CSV to FILE, one line per run and metric ('-': stdout)" },
	{ "md", 0, OPT_STRING, G(md_path), NULL, 0, 0, NULL, "FILE",
	  "write results as a Markdown table to FILE ('-': stdout)" },
	{ "sweep", 0, OPT_STRING, G(sweep), NULL, 0, 0, NULL, "PARAM=V1,V2,...",
	  "one run per value of a global or benchmark option, one row each" },
	{ "precision", 0, OPT_STRING, G(precision_text), NULL, 0, 0, NULL, "PCT",
	  "sample until the 95% CI of the first metric's mean is within PCT% of it" },
	{ "max-duration", 0, OPT_UINT, G(max_duration_s), "60", 1, 86400, NULL, "SEC",
	  "upper bound of a --precision run's measured time" },
	{ "runs", 'r', OPT_UINT, G(runs), "1", 1, 1000, NULL, "N",
	  "repeat the whole run N times, each with a fresh setup (new maps, programs, hash seeds)" },
	{ "verbose", 'v', OPT_FLAG, G(verbose), NULL, 0, 0, NULL, NULL,
	  "libbpf and verifier detail on stderr" },
	{ "quiet", 'q', OPT_FLAG, G(quiet), NULL, 0, 0, NULL, NULL,
	  "no per-period lines, only the summary" },
	{ "list", 'l', OPT_FLAG, G(list), NULL, 0, 0, NULL, NULL,
	  "list benchmarks" },
	{ "help", 'h', OPT_FLAG, G(help), NULL, 0, 0, NULL, NULL,
	  "this help, or a benchmark's options after its name" },
	{ NULL },
};

static int usage_error(const char *fmt, const char *a, const char *b)
{
	fputs("bpfbench: error: ", stderr);
	fprintf(stderr, fmt, a, b);
	fputc('\n', stderr);
	return EXIT_USAGE;
}

/* Any benchmark's option of that name: used to skip values before the name is known. */
static const struct opt_def *any_bench_opt(const char *name, char c)
{
	const struct bench *const *b;
	const struct opt_def *o;

	for (b = bench_table; *b; b++) {
		o = c ? opts_find_short((*b)->opts, c) : opts_find((*b)->opts, name);
		if (o)
			return o;
	}
	return NULL;
}

struct parse_state {
	int argc;
	char **argv;
	int i;
	struct run_spec *spec;		/* bench NULL in the first pass */
	bool apply;			/* second pass: store values */
	const char *positional;
};

/* An option and the struct its value goes to: the run's global options or its benchmark's. */
static const struct opt_def *lookup(struct parse_state *ps, const char *name, char c, void **args)
{
	const struct bench *b = ps->spec->bench;
	const struct opt_def *o;

	*args = &ps->spec->opts;
	o = c ? opts_find_short(global_opts, c) : opts_find(global_opts, name);
	if (o)
		return o;
	*args = ps->spec->args;
	if (b)
		return c ? opts_find_short(b->opts, c) : opts_find(b->opts, name);
	return any_bench_opt(name, c);
}

static int apply_opt(struct parse_state *ps, const struct opt_def *o, void *args, const char *val)
{
	char err[300];

	if (!ps->apply)
		return 0;
	if (opts_set(o, args, val, err, sizeof(err)))
		return usage_error("%s%s", err, "");
	return 0;
}

static int not_found(struct parse_state *ps, const char *shown)
{
	if (ps->spec->bench && any_bench_opt(shown + 2, 0))
		return usage_error("option %s does not apply to benchmark %s", shown,
				   ps->spec->bench->name);
	return usage_error("unknown option %s%s", shown, "");
}

static int parse_long(struct parse_state *ps, const char *arg)
{
	char name[128];
	const char *eq = strchr(arg, '=');
	const struct opt_def *o;
	size_t n = eq ? (size_t)(eq - arg) : strlen(arg);
	void *args;

	if (n - 2 >= sizeof(name) - 2)
		return usage_error("unknown option %.40s%s", arg, "...");
	memcpy(name, arg, n);
	name[n] = 0;
	o = lookup(ps, name + 2, 0, &args);
	if (!o)
		return not_found(ps, name);
	if (!opt_takes_value(o)) {
		if (eq)
			return usage_error("option %s takes no value%s", name, "");
		return apply_opt(ps, o, args, "1");
	}
	if (eq)
		return apply_opt(ps, o, args, eq + 1);
	if (ps->i + 1 >= ps->argc)
		return usage_error("option %s needs a value%s", name, "");
	return apply_opt(ps, o, args, ps->argv[++ps->i]);
}

static int parse_short(struct parse_state *ps, const char *arg)
{
	const struct opt_def *o;
	char shown[3] = "-?";
	void *args;
	int ret;

	for (arg++; *arg; arg++) {
		shown[1] = *arg;
		o = lookup(ps, NULL, *arg, &args);
		if (!o)
			return usage_error("unknown option %s%s", shown, "");
		if (!opt_takes_value(o)) {
			ret = apply_opt(ps, o, args, "1");
			if (ret)
				return ret;
			continue;
		}
		if (arg[1])	/* -p8 */
			return apply_opt(ps, o, args, arg + 1);
		if (ps->i + 1 >= ps->argc)
			return usage_error("option %s needs a value%s", shown, "");
		return apply_opt(ps, o, args, ps->argv[++ps->i]);
	}
	return 0;
}

static int positional(struct parse_state *ps, const char *arg)
{
	if (ps->positional)
		return usage_error("unexpected argument '%s' (benchmark is '%s')", arg,
				   ps->positional);
	ps->positional = arg;
	return 0;
}

static int parse_pass(struct parse_state *ps)
{
	bool options = true;	/* until "--" */
	const char *arg;
	int ret;

	for (ps->i = 1; ps->i < ps->argc; ps->i++) {
		arg = ps->argv[ps->i];
		if (options && !strcmp(arg, "--"))
			ret = (options = false, 0);
		else if (options && !strncmp(arg, "--", 2))
			ret = parse_long(ps, arg);
		else if (options && arg[0] == '-' && arg[1])
			ret = parse_short(ps, arg);
		else
			ret = positional(ps, arg);
		if (ret)
			return ret;
	}
	return 0;
}

int cli_parse(int argc, char **argv, struct run_spec *spec)
{
	struct parse_state ps = { .argc = argc, .argv = argv, .spec = spec };
	const struct bench *b = NULL;
	int ret;

	memset(spec, 0, sizeof(*spec));
	ret = parse_pass(&ps);	/* finds the benchmark name */
	if (ret)
		return ret;
	if (ps.positional) {
		b = bench_find(ps.positional);
		if (!b)
			return usage_error("unknown benchmark '%s' (see 'bpfbench --list')%s",
					   ps.positional, "");
		spec->args = xcalloc(1, b->args_size ?: 1);
		opts_reset(b->opts, spec->args);
	}
	spec->bench = b;
	opts_reset(global_opts, &spec->opts);
	ps.apply = true;
	ps.positional = NULL;
	ret = parse_pass(&ps);
	if (ret) {
		run_spec_free(spec);
		return ret;
	}
	verbose = spec->opts.verbose;
	return 0;
}

void run_spec_free(struct run_spec *spec)
{
	free(spec->args);
	spec->args = NULL;
}

void run_spec_copy(struct run_spec *dst, const struct run_spec *src)
{
	size_t n = src->bench ? src->bench->args_size : 0;

	*dst = *src;
	dst->args = xcalloc(1, n ?: 1);
	if (n)
		memcpy(dst->args, src->args, n);
}

static int check_cpus(const struct cpuset *set, const char *what)
{
	char cpu[16];
	int i;

	for (i = 0; i < set->n; i++) {
		if (!cpu_is_online(set->cpu[i])) {
			snprintf(cpu, sizeof(cpu), "%d", set->cpu[i]);
			return usage_error("--%s: CPU %s does not exist or is offline", what, cpu);
		}
	}
	return 0;
}

/* --precision PCT: a percentage in (0, 100], fractions allowed ("0.5"). */
static int parse_precision(struct run_opts *o)
{
	const char *t = o->precision_text;
	char *end;
	double v;

	o->precision_pct = 0;
	if (!t)
		return 0;
	errno = 0;
	v = strtod(t, &end);
	if (!*t || *end || errno || !(v > 0 && v <= 100))
		return usage_error("--precision: '%s' is not a percentage in (0, 100]%s", t, "");
	o->precision_pct = v;
	return 0;
}

/* A sampling period longer than the measured time would leave no sample at all. */
static int check_periods(const struct run_opts *o)
{
	char d[24], p[24];

	if (o->precision_pct || o->duration_s * 1000 >= o->period_ms)
		return 0;
	snprintf(d, sizeof(d), "%llu", (unsigned long long)o->duration_s);
	snprintf(p, sizeof(p), "%llu", (unsigned long long)o->period_ms);
	return usage_error("-d %s s is shorter than one --period-ms %s: no sample would be taken",
			   d, p);
}

int cli_validate(struct run_spec *spec)
{
	const struct bench *b = spec->bench;
	struct run_opts *o = &spec->opts;
	char n[24];
	int ret;

	ret = parse_precision(o);
	if (!ret)
		ret = check_periods(o);
	if (ret)
		return ret;

	if (o->consumers && !(b->flags & BENCH_F_CONSUMERS))
		return usage_error("benchmark %s has no consumers (-c must be 0)%s", b->name, "");
	if (o->cons_cpus.n && !(b->flags & BENCH_F_CONSUMERS))
		return usage_error("benchmark %s has no consumers (--cons-affinity)%s", b->name, "");
	if (o->producers > 1 && (b->flags & BENCH_F_ONE_PRODUCER)) {
		snprintf(n, sizeof(n), "%llu", (unsigned long long)o->producers);
		return usage_error("benchmark %s runs one producer (got -p %s)", b->name, n);
	}
	if (o->quiet && o->verbose)
		return usage_error("-q and -v contradict each other%s%s", "", "");
	if (o->test_run_repeat && o->trigger != TRIG_AUTO && o->trigger != TRIG_TEST_RUN)
		return usage_error("--test-run-repeat applies to the test-run trigger, not %s%s",
				   trigger_names[o->trigger], "");
	ret = check_cpus(&o->prod_cpus, "prod-affinity");
	if (!ret)
		ret = check_cpus(&o->cons_cpus, "cons-affinity");
	return ret;
}

void cli_usage(void)
{
	printf("Usage: bpfbench [options] BENCH [bench options]\n"
	       "       bpfbench --list | probe [--json] | BENCH --help\n"
	       "       bpfbench suite NAME [options] | suite --list\n"
	       "       bpfbench compare OLD.json NEW.json [--alpha A] [--fail-on-regression PCT]\n"
	       "       bpfbench plot FILE.json -o OUT.svg|OUT.png [--x PARAM] [--metric NAME]\n\n"
	       "Measures BPF maps and helpers on the running kernel.\n"
	       "Exit status: 0 ok, 1 runtime failure, 2 bad usage, 4 kernel lacks a feature (skip).\n\n");
	opts_print_help(global_opts, "Options:");
}

void cli_list(void)
{
	const struct bench *const *b;

	for (b = bench_table; *b; b++)
		printf("%-24s %-10s %s\n", (*b)->name, (*b)->family, (*b)->summary);
}

void cli_bench_help(const struct bench *b)
{
	printf("Usage: bpfbench [options] %s%s\n\n%s\n\n", b->name,
	       b->opts && b->opts->name ? " [bench options]" : "", b->summary);
	if (b->opts && b->opts->name)
		opts_print_help(b->opts, "Benchmark options:");
	else
		printf("This benchmark has no options of its own.\n");
	printf("\nGlobal options: see 'bpfbench --help'.\n");
}
