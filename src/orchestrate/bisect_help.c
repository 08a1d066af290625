// SPDX-License-Identifier: GPL-2.0
/* `bpfbench bisect --help` and the table of its options (scripts/vm/bisect.sh parses them). */
#include <stdio.h>
#include "bisect_help.h"

const struct opt_def bisect_opts[] = {
	{ "good", 0, OPT_STRING, 0, NULL, 0, 0, NULL, "REV",
	  "the good end: a commit of the tree, an ancestor of bad" },
	{ "bad", 0, OPT_STRING, 0, NULL, 0, 0, NULL, "REV", "the bad end: a commit after good" },
	{ "tree", 0, OPT_STRING, 0, NULL, 0, 0, NULL, "DIR",
	  "the kernel's git work tree (default: here); it must be clean, and is only read: the "
	  "commits are built in a clone of it (git bisect runs there, your own is untouched)",
	  OPT_F_PATH },
	{ "work", 0, OPT_STRING, 0, NULL, 0, 0, NULL, "DIR",
	  "the clone (src/), the O= build directory (build/, kept: builds are incremental), each "
	  "commit's image (images/), the log and the report (default: "
	  "$XDG_CACHE_HOME/bpfbench/bisect/NAME-HASH, else ~/.cache/...): a new or empty "
	  "directory, marked bisect's (.bpfbench-bisect); one holding other files, / or a home is "
	  "refused", OPT_F_PATH },
	{ "build", 0, OPT_STRING, 0, NULL, 0, 0, NULL, "CMD",
	  "how a commit is built, by sh -c in src/ with BPFBENCH_SRC and BPFBENCH_BUILD set; the "
	  "image it leaves at $BPFBENCH_BUILD/arch/x86/boot/bzImage (default: make olddefconfig "
	  "and bzImage, O=build/, -j$(nproc), niced)" },
	{ "config", 0, OPT_STRING, 0, NULL, 0, 0, NULL, "FILE",
	  "the default build's first .config (else x86_64_defconfig + kvm_guest.config); the "
	  "runner's fragment, scripts/vm/bpfbench.config, is merged in" },
	{ "pairs", 0, OPT_UINT, 0, "3", 2, 100, NULL, "N",
	  "pairs of runs first, then one more at a time" },
	{ "max-pairs", 0, OPT_UINT, 0, "8", 2, 100, NULL, "M",
	  "pairs at most, for good against bad and for each commit" },
	{ "threshold", 0, OPT_STRING, 0, "50", 0, 0, NULL, "PCT",
	  "a commit is bad when its 95% CI against good lies wholly past PCT% of the change "
	  "good->bad, good when wholly short of it, else skipped at M pairs" },
	{ "metric", 0, OPT_STRING, 0, NULL, 0, 0, NULL, "NAME",
	  "the metric (default: the benchmark's first)" },
	{ "seed", 0, OPT_STRING, 0, NULL, 0, 0, NULL, "S", "the seed of each pair's order" },
	{ "json", 0, OPT_STRING, 0, NULL, 0, 0, NULL, "FILE",
	  "also the report as JSON (a new file; doc/json.md)" },
	{ "record", 0, OPT_FLAG, 0, NULL, 0, 0, NULL, NULL,
	  "record the first bad commit's and its parent's results into the history (bpfbench db); "
	  "its database is opened before the first build" },
	{ "db", 0, OPT_STRING, 0, NULL, 0, 0, NULL, "DB",
	  "--record's database (default: $BPFBENCH_DB, else the user's SQLite file)" },
	{ "quiet", 'q', OPT_FLAG, 0, NULL, 0, 0, NULL, NULL, "the answer line alone" },
	{ "verbose", 'v', OPT_FLAG, 0, NULL, 0, 0, NULL, NULL, "a progress line per pair too" },
	{ "help", 'h', OPT_FLAG, 0, NULL, 0, 0, NULL, NULL, "this help" },
	{ NULL },
};

void bisect_help(void)
{
	printf("Usage: bpfbench bisect --good REV --bad REV [--tree DIR] [--work DIR] [--build CMD]\n"
	       "                       [--config FILE] [--pairs N] [--max-pairs M] [--threshold PCT]\n"
	       "                       [--metric NAME] [--seed S] [--json FILE] [--record [--db DB]]\n"
	       "                       [-q|-v] -- BENCH [ARGS...]      (or \"BENCH ARGS\" as one word)\n\n"
	       "Finds the kernel commit between --good and --bad that moved BENCH's figure, as\n"
	       "git bisect does: every commit it tries is built and booted in a fresh VM per run\n"
	       "(as 'ab --kernel'), measured in pairs against good, and called good or bad.\n\n"
	       "Options:\n");
	opts_print_help(bisect_opts, NULL);
	printf("\nGood and bad are measured first, until compare calls bad/good a change (slower\n"
	       "or faster) beyond its noise band: else there is nothing to bisect (exit 1). A\n"
	       "commit whose build fails is skipped. The commit the steps end on is named only\n"
	       "if its 95%% CI against its parent excludes no change. The report (stdout,\n"
	       "for a mail): the first bad commit, its figures and its parent's with their 95%%\n"
	       "intervals, the change as 'commit X: BENCH METRIC -47.3%% [-52.1, -41.9]', each\n"
	       "step, the time, the conditions (KVM or TCG, the .config, bpfbench's version).\n"
	       "Exit status: 0 the first bad commit found, 1 an error (a build of good or bad, a\n"
	       "run) or nothing to bisect, 2 bad usage or a tree refused (not a kernel's git\n"
	       "tree, not clean, good not an ancestor of bad), a work directory refused (one\n"
	       "holding files bisect did not make, / or a home), an output or --record's\n"
	       "database refused (checked before the first build), 3 the bisection ended among\n"
	       "skipped commits or on one unconfirmed (the candidates listed), 125 the work directory or the VM\n"
	       "runner failed, 128+N a signal N (the builds and runs under way stopped).\n");
}
