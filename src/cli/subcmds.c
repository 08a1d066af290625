// SPDX-License-Identifier: GPL-2.0
/*
 * The subcommands' table.  Those that print the table's own documents
 * (completion, the man page, usage.md) are given it: they are entries
 * of it too.
 */
#include "ab.h"
#include "bisect_help.h"
#include "compare.h"
#include "cmp_cli.h"
#include "complete.h"
#include "db_cli.h"
#include "host_cmd.h"
#include "mangen.h"
#include "plot.h"
#include "probe_cmd.h"
#include "profile_cmd.h"
#include "subcmds.h"
#include "suite.h"
#include "usagegen.h"
#include "vm.h"

static int completion_cmd(int argc, char **argv)
{
	return complete_cmd(argc, argv, subcommands);
}

static int gen_man_cmd(int argc, char **argv)
{
	return mangen_cmd(argc, argv, subcommands);
}

static int gen_usage_cmd(int argc, char **argv)
{
	return usagegen_cmd(argc, argv, subcommands);
}

const struct subcommand subcommands[] = {
	{ "probe", "what this kernel lets bpfbench use", probe_cmd,
	  "probe [--json]", { probe_opts }, SUBCMD_VM_ANNOUNCED },
	{ "suite", "run a suite of benchmarks, one table row per step", suite_cmd,
	  "suite NAME [options] | suite --list", { suite_opts }, SUBCMD_VM_SUITE, NULL,
	  { SUBCMD_POS_SUITE }, true },
	{ "compare", "what changed between two result files, significantly", compare_cmd,
	  "compare OLD.json NEW.json [options]", { compare_opts, cmp_verdict_opts },
	  SUBCMD_VM_VERDICTS, NULL, { SUBCMD_POS_FILE, SUBCMD_POS_FILE } },
	{ "ab", "two command lines (or two kernels) run alternately, then compare's verdict", ab_cmd,
	  "ab \"ARGS A\" \"ARGS B\" [-r N] [options] | ab --kernel A --kernel B \"ARGS\" [options]",
	  { ab_opts, cmp_verdict_opts }, SUBCMD_VM_NO,
	  "ab compares kernels as 'ab --kernel A --kernel B \"ARGS\"'" },
	{ "bisect", "the kernel commit between two that moved a benchmark's figure", bisect_cmd,
	  "bisect --good REV --bad REV [options] -- BENCH [ARGS...]", { bisect_opts }, SUBCMD_VM_NO,
	  "bisect boots every commit it builds in a VM of its own" },
	{ "plot", "draw a metric against an option with gnuplot", plot_cmd,
	  "plot FILE.json -o OUT.svg|OUT.png [options]", { plot_opts }, SUBCMD_VM_NO,
	  "plot the result file the VM's run gave back", { SUBCMD_POS_FILE } },
	{ "db", "a history of results: record, show, changes, plot, export", db_cmd,
	  "db record|show|changes|plot|export [options] [FILE.json...|BENCH]", { db_opts },
	  SUBCMD_VM_NO, "a run's --record records the result the VM gave back, here",
	  { SUBCMD_POS_DB_ACTION, SUBCMD_POS_FILE } },
	{ "profile", "where a command's time goes: its stacks, sampled", profile_cmd,
	  "profile [options] -- CMD [ARGS...] | profile --diff A.folded B.folded", { profile_opts },
	  SUBCMD_VM_NO, "a run's --profile samples it there (its --folded and --flame files "
	  "come back)" },
	{ "host", "the host's state that moves figures: show, tune, reset", host_cmd,
	  "host show [--json] [--quick] | host tune | host reset", { host_opts }, SUBCMD_VM_NO,
	  "'--kernel K probe' tells what the VM's kernel offers" },
	{ "completion", "print a bash or zsh completion script", completion_cmd,
	  "completion bash|zsh", { completion_opts }, SUBCMD_VM_STDOUT, NULL,
	  { SUBCMD_POS_SHELL } },
	{ "gen-man", "the man page from its template", gen_man_cmd,
	  "gen-man TEMPLATE.scd.in", { NULL }, SUBCMD_VM_STDOUT, .hidden = true },
	{ "gen-usage", "doc/usage.md from its template", gen_usage_cmd,
	  "gen-usage TEMPLATE.md.in", { NULL }, SUBCMD_VM_STDOUT, .hidden = true },
	{ NULL },
};
