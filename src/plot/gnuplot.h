/* SPDX-License-Identifier: GPL-2.0 */
/* gnuplot, run for plot and db plot (src/plot/gnuplot.c). */
#ifndef BPFBENCH_GNUPLOT_H
#define BPFBENCH_GNUPLOT_H

#include <stdbool.h>
#include <stdio.h>

/* Writes the whole script to f; its `set output` is img. */
typedef void (*gnuplot_writer)(FILE *f, void *arg, const char *img);

/*
 * The terminal, PNG or SVG, 960x580, on an opaque white background: a
 * transparent SVG is unreadable on a dark page or viewer.
 */
void gnuplot_terminal(FILE *f, bool png);
/* A gnuplot single-quoted string: only the quote itself needs doubling. */
void gnuplot_str(FILE *f, const char *s);
/*
 * The script drawn by gnuplot into out (SVG or PNG as the script sets),
 * and copied to script_copy (NULL: none) drawing into out: 0, or 1 after
 * one line.
 */
int gnuplot_draw(const char *out, const char *script_copy, gnuplot_writer write, void *arg);

#endif
