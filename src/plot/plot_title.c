// SPDX-License-Identifier: GPL-2.0
/*
 * plot's title: what and when on the first line; below, where (kernel,
 * CPU) and under which run conditions (-w/-d/-p/-c/-r, samples a point),
 * then the configuration every curve shares (map type and shape, batch
 * counts, options away from their defaults): a figure mailed alone says
 * what it measured.  What sets curves apart is in their own titles.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "bench.h"
#include "gnuplot.h"
#include "plot_int.h"
#include "util.h"

/* Benchmarks named in the title; more are counted. */
#define PLOT_TITLE_BENCHS	4
/* The configuration line's options end here, the rest counted: it stays inside the figure. */
#define PLOT_CONFIG_COLS	110

/* Benchmarks in order of appearance: the first few by name, the rest counted. */
static void bench_names(const struct plot_fig *fig, char *buf, size_t size, size_t *len)
{
	int i, j, n = 0;

	for (i = 0; i < fig->nr_runs; i++) {
		for (j = 0; j < i && strcmp(fig->runs[j]->bench, fig->runs[i]->bench); j++)
			;
		if (j < i)
			continue;
		if (n++ < PLOT_TITLE_BENCHS)
			bufcat(buf, size, len, "%s%s", n > 1 ? ", " : "", fig->runs[i]->bench);
	}
	if (n > PLOT_TITLE_BENCHS)
		bufcat(buf, size, len, " and %d more", n - PLOT_TITLE_BENCHS);
}

static bool is_x(const struct plot_fig *fig, const char *name)
{
	return fig->a->x && plot_same_name(fig->a->x, name);
}

/*
 * " -p 1" or " -p 1-8" over the runs drawn (absent options left out),
 * appended; -c only where a run had consumers (rb-*, pb-*: -c 1).
 */
static void opt_span(const struct plot_fig *fig, const char *name, const char *flag, char *buf,
		     size_t size, size_t *len)
{
	double lo = INFINITY, hi = -INFINITY, v;
	int i;

	if (is_x(fig, name))
		return;	/* it is the x axis */
	for (i = 0; i < fig->nr_runs; i++) {
		if (!res_opt_number(res_run_opt(fig->runs[i], name), &v))
			continue;
		lo = fmin(lo, v);
		hi = fmax(hi, v);
	}
	if (!isfinite(lo) || (!strcmp(flag, "-c") && !hi))
		return;	/* none recorded, or no consumer: nothing to say */
	if (lo == hi)
		bufcat(buf, size, len, "%s%s %g", *len ? " " : "", flag, lo);
	else
		bufcat(buf, size, len, "%s%s %g-%g", *len ? " " : "", flag, lo, hi);
}

/* The samples behind each point: "n = 5" or "n = 1-5", per point, appended. */
static void samples_span(const struct plot_fig *fig, char *buf, size_t size, size_t *len)
{
	int i, j, lo = INT32_MAX, hi = 0;

	for (i = 0; i < fig->nr_curves; i++)
		for (j = 0; j < fig->curves[i].n; j++) {
			lo = fig->curves[i].pts[j].n < lo ? fig->curves[i].pts[j].n : lo;
			hi = fig->curves[i].pts[j].n > hi ? fig->curves[i].pts[j].n : hi;
		}
	if (hi && lo == hi)
		bufcat(buf, size, len, ", n = %d sample%s a point", lo, lo == 1 ? "" : "s");
	else if (hi)
		bufcat(buf, size, len, ", n = %d-%d samples a point", lo, hi);
}

/*
 * Whether run r's benchmark says its option of this name defines the map
 * or the work a program run does (OPT_F_DEFINES: a map's type and shape,
 * a batch): named even at its default, where any other option is named
 * only away from it.
 */
static bool defining(const struct res_run *r, const char *name)
{
	const struct bench *b = bench_find(r->bench);
	const struct opt_def *o = b ? opts_find(b->opts, name) : NULL;

	return o && o->flags & OPT_F_DEFINES;
}

static bool listed(const char *const *list, const char *name)
{
	for (; *list; list++)
		if (plot_same_name(*list, name))
			return true;
	return false;
}

/*
 * The value every run drawn has for option i of the first run, NULL
 * when they differ (the curves' titles say it), it is absent or null,
 * or it is not worth a word: at its default and not a defining option,
 * or a defining one at a default of 0 (htab-mem's max_entries: sized
 * by the benchmark).
 */
static const char *shared_value(const struct plot_fig *fig, int i)
{
	const struct res_run *r = fig->runs[0];
	const char *name = r->opt_name[i], *v;
	int k;

	for (k = 0; k < i; k++)
		if (plot_same_name(r->opt_name[k], name))
			return NULL;	/* said once, under its first spelling */
	v = res_run_opt(r, name);
	if (!v || !strcmp(v, "null") || (!res_run_mopt(r, name) &&
					  (!defining(r, name) || !strcmp(v, "0"))))
		return NULL;
	for (k = 1; k < fig->nr_runs; k++)
		if (!res_run_opt(fig->runs[k], name) || strcmp(res_run_opt(fig->runs[k], name), v))
			return NULL;
	return v;
}

/* "map_type=lru_hash key_size=4 ...": what every curve shares, said as plot_run_title() does. */
static void config_line(const struct plot_fig *fig, char *buf, size_t size)
{
	static const char *const skip[] = { "producers", "consumers", NULL };	/* -p, -c */
	const struct res_run *r = fig->nr_runs ? fig->runs[0] : NULL;
	size_t len = 0, vlen;
	int i, more = 0;
	const char *v;

	buf[0] = 0;
	for (i = 0; fig->nr_runs && i < r->nr_opts; i++) {
		if (is_x(fig, r->opt_name[i]) || listed(skip, r->opt_name[i]) ||
		    (fig->a->cdf && plot_same_name(r->opt_name[i], "latency")))
			continue;	/* a CDF is of --latency's histograms */
		v = shared_value(fig, i);
		if (!v)
			continue;
		vlen = strlen(v);
		if (vlen >= 2 && v[0] == '"' && v[vlen - 1] == '"') {	/* a string: unquoted */
			v++;
			vlen -= 2;
		}
		if (more || len + strlen(r->opt_name[i]) + vlen + 2 > PLOT_CONFIG_COLS) {
			more++;
			continue;
		}
		bufcat(buf, size, &len, "%s%s=%.*s", len ? " " : "", r->opt_name[i], (int)vlen, v);
	}
	if (more)
		bufcat(buf, size, &len, " and %d more option%s", more, more == 1 ? "" : "s");
}

/* One more line of the title: gnuplot joins strings, and "\n" is a newline in double quotes. */
static void title_line(FILE *f, const char *text)
{
	fputs(".\"\\n\".", f);
	gnuplot_str(f, text);
}

void plot_write_title(FILE *f, const struct plot_fig *fig)
{
	const char *cpu = resenv_get(&fig->doc->env, "cpu_model");
	const char *ncpu = resenv_get(&fig->doc->env, "online_cpus");
	char text[512] = "", sub[512] = "", cond[192] = "", config[256], date[11] = "";
	size_t len = 0, n = 0, c = 0;

	bench_names(fig, text, 300, &len);	/* room left for the date */
	if (fig->doc->date)	/* the day: the time of a run says nothing a reader needs */
		snprintf(date, sizeof(date), "%s", fig->doc->date);
	bufcat(text, sizeof(text), &len, " — %s", *date ? date : "undated");
	opt_span(fig, "warmup", "-w", cond, sizeof(cond), &c);
	opt_span(fig, "duration", "-d", cond, sizeof(cond), &c);
	opt_span(fig, "producers", "-p", cond, sizeof(cond), &c);
	opt_span(fig, "consumers", "-c", cond, sizeof(cond), &c);
	opt_span(fig, "runs", "-r", cond, sizeof(cond), &c);
	/* env's strings are as long as a file makes them: every append is bounded */
	bufcat(sub, sizeof(sub), &n, "kernel %s, %s%s%s%s", fig->doc->kernel ?: "unknown",
	       cpu && *cpu ? cpu : "unknown CPU", ncpu ? " (" : "", ncpu ?: "",
	       ncpu ? " CPUs)" : "");
	if (*cond)
		bufcat(sub, sizeof(sub), &n, ", %s", cond);
	samples_span(fig, sub, sizeof(sub), &n);
	config_line(fig, config, sizeof(config));
	fputs("set title ", f);
	gnuplot_str(f, text);
	title_line(f, sub);
	if (*config)
		title_line(f, config);
	fputc('\n', f);
}
