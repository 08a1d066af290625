// SPDX-License-Identifier: GPL-2.0
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmp_print.h"
#include "util.h"

enum { COL_RUN, COL_METRIC, COL_UNIT, COL_OLD, COL_NEW, COL_CHANGE, COL_RATIO, COL_P, COL_PADJ,
       COL_PMW, COL_MDE, COL_BASIS, COL_VERDICT, NR_COLS };

#define CELL	64

static const char *const col_names[NR_COLS] = {
	"run", "metric", "unit", "old", "new", "change", "new/old [95% CI]", "p Welch", "p adj",
	"p MW", "MDE", "basis", "verdict",
};

static const char *const adjust_names[] = {
	[STATS_ADJUST_HOLM] = "Holm (family-wise error)",
	[STATS_ADJUST_BH] = "Benjamini-Hochberg (false discovery rate)",
	[STATS_ADJUST_NONE] = "nothing (--adjust none)",
};

void cmp_print_help(void)
{
	printf("Usage: bpfbench compare OLD.json NEW.json [--fail-on-regression PCT] [--noise PCT]\n"
	       "       [--alpha A] [--adjust holm|bh|none] [--match OPT,...|--ignore-option OPT,...]\n\n"
	       "Per matching run and metric: old and new figures, the change, new/old with its\n"
	       "95%% CI, Welch's and Mann-Whitney's p, the minimal detectable effect, a verdict.\n"
	       "Metrics pair by name and key, shown as name{key}; units must agree.\n"
	       "--fail-on-regression PCT   exit 1 if a slower/worse verdict changes more than PCT%%\n"
	       "--noise PCT                equal within +-PCT%%, default %g\n"
	       "--alpha A                  significance level after adjustment, default 0.05\n"
	       "--adjust M                 across the rows: holm (default), bh, none\n"
	       "--match OPT,...            runs match on the benchmark and these parts only\n"
	       "--ignore-option OPT,...    runs match ignoring these parts\n"
	       "Parts: bench, suite, section, label and any recorded option.\n\n"
	       "Exit status: 0, 1 regression (or nothing matched), 2 bad usage or input.\n",
	       CMP_NOISE_PCT);
}

/* Fields every run has its own of: not a difference in the conditions. */
static bool env_always_differs(const char *key)
{
	return !strcmp(key, "date");
}

static void env_line(const char *key, const char *ov, const char *nv, int *count)
{
	if (env_always_differs(key) || (ov && nv && !strcmp(ov, nv)))
		return;
	if (!(*count)++)
		printf("Environment: the files differ in\n");
	printf("  %-28s %s -> %s\n", key, ov ?: "(absent)", nv ?: "(absent)");
}

/* First, what decides a figure and differs between the files (the date aside). */
static void print_env_diff(const struct res_doc *old, const struct res_doc *new)
{
	int i, count = 0;

	for (i = 0; i < old->env.n; i++)
		env_line(old->env.key[i], old->env.value[i],
			 resenv_get(&new->env, old->env.key[i]), &count);
	for (i = 0; i < new->env.n; i++)
		if (!resenv_get(&old->env, new->env.key[i]))
			env_line(new->env.key[i], NULL, new->env.value[i], &count);
	printf(count ? "\n" : "Environment: the same in both files (the date aside)\n\n");
}

void cmp_print_header(const struct cmp_opts *o, const struct res_doc *old,
		      const struct res_doc *new, int family)
{
	printf("OLD %s (kernel %s, %s)\nNEW %s (kernel %s, %s)\n", old->path,
	       old->kernel ?: "?", old->date ?: "?", new->path, new->kernel ?: "?", new->date ?: "?");
	print_env_diff(old, new);
	printf("Tests: rates, times and ratios by Welch's t and Mann-Whitney's U, two-sided, on run\n"
	       "  means when both sides have >= %d runs, else on batch means of the samples\n"
	       "  (floor(sqrt(n)), fewer if correlated); p adjusted over %d rows by %s\n"
	       "  (a row too short to test counts as p = 1); significant when adjusted p < %g.\n",
	       CMP_MIN_RUNS, family,
	       adjust_names[o->adjust], o->alpha);
	printf("Verdicts: equal when the 95%% CI of new/old lies within +-%g%% (--noise); else\n"
	       "  faster/slower (better/worse) when significant; else inconclusive.  Levels, peaks\n"
	       "  and counts: no significance test, a change beyond +-%g%% (and beyond the\n"
	       "  measurement's resolution, where it has one) only.  A derived metric takes its\n"
	       "  base's verdict.  MDE: the change detectable at %.0f%% power.\n\n",
	       o->noise * 100, o->noise * 100, CMP_POWER * 100);
}

static void fmt_p(char *buf, double p, bool tested)
{
	if (!tested)
		snprintf(buf, CELL - 2, "-");
	else if (p < 1e-4)
		snprintf(buf, CELL - 2, "<0.0001");
	else
		snprintf(buf, CELL - 2, "%.4f", p);
}

static void fmt_fig(char *buf, double fig, double sd, bool spread)
{
	if (spread)
		snprintf(buf, CELL, "%.6g ± %.3g", fig, sd);
	else
		snprintf(buf, CELL, "%.6g", fig);
}

/* Ratios near 1 in fixed point, so that 0.9 and 0.9123 line up; others as they come. */
static int fmt_x(char *buf, size_t len, double x)
{
	return snprintf(buf, len, x >= 0.01 && x < 100 ? "%.4f" : "%.4g", x);
}

static void fmt_ratio(char *buf, const struct cmp_row *r)
{
	int len = r->has_ratio ? fmt_x(buf, CELL, r->ratio) : snprintf(buf, CELL, "-");

	if (!r->has_ci)
		return;
	len += snprintf(buf + len, CELL - len, " [");
	len += fmt_x(buf + len, CELL - len, r->lo);
	len += snprintf(buf + len, CELL - len, ", ");
	len += fmt_x(buf + len, CELL - len, r->hi);
	snprintf(buf + len, CELL - len, "]");
}

static void fmt_basis(char *buf, const struct cmp_row *r)
{
	switch (r->basis) {
	case BASIS_RUNS:
		snprintf(buf, CELL, "%d/%d runs", r->ounits, r->nunits);
		break;
	case BASIS_BATCHES:
		snprintf(buf, CELL, "%d/%d batches%s", r->ounits, r->nunits,
			 r->one_process ? ", 1 process" : "");
		break;
	case BASIS_FEW:
		snprintf(buf, CELL, "n %d/%d, no test", r->om->nr_values, r->nm->nr_values);
		break;
	case BASIS_ZERO:
		snprintf(buf, CELL, "all 0");
		break;
	case BASIS_NOISE:
		snprintf(buf, CELL, "%s, no test", r->kind == RES_PEAK ? "peak" : "level");
		break;
	case BASIS_EXACT:
		snprintf(buf, CELL, "count, no test");
		break;
	default:
		snprintf(buf, CELL, "as %.40s", r->nm->of);
	}
}

static void fmt_change(char *buf, const struct cmp_row *r)
{
	if (r->from_zero)
		snprintf(buf, CELL, "from 0");
	else if (isnan(r->change_pct))
		snprintf(buf, CELL, "0");
	else
		snprintf(buf, CELL, "%+.2f%%", r->change_pct);
}

static void fmt_mde(char *buf, const struct cmp_row *r)
{
	if (!isnan(r->mde_pct))
		snprintf(buf, CELL, "%.2f%%", r->mde_pct);
	else if (!isnan(r->mde_abs))
		snprintf(buf, CELL, "%.3g", r->mde_abs);
	else
		snprintf(buf, CELL, "-");
}

static void cells(const struct cmp_row *r, char (*c)[CELL])
{
	snprintf(c[COL_METRIC], CELL, "%s", "");	/* names are printed from the row, never cut */
	snprintf(c[COL_UNIT], CELL, "%s", "");
	fmt_fig(c[COL_OLD], r->ofig, r->om->stddev, r->spread);
	fmt_fig(c[COL_NEW], r->nfig, r->nm->stddev, r->spread);
	fmt_change(c[COL_CHANGE], r);
	fmt_ratio(c[COL_RATIO], r);
	fmt_p(c[COL_P], r->p, r->tested);
	fmt_p(c[COL_PADJ], r->p_adj, r->tested);
	fmt_p(c[COL_PMW], r->p_mw, r->tested);
	fmt_mde(c[COL_MDE], r);
	fmt_basis(c[COL_BASIS], r);
	snprintf(c[COL_VERDICT], CELL, "%s", cmp_class_text(r));
}

/* The text of column k of row r: the long ones straight from the row. */
static const char *cell(const struct cmp_row *r, char (*c)[CELL], int k)
{
	if (k == COL_RUN)
		return r->run;
	if (k == COL_METRIC)
		return r->nm->id;	/* name{key}: the key says which row of a family's table */
	if (k == COL_UNIT)
		return r->nm->unit;
	return c[k];
}

/* Display width: the bytes of a string less UTF-8 continuation bytes ("±", "µs"). */
static int width(const char *s)
{
	int w = 0;

	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

static void print_cell(const char *s, int w, bool last)
{
	fputs(s, stdout);
	if (!last)
		printf("%*s", w - width(s) + 2, "");
}

static void regression(const struct cmp_row *r, const struct cmp_opts *o)
{
	char why[CELL];

	if (r->tested) {
		strcpy(why, "p ");
		fmt_p(why + 2, r->p_adj, true);
	} else {
		fmt_basis(why, r);
	}
	if (r->from_zero)
		errmsg("regression: %s %s from 0 to %g %s (limit %g%%, %s)", r->run, r->nm->id,
		       r->nfig, r->nm->unit, o->fail_pct, why);
	else
		errmsg("regression: %s %s %+.2f%% (limit %g%%, %s)", r->run, r->nm->id,
		       r->change_pct, o->fail_pct, why);
}

void cmp_print_table(const struct cmp_table *t, const struct cmp_opts *o, struct cmp_tally *tally)
{
	char (*c)[NR_COLS][CELL] = xcalloc(t->n ?: 1, sizeof(*c));
	int w[NR_COLS], i, k;

	for (k = 0; k < NR_COLS; k++)
		w[k] = width(col_names[k]);
	for (i = 0; i < t->n; i++) {
		cells(&t->rows[i], c[i]);
		for (k = 0; k < NR_COLS; k++)
			if (width(cell(&t->rows[i], c[i], k)) > w[k])
				w[k] = width(cell(&t->rows[i], c[i], k));
	}
	for (k = 0; k < NR_COLS; k++)
		print_cell(col_names[k], w[k], k == NR_COLS - 1);
	putchar('\n');
	for (i = 0; i < t->n; i++) {
		for (k = 0; k < NR_COLS; k++)
			print_cell(cell(&t->rows[i], c[i], k), w[k], k == NR_COLS - 1);
		putchar('\n');
		tally->cls[t->rows[i].cls]++;
		tally->one_process += t->rows[i].one_process;
		if (cmp_row_regression(&t->rows[i], o)) {
			tally->regressions++;
			regression(&t->rows[i], o);
		}
	}
	free(c);
}

void cmp_print_summary(const struct cmp_table *t, const struct cmp_opts *o,
		       const struct cmp_tally *tally)
{
	printf("\nSummary: %d faster/better, %d slower/worse, %d equal, %d inconclusive, "
	       "%d higher/lower; %d runs failed, %d only in OLD, %d only in NEW.\n",
	       tally->cls[CLS_GOOD], tally->cls[CLS_BAD], tally->cls[CLS_EQUAL],
	       tally->cls[CLS_INCONCLUSIVE], tally->cls[CLS_UP] + tally->cls[CLS_DOWN],
	       tally->failed, tally->only_old, tally->only_new);
	if (tally->one_process)
		printf("Note: %d of %d verdicts rest on one process a side (batch means of its "
		       "samples);\n  run both sides with -r %d or more for verdicts on run means.\n",
		       tally->one_process, t->n, CMP_MIN_RUNS);
	if (o->fail_pct >= 0)
		printf("Gate: --fail-on-regression %g%%: %d regression%s.\n", o->fail_pct,
		       tally->regressions, tally->regressions == 1 ? "" : "s");
}
