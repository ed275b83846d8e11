// SPDX-License-Identifier: GPL-2.0-only
/*
 * acl-bandwidth: --plot, bandwidth (median GB/s) against transfer size
 * on a log2 axis, one line per test and memory kind, host memcpy dashed;
 * with --latency, below it a second panel: one bar per latency row, its
 * multiple of the null ioctl on a log10 axis, labelled with its time.
 */
#include <errno.h>
#include <math.h>

#include "acl_latency.h"
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

/* The bandwidth panel, at the top of the document. */
static void draw_bandwidth(FILE *f, const struct bw_report *rep)
{
	struct axes a;
	char what[48];
	int t, m, row = 0;

	find_axes(rep, &a);
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
}

/* The latency panel: its rows start LAT_TOP below @y0, LAT_ROW apart. */
#define LAT_TOP 60
#define LAT_ROW 18
#define LAT_BOTTOM 50
#define LX0 300
#define LX1 (W - 150)

static double lat_height(const struct bw_report *rep)
{
	return LAT_TOP + (double)rep->nr_lat * LAT_ROW + LAT_BOTTOM;
}

/* x of a multiple of the null ioctl: log10 from 1 (the null ioctl) to @top. */
static double lx(double x_null, double top)
{
	double v = x_null > 1 ? log10(x_null) / log10(top) : 0;

	return LX0 + fmin(v, 1) * (LX1 - LX0);
}

/* Decimals that leave about three significant digits of @v. */
static int digits(double v)
{
	return v >= 100 ? 0 : v >= 10 ? 1 : 2;
}

static void lat_axis(FILE *f, double y0, double y1, double top)
{
	double v;

	for (v = 1; v <= top * 1.001; v *= 10) {
		svg_line(f, lx(v, top), y0, lx(v, top), y1, "#e0e0e0", 1);
		svg_text(f, lx(v, top), y1 + 14, "middle", 10, "%gx", v);
	}
	svg_line(f, LX0, y1, LX1, y1, "black", 1);
	svg_text(f, (LX0 + LX1) / 2.0, y1 + 32, "middle", 12,
		 "multiple of the null ioctl (log scale); bar label: us per call");
}

static void draw_latency(FILE *f, const struct bw_report *rep, double y0)
{
	double top = 10, y;
	size_t i;

	for (i = 0; i < rep->nr_lat; i++)
		top = fmax(top, rep->lat[i].x_null);
	top = pow(10, ceil(log10(top)));
	svg_text(f, W / 2.0, y0 + 30, "middle", 14,
		 "latency, call to completion: device %d (%s), median of %d rounds of %u calls",
		 rep->device, rep->backend[0] ? rep->backend : "?", LAT_ROUNDS,
		 rep->o->calls);
	lat_axis(f, y0 + LAT_TOP - 4, y0 + LAT_TOP + rep->nr_lat * LAT_ROW, top);
	for (i = 0; i < rep->nr_lat; i++) {
		const struct bw_latency *l = &rep->lat[i];

		y = y0 + LAT_TOP + i * LAT_ROW;
		svg_text(f, LX0 - 6, y + 12, "end", 11, "%s", l->name);
		fprintf(f, "<rect x=\"%d\" y=\"%.1f\" width=\"%.1f\" height=\"%d\" "
			"fill=\"%s\"/>\n", LX0, y + 2,
			fmax(lx(l->x_null, top) - LX0, 1), LAT_ROW - 4,
			svg_color(i ? 0 : 7));
		/* Three digits, but no exponent: "1520 us, 1000x". */
		svg_text(f, lx(l->x_null, top) + 4, y + 12, "start", 10, "%.*f us, %.*fx",
			 digits(l->us), l->us, digits(l->x_null), l->x_null);
	}
}

int bw_write_plot(FILE *f, const struct bw_report *rep)
{
	/* The bandwidth panel unless only latencies were measured (-t none). */
	bool bw = rep->o->tests || !rep->nr_lat;
	double y0 = bw ? H : 0;

	svg_begin(f, W, (int)(y0 + (rep->nr_lat ? lat_height(rep) : 0)), "acl-bandwidth");
	if (bw)
		draw_bandwidth(f, rep);
	if (rep->nr_lat)
		draw_latency(f, rep, y0);
	svg_end(f);
	return ferror(f) ? -EIO : 0;
}
