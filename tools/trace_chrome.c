// SPDX-License-Identifier: GPL-2.0-only
/*
 * npu-trace: the Chrome/Perfetto trace JSON writer (trace_out.h).
 */
#include <errno.h>
#include <stdlib.h>

#include <drm/npu_dma_accel.h>

#include "trace_json.h"
#include "trace_out.h"

static void meta(struct tj *j, const char *what, int pid, int tid,
		 const char *name, int sort)
{
	tj_object(j, NULL);
	tj_str(j, "ph", "M");
	tj_str(j, "name", what);
	tj_int(j, "pid", pid);
	if (tid >= 0)
		tj_int(j, "tid", tid);
	tj_object(j, "args");
	if (name)
		tj_str(j, "name", name);
	else
		tj_int(j, "sort_index", sort);
	tj_end(j);
	tj_end(j);
}

/* Names and order of the processes and threads. */
static void write_meta(struct tj *j, const struct tr_model *m,
		       const struct tr_track *t, size_t nr)
{
	char name[64];
	size_t i;

	for (i = 0; i < nr; i++) {
		int pid = t[i].npu + 1;

		if (!i || t[i].npu != t[i - 1].npu) {
			tr_npu_name(m, t[i].npu, name, sizeof(name));
			meta(j, "process_name", pid, -1, name, 0);
			meta(j, "process_sort_index", pid, -1, NULL, t[i].npu);
		}
		tr_track_name(&t[i], name, sizeof(name));
		meta(j, "thread_name", pid, tr_track_tid(&t[i]), name, 0);
		meta(j, "thread_sort_index", pid, tr_track_tid(&t[i]), NULL, (int)i);
	}
}

static void slice_args(struct tj *j, const struct tr_slice *s)
{
	char flags[16];

	snprintf(flags, sizeof(flags), "0x%x", s->flags);
	tj_object(j, "args");
	tj_uint(j, "size", s->bytes);
	tj_str(j, "direction", tr_direction(s->flags, s->peer));
	if (s->peer >= 0)
		tj_int(j, "peer", s->peer);
	tj_str(j, "op", tr_op_name(s->op));
	tj_uint(j, "seq", s->seq);
	tj_uint(j, "queue", s->queue);
	tj_int(j, "chan", s->chan);
	tj_str(j, "flags", flags);
	tj_int(j, "status", s->status);
	tj_int(j, "process", s->pid);
	tj_double(j, "queued_us", s->start_us - s->submit_us);
	tj_end(j);
}

static void write_slice(struct tj *j, const struct tr_model *m,
			const struct tr_slice *s, int tid)
{
	char name[64];

	snprintf(name, sizeof(name), "%s %llu B", s->op == NPU_DMA_OP_FILL ? "fill" :
		 tr_direction(s->flags, s->peer), (unsigned long long)s->bytes);
	tj_object(j, NULL);
	tj_str(j, "ph", "X");
	tj_str(j, "name", name);
	tj_str(j, "cat", tr_op_name(s->op));
	tj_int(j, "pid", s->npu + 1);
	tj_int(j, "tid", tid);
	tj_double(j, "ts", s->start_us - m->t0_us);
	tj_double(j, "dur", s->end_us - s->start_us);
	slice_args(j, s);
	tj_end(j);
}

static void write_instant(struct tj *j, const struct tr_model *m,
			  const struct tr_event *ev)
{
	struct tr_track t = { ev->npu, TR_TRACK_HOST, 0, 0 };

	if (ev->kind == TR_ERROR)
		t = (struct tr_track){ ev->npu, TR_TRACK_QUEUE, ev->queue, 0 };
	tj_object(j, NULL);
	tj_str(j, "ph", "i");
	tj_str(j, "s", "t");
	tj_str(j, "name", ev->kind == TR_ERROR ? "error" :
			  ev->kind == TR_PIN ? "pin" : "unpin");
	tj_int(j, "pid", ev->npu + 1);
	tj_int(j, "tid", tr_track_tid(&t));
	tj_double(j, "ts", ev->ts_us - m->t0_us);
	tj_object(j, "args");
	if (ev->kind == TR_ERROR) {
		tj_uint(j, "size", ev->bytes);
		tj_str(j, "direction", tr_direction(ev->flags, ev->peer));
		tj_uint(j, "seq", ev->seq);
		tj_int(j, "status", ev->status);
	} else {
		tj_uint(j, "addr", ev->addr);
		tj_uint(j, "size", ev->len);
		tj_uint(j, "pages", ev->pages);
		tj_int(j, "longterm", ev->longterm);
	}
	tj_end(j);
	tj_end(j);
}

int tr_write_chrome(FILE *f, const struct tr_model *m, const char *command)
{
	struct tr_track *tracks = NULL, chan;
	size_t nr, i;
	struct tj j;

	if (tr_model_tracks(m, &tracks, &nr))
		return -ENOMEM;
	tj_init(&j, f, 2);
	tj_object(&j, NULL);
	tj_array(&j, "traceEvents");
	write_meta(&j, m, tracks, nr);
	for (i = 0; i < m->nr_slices; i++) {
		const struct tr_slice *s = &m->slices[i];
		struct tr_track q = { s->npu, TR_TRACK_QUEUE, s->queue, s->lane };

		write_slice(&j, m, s, tr_track_tid(&q));
		chan = (struct tr_track){ s->npu, TR_TRACK_CHANNEL, (uint32_t)s->chan, 0 };
		if (s->chan >= 0)
			write_slice(&j, m, s, tr_track_tid(&chan));
	}
	for (i = 0; i < m->nr_instants; i++)
		write_instant(&j, m, &m->instants[i].ev);
	tj_end(&j);
	tj_str(&j, "displayTimeUnit", "ns");
	tj_object(&j, "otherData");
	tj_str(&j, "tool", "npu-trace");
	tj_str(&j, "command", command);
	tj_uint(&j, "events", m->nr_events);
	tj_uint(&j, "copies", m->nr_slices);
	tj_uint(&j, "irqs", m->nr_irqs);
	tj_uint(&j, "unmatched", m->nr_unmatched);
	tj_end(&j);
	tj_end(&j);
	free(tracks);
	return ferror(f) ? -EIO : 0;
}
