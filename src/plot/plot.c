// SPDX-License-Identifier: GPL-2.0
/*
 * plot: metrics of a result file against an option (mean, ± stddev error
 * bars), or with --cdf the per-op distributions, drawn by gnuplot.
 *
 * A curve is one configuration: runs of one benchmark and metric whose
 * measured options other than x agree; it is titled by the options that
 * set it apart, so preallocated and non-preallocated runs are never one
 * zig-zag.  A y axis carries one unit: a second unit goes to y2, a third
 * is refused, since a figure that labels k ops/s as M ops/s misleads.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mkey.h"
#include "opts.h"
#include "outfile.h"
#include "plot.h"
#include "plot_int.h"
#include "util.h"

#define USAGE "usage: bpfbench plot FILE.json -o OUT.svg|OUT.png [--x PARAM] " \
	      "[--metric NAME[,NAME...]] [--cdf]"

static int usage_err(const char *msg, const char *what)
{
	errmsg("plot: %s%s", msg, what ?: "");
	return EXIT_USAGE;
}

/* The next comma outside name{key}'s braces, or the end. */
static char *next_comma(char *p)
{
	int depth = 0;

	for (; *p && (depth || *p != ','); p++)
		depth += *p == '{' ? 1 : *p == '}' && depth ? -1 : 0;
	return p;
}

static int split_metrics(struct plot_args *a, const char *list)
{
	char *tok, *end, *next;

	free(a->metric_list);
	a->metric_list = strdup(list);
	if (!a->metric_list)
		die("out of memory");
	a->nr_metrics = 0;
	for (tok = a->metric_list; tok; tok = next) {
		end = next_comma(tok);
		next = *end ? end + 1 : NULL;
		*end = 0;
		if (!*tok)
			continue;
		if (a->nr_metrics == PLOT_MAX_METRICS)
			return usage_err("too many metrics in --metric (at most 8): ", list);
		a->metric[a->nr_metrics++] = tok;
	}
	if (!a->nr_metrics)
		return usage_err("--metric needs a metric name", NULL);
	return 0;
}

static int check_output(struct plot_args *a)
{
	size_t len;

	if (!a->in || !a->out)
		return usage_err(USAGE, NULL);
	len = strlen(a->out);
	if (len > 4 && !strcmp(a->out + len - 4, ".png"))
		a->png = true;
	else if (len <= 4 || strcmp(a->out + len - 4, ".svg"))
		return usage_err("the output must end in .svg or .png: ", a->out);
	if (a->cdf && (a->x || a->nr_metrics))
		return usage_err("--cdf draws the histograms: it takes neither --x "
				 "nor --metric", NULL);
	return output_paths_spare((const char *const[]){ a->out, a->script }, 2, a->in,
				  "the input");
}

static int parse_args(int argc, char **argv, struct plot_args *a)
{
	const char **slot, *arg, *metric = NULL;
	int i, ret;

	for (i = 1; i < argc; i++) {
		arg = argv[i];
		slot = !strcmp(arg, "-o") || !strcmp(arg, "--output") ? &a->out :
		       !strcmp(arg, "--x") ? &a->x : !strcmp(arg, "--metric") ? &metric :
		       !strcmp(arg, "--script") ? &a->script : NULL;
		if (slot) {
			if (i + 1 >= argc)
				return usage_err("option needs a value: ", arg);
			*slot = argv[++i];
		} else if (!strcmp(arg, "--cdf")) {
			a->cdf = true;
		} else if (arg[0] == '-' && arg[1]) {
			return usage_err("unknown option ", arg);
		} else if (!a->in) {
			a->in = arg;
		} else {
			return usage_err("unexpected argument ", arg);
		}
	}
	if (metric) {
		ret = split_metrics(a, metric);
		if (ret)
			return ret;
	}
	return check_output(a);
}

/* The defaults: the recorded sweep parameter and the first metric. */
static int pick_axes(struct plot_args *a, const struct res_doc *doc)
{
	int i;

	for (i = 0; i < doc->nr_runs && (!a->x || !a->nr_metrics); i++) {
		if (!a->x && doc->runs[i].sweep_param)
			a->x = doc->runs[i].sweep_param;
		if (!a->nr_metrics && !doc->runs[i].status && doc->runs[i].nr_metrics)
			a->metric[a->nr_metrics++] = doc->runs[i].metrics[0].name;
	}
	if (!a->x)
		return usage_err("the file records no swept parameter: name one with --x PARAM", NULL);
	if (!a->nr_metrics)
		return usage_err("no successful run to plot in ", doc->path);
	return 0;
}

struct plot_curve *plot_curve(struct plot_fig *fig, const char *title)
{
	struct plot_curve *c;
	int i;

	for (i = 0; i < fig->nr_curves; i++)
		if (!strcmp(fig->curves[i].title, title))
			return &fig->curves[i];
	if (fig->nr_curves == fig->cap) {
		fig->cap = fig->cap ? 2 * fig->cap : 8;
		fig->curves = realloc(fig->curves, fig->cap * sizeof(*fig->curves));
		if (!fig->curves)
			die("out of memory");
	}
	c = &fig->curves[fig->nr_curves++];
	memset(c, 0, sizeof(*c));
	snprintf(c->title, sizeof(c->title), "%s", title);
	return c;
}

void plot_add(struct plot_curve *c, const struct plot_pt *p)
{
	if (c->n == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 16;
		c->pts = realloc(c->pts, c->cap * sizeof(*c->pts));
		if (!c->pts)
			die("out of memory");
	}
	c->pts[c->n++] = *p;
}

int plot_count(const struct plot_fig *fig)
{
	int i, n = 0;

	for (i = 0; i < fig->nr_curves; i++)
		n += fig->curves[i].n;
	return n;
}

static bool same(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

bool plot_same_name(const char *a, const char *b)
{
	for (; *a && *b; a++, b++)
		if (*a != *b && !(strchr("-_", *a) && strchr("-_", *b)))
			return false;
	return *a == *b;
}

static bool differs(const struct plot_fig *fig, const char *name)
{
	const char *first = res_run_mopt(fig->runs[0], name);
	int i;

	for (i = 1; i < fig->nr_runs; i++)
		if (!same(first, res_run_mopt(fig->runs[i], name)))
			return true;
	return false;
}

void plot_run_title(const struct plot_fig *fig, const struct res_run *r, char *buf, size_t size)
{
	size_t len = snprintf(buf, size, "%s", r->bench), vlen;
	const char *name, *v;
	int i;

	for (i = 0; i < r->nr_mopts && len < size; i++) {
		name = r->mopt_name[i];
		if ((fig->a->x && plot_same_name(name, fig->a->x)) || !differs(fig, name))
			continue;
		v = r->mopt_value[i];
		vlen = strlen(v);
		if (vlen >= 2 && v[0] == '"' && v[vlen - 1] == '"') {	/* a string: unquoted */
			v++;
			vlen -= 2;
		}
		len += snprintf(buf + len, size - len, " %s=%.*s", name, (int)vlen, v);
	}
}

/* The run's value of option x as JSON text, whichever of '-' and '_' it was written with. */
static const char *x_value(const struct plot_args *a, const struct res_run *r)
{
	const char *v = res_run_opt(r, a->x);

	return v && strcmp(v, "null") ? v : NULL;	/* null: unset, as absent */
}

/* Whether m is one that --metric names: by its name (every key), or name{key} exactly. */
static bool wanted(const char *arg, const struct res_metric *m)
{
	return !strcmp(arg, m->name) || !strcmp(arg, m->id);
}

/* Whether m's key has the field x: then x is read from the key, not the options. */
static bool x_in_key(const struct plot_args *a, const struct res_metric *m, char *buf, size_t len)
{
	return mkey_get(m->key, a->x, buf, len);
}

/* Whether m gives a point: x from its key or the run's options. */
static bool has_x(const struct plot_args *a, const struct res_run *r, const struct res_metric *m)
{
	char v[MKEY_MAX];

	return x_in_key(a, m, v, sizeof(v)) || x_value(a, r);
}

/* Runs that lack the option (other benchmarks of a suite) are left out. */
static bool uses_run(const struct plot_args *a, const struct res_run *r)
{
	int i, k;

	if (r->status)
		return false;
	for (i = 0; i < a->nr_metrics; i++)
		for (k = 0; k < r->nr_metrics; k++)
			if (wanted(a->metric[i], &r->metrics[k]) && has_x(a, r, &r->metrics[k]))
				return true;
	return false;
}

static void number_of(struct plot_pt *p)
{
	char *end;

	if (p->numeric || !*p->xtext)
		return;
	p->x = strtod(p->xtext, &end);	/* "1000" stored as a string is a number too */
	p->numeric = !*end && isfinite(p->x);
}

/* Where metric m of run r lies on x: its key's field, else the run's option. */
static void point_of(const struct plot_args *a, const struct res_run *r,
		     const struct res_metric *m, struct plot_pt *p)
{
	const char *o;
	size_t len;

	memset(p, 0, sizeof(*p));
	if (x_in_key(a, m, p->xtext, sizeof(p->xtext))) {
		p->from_key = true;
	} else {
		o = x_value(a, r) ?: "";
		len = strlen(o);
		if (len >= 2 && o[0] == '"' && o[len - 1] == '"')	/* a string: its text */
			snprintf(p->xtext, sizeof(p->xtext), "%.*s", (int)(len - 2), o + 1);
		else
			snprintf(p->xtext, sizeof(p->xtext), "%s", o);
		p->numeric = res_opt_number(o, &p->x);
	}
	number_of(p);
}

/* " op=lookup": the key's fields other than x, which tell this metric's curve from the others. */
static void key_title(const struct plot_args *a, const char *key, char *buf, size_t size)
{
	char name[MKEY_MAX], val[MKEY_MAX];
	size_t len = strlen(buf);

	while (len < size && mkey_next(&key, name, sizeof(name), val, sizeof(val)))
		if (!plot_same_name(name, a->x))
			len += snprintf(buf + len, size - len, " %s=%s", name, val);
}

static void add_point(struct plot_fig *fig, const struct res_run *r, const struct res_metric *m,
		      const char *run_title)
{
	const struct plot_args *a = fig->a;
	char title[PLOT_TITLE_MAX];
	struct plot_curve *c;
	struct plot_pt p;

	if (!has_x(a, r, m))
		return;
	snprintf(title, sizeof(title), "%s", run_title);
	if (a->nr_metrics > 1)	/* several metrics: the curve says which */
		snprintf(title + strlen(title), sizeof(title) - strlen(title), " %s", m->name);
	key_title(a, m->key, title, sizeof(title));
	point_of(a, r, m, &p);
	c = plot_curve(fig, title);
	c->metric = m->name;
	c->unit = c->unit ?: m->unit ?: "";
	p.y = m->mean;
	p.sd = isfinite(m->stddev) && m->n > 1 ? m->stddev : 0;
	p.n = m->n;
	plot_add(c, &p);
}

static void add_run(struct plot_fig *fig, const struct res_run *r)
{
	char title[PLOT_TITLE_MAX];
	int i, k;

	plot_run_title(fig, r, title, sizeof(title));
	for (i = 0; i < fig->a->nr_metrics; i++)
		for (k = 0; k < r->nr_metrics; k++)
			if (wanted(fig->a->metric[i], &r->metrics[k]))
				add_point(fig, r, &r->metrics[k], title);
}

static int collect_runs(struct plot_fig *fig, bool (*use)(const struct plot_args *,
							     const struct res_run *))
{
	const struct res_doc *doc = fig->doc;
	int i;

	fig->runs = xcalloc(doc->nr_runs ?: 1, sizeof(*fig->runs));
	for (i = 0; i < doc->nr_runs; i++)
		if (use(fig->a, &doc->runs[i]))
			fig->runs[fig->nr_runs++] = &doc->runs[i];
	return fig->nr_runs ? 0 : -1;
}

static int cmp_pt(const void *pa, const void *pb)
{
	const struct plot_pt *a = pa, *b = pb;

	return (a->x > b->x) - (a->x < b->x);
}

/* Numbers spaced by value, integers with integer ticks; anything else by category. */
static void shape_x(struct plot_fig *fig)
{
	double lo = INFINITY, hi = -INFINITY;
	struct plot_pt *p;
	int i, j, k;

	fig->numeric = fig->integer = true;
	for (i = 0; i < fig->nr_curves; i++)
		for (j = 0; j < fig->curves[i].n; j++) {
			p = &fig->curves[i].pts[j];
			fig->numeric &= p->numeric;
			fig->integer &= p->numeric && p->x == floor(p->x);
			lo = fmin(lo, p->x);
			hi = fmax(hi, p->x);
		}
	fig->integer &= fig->numeric;
	fig->logx = fig->numeric && lo > 0 && hi / lo >= 100;
	if (fig->numeric) {
		for (i = 0; i < fig->nr_curves; i++)
			qsort(fig->curves[i].pts, fig->curves[i].n, sizeof(struct plot_pt), cmp_pt);
		return;
	}
	for (i = 0; i < fig->nr_curves; i++)
		for (j = 0; j < fig->curves[i].n; j++) {
			p = &fig->curves[i].pts[j];
			for (k = 0; k < fig->nr_cats && !same(fig->cats[k], p->xtext); k++)
				;
			if (k == fig->nr_cats) {
				fig->cats = realloc(fig->cats, (k + 1) * sizeof(*fig->cats));
				if (!fig->cats)
					die("out of memory");
				fig->cats[fig->nr_cats++] = p->xtext;
			}
			p->x = k;
		}
}

static bool has_metric(const struct plot_fig *fig, const char *arg)
{
	struct res_metric m = { 0 };
	char name[64];
	int i;

	snprintf(name, sizeof(name), "%.*s", (int)strcspn(arg, "{"), arg);	/* name{key}: name */
	m.name = m.id = name;
	for (i = 0; i < fig->nr_curves; i++)
		if (wanted(fig->curves[i].metric, &m))
			return true;
	return false;
}

/*
 * A key field that is a number for some metrics and text for others
 * (map-batch's batch: 1000, or one-by-one) draws the numbers on a
 * numeric axis: the text points are left out, and said so.
 */
static void drop_text_points(struct plot_fig *fig)
{
	int i, j, n, nums = 0, texts = 0;
	struct plot_curve *c;
	char what[64] = "";

	for (i = 0; i < fig->nr_curves; i++)
		for (j = 0; j < fig->curves[i].n; j++) {
			nums += fig->curves[i].pts[j].numeric;
			texts += !fig->curves[i].pts[j].numeric && fig->curves[i].pts[j].from_key;
		}
	if (!nums || !texts || nums + texts != plot_count(fig))
		return;
	for (i = 0; i < fig->nr_curves; i++) {
		c = &fig->curves[i];
		for (j = n = 0; j < c->n; j++) {
			if (c->pts[j].numeric)
				c->pts[n++] = c->pts[j];
			else if (!what[0])
				snprintf(what, sizeof(what), "%s", c->pts[j].xtext);
		}
		c->n = n;
	}
	/* stdout: a success says nothing on stderr */
	printf("plot: %d point%s whose %s is not a number (%s) left out of the numeric axis\n",
	       texts, texts == 1 ? "" : "s", fig->a->x, what);
}

static int no_runs(const struct plot_fig *fig)
{
	int i;

	for (i = 0; i < fig->doc->nr_runs; i++)
		if (!fig->doc->runs[i].status && x_value(fig->a, &fig->doc->runs[i]))
			return usage_err("no successful run recording the option has the metric ",
					 fig->a->metric[0]);
	return usage_err("no successful run records the option ", fig->a->x);
}

static int collect(struct plot_fig *fig)
{
	const struct plot_args *a = fig->a;
	int i;

	if (collect_runs(fig, uses_run))
		return no_runs(fig);
	for (i = 0; i < fig->nr_runs; i++)
		add_run(fig, fig->runs[i]);
	for (i = 0; i < a->nr_metrics; i++)
		if (!has_metric(fig, a->metric[i]))
			return usage_err("no successful run has the metric ", a->metric[i]);
	drop_text_points(fig);
	shape_x(fig);
	return 0;
}

/* Each curve's unit gets an axis: two at most, never one labelled with another's. */
static int assign_axes(struct plot_fig *fig)
{
	const char *u;
	int i, k;

	for (i = 0; i < fig->nr_curves; i++) {
		u = fig->curves[i].unit;
		for (k = 0; k < fig->nr_units && strcmp(fig->unit[k], u); k++)
			;
		if (k == fig->nr_units && k == 2) {
			errmsg("plot: the metrics come in more than two units (%s, %s, %s): "
			       "choose them with --metric", fig->unit[0], fig->unit[1], u);
			return EXIT_USAGE;
		}
		if (k == fig->nr_units)
			fig->unit[fig->nr_units++] = u;
		fig->curves[i].axis = k;
	}
	return 0;
}

static void fig_free(struct plot_fig *fig)
{
	int i;

	for (i = 0; i < fig->nr_curves; i++)
		free(fig->curves[i].pts);
	free(fig->curves);
	free(fig->runs);
	free(fig->cats);
}

const struct opt_def plot_opts[] = {
	{ "output", 'o', OPT_STRING, 0, NULL, 0, 0, NULL, "OUT.svg|OUT.png",
	  "the image: its extension chooses SVG or PNG", OPT_F_PATH },
	{ "x", 0, OPT_STRING, 0, NULL, 0, 0, NULL, "PARAM",
	  "the x axis: an option (default: the swept one) or a field of the metrics' keys "
	  "(map-batch: --x batch --metric rate)", OPT_F_OPTNAME },
	{ "metric", 0, OPT_STRING, 0, NULL, 0, 0, NULL, "NAME[,NAME...]",
	  "the metrics on the y axes (default: the first), names, or name{key} for one keyed "
	  "metric; one unit per y axis, two at most" },
	{ "cdf", 0, OPT_FLAG, 0, NULL, 0, 0, NULL, NULL,
	  "the cumulative distribution of each run's per-op histograms (--latency), p50 and p99 "
	  "marked, instead" },
	{ "script", 0, OPT_STRING, 0, NULL, 0, 0, NULL, "FILE",
	  "also write the gnuplot script that draws the image to FILE, to edit and run again" },
	{ "help", 'h', OPT_FLAG, 0, NULL, 0, 0, NULL, NULL, "this help" },
	{ NULL },
};

static int plot_help(void)
{
	printf("Usage: bpfbench plot FILE.json -o OUT.svg|OUT.png [--x PARAM] "
	       "[--metric NAME[,NAME...]] [--cdf] [--script FILE]\n\n"
	       "Mean ± stddev of metrics against an option or a field of the metrics' keys,\n"
	       "one curve per benchmark, metric, other key fields and configuration, drawn by\n"
	       "gnuplot. The title gives the run conditions and the options every curve shares.\n\n"
	       "Options:\n");
	opts_print_help(plot_opts, NULL);
	return 0;
}

int plot_cmd(int argc, char **argv)
{
	struct plot_args a = { 0 };
	struct res_doc doc = { 0 };
	struct plot_fig fig = { .a = &a, .doc = &doc };
	int ret, n;

	for (ret = 1; ret < argc; ret++)
		if (!strcmp(argv[ret], "--help") || !strcmp(argv[ret], "-h"))
			return plot_help();
	ret = parse_args(argc, argv, &a);
	if (!ret)
		ret = resdoc_load(a.in, &doc);
	if (!ret && !a.cdf)
		ret = pick_axes(&a, &doc);
	if (!ret)
		ret = a.cdf ? plot_collect_cdf(&fig) : collect(&fig);
	if (!ret)
		ret = assign_axes(&fig);
	if (!ret)
		ret = plot_draw(&fig);
	if (!ret) {
		n = plot_count(&fig);
		printf("%s: %d curve%s, %d point%s\n", a.out, fig.nr_curves,
		       fig.nr_curves == 1 ? "" : "s", n, n == 1 ? "" : "s");
	}
	fig_free(&fig);
	free(a.metric_list);
	resdoc_free(&doc);
	return ret;
}
