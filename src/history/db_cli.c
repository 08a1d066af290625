// SPDX-License-Identifier: GPL-2.0
/*
 * bpfbench db: the results history's command line.  Parsing and the
 * database's opening are here; each action is its own file (record.c,
 * db_show.c, db_changes.c).  The database is --db, else $BPFBENCH_DB,
 * else the user's SQLite file (store_default_path()).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "changes.h"
#include "db_cli.h"
#include "history.h"
#include "opts.h"
#include "outfile.h"
#include "out_formats.h"
#include "store.h"
#include "util.h"

#define USAGE	"usage: bpfbench db record FILE.json... | show BENCH | changes [BENCH] | " \
		"plot BENCH -o OUT.svg | export --otava-csv BENCH [options] (db --help)"

const struct opt_def db_opts[] = {
	{ "db", 0, OPT_STRING, 0, NULL, 0, 0, NULL, "PATH|URI",
	  "the database: a SQLite file or postgresql://... (default: $BPFBENCH_DB, else the "
	  "user's SQLite file, below)", OPT_F_PATH },
	{ "db-trust", 0, OPT_FLAG, 0, NULL, 0, 0, NULL, NULL,
	  "a SQLite file another user owns or can write, or in a folder others can change, is "
	  "used (else refused, exit 2; also $BPFBENCH_DB_TRUST=1); a planted link never is" },
	{ "host", 0, OPT_STRING, 0, NULL, 0, 0, NULL, "NAME",
	  "record: the host's name instead of the file's env.hostname; else only that host's "
	  "series" },
	{ "metric", 0, OPT_STRING, 0, NULL, 0, 0, NULL, "NAME", "only this metric (NAME or NAME{key})" },
	{ "since", 0, OPT_STRING, 0, NULL, 0, 0, NULL, "DATE",
	  "only results dated DATE or later (RFC 3339, or a day YYYY-MM-DD: from its start, UTC)" },
	{ "until", 0, OPT_STRING, 0, NULL, 0, 0, NULL, "DATE",
	  "only results dated DATE or earlier (a day: to its end)" },
	{ "options", 0, OPT_STRING, 0, NULL, 0, 0, NULL, "TEXT",
	  "only runs of these measured options, as show prints them" },
	{ "by-kernel", 0, OPT_FLAG, 0, NULL, 0, 0, NULL, NULL,
	  "a kernel's runs are a series of their own" },
	{ "counts", 0, OPT_FLAG, 0, NULL, 0, 0, NULL, NULL, "also metrics that are exact counts" },
	{ "normalized", 0, OPT_FLAG, 0, NULL, 0, 0, NULL, NULL,
	  "only the NAME-normalized metrics (runs taken with --normalize): a history judged on the "
	  "figure per whole CPU at the speed reference's speed (doc/variance.md)" },
	{ "fail-on-change", 0, OPT_STRING, 0, NULL, 0, 0, NULL, "PCT",
	  "changes: exit 1 on a change for the worse beyond PCT%, else " OPT_STR(EXIT_UNJUDGED)
	  " if a series is too short or too noisy to show such a step (not judged)" },
	{ "gate-unjudged", 0, OPT_CHOICE, 0, "fail", 0, 0,
	  (const char *const[]){ "fail", "pass", NULL }, "HOW",
	  "what series not judged do to the gate" },
	{ "alpha", 0, OPT_STRING, 0, OPT_STR(ED_ALPHA), 0, 0, NULL, "A",
	  "changes: a change point's p-value at most A" },
	{ "permutations", 0, OPT_STRING, 0, OPT_STR(ED_PERMUTATIONS), 0, 0, NULL, "N",
	  "changes: permutations of the test" },
	{ "json", 0, OPT_FLAG, 0, NULL, 0, 0, NULL, NULL,
	  "show, changes: JSON on stdout (show: every sample)" },
	OUT_FORMATS(OUT_VERDICT_OPT)
	{ "otava-csv", 0, OPT_FLAG, 0, NULL, 0, 0, NULL, NULL,
	  "export: the CSV Apache Otava reads (one options set: no empty cell; lower-is-better "
	  "metrics need direction: -1)" },
	{ "output", 'o', OPT_STRING, 0, NULL, 0, 0, NULL, "FILE",
	  "plot: the image, .svg or .png (one series, its change points)" },
	{ "script", 0, OPT_STRING, 0, NULL, 0, 0, NULL, "FILE",
	  "plot: also write the gnuplot script that draws it", OPT_F_PATH },
	{ "check", 0, OPT_FLAG, 0, NULL, 0, 0, NULL, NULL,
	  "record: open the database as record does (made if new), record nothing: whether a "
	  "record can (bisect --record's check before its first build)" },
	{ "quiet", 'q', OPT_FLAG, 0, NULL, 0, 0, NULL, NULL,
	  "record: no line per file; changes: the summary only" },
	{ "help", 'h', OPT_FLAG, 0, NULL, 0, 0, NULL, NULL, "this help" },
	{ NULL },
};

static void db_help(void)
{
	char def[4096];

	printf("Usage: bpfbench db record [--host NAME] [-q] FILE.json...\n"
	       "       bpfbench db show BENCH [--metric M] [--host H] [--since DATE] [--until DATE]\n"
	       "                      [--json]\n"
	       "       bpfbench db changes [BENCH] [--fail-on-change PCT] [--by-kernel] [--json]\n");
	out_print_usage(stdout, OUT_K_VERDICTS, "                      ");
	printf("       bpfbench db plot BENCH -o OUT.svg|OUT.png [--metric M] [--host H]\n"
	       "       bpfbench db export --otava-csv BENCH [--host H] [--metric M] [--options TEXT]\n\n"
	       "A history of results: record result files into a database (SQLite by default,\n"
	       "PostgreSQL for a fleet), show a benchmark's figures over time and kernels, find\n"
	       "the change points of every series (benchmark x measured options x metric x host)\n"
	       "by E-divisive means with a permutation test (Matteson & James 2014, as Otava).\n\n"
	       "Options:\n");
	opts_print_help(db_opts, NULL);
	printf("\nThe user's SQLite file: %s.\n"
	       "PostgreSQL (postgresql://USER:PASSWORD@HOST/DB, or the password in $PGPASSWORD or\n"
	       "~/.pgpass): connect_timeout 10 s and statement_timeout 300 s unless the URI says\n"
	       "(?connect_timeout=N&options=-c%%20statement_timeout%%3DMS); a silence past it ends\n"
	       "the command.\n"
	       "The verdicts' formats are for changes --fail-on-change: a case per series,\n"
	       "failed on a regression beyond the gate, skipped if not judged, else passed.  An\n"
	       "output to stdout (--json too) has it alone: the lines go to stderr.\n\n"
	       "Exit status: 0 ok, 1 a database failure or (changes) a regression beyond\n"
	       "--fail-on-change, 2 bad usage or a result file refused (nothing written),\n"
	       "%d (changes) no regression but series the gate could not judge (fewer than\n"
	       "9 runs, or too noisy), or no series matched at all.\n",
	       store_default_path(def, sizeof(def)), EXIT_UNJUDGED);
}

static int usage_err(const char *msg, const char *what)
{
	errmsg("db: %s%s", msg, what ?: "");
	return EXIT_USAGE;
}

static bool number(const char *s, double lo, double hi, double *out)
{
	char *end;

	*out = strtod(s, &end);
	return *s && !*end && isfinite(*out) && *out >= lo && *out <= hi;
}

/* --since/--until: into the UTC text dates are kept as (hdate.h), or refused. */
static int date_bound(const char *opt, const char **v, bool end, char *buf)
{
	if (*v && hdate_bound(*v, end, buf))
		return usage_err(opt, " takes an RFC 3339 date-time (2026-01-13T12:00:00Z, any "
				 "offset) or a day YYYY-MM-DD (UTC)");
	if (*v)
		*v = buf;
	return 0;
}

static const char **value_slot(struct db_args *a, const char *arg, const char **num)
{
	int f = strncmp(arg, "--", 2) ? -1 : out_format_find(arg + 2);

	if (f >= 0 && out_format_defs[f].kind == OUT_K_VERDICTS)
		return &a->verdicts[f];
	if (!strcmp(arg, "--db"))
		return &a->db;
	if (!strcmp(arg, "--host"))
		return &a->f.host;
	if (!strcmp(arg, "--metric"))
		return &a->f.metric;
	if (!strcmp(arg, "--since"))
		return &a->f.since;
	if (!strcmp(arg, "--until"))
		return &a->f.until;
	if (!strcmp(arg, "--options"))
		return &a->f.options;
	if (!strcmp(arg, "-o") || !strcmp(arg, "--output"))
		return &a->out;
	if (!strcmp(arg, "--script"))
		return &a->script;
	if (!strcmp(arg, "--gate-unjudged"))
		return &a->gate_unjudged;
	if (!strcmp(arg, "--fail-on-change") || !strcmp(arg, "--alpha") ||
	    !strcmp(arg, "--permutations"))
		return num;
	return NULL;
}

static int set_number(struct db_args *a, const char *opt, const char *v)
{
	double d;

	if (!strcmp(opt, "--fail-on-change")) {
		if (!number(v, 0, 1e6, &d))
			return usage_err("--fail-on-change takes a percentage >= 0, not ", v);
		a->fail_pct = d;
	} else if (!strcmp(opt, "--alpha")) {
		if (!number(v, 1e-6, 0.5, &d))
			return usage_err("--alpha takes a level in (0, 0.5], not ", v);
		a->alpha = d;
	} else {
		if (!number(v, 19, 100000, &d) || d != floor(d))
			return usage_err("--permutations takes a whole number 19..100000, not ", v);
		a->permutations = (int)d;
	}
	return 0;
}

static int flag(struct db_args *a, const char *arg)
{
	if (!strcmp(arg, "--json"))
		a->json = true;
	else if (!strcmp(arg, "--by-kernel"))
		a->f.by_kernel = true;
	else if (!strcmp(arg, "--counts"))
		a->f.counts = true;
	else if (!strcmp(arg, "--normalized"))
		a->f.normalized = true;
	else if (!strcmp(arg, "--otava-csv"))
		a->otava = true;
	else if (!strcmp(arg, "--db-trust"))
		a->trust = true;
	else if (!strcmp(arg, "--check"))
		a->check = true;
	else if (!strcmp(arg, "-q") || !strcmp(arg, "--quiet"))
		a->quiet = true;
	else
		return -1;
	return 0;
}

/* argv[0] is the action; the rest options and operands (files, a benchmark) in any order. */
static int parse(int argc, char **argv, struct db_args *a, char **pos, int *npos)
{
	const char **slot, *num = NULL;
	int i, ret;

	for (i = 1; i < argc; i++) {
		slot = value_slot(a, argv[i], &num);
		if (slot) {
			if (i + 1 >= argc)
				return usage_err("option needs a value: ", argv[i]);
			*slot = argv[++i];
			if (slot == &num && (ret = set_number(a, argv[i - 1], num)))
				return ret;
		} else if (!strcmp(argv[i], "--")) {
			continue;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			if (flag(a, argv[i]))
				return usage_err("unknown option ", argv[i]);
		} else {
			pos[(*npos)++] = argv[i];
		}
	}
	return date_bound("--since", &a->f.since, false, a->since) ?:
	       date_bound("--until", &a->f.until, true, a->until);
}

/* Reading commands open the database read-only; --db-trust or $BPFBENCH_DB_TRUST=1 trusts it. */
static int open_db(struct store *s, const struct db_args *a, bool write)
{
	const char *t = a->db ?: getenv("BPFBENCH_DB"), *trust = getenv("BPFBENCH_DB_TRUST");

	if (t && !*t)
		t = NULL;
	return store_open_db(s, t, (write ? 0 : STORE_READONLY) |
			     (a->trust || (trust && !strcmp(trust, "1")) ? STORE_TRUST : 0));
}

/* The SQLite file a history is, as open_db() finds it; NULL for PostgreSQL. */
static const char *db_file(const char *db, char *buf, size_t len)
{
	const char *t = db ?: getenv("BPFBENCH_DB");

	if (!t || !*t)
		return store_default_path(buf, len);
	return strstr(t, "://") ? NULL : t;
}

int history_spare_db(const char *db, const char *const *paths, int n)
{
	char def[4096];

	return output_paths_spare(paths, n, db_file(db, def, sizeof(def)), "the database");
}

/* Every file an action writes, none of them the database it reads (issue 50.6). */
static int spare_db(const struct db_args *a)
{
	const char *paths[OUT_NR + 2];

	memcpy(paths, a->verdicts, sizeof(a->verdicts));
	paths[OUT_NR] = a->out;
	paths[OUT_NR + 1] = a->script;
	return history_spare_db(a->db, paths, OUT_NR + 2);
}

int history_record_written(const char *path, const char *db)
{
	struct record_opts o = { 0 };
	struct db_args a = { .db = db };
	struct store s;
	int ret = open_db(&s, &a, true);

	if (ret)
		return ret;
	ret = history_record_file(&s, path, &o);
	store_close(&s);
	return ret;
}

static int record(struct store *s, const struct db_args *a, char **files, int n)
{
	struct record_opts o = { .host = a->f.host, .quiet = a->quiet };
	int i, ret, worst = 0;

	for (i = 0; i < n && !interrupted(); i++) {
		ret = history_record_file(s, files[i], &o);
		if (ret > worst || (ret && !worst))
			worst = ret;
	}
	return interrupted() ? 128 + interrupted_signal() : worst;
}

/* The verdicts' formats: the gate's, of changes; with --json, one at most on stdout. */
static int check_verdicts(const struct db_args *a, bool chg)
{
	const char *paths[OUT_NR];
	int f;

	for (f = 0; f < OUT_NR && !a->verdicts[f]; f++)
		;
	if (!chg || isnan(a->fail_pct)) {
		errmsg("db: --%s writes the verdicts of changes --fail-on-change PCT",
		       out_format_defs[f].name);
		return EXIT_USAGE;
	}
	memcpy(paths, a->verdicts, sizeof(paths));
	paths[OUT_JSON] = a->json ? "-" : NULL;
	return out_check_stdout(paths) ?: output_paths_check(a->verdicts, OUT_NR);
}

static int check_operands(const char *action, const struct db_args *a, int npos)
{
	bool rec = !strcmp(action, "record"), chg = !strcmp(action, "changes");

	if (a->check && (!rec || npos))
		return usage_err("--check is record's, without result files", NULL);
	if (rec && !npos && !a->check)
		return usage_err("record needs one or more result files", NULL);
	if (!rec && npos > 1)
		return usage_err("one benchmark at most; got more operands: ", USAGE);
	if (!rec && !chg && !npos)
		return usage_err(action, " needs a benchmark's name");
	if (!strcmp(action, "export") && !a->otava)
		return usage_err("export writes --otava-csv (the one format so far)", NULL);
	if (!strcmp(action, "plot") != (a->out != NULL))
		return usage_err(a->out ? "-o is for plot" : "plot needs -o OUT.svg|OUT.png", NULL);
	if (a->script && strcmp(action, "plot"))
		return usage_err("--script is for plot", NULL);
	if (a->json && strcmp(action, "show") && strcmp(action, "changes"))
		return usage_err("--json is for show and changes", NULL);
	if (!isnan(a->fail_pct) && !chg)
		return usage_err("--fail-on-change is for changes", NULL);
	if (a->gate_unjudged && isnan(a->fail_pct))
		return usage_err("--gate-unjudged is for a gate: give --fail-on-change PCT", NULL);
	if (a->gate_unjudged && strcmp(a->gate_unjudged, "pass") && strcmp(a->gate_unjudged, "fail"))
		return usage_err("--gate-unjudged takes pass or fail, not ", a->gate_unjudged);
	if ((a->alpha != ED_ALPHA || a->permutations != ED_PERMUTATIONS) && !chg &&
	    strcmp(action, "plot"))
		return usage_err("--alpha and --permutations are for changes and plot", NULL);
	return out_any(a->verdicts, OUT_K_VERDICTS) ? check_verdicts(a, chg) : 0;
}

static int dispatch(const char *action, int argc, char **argv)
{
	struct db_args a = { .fail_pct = NAN, .alpha = ED_ALPHA, .permutations = ED_PERMUTATIONS };
	char **pos = xcalloc(argc + 1, sizeof(char *));
	struct store s;
	int npos = 0, ret;

	ret = parse(argc, argv, &a, pos, &npos) ?: check_operands(action, &a, npos);
	if (!ret && a.f.host && !*a.f.host)
		ret = usage_err("--host needs a name", NULL);
	if (!ret && a.f.metric && !*a.f.metric)
		ret = usage_err("--metric needs a name (NAME or NAME{key})", NULL);
	if (!ret && strcmp(action, "record") && npos && !*pos[0])
		ret = usage_err("the benchmark's name is empty", NULL);
	if (!ret)
		ret = spare_db(&a);
	if (!ret)
		ret = open_db(&s, &a, !strcmp(action, "record"));
	if (ret) {
		free(pos);
		return ret;
	}
	a.f.bench = strcmp(action, "record") && npos ? pos[0] : NULL;
	if (!strcmp(action, "record"))
		ret = a.check ? 0 : record(&s, &a, pos, npos);
	else if (!strcmp(action, "show"))
		ret = db_show(&s, &a);
	else if (!strcmp(action, "changes"))
		ret = db_changes(&s, &a);
	else if (!strcmp(action, "plot"))
		ret = db_plot(&s, &a);
	else
		ret = db_export(&s, &a);
	store_close(&s);
	free(pos);
	return ret;
}

int db_cmd(int argc, char **argv)
{
	static const char *const actions[] = { "record", "show", "changes", "plot", "export", NULL };
	const char *const *act;
	int i;

	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			db_help();
			return 0;
		}
	if (argc < 2)
		return usage_err(USAGE, NULL);
	for (act = actions; *act; act++)
		if (!strcmp(argv[1], *act))
			return dispatch(*act, argc - 1, argv + 1);
	return usage_err("no such action: ", argv[1]);
}
