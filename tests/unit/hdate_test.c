// SPDX-License-Identifier: GPL-2.0
/*
 * The history's dates (src/history/hdate.c): RFC 3339 parsed, any offset
 * normalised to UTC text whose order is time order, and what is no date
 * ("not a date", month 13, 99:99:99) refused rather than sorted as text.
 */
#include <stdio.h>
#include <string.h>
#include "hdate.h"
#include "tap.h"

static void norm(const char *in, const char *want)
{
	char out[HDATE_LEN] = "", what[160];
	int ret = hdate_norm(in, out);

	snprintf(what, sizeof(what), "%s -> %s", in, want ?: "refused");
	ok(want ? !ret && !strcmp(out, want) : ret == -1, what);
	if (want && (ret || strcmp(out, want)))
		printf("# got %d %s\n", ret, out);
}

static void bound(const char *in, int end, const char *want)
{
	char out[HDATE_LEN] = "", what[160];
	int ret = hdate_bound(in, end, out);

	snprintf(what, sizeof(what), "%s %s -> %s", end ? "--until" : "--since", in,
		 want ?: "refused");
	ok(want ? !ret && !strcmp(out, want) : ret == -1, what);
}

int main(void)
{
	norm("2026-01-13T12:00:00Z", "2026-01-13T12:00:00Z");
	norm("2026-01-13t12:00:00z", "2026-01-13T12:00:00Z");
	norm("2026-01-13 12:00:00Z", "2026-01-13T12:00:00Z");
	norm("2026-01-13T12:00:00.123456Z", "2026-01-13T12:00:00Z");
	norm("2026-01-13T12:00:00+02:00", "2026-01-13T10:00:00Z");
	norm("2026-01-13T23:30:00-01:00", "2026-01-14T00:30:00Z");
	norm("2024-12-31T23:59:60Z", "2025-01-01T00:00:00Z");
	norm("2024-02-29T00:00:00Z", "2024-02-29T00:00:00Z");
	norm("2025-02-29T00:00:00Z", NULL);
	norm("2026-13-45T99:99:99Z", NULL);
	norm("2026-01-13T24:00:00Z", NULL);
	norm("not a date", NULL);
	norm("", NULL);
	norm("2026-01-13", NULL);
	norm("2026-01-13T12:00:00", NULL);
	norm("2026-01-13T12:00:00Zjunk", NULL);
	norm("2026-01-13T12:00:00+0200", NULL);
	norm("2026-01-13T12:00:00.Z", NULL);
	norm("0000-01-01T00:00:00+01:00", NULL);
	norm("0999-01-01T00:00:00Z", "0999-01-01T00:00:00Z");
	bound("2026-01-20", 0, "2026-01-20T00:00:00Z");
	bound("2026-01-20", 1, "2026-01-20T23:59:59Z");
	bound("2026-01-20T06:00:00+06:00", 1, "2026-01-20T00:00:00Z");
	bound("yesterday", 0, NULL);
	bound("2026-02-30", 0, NULL);
	bound("2026-01-20junk", 0, NULL);
	printf("1..%d\n", test_num);
	return failures ? 1 : 0;
}
