// SPDX-License-Identifier: GPL-2.0
/*
 * compare --json: every row with its figures, interval, test and verdict,
 * in the words of the answer lines (verdict.h), for scripts and CI gates
 * ("bpfbench-compare/1").
 */
#include <math.h>
#include <stdio.h>
#include "cmp_print.h"
#include "jsonw.h"
#include "outfile.h"
#include "util.h"

struct cmp_doc {
	const struct cmp_table *t;
	const struct cmp_opts *o;
};

static const char *why_text(enum cmp_why why)
{
	static const char *const text[] = {
		[WHY_NONE] = NULL, [WHY_FEW] = "too few values",
		[WHY_CORRELATED] = "correlated samples: too few independent values",
		[WHY_WIDE] = "interval wider than 100x", [WHY_FLAT] = "one side constant",
		[WHY_RESOLUTION] = "within the measurement's resolution",
		[WHY_ADJUSTED] = "not significant after adjustment",
		[WHY_ONE_RUN] = "one run a side: how far runs lie apart is unknown",
	};

	return text[why];
}

static void json_row(struct jsonw *w, const struct cmp_row *r, const struct cmp_opts *o)
{
	char answer[512];

	cmp_answer_text(answer, sizeof(answer), r, o);
	jsonw_obj_open(w);
	jsonw_kstr(w, "run", r->run);
	jsonw_kstr(w, "metric", r->nm->id);
	jsonw_kstr(w, "unit", r->nm->unit);
	jsonw_kdouble(w, "old", r->ofig);
	jsonw_kdouble(w, "new", r->nfig);
	jsonw_kdouble(w, "change_pct", r->change_pct);
	jsonw_kdouble(w, "ratio", r->has_ratio ? r->ratio : NAN);
	if (r->has_ci) {
		jsonw_kdouble(w, "ci95_low", r->lo);
		jsonw_kdouble(w, "ci95_high", r->hi);
	}
	if (r->tested) {
		jsonw_kdouble(w, "p", r->p);
		jsonw_kdouble(w, "p_adjusted", r->p_adj);
		jsonw_kdouble(w, "df", r->df);
	}
	jsonw_kstr(w, "verdict", cmp_class_text(r));
	if (why_text(r->why))
		jsonw_kstr(w, "why", why_text(r->why));
	jsonw_kbool(w, "regression", cmp_row_regression(r, o));
	jsonw_kbool(w, "unjudged", cmp_row_unjudged(r, o));
	jsonw_kstr(w, "answer", answer);
	jsonw_obj_close(w);
}

static void write_doc(FILE *f, void *arg)
{
	const struct cmp_doc *d = arg;
	struct jsonw w;
	int i;

	jsonw_init(&w, f, true);
	jsonw_obj_open(&w);
	jsonw_kstr(&w, "schema", "bpfbench-compare/1");
	jsonw_kstr(&w, "old", d->o->old_name);
	jsonw_kstr(&w, "new", d->o->new_name);
	jsonw_kdouble(&w, "alpha", d->o->alpha);
	jsonw_kdouble(&w, "noise_pct", d->o->noise * 100);
	jsonw_kdouble(&w, "drift_pct", d->o->paired ? 0 : d->o->drift * 100);
	jsonw_kdouble(&w, "run_noise_pct", d->o->run_noise * 100);	/* null: not given */
	jsonw_kbool(&w, "paired", d->o->paired);
	jsonw_key(&w, "rows");
	jsonw_arr_open(&w);
	for (i = 0; i < d->t->n; i++)
		json_row(&w, &d->t->rows[i], d->o);
	jsonw_arr_close(&w);
	jsonw_obj_close(&w);
	fputc('\n', f);
}

int cmp_write_json(const char *path, const struct cmp_table *t, const struct cmp_opts *o)
{
	struct cmp_doc d = { t, o };
	int err = write_file_atomic(path, write_doc, &d);

	if (err)
		errmsg("compare: cannot write %s: %s", path, output_strerror(err));
	return err ? 1 : 0;
}
