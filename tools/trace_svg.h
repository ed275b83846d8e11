/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * SVG primitives shared by npu-trace's timeline and acl-bandwidth's
 * plot: a document with a white background and one font, escaped text,
 * and a palette of colours that stay apart on screen and in print.
 */
#ifndef TRACE_SVG_H
#define TRACE_SVG_H

#include <stdio.h>

void svg_begin(FILE *f, int width, int height, const char *title);
void svg_end(FILE *f);
/* s with &, <, >, " and ' escaped (control characters dropped). */
void svg_escape(FILE *f, const char *s);
/* A text element; anchor is "start", "middle" or "end". */
void svg_text(FILE *f, double x, double y, const char *anchor, int size,
	      const char *fmt, ...) __attribute__((format(printf, 6, 7)));
void svg_line(FILE *f, double x1, double y1, double x2, double y2,
	      const char *stroke, double width);
/* Colour number i (any i >= 0), as "#rrggbb". */
const char *svg_color(unsigned int i);

#endif /* TRACE_SVG_H */
