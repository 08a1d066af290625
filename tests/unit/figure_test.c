// SPDX-License-Identifier: GPL-2.0
/*
 * The digits rule of every table (src/output/figure.c): the ± to two
 * significant digits, the mean rounded to the same decimal place; no ±
 * where there is no spread (sd 0, not a number, one sample), then the
 * mean as before the rule.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "figure.h"
#include "tap.h"

static void pm(double mean, double sd, const char *want)
{
	char buf[128] = "", what[200];
	bool shown = figure_pm(buf, sizeof(buf), mean, sd);

	snprintf(what, sizeof(what), "%.10g ± %.10g -> %s", mean, sd, want ? want : "no ±");
	ok(want ? shown && !strcmp(buf, want) : !shown && !*buf, what);
	if (want ? !shown || strcmp(buf, want) : shown)
		printf("# got %s\n", shown ? buf : "no ±");
}

static void alone(double mean, int n, double sd, const char *want)
{
	struct stats st = { .n = n, .mean = mean, .stddev = sd };
	char buf[128], what[200];

	report_figure(buf, sizeof(buf), mean, &st);
	snprintf(what, sizeof(what), "n %d: %.10g (sd %g) -> %s", n, mean, sd, want);
	ok(!strcmp(buf, want), what);
	if (strcmp(buf, want))
		printf("# got %s\n", buf);
}

/* The decimals of "12.34" (2), "1200" (0). */
static int decimals_of(const char *s, size_t len)
{
	const char *dot = memchr(s, '.', len);

	return dot ? (int)(len - (dot + 1 - s)) : 0;
}

/*
 * Over magnitudes from 1e-8 to 1e12: the ± is the sd to two significant
 * digits, the mean within half a unit of that place, both to one number
 * of decimals.
 */
static void magnitudes(void)
{
	const double sds[] = { 1.2345, 9.949, 9.951, 1.06, 3.3333 };
	char buf[128], what[160];
	int k, j, bad = 0;

	for (k = -8; k <= 12; k++) {
		for (j = 0; j < (int)(sizeof(sds) / sizeof(sds[0])); j++) {
			double sd = sds[j] * pow(10, k), mean = 7.654321 * pow(10, k + 2);
			double want_sd, place, got_mean, got_sd;
			char *pm_at;
			int e;

			if (!figure_pm(buf, sizeof(buf), mean, sd)) {
				bad++;
				continue;
			}
			pm_at = strstr(buf, " ± ");
			got_mean = strtod(buf, NULL);
			got_sd = strtod(pm_at + strlen(" ± "), NULL);
			e = (int)floor(log10(sd)) - 1;
			place = pow(10, e);
			want_sd = round(sd / place) * place;
			if (want_sd >= 100 * place) {	/* 9.951 -> 10 */
				place *= 10;
				want_sd = round(sd / place) * place;
			}
			if (fabs(got_sd - want_sd) > want_sd * 1e-9 ||
			    fabs(got_mean - mean) > place / 2 * (1 + 1e-9) ||
			    decimals_of(buf, pm_at - buf) != decimals_of(pm_at + 4, strlen(pm_at + 4))) {
				printf("# %s (sd %.10g mean %.10g)\n", buf, sd, mean);
				bad++;
			}
		}
	}
	snprintf(what, sizeof(what), "1e-8 .. 1e12: ± of two significant digits, the mean to its place "
		 "(%d bad)", bad);
	ok(!bad, what);
}

int main(void)
{
	/* the figures */
	pm(633.3754, 13.5253, "633 ± 14");
	pm(65.259, 5.213, "65.3 ± 5.2");
	pm(0.2392, 0.0013, "0.2392 ± 0.0013");
	pm(484.173, 33.366, "484 ± 33");
	pm(15.981, 0.079, "15.981 ± 0.079");
	/* the sd's second digit rounds up into a third place */
	pm(1.23, 0.0996, "1.23 ± 0.10");
	pm(99.6, 9.96, "100 ± 10");
	pm(5.0, 0.995, "5.0 ± 1.0");
	/* an sd at or above the mean */
	pm(0.5, 3.2, "0.5 ± 3.2");
	pm(3, 30, "3 ± 30");
	pm(12, 123, "10 ± 120");
	pm(1.0, 1.0, "1.0 ± 1.0");
	/* negative means, and a mean that rounds to zero: never "-0" */
	pm(-5.432, 0.123, "-5.43 ± 0.12");
	pm(-0.04, 1.3, "0.0 ± 1.3");
	pm(-4, 130, "0 ± 130");
	/* huge and small magnitudes: rounded to thousands, or to ten decimals */
	pm(123456789, 12345, "123457000 ± 12000");
	pm(1.5e12, 2.3e10, "1500000000000 ± 23000000000");
	pm(1.234e-7, 5.6e-9, "0.0000001234 ± 0.0000000056");
	/* no spread to show */
	pm(5, 0, NULL);
	pm(5, -1, NULL);
	pm(NAN, 1, NULL);
	pm(5, NAN, NULL);
	pm(INFINITY, 1, NULL);
	pm(5, INFINITY, NULL);
	pm(2.883375199, 4.4e-16, NULL);		/* a constant's rounding */
	pm(0, 1e-300, NULL);			/* beyond a double's digits */
	magnitudes();
	/* without a spread: today's format */
	alone(65.259, 1, 0, "65.259");
	alone(0.2392, 1, 0, "0.2392");
	alone(0.000123456, 1, 0, "0.0001235");
	alone(2.883375199, 30, 4.4e-16, "2.883");
	alone(5, 4, 0, "5.000");
	alone(NAN, 1, 0, "nan");
	alone(633.3754, 5, 13.5253, "633 ± 14");
	printf("1..%d\n", test_num);
	return failures ? 1 : 0;
}
