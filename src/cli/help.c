// SPDX-License-Identifier: GPL-2.0
/* --help, --list and a benchmark's --help. */
#include <stdio.h>
#include "bench.h"
#include "help.h"
#include "subcmds.h"

void cli_usage(void)
{
	const struct subcommand *s;

	printf("Usage: bpfbench [options] BENCH [bench options]\n"
	       "       bpfbench --list | --version | BENCH --help\n"
	       "       bpfbench --kernel K BENCH|suite|probe ... (in a VM on kernel K; --kernel anywhere)\n");
	for (s = subcommands; s->name; s++)
		if (!s->hidden)
			printf("       bpfbench %s\n", s->usage);
	printf("\nSubcommands (SUBCOMMAND --help gives its options):\n");
	for (s = subcommands; s->name; s++)
		if (!s->hidden)
			printf("  %-12s %s\n", s->name, s->summary);
	printf("\nMeasures BPF maps and helpers on the running kernel.\n"
	       "--kernel K runs in a QEMU VM on kernel K instead (a name as 7.3, 6.12, 6.1, a Debian\n"
	       "package, a vmlinuz or a built kernel tree); a Debian kernel is downloaded once into\n"
	       "$BPFBENCH_VM_CACHE (default $XDG_CACHE_HOME/bpfbench-vm, else ~/.cache/bpfbench-vm)\n"
	       "through $BPFBENCH_VM_MIRROR, else the Debian mirror this machine's apt sources name.\n"
	       "Exit status: 0 ok, 1 runtime failure, 2 bad usage, 4 kernel lacks a feature (skip),\n"
	       "5 a gate (compare, ab, db changes) found no regression but could not judge it all.\n"
	       "Troubleshooting, by the message you see: doc/troubleshooting.md.\n\n");
	opts_print_help(global_opts, "Options:");
}

void cli_list(void)
{
	const struct bench *const *b;

	for (b = bench_all(); *b; b++)
		printf("%-24s %-10s %s\n", (*b)->name, (*b)->family, (*b)->summary);
}

/* A family's folder is its name with '-' written '_' (tests/registry.t holds it). */
void cli_list_families(void)
{
	const struct family *const *f;
	const struct bench *const *b;
	char folder[64];
	size_t i;

	for (f = family_table; *f; f++) {
		snprintf(folder, sizeof(folder), "%s", (*f)->name);
		for (i = 0; folder[i]; i++)
			if (folder[i] == '-')
				folder[i] = '_';
		for (i = 0, b = (*f)->benchs; *b; b++)
			i++;
		printf("%-12s benchs/%-12s %3zu  %s\n", (*f)->name, folder, i, (*f)->summary);
	}
}

void cli_bench_help(const struct bench *b)
{
	printf("Usage: bpfbench [options] %s%s\n\n%s\n\n", b->name,
	       b->opts && b->opts->name ? " [bench options]" : "", b->summary);
	if (b->opts && b->opts->name)
		opts_print_help(b->opts, "Benchmark options:");
	else
		printf("This benchmark has no options of its own.\n");
	if (b->flags & BENCH_F_SELF_DRIVEN)
		printf("\nIt drives its own programs: the core's --trigger (how other benchmarks run\n"
		       "theirs) does not apply; --kernel-stats reads the program it measures.\n");
	printf("\nGlobal options: see 'bpfbench --help'.\n");
}
