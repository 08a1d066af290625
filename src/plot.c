// SPDX-License-Identifier: GPL-2.0
/*
 * plot: a sweep's curve, mean with mean ± stddev error bars, one line per
 * benchmark, drawn by gnuplot (svg or pngcairo terminal).  The x axis is
 * the swept option as the runs recorded it in "options"; numbers are
 * spaced by value (log scale when they span two decades or more), other
 * values are spaced evenly and labelled.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include "opts.h"
#include "plot.h"
#include "resdoc.h"
#include "util.h"

extern char **environ;

struct plot_args {
	const char *in, *out, *x, *metric;
	bool png;
};

struct point {
	const char *series;	/* the benchmark */
	const char *xtext;	/* the option's value as written */
	double x, mean, sd;
	bool numeric;
};

struct plot {
	const char *unit;
	int n;
	struct point *pts;
	bool numeric, logx;
};

static int usage_err(const char *msg, const char *what)
{
	errmsg("plot: %s%s", msg, what ?: "");
	return EXIT_USAGE;
}

static int parse_args(int argc, char **argv, struct plot_args *a)
{
	const char **slot;
	const char *arg;
	size_t len;
	int i;

	for (i = 1; i < argc; i++) {
		arg = argv[i];
		slot = !strcmp(arg, "-o") || !strcmp(arg, "--output") ? &a->out :
		       !strcmp(arg, "--x") ? &a->x : !strcmp(arg, "--metric") ? &a->metric : NULL;
		if (slot) {
			if (i + 1 >= argc)
				return usage_err("option needs a value: ", arg);
			*slot = argv[++i];
		} else if (arg[0] == '-' && arg[1]) {
			return usage_err("unknown option ", arg);
		} else if (!a->in) {
			a->in = arg;
		} else {
			return usage_err("unexpected argument ", arg);
		}
	}
	if (!a->in || !a->out)
		return usage_err("usage: bpfbench plot FILE.json -o OUT.svg|OUT.png "
				 "[--x PARAM] [--metric NAME]", NULL);
	len = strlen(a->out);
	if (len > 4 && !strcmp(a->out + len - 4, ".png"))
		a->png = true;
	else if (len <= 4 || strcmp(a->out + len - 4, ".svg"))
		return usage_err("the output must end in .svg or .png: ", a->out);
	return 0;
}

static int point_of(const struct plot_args *a, const struct res_run *r, struct point *p)
{
	const struct res_metric *m = res_run_metric(r, a->metric);
	json_object *v;
	char *end;

	if (!m)
		return 0;
	if (!json_object_object_get_ex(r->options, a->x, &v))
		return usage_err("a run does not record the option ", a->x);
	p->series = r->bench;
	p->xtext = json_object_get_string(v);
	p->mean = m->mean;
	p->sd = m->stddev;
	p->numeric = json_object_is_type(v, json_type_int) || json_object_is_type(v, json_type_double);
	if (!p->numeric && p->xtext) {	/* "1000" stored as a string is a number too */
		p->x = strtod(p->xtext, &end);
		p->numeric = *p->xtext && !*end && isfinite(p->x);
	}
	if (p->numeric && json_object_is_type(v, json_type_int))
		p->x = (double)json_object_get_int64(v);
	else if (p->numeric && json_object_is_type(v, json_type_double))
		p->x = json_object_get_double(v);
	return 1;
}

/* The defaults: the recorded sweep parameter and the first metric. */
static int pick_axes(struct plot_args *a, const struct res_doc *doc)
{
	int i;

	for (i = 0; i < doc->nr_runs && (!a->x || !a->metric); i++) {
		if (!a->x && doc->runs[i].sweep_param)
			a->x = doc->runs[i].sweep_param;
		if (!a->metric && !doc->runs[i].status && doc->runs[i].nr_metrics)
			a->metric = doc->runs[i].metrics[0].name;
	}
	if (!a->x)
		return usage_err("the file records no swept parameter: name one with --x PARAM", NULL);
	if (!a->metric)
		return usage_err("no successful run to plot in ", doc->path);
	return 0;
}

static int cmp_point(const void *pa, const void *pb)
{
	const struct point *a = pa, *b = pb;
	int c = strcmp(a->series, b->series);

	if (c || !a->numeric || !b->numeric)
		return c;
	return (a->x > b->x) - (a->x < b->x);
}

static int collect(const struct plot_args *a, const struct res_doc *doc, struct plot *pl)
{
	double lo = INFINITY, hi = 0;
	int i, ret;

	pl->pts = xcalloc(doc->nr_runs ?: 1, sizeof(*pl->pts));
	pl->numeric = true;
	for (i = 0; i < doc->nr_runs; i++) {
		if (doc->runs[i].status)
			continue;
		ret = point_of(a, &doc->runs[i], &pl->pts[pl->n]);
		if (ret < 0 || ret == EXIT_USAGE)
			return EXIT_USAGE;
		if (!ret)
			continue;
		if (!pl->unit)
			pl->unit = res_run_metric(&doc->runs[i], a->metric)->unit;
		pl->numeric &= pl->pts[pl->n].numeric;
		lo = fmin(lo, pl->pts[pl->n].x);
		hi = fmax(hi, pl->pts[pl->n].x);
		pl->n++;
	}
	if (!pl->n)
		return usage_err("no successful run has the metric ", a->metric);
	pl->logx = pl->numeric && lo > 0 && hi / lo >= 100;
	if (pl->numeric)
		qsort(pl->pts, pl->n, sizeof(*pl->pts), cmp_point);
	return 0;
}

/* A gnuplot single-quoted string: only the quote itself needs doubling. */
static void gp_str(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; s && *s; s++) {
		if (*s == '\'')
			fputc('\'', f);
		fputc(*s == '\n' ? ' ' : *s, f);
	}
	fputc('\'', f);
}

/* One data block per series ("index" in gnuplot): x label mean sd. */
static void write_data(FILE *f, const struct plot *pl)
{
	const char *c;
	int i;

	for (i = 0; i < pl->n; i++) {
		if (i && strcmp(pl->pts[i].series, pl->pts[i - 1].series))
			fputs("\n\n", f);
		fprintf(f, "%.17g \"", pl->numeric ? pl->pts[i].x : (double)i);
		for (c = pl->pts[i].xtext; c && *c; c++)
			fputc(*c == '"' || *c == '\n' ? '_' : *c, f);
		fprintf(f, "\" %.17g %.17g\n", pl->pts[i].mean, pl->pts[i].sd);
	}
}

static void write_script(FILE *f, const struct plot_args *a, const struct plot *pl,
			 const char *data, const char *out)
{
	char text[256];
	int i, block = 0;

	fprintf(f, "set terminal %s size 900,560 font 'sans,11' noenhanced\n",
		a->png ? "pngcairo" : "svg");
	fputs("set output ", f);
	gp_str(f, out);
	snprintf(text, sizeof(text), "%s against %s", a->metric, a->x);
	fputs("\nset title ", f);
	gp_str(f, text);
	snprintf(text, sizeof(text), "%s (%s), mean ± stddev", a->metric, pl->unit);
	fputs("\nset ylabel ", f);
	gp_str(f, text);
	fputs("\nset xlabel ", f);
	gp_str(f, a->x);
	fputs("\nset grid\nset key top left\nset yrange [0:*]\nset offsets graph 0.03, graph 0.03, 0, 0\n", f);
	if (pl->logx)
		fputs("set logscale x 10\n", f);
	if (!pl->numeric)
		fputs("set xtics rotate by -30\n", f);
	fputs("plot ", f);
	for (i = 0; i < pl->n; i++) {
		if (i && !strcmp(pl->pts[i].series, pl->pts[i - 1].series))
			continue;
		fprintf(f, "%s", block ? ", " : "");
		gp_str(f, data);
		fprintf(f, " index %d using 1:3:4%s with yerrorlines lw 2 pt 7 title ", block,
			pl->numeric ? "" : ":xtic(2)");
		gp_str(f, pl->pts[i].series);
		block++;
	}
	fputc('\n', f);
}

static int run_gnuplot(const char *script)
{
	char *args[] = { "gnuplot", (char *)script, NULL };
	int err, status;
	pid_t pid;

	err = posix_spawnp(&pid, "gnuplot", NULL, NULL, args, environ);
	if (err == ENOENT) {
		errmsg("plot: gnuplot is not installed (Debian: apt-get install gnuplot-nox)");
		return 1;
	}
	if (err) {
		errmsg("plot: cannot run gnuplot: %s", strerror(err));
		return 1;
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return 1;
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		errmsg("plot: gnuplot failed (status %d)", status);
		return 1;
	}
	return 0;
}

static bool write_text(const char *path, void (*fn)(FILE *, const void *), const void *arg)
{
	FILE *f = fopen(path, "we");
	bool ok;

	if (!f)
		return false;
	fn(f, arg);
	ok = !ferror(f);
	return !fclose(f) && ok;
}

struct script_ctx {
	const struct plot_args *a;
	const struct plot *pl;
	const char *data, *out;
};

static void data_fn(FILE *f, const void *arg)
{
	write_data(f, arg);
}

static void script_fn(FILE *f, const void *arg)
{
	const struct script_ctx *c = arg;

	write_script(f, c->a, c->pl, c->data, c->out);
}

/*
 * Created before gnuplot runs, so an unwritable place gets our one line
 * rather than gnuplot's, and 0644 whatever the umask (gnuplot truncates it).
 */
static bool create_output(const char *tmp, const char *out)
{
	int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);

	if (fd < 0 || fchmod(fd, 0644)) {
		errmsg("plot: cannot write %s: %s", out, strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(tmp);
		}
		return false;
	}
	close(fd);
	return true;
}

/* gnuplot draws into a temporary name beside OUT, renamed once complete. */
static int draw(const struct plot_args *a, const struct plot *pl)
{
	char dir[] = "/tmp/bpfbench-plot.XXXXXX", data[64], script[64], tmp[4096];
	struct script_ctx c = { a, pl, data, tmp };
	int ret = 1;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp.%d", a->out, getpid()) >= (int)sizeof(tmp))
		return usage_err("output name too long", NULL);
	if (!create_output(tmp, a->out))
		return 1;
	if (!mkdtemp(dir)) {
		errmsg("plot: cannot create a temporary directory: %s", strerror(errno));
		unlink(tmp);
		return 1;
	}
	snprintf(data, sizeof(data), "%s/data", dir);
	snprintf(script, sizeof(script), "%s/plot.gp", dir);
	if (!write_text(data, data_fn, pl) || !write_text(script, script_fn, &c))
		errmsg("plot: cannot write in %s: %s", dir, strerror(errno));
	else if (!run_gnuplot(script))
		ret = 0;
	if (!ret && rename(tmp, a->out)) {
		errmsg("plot: cannot write %s: %s", a->out, strerror(errno));
		ret = 1;
	}
	unlink(tmp);
	unlink(data);
	unlink(script);
	rmdir(dir);
	return ret;
}

int plot_cmd(int argc, char **argv)
{
	struct plot_args a = { 0 };
	struct res_doc doc = { 0 };
	struct plot pl = { 0 };
	int ret;

	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		printf("Usage: bpfbench plot FILE.json -o OUT.svg|OUT.png [--x PARAM] [--metric NAME]\n\n"
		       "Mean ± stddev of a metric (default: the first) against an option\n"
		       "(default: the swept one), one line per benchmark, drawn by gnuplot.\n");
		return 0;
	}
	ret = parse_args(argc, argv, &a);
	if (!ret)
		ret = resdoc_load(a.in, &doc);
	if (!ret)
		ret = pick_axes(&a, &doc);
	if (!ret)
		ret = collect(&a, &doc, &pl);
	if (!ret)
		ret = draw(&a, &pl);
	if (!ret)
		printf("%s: %d points of %s against %s\n", a.out, pl.n, a.metric, a.x);
	free(pl.pts);
	resdoc_free(&doc);
	return ret;
}
