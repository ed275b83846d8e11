// SPDX-License-Identifier: GPL-2.0-only
/*
 * npu-trace: pair submit/start/complete events into slices (trace_model.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <drm/npu_dma_accel.h>

#include "trace_model.h"

void tr_model_init(struct tr_model *m)
{
	memset(m, 0, sizeof(*m));
}

void tr_model_free(struct tr_model *m)
{
	free(m->slices);
	free(m->instants);
	free(m->open);
	tr_model_init(m);
}

const char *tr_direction(uint32_t flags, int peer)
{
	static const char *const dir[4] = { "D2D", "H2D", "D2H", "H2H" };

	if (peer >= 0)
		return "P2P";
	return dir[flags & (NPU_DMA_DESC_F_SRC_HOST | NPU_DMA_DESC_F_DST_HOST)];
}

const char *tr_op_name(uint32_t op)
{
	static const char *const names[NPU_DMA_OP_MAX + 1] = {
		[NPU_DMA_OP_NOP] = "nop",
		[NPU_DMA_OP_COPY] = "copy",
		[NPU_DMA_OP_COPY_2D] = "copy_2d",
		[NPU_DMA_OP_FILL] = "fill",
		[NPU_DMA_OP_EVENT_RECORD] = "event_record",
		[NPU_DMA_OP_WAIT] = "wait",
		[NPU_DMA_OP_HOST_BARRIER] = "host_barrier",
		[NPU_DMA_OP_BATCH_BEGIN] = "batch_begin",
		[NPU_DMA_OP_BATCH_END] = "batch_end",
		[NPU_DMA_OP_GRAPH] = "graph",
		[NPU_DMA_OP_COPY_INDIRECT] = "copy_indirect",
		[NPU_DMA_OP_SIGNAL] = "signal",
		[NPU_DMA_OP_WAIT_SIGNAL] = "wait_signal",
		[NPU_DMA_OP_REDUCE] = "reduce",
	};

	return op <= NPU_DMA_OP_MAX ? names[op] : "unknown";
}

/* Make room for one more element of size sz in *arr. */
static int grow(void **arr, size_t *cap, size_t nr, size_t sz)
{
	size_t ncap = *cap ? *cap * 2 : 64;
	void *p;

	if (nr < *cap)
		return 0;
	p = realloc(*arr, ncap * sz);
	if (!p)
		return -ENOMEM;
	*arr = p;
	*cap = ncap;
	return 0;
}

/* The open job of this event, or NULL. */
static struct tr_slice *find_open(struct tr_model *m, const struct tr_event *ev)
{
	size_t i;

	for (i = m->nr_open; i-- > 0;) {
		struct tr_slice *s = &m->open[i];

		if (s->npu == ev->npu && s->queue == ev->queue && s->seq == ev->seq)
			return s;
	}
	return NULL;
}

static int add_instant(struct tr_model *m, const struct tr_event *ev)
{
	if (grow((void **)&m->instants, &m->cap_instants, m->nr_instants,
		 sizeof(*m->instants)))
		return -ENOMEM;
	m->instants[m->nr_instants++].ev = *ev;
	return 0;
}

static int on_submit(struct tr_model *m, const struct tr_event *ev)
{
	struct tr_slice *s;

	if (grow((void **)&m->open, &m->cap_open, m->nr_open, sizeof(*m->open)))
		return -ENOMEM;
	s = &m->open[m->nr_open++];
	memset(s, 0, sizeof(*s));
	s->npu = ev->npu;
	s->queue = ev->queue;
	s->seq = ev->seq;
	s->op = ev->op;
	s->flags = ev->flags;
	s->bytes = ev->bytes;
	s->peer = ev->peer;
	s->chan = -1;
	s->pid = ev->pid;
	s->submit_us = ev->ts_us;
	s->start_us = -1;
	return 0;
}

/* The job retired: a slice if it ran on a channel; then forget it. */
static int on_complete(struct tr_model *m, const struct tr_event *ev)
{
	struct tr_slice *s = find_open(m, ev);
	int ret = 0;

	if (!s) {
		m->nr_unmatched++;
		return 0;
	}
	if (s->start_us >= 0) {
		ret = grow((void **)&m->slices, &m->cap_slices, m->nr_slices,
			   sizeof(*m->slices));
		if (!ret) {
			s->end_us = ev->ts_us;
			s->status = ev->status;
			m->slices[m->nr_slices++] = *s;
		}
	}
	*s = m->open[--m->nr_open];
	return ret;
}

int tr_model_add(struct tr_model *m, const struct tr_event *ev)
{
	struct tr_slice *s;

	if (!m->nr_events++ || ev->ts_us < m->t0_us)
		m->t0_us = ev->ts_us;
	if (ev->ts_us > m->t1_us)
		m->t1_us = ev->ts_us;
	switch (ev->kind) {
	case TR_SUBMIT:
		return on_submit(m, ev);
	case TR_START:
		s = find_open(m, ev);
		if (s) {
			s->start_us = ev->ts_us;
			s->chan = ev->chan;
		}
		return 0;
	case TR_COMPLETE:
		return on_complete(m, ev);
	case TR_ERROR:
		s = find_open(m, ev);
		/* A job that never started shows as an instant. */
		return s && s->start_us >= 0 ? 0 : add_instant(m, ev);
	case TR_PIN:
	case TR_UNPIN:
		return add_instant(m, ev);
	default:
		m->nr_irqs++;
		return 0;
	}
}

static int by_start(const void *a, const void *b)
{
	const struct tr_slice *x = a, *y = b;

	if (x->start_us != y->start_us)
		return x->start_us < y->start_us ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Lane occupancy of one queue while the sorted slices are swept. */
struct lane_state {
	int npu;
	uint32_t queue;
	double busy[TR_MAX_LANES];	/* end of the last slice per lane */
};

/*
 * First-fit over slices sorted by start: the lowest lane of its queue
 * that is free at the slice's start (the last lane takes any excess).
 */
static int assign_lanes(struct tr_model *m)
{
	struct lane_state *st = NULL;
	size_t i, k, nr = 0, cap = 0;

	for (i = 0; i < m->nr_slices; i++) {
		struct tr_slice *s = &m->slices[i];
		int lane;

		for (k = 0; k < nr; k++)
			if (st[k].npu == s->npu && st[k].queue == s->queue)
				break;
		if (k == nr) {
			if (grow((void **)&st, &cap, nr, sizeof(*st))) {
				free(st);
				return -ENOMEM;
			}
			memset(&st[nr], 0, sizeof(*st));
			st[nr].npu = s->npu;
			st[nr++].queue = s->queue;
		}
		for (lane = 0; lane < TR_MAX_LANES - 1; lane++)
			if (st[k].busy[lane] <= s->start_us)
				break;
		s->lane = lane;
		if (s->end_us > st[k].busy[lane])
			st[k].busy[lane] = s->end_us;
	}
	free(st);
	return 0;
}

int tr_model_finish(struct tr_model *m)
{
	qsort(m->slices, m->nr_slices, sizeof(*m->slices), by_start);
	return assign_lanes(m);
}

static int by_track(const void *a, const void *b)
{
	const struct tr_track *x = a, *y = b;

	if (x->npu != y->npu)
		return x->npu - y->npu;
	if (x->kind != y->kind)
		return (int)x->kind - (int)y->kind;
	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return x->lane - y->lane;
}

/* Add track t unless present. */
static int add_track(struct tr_track **tracks, size_t *nr, size_t *cap,
		     const struct tr_track *t)
{
	size_t i;

	for (i = 0; i < *nr; i++)
		if (!by_track(&(*tracks)[i], t))
			return 0;
	if (grow((void **)tracks, cap, *nr, sizeof(**tracks)))
		return -ENOMEM;
	(*tracks)[(*nr)++] = *t;
	return 0;
}

int tr_model_tracks(const struct tr_model *m, struct tr_track **out, size_t *nr)
{
	struct tr_track *tracks = NULL, t;
	size_t i, cap = 0;
	int ret = 0;

	*nr = 0;
	for (i = 0; i < m->nr_slices && !ret; i++) {
		const struct tr_slice *s = &m->slices[i];

		t = (struct tr_track){ s->npu, TR_TRACK_QUEUE, s->queue, s->lane };
		ret = add_track(&tracks, nr, &cap, &t);
		t = (struct tr_track){ s->npu, TR_TRACK_CHANNEL, (uint32_t)s->chan, 0 };
		if (!ret && s->chan >= 0)
			ret = add_track(&tracks, nr, &cap, &t);
	}
	for (i = 0; i < m->nr_instants && !ret; i++) {
		const struct tr_event *ev = &m->instants[i].ev;

		if (ev->kind == TR_ERROR)
			t = (struct tr_track){ ev->npu, TR_TRACK_QUEUE, ev->queue, 0 };
		else
			t = (struct tr_track){ ev->npu, TR_TRACK_HOST, 0, 0 };
		ret = add_track(&tracks, nr, &cap, &t);
	}
	if (ret) {
		free(tracks);
		*nr = 0;
		return ret;
	}
	qsort(tracks, *nr, sizeof(*tracks), by_track);
	*out = tracks;
	return 0;
}

int tr_track_tid(const struct tr_track *t)
{
	switch (t->kind) {
	case TR_TRACK_QUEUE:
		return 1 + (int)t->id * TR_MAX_LANES + t->lane;
	case TR_TRACK_CHANNEL:
		return TR_TID_CHANNEL + (int)t->id;
	default:
		return TR_TID_HOST;
	}
}

void tr_track_name(const struct tr_track *t, char *buf, size_t size)
{
	switch (t->kind) {
	case TR_TRACK_QUEUE:
		if (t->lane)
			snprintf(buf, size, "queue %u (overlap %d)", t->id, t->lane);
		else
			snprintf(buf, size, "queue %u", t->id);
		break;
	case TR_TRACK_CHANNEL:
		snprintf(buf, size, "DMA channel %u", t->id);
		break;
	default:
		snprintf(buf, size, "host memory pins");
	}
}

void tr_npu_name(const struct tr_model *m, int npu, char *buf, size_t size)
{
	if (npu >= 0 && npu < TR_MAX_NPUS && m->backend[npu][0])
		snprintf(buf, size, "NPU %d (%s)", npu, m->backend[npu]);
	else
		snprintf(buf, size, "NPU %d", npu);
}
