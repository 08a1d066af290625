// SPDX-License-Identifier: GPL-2.0
/* ab's --help and the table of its own options (ab.c parses them; completion and the docs read them). */
#include <stdio.h>
#include "ab.h"
#include "cmp_cli.h"

const struct opt_def ab_opts[] = {
	{ "runs", 'r', OPT_UINT, 0, OPT_STR(AB_DEFAULT_PAIRS), 1, AB_MAX_PAIRS, NULL, "N",
	  "pairs of runs, each pair in an order drawn at random" },
	{ "seed", 0, OPT_UINT, 0, NULL, 0, UINT32_MAX, NULL, "S",
	  "the seed of each pair's order (default: drawn, and printed)" },
	{ "precision", 0, OPT_STRING, 0, NULL, 0, 0, NULL, "PCT",
	  "a first stage of -r pairs (default 5), then as many more (at least 3) as its spread says "
	  "the 95% CI of B/A in the first metric needs to be within +-PCT%, decided once" },
	{ "max-duration", 0, OPT_STRING, 0, OPT_STR(AB_MAX_DURATION), 0, 0, NULL, "SEC",
	  "--precision's time bound, seconds" },
	{ "name", 0, OPT_STRING, 0, NULL, 0, 0, NULL, "NAME",
	  "the name of A, given again the name of B (default A and B)" },
	{ "names", 0, OPT_STRING, 0, NULL, 0, 0, NULL, "A,B",
	  "both names at once, as compare's" },
	{ "json", 0, OPT_STRING, 0, NULL, 0, 0, NULL, "FILE",
	  "both sides as one result file, each run labelled with its side's name" },
	{ "record", 0, OPT_FLAG, 0, NULL, 0, 0, NULL, NULL,
	  "then record the --json FILE into the history (bpfbench db; --db, $BPFBENCH_DB or the "
	  "default), whatever the verdict" },
	{ "db", 0, OPT_STRING, 0, NULL, 0, 0, NULL, "PATH|URI",
	  "the database --record records into: a SQLite file or postgresql://...", OPT_F_PATH },
	{ "no-pin", 0, OPT_FLAG, 0, NULL, 0, 0, NULL, NULL,
	  "leave the threads unpinned (default: both runs of a pair on the same CPUs, as -a "
	  "places them, from CPU k for pair k, unless a side places its threads itself)" },
	{ "normalized", 0, OPT_FLAG, 0, NULL, 0, 0, NULL, NULL,
	  "both sides run with --normalize; the answer, the gate and --precision follow the first "
	  "metric's NAME-normalized (doc/variance.md), not the raw figure" },
	{ "kernel", 0, OPT_STRING, 0, NULL, 0, 0, NULL, "K",
	  "twice, before \"ARGS\": one command line on two kernels, each run in a fresh VM (a name "
	  "as 7.3, 6.12, 6.1, a Debian package, a vmlinuz or a built tree: doc/another-kernel.md)" },
	{ NULL },
};

void ab_help(void)
{
	printf("Usage: bpfbench [OPTIONS] ab \"ARGS A\" \"ARGS B\" [-r N] [--precision PCT\n"
	       "                  [--max-duration S]] [--seed S] [--name A --name B] [-q|-v]\n"
	       "                  [--json FILE [--record [--db DB]]] [--noise PCT] [--alpha A] [--adjust M]\n"
	       "                  [--fail-on-regression PCT [--gate-unjudged pass|fail]] [--no-pin]\n"
	       "                  [--normalized]\n");
	out_print_usage(stdout, OUT_K_VERDICTS, "                  ");
	printf("       bpfbench ab --kernel A --kernel B \"ARGS\" [-r N] [--json FILE] [OPTIONS]\n\n"
	       "Runs two command lines of one benchmark alternately, N pairs in random order\n"
	       "(A B or B A per pair), each run with a fresh setup, then tests B against A pair\n"
	       "by pair (Student's t on the mean log ratio of the pairs, Wilcoxon's signed-rank\n"
	       "beside) and prints first B's speed relative to A with its 95%% CI.  Other\n"
	       "options (-w, -d, -p, ...; with --kernel, those after \"ARGS\") apply to both\n"
	       "sides.  Progress on stderr: the pair, the time and the CI of B/A against the\n"
	       "target, on a terminal one line rewritten, else under -v a line per pair.\n"
	       "The verdicts' formats (--junit, --ktap) write a case per row judged, as\n"
	       "compare's; an output to stdout ('-') has it alone: the lines go to stderr.\n\n"
	       "Options:\n");
	opts_print_help(ab_opts, NULL);
	opts_print_help(cmp_verdict_opts, NULL);
	printf("\nExit status as compare's: 1 on a regression beyond --fail-on-regression, else\n"
	       "%d when a row it gates has no verdict or cannot tell whether B is worse by\n"
	       "more than PCT%% (--gate-unjudged pass: 0).\n", EXIT_UNJUDGED);
}
