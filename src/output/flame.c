// SPDX-License-Identifier: GPL-2.0
/*
 * A flame graph SVG of a profile, as flamegraph.pl draws one: a frame's
 * width is its share of the samples, its children stand on it, siblings
 * in name order.  Static (a tooltip per frame, no script), so any viewer
 * and an XML parser read it.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "flame.h"
#include "util.h"

#define SVG_W		1200.0
#define FRAME_H		16
#define PAD_TOP		56
#define PAD_SIDE	10.0
#define CHAR_W		7.0	/* at font-size 12, Verdana */
#define MAX_DEPTH	256

struct open_frame {
	const char *name;
	size_t len;
	uint64_t start;
};

struct svg {
	FILE *f;
	const struct profile *p;
	int height, max_depth;
	uint64_t total;
};

/*
 * The bytes of the well-formed UTF-8 character at s (at most n of them),
 * or 0: a stray, overlong or cut byte, a surrogate, or U+FFFE/U+FFFF,
 * which XML forbids.
 */
static size_t utf8_char(const unsigned char *s, size_t n)
{
	size_t len = *s >= 0xf0 ? 4 : *s >= 0xe0 ? 3 : 2, i;
	uint32_t c;

	if (*s < 0xc2 || *s > 0xf4 || n < len)
		return 0;
	c = *s & (0x3f >> (len - 1));
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	if ((len == 3 && c < 0x800) || (len == 4 && (c < 0x10000 || c > 0x10ffff)) ||
	    (c >= 0xd800 && c <= 0xdfff) || c == 0xfffe || c == 0xffff)
		return 0;
	return len;
}

/*
 * Names come from the machine (a module is named by its file, which anyone
 * can call "<script>" or give bytes that are no UTF-8), so each is text
 * escaped, its invalid bytes U+FFFD and its controls dropped: the document
 * stays well-formed XML whatever a name holds, and one cut to fit a frame
 * is cut between characters.
 */
static void xml_text(FILE *f, const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t len;

	for (; n && *s; s += len, n -= len) {
		len = 1;
		switch (*s) {
		case '&': fputs("&amp;", f); continue;
		case '<': fputs("&lt;", f); continue;
		case '>': fputs("&gt;", f); continue;
		case '"': fputs("&quot;", f); continue;
		case '\'': fputs("&apos;", f); continue;
		}
		if (*s < 0x80) {
			if (*s >= 0x20)
				fputc(*s, f);
			continue;
		}
		len = utf8_char(s, strnlen((const char *)s, 4));
		if (len > n)
			return;		/* a character the cut would split: left out whole */
		if (len) {
			fwrite(s, 1, len, f);
		} else {
			fputs("\xef\xbf\xbd", f);	/* U+FFFD for the byte */
			len = 1;
		}
	}
}

static uint32_t name_hash(const char *s, size_t n)
{
	uint32_t h = 2166136261u;

	while (n--)
		h = (h ^ (unsigned char)*s++) * 16777619u;
	return h;
}

/* Warm for the kernel, aqua for user modules, green for our programs: the reader sees whose. */
static void color(const struct profile *p, const char *name, size_t n, char *buf, size_t len)
{
	uint32_t h = name_hash(name, n);
	int a = h % 55, b = (h >> 8) % 80;

	if (profile_is_ours(p, name, n))
		snprintf(buf, len, "rgb(%d,%d,%d)", 60 + a, 190 + a / 2, 60 + b / 2);
	else if (name[0] == '[')
		snprintf(buf, len, "rgb(%d,%d,%d)", 80 + a, 180 + a, 200 + a);
	else
		snprintf(buf, len, "rgb(%d,%d,%d)", 205 + a, 90 + b + a, 40 + a / 2);
}

static void rect(struct svg *s, const char *name, size_t n, uint64_t from, uint64_t to, int depth)
{
	double scale = (SVG_W - 2 * PAD_SIDE) / (double)s->total;
	double x = PAD_SIDE + from * scale, w = (to - from) * scale;
	double y = s->height - (depth + 1) * FRAME_H - 10;
	size_t fit = w > 3 * CHAR_W ? (size_t)(w / CHAR_W) - 1 : 0;
	char fill[32];

	if (w < 0.1)
		return;		/* narrower than a pixel's tenth: invisible, and the file stays small */
	color(s->p, name, n, fill, sizeof(fill));
	fputs("<g><title>", s->f);
	xml_text(s->f, name, n);
	fprintf(s->f, " (%llu samples, %.2f%%)</title>", (unsigned long long)(to - from),
		100.0 * (to - from) / s->total);
	fprintf(s->f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" fill=\"%s\" "
		"rx=\"2\" ry=\"2\"/>", x, y, w, FRAME_H - 1, fill);
	if (fit >= 3) {
		fprintf(s->f, "<text x=\"%.1f\" y=\"%.1f\">", x + 3, y + FRAME_H - 5);
		if (n > fit) {
			xml_text(s->f, name, fit - 2);
			fputs("..", s->f);
		} else {
			xml_text(s->f, name, n);
		}
		fputs("</text>", s->f);
	}
	fputs("</g>\n", s->f);
}

/* The folded order, but ';' before any character, so a frame's children stay together. */
static int frame_order(const void *a, const void *b)
{
	const unsigned char *x = (const void *)(*(const struct prof_stack *const *)a)->folded;
	const unsigned char *y = (const void *)(*(const struct prof_stack *const *)b)->folded;

	for (; *x && *x == *y; x++, y++)
		;
	return (*x == ';' ? 1 : *x) - (*y == ';' ? 1 : *y);
}

static int depth_of(const char *s)
{
	int d = 1;

	while ((s = strchr(s, ';')))
		d++, s++;
	return d;
}

/* The stacks as frames: each stack continues the frames it shares with the one before. */
static void frames(struct svg *s, const struct prof_stack **st, int n)
{
	struct open_frame open[MAX_DEPTH];
	uint64_t x = 0;
	int i, d = 0, k;

	for (i = 0; i < n; i++) {
		const char *f = st[i]->folded, *e;

		for (k = 0; k < MAX_DEPTH; k++, f = e + 1) {
			e = strchr(f, ';');
			size_t len = e ? (size_t)(e - f) : strlen(f);

			if (k >= d || open[k].len != len || memcmp(open[k].name, f, len)) {
				while (d > k) {
					d--;
					rect(s, open[d].name, open[d].len, open[d].start, x, d + 1);
				}
				open[d].name = f;
				open[d].len = len;
				open[d++].start = x;
			}
			if (!e)
				break;
		}
		while (d > k + 1) {	/* deeper frames of the stack before end here */
			d--;
			rect(s, open[d].name, open[d].len, open[d].start, x, d + 1);
		}
		x += st[i]->count;
	}
	while (d > 0) {
		d--;
		rect(s, open[d].name, open[d].len, open[d].start, x, d + 1);
	}
}

static void header(struct svg *s, const struct prof_view *v)
{
	char cond[160];

	prof_conditions(v->p, cond, sizeof(cond));
	fprintf(s->f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%.0f\" "
		"height=\"%d\" viewBox=\"0 0 %.0f %d\" font-family=\"Verdana, sans-serif\" "
		"font-size=\"12\">\n<title>", SVG_W, s->height, SVG_W, s->height);
	xml_text(s->f, v->title, SIZE_MAX);
	fputs("</title>\n", s->f);
	fprintf(s->f, "<rect x=\"0\" y=\"0\" width=\"100%%\" height=\"100%%\" fill=\"#f8f8f0\"/>\n"
		"<text x=\"%.0f\" y=\"22\" text-anchor=\"middle\" font-size=\"16\">", SVG_W / 2);
	xml_text(s->f, v->title, SIZE_MAX);
	fprintf(s->f, "</text>\n<text x=\"%.0f\" y=\"42\" text-anchor=\"middle\" "
		"fill=\"#555\">", SVG_W / 2);
	xml_text(s->f, cond, SIZE_MAX);
	if (!isnan(v->ns_per_op))
		fprintf(s->f, "; %.3f ns/op: a frame's share of it is its width", v->ns_per_op);
	fputs("</text>\n", s->f);
}

void prof_write_svg(FILE *f, void *arg)
{
	const struct prof_view *v = arg;
	const struct profile *p = v->p;
	const struct prof_stack **st = xcalloc(p->nr_stacks ?: 1, sizeof(*st));
	struct svg s = { .f = f, .p = p, .total = p->samples };
	int i;

	for (i = 0; i < p->nr_stacks; i++) {
		st[i] = &p->stacks[i];
		if (depth_of(st[i]->folded) > s.max_depth)
			s.max_depth = depth_of(st[i]->folded);
	}
	if (s.max_depth > MAX_DEPTH)
		s.max_depth = MAX_DEPTH;
	s.height = PAD_TOP + (s.max_depth + 1) * FRAME_H + 20;
	qsort(st, p->nr_stacks, sizeof(*st), frame_order);
	header(&s, v);
	if (s.total) {
		rect(&s, "all", 3, 0, s.total, 0);
		frames(&s, st, p->nr_stacks);
	}
	fputs("</svg>\n", f);
	free(st);
}
