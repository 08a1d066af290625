// SPDX-License-Identifier: GPL-2.0
/*
 * plot --cdf: the cumulative distribution of each per-op histogram a run
 * recorded (runs[].histograms.NAME.bins = [[lo, hi, count], ...]), one
 * step curve per run and histogram on a log ns axis.  resdoc has already
 * checked the file; the histograms are read here, where they are used.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <json-c/json.h>
#include "opts.h"
#include "plot_int.h"
#include "util.h"

static json_object *run_hists(json_object *runs, int i)
{
	json_object *run = json_object_array_get_idx(runs, i), *h;

	if (!json_object_object_get_ex(run, "histograms", &h) ||
	    !json_object_is_type(h, json_type_object) || !json_object_object_length(h))
		return NULL;
	return h;
}

static bool bin_of(json_object *b, double v[3])
{
	json_object *e;
	int k;

	if (!json_object_is_type(b, json_type_array) || json_object_array_length(b) != 3)
		return false;
	for (k = 0; k < 3; k++) {
		e = json_object_array_get_idx(b, k);
		if (!json_object_is_type(e, json_type_int) &&
		    !json_object_is_type(e, json_type_double))
			return false;
		v[k] = json_object_get_double(e);
		if (!isfinite(v[k]) || v[k] < 0)
			return false;
	}
	return v[0] <= v[1];
}

/*
 * The p-quantile of bins holding total ops, as hist_quantile() reads a
 * run's own bins (src/stats/hist.c), so that the marks say what the
 * run's Latency line said: the smallest value with at least p * total
 * ops at or below it, interpolated linearly inside its bin, never past
 * the recorded maximum.
 */
static double bins_quantile(json_object *h, json_object *bins, double total, double p)
{
	double v[3], rank = p * total, before = 0, q = 0, max;
	size_t i, n = json_object_array_length(bins);
	json_object *m;

	for (i = 0; i < n; i++) {
		bin_of(json_object_array_get_idx(bins, i), v);
		if (!v[2])
			continue;
		q = v[1];
		if (before + v[2] >= rank) {
			q = v[0] + (v[1] - v[0]) * (rank - before) / v[2];
			break;
		}
		before += v[2];
	}
	if (json_object_object_get_ex(h, "max", &m) && (json_object_is_type(m, json_type_int) ||
							  json_object_is_type(m, json_type_double))) {
		max = json_object_get_double(m);
		q = isfinite(max) && max > 0 && q > max ? max : q;
	}
	return q;
}

/* Bins in order of lo, each point at a bin's upper edge; p50 and p99 kept for their marks. */
static int add_cdf(struct plot_fig *fig, struct plot_curve *c, json_object *h, json_object *bins,
		   const char *what)
{
	size_t i, n = json_object_array_length(bins);
	double v[3], total = 0, sum = 0, prev = -1;
	struct plot_pt p = { .numeric = true };

	for (i = 0; i < n; i++) {
		if (!bin_of(json_object_array_get_idx(bins, i), v) || v[0] < prev) {
			errmsg("plot: %s: %s: bin %zu is not [lo, hi, count] in order",
			       fig->doc->path, what, i);
			return EXIT_USAGE;
		}
		prev = v[0];
		total += v[2];
	}
	for (i = 0; i < n && total > 0; i++) {
		bin_of(json_object_array_get_idx(bins, i), v);
		if (!i && v[0] > 0) {	/* the step up starts at the first bin's lower edge */
			p.x = v[0];
			plot_add(c, &p);
		}
		sum += v[2];
		p.x = v[1] > 0 ? v[1] : 1e-3;	/* log axis: [0, hi) counts at hi */
		p.y = sum / total;
		plot_add(c, &p);
	}
	if (total > 0) {	/* on a log axis: a percentile of 0 at the curve's first point */
		c->p50 = fmax(bins_quantile(h, bins, total, 0.50), c->pts[0].x);
		c->p99 = fmax(bins_quantile(h, bins, total, 0.99), c->pts[0].x);
	}
	return 0;
}

static int run_curves(struct plot_fig *fig, const struct res_run *r, json_object *hists)
{
	char title[PLOT_TITLE_MAX];
	json_object *bins;
	struct plot_curve *c;
	size_t len;
	int ret;

	plot_run_title(fig, r, title, sizeof(title));
	len = strlen(title);
	json_object_object_foreach(hists, name, h) {
		if (!json_object_object_get_ex(h, "bins", &bins) ||
		    !json_object_is_type(bins, json_type_array))
			continue;
		snprintf(title + len, sizeof(title) - len, " %s", name);
		c = plot_curve(fig, title);
		c->metric = name;
		c->unit = "share";
		ret = add_cdf(fig, c, h, bins, title);
		if (ret)
			return ret;
	}
	return 0;
}

static int cdf_of(struct plot_fig *fig, json_object *runs)
{
	const struct res_doc *doc = fig->doc;
	int i, ret = 0;

	fig->runs = xcalloc(doc->nr_runs ?: 1, sizeof(*fig->runs));
	for (i = 0; i < doc->nr_runs; i++)
		if (!doc->runs[i].status && run_hists(runs, i))
			fig->runs[fig->nr_runs++] = &doc->runs[i];
	for (i = 0; i < doc->nr_runs && !ret; i++)
		if (!doc->runs[i].status && run_hists(runs, i))
			ret = run_curves(fig, &doc->runs[i], run_hists(runs, i));
	return ret;
}

int plot_collect_cdf(struct plot_fig *fig)
{
	json_object *root, *runs;
	int ret, i, n;

	errno = 0;
	root = json_object_from_file(fig->doc->path);
	if (!root && errno == ENOMEM) {
		errmsg("plot: %s: out of memory reading its histograms", fig->doc->path);
		return 1;
	}
	if (!root || !json_object_object_get_ex(root, "runs", &runs) ||
	    (int)json_object_array_length(runs) != fig->doc->nr_runs) {
		errmsg("plot: %s: cannot read the runs again", fig->doc->path);
		json_object_put(root);
		return EXIT_USAGE;
	}
	ret = cdf_of(fig, runs);
	for (i = n = 0; i < fig->nr_curves; i++) {	/* a histogram without ops: no curve */
		if (fig->curves[i].n)
			fig->curves[n++] = fig->curves[i];
		else
			free(fig->curves[i].pts);
	}
	fig->nr_curves = n;
	if (!ret && !n) {
		errmsg("plot: no successful run in %s has a histogram with ops "
		       "(noop --latency records one)", fig->doc->path);
		ret = EXIT_USAGE;
	}
	fig->numeric = fig->logx = true;
	json_object_put(root);
	return ret;
}
