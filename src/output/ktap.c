// SPDX-License-Identifier: GPL-2.0
/*
 * The verdicts as KTAP version 1, the kernel's own test output
 * (Documentation/dev-tools/ktap.rst), which kunit.py, kselftest's runners
 * and TAP consumers read: the version line, the plan "1..N", then a
 * result line per case, "ok N NAME" or "not ok N NAME", a skipped case
 * "ok N NAME # SKIP reason".  Its answer line, and a failure's reason, go
 * before it as diagnostic lines ("# ...").  A name holds no '#', which
 * would start a directive.
 */
#include <stdio.h>
#include "formats.h"
#include "verdicts.h"

static void diagnostic(FILE *f, const char *text)
{
	char line[640];

	if (!text)
		return;
	verdict_line(line, sizeof(line), text);
	fprintf(f, "# %s\n", line);
}

void ktap_write(FILE *f, const struct out_doc *d)
{
	const struct verdicts *v = d->verdicts;
	const struct verdict_case *c;
	char name[512], why[640];
	int i;

	fprintf(f, "KTAP version 1\n# %s: %d passed, %d failed, %d skipped\n1..%d\n", v->suite,
		v->nr[VERDICT_PASS], v->nr[VERDICT_FAIL], v->nr[VERDICT_SKIP], v->n);
	for (i = 0; i < v->n; i++) {
		c = &v->cases[i];
		snprintf(why, sizeof(why), "%s %s", c->group, c->name);
		verdict_line(name, sizeof(name), why);
		diagnostic(f, c->detail);
		if (c->status == VERDICT_FAIL)
			diagnostic(f, c->why);
		if (c->status == VERDICT_SKIP) {
			verdict_line(why, sizeof(why), c->why);
			fprintf(f, "ok %d %s # SKIP %s\n", i + 1, name, why);
		} else {
			fprintf(f, "%s %d %s\n", c->status == VERDICT_FAIL ? "not ok" : "ok", i + 1,
				name);
		}
	}
}
