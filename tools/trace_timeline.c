// SPDX-License-Identifier: GPL-2.0-only
/*
 * npu-trace: the SVG timeline (trace_out.h). One row per track, grouped
 * by NPU; time runs left to right on a shared axis, so copies of two
 * streams that overlap in time stand above one another. Each box has a
 * tooltip (<title>) with the copy's fields.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include <drm/npu_dma_accel.h>

#include "trace_out.h"
#include "trace_svg.h"

#define W 1200
#define LABEL_W 190
#define PLOT_X (LABEL_W + 10)
#define PLOT_W (W - PLOT_X - 20)
#define TOP 70
#define ROW_H 20
#define NPU_H 24

struct layout {
	double t0, scale;	/* µs at PLOT_X, pixels per µs */
	const struct tr_track *tracks;
	size_t nr;
};

/* Colour of a copy by direction (a fill has its own). */
static const char *slice_color(const struct tr_slice *s)
{
	if (s->op == NPU_DMA_OP_FILL)
		return svg_color(3);
	if (s->peer >= 0)
		return svg_color(4);
	switch (s->flags & (NPU_DMA_DESC_F_SRC_HOST | NPU_DMA_DESC_F_DST_HOST)) {
	case NPU_DMA_DESC_F_SRC_HOST:
		return svg_color(0);
	case NPU_DMA_DESC_F_DST_HOST:
		return svg_color(1);
	case 0:
		return svg_color(2);
	default:
		return svg_color(7);
	}
}

/* y of the top of track index i: rows plus one header per NPU above it. */
static double track_y(const struct layout *l, size_t i)
{
	size_t k, npus = 0;

	for (k = 0; k <= i; k++)
		if (!k || l->tracks[k].npu != l->tracks[k - 1].npu)
			npus++;
	return TOP + (double)npus * NPU_H + (double)i * ROW_H;
}

static long find_track(const struct layout *l, const struct tr_track *t)
{
	size_t i;

	for (i = 0; i < l->nr; i++)
		if (l->tracks[i].npu == t->npu && l->tracks[i].kind == t->kind &&
		    l->tracks[i].id == t->id && l->tracks[i].lane == t->lane)
			return (long)i;
	return -1;
}

/* A human size: 512 B, 4 KiB, 1.5 MiB. */
static void human(char *buf, size_t size, uint64_t b)
{
	if (b >= (1ULL << 30))
		snprintf(buf, size, "%.3g GiB", b / 1073741824.0);
	else if (b >= (1ULL << 20))
		snprintf(buf, size, "%.3g MiB", b / 1048576.0);
	else if (b >= 1024)
		snprintf(buf, size, "%.3g KiB", b / 1024.0);
	else
		snprintf(buf, size, "%llu B", (unsigned long long)b);
}

static void draw_box(FILE *f, const struct layout *l, const struct tr_slice *s,
		     const struct tr_track *t)
{
	long i = find_track(l, t);
	double x = PLOT_X + (s->start_us - l->t0) * l->scale;
	double w = fmax(1.0, (s->end_us - s->start_us) * l->scale);
	double y;
	char sz[32];

	if (i < 0)
		return;
	y = track_y(l, (size_t)i) + 2;
	human(sz, sizeof(sz), s->bytes);
	fprintf(f, "<rect x=\"%.2f\" y=\"%.1f\" width=\"%.2f\" height=\"%d\" fill=\"%s\"%s>",
		x, y, w, ROW_H - 4, slice_color(s),
		s->status ? " stroke=\"red\" stroke-width=\"2\"" : "");
	fprintf(f, "<title>");
	svg_escape(f, tr_direction(s->flags, s->peer));
	fprintf(f, " %s %s: %llu bytes, queue %u seq %llu, channel %d, "
		"%.1f us (queued %.1f us), status %d</title></rect>\n",
		tr_op_name(s->op), sz, (unsigned long long)s->bytes, s->queue,
		(unsigned long long)s->seq, s->chan, s->end_us - s->start_us,
		s->start_us - s->submit_us, s->status);
	if (w > 70)
		svg_text(f, x + 3, y + ROW_H - 8, "start", 10, "%s %s",
			 s->op == NPU_DMA_OP_FILL ? "fill" : tr_direction(s->flags, s->peer), sz);
}

static void draw_instant(FILE *f, const struct layout *l, const struct tr_event *ev)
{
	struct tr_track t = { ev->npu, TR_TRACK_HOST, 0, 0 };
	const char *color = ev->kind == TR_PIN ? svg_color(2) : svg_color(7);
	long i;
	double x, y;

	if (ev->kind == TR_ERROR) {
		t = (struct tr_track){ ev->npu, TR_TRACK_QUEUE, ev->queue, 0 };
		color = "red";
	}
	i = find_track(l, &t);
	if (i < 0)
		return;
	x = PLOT_X + (ev->ts_us - l->t0) * l->scale;
	y = track_y(l, (size_t)i);
	fprintf(f, "<path d=\"M%.2f %.1f l-4 %d h8 z\" fill=\"%s\"><title>%s %s: ",
		x, y + 2, ROW_H - 6, color, tr_kind_name(ev->kind),
		ev->kind == TR_ERROR ? "status" : "bytes");
	if (ev->kind == TR_ERROR)
		fprintf(f, "%d, seq %llu", ev->status, (unsigned long long)ev->seq);
	else
		fprintf(f, "%llu, %llu pages%s", (unsigned long long)ev->len,
			(unsigned long long)ev->pages, ev->longterm ? ", registered" : "");
	fputs("</title></path>\n", f);
}

/* Axis ticks at 1, 2 or 5 times a power of ten, about 8 of them. */
static void draw_axis(FILE *f, const struct layout *l, double span, double bottom)
{
	double step = pow(10, floor(log10(span / 8))), t;

	if (span / step > 40)
		step *= 5;
	else if (span / step > 16)
		step *= 2;
	for (t = 0; t <= span + step / 2; t += step) {
		double x = PLOT_X + t * l->scale;

		svg_line(f, x, TOP - 10, x, bottom, "#dddddd", 1);
		if (span >= 5000)
			svg_text(f, x, TOP - 14, "middle", 10, "%g ms", t / 1000);
		else
			svg_text(f, x, TOP - 14, "middle", 10, "%g us", t);
	}
}

static void draw_labels(FILE *f, const struct tr_model *m, const struct layout *l)
{
	char name[64];
	size_t i;

	for (i = 0; i < l->nr; i++) {
		double y = track_y(l, i);

		if (!i || l->tracks[i].npu != l->tracks[i - 1].npu) {
			tr_npu_name(m, l->tracks[i].npu, name, sizeof(name));
			svg_text(f, 8, y - 6, "start", 13, "%s", name);
			svg_line(f, 8, y - 2, W - 10, y - 2, "#999999", 1);
		}
		tr_track_name(&l->tracks[i], name, sizeof(name));
		svg_text(f, 20, y + ROW_H - 6, "start", 11, "%s", name);
	}
}

static void draw_legend(FILE *f, double y)
{
	static const struct { unsigned int color; const char *what; } keys[] = {
		{ 0, "H2D" }, { 1, "D2H" }, { 2, "D2D" }, { 4, "P2P" }, { 3, "fill" },
		{ 7, "H2H" },
	};
	size_t i;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		double x = PLOT_X + (double)i * 90;

		fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"14\" height=\"12\" fill=\"%s\"/>\n",
			x, y, svg_color(keys[i].color));
		svg_text(f, x + 18, y + 10, "start", 11, "%s", keys[i].what);
	}
	svg_text(f, PLOT_X + (double)i * 90 + 20, y + 10, "start", 11,
		 "red outline: failed; triangles: pins (green), unpins (grey), errors (red)");
}

int tr_write_svg(FILE *f, const struct tr_model *m, const char *command)
{
	struct tr_track *tracks = NULL;
	struct layout l;
	double span, bottom;
	size_t i;
	int h;

	if (tr_model_tracks(m, &tracks, &l.nr))
		return -ENOMEM;
	l.tracks = tracks;
	l.t0 = m->t0_us;
	span = fmax(m->t1_us - m->t0_us, 1.0);
	l.scale = PLOT_W / span;
	bottom = l.nr ? track_y(&l, l.nr - 1) + ROW_H : TOP;
	h = (int)bottom + 50;
	svg_begin(f, W, h, "npu-trace timeline");
	svg_text(f, 8, 20, "start", 14, "npu-trace: %s", command ? command : "");
	svg_text(f, 8, 38, "start", 11, "%zu copies, %zu events, %.3f ms",
		 m->nr_slices, m->nr_events, (m->t1_us - m->t0_us) / 1000);
	draw_axis(f, &l, span, bottom);
	draw_labels(f, m, &l);
	for (i = 0; i < m->nr_slices; i++) {
		const struct tr_slice *s = &m->slices[i];
		struct tr_track q = { s->npu, TR_TRACK_QUEUE, s->queue, s->lane };
		struct tr_track c = { s->npu, TR_TRACK_CHANNEL, (uint32_t)s->chan, 0 };

		draw_box(f, &l, s, &q);
		if (s->chan >= 0)
			draw_box(f, &l, s, &c);
	}
	for (i = 0; i < m->nr_instants; i++)
		draw_instant(f, &l, &m->instants[i].ev);
	if (!l.nr)
		svg_text(f, PLOT_X, TOP + 20, "start", 12, "no copies recorded");
	draw_legend(f, bottom + 20);
	svg_end(f);
	free(tracks);
	return ferror(f) ? -EIO : 0;
}
