// SPDX-License-Identifier: GPL-2.0
/* RFC 3339 dates into UTC text (hdate.h). */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "hdate.h"

/* n digits at *s into *v, s moved past them. */
static bool digits(const char **s, int n, int *v)
{
	*v = 0;
	for (; n; n--, (*s)++) {
		if (**s < '0' || **s > '9')
			return false;
		*v = *v * 10 + (**s - '0');
	}
	return true;
}

static bool lit(const char **s, const char *set)
{
	if (!**s || !strchr(set, **s))
		return false;
	(*s)++;
	return true;
}

static int month_days(int y, int m)
{
	static const int days[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
	bool leap = (y % 4 == 0 && y % 100) || y % 400 == 0;

	return m == 2 && leap ? 29 : days[m - 1];
}

/* YYYY-MM-DD into tm, checked against the calendar. */
static bool day(const char **s, struct tm *tm)
{
	int y, m, d;

	if (!digits(s, 4, &y) || !lit(s, "-") || !digits(s, 2, &m) || !lit(s, "-") ||
	    !digits(s, 2, &d) || m < 1 || m > 12 || d < 1 || d > month_days(y, m))
		return false;
	memset(tm, 0, sizeof(*tm));
	tm->tm_year = y - 1900;
	tm->tm_mon = m - 1;
	tm->tm_mday = d;
	return true;
}

static int utc_text(struct tm *tm, long offset, char out[HDATE_LEN])
{
	time_t t = timegm(tm) - offset;
	struct tm u;
	char buf[80];	/* the room of any int: the compiler cannot know the year has four digits */

	if (!gmtime_r(&t, &u) || u.tm_year + 1900 < 0 || u.tm_year + 1900 > 9999)
		return -1;	/* an offset that moves it out of four-digit years */
	snprintf(buf, sizeof(buf), "%04d-%02d-%02dT%02d:%02d:%02dZ", u.tm_year + 1900,
		 u.tm_mon + 1, u.tm_mday, u.tm_hour, u.tm_min, u.tm_sec);
	memcpy(out, buf, HDATE_LEN);
	return 0;
}

int hdate_norm(const char *s, char out[HDATE_LEN])
{
	int h, m, sec, oh = 0, om = 0, sign = 0, dummy;
	struct tm tm;

	if (!day(&s, &tm) || !lit(&s, "Tt ") || !digits(&s, 2, &h) || !lit(&s, ":") ||
	    !digits(&s, 2, &m) || !lit(&s, ":") || !digits(&s, 2, &sec) ||
	    h > 23 || m > 59 || sec > 60)	/* 60: a leap second, the next minute's first */
		return -1;
	if (lit(&s, ".")) {
		if (!digits(&s, 1, &dummy))
			return -1;
		while (*s >= '0' && *s <= '9')
			s++;
	}
	if (*s == '+' || *s == '-') {
		sign = *s++ == '-' ? -1 : 1;
		if (!digits(&s, 2, &oh) || !lit(&s, ":") || !digits(&s, 2, &om) || oh > 23 ||
		    om > 59)
			return -1;
	} else if (!lit(&s, "Zz")) {
		return -1;
	}
	if (*s)
		return -1;
	tm.tm_hour = h;
	tm.tm_min = m;
	tm.tm_sec = sec;
	return utc_text(&tm, sign * (oh * 3600L + om * 60L), out);
}

int hdate_bound(const char *s, bool end, char out[HDATE_LEN])
{
	const char *p = s;
	struct tm tm;

	if (!hdate_norm(s, out))
		return 0;
	if (!day(&p, &tm) || *p)
		return -1;
	if (end) {
		tm.tm_hour = 23;
		tm.tm_min = 59;
		tm.tm_sec = 59;
	}
	return utc_text(&tm, 0, out);
}
