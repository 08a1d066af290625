// SPDX-License-Identifier: GPL-2.0
/*
 * `bpfbench host`: what pyperf's `system` does, for a BPF benchmark on a
 * machine that may be a shared VM.  show reads the host's state and
 * measures what no file says (each CPU's speed now, the spread of a
 * short noop run); tune turns what root may turn safely, reset turns it
 * back.  Each fact comes with what it is worth to a figure.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "args.h"
#include "host.h"
#include "host_cmd.h"
#include "jsonw.h"
#include "result.h"
#include "runner.h"
#include "speedref.h"
#include "stats.h"
#include "util.h"

#define SPEED_ROUNDS	15	/* per CPU, alternating: a phase of the host meets every CPU */

struct host_show {
	struct host_facts f;
	double user_ns[HOST_MAX_CPUS], bpf_ns[HOST_MAX_CPUS];	/* median per CPU; NAN: none */
	double user_cv[HOST_MAX_CPUS], bpf_cv[HOST_MAX_CPUS];	/* spread of the rounds, % */
	double noop_sd_pct;		/* sd of 5 noop runs' means, %; NAN: not run */
	double noop_mean;
	bool json, quick;
};

const struct opt_def host_opts[] = {
	{ "json", 0, OPT_FLAG, 0, NULL, 0, 0, NULL, NULL, "show: a JSON object instead" },
	{ "quick", 0, OPT_FLAG, 0, NULL, 0, 0, NULL, NULL, "show: without the measurements" },
	{ "help", 'h', OPT_FLAG, 0, NULL, 0, 0, NULL, NULL, "this help" },
	{ NULL },
};

static void usage(void)
{
	printf("Usage: bpfbench host show [--json] [--quick] | host tune | host reset\n\n"
	       "  show    the host's state that moves a figure, and what each is worth: a VM or\n"
	       "          not, cpufreq governor and boost, SMT, isolcpus/nohz_full, interrupts and\n"
	       "          steal per CPU over a second, CPU pressure, transparent hugepages; then\n"
	       "          measured: each CPU's speed now (a user-space loop and an empty BPF\n"
	       "          program, %d rounds alternating), and the spread of 5 short noop runs\n"
	       "  tune    (root) governors to performance, boost off, where this host has them;\n"
	       "          the old values are kept in %s ($BPFBENCH_HOST_STATE)\n"
	       "  reset   (root) writes back what tune changed: only its knobs, from a state\n"
	       "          file that is no link, ours, writable by nobody else; exit 1 naming\n"
	       "          each value not written back (the state kept)\n\n"
	       "In a VM, what the host does with the vCPUs (their speed, steal, the host's SMT)\n"
	       "cannot be changed from inside: show measures it, tune says so.\n\n"
	       "Options:\n", SPEED_ROUNDS, host_state_path());
	opts_print_help(host_opts, NULL);
}

static void median_cv(const double *v, int n, double *med, double *cv)
{
	struct stats st;

	stats_compute(v, n, &st);
	*cv = st.mean ? st.stddev / st.mean * 100 : NAN;
	*med = st.median;
}

/* Each CPU's speed now: rounds alternate between CPUs, so that a phase of the host meets all. */
static void measure_speed(struct host_show *s)
{
	int n = s->f.nr_cpus, cpu, r, ok[HOST_MAX_CPUS] = { 0 };
	double (*u)[SPEED_ROUNDS] = xcalloc((size_t)n, sizeof(*u));
	double (*b)[SPEED_ROUNDS] = xcalloc((size_t)n, sizeof(*b));
	struct speed_ref ref;

	speedref_open(&ref);
	for (r = 0; r < SPEED_ROUNDS && !interrupted(); r++)
		for (cpu = 0; cpu < n; cpu++)
			if (!speedref_on_cpu(&ref, s->f.cpus[cpu].cpu, &u[cpu][ok[cpu]],
					     &b[cpu][ok[cpu]]))
				ok[cpu]++;
	for (cpu = 0; cpu < n; cpu++) {
		s->user_ns[cpu] = s->bpf_ns[cpu] = s->user_cv[cpu] = s->bpf_cv[cpu] = NAN;
		if (!ok[cpu])
			continue;
		median_cv(u[cpu], ok[cpu], &s->user_ns[cpu], &s->user_cv[cpu]);
		if (ref.prog_fd >= 0)
			median_cv(b[cpu], ok[cpu], &s->bpf_ns[cpu], &s->bpf_cv[cpu]);
	}
	speedref_close(&ref);
	free(u);
	free(b);
}

/* Five short noop runs: how far one run's mean strays here now. */
static void measure_noop(struct host_show *s)
{
	char *argv[] = { "host", "noop", "-q", "-w0", "-d0.5", "--period-ms", "100", "-r", "5", NULL };
	struct run_spec spec;
	struct run_result res;
	struct run_spread sp;

	s->noop_sd_pct = s->noop_mean = NAN;
	if (cli_parse(9, argv, &spec))
		return;
	if (!spec.bench) {
		run_spec_free(&spec);
		return;
	}
	spec.opts.batch = true;
	if (!run_bench(&spec, NULL, &res) && res.nr_repeats > 1) {
		run_spread(&res, 0, &sp);
		s->noop_mean = sp.between_mean;
		s->noop_sd_pct = sp.between_mean ? sp.between_stddev / sp.between_mean * 100 : NAN;
	}
	run_result_free(&res);
	run_spec_free(&spec);
}

static double speed_ratio(const double *v, int n)
{
	double lo = INFINITY, hi = 0;
	int i;

	for (i = 0; i < n; i++) {
		if (isnan(v[i]))
			continue;
		lo = fmin(lo, v[i]);
		hi = fmax(hi, v[i]);
	}
	return hi > 0 && lo < INFINITY ? hi / lo : NAN;
}

static const char *or_none(const char *s)
{
	return *s ? s : "none";
}

static void print_facts(const struct host_show *s)
{
	const struct host_facts *f = &s->f;
	int i;

	printf("%-16s %s%s\n", "machine", f->hypervisor ? "a VM (the CPU reports a hypervisor)" :
	       "bare metal (no hypervisor flag)", f->model[0] ? "" : "");
	printf("%-16s %s, %d CPUs\n", "cpu", or_none(f->model), f->nr_cpus);
	printf("%-16s %s\n", "governor", f->cpus[0].governor[0] ? f->cpus[0].governor :
	       "none: no cpufreq (the host sets the speed)");
	printf("%-16s %s\n", "boost", or_none(f->boost));
	printf("%-16s %s\n", "smt", or_none(f->smt));
	printf("%-16s %s\n", "isolcpus", or_none(f->isolated));
	printf("%-16s %s\n", "nohz_full", or_none(f->nohz_full));
	printf("%-16s %s\n", "hugepages", or_none(f->thp));
	if (f->pressure_avg10 >= 0)
		printf("%-16s %.1f%% (avg10), load %.2f\n", "cpu pressure", f->pressure_avg10,
		       f->loadavg1);
	for (i = 0; i < f->nr_cpus; i++)
		printf("cpu%-13d %.0f interrupts/s, steal %.1f%% (over %.1f s)\n", f->cpus[i].cpu,
		       f->cpus[i].irqs_per_s, f->cpus[i].steal_pct, f->window_s);
}

static void print_measured(const struct host_show *s)
{
	int i, n = s->f.nr_cpus;

	for (i = 0; i < n && !s->quick; i++)
		printf("speed cpu%-7d user loop %.1f us (cv %.1f%%), empty BPF program %.1f us "
		       "(cv %.1f%%)\n", s->f.cpus[i].cpu, s->user_ns[i] / 1e3, s->user_cv[i],
		       s->bpf_ns[i] / 1e3, s->bpf_cv[i]);
	if (!s->quick && n > 1)
		printf("%-16s slowest/fastest CPU: user %.2fx, BPF %.2fx\n", "between CPUs",
		       speed_ratio(s->user_ns, n), speed_ratio(s->bpf_ns, n));
	if (!s->quick)
		printf("%-16s sd of 5 noop runs' means %.1f%% (mean %.2f M ops/s)\n", "noop spread",
		       s->noop_sd_pct, s->noop_mean);
}

static void print_worth(const struct host_show *s)
{
	const struct host_facts *f = &s->f;

	printf("\nWhat each is worth:\n");
	if (!f->cpus[0].governor[0])
		printf("- no cpufreq: nothing to set here; the speed is the host's to give.\n");
	else if (strcmp(f->cpus[0].governor, "performance"))
		printf("- governor %s: the first samples run slower while the clock rises: "
		       "host tune, or a longer -w.\n", f->cpus[0].governor);
	if (!strcmp(f->boost, "on"))
		printf("- boost on: the clock follows temperature and the other cores' load: "
		       "host tune turns it off.\n");
	if (!strcmp(f->smt, "on"))
		printf("- SMT on: a sibling's work slows a benchmark thread; pin to one thread "
		       "per core.\n");
	if (!f->isolated[0])
		printf("- no isolated CPUs: other tasks and interrupts share the benchmark's CPUs.\n");
	if (f->hypervisor)
		printf("- a VM: its vCPUs' speed, steal and the host's SMT are the host's; "
		       "--normalize and --speed-ref read them per sample, compare with ab "
		       "(pairs close in time).\n");
	if (!s->quick && f->nr_cpus > 1 && speed_ratio(s->bpf_ns, f->nr_cpus) > 1.1)
		printf("- the CPUs run at unequal speeds now (%.2fx): pin A and B alike "
		       "(--prod-affinity), or let ab alternate them.\n",
		       speed_ratio(s->bpf_ns, f->nr_cpus));
}

static void json_show(const struct host_show *s)
{
	const struct host_facts *f = &s->f;
	struct jsonw w;
	int i;

	jsonw_init(&w, stdout, true);
	jsonw_obj_open(&w);
	jsonw_kbool(&w, "hypervisor", f->hypervisor);
	jsonw_kstr(&w, "cpu_model", f->model);
	jsonw_ki64(&w, "nr_cpus", f->nr_cpus);
	jsonw_kstr(&w, "smt", f->smt);
	jsonw_kstr(&w, "boost", f->boost);
	jsonw_kstr(&w, "isolcpus", f->isolated);
	jsonw_kstr(&w, "nohz_full", f->nohz_full);
	jsonw_kstr(&w, "transparent_hugepage", f->thp);
	jsonw_kdouble(&w, "cpu_pressure_avg10", f->pressure_avg10 >= 0 ? f->pressure_avg10 : NAN);
	jsonw_kdouble(&w, "loadavg1", f->loadavg1);
	jsonw_key(&w, "cpus");
	jsonw_arr_open(&w);
	for (i = 0; i < f->nr_cpus; i++) {
		jsonw_obj_open(&w);
		jsonw_ki64(&w, "cpu", f->cpus[i].cpu);
		jsonw_kstr(&w, "governor", f->cpus[i].governor);
		jsonw_kdouble(&w, "irqs_per_s", f->cpus[i].irqs_per_s);
		jsonw_kdouble(&w, "steal_pct", f->cpus[i].steal_pct);
		jsonw_kdouble(&w, "ref_user_ns", s->quick ? NAN : s->user_ns[i]);
		jsonw_kdouble(&w, "ref_bpf_ns", s->quick ? NAN : s->bpf_ns[i]);
		jsonw_obj_close(&w);
	}
	jsonw_arr_close(&w);
	jsonw_kdouble(&w, "noop_sd_pct", s->quick ? NAN : s->noop_sd_pct);
	jsonw_obj_close(&w);
	putchar('\n');
}

static int show(int argc, char **argv)
{
	struct host_show *s = xcalloc(1, sizeof(*s));
	int i, err;

	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "--json")) {
			s->json = true;
		} else if (!strcmp(argv[i], "--quick")) {
			s->quick = true;
		} else {
			free(s);
			return usage_error("host show: unknown option '%s' (see 'bpfbench host --help')",
					   argv[i]);
		}
	}
	err = host_read(&s->f, s->quick ? 0.2 : 1.0);
	if (err) {
		errmsg("host show: cannot read the CPUs (/sys/devices/system/cpu): %s", strerror(-err));
		free(s);
		return 1;
	}
	if (!s->quick) {
		measure_speed(s);
		measure_noop(s);
	}
	if (s->json) {
		json_show(s);
	} else {
		print_facts(s);
		print_measured(s);
		print_worth(s);
	}
	free(s);
	return interrupted() ? 128 + interrupted_signal() : 0;
}

static int tune(void)
{
	struct host_knob k[HOST_MAX_CPUS + 2];
	int n = host_tune_plan(k, HOST_MAX_CPUS + 2), changed, err, i;
	struct host_facts f;

	if (!n) {
		host_read(&f, 0);
		printf("host tune: nothing to change here%s\n", f.hypervisor ?
		       " (a VM without cpufreq: the vCPUs' speed, steal and the host's SMT are the "
		       "host's, not this guest's)" : " (governors at performance, no boost knob on)");
		return 0;
	}
	err = host_tune(k, n, &changed);
	for (i = 0; i < changed; i++)
		printf("host tune: %s = %s\n", k[i].path, k[i].value);
	if (err && host_state_refused()) {
		errmsg("host tune: %s: %s (nothing changed)", host_state_path(), host_state_refused());
		return 1;
	}
	if (err) {
		errmsg("host tune: %s: %s (changed %d of %d; 'bpfbench host reset' undoes them)",
		       changed < n ? k[changed].path : host_state_path(), strerror(-err), changed, n);
		return 1;
	}
	printf("host tune: %d change%s, kept in %s for 'bpfbench host reset'\n", changed,
	       changed == 1 ? "" : "s", host_state_path());
	return 0;
}

static void reset_failed(const char *path, const char *why, void *arg)
{
	(void)arg;
	errmsg("host reset: %s: %s", path, why);
}

/* "nothing to reset" only where there is no state: a write-back that failed is exit 1 */
static int reset(void)
{
	int restored, err = host_reset(&restored, reset_failed, NULL);

	if (err == -ENOENT) {
		printf("host reset: nothing to reset (no %s)\n", host_state_path());
		return 0;
	}
	if (err < 0)
		return 1;	/* the state file unread or refused: said */
	if (err) {
		errmsg("host reset: %d of %d value%s written back; the state stays in %s", restored,
		       restored + err, restored + err == 1 ? "" : "s", host_state_path());
		return 1;
	}
	printf("host reset: %d value%s written back\n", restored, restored == 1 ? "" : "s");
	return 0;
}

int host_cmd(int argc, char **argv)
{
	if (argc < 2)
		return usage_error("host: name an action: show, tune or reset (see 'bpfbench host --help')");
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage();
		return 0;
	}
	if (!strcmp(argv[1], "show"))
		return show(argc - 2, argv + 2);
	if (argc > 2)
		return usage_error("host %s takes no options (see 'bpfbench host --help')", argv[1]);
	if (!strcmp(argv[1], "tune"))
		return tune();
	if (!strcmp(argv[1], "reset"))
		return reset();
	return usage_error("host: unknown action '%s' (show, tune or reset)", argv[1]);
}
