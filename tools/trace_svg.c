// SPDX-License-Identifier: GPL-2.0-only
/*
 * npu-trace and acl-bandwidth: SVG primitives (see trace_svg.h).
 */
#include <stdarg.h>
#include <stdlib.h>

#include "trace_svg.h"

/* Okabe-Ito's colour-blind-safe set, then a few darker ones. */
static const char *const palette[] = {
	"#0072b2", "#e69f00", "#009e73", "#cc79a7", "#d55e00", "#56b4e9",
	"#8c6d00", "#5a5a5a", "#7b3294", "#1b7837",
};

const char *svg_color(unsigned int i)
{
	return palette[i % (sizeof(palette) / sizeof(palette[0]))];
}

void svg_escape(FILE *f, const char *s)
{
	for (; *s; s++) {
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
			/* XML 1.0 allows no control characters but tab and newlines. */
			if ((unsigned char)*s >= 0x20 || *s == '\t' || *s == '\n')
				fputc(*s, f);
		}
	}
}

void svg_begin(FILE *f, int width, int height, const char *title)
{
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		"viewBox=\"0 0 %d %d\" font-family=\"sans-serif\">\n",
		width, height, width, height);
	fputs("<title>", f);
	svg_escape(f, title);
	fputs("</title>\n", f);
	fprintf(f, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>\n", width, height);
}

void svg_end(FILE *f)
{
	fputs("</svg>\n", f);
}

void svg_text(FILE *f, double x, double y, const char *anchor, int size,
	      const char *fmt, ...)
{
	char *s = NULL;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"%d\">",
		x, y, anchor, size);
	svg_escape(f, s);
	fputs("</text>\n", f);
	free(s);
}

void svg_line(FILE *f, double x1, double y1, double x2, double y2,
	      const char *stroke, double width)
{
	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		"stroke=\"%s\" stroke-width=\"%.1f\"/>\n", x1, y1, x2, y2, stroke, width);
}
