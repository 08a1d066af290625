// SPDX-License-Identifier: GPL-2.0
/*
 * The parsed command line checked as a whole (option combinations a single
 * option cannot see), and the help and listing texts.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bench.h"
#include "args.h"
#include "trigger.h"
#include "util.h"

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
		return usage_error("--precision: '%s' is not a percentage in (0, 100]", t);
	o->precision_pct = v;
	return 0;
}

/* A sampling period longer than the measured time would leave no sample at all. */
static int check_periods(const struct run_opts *o)
{
	if (o->precision_pct || o->duration_ms >= o->period_ms)
		return 0;
	return usage_error("-d %.3g s is shorter than one --period-ms %llu: no sample would be taken",
			   o->duration_ms / 1e3, (unsigned long long)o->period_ms);
}

/* Global options a benchmark has no use for are refused, never silently ignored. */
static int check_applies(const struct bench *b, const struct run_opts *o)
{
	const char *what = NULL;

	if (b->flags & BENCH_F_NO_THREADS) {
		if (o->producers > 1)
			what = "-p";
		else if (o->affinity)
			what = "-a";
		else if (o->prod_cpus.n)
			what = "--prod-affinity";
		if (what)
			return usage_error("benchmark %s runs on the main thread alone: %s does not "
					   "apply", b->name, what);
	}
	if (b->flags & (BENCH_F_NO_TRIGGER | BENCH_F_SELF_DRIVEN)) {
		if (o->trigger != TRIG_AUTO)
			what = "--trigger";
		else if (o->test_run_repeat)
			what = "--test-run-repeat";
		else if (o->kernel_stats && (b->flags & BENCH_F_NO_TRIGGER))
			what = "--kernel-stats";
		if (what)
			return usage_error("benchmark %s runs %s: %s does not apply", b->name,
					   b->flags & BENCH_F_NO_TRIGGER ? "no trigger program" :
					   "its programs its own way", what);
	}
	return 0;
}

/*
 * --verifier-stats measures nothing: a result file of it would be a run
 * of no samples written over a real one, so the combination is refused
 * (its figures are the lines it prints on stdout).
 */
static int check_verifier_stats(const struct run_opts *o)
{
	int i;

	for (i = 0; o->verifier_stats && i < OUT_NR; i++)
		if (o->out[i] && out_format_defs[i].kind == OUT_K_ROWS)
			return usage_error("--verifier-stats measures nothing to write with --%s (its "
					   "lines go to stdout)", out_format_defs[i].name);
	return 0;
}

/*
 * --folded and --flame are views of the profile: either asks for it.  A
 * sweep would write each point's files over the last one's, and
 * --verifier-stats measures nothing to profile.
 */
static int check_profile(struct run_opts *o)
{
	if (out_any(o->out, OUT_K_PROFILE))
		o->profile = true;
	if (!o->profile)
		return 0;
	if (o->sweep)
		return usage_error("--profile profiles one run: not a --sweep (profile each point "
				   "on its own)");
	if (o->verifier_stats)
		return usage_error("--verifier-stats measures nothing to --profile");
	return 0;
}

int cli_check_globals(struct run_opts *o)
{
	int ret = parse_precision(o);

	if (ret)
		return ret;
	if (o->quiet && o->verbose)
		return usage_error("-q and -v contradict each other");
	if (o->record && (!o->out[OUT_JSON] || !strcmp(o->out[OUT_JSON], "-")))
		return usage_error("--record records the result file --json FILE writes: give "
				   "--json FILE");
	if (o->db_path && !o->record)
		return usage_error("--db names the database --record records into: give --record");
	ret = check_verifier_stats(o) ?: check_profile(o);
	if (ret)
		return ret;
	ret = check_cpus(&o->prod_cpus, "prod-affinity");
	if (!ret)
		ret = check_cpus(&o->cons_cpus, "cons-affinity");
	if (!ret)
		ret = cli_check_outputs(o);
	return ret;
}

int cli_check_max_duration(const struct run_opts *o)
{
	if (o->max_duration_given && !o->precision_pct)
		return usage_error("--max-duration bounds a --precision run: give --precision PCT "
				   "too");
	return 0;
}

int cli_validate(struct run_spec *spec)
{
	const struct bench *b = spec->bench;
	struct run_opts *o = &spec->opts;
	char n[24];
	int ret;

	ret = cli_check_globals(o);
	if (!ret && !(b->flags & BENCH_F_ONESHOT))
		ret = check_periods(o);

	if (ret)
		return ret;

	if (!o->consumers_given && b->default_consumers)
		o->consumers = b->default_consumers(spec->args);
	if (o->consumers && !(b->flags & BENCH_F_CONSUMERS))
		return usage_error("benchmark %s has no consumers (-c must be 0)", b->name);
	if (o->cons_cpus.n && !(b->flags & BENCH_F_CONSUMERS))
		return usage_error("benchmark %s has no consumers (--cons-affinity)", b->name);
	if (o->producers > 1 && (b->flags & BENCH_F_ONE_PRODUCER)) {
		snprintf(n, sizeof(n), "%llu", (unsigned long long)o->producers);
		return usage_error("benchmark %s runs one producer (got -p %s)", b->name, n);
	}
	ret = check_applies(b, o);
	if (ret)
		return ret;
	if (o->test_run_repeat && o->trigger != TRIG_AUTO && o->trigger != TRIG_TEST_RUN)
		return usage_error("--test-run-repeat applies to the test-run trigger, not %s",
				   trigger_names[o->trigger]);
	return 0;
}

int cli_check_outputs(const struct run_opts *o)
{
	return out_check_stdout(o->out);
}
