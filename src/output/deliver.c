// SPDX-License-Identifier: GPL-2.0
/*
 * The one road of a run's result: the caller hands it here, and the
 * reporters its options chose draw it (the human lines, the Summary in
 * its benchmark's shape, JSON, CSV, Markdown).  Suites and ab take their
 * rows the same way, through summary.h and export.h.
 */
#include <stdio.h>
#include "deliver.h"
#include "export.h"
#include "report.h"
#include "util.h"

int deliver_run(struct run_result *res, int status)
{
	const struct run_opts *o = &res->spec.opts;
	FILE *human = report_out(o);
	char kept[sizeof(res->error)];

	if (res_kept(res)) {	/* what was measured before the signal, shown, written and marked */
		res_kept_text(res, true, kept, sizeof(kept));
		fprintf(human, "%s: the figures below are of those samples\n", kept);
		report_summary(human, res);
		export_run(res);
		errmsg("%s", res->error);
		return status;
	}
	if (status) {
		if (!o->quiet)
			report_notes(human, res);	/* what the benchmark found out before it stopped */
		if (!res->reported)
			errmsg("%s%s", res->error, res->interrupted && out_any(o->out, OUT_K_RUN) ?
			       "; nothing written" : "");
		return status;
	}
	report_summary(human, res);
	return export_run(res);
}
