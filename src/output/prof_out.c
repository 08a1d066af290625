// SPDX-License-Identifier: GPL-2.0
/* A profile's top table, JSON and folded file (flame.h); its SVG is flame.c's. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "bench.h"
#include "flame.h"
#include "formats.h"
#include "outfile.h"
#include "util.h"

/* The run's first rate in ops/s and its multiplier to ops/s; -1: none. */
static int first_rate(const struct run_result *res, double *mult)
{
	static const struct { const char *unit; double mult; } units[] = {
		{ "ops/s", 1 }, { "k ops/s", 1e3 }, { "M ops/s", 1e6 }, { "G ops/s", 1e9 },
	};
	size_t u;
	int i;

	for (i = 0; i < res->nr_metrics && res->st; i++) {
		if (res->metrics[i].kind != METRIC_RATE)
			continue;
		for (u = 0; u < ARRAY_SIZE(units); u++) {
			if (strcmp(res->metrics[i].unit, units[u].unit))
				continue;
			*mult = units[u].mult;
			return i;
		}
	}
	return -1;
}

double prof_ns_per_op(const struct run_result *res)
{
	double mult, v;
	int i = first_rate(res, &mult);

	if (i < 0)
		return NAN;
	v = res_shown_mean(res, i) * mult;
	return v > 0 ? 1e9 / v : NAN;
}

void prof_ns_basis(const struct run_result *res, char *buf, size_t len)
{
	double mult;
	int i = first_rate(res, &mult);

	if (i < 0)
		snprintf(buf, len, "the run's time per op");
	else
		snprintf(buf, len, "the wall time of an op, 1 / %s %.3f %s", res->metrics[i].name,
			 res_shown_mean(res, i), res->metrics[i].unit);
}

double run_ops(const struct run_result *res)
{
	double ns = prof_ns_per_op(res);

	return isnan(ns) ? NAN : res->wall_ns / ns;
}

static double per_op(const struct counters *c, int i, double ops)
{
	return ops > 0 ? c->count[i] / ops : NAN;
}

void counters_lines(FILE *out, const struct run_result *res)
{
	const struct counters *c = &res->counters;
	double ops = run_ops(res);

	if (!c->valid) {
		fprintf(out, "Counters: none: %s\n", c->why);
		return;
	}
	fprintf(out, "Counters: %.3f task-clock ns/op, %.3g context switches/op (%.4g ops in "
		"%.3f s measured)\n", per_op(c, CNT_TASK_CLOCK, ops),
		per_op(c, CNT_CTX_SWITCHES, ops), ops, res->wall_ns / 1e9);
	if (!c->pmu) {
		char line[512];

		/* the reason is the kernel's: its words go on under the line past 120 columns */
		snprintf(line, sizeof(line), "Counters: cycles, instructions, IPC, cache and branch "
			 "misses per op skipped: %s", c->why);
		wrap_words(out, 0, 2, 120, NULL, line);
		return;
	}
	fprintf(out, "Counters: %.3f cycles/op, %.3f instructions/op, IPC %.3f, %.4f cache "
		"misses/op, %.4f branch misses/op\n", per_op(c, CNT_CYCLES, ops),
		per_op(c, CNT_INSTRUCTIONS, ops),
		c->count[CNT_CYCLES] ? (double)c->count[CNT_INSTRUCTIONS] / c->count[CNT_CYCLES] :
		NAN, per_op(c, CNT_CACHE_MISSES, ops), per_op(c, CNT_BRANCH_MISSES, ops));
}

void counters_json(struct jsonw *w, const struct run_result *res)
{
	const struct counters *c = &res->counters;
	int i, n = c->pmu ? CNT__COUNT : CNT_FIRST_HW;
	double ops = run_ops(res);

	jsonw_key(w, "counters");
	jsonw_obj_open(w);
	jsonw_kbool(w, "valid", c->valid);
	jsonw_kbool(w, "pmu", c->pmu);
	if (!c->valid || !c->pmu)
		jsonw_kstr(w, "why", c->why);
	jsonw_kdouble(w, "ops", ops);
	jsonw_key(w, "counts");
	jsonw_obj_open(w);
	for (i = 0; i < n && c->valid; i++)
		jsonw_ku64(w, counter_names[i], c->count[i]);
	jsonw_obj_close(w);
	jsonw_key(w, "per_op");
	jsonw_obj_open(w);
	for (i = 0; i < n && c->valid; i++)
		jsonw_kdouble(w, counter_names[i], per_op(c, i, ops));
	jsonw_obj_close(w);
	jsonw_obj_close(w);
}

/*
 * Whether the title names option i: not one that changes nothing of the
 * measurement, nor -w and -d (said first), nor --profile (a profile's
 * title goes without it), nor one at its default.
 */
static bool in_title(const struct run_result *res, int i)
{
	const struct opt_def *d = res->opts[i].def;

	if (d->flags & OPT_F_NO_MEASURE || opts_at_default(d, res_opt_args(res, i)))
		return false;
	return !res->opts[i].global || (d->off != OPT_OFF(struct run_opts, warmup_ms) &&
					d->off != OPT_OFF(struct run_opts, duration_ms) &&
					d->off != OPT_OFF(struct run_opts, profile));
}

void prof_run_title(const struct run_result *res, char *buf, size_t len)
{
	const struct run_opts *o = &res->spec.opts;
	const struct opt_def *d;
	char text[OPT_TEXT_MAX];
	size_t n = 0;
	int i;

	buf[0] = 0;
	bufcat(buf, len, &n, "bpfbench -w %g -d %g", o->warmup_ms / 1e3, o->duration_ms / 1e3);
	for (i = 0; i < res->nr_opts; i++) {
		d = res->opts[i].def;
		if (!in_title(res, i))
			continue;
		opts_format(d, res_opt_args(res, i), text, sizeof(text));
		if (d->type == OPT_FLAG)
			bufcat(buf, len, &n, " --%s", d->name);
		else
			bufcat(buf, len, &n, " --%s %s", d->name, text);
	}
	bufcat(buf, len, &n, " %s", res->bench->name);
}

void prof_conditions(const struct profile *p, char *buf, size_t len)
{
	snprintf(buf, len, "%s at %llu Hz on %d CPUs, %llu samples (%llu lost)", p->event,
		 (unsigned long long)p->freq, p->nr_cpus, (unsigned long long)p->samples,
		 (unsigned long long)p->lost);
}

static double share(uint64_t n, uint64_t of)
{
	return of ? (double)n / of : 0;
}

/*
 * A share of n samples is known to within 0.98 / sqrt(n) (a binomial
 * share's 95% half-width at its widest, p = 0.5): below 100 samples that
 * is more than 10 points, and the table says so.
 */
#define PROF_MIN_SAMPLES	100

static void ns_cell(char *buf, size_t len, double s, const struct prof_view *v)
{
	if (isnan(v->ns_per_op))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.3f", s * v->ns_per_op);
}

/* The functions below the top n in one row, and the total the column adds up to. */
static void rest_rows(FILE *out, const struct prof_view *v, int n)
{
	const struct profile *p = v->p;
	uint64_t shown = 0;
	char ns[32];
	int i;

	for (i = 0; i < p->nr_funcs && i < n; i++)
		shown += p->funcs[i].self;
	if (shown < p->samples) {	/* (functions further down with no self sample: none) */
		ns_cell(ns, sizeof(ns), share(p->samples - shown, p->samples), v);
		fprintf(out, "  %5.1f%% %6s %9s  (%d more function%s)\n",
			share(p->samples - shown, p->samples) * 100, "", ns, p->nr_funcs - i,
			p->nr_funcs - i == 1 ? "" : "s");
	}
	if (isnan(v->ns_per_op))
		return;
	fprintf(out, "  %5.1f%% %6s %9.3f  all: %s\n", 100.0, "", v->ns_per_op,
		v->basis ?: "the run's time per op");
}

static void few_samples(FILE *out, const struct profile *p)
{
	if (p->samples >= PROF_MIN_SAMPLES)
		return;
	fprintf(out, "Profile: only %llu sample%s: each share is known to within +-%.0f points "
		"(95%%); %d samples give +-10: sample longer or more often\n",
		(unsigned long long)p->samples, p->samples == 1 ? "" : "s",
		98 / sqrt((double)p->samples), PROF_MIN_SAMPLES);
}

void prof_top_lines(FILE *out, const struct prof_view *v, int n)
{
	const struct profile *p = v->p;
	char cond[160];
	int i;

	if (!p->valid) {
		fprintf(out, "Profile: none: %s\n", p->why);
		return;
	}
	prof_conditions(p, cond, sizeof(cond));
	if (!p->samples) {
		fprintf(out, "Profile: %s: nothing ran long enough on a CPU to be sampled\n", cond);
		return;
	}
	fprintf(out, "Profile: %s; the top functions by self samples:\n", cond);
	fprintf(out, "  %6s %6s %9s  %s\n", "self", "total", "ns/op", "function");
	for (i = 0; i < p->nr_funcs && i < n; i++) {
		const struct prof_func *f = &p->funcs[i];
		double s = share(f->self, p->samples);
		char ns[32];

		ns_cell(ns, sizeof(ns), s, v);
		fprintf(out, "  %5.1f%% %5.1f%% %9s  %s%s\n", s * 100,
			share(f->total, p->samples) * 100, ns, f->name, f->ours ? "  (ours)" : "");
	}
	rest_rows(out, v, n);
	few_samples(out, p);
}

/* The run's metric the Summary shows in ns/op: its first time or inverse in ns/op; -1: none. */
static int summary_ns_metric(const struct run_result *res)
{
	int i;

	for (i = 0; i < res->nr_metrics; i++)
		if ((res->metrics[i].kind == METRIC_TIME || res->metrics[i].kind == METRIC_INVERSE) &&
		    !strcmp(res->metrics[i].unit, "ns/op"))
			return i;
	return -1;
}

/*
 * Where the Summary's ns/op is not the table's total, why: the table's is
 * the wall time of an op (1 / the first rate), a per-producer latency is
 * that times the producers, a time measured inside the program is less.
 */
static void summary_relation(FILE *out, const struct run_result *res, double ns)
{
	int m = summary_ns_metric(res);
	const struct metric_def *d = m >= 0 ? &res->metrics[m] : NULL;
	double v = m >= 0 ? res_shown_mean(res, m) : NAN;

	if (!d || isnan(ns) || !(fabs(v - ns) > 5e-4 * fmax(fabs(v), fabs(ns))))
		return;
	if (d->kind == METRIC_INVERSE && d->per_producer && res->spec.opts.producers > 1)
		fprintf(out, "Profile: ns/op is of the run's whole rate; the Summary's %s, %.3f ns/op, "
			"is per producer (%llu producers)\n", d->name, v,
			(unsigned long long)res->spec.opts.producers);
	else if (d->kind == METRIC_TIME)
		fprintf(out, "Profile: ns/op is the wall time of an op; the Summary's %s, %.3f ns/op, "
			"is timed per op inside the program\n", d->name, v);
	else
		fprintf(out, "Profile: ns/op is the wall time of an op; the Summary's %s, %.3f ns/op, "
			"is %g / its %s\n", d->name, v, d->scale, res->metrics[d->base].name);
}

void prof_run_lines(FILE *out, const struct run_result *res)
{
	char basis[128];
	struct prof_view v = { &res->prof, NULL, prof_ns_per_op(res), basis };

	prof_ns_basis(res, basis, sizeof(basis));
	prof_top_lines(out, &v, PROF_TOP_HUMAN);
	if (res->prof.valid && res->prof.samples)
		summary_relation(out, res, v.ns_per_op);
}

void prof_json(struct jsonw *w, const struct prof_view *v)
{
	const struct profile *p = v->p;
	int i;

	jsonw_key(w, "profile");
	jsonw_obj_open(w);
	jsonw_kbool(w, "valid", p->valid);
	if (!p->valid)
		jsonw_kstr(w, "why", p->why);
	jsonw_kstr(w, "event", p->event);
	jsonw_ku64(w, "frequency", p->freq);
	jsonw_ki64(w, "cpus", p->nr_cpus);
	jsonw_ku64(w, "samples", p->samples);
	jsonw_ku64(w, "lost", p->lost);
	jsonw_ku64(w, "others", p->others);
	jsonw_kdouble(w, "ns_per_op", v->ns_per_op);
	jsonw_key(w, "top");
	jsonw_arr_open(w);
	for (i = 0; i < p->nr_funcs && i < PROF_TOP_JSON; i++) {
		const struct prof_func *f = &p->funcs[i];

		jsonw_obj_open(w);
		jsonw_kstr(w, "function", f->name);
		jsonw_ku64(w, "self", f->self);
		jsonw_ku64(w, "total", f->total);
		jsonw_kdouble(w, "self_share", share(f->self, p->samples));
		jsonw_kdouble(w, "total_share", share(f->total, p->samples));
		jsonw_kdouble(w, "ns_per_op", share(f->self, p->samples) * v->ns_per_op);
		jsonw_kbool(w, "ours", f->ours);
		jsonw_obj_close(w);
	}
	jsonw_arr_close(w);
	jsonw_obj_close(w);
}

/*
 * The header lines end in no " NUMBER": flamegraph.pl, inferno and
 * speedscope take a line "TEXT NUMBER" for a stack, and skip the rest.
 */
void prof_write_folded(FILE *f, void *arg)
{
	const struct prof_view *v = arg;
	const struct profile *p = v->p;
	char cond[160], title[2048];
	int i;

	prof_conditions(p, cond, sizeof(cond));
	/* a command's argument with a newline would start a line a reader takes for a stack */
	fprintf(f, "# %s: %s:\n", text_escape(v->title, title, sizeof(title)), cond);
	if (!isnan(v->ns_per_op))
		fprintf(f, "# ns_per_op=%.6g\n", v->ns_per_op);
	for (i = 0; i < p->nr_ours; i++)
		fprintf(f, "# ours=%s\n", p->ours[i]);
	for (i = 0; i < p->nr_stacks; i++)
		fprintf(f, "%s %llu\n", p->stacks[i].folded, (unsigned long long)p->stacks[i].count);
}

void folded_write(FILE *f, const struct out_doc *d)
{
	prof_write_folded(f, (void *)d->prof);
}

void flame_write(FILE *f, const struct out_doc *d)
{
	prof_write_svg(f, (void *)d->prof);
}

int prof_write_view(const struct prof_view *v, const char *const *paths)
{
	struct out_doc d = { .kind = OUT_K_PROFILE, .prof = v };

	return out_write(paths, &d);
}

int prof_write_files(const struct run_result *res)
{
	char title[512];
	struct prof_view v = { &res->prof, title, prof_ns_per_op(res) };

	if (!res->prof.valid)
		return 0;
	prof_run_title(res, title, sizeof(title));
	return prof_write_view(&v, res->spec.opts.out);
}
