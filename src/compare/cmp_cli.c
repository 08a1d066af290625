// SPDX-License-Identifier: GPL-2.0
/* compare's command line: two files and the options of the verdicts and of run matching. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmp_cli.h"
#include "opts.h"
#include "util.h"

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
	    slot || opt_is(arg, "--names") || opt_is(arg, "--gate-unjudged")))
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

