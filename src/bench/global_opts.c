// SPDX-License-Identifier: GPL-2.0
/*
 * The global options' table, at their offsets in struct run_opts
 * (run_opts.h declares it): what --help, completion, the man page, the
 * parser and a result's recorded options all read.
 */
#include "run_opts.h"
#include "trigger.h"

/*
 * The global options, at their offsets in struct run_opts.  The last
 * field is what an option is to the measurement (opts.h): one that
 * changes nothing of it (OPT_F_NO_MEASURE), or only how long or how
 * often it runs (OPT_F_EXTENT); compare, --sweep and a profile's title
 * read these, never a list of names.
 */
#define G(field)	OPT_OFF(struct run_opts, field)

/* A run's outputs, from the list of formats: those of a run's kinds, in its order. */
#define RUN_OUT(ID, name, metavar, kind, help)	RUN_OUT_##kind(ID, name, metavar, help)
#define RUN_OUT_ROWS(ID, name, metavar, help)	\
	{ #name, 0, OPT_STRING, G(out[OUT_##ID]), NULL, 0, 0, NULL, metavar, help, OPT_F_NO_MEASURE },
#define RUN_OUT_PROFILE(ID, name, metavar, help)	\
	{ #name, 0, OPT_STRING, G(out[OUT_##ID]), NULL, 0, 0, NULL, metavar,	\
	  help " (implies --profile)", OPT_F_NO_MEASURE },
#define RUN_OUT_VERDICTS(ID, name, metavar, help)

const struct opt_def global_opts[] = {
	{ "warmup", 'w', OPT_SECONDS, G(warmup_ms), "1", 0, 3600000, NULL, "SEC",
	  "seconds of samples discarded before measuring", OPT_F_EXTENT },
	{ "duration", 'd', OPT_SECONDS, G(duration_ms), "5", 10, 86400000, NULL, "SEC",
	  "seconds measured (one sample per period)", OPT_F_EXTENT },
	{ "producers", 'p', OPT_UINT, G(producers), "1", 1, BENCH_MAX_THREADS, NULL, "N",
	  "producer threads" },
	{ "consumers", 'c', OPT_UINT, G(consumers), NULL, 0, 64, NULL, "N",
	  "consumer threads (default: what the benchmark needs, 1 for rb-*/pb-*, else 0)" },
	{ "period-ms", 0, OPT_UINT, G(period_ms), "1000", 10, 60000, NULL, "MS",
	  "sampling period", OPT_F_EXTENT },
	{ "affinity", 'a', OPT_FLAG, G(affinity), NULL, 0, 0, NULL, NULL,
	  "pin consumers, then producers, to CPUs 0, 1, 2, ..." },
	{ "prod-affinity", 0, OPT_CPUSET, G(prod_cpus), NULL, 0, 0, NULL, "CPUSET",
	  "pin producer i to the i-th CPU of a list like 0-3,7" },
	{ "cons-affinity", 0, OPT_CPUSET, G(cons_cpus), NULL, 0, 0, NULL, "CPUSET",
	  "pin consumer i to the i-th CPU of the list" },
	{ "trigger", 0, OPT_CHOICE, G(trigger), "auto", 0, 0, trigger_names, "HOW",
	  "how programs are run" },
	{ "test-run-repeat", 0, OPT_UINT, G(test_run_repeat), NULL,
	  1, TEST_RUN_MAX_REPEAT, NULL, "N",
	  "test-run trigger: program runs per syscall (default: calibrated to >= 2 ms)" },
	OUT_FORMATS(RUN_OUT)
	{ "record", 0, OPT_FLAG, G(record), NULL, 0, 0, NULL, NULL,
	  "then record the --json FILE into the history (bpfbench db; --db, $BPFBENCH_DB or the "
	  "default)", OPT_F_NO_MEASURE },
	{ "db", 0, OPT_STRING, G(db_path), NULL, 0, 0, NULL, "PATH|URI",
	  "the database --record records into: a SQLite file or postgresql://..., as bpfbench "
	  "db's (not written into the result)", OPT_F_NO_MEASURE | OPT_F_UNRECORDED | OPT_F_PATH },
	{ "sweep", 0, OPT_STRING, G(sweep), NULL, 0, 0, NULL, "PARAM=V1,V2,...",
	  "one run per value of a global or benchmark option, one row each; one --sweep, one "
	  "option swept (a second is bad usage)", OPT_F_NO_MEASURE | OPT_F_ONCE },
	{ "precision", 0, OPT_STRING, G(precision_text), NULL, 0, 0, NULL, "PCT",
	  "sample until the 95% CI of the first metric's mean is within PCT% of it", OPT_F_EXTENT },
	{ "max-duration", 0, OPT_SECONDS, G(max_duration_ms), "60", 10, 86400000, NULL, "SEC",
	  "upper bound of a --precision run's measured time", OPT_F_EXTENT },
	{ "runs", 'r', OPT_UINT, G(runs), "1", 1, 1000, NULL, "N",
	  "repeat the whole run N times, each with a fresh setup (new maps, programs, hash seeds)",
	  OPT_F_EXTENT },
	{ "speed-ref", 0, OPT_FLAG, G(speed_ref), NULL, 0, 0, NULL, NULL,
	  "after each sample, time a fixed work (a user-space loop, an empty BPF program) on the "
	  "CPUs the threads ran on: the JSON's ref_*_ns per sample (doc/variance.md)" },
	{ "normalize", 0, OPT_FLAG, G(normalize), NULL, 0, 0, NULL, NULL,
	  "beside the first metric, NAME-normalized: the figure per whole CPU the producers had, "
	  "at the speed reference's nominal speed (implies --speed-ref); the Summary stays the "
	  "kernel bench's" },
	{ "kernel-stats", 0, OPT_FLAG, G(kernel_stats), NULL, 0, 0, NULL, NULL,
	  "the kernel's run count and time inside the program (BPF_ENABLE_STATS), beside ours" },
	{ "counters", 0, OPT_FLAG, G(counters), NULL, 0, 0, NULL, NULL,
	  "per-op counts over the measured phase: task-clock, context switches; cycles, IPC, "
	  "cache and branch misses where a PMU exists" },
	{ "profile", 0, OPT_FLAG, G(profile), NULL, 0, 0, NULL, NULL,
	  "sample the measured phase's kernel and user stacks: a top table, and the JSON's profile" },
	{ "profile-freq", 0, OPT_UINT, G(profile_freq), "999", 1, 100000, NULL, "HZ",
	  "--profile: samples per second per CPU" },
	{ "verifier-stats", 0, OPT_FLAG, G(verifier_stats), NULL, 0, 0, NULL, NULL,
	  "load the programs, print each one's verified instruction count, measure nothing" },
	{ "verbose", 'v', OPT_FLAG, G(verbose), NULL, 0, 0, NULL, NULL,
	  "libbpf and verifier detail on stderr", OPT_F_NO_MEASURE },
	{ "quiet", 'q', OPT_FLAG, G(quiet), NULL, 0, 0, NULL, NULL,
	  "the Summary line alone, the kernel bench's shape (after its table for a table shape, "
	  "and after the profile's with --profile)",
	  OPT_F_NO_MEASURE },
	{ "list", 'l', OPT_FLAG, G(list), NULL, 0, 0, NULL, NULL,
	  "list benchmarks: name, family, summary", OPT_F_NO_MEASURE },
	{ "list-families", 0, OPT_FLAG, G(list_families), NULL, 0, 0, NULL, NULL,
	  "list families: name, folder under benchs/, benchmarks, summary", OPT_F_NO_MEASURE },
	{ "help", 'h', OPT_FLAG, G(help), NULL, 0, 0, NULL, NULL,
	  "this help, or a benchmark's options after its name", OPT_F_NO_MEASURE },
	{ NULL },
};
