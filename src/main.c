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

static int run_one(const struct bench *b)
{
	struct export_paths out = { run_opts.json_path, run_opts.csv_path, run_opts.md_path };
	struct run_result res;
	int status;

	status = run_bench(b, &res);
	if (status && !res.reported)
		errmsg("%s", res.error);
	else if (!status)
		status = export_run(&out, &res);
	run_result_free(&res);
	return status;
}

int main(int argc, char **argv)
{
	const struct bench *b;
	size_t i;
	int ret;

	libbpf_set_print(libbpf_log);
	install_signal_handlers();
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (i = 0; argc > 1 && i < ARRAY_SIZE(subcommands); i++)
		if (!strcmp(argv[1], subcommands[i].name))
			return subcommands[i].main(argc - 1, argv + 1);
	ret = cli_parse(argc, argv, &b);
	if (ret)
		return ret;
	if (run_opts.list) {
		cli_list();
		return 0;
	}
	if (run_opts.help || !b) {
		if (b)
			cli_bench_help(b);
		else
			cli_usage();
		return b || run_opts.help ? 0 : EXIT_USAGE;
	}
	ret = cli_validate(b);
	if (!ret)
		ret = output_paths_check((const char *[]){ run_opts.json_path, run_opts.csv_path,
							   run_opts.md_path }, 3);
	if (!ret)
		ret = check_privileges();
	if (ret)
		return ret;
	if (run_opts.sweep)
		return sweep_run(argc, argv, b);
	return run_one(b);
}
