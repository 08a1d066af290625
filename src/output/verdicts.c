// SPDX-License-Identifier: GPL-2.0
/* The verdicts of a gate as test cases (verdicts.h), for the formats that write them. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "formats.h"
#include "util.h"
#include "verdicts.h"

void verdicts_add(struct verdicts *v, const char *group, const char *name,
		  enum verdict_status status, const char *detail, const char *why, ...)
{
	struct verdict_case *c;
	va_list ap;

	v->cases = xgrow(v->cases, v->n, &v->cap, 16, sizeof(*v->cases));
	c = &v->cases[v->n++];
	memset(c, 0, sizeof(*c));
	c->group = xstrdup(group);
	c->name = xstrdup(name);
	c->status = status;
	c->detail = detail ? xstrdup(detail) : NULL;
	if (why) {
		va_start(ap, why);
		if (vasprintf(&c->why, why, ap) < 0)
			die("out of memory");
		va_end(ap);
	}
	v->nr[status]++;
}

void verdicts_free(struct verdicts *v)
{
	int i;

	for (i = 0; i < v->n; i++) {
		free(v->cases[i].group);
		free(v->cases[i].name);
		free(v->cases[i].why);
		free(v->cases[i].detail);
	}
	free(v->cases);
	v->cases = NULL;
	v->n = v->cap = 0;
	memset(v->nr, 0, sizeof(v->nr));
}

int verdicts_write(const char *const *paths, const struct verdicts *v)
{
	struct out_doc d = { .kind = OUT_K_VERDICTS, .title = v->suite, .verdicts = v };

	return out_write(paths, &d);
}

void verdict_line(char *buf, size_t len, const char *text)
{
	size_t n = 0;

	for (; text && *text && n + 3 < len; text++) {
		if (*text == '#') {
			memcpy(buf + n, "no.", 3);
			n += 3;
		} else {
			buf[n++] = (unsigned char)*text < 0x20 || *text == 0x7f ? ' ' : *text;
		}
	}
	buf[n] = 0;
}
