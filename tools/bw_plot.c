// SPDX-License-Identifier: GPL-2.0-only
/*
 * acl-bandwidth: --plot, bandwidth (median GB/s) against transfer size
 * on a log2 axis, one line per test and memory kind, host memcpy dashed.
 */
#include <errno.h>
#include <math.h>

#include "bw.h"
#include "trace_svg.h"

#define W 900
#define H 520
#define X0 80
#define X1 (W - 190)
#define Y0 (H - 60)
#define Y1 50

struct axes {
	double lmin, lmax;	/* log2 of the smallest and largest size */
	double ymax;
};

static double px(const struct axes *a, uint64_t bytes)
{
	double span = a->lmax - a->lmin;

	return X0 + (span > 0 ? (log2((double)bytes) - a->lmin) / span : 0.5) * (X1 - X0);
}

static double py(const struct axes *a, double gbps)
{
	return Y0 - gbps / a->ymax * (Y0 - Y1);
}

/* A round axis top above v: 1, 2 or 5 times a power of ten. */
static double nice_top(double v)
{
	double p = pow(10, floor(log10(v)));

	if (v <= p)
		return p;
	if (v <= 2 * p)
		return 2 * p;
	return v <= 5 * p ? 5 * p : 10 * p;
}

static void find_axes(const struct bw_report *rep, struct axes *a)
{
	double top = 0;
	size_t i;

	a->lmin = INFINITY;
	a->lmax = -INFINITY;
	for (i = 0; i < rep->nr; i++) {
		const struct bw_result *r = &rep->r[i];
		double l = log2((double)r->bytes);

		a->lmin = fmin(a->lmin, l);
		a->lmax = fmax(a->lmax, l);
		if (r->status == BW_OK)
			top = fmax(top, r->gbps.median);
		top = fmax(top, r->memcpy_gbps);
	}
	if (!rep->nr)
		a->lmin = a->lmax = 10;
	a->ymax = top > 0 ? nice_top(top) : 1;
}

static void draw_frame(FILE *f, const struct axes *a)
{
	char label[32];
	int l, k;

	svg_line(f, X0, Y0, X1, Y0, "black", 1);
	svg_line(f, X0, Y0, X0, Y1, "black", 1);
	for (k = 0; k <= 5; k++) {
		double v = a->ymax * k / 5, y = py(a, v);

		svg_line(f, X0, y, X1, y, "#e0e0e0", 1);
		svg_text(f, X0 - 6, y + 4, "end", 11, "%g", v);
	}
	for (l = (int)ceil(a->lmin); l <= (int)floor(a->lmax); l++) {
		double x = px(a, 1ULL << l);

		if (a->lmax - a->lmin > 12 && l % 2)
			continue;
		svg_line(f, x, Y0, x, Y0 + 5, "black", 1);
		bw_size_str(label, sizeof(label), 1ULL << l);
		svg_text(f, x, Y0 + 18, "middle", 10, "%s", label);
	}
	svg_text(f, (X0 + X1) / 2.0, H - 20, "middle", 12, "transfer size (log scale)");
	fprintf(f, "<text x=\"20\" y=\"%d\" font-size=\"12\" text-anchor=\"middle\" "
		"transform=\"rotate(-90 20 %d)\">median GB/s (10^9 B/s)</text>\n",
		(Y0 + Y1) / 2, (Y0 + Y1) / 2);
}

/* One series: the OK results of (test, mem), or memcpy when test < 0. */
static int draw_series(FILE *f, const struct bw_report *rep, const struct axes *a,
		       int test, enum bw_mem mem, const char *color)
{
	int n = 0;
	size_t i;

	fputs("<polyline fill=\"none\" stroke-width=\"2\" points=\"", f);
	for (i = 0; i < rep->nr; i++) {
		const struct bw_result *r = &rep->r[i];
		double v = test < 0 ? r->memcpy_gbps : r->gbps.median;

		if (test >= 0 && ((int)r->test != test || r->mem != mem || r->status != BW_OK))
			continue;
		/* memcpy is measured once per size: take the first case's. */
		if (test < 0 && (v <= 0 || r->test != rep->r[0].test ||
				 r->mem != rep->r[0].mem))
			continue;
		fprintf(f, "%s%.1f,%.1f", n++ ? " " : "", px(a, r->bytes), py(a, v));
	}
	fprintf(f, "\" stroke=\"%s\"%s/>\n", color,
		test < 0 ? " stroke-dasharray=\"6 4\"" : "");
	return n;
}

static void legend(FILE *f, int row, const char *color, const char *what, int dashed)
{
	double y = Y1 + 10 + row * 20;

	fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"%s\" "
		"stroke-width=\"2\"%s/>\n", X1 + 20, y, X1 + 45, y, color,
		dashed ? " stroke-dasharray=\"6 4\"" : "");
	svg_text(f, X1 + 52, y + 4, "start", 11, "%s", what);
}

int bw_write_plot(FILE *f, const struct bw_report *rep)
{
	struct axes a;
	char what[48];
	int t, m, row = 0;

	find_axes(rep, &a);
	svg_begin(f, W, H, "acl-bandwidth");
	svg_text(f, W / 2.0, 24, "middle", 14, "acl-bandwidth: device %d (%s), %u iterations",
		 rep->device, rep->backend[0] ? rep->backend : "?", rep->o->iterations);
	draw_frame(f, &a);
	for (t = 0; t < BW_NR_TESTS; t++)
		for (m = 0; m < BW_NR_MEMS; m++) {
			/* A new colour for each line drawn (grey is memcpy's). */
			const char *color = svg_color((unsigned int)(row < 7 ? row : row + 1));

			if (!draw_series(f, rep, &a, t, m, color))
				continue;
			snprintf(what, sizeof(what), "%s %s", bw_test_name(t), bw_mem_name(m));
			legend(f, row++, color, what, 0);
		}
	if (draw_series(f, rep, &a, -1, BW_DEVICE, "#555555"))
		legend(f, row, "#555555", "host memcpy", 1);
	svg_end(f);
	return ferror(f) ? -EIO : 0;
}
