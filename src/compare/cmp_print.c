// SPDX-License-Identifier: GPL-2.0
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cmp_cli.h"
#include "cmp_print.h"
#include "figure.h"
#include "opts.h"
#include "out_formats.h"
#include "util.h"

enum { COL_RUN, COL_METRIC, COL_UNIT, COL_OLD, COL_NEW, COL_CHANGE, COL_RATIO, COL_P, COL_PADJ,
       COL_PMW, COL_MDE, COL_BASIS, COL_VERDICT, NR_COLS };

#define CELL	64

static bool verbose_table;	/* -v: every column */

static const char *const col_names[NR_COLS] = {
	"run", "metric", "unit", "old", "new", "change", "new/old [95% CI]", "p t", "p adj",
	"p rank", "MDE", "basis", "verdict",
};

/* The default table's columns; -v adds the run on each row, spreads, p-values, MDE, basis. */
static const bool compact_col[NR_COLS] = {
	[COL_METRIC] = true, [COL_UNIT] = true, [COL_OLD] = true, [COL_NEW] = true,
	[COL_CHANGE] = true, [COL_RATIO] = true, [COL_VERDICT] = true,
};

static const char *const adjust_names[] = {
	[STATS_ADJUST_HOLM] = "Holm (family-wise error)",
	[STATS_ADJUST_BH] = "Benjamini-Hochberg (false discovery rate)",
	[STATS_ADJUST_NONE] = "nothing (--adjust none)",
};

void cmp_print_help(void)
{
	printf("Usage: bpfbench compare OLD.json NEW.json [-q|-v] [--paired] [--normalized]\n"
	       "       [--fail-on-regression PCT] [--noise PCT] [--drift PCT] [--run-noise PCT]\n"
	       "       [--alpha A]"
	       " [--adjust holm|bh|none]\n"
	       "       [--match OPT,...|--ignore-option OPT,...] [--names OLD,NEW] [--json FILE]\n");
	out_print_usage(stdout, OUT_K_VERDICTS, "       ");
	printf("\n"
	       "First a line per matching run, one of: NEW is 1.35× faster/slower than OLD\n"
	       "(NEW/OLD × r [95%% CI]); equal (the CI inside ±--noise); cannot tell (the CI is\n"
	       "wider, and what would narrow it); no verdict (no test is valid, why, and what\n"
	       "would make one).  Then per metric old and new figures, the change, new/old with\n"
	       "its 95%% CI and the verdict.  Metrics pair by name and key, shown as name{key};\n"
	       "units must agree.\n\n"
	       "Options:\n");
	opts_print_help(compare_opts, NULL);
	opts_print_help(cmp_verdict_opts, NULL);
	printf("\nAn output to stdout has it alone: the lines above go to stderr.  The verdicts'\n"
	       "formats hold a case per row judged: failed as a regression beyond\n"
	       "--fail-on-regression, skipped where the gate could not judge (or no verdict\n"
	       "without a gate), else passed.\n"
	       "Exit status: 0, 1 regression, a failed or interrupted NEW run under\n"
	       "--fail-on-regression, or nothing matched; 2 bad usage or input; %d no\n"
	       "regression but rows the gate could not judge.\n", EXIT_UNJUDGED);
}

/* Fields every run has its own of: not a difference in the conditions. */
static bool env_always_differs(const char *key)
{
	return !strcmp(key, "date");
}

/* lead and a value from column 31, its overflow on lines of its own under it. */
static void env_value(const char *lead, const char *v)
{
	int room = 120 - 31 - (int)strlen(lead), n;

	printf("%s", lead);
	for (;;) {
		n = (int)strlen(v) <= room ? (int)strlen(v) : room;
		printf("%.*s\n", n, v);
		v += n;
		if (!*v)
			return;
		printf("%*s", 31 + (int)strlen(lead), "");
	}
}

static void env_line(const char *key, const char *ov, const char *nv, int *count)
{
	if (env_always_differs(key) || (ov && nv && !strcmp(ov, nv)))
		return;
	if (!(*count)++)
		printf("Environment: the files differ in\n");
	ov = ov ? shown_text(ov) : "(absent)";	/* a file's text, bounded and escaped */
	nv = nv ? shown_text(nv) : "(absent)";
	if (31 + strlen(ov) + 4 + strlen(nv) <= 120) {
		printf("  %-28s %s -> %s\n", key, ov, nv);
		return;
	}
	/* long values (a VM's description) one under the other, each within 120 columns */
	printf("  %-28s ", key);
	env_value("", ov);
	printf("  %-28s ", "");
	env_value("-> ", nv);
}

/* First, what decides a figure and differs between the files (the date aside). */
static void print_env_diff(const struct res_doc *old, const struct res_doc *new, bool brief)
{
	int i, count = 0;

	for (i = 0; i < old->env.n; i++)
		env_line(old->env.key[i], old->env.value[i],
			 resenv_get(&new->env, old->env.key[i]), &count);
	for (i = 0; i < new->env.n; i++)
		if (!resenv_get(&old->env, new->env.key[i]))
			env_line(new->env.key[i], NULL, new->env.value[i], &count);
	if (count)
		putchar('\n');
	else if (!brief)
		printf("Environment: the same in both files (the date aside)\n\n");
}

void cmp_print_header(const struct cmp_opts *o, const struct res_doc *old,
		      const struct res_doc *new, int family)
{
	if (o->verbosity <= 0) {
		print_env_diff(old, new, true);
		return;
	}
	printf("%s %s (kernel %s, %s)\n%s %s (kernel %s, %s)\n", o->old_name, old->path,
	       old->kernel ?: "?", old->date ?: "?", o->new_name, new->path, new->kernel ?: "?",
	       new->date ?: "?");
	print_env_diff(old, new, false);
	if (o->paired)
		printf("Tests: rates, times and ratios in pairs of runs side by side: Student's t on\n"
		       "  the mean log ratio of the pairs (the ratio shown is their geometric mean),\n"
		       "  Wilcoxon's signed-rank beside (p rank);");
	else
		printf("Tests: rates, times and ratios by Welch's t and Mann-Whitney's U (p rank), on\n"
		       "  run means when both sides have >= %d runs, else on batch means of the\n"
		       "  samples (floor(sqrt(n)), fewer if correlated), or on a short series'\n"
		       "  samples, their variance raised for a lag-1 correlation of >= %g; each\n"
		       "  side's noise raised by --drift %g%% (separate sessions), and where both\n"
		       "  are one run by --run-noise (%s);\n"
		       "  one run against >= 2 runs: Student's t of the one against their mean,\n"
		       "  its noise theirs;",
		       CMP_MIN_RUNS, CMP_SHORT_MIN_R, o->drift * 100,
		       o->run_noise >= 0 ? "given" : "not given: no verdict");
	printf(" two-sided;\n  p adjusted over %d rows by %s (a row too short to\n"
	       "  test counts as p = 1); significant when adjusted p < %g.\n",
	       family, adjust_names[o->adjust], o->alpha);
	printf("Verdicts: equal when the 95%% CI of %s/%s lies within +-%g%% (--noise, an\n"
	       "  equivalence test); else faster/slower (better/worse) when significant; else\n"
	       "  cannot tell.  No verdict where no test is valid: fewer than 2 values a side,\n"
	       "  < %g degrees of freedom (correlated samples), one side constant, or a CI\n"
	       "  wider than %g×.  Levels, peaks and counts: no test; a change beyond +-%g%%,\n"
	       "  cannot tell within the measurement's resolution.  A derived metric takes\n"
	       "  its base's verdict; counts of what a sample did (ops, runs) follow the rate\n"
	       "  and get none (-).  MDE: the change detectable at %.0f%% power.\n\n",
	       o->new_name, o->old_name, o->noise * 100, CMP_MIN_DF, CMP_MAX_SPAN, o->noise * 100,
	       CMP_POWER * 100);
}

static void fmt_p(char *buf, double p, bool tested)
{
	if (!tested || isnan(p))	/* no rank test beside (one run against runs) */
		snprintf(buf, CELL - 2, "-");
	else if (p < 1e-4)
		snprintf(buf, CELL - 2, "<0.0001");
	else
		snprintf(buf, CELL - 2, "%.4f", p);
}

/* With -v, "mean ± sd" by the tables' digits rule (figure.h). */
static void fmt_fig(char *buf, double fig, double sd, bool spread)
{
	if (!spread || !verbose_table || !figure_pm(buf, CELL, fig, sd))
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
	case BASIS_PAIRS:
		snprintf(buf, CELL, "%d pairs", r->ounits);
		break;
	case BASIS_SHORT:
		snprintf(buf, CELL, "%d/%d samples, 1 process", r->ounits, r->nunits);
		break;
	case BASIS_TALLY:
		snprintf(buf, CELL, "follows the rate");
		break;
	case BASIS_RUNS_ONE:
		snprintf(buf, CELL, "%d/%d runs, 1 vs spread", r->ounits, r->nunits);
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
		cmp_pct_text(buf, CELL, r->change_pct, 2);
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

const char *cmp_pct_text(char *buf, size_t len, double pct, int decimals)
{
	if (fabs(pct) < 1e5)
		snprintf(buf, len, "%+.*f%%", decimals, pct);
	else
		snprintf(buf, len, "%+.3g%%", pct);
	return buf;
}

static void print_cell(const char *s, int w, bool last)
{
	char shown[256];

	/* a metric's name or unit from a file: '?' for a control, as stderr shows it */
	snprintf(shown, sizeof(shown), "%s", s);
	fputs(text_mask(shown), stdout);
	if (!last)
		printf("%*s", w - text_width(s) + 2, "");
}

static void regression(const struct cmp_row *r, const struct cmp_opts *o)
{
	char why[CELL], pct[48];

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
		errmsg("regression: %s %s %s (limit %g%%, %s)", r->run, r->nm->id,
		       cmp_pct_text(pct, sizeof(pct), r->change_pct, 2), o->fail_pct, why);
}

static const char *header(int k, const struct cmp_opts *o, char *buf)
{
	if (k == COL_OLD)
		return o->old_name;
	if (k == COL_NEW)
		return o->new_name;
	if (k == COL_RATIO) {
		snprintf(buf, CELL, "%s/%s [95%% CI]", o->new_name, o->old_name);
		return buf;
	}
	return col_names[k];
}

static bool shown(int k)
{
	return verbose_table || compact_col[k];
}

static int last_col(void)
{
	return verbose_table ? NR_COLS - 1 : COL_VERDICT;
}

/* A row of the default table: the metric's own figures, not bookkeeping. */
static bool row_shown(const struct cmp_row *r)
{
	return verbose_table || r->basis != BASIS_TALLY;
}

static void print_line(const char *const *text, const int *w, const char *indent)
{
	int k;

	fputs(indent, stdout);
	for (k = 0; k < NR_COLS; k++)
		if (shown(k))
			print_cell(text[k], w[k], k == last_col());
	putchar('\n');
}

/*
 * The default table groups rows under their run's name, so that a long
 * name does not widen every row; -v keeps the name on each row (a line a
 * row, for grep) with every column.
 */
void cmp_print_table(const struct cmp_table *t, const struct cmp_opts *o)
{
	char (*c)[NR_COLS][CELL] = xcalloc(t->n ?: 1, sizeof(*c)), hb[NR_COLS][CELL];
	const char *text[NR_COLS], *indent = verbose_table ? "" : "  ";
	int w[NR_COLS], i, k;

	for (k = 0; k < NR_COLS; k++)
		w[k] = text_width(text[k] = header(k, o, hb[k]));
	for (i = 0; i < t->n; i++) {
		cells(&t->rows[i], c[i]);
		for (k = 0; k < NR_COLS; k++)
			if (row_shown(&t->rows[i]) && text_width(cell(&t->rows[i], c[i], k)) > w[k])
				w[k] = text_width(cell(&t->rows[i], c[i], k));
	}
	print_line(text, w, indent);
	for (i = 0; i < t->n; i++) {
		if (!row_shown(&t->rows[i]))
			continue;
		if (!verbose_table && (!i || t->rows[i].run != t->rows[i - 1].run))
			printf("%s\n", t->rows[i].run);
		for (k = 0; k < NR_COLS; k++)
			text[k] = cell(&t->rows[i], c[i], k);
		print_line(text, w, indent);
	}
	free(c);
}

bool cmp_row_unjudged(const struct cmp_row *row, const struct cmp_opts *o)
{
	double limit = o->fail_pct / 100;

	/* no direction: never a regression; derived: its base is the one gated */
	if (o->fail_pct < 0 || row->dir == DIR_NONE || row->basis == BASIS_BASE ||
	    row->outranked || (row->cls != CLS_NO_VERDICT && row->cls != CLS_CANNOT_TELL))
		return false;
	if (!row->has_ci || row->from_zero)
		return true;
	return row->dir == DIR_HIGHER ? row->lo < 1 - limit : row->hi > 1 + limit;
}

int cmp_gate_unjudged(const struct cmp_opts *o, const struct cmp_tally *tally)
{
	if (!tally->unjudged || o->unjudged_pass)
		return 0;
	errmsg("gate: %d row%s not judged (no verdict, or cannot tell whether worse beyond "
	       "%g%%): exit %d; --gate-unjudged pass lets %s pass", tally->unjudged,
	       tally->unjudged == 1 ? "" : "s", o->fail_pct, EXIT_UNJUDGED,
	       tally->unjudged == 1 ? "it" : "them");
	return EXIT_UNJUDGED;
}

void cmp_count(const struct cmp_table *t, const struct cmp_opts *o, struct cmp_tally *tally)
{
	int i;

	verbose_table = o->verbosity > 0;
	for (i = 0; i < t->n; i++) {
		tally->cls[t->rows[i].cls]++;
		tally->one_process += t->rows[i].one_process;
		tally->one_run += t->rows[i].why == WHY_ONE_RUN;
		if (cmp_row_regression(&t->rows[i], o)) {
			tally->regressions++;
			regression(&t->rows[i], o);
		}
		tally->unjudged += cmp_row_unjudged(&t->rows[i], o);
	}
}

void cmp_print_summary(const struct cmp_table *t, const struct cmp_opts *o,
		       const struct cmp_tally *tally)
{
	int rows = t->n - tally->cls[CLS_NONE];	/* the counts that follow a rate aside */

	printf("\nSummary: %d faster/better, %d slower/worse, %d equal, %d cannot tell, "
	       "%d no verdict, %d higher/lower;\n  %d runs failed, %d only in %s, %d only in %s.\n",
	       tally->cls[CLS_GOOD], tally->cls[CLS_BAD], tally->cls[CLS_EQUAL],
	       tally->cls[CLS_CANNOT_TELL], tally->cls[CLS_NO_VERDICT],
	       tally->cls[CLS_UP] + tally->cls[CLS_DOWN],
	       tally->failed, tally->only_old, o->old_name, tally->only_new, o->new_name);
	if (tally->one_run)
		printf("Note: %d of %d rows compare one run a side, whose samples do not show how far\n"
		       "  runs lie apart: no verdict.  Run -r %d or more a side (or on the baseline),\n"
		       "  use ab, or give that noise with --run-noise PCT.\n",
		       tally->one_run, rows, CMP_MIN_RUNS);
	else if (tally->one_process)
		printf("Note: %d of %d verdicts rest on one run a side (with --run-noise, or against\n"
		       "  the other side's runs); -r %d or more a side tests run means.\n",
		       tally->one_process, rows, CMP_MIN_RUNS);
	if (o->fail_pct < 0)
		return;
	printf("Gate: --fail-on-regression %g%%: %d regression%s, %d row%s not judged",
	       o->fail_pct, tally->regressions, tally->regressions == 1 ? "" : "s",
	       tally->unjudged, tally->unjudged == 1 ? "" : "s");
	if (tally->regressions)
		printf(" (exit 1)");
	else if (tally->unjudged)
		printf(o->unjudged_pass ? " (passed: --gate-unjudged pass)" : " (exit %d)",
		       EXIT_UNJUDGED);
	printf(".\n");
}
