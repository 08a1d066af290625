// SPDX-License-Identifier: GPL-2.0
/* compare's command line: two files and the options of the verdicts and of run matching. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmp_cli.h"
#include "opts.h"
#include "util.h"

/* Only the names and what they take are read here: the parser is parse_one(). */
const struct opt_def compare_opts[] = {
	{ "paired", 0, OPT_FLAG, 0, NULL, 0, 0, NULL, NULL,
	  "the runs of OLD and NEW were taken in pairs, in order (as ab runs them): a paired test "
	  "on each pair's ratio" },
	{ "normalized", 0, OPT_FLAG, 0, NULL, 0, 0, NULL, NULL,
	  "answer and gate on NAME-normalized where a run has it (runs taken with --normalize: the "
	  "figure per whole CPU at the speed reference's nominal speed), not on NAME" },
	{ "drift", 0, OPT_STRING, 0, OPT_STR(CMP_DRIFT_PCT), 0, 0, NULL, "PCT",
	  "two sessions (files) of one configuration may lie this far apart beyond their runs' "
	  "spread; it widens every unpaired CI (0: trust the spread alone)" },
	{ "run-noise", 0, OPT_STRING, 0, NULL, 0, 0, NULL, "PCT",
	  "how far one run's mean strays from its configuration's on this host (the sd of -r 10 "
	  "runs' means, in %): with it, one run a side is tested; without, it is no verdict (a "
	  "run's samples never show it); 0: trust the samples alone (crafted data). One run "
	  "against a side of -r 3 or more takes that side's spread instead" },
	{ "match", 0, OPT_STRING, 0, NULL, 0, 0, NULL, "OPT,...",
	  "runs match on the benchmark and these parts only (bench, suite, section, label and any "
	  "recorded option)" },
	{ "ignore-option", 0, OPT_STRING, 0, NULL, 0, 0, NULL, "OPT,...",
	  "runs match ignoring these parts" },
	{ "names", 0, OPT_STRING, 0, "OLD,NEW", 0, 0, NULL, "OLD,NEW",
	  "what the lines call the two sides" },
	{ "name", 0, OPT_STRING, 0, NULL, 0, 0, NULL, "NAME",
	  "the same, one at a time, as ab's: --name OLD --name NEW" },
	{ "json", 0, OPT_STRING, 0, NULL, 0, 0, NULL, "FILE",
	  "the rows and verdicts as JSON ('-': stdout)" },
	{ NULL },
};

/* The verdicts' options and how much is printed: ab takes them too. */
const struct opt_def cmp_verdict_opts[] = {
	{ "quiet", 'q', OPT_FLAG, 0, NULL, 0, 0, NULL, NULL, "only the answer lines" },
	{ "verbose", 'v', OPT_FLAG, 0, NULL, 0, 0, NULL, NULL,
	  "also the methods, p-values, MDE and basis of each row" },
	{ "fail-on-regression", 0, OPT_STRING, 0, NULL, 0, 0, NULL, "PCT",
	  "exit 1 if a slower/worse verdict changes more than PCT%, else " OPT_STR(EXIT_UNJUDGED)
	  " if a row it gates has "
	  "no verdict or cannot tell whether it got worse by more than PCT%" },
	{ "gate-unjudged", 0, OPT_CHOICE, 0, "fail", 0, 0, (const char *const[]){ "fail", "pass", NULL },
	  "HOW", "what the rows the gate could not judge do to it" },
	{ "noise", 0, OPT_STRING, 0, OPT_STR(CMP_NOISE_PCT), 0, 0, NULL, "PCT",
	  "equal within +-PCT%" },
	{ "alpha", 0, OPT_STRING, 0, "0.05", 0, 0, NULL, "A",
	  "significance level after adjustment" },
	{ "adjust", 0, OPT_CHOICE, 0, "holm", 0, 0, (const char *const[]){ "holm", "bh", "none", NULL },
	  "M", "how the p-values are adjusted across the rows" },
	OUT_FORMATS(OUT_VERDICT_OPT)
	{ "help", 'h', OPT_FLAG, 0, NULL, 0, 0, NULL, NULL, "this help" },
	{ NULL },
};

static int parse_real(const char *opt, const char *text, double lo, double hi, bool lo_open,
		      double *out)
{
	char *end;
	double v;

	v = text && *text ? strtod(text, &end) : NAN;
	if (isnan(v) || *end || v > hi || v < lo || (lo_open && v == lo)) {
		errmsg("%s: '%s' is not a number in %s%g, %g]", opt, text ?: "",
		       lo_open ? "(" : "[", lo, hi);
		return EXIT_USAGE;
	}
	*out = v;
	return 0;
}

static int parse_adjust(const char *text, enum stats_adjust *out)
{
	static const char *const names[] = { "holm", "bh", "none" };
	size_t i;

	for (i = 0; text && i < ARRAY_SIZE(names); i++) {
		if (!strcmp(text, names[i])) {
			*out = (enum stats_adjust)i;
			return 0;
		}
	}
	errmsg("--adjust: '%s' is not holm, bh or none", text ?: "");
	return EXIT_USAGE;
}

/* A comma list of identity parts into a->names (kept pointing into argv). */
static int parse_names(const char *opt, char *text, struct cmp_args *a)
{
	char *save = NULL, *tok;

	if (!text || !*text) {
		errmsg("%s needs a comma list of option names", opt);
		return EXIT_USAGE;
	}
	for (tok = strtok_r(text, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (a->nr_names == MAX_KEY_NAMES) {
			errmsg("%s: more than %d names", opt, MAX_KEY_NAMES);
			return EXIT_USAGE;
		}
		a->names[a->nr_names++] = tok;
	}
	return 0;
}

/* --names OLD,NEW: what the answer lines call the two sides (kept pointing into argv). */
static int parse_sides(char *text, struct cmp_args *a)
{
	char *comma = text ? strchr(text, ',') : NULL;

	if (!comma || comma == text || !comma[1] || strchr(comma + 1, ',')) {
		errmsg("compare: --names needs two names: OLD,NEW (e.g. A,B)");
		return EXIT_USAGE;
	}
	*comma = 0;
	a->o.old_name = text;
	a->o.new_name = comma + 1;
	a->nr_sides = 2;
	return 0;
}

/* --name OLD --name NEW: the sides one at a time, as ab takes them. */
static int parse_side(char *text, struct cmp_args *a)
{
	if (!text || !*text || a->nr_sides == 2) {
		errmsg(a->nr_sides == 2 ? "compare: --name twice at most: OLD's, then NEW's" :
		       "compare: --name needs a name");
		return EXIT_USAGE;
	}
	if (a->nr_sides++)
		a->o.new_name = text;
	else
		a->o.old_name = text;
	return 0;
}

/* --opt V or --opt=V: the value, or NULL when the option is another. */
static bool opt_is(const char *arg, const char *opt)
{
	size_t len = strlen(opt);

	return !strncmp(arg, opt, len) && (!arg[len] || arg[len] == '=');
}

/*
 * --json (compare's own document) or a verdicts format's --NAME, as
 * --NAME V or --NAME=V: its slot in a->out, else NULL.
 */
static const char **out_slot(const char *arg, struct cmp_args *a)
{
	char opt[64];
	int f;

	for (f = 0; f < OUT_NR; f++) {
		if (f != OUT_JSON && out_format_defs[f].kind != OUT_K_VERDICTS)
			continue;
		snprintf(opt, sizeof(opt), "--%s", out_format_defs[f].name);
		if (opt_is(arg, opt))
			return &a->out[f];
	}
	return NULL;
}

static int parse_one(int argc, char **argv, int *i, struct cmp_args *a, int *files)
{
	char *arg = argv[*i], *eq = strchr(arg, '='), *val;
	const char **slot = out_slot(arg, a);
	bool ignore;

	val = eq ? eq + 1 : (*i + 1 < argc ? argv[*i + 1] : NULL);
	if (arg[0] != '-' || !arg[1]) {
		if (*files == 0)
			a->old_path = arg;
		else if (*files == 1)
			a->new_path = arg;
		++*files;
		return 0;
	}
	if (!eq && strncmp(arg, "--", 2) == 0 && (opt_is(arg, "--alpha") ||
	    opt_is(arg, "--fail-on-regression") || opt_is(arg, "--noise") || opt_is(arg, "--drift") ||
	    opt_is(arg, "--run-noise") ||
	    opt_is(arg, "--adjust") || opt_is(arg, "--match") || opt_is(arg, "--ignore-option") ||
	    slot || opt_is(arg, "--names") || opt_is(arg, "--name") ||
	    opt_is(arg, "--gate-unjudged")))
		++*i;	/* the value is the next word */
	if (!strcmp(arg, "-q") || !strcmp(arg, "--quiet") || !strcmp(arg, "-v") ||
	    !strcmp(arg, "--verbose")) {
		a->o.verbosity = arg[1] == 'q' || arg[2] == 'q' ? -1 : 1;
		return 0;
	}
	if (!strcmp(arg, "--paired")) {
		a->o.paired = true;
		return 0;
	}
	if (!strcmp(arg, "--normalized")) {
		a->o.normalized = true;
		return 0;
	}
	if (opt_is(arg, "--alpha"))
		return parse_real("--alpha", val, 0, 0.5, true, &a->o.alpha);
	if (opt_is(arg, "--fail-on-regression"))
		return parse_real("--fail-on-regression", val, 0, 1e6, false, &a->o.fail_pct);
	if (opt_is(arg, "--gate-unjudged")) {
		if (!val || (strcmp(val, "pass") && strcmp(val, "fail"))) {
			errmsg("--gate-unjudged: '%s' is not pass or fail", val ?: "");
			return EXIT_USAGE;
		}
		a->o.unjudged_pass = !strcmp(val, "pass");
		a->unjudged_given = true;
		return 0;
	}
	if (opt_is(arg, "--noise")) {
		if (parse_real("--noise", val, 0, 100, false, &a->o.noise))
			return EXIT_USAGE;
		a->o.noise /= 100;
		return 0;
	}
	if (opt_is(arg, "--drift")) {
		if (parse_real("--drift", val, 0, 100, false, &a->o.drift))
			return EXIT_USAGE;
		a->o.drift /= 100;
		return 0;
	}
	if (opt_is(arg, "--run-noise")) {
		if (parse_real("--run-noise", val, 0, 100, false, &a->o.run_noise))
			return EXIT_USAGE;
		a->o.run_noise /= 100;
		return 0;
	}
	if (opt_is(arg, "--adjust"))
		return parse_adjust(val, &a->o.adjust);
	if (opt_is(arg, "--names"))
		return parse_sides(val, a);
	if (opt_is(arg, "--name"))
		return parse_side(val, a);
	if (slot) {
		if (!val || !*val) {
			errmsg("compare: %.*s needs a file name ('-': stdout)", (int)strcspn(arg, "="),
			       arg);
			return EXIT_USAGE;
		}
		*slot = val;
		return 0;
	}
	ignore = opt_is(arg, "--ignore-option");
	if (ignore || opt_is(arg, "--match")) {
		if (a->nr_names && a->match_only == ignore) {
			errmsg("compare: --match and --ignore-option exclude each other");
			return EXIT_USAGE;
		}
		a->match_only = !ignore;
		return parse_names(ignore ? "--ignore-option" : "--match", val, a);
	}
	errmsg("compare: unknown option %s", arg);
	return EXIT_USAGE;
}

/* ab checks its options before its runs: a mistake here must not wait for them. */
static int check_gate(const struct cmp_args *a)
{
	if (a->unjudged_given && a->o.fail_pct < 0) {
		errmsg("--gate-unjudged is for a gate: give --fail-on-regression PCT");
		return EXIT_USAGE;
	}
	if (a->nr_sides == 1) {
		errmsg("compare: --name names both sides: --name OLD --name NEW (or --names OLD,NEW)");
		return EXIT_USAGE;
	}
	return 0;
}

int cmp_parse_args(int argc, char **argv, struct cmp_args *a)
{
	int i, ret = 0, files = 0;

	for (i = 1; i < argc && !ret; i++)
		ret = parse_one(argc, argv, &i, a, &files);
	if (!ret)
		ret = check_gate(a) ?: out_check_stdout(a->out);
	if (!ret && files != 2) {
		errmsg("compare needs two files: bpfbench compare OLD.json NEW.json (got %d)",
		       files);
		ret = EXIT_USAGE;
	}
	return ret;
}

int compare_check_opts(int argc, char **argv)
{
	struct cmp_args a = { .o.fail_pct = -1 };
	int i, ret = 0, files = 0;

	for (i = 0; i < argc && !ret; i++)
		ret = parse_one(argc, argv, &i, &a, &files);
	if (!ret)
		ret = check_gate(&a) ?: out_check_stdout(a.out);
	if (!ret && files) {
		errmsg("compare: unexpected argument '%s'", a.old_path);
		ret = EXIT_USAGE;
	}
	return ret;
}

