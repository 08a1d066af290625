// SPDX-License-Identifier: GPL-2.0
/*
 * The subcommands' own options, as completion offers them: their parsers
 * are not table driven, so tests/install.t checks each entry against the
 * subcommand's --help.
 */
#include "complete_int.h"
#include "out_formats.h"
#include "util.h"

/* The verdicts' formats of the list (out_formats.h): compare's, ab's and db changes' options. */
#define VERDICT_OUT(ID, name, metavar, kind, help)	VERDICT_OUT_##kind(name, help)
#define VERDICT_OUT_VERDICTS(name, help)	{ "--" #name, ARG_FILE, help },
#define VERDICT_OUT_ROWS(name, help)
#define VERDICT_OUT_PROFILE(name, help)

static const struct sub_opt probe_opts[] = {
	{ "--json", ARG_FLAG, "a JSON object instead of a table" },
	{ "--help", ARG_FLAG, "the probe's usage" },
	{ NULL },
};

static const struct sub_opt suite_opts[] = {
	{ "--list", ARG_FLAG, "the suites" },
	{ "--help", ARG_FLAG, "usage, or the steps of the suite named before it" },
	{ NULL },
};

/* What compare and ab share: the verdicts' options and how much they print. */
static const struct sub_opt verdict_opts[] = {
	{ "--noise", ARG_VALUE, "equal within +-PCT%" },
	{ "--alpha", ARG_VALUE, "significance level after adjustment" },
	{ "--adjust", ARG_VALUE, "across the rows: holm, bh or none" },
	{ "-q", ARG_FLAG, "only the answer lines" },
	{ "--quiet", ARG_FLAG, NULL },
	{ "-v", ARG_FLAG, "also the methods and every column" },
	{ "--verbose", ARG_FLAG, NULL },
	{ "--help", ARG_FLAG, "usage" },
	OUT_FORMATS(VERDICT_OUT)
	{ NULL },
};

static const struct sub_opt compare_opts[] = {
	{ "--fail-on-regression", ARG_VALUE, "exit 1 if a slower/worse verdict changes more than PCT%" },
	{ "--gate-unjudged", ARG_VALUE, "pass or fail (default) the rows the gate could not judge (exit 5)" },
	{ "--match", ARG_VALUE, "runs match on the benchmark and these parts only" },
	{ "--ignore-option", ARG_VALUE, "runs match ignoring these parts" },
	{ "--names", ARG_VALUE, "what the lines call the two sides: OLD,NEW" },
	{ "--json", ARG_FILE, "the rows and verdicts as JSON ('-': stdout)" },
	{ "--paired", ARG_FLAG, "the runs of the two files are pairs, in order (as ab's)" },
	{ "--normalized", ARG_FLAG, "answer and gate on NAME-normalized (runs with --normalize)" },
	{ "--drift", ARG_VALUE, "separate sessions' noise beyond their runs' spread, PCT%" },
	{ "--run-noise", ARG_VALUE, "how far one run's mean strays here, PCT%: tests one run a side" },
	{ NULL },
};

static const struct sub_opt ab_opts[] = {
	{ "-r", ARG_VALUE, "pairs of runs" },
	{ "--runs", ARG_VALUE, NULL },
	{ "--seed", ARG_VALUE, "the seed of each pair's order" },
	{ "--json", ARG_FILE, "both sides as a result file" },
	{ "--record", ARG_FLAG, "then record the --json FILE into the history" },
	{ "--fail-on-regression", ARG_VALUE, "exit 1 if B is slower/worse beyond PCT%" },
	{ "--gate-unjudged", ARG_VALUE, "pass or fail (default) the rows the gate could not judge (exit 5)" },
	{ "--precision", ARG_VALUE, "add pairs until the CI of B/A is within +-PCT%" },
	{ "--max-duration", ARG_VALUE, "--precision's time bound, seconds (300)" },
	{ "--name", ARG_VALUE, "the name of A, given again the name of B" },
	{ "--no-pin", ARG_FLAG, "leave the threads unpinned (default: a pair on the same CPUs)" },
	{ "--normalized", ARG_FLAG, "both sides --normalize; answer and gate on NAME-normalized" },
	{ NULL },
};

static const struct sub_opt bisect_opts[] = {
	{ "--good", ARG_VALUE, "the good end: a commit of the tree" },
	{ "--bad", ARG_VALUE, "the bad end: a commit after good" },
	{ "--tree", ARG_FILE, "the kernel's git work tree (default: here)" },
	{ "--work", ARG_FILE, "the clone, build directory, images and log" },
	{ "--build", ARG_VALUE, "how a commit is built (sh -c in the clone)" },
	{ "--config", ARG_FILE, "the default build's first .config" },
	{ "--pairs", ARG_VALUE, "pairs of runs first (3)" },
	{ "--max-pairs", ARG_VALUE, "pairs at most for an answer (8)" },
	{ "--threshold", ARG_VALUE, "bad past PCT% of the change good->bad (50)" },
	{ "--metric", ARG_VALUE, "the metric (default: the benchmark's first)" },
	{ "--seed", ARG_VALUE, "the seed of each pair's order" },
	{ "--json", ARG_FILE, "also the report as JSON (a new file)" },
	{ "--record", ARG_FLAG, "record the first bad commit's and its parent's results" },
	{ "--db", ARG_VALUE, "--record's database" },
	{ "-q", ARG_FLAG, "the answer line alone" },
	{ "-v", ARG_FLAG, "a progress line per pair too" },
	{ "--help", ARG_FLAG, "usage" },
	{ NULL },
};

static const struct sub_opt plot_opts[] = {
	{ "-o", ARG_FILE, "the image, .svg or .png" },
	{ "--output", ARG_FILE, NULL },
	{ "--x", ARG_OPTION, "the option on the x axis" },
	{ "--metric", ARG_VALUE, "the metrics on the y axes, NAME[,NAME...]" },
	{ "--cdf", ARG_FLAG, "the CDF of each per-op histogram" },
	{ "--help", ARG_FLAG, "usage" },
	{ NULL },
};

static const struct sub_opt db_opts[] = {
	{ "--db", ARG_VALUE, "the database: a SQLite file or postgresql://..." },
	{ "--host", ARG_VALUE, "record: the host's name; else that host's series only" },
	{ "--metric", ARG_VALUE, "only this metric, NAME or NAME{key}" },
	{ "--since", ARG_VALUE, "only results dated YYYY-MM-DD or later" },
	{ "--options", ARG_VALUE, "only runs of these measured options, as show prints them" },
	{ "-o", ARG_FILE, "plot: the image, .svg or .png" },
	{ "--output", ARG_FILE, NULL },
	{ "--by-kernel", ARG_FLAG, "a kernel's runs are a series of their own" },
	{ "--counts", ARG_FLAG, "also metrics that are exact counts" },
	{ "--normalized", ARG_FLAG, "only the NAME-normalized metrics (runs with --normalize)" },
	{ "--fail-on-change", ARG_VALUE, "changes: exit 1 on a change for the worse beyond PCT%" },
	{ "--gate-unjudged", ARG_VALUE, "changes: pass or fail (default) series not judged (exit 5)" },
	{ "--alpha", ARG_VALUE, "changes: a change point's p-value at most A" },
	{ "--permutations", ARG_VALUE, "changes: permutations of the test" },
	{ "--json", ARG_FLAG, "show, changes: JSON on stdout" },
	OUT_FORMATS(VERDICT_OUT)
	{ "--otava-csv", ARG_FLAG, "export: the CSV Apache Otava reads" },
	{ "-q", ARG_FLAG, "record: no line per file; changes: the summary only" },
	{ "--quiet", ARG_FLAG, NULL },
	{ "--help", ARG_FLAG, "usage" },
	{ NULL },
};

static const struct sub_opt profile_opts[] = {
	{ "--folded", ARG_FILE, "the collapsed stacks" },
	{ "--flame", ARG_FILE, "a flame graph, .svg" },
	{ "-d", ARG_VALUE, "seconds sampled, then the command is stopped" },
	{ "--duration", ARG_VALUE, NULL },
	{ "--freq", ARG_VALUE, "samples per second per CPU (999)" },
	{ "--diff", ARG_FILE, "two folded files: which functions grew or shrank" },
	{ "--help", ARG_FLAG, "usage" },
	{ NULL },
};

static const struct sub_opt host_opts[] = {
	{ "--json", ARG_FLAG, "show as a JSON object" },
	{ "--quick", ARG_FLAG, "show without the measurements" },
	{ "--help", ARG_FLAG, "usage" },
	{ NULL },
};

static const struct sub_opt completion_opts[] = {
	{ "--help", ARG_FLAG, "usage" },
	{ NULL },
};

const struct sub_spec sub_specs[] = {
	{ "probe", "what this kernel lets bpfbench use", probe_opts },
	{ "suite", "run a suite of benchmarks, one table row per step", suite_opts,
	  { POS_SUITE }, true },
	{ "compare", "what changed between two result files, significantly", compare_opts,
	  { POS_FILE, POS_FILE }, false, verdict_opts },
	{ "plot", "draw a metric against an option with gnuplot", plot_opts, { POS_FILE } },
	{ "ab", "two command lines run alternately, then compare's verdict", ab_opts,
	  { POS_NONE }, false, verdict_opts },
	{ "bisect", "the kernel commit between two that moved a benchmark's figure", bisect_opts },
	{ "db", "a history of results: record, show, changes, plot, export", db_opts,
	  { POS_DB_ACTION, POS_FILE } },
	{ "profile", "where a command's time goes: its stacks, sampled", profile_opts },
	{ "host", "the host's state that moves figures: show, tune, reset", host_opts },
	{ "completion", "print a bash or zsh completion script", completion_opts, { POS_SHELL } },
};

const size_t nr_sub_specs = ARRAY_SIZE(sub_specs);
