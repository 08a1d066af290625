// SPDX-License-Identifier: GPL-2.0
/*
 * calib --check: the calibration's fixed-seed subset, as TAP, against the
 * targets of doc/calibration.md, with room for the draw's own error (a
 * rate over n trials is off by ~sqrt(p (1 - p) / n)):
 *   - no printed interval wider than CMP_MAX_SPAN, on every path and model;
 *   - one run a side without --run-noise: no verdict, always;
 *   - where the model is one the path can answer for (noise within what
 *     its test allows for: no session drift beyond --drift for unpaired
 *     files unless --run-noise allows for it, and paired runs for drift),
 *     the 95% CI covers the true ratio
 *     93-97% of the time (unpaired: at least 93%, --drift makes them
 *     conservative), a change is called where there is none at most 5% of
 *     the time, and "equal" is said of a true 5% change at most 5%.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "calib.h"

#define CHECK_TRIALS	300
#define CHECK_SEED	20261204

static int nr_test;
static int failed;

static void ok(bool cond, const char *fmt, const char *path, const char *model, double v)
{
	char what[256];

	snprintf(what, sizeof(what), fmt, v);
	printf("%sok %d - %s, %s: %s\n", cond ? "" : "not ", ++nr_test, path, model, what);
	failed += !cond;
}

/* The models a path's test is built for: the rest are shown in the table, not held to it. */
static bool answers_for(const struct path *p, const struct model *m)
{
	if (m->bimodal_p > 0 || m->phase_p > 0 || m->cv_b > 0.05)
		return false;	/* beyond any test's assumptions: doc/calibration.md */
	/* a random walk outgrows any fixed --drift; a known --run-noise allows for its step */
	return p->paired || !(m->drift_sd > 0) || p->run_noise_known;
}

/* One run a side with no --run-noise: nothing shows how far runs lie apart. */
static bool blind(const struct path *p)
{
	return !p->paired && p->runs == 1 && !p->old_runs && !p->run_noise_known;
}

static void check_cell(const struct path *p, const struct model *m)
{
	struct cell c;

	cell_run(p, m, CHECK_TRIALS, CHECK_SEED, &c);
	ok(c.max_span <= CMP_MAX_SPAN, "widest printed CI %.3g× <= 100×", p->name, m->name,
	   c.max_span);
	if (blind(p)) {
		ok(c.none == 100.0, "no verdict in %.1f%% of comparisons (one run a side)", p->name,
		   m->name, c.none);
		return;
	}
	if (!answers_for(p, m))
		return;
	ok(c.coverage >= 92.0 && (!p->paired || c.coverage <= 98.0),
	   "CI coverage %.1f%% within the target (93-97%%, +-1 draw error)", p->name, m->name,
	   c.coverage);
	ok(c.false_alarm <= 7.5, "false alarms at no change %.1f%% <= 5%% (+2.5 draw error)",
	   p->name, m->name, c.false_alarm);
	ok(c.equal5 <= 7.5, "equal at a true ±5%% change %.1f%% <= 5%% (+2.5 draw error)", p->name,
	   m->name, c.equal5);
}

/* The subset: the models each test is built for, and the correlated and heavy-tailed ones. */
static bool in_subset(const struct model *m)
{
	static const char *const names[] = { "iid normal", "AR(1) r 0.5", "AR(1) r 0.9",
					     "host idle", "heavy tails (t3)", NULL };
	int i;

	for (i = 0; names[i]; i++)
		if (!strcmp(names[i], m->name))
			return true;
	return false;
}

int calib_check(void)
{
	const struct path *p;
	const struct model *m;

	for (p = calib_paths; p->name; p++)
		for (m = calib_models; m->name; m++)
			if (in_subset(m))
				check_cell(p, m);
	printf("1..%d\n", nr_test);
	return failed ? 1 : 0;
}
