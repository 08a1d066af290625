// SPDX-License-Identifier: GPL-2.0
/*
 * bpfbench: measures BPF maps and helpers on the running kernel.
 *
 *   bpfbench [options] BENCH [bench options]    one benchmark
 *   bpfbench probe [--json]                     what this kernel offers
 *   bpfbench suite NAME [options] | --list      a table of runs
 *   bpfbench compare OLD.json NEW.json          what changed, significantly
 *   bpfbench plot FILE.json -o OUT.svg          a sweep's curve
 *   bpfbench bisect --good A --bad B -- BENCH   the kernel commit that moved a figure
 *   bpfbench db record|show|changes|export      a history of results
 *   bpfbench profile -- CMD | --diff A B        where a command's time goes
 *   bpfbench completion bash|zsh                a shell completion script
 *   bpfbench --version | -V
 *
 * The subcommands are src/cli/subcmds.c's table.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <bpf/libbpf.h>
#include "bench.h"
#include "args.h"
#include "deliver.h"
#include "export.h"
#include "help.h"
#include "history.h"
#include "probe.h"
#include "report.h"
#include "runner.h"
#include "subcmds.h"
#include "suite.h"
#include "sysenv.h"
#include "outfile.h"
#include "util.h"
#include "vm.h"

/* Before cli_parse: the version needs no benchmark and no BPF. */
static int print_version(int argc, char **argv)
{
	if (argc > 2) {
		errmsg("%s takes no arguments (got '%s')", argv[1], argv[2]);
		return EXIT_USAGE;
	}
	printf("bpfbench %s (git %s, libbpf %u.%u)\n", BPFBENCH_VERSION, BPFBENCH_GIT,
	       libbpf_major_version(), libbpf_minor_version());
	return 0;
}

static int libbpf_log(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	va_list cp;
	int n;

	if (level == LIBBPF_WARN) {	/* kept for a failure's one line (runner.c) */
		va_copy(cp, ap);
		libbpf_warning_note(fmt, cp);
		va_end(cp);
	}
	if (!verbose)
		return 0;
	progress_line_hide();
	n = vfprintf(stderr, fmt, ap);
	/* a message in parts: the line comes back once the last part ends it */
	if (*fmt && fmt[strlen(fmt) - 1] == '\n')
		progress_line_redraw();
	return n;
}

/* One run, then its result down the one road: human lines, exports. */
static int run_one(const struct run_spec *spec)
{
	struct run_result res;
	int status;

	status = run_bench(spec, report_observer(&spec->opts), &res);
	status = deliver_run(&res, status);
	run_result_free(&res);
	return status;
}

/* `bpfbench [options] BENCH [options]`: --list, --help, a sweep or one run. */
static int bench_main(int argc, char **argv, struct run_spec *spec)
{
	const struct bench *b = spec->bench;
	int ret;

	if (spec->opts.list || spec->opts.list_families) {
		if (spec->opts.list)
			cli_list();
		else
			cli_list_families();
		return 0;
	}
	if (!b && !spec->opts.help) {
		if (argc < 2)
			cli_usage();
		errmsg("no benchmark named (see 'bpfbench --list' and 'bpfbench --help')");
		return EXIT_USAGE;
	}
	if (spec->opts.help) {
		if (b)
			cli_bench_help(b);
		else
			cli_usage();
		return 0;
	}
	ret = cli_validate(spec) ?: cli_check_max_duration(&spec->opts);
	if (!ret)
		ret = output_paths_check(spec->opts.out, OUT_NR);
	if (!ret && spec->opts.record)
		ret = history_spare_db(spec->opts.db_path, spec->opts.out, OUT_NR);
	if (!ret && !(b->flags & BENCH_F_NO_BPF))
		ret = run_check_privileges();
	if (ret)
		return ret;
	ret = spec->opts.sweep ? sweep_run(argc, argv, spec) : run_one(spec);
	if (!ret && spec->opts.record)
		ret = history_record_written(spec->opts.out[OUT_JSON], spec->opts.db_path);
	return ret;
}

/*
 * `bpfbench -w0 -d1 suite NAME`: options before a subcommand go after its
 * own first words, where the subcommand takes its options.
 */
static int run_subcommand(const struct subcommand *sub, int argc, char **argv, int at)
{
	char **args = xcalloc(argc + 1, sizeof(char *));
	int n = 0, i, ret;

	for (i = at; i < argc; i++)
		args[n++] = argv[i];
	for (i = 1; i < at; i++)
		if (strcmp(argv[i], "--"))
			args[n++] = argv[i];
	ret = sub->main(n, args);
	free(args);
	return ret;
}

int main(int argc, char **argv)
{
	const struct subcommand *sub;
	struct run_spec spec;
	int ret, at;

	sysenv_capture();
	libbpf_set_print(libbpf_log);
	install_signal_handlers();
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc > 1 && (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")))
		return print_version(argc, argv);
	if (vm_wanted(argc, argv, false))
		return vm_exec(argc, argv, false, subcommands);
	if (vm_wanted(argc, argv, true))
		return vm_exec(argc, argv, true, subcommands);
	at = cli_first_word(argc, argv);
	sub = at > 0 ? subcmd_find(subcommands, argv[at]) : NULL;
	if (sub)
		return run_subcommand(sub, argc, argv, at);
	ret = cli_parse(argc, argv, &spec);
	if (ret)
		return ret;
	verbose = spec.opts.verbose;
	ret = bench_main(argc, argv, &spec);
	run_spec_free(&spec);
	return ret;
}
