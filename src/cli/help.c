// SPDX-License-Identifier: GPL-2.0
/* --help, --list and a benchmark's --help. */
#include <stdio.h>
#include "bench.h"
#include "help.h"

void cli_usage(void)
{
	/* every subcommand of main()'s table (tests/cli.t holds them to it) */
	printf("Usage: bpfbench [options] BENCH [bench options]\n"
	       "       bpfbench --list | --version | BENCH --help\n"
	       "       bpfbench probe [--json]\n"
	       "       bpfbench suite NAME [options] | suite --list\n"
	       "       bpfbench compare OLD.json NEW.json [options]\n"
	       "       bpfbench ab \"ARGS A\" \"ARGS B\" [-r N] [options]\n"
	       "       bpfbench --kernel K BENCH|suite|probe ... (in a VM on kernel K; --kernel anywhere)\n"
	       "       bpfbench ab --kernel A --kernel B \"ARGS\" [options] (one line, two kernels)\n"
	       "       bpfbench bisect --good REV --bad REV [options] -- BENCH [ARGS...]\n"
	       "                      (the kernel commit that moved a figure)\n"
	       "       bpfbench plot FILE.json -o OUT.svg|OUT.png [options]\n"
	       "       bpfbench db record|show|changes|export ... (a history of results)\n"
	       "       bpfbench profile [options] -- CMD [ARGS...] | profile --diff A B\n"
	       "       bpfbench host show [--json] [--quick] | host tune | host reset (the host's state)\n"
	       "       bpfbench completion bash|zsh\n"
	       "       (SUBCOMMAND --help gives its options)\n\n"
	       "Measures BPF maps and helpers on the running kernel.\n"
	       "--kernel K runs in a QEMU VM on kernel K instead; a Debian kernel is downloaded\n"
	       "once into $BPFBENCH_VM_CACHE (default $XDG_CACHE_HOME/bpfbench-vm, else\n"
	       "~/.cache/bpfbench-vm).\n"
	       "Exit status: 0 ok, 1 runtime failure, 2 bad usage, 4 kernel lacks a feature (skip),\n"
	       "5 a gate (compare, ab, db changes) found no regression but could not judge it all.\n\n");
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
