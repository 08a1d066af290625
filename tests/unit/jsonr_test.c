// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for src/readback/jsonr.c, the result reader's JSON parser.  Prints
 * TAP; exits 1 if any test fails.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "jsonr.h"

static int test_no, failures;

static void ok(int cond, const char *desc)
{
	test_no++;
	if (!cond)
		failures++;
	printf("%sok %d - %s\n", cond ? "" : "not ", test_no, desc);
}

/* Parses text (copied: the parser writes into it); returns 0 or -1, err filled. */
static int parse(const char *text, struct jr_doc *d, char **buf, char *err, size_t errlen)
{
	size_t len = strlen(text);

	*buf = malloc(len + 1);
	memcpy(*buf, text, len + 1);
	return jr_parse(d, *buf, len, err, errlen);
}

/* Whether text is refused with a message containing want. */
static void refused(const char *text, const char *want, const char *desc)
{
	struct jr_doc d;
	char err[256], *buf;
	int ret = parse(text, &d, &buf, err, sizeof(err));

	ok(ret == -1 && strstr(err, want), desc);
	if (ret != -1 || !strstr(err, want))
		printf("# got %d \"%s\", want \"%s\"\n", ret, err, want);
	jr_free(&d);
	free(buf);
}

static void accepted(const char *text, const char *desc)
{
	struct jr_doc d;
	char err[256], *buf;

	ok(!parse(text, &d, &buf, err, sizeof(err)), desc);
	jr_free(&d);
	free(buf);
}

static void test_values(void)
{
	const char *text = "{\"a\": [1, -2.5e3, true, false, null, \"x\\ty\"], \"b\": {},"
			   " \"big\": 123456789012345678, \"huge\": 1e300, \"over\": 99999999999999999999}";
	const struct jr_node *root, *a, *v;
	struct jr_doc d;
	char err[256], *buf;

	ok(!parse(text, &d, &buf, err, sizeof(err)), "a document of every type parses");
	root = jr_root(&d);
	ok(root && root->type == JR_OBJ && root->u.kids.count == 5, "root: an object of 5");
	a = jr_typed(&d, root, "a", JR_ARR);
	ok(a && a->u.kids.count == 6, "a: an array of 6");
	v = jr_first(&d, a);
	ok(v->type == JR_INT && v->u.i == 1, "an integer stays an integer");
	v = jr_next(&d, v);
	ok(v->type == JR_NUM && v->u.num == -2500.0, "-2.5e3 is a double");
	v = jr_next(&d, v);
	ok(v->type == JR_TRUE && jr_next(&d, v)->type == JR_FALSE, "true, false");
	v = jr_next(&d, jr_next(&d, v));
	ok(v->type == JR_NULL, "null");
	v = jr_next(&d, v);
	ok(v->type == JR_STR && !strcmp(jr_str(&d, v), "x\ty") && v->u.s.len == 3,
	   "a string with an escape, decoded");
	ok(!jr_next(&d, v), "the array ends");
	ok(jr_typed(&d, root, "b", JR_OBJ) && !jr_first(&d, jr_member(&d, root, "b")),
	   "an empty object has no children");
	v = jr_member(&d, root, "big");
	ok(v && v->type == JR_INT && v->u.i == 123456789012345678LL,
	   "an integer beyond 2^53 is exact");
	ok(jr_typed(&d, root, "huge", JR_NUM) && jr_num(jr_member(&d, root, "huge")) == 1e300,
	   "1e300 is a finite double");
	v = jr_member(&d, root, "over");
	ok(v && v->type == JR_NUM && v->u.num == 1e20, "an integer beyond int64 is a double");
	ok(!jr_member(&d, root, "nosuch") && !jr_typed(&d, root, "a", JR_OBJ),
	   "a missing member or one of another type is NULL");
	jr_free(&d);
	free(buf);
}

static void test_unicode(void)
{
	const char *text = "[\"\\u00e9\\u20ac\\ud83d\\ude00\\/\\\\\\\"\"]";
	const struct jr_node *s;
	struct jr_doc d;
	char err[256], *buf;

	ok(!parse(text, &d, &buf, err, sizeof(err)), "unicode escapes parse");
	s = jr_first(&d, jr_root(&d));
	/* é (c3 a9), € (e2 82 ac), U+1F600 from its surrogate pair (f0 9f 98 80), / \ " */
	ok(s && !strcmp(jr_str(&d, s), "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80/\\\""),
	   "unicode escapes decode to UTF-8, a surrogate pair to one character");
	jr_free(&d);
	free(buf);
}

static void test_refused(void)
{
	char deep[64];

	refused("{\"runs\": [{\"x\": NaN}]}", "runs[0].x is NaN", "NaN named by its path");
	refused("{\"a\": {\"b\": [1, 2, -Infinity]}}", "a.b[2] is infinite",
		"-Infinity named by its path");
	refused("[1e400]", "[0] is beyond the range of a double", "1e400 refused");
	refused("Infinity", "the document is infinite", "a bare Infinity refused");
	refused("[1, 2", "truncated JSON", "a truncated array");
	refused("{\"a\" 1}", "expected ':' at byte 5", "a missing colon, at its byte");
	refused("[01]", "expected ',' or ']'", "a leading zero");
	refused("[1.]", "a bad number", "a fraction without digits");
	refused("[.5]", "expected a value", "a number without its integer part");
	refused("[\"a\nb\"]", "a control character", "a raw newline in a string");
	refused("[\"\\x\"]", "a bad escape", "an unknown escape");
	refused("[\"\\ud800\"]", "high surrogate", "a lone high surrogate");
	refused("[\"\\udc00\"]", "low surrogate", "a lone low surrogate");
	refused("[\"\\u0000\"]", "NUL", "an escaped NUL");
	refused("[tru]", "an unknown word", "a cut literal");
	refused("{} {}", "data after the JSON document at byte 3", "two documents");
	memset(deep, '[', JR_MAX_DEPTH + 1);
	deep[JR_MAX_DEPTH + 1] = 0;
	refused(deep, "nested deeper than 16", "nesting beyond JR_MAX_DEPTH");
	memset(deep, '[', JR_MAX_DEPTH);
	memset(deep + JR_MAX_DEPTH, ']', JR_MAX_DEPTH);
	deep[2 * JR_MAX_DEPTH] = 0;
	accepted(deep, "nesting of exactly JR_MAX_DEPTH parses");
}

/* A lazy parse: the runs checked as text, their names decoded to be compared. */
static void lazy_refused(const char *text, const char *want, const char *desc)
{
	char err[256], *buf = strdup(text);
	struct jr_doc d;
	int ret = jr_parse_lazy(&d, buf, strlen(text), "samples", err, sizeof(err));

	ok(ret == -1 && strstr(err, want), desc);
	if (ret != -1 || !strstr(err, want))
		printf("# got %d: %s\n", ret, err);
	jr_free(&d);
	free(buf);
}

static void test_strict(void)
{
	refused("{\"env\": {\"hostname\": \"\xff\xfe\"}}",
		"env.hostname is not UTF-8 (byte 0xff", "bytes ff fe in a string: not UTF-8");
	refused("[\"\xc0\xaf\"]", "not UTF-8", "an overlong '/' refused");
	refused("[\"\xed\xa0\x80\"]", "not UTF-8", "an encoded surrogate refused");
	refused("[\"\xf4\x90\x80\x80\"]", "not UTF-8", "beyond U+10FFFF refused");
	refused("[\"\xe2\x82\"]", "not UTF-8", "a cut sequence refused");
	refused("{\"\xff\": 1}", "a member name that is not UTF-8", "a name not UTF-8");
	accepted("[\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"]", "2-, 3- and 4-byte UTF-8 parse");
	refused("{\"a\": 1, \"b\": 2, \"a\": 3}", "the document has the member \"a\" twice",
		"a repeated name refused");
	refused("{\"env\": {\"host\": 1, \"x\": {\"host\": 2}, \"host\": 3}}",
		"env has the member \"host\" twice", "a repeat named by its object, nesting apart");
	accepted("{\"a\": {\"a\": 1}, \"b\": {\"a\": 2}}", "one name in sibling objects");
	lazy_refused("{\"runs\": [{\"bench\": \"a\", \"samples\": [{\"t\": 1, \"t\": 2}]}]}",
		     "runs[0].samples[0] has the member \"t\" twice", "a repeat inside a lazy array");
	lazy_refused("{\"runs\": [{\"bench\": \"a\", \"be\\u006ech\": \"b\"}]}",
		     "runs[0] has the member \"bench\" twice", "a repeat spelled with an escape");
	lazy_refused("{\"runs\": [{\"s\": \"\xff\"}]}", "runs[0].s is not UTF-8",
		     "not UTF-8 inside a lazy array");
}

int main(void)
{
	test_values();
	test_unicode();
	test_refused();
	test_strict();
	printf("1..%d\n", test_no);
	return failures ? 1 : 0;
}
