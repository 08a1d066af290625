// SPDX-License-Identifier: GPL-2.0
/* `bpfbench profile`: any command profiled as --profile profiles a run, and two profiles compared. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "args.h"
#include "flame.h"
#include "outfile.h"
#include "profile_child.h"
#include "profile_cmd.h"
#include "util.h"

#define DIFF_ROWS	20

struct profile_args {
	const char *out[OUT_NR];	/* --folded, --flame: the profile's formats (out_formats.h) */
	const char *diff_a, *diff_b;
	uint64_t duration_ms, freq;
	char **cmd;
};

const struct opt_def profile_opts[] = {
	OUT_FORMATS(OUT_PROFILE_OPT)
	{ "duration", 'd', OPT_STRING, 0, NULL, 0, 0, NULL, "SEC",
	  "sample SEC seconds, then stop CMD (SIGTERM); its BPF programs are named only while it "
	  "still holds them (default: until it exits)" },
	{ "freq", 0, OPT_UINT, 0, OPT_STR(PROFILE_FREQ_DEFAULT), 1, 100000, NULL, "HZ",
	  "samples per second per CPU" },
	{ "profile-freq", 0, OPT_UINT, 0, NULL, 1, 100000, NULL, "HZ", "--freq", OPT_F_HIDDEN },
	{ "diff", 0, OPT_STRING, 0, NULL, 0, 0, NULL, "A.folded B.folded",
	  "which functions grew or shrank from A to B (two --folded files), instead of a command",
	  OPT_F_PATH },
	{ "help", 'h', OPT_FLAG, 0, NULL, 0, 0, NULL, NULL, "this help" },
	{ NULL },
};

static void usage(void)
{
	printf("Usage: bpfbench profile [--folded FILE] [--flame FILE.svg] [-d SEC] [--freq HZ] "
	       "-- CMD [ARGS...]\n"
	       "       bpfbench profile --diff A.folded B.folded\n\n"
	       "Samples CMD's kernel and user stacks on every online CPU, as --profile samples a\n"
	       "benchmark (cpu-clock where there is no PMU), and prints its top functions.\n\n"
	       "Options:\n");
	opts_print_help(profile_opts, NULL);
}

static int need_value(int argc, char **argv, int i)
{
	if (i + 1 >= argc)
		return usage_error("profile: %s needs a value", argv[i]);
	return 0;
}

static int parse_uint(const char *what, const char *s, double scale, uint64_t *out)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || *end || !(v > 0) || v * scale > 1e12)
		return usage_error("profile: %s wants a positive number (got '%s')", what, s);
	*out = (uint64_t)(v * scale + 0.5) ?: 1;
	return 0;
}

/* --NAME of a profile's format: its slot in a->out, or NULL. */
static const char **out_slot(struct profile_args *a, const char *opt)
{
	int f = strncmp(opt, "--", 2) ? -1 : out_format_find(opt + 2);

	return f >= 0 && out_format_defs[f].kind == OUT_K_PROFILE ? &a->out[f] : NULL;
}

static int parse_opt(int argc, char **argv, int *i, struct profile_args *a)
{
	const char *o = argv[*i], **slot = out_slot(a, o);
	int ret = need_value(argc, argv, *i);

	if (!strcmp(o, "--diff")) {
		if (ret || *i + 2 >= argc)
			return usage_error("profile: --diff needs two folded files");
		a->diff_a = argv[++*i];
		a->diff_b = argv[++*i];
		return 0;
	}
	if (ret)
		return ret;
	if (slot)
		*slot = argv[++*i];
	else if (!strcmp(o, "-d") || !strcmp(o, "--duration"))
		return parse_uint("-d", argv[++*i], 1000, &a->duration_ms);
	else if (!strcmp(o, "--freq") || !strcmp(o, "--profile-freq"))
		return parse_uint("--freq", argv[++*i], 1, &a->freq);
	else
		return usage_error("profile: unknown option '%s' (see 'bpfbench profile --help'; "
				   "the command goes after --)", o);
	return 0;
}

static int parse(int argc, char **argv, struct profile_args *a)
{
	int i, ret;

	a->freq = PROFILE_FREQ_DEFAULT;
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			a->cmd = argv + i + 1;
			break;
		}
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage();
			return -1;
		}
		ret = parse_opt(argc, argv, &i, a);
		if (ret)
			return ret;
	}
	if (a->diff_a && (a->cmd || out_any(a->out, OUT_K_PROFILE)))
		return usage_error("profile: --diff compares two files: no command, --folded or --flame");
	if (!a->diff_a && (!a->cmd || !a->cmd[0]))
		return usage_error("profile: no command (bpfbench profile [options] -- CMD ARGS...)");
	if (a->freq > 100000)
		return usage_error("profile: --freq at most 100000");
	return 0;
}

/*
 * A file that is no folded stacks is the user's input refused (2, as a
 * bad command line), one that cannot be read an error (1); a stop signal
 * ends it (128 + N) with nothing printed.
 */
static int read_side(const char *path, struct profile *p, double *ns_per_op)
{
	int err = profile_read_folded(path, p, ns_per_op);

	if (err == -EINTR)
		return 128 + interrupted_signal();
	if (err)
		errmsg("profile: %s", p->why);
	return err == -EINVAL ? EXIT_USAGE : err ? 1 : 0;
}

static int diff_main(const struct profile_args *a)
{
	struct profile pa, pb;
	struct prof_view va = { &pa, a->diff_a, NAN }, vb = { &pb, a->diff_b, NAN };
	int ret = read_side(a->diff_a, &pa, &va.ns_per_op);

	memset(&pb, 0, sizeof(pb));
	if (!ret)
		ret = read_side(a->diff_b, &pb, &vb.ns_per_op);
	if (!ret && interrupted())
		ret = 128 + interrupted_signal();
	if (!ret)
		prof_diff_print(stdout, &va, &vb, DIFF_ROWS);
	profile_free(&pa);
	profile_free(&pb);
	return ret;
}

static void cmd_title(char **cmd, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = 0;
	bufcat(buf, len, &n, "bpfbench profile --");
	for (; *cmd; cmd++)
		bufcat(buf, len, &n, " %s", *cmd);
}

static int run_main(const struct profile_args *a)
{
	struct child_run c = { a->cmd, a->duration_ms, a->freq, 0 };
	struct profile p;
	char title[512];
	struct prof_view v = { &p, title, NAN };
	int ret;

	memset(&p, 0, sizeof(p));
	ret = out_check_stdout(a->out) ?: output_paths_check(a->out, OUT_NR);
	if (ret)
		return ret;
	ret = profile_child(&c, &p);
	if (ret) {
		(ret == EXIT_SKIP ? skipmsg : errmsg)("profile: %s", p.why);
		profile_free(&p);
		return ret;
	}
	cmd_title(a->cmd, title, sizeof(title));
	/* a profile on stdout ('-') has it alone */
	prof_top_lines(out_to_stdout(a->out) ? stderr : stdout, &v, PROF_TOP_HUMAN);
	ret = prof_write_view(&v, a->out);
	if (!ret && c.exit_status > 0) {
		errmsg("profile: %s exited with status %d", a->cmd[0], c.exit_status);
		ret = 1;
	}
	if (!ret && interrupted())
		ret = 128 + interrupted_signal();
	profile_free(&p);
	return ret;
}

int profile_cmd(int argc, char **argv)
{
	struct profile_args a = { 0 };
	int ret = parse(argc, argv, &a);

	if (ret)
		return ret < 0 ? 0 : ret;
	if (a.diff_a)
		return diff_main(&a);
	return run_main(&a);	/* perf_event_open says itself what it lacks */
}
