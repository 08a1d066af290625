// SPDX-License-Identifier: GPL-2.0
/*
 * The verdicts as JUnit XML, the report CI dashboards read (Jenkins,
 * GitLab, GitHub's test reporters): testsuites > testsuite > a testcase
 * per case, its classname the run (or series) and its name the metric; a
 * failed case has a <failure>, a skipped one a <skipped>, both with the
 * reason as their message; the answer line is its <system-out>.
 * schema/junit.xsd describes the shape.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "formats.h"
#include "verdicts.h"

/* Text as XML character data or an attribute's value: XML 1.0 has no other controls. */
static void xml_text(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&apos;", f);
			break;
		default:
			fputc((unsigned char)*s < 0x20 && *s != '\t' && *s != '\n' ? ' ' : *s, f);
		}
	}
}

static void counts(FILE *f, const struct verdicts *v)
{
	fprintf(f, " tests=\"%d\" failures=\"%d\" errors=\"0\" skipped=\"%d\" time=\"%.3f\"", v->n,
		v->nr[VERDICT_FAIL], v->nr[VERDICT_SKIP], v->secs);
}

static void testcase(FILE *f, const struct verdict_case *c)
{
	static const char *const tag[] = { [VERDICT_FAIL] = "failure", [VERDICT_SKIP] = "skipped" };

	fputs("    <testcase name=\"", f);
	xml_text(f, c->name);
	fputs("\" classname=\"", f);
	xml_text(f, c->group);
	fputs("\" time=\"0\">\n", f);
	if (c->status != VERDICT_PASS) {
		fprintf(f, "      <%s message=\"", tag[c->status]);
		xml_text(f, c->why);
		fputs("\"/>\n", f);
	}
	if (c->detail) {
		fputs("      <system-out>", f);
		xml_text(f, c->detail);
		fputs("</system-out>\n", f);
	}
	fputs("    </testcase>\n", f);
}

void junit_write(FILE *f, const struct out_doc *d)
{
	const struct verdicts *v = d->verdicts;
	time_t now = time(NULL);
	char stamp[32];
	int i;

	strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"", f);
	xml_text(f, v->suite);
	fputs("\"", f);
	counts(f, v);
	fputs(">\n  <testsuite name=\"", f);
	xml_text(f, v->suite);
	fputs("\"", f);
	counts(f, v);
	fprintf(f, " timestamp=\"%s\">\n", stamp);
	for (i = 0; i < v->n; i++)
		testcase(f, &v->cases[i]);
	fputs("  </testsuite>\n</testsuites>\n", f);
}
