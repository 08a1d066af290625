// SPDX-License-Identifier: GPL-2.0
/*
 * compare's and ab's first lines: per run, the answer a reader came for,
 * as hyperfine gives it ("B is 1.38 ± 0.03 × faster than A"), or that no
 * difference was found and how small one could hide, or what would make a
 * verdict possible.  The table follows them; -q prints only these.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "cmp_print.h"
#include "util.h"

#define ANSWER_MAX	256

/* A row that can lead: its own test or threshold, not a derived or bookkeeping one. */
static bool can_lead(const struct cmp_row *r)
{
	return r->basis != BASIS_BASE && r->basis != BASIS_TALLY;
}

/* The row of rows [first, end) a run's answer is about: its first rate or time, else the first. */
static int headline(const struct cmp_table *t, int first, int end)
{
	int i, any = -1;

	for (i = first; i < end; i++) {
		if (!can_lead(&t->rows[i]))
			continue;
		if (t->rows[i].speed)
			return i;
		if (any < 0)
			any = i;
	}
	return any;
}

static bool is_change(const struct cmp_row *r)
{
	return r->cls == CLS_GOOD || r->cls == CLS_BAD || r->cls == CLS_UP || r->cls == CLS_DOWN;
}

/* The farther bound of new/old's interval from 1, in percent. */
static double ci_reach(const struct cmp_row *r)
{
	return fmax(r->hi - 1, 1 - r->lo) * 100;
}

/*
 * "1.25 ± 0.02 × slower": the factor the change is by, in the verdict's
 * own direction, with as many decimals as the interval's half-width needs.
 */
static int factor(char *buf, size_t len, const struct cmp_row *r)
{
	bool up = r->ratio >= 1;
	double f = up ? r->ratio : 1 / r->ratio, lo, hi, e;
	int n, dec = 2;

	if (!r->has_ci || !(r->lo > 0))
		return snprintf(buf, len, f < 100 ? "%.2f ×" : "%.3g ×", f);
	lo = up ? r->lo : 1 / r->hi;
	hi = up ? r->hi : 1 / r->lo;
	e = fmax(hi - f, f - lo);
	while (dec < 4 && e < 0.5 * pow(10, -dec))
		dec++;
	n = snprintf(buf, len, "%.*f ± %.*f ×", dec, f, dec, e);
	return n;
}

static void change_text(char *buf, size_t len, const struct cmp_row *r)
{
	if (r->from_zero)
		snprintf(buf, len, "from 0 to %.4g %s", r->nfig, r->nm->unit);
	else
		snprintf(buf, len, "%+.1f%%", r->change_pct);
}

/* What would let so few values be tested. */
static const char *what_would(const struct cmp_opts *o)
{
	return o->paired ? "run 3 or more pairs: -r 3 or --precision" :
			   "-r 3, a longer -d, or ab";
}

/* An inconclusive row: what would narrow its interval. */
static const char *narrower(const struct cmp_row *r, const struct cmp_opts *o)
{
	if (o->paired)
		return "more pairs would narrow it (-r, --precision)";
	if (r->one_process)
		return "-r 3, a longer -d or ab would narrow it";
	return "more runs would narrow it (-r)";
}

static void answer(char *buf, size_t len, const struct cmp_row *r, const struct cmp_opts *o)
{
	char f[64], ch[96];

	change_text(ch, sizeof(ch), r);
	if (is_change(r) && r->has_ratio && r->ratio > 0 && r->ratio != 1) {
		factor(f, sizeof(f), r);
		snprintf(buf, len, "%s is %s %s than %s (%s %s%s)", o->new_name, f,
			 cmp_class_text(r), o->old_name, r->nm->id, ch,
			 r->tested ? "" : ", no test");
	} else if (is_change(r)) {
		snprintf(buf, len, "%s is %s than %s in %s (%s)", o->new_name, cmp_class_text(r),
			 o->old_name, r->nm->id, ch);
	} else if (r->basis == BASIS_ZERO) {
		snprintf(buf, len, "no difference (%s 0 on both sides)", r->nm->id);
	} else if (r->cls == CLS_EQUAL && r->has_ci && r->tested) {
		snprintf(buf, len, "no difference detected (%s ±%.1f%%, within the ±%g%% noise)",
			 r->nm->id, ci_reach(r), o->noise * 100);
	} else if (r->cls == CLS_EQUAL) {
		snprintf(buf, len, "no difference detected (%s %s, within the ±%g%% noise)",
			 r->nm->id, ch, o->noise * 100);
	} else if (r->tested && r->has_ci && r->lo <= 1 && r->hi >= 1 && ci_reach(r) < 50) {
		snprintf(buf, len, "no difference detected (%s ±%.1f%%); %s", r->nm->id,
			 ci_reach(r), narrower(r, o));
	} else if (r->tested && r->has_ci) {
		snprintf(buf, len, "no difference detected (%s %s/%s %.3g [%.3g, %.3g]); %s",
			 r->nm->id, o->new_name, o->old_name, r->ratio, r->lo, r->hi, narrower(r, o));
	} else {
		snprintf(buf, len, "no verdict: %s n %d/%d, too few to test (%s)",
			 r->nm->id, r->om->nr_values, r->nm->nr_values, what_would(o));
	}
}

static void print_run(const struct cmp_table *t, int first, int end, const struct cmp_opts *o)
{
	char buf[ANSWER_MAX];
	int lead = headline(t, first, end), i;

	if (lead < 0)
		return;
	answer(buf, sizeof(buf), &t->rows[lead], o);
	printf("%s: %s\n", t->rows[lead].run, buf);
	/* every other metric that changed, each on a line of its own */
	for (i = first; i < end; i++) {
		if (i == lead || !can_lead(&t->rows[i]) || !is_change(&t->rows[i]))
			continue;
		answer(buf, sizeof(buf), &t->rows[i], o);
		printf("%s: %s\n", t->rows[i].run, buf);
	}
}

void cmp_print_answers(const struct cmp_table *t, const struct cmp_opts *o)
{
	int first = 0, i;

	for (i = 1; i <= t->n; i++) {
		if (i < t->n && t->rows[i].run == t->rows[first].run)
			continue;
		print_run(t, first, i, o);
		first = i;
	}
}
