// SPDX-License-Identifier: GPL-2.0
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "opts.h"
#include "util.h"

int parse_u64(const char *s, uint64_t *out)
{
	bool hex = s && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
	const char *digits = hex ? s + 2 : s;
	unsigned long long v;
	char *end;

	/* strtoull alone would take blanks, a sign, and "010" for octal 8 */
	if (!s || !(hex ? isxdigit((unsigned char)*digits) : isdigit((unsigned char)*digits)))
		return -EINVAL;
	errno = 0;
	v = strtoull(digits, &end, hex ? 16 : 10);
	if (errno == ERANGE)
		return -ERANGE;
	if (*end)
		return -EINVAL;
	*out = v;
	return 0;
}

/* Compares option names treating '-' and '_' alike: --nr_entries == --nr-entries. */
static bool name_eq(const char *a, const char *b)
{
	for (; *a && *b; a++, b++) {
		char ca = *a == '_' ? '-' : *a;
		char cb = *b == '_' ? '-' : *b;

		if (ca != cb)
			return false;
	}
	return !*a && !*b;
}

const struct opt_def *opts_find(const struct opt_def *table, const char *name)
{
	for (; table && table->name; table++)
		if (name_eq(table->name, name))
			return table;
	return NULL;
}

const struct opt_def *opts_find_short(const struct opt_def *table, char c)
{
	for (; table && table->name; table++)
		if (table->short_name && table->short_name == c)
			return table;
	return NULL;
}

bool opt_takes_value(const struct opt_def *o)
{
	return o->type != OPT_FLAG;
}

static void *field(const struct opt_def *o, void *args)
{
	return (char *)args + o->off;
}

static const void *cfield(const struct opt_def *o, const void *args)
{
	return (const char *)args + o->off;
}

static int set_uint(const struct opt_def *o, void *store, const char *text, char *err, int len)
{
	uint64_t v;
	int ret = parse_u64(text, &v);

	if (ret) {
		snprintf(err, len, "--%s: '%s' is not a non-negative integer", o->name, text);
		return -EINVAL;
	}
	if (v < o->min || v > o->max) {
		snprintf(err, len, "--%s: %" PRIu64 " is out of range [%" PRIu64 ", %" PRIu64 "]",
			 o->name, v, o->min, o->max);
		return -EINVAL;
	}
	*(uint64_t *)store = v;
	return 0;
}

/* "1.5" seconds -> 1500 ms: a decimal with at most three places. */
static int parse_seconds(const char *text, uint64_t *ms)
{
	const char *dot = strchr(text, '.');
	char whole[32], frac[4] = "000";
	uint64_t s, f;
	size_t n = dot ? (size_t)(dot - text) : strlen(text);

	if (!n || n >= sizeof(whole))
		return -EINVAL;
	memcpy(whole, text, n);
	whole[n] = 0;
	if (parse_u64(whole, &s) || s > UINT64_MAX / 1000 - 1)
		return -EINVAL;
	if (dot) {
		n = strlen(dot + 1);
		if (!n || n > 3)
			return -EINVAL;
		memcpy(frac, dot + 1, n);
		if (parse_u64(frac, &f) || !isdigit((unsigned char)frac[0]))
			return -EINVAL;
	} else {
		f = 0;
	}
	*ms = s * 1000 + f;
	return 0;
}

static void format_seconds(uint64_t ms, char *buf, int len)
{
	int n = snprintf(buf, len, "%" PRIu64 ".%03" PRIu64, ms / 1000, ms % 1000);

	while (n > 0 && n < len && buf[n - 1] == '0')	/* "0.250" -> "0.25", "5.000" -> "5" */
		buf[--n] = 0;
	if (n > 0 && n < len && buf[n - 1] == '.')
		buf[--n] = 0;
}

static int set_seconds(const struct opt_def *o, void *store, const char *text, char *err, int len)
{
	char lo[32], hi[32];
	uint64_t ms;

	if (parse_seconds(text, &ms)) {
		snprintf(err, len, "--%s: '%s' is not a number of seconds (like 5 or 0.25)",
			 o->name, text);
		return -EINVAL;
	}
	if (ms < o->min || ms > o->max) {
		format_seconds(o->min, lo, sizeof(lo));
		format_seconds(o->max, hi, sizeof(hi));
		snprintf(err, len, "--%s: %s s is out of range [%s, %s]", o->name, text, lo, hi);
		return -EINVAL;
	}
	*(uint64_t *)store = ms;
	return 0;
}

static int set_choice(const struct opt_def *o, void *store, const char *text, char *err, int len)
{
	int i, off = 0;
	char names[256] = "";

	for (i = 0; o->choices[i]; i++) {
		if (name_eq(o->choices[i], text)) {
			*(int *)store = i;
			return 0;
		}
		off += snprintf(names + off, sizeof(names) - off, "%s%s",
				i ? "|" : "", o->choices[i]);
		if (off >= (int)sizeof(names))
			off = sizeof(names) - 1;
	}
	snprintf(err, len, "--%s: '%s' is not one of %s", o->name, text, names);
	return -EINVAL;
}

static int set_uint_list(const struct opt_def *o, struct uint_list *l, const char *text,
			 char *err, int len)
{
	char buf[1024], *tok, *save = NULL;
	uint64_t v;

	if (strlen(text) >= sizeof(buf) || !*text) {
		snprintf(err, len, "--%s: empty or too long list", o->name);
		return -EINVAL;
	}
	strcpy(buf, text);
	l->n = 0;
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (l->n == UINT_LIST_MAX) {
			snprintf(err, len, "--%s: more than %d values", o->name, UINT_LIST_MAX);
			return -EINVAL;
		}
		if (parse_u64(tok, &v) || v < o->min || v > o->max) {
			snprintf(err, len, "--%s: '%s' is not an integer in [%" PRIu64 ", %" PRIu64 "]",
				 o->name, tok, o->min, o->max);
			return -EINVAL;
		}
		l->v[l->n++] = v;
	}
	if (!l->n || text[strlen(text) - 1] == ',' || strstr(text, ",,") || text[0] == ',') {
		snprintf(err, len, "--%s: '%s' has an empty element", o->name, text);
		return -EINVAL;
	}
	return 0;
}

int opts_set(const struct opt_def *o, void *args, const char *text, char *err, int len)
{
	void *store = field(o, args);
	int ret;

	switch (o->type) {
	case OPT_UINT:
		return set_uint(o, store, text, err, len);
	case OPT_SECONDS:
		return set_seconds(o, store, text, err, len);
	case OPT_FLAG:
		*(bool *)store = text && (!strcmp(text, "1") || !strcmp(text, "true"));
		return 0;
	case OPT_CHOICE:
		return set_choice(o, store, text, err, len);
	case OPT_STRING:
		if (!*text) {
			snprintf(err, len, "--%s: empty value", o->name);
			return -EINVAL;
		}
		*(const char **)store = text;
		return 0;
	case OPT_UINT_LIST:
		return set_uint_list(o, store, text, err, len);
	case OPT_CPUSET:
		ret = parse_cpuset(text, store, err, len);
		if (ret) {
			char inner[200];

			snprintf(inner, sizeof(inner), "%s", err);
			snprintf(err, len, "--%s: %s", o->name, inner);
		}
		return ret;
	}
	return -EINVAL;
}

void opts_reset(const struct opt_def *t, void *args)
{
	char err[256];
	void *store;

	for (; t && t->name; t++) {
		store = field(t, args);
		switch (t->type) {
		case OPT_UINT:
		case OPT_SECONDS:
			*(uint64_t *)store = 0;
			break;
		case OPT_FLAG:
			*(bool *)store = false;
			break;
		case OPT_CHOICE:
			*(int *)store = 0;
			break;
		case OPT_STRING:
			*(const char **)store = NULL;
			break;
		case OPT_UINT_LIST:
			((struct uint_list *)store)->n = 0;
			break;
		case OPT_CPUSET:
			((struct cpuset *)store)->n = 0;
			break;
		}
		if (t->def && opts_set(t, args, t->def, err, sizeof(err)))
			die("internal: bad default for --%s: %s", t->name, err);
	}
}

void opts_format(const struct opt_def *o, const void *args, char *buf, int len)
{
	const void *store = cfield(o, args);
	const struct uint_list *l;
	const struct cpuset *s;
	const char *str;
	int i, off = 0;

	buf[0] = 0;
	switch (o->type) {
	case OPT_UINT:
		snprintf(buf, len, "%" PRIu64, *(const uint64_t *)store);
		break;
	case OPT_SECONDS:
		format_seconds(*(const uint64_t *)store, buf, len);
		break;
	case OPT_FLAG:
		snprintf(buf, len, "%s", *(const bool *)store ? "true" : "false");
		break;
	case OPT_CHOICE:
		snprintf(buf, len, "%s", o->choices[*(const int *)store]);
		break;
	case OPT_STRING:
		str = *(const char *const *)store;
		snprintf(buf, len, "%s", str ? str : "");
		break;
	case OPT_UINT_LIST:
		l = store;
		for (i = 0; i < l->n && off < len; i++)
			off += snprintf(buf + off, len - off, "%s%" PRIu64, i ? "," : "", l->v[i]);
		break;
	case OPT_CPUSET:
		s = store;
		for (i = 0; i < s->n && off < len; i++)
			off += snprintf(buf + off, len - off, "%s%d", i ? "," : "", s->cpu[i]);
		break;
	}
}

/* Room for any option's value, for checking or formatting it away from its struct. */
union opt_scratch {
	uint64_t u;
	bool b;
	int i;
	const char *s;
	struct uint_list l;
	struct cpuset c;
};

int opts_check(const struct opt_def *o, const char *text, char *err, int len)
{
	union opt_scratch *scratch = calloc(1, sizeof(*scratch));
	struct opt_def tmp = *o;
	int ret;

	if (!scratch)
		die("out of memory");
	tmp.off = 0;
	ret = opts_set(&tmp, scratch, text, err, len);
	free(scratch);
	return ret;
}

bool opts_is_default(const struct opt_def *o, const char *text)
{
	union opt_scratch scratch;
	struct opt_def tmp = *o;
	char def[OPT_TEXT_MAX], err[8];

	memset(&scratch, 0, sizeof(scratch));
	tmp.off = 0;
	if (o->def && opts_set(&tmp, &scratch, o->def, err, sizeof(err)))
		return false;
	opts_format(&tmp, &scratch, def, sizeof(def));
	return !strcmp(def, text);
}

union opt_value opts_get(const struct opt_def *o, const void *args)
{
	const void *store = cfield(o, args);
	union opt_value v = { 0 };

	switch (o->type) {
	case OPT_UINT:
	case OPT_SECONDS:
		v.u = *(const uint64_t *)store;
		break;
	case OPT_FLAG:
		v.flag = *(const bool *)store;
		break;
	case OPT_CHOICE:
		v.str = o->choices[*(const int *)store];
		break;
	case OPT_STRING:
		v.str = *(const char *const *)store;
		break;
	case OPT_UINT_LIST:
		v.list = store;
		break;
	case OPT_CPUSET:
		v.cpus = store;
		break;
	}
	return v;
}

bool opts_is_set(const struct opt_def *o, const void *args)
{
	union opt_value v = opts_get(o, args);

	switch (o->type) {
	case OPT_STRING:
		return v.str && *v.str;
	case OPT_UINT_LIST:
		return v.list->n > 0;
	case OPT_CPUSET:
		return v.cpus->n > 0;
	default:
		return true;
	}
}

bool opts_same(const struct opt_def *oa, const void *a, const struct opt_def *ob, const void *b)
{
	union opt_value x = opts_get(oa, a), y = opts_get(ob, b);

	if (oa->type != ob->type)
		return false;
	switch (oa->type) {
	case OPT_UINT:
	case OPT_SECONDS:
		return x.u == y.u;
	case OPT_FLAG:
		return x.flag == y.flag;
	case OPT_CHOICE:
	case OPT_STRING:
		return x.str && y.str ? !strcmp(x.str, y.str) : !opts_is_set(oa, a) &&
			!opts_is_set(ob, b);
	case OPT_UINT_LIST:
		return x.list->n == y.list->n &&
		       !memcmp(x.list->v, y.list->v, x.list->n * sizeof(x.list->v[0]));
	case OPT_CPUSET:
		return x.cpus->n == y.cpus->n &&
		       !memcmp(x.cpus->cpu, y.cpus->cpu, x.cpus->n * sizeof(x.cpus->cpu[0]));
	}
	return false;
}

bool opts_at_default(const struct opt_def *o, const void *args)
{
	union opt_scratch scratch;
	struct opt_def tmp = *o;
	char err[8];

	memset(&scratch, 0, sizeof(scratch));
	tmp.off = 0;
	if (o->def && opts_set(&tmp, &scratch, o->def, err, sizeof(err)))
		return false;
	return opts_same(o, args, &tmp, &scratch);
}

#define HELP_COLS	120	/* --help's widest line */
#define HELP_INDENT	35	/* where an option's text starts */

/* "  LEFT  text", the text broken into lines of HELP_COLS under its first word. */
static void help_text(const char *left, const char *text)
{
	wrap_words(stdout, printf("  %-32s ", left), HELP_INDENT, HELP_COLS, "|", text);
}

void opts_help_text(const struct opt_def *o, char *text, size_t len)
{
	char extra[160] = "";
	int i, off;

	if (o->type == OPT_UINT || o->type == OPT_UINT_LIST) {
		snprintf(extra, sizeof(extra), " [%" PRIu64 "..%" PRIu64 "]", o->min, o->max);
	} else if (o->type == OPT_SECONDS) {
		char lo[32], hi[32];

		format_seconds(o->min, lo, sizeof(lo));
		format_seconds(o->max, hi, sizeof(hi));
		snprintf(extra, sizeof(extra), " [%s..%s]", lo, hi);
	} else if (o->type == OPT_CHOICE) {
		off = snprintf(extra, sizeof(extra), " {");
		for (i = 0; o->choices[i] && off < (int)sizeof(extra); i++)
			off += snprintf(extra + off, sizeof(extra) - off, "%s%s",
					i ? "|" : "", o->choices[i]);
		if (off < (int)sizeof(extra))
			snprintf(extra + off, sizeof(extra) - off, "}");
	}
	snprintf(text, len, "%s%s%s%s%s", o->help ? o->help : "", extra,
		 o->def ? " (default " : "", o->def ? o->def : "", o->def ? ")" : "");
}

static void help_line(const struct opt_def *o)
{
	char left[64], text[1024];
	const char *val = opt_takes_value(o) ? (o->metavar ? o->metavar : "N") : "";

	if (o->short_name)
		snprintf(left, sizeof(left), "-%c, --%s %s", o->short_name, o->name, val);
	else
		snprintf(left, sizeof(left), "    --%s %s", o->name, val);
	opts_help_text(o, text, sizeof(text));
	help_text(left, text);
}

void opts_print_help(const struct opt_def *t, const char *title)
{
	if (title)
		printf("%s\n", title);
	for (; t && t->name; t++)
		if (!(t->flags & OPT_F_HIDDEN))
			help_line(t);
}

static int parse_range(const char *tok, int *lo, int *hi)
{
	const char *dash = strchr(tok, '-');
	char a[32];
	uint64_t x, y;

	if (!dash) {
		if (parse_u64(tok, &x) || x >= CPUSET_MAX)
			return -EINVAL;
		*lo = *hi = (int)x;
		return 0;
	}
	if (dash - tok >= (int)sizeof(a) || dash == tok)
		return -EINVAL;
	memcpy(a, tok, dash - tok);
	a[dash - tok] = 0;
	if (parse_u64(a, &x) || parse_u64(dash + 1, &y) || x > y || y >= CPUSET_MAX)
		return -EINVAL;
	*lo = (int)x;
	*hi = (int)y;
	return 0;
}

int parse_cpuset(const char *s, struct cpuset *set, char *err, int len)
{
	char buf[1024], *tok, *save = NULL;
	int lo, hi, c;

	set->n = 0;
	if (!*s || strlen(s) >= sizeof(buf) || s[0] == ',' || s[strlen(s) - 1] == ',' ||
	    strstr(s, ",,")) {
		snprintf(err, len, "'%s' is not a CPU list like 0-3,7", s);
		return -EINVAL;
	}
	strcpy(buf, s);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (parse_range(tok, &lo, &hi)) {
			snprintf(err, len, "'%s' is not a CPU number or range below %d", tok, CPUSET_MAX);
			return -EINVAL;
		}
		for (c = lo; c <= hi; c++) {
			if (set->n == CPUSET_MAX) {
				snprintf(err, len, "more than %d CPUs listed", CPUSET_MAX);
				return -EINVAL;
			}
			set->cpu[set->n++] = c;
		}
	}
	return 0;
}
