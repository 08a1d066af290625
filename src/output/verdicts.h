/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The verdicts of a gate as test cases, for the formats that write
 * verdicts (out_formats.h, kind VERDICTS): compare's and ab's rows, db
 * changes' series.  A case passes, fails or is skipped as the gate's exit
 * status has it: it fails where the gate exits 1 (a regression beyond its
 * limit, a NEW run that failed), is skipped where the gate could not judge
 * (EXIT_UNJUDGED, or passed by --gate-unjudged pass), and passes else.
 */
#ifndef BPFBENCH_VERDICTS_H
#define BPFBENCH_VERDICTS_H

#include <stdio.h>

enum verdict_status { VERDICT_PASS, VERDICT_FAIL, VERDICT_SKIP, VERDICT_NR };

struct verdict_case {
	char *group;		/* what it belongs to: the run, the series (JUnit's classname) */
	char *name;		/* the metric, as the answer lines name it */
	enum verdict_status status;
	char *why;		/* a failure's or a skip's reason; NULL for a pass */
	char *detail;		/* the answer line; NULL: none */
};

struct verdicts {
	const char *suite;	/* the command: "compare", "ab", "db changes" */
	double secs;		/* how long it took, its runs included */
	struct verdict_case *cases;
	int n, cap;
	int nr[VERDICT_NR];	/* cases of each status */
};

/* A case; why is printf's format (NULL: none), detail copied (NULL: none). */
void verdicts_add(struct verdicts *v, const char *group, const char *name,
		  enum verdict_status status, const char *detail, const char *why, ...)
	__attribute__((format(printf, 6, 7)));
void verdicts_free(struct verdicts *v);
/* v into each verdicts format of paths[OUT_NR]: 0, or 1 after a line per file not written. */
int verdicts_write(const char *const *paths, const struct verdicts *v);
/*
 * The case's text on one line, as a KTAP or TAP name or directive takes
 * it: control characters as spaces, '#' (which would start a directive)
 * as "no.", at most len - 1 bytes.
 */
void verdict_line(char *buf, size_t len, const char *text);

#endif
