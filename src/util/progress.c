// SPDX-License-Identifier: GPL-2.0
/*
 * The progress line (src/util/util.h): one line on stderr, on a terminal
 * only, rewritten in place ("\r", erase to the end of the line).  Every
 * other line stderr gets while it is shown (errmsg(), vmsg(), libbpf's
 * words) erases it first and draws it again after, so that a message
 * never starts in the middle of a progress line, nor a progress line in
 * the middle of a message.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include "util.h"

#define LINE_MAX_BYTES	512
#define DEFAULT_COLUMNS	120

static char line[LINE_MAX_BYTES];
static bool shown;		/* line is on the terminal */
static bool hidden;		/* erased for a message, to be drawn again */

bool stderr_is_tty(void)
{
	const char *v = getenv("BPFBENCH_STDERR_TTY");

	if (v && (!strcmp(v, "0") || !strcmp(v, "1")))
		return *v == '1';
	return isatty(STDERR_FILENO);
}

/* The terminal's width, else $COLUMNS, else 120. */
static int columns(void)
{
	struct winsize ws;
	const char *env;
	int n;

	if (!ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) && ws.ws_col > 0)
		return ws.ws_col;
	env = getenv("COLUMNS");
	n = env ? atoi(env) : 0;
	return n > 0 ? n : DEFAULT_COLUMNS;
}

/* s cut to at most width display columns (UTF-8: a character is never split). */
static void cut(char *s, int width)
{
	int w = 0;

	for (; *s; s++) {
		if (((unsigned char)*s & 0xc0) == 0x80)
			continue;
		if (++w > width) {
			*s = 0;
			return;
		}
	}
}

static void draw(void)
{
	fprintf(stderr, "\r\033[K%s", line);
	fflush(stderr);
	shown = true;
}

void progress_line(const char *fmt, ...)
{
	va_list ap;
	char *c;

	if (!stderr_is_tty())
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	for (c = line; *c; c++)	/* one line, whatever a name holds */
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
	/* the cursor stays on the line: never the last column (a terminal would wrap) */
	cut(line, columns() - 1);
	hidden = false;
	draw();
}

void progress_line_end(void)
{
	if (shown) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
	}
	shown = hidden = false;
}

void progress_line_hide(void)
{
	if (!shown)
		return;
	progress_line_end();
	hidden = true;
}

void progress_line_redraw(void)
{
	if (hidden) {
		hidden = false;
		draw();
	}
}
