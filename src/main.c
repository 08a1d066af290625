// SPDX-License-Identifier: GPL-2.0
/*
 * bpfbench: measures BPF maps and helpers on the running kernel.
 *
 *   bpfbench [options] BENCH [bench options]    one benchmark
 *   bpfbench probe [--json]                     what this kernel offers
 *   bpfbench suite NAME [options] | --list      a table of runs
 *   bpfbench compare OLD.json NEW.json          what changed, significantly
 *   bpfbench plot FILE.json -o OUT.svg          a sweep's curve
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <bpf/libbpf.h>
#include "bench.h"
#include "cli.h"
#include "compare.h"
#include "export.h"
#include "plot.h"
#include "probe.h"
#include "report.h"
#include "runner.h"
#include "suite.h"
#include "util.h"

static int libbpf_log(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (!verbose)
		return 0;
	(void)level;
	return vfprintf(stderr, fmt, ap);
}

struct subcommand {
	const char *name;
	int (*main)(int argc, char **argv);
};

static const struct subcommand subcommands[] = {
	{ "probe", probe_cmd },
	{ "suite", suite_cmd },
	{ "compare", compare_cmd },
	{ "plot", plot_cmd },
};

/* One line naming what is missing, before any benchmark tries to load. */
static int check_privileges(void)
{
	char why[160], priv[160];

	if (probe_feature(PROBE_BPF_SYSCALL, why, sizeof(why)) == 1)
		return 0;
	probe_feature(PROBE_PRIV, priv, sizeof(priv));
	errmsg("cannot use bpf(): %s; %s (run as root, or with CAP_BPF and CAP_PERFMON)",
	       why, priv);
	return 1;
}

static int run_one(const struct run_spec *spec)
{
	struct export_paths out = { spec->opts.json_path, spec->opts.csv_path, spec->opts.md_path };
	struct run_result res;
	int status;

	status = run_bench(spec, &res);
	if (status && !res.reported)
		errmsg("%s", res.error);
	else if (!status)
		status = export_run(&out, &res);
	run_result_free(&res);
	return status;
}

/* `bpfbench [options] BENCH [options]`: --list, --help, a sweep or one run. */
static int bench_main(int argc, char **argv, struct run_spec *spec)
{
	const struct bench *b = spec->bench;
	int ret;

	if (spec->opts.list) {
		cli_list();
		return 0;
	}
	if (spec->opts.help || !b) {
		if (b)
			cli_bench_help(b);
		else
			cli_usage();
		return b || spec->opts.help ? 0 : EXIT_USAGE;
	}
	ret = cli_validate(spec);
	if (!ret)
		ret = check_privileges();
	if (ret)
		return ret;
	if (spec->opts.sweep)
		return sweep_run(argc, argv, spec);
	return run_one(spec);
}

int main(int argc, char **argv)
{
	struct run_spec spec;
	size_t i;
	int ret;

	libbpf_set_print(libbpf_log);
	install_signal_handlers();
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (i = 0; argc > 1 && i < ARRAY_SIZE(subcommands); i++)
		if (!strcmp(argv[1], subcommands[i].name))
			return subcommands[i].main(argc - 1, argv + 1);
	ret = cli_parse(argc, argv, &spec);
	if (ret)
		return ret;
	ret = bench_main(argc, argv, &spec);
	run_spec_free(&spec);
	return ret;
}
