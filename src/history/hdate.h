/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The history's dates: a result's env.date and --since/--until, parsed as
 * RFC 3339 and kept as UTC text, YYYY-MM-DDTHH:MM:SSZ, whose text order is
 * time order (the database sorts and compares the text).  A fraction of a
 * second is dropped: every date of the history has the same width.
 */
#ifndef BPFBENCH_HDATE_H
#define BPFBENCH_HDATE_H

#include <stdbool.h>

#define HDATE_LEN	21	/* "2026-01-13T12:00:00Z" and its NUL */

/* An RFC 3339 date-time (any offset) into out, as UTC: 0, or -1 when s is none. */
int hdate_norm(const char *s, char out[HDATE_LEN]);
/*
 * A bound of --since/--until: an RFC 3339 date-time, or a day alone,
 * YYYY-MM-DD (UTC), which stands for its first second, or under end its
 * last: 0, or -1 when s is neither.
 */
int hdate_bound(const char *s, bool end, char out[HDATE_LEN]);

#endif
