/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * npu-trace: the recorded events turned into what is drawn. A data job
 * (copy, 2-D copy, fill) that started on a DMA channel becomes a slice
 * from its start to its completion; failed jobs, pins and unpins become
 * instants. Slices of one queue that overlap (batch members run in any
 * order, on several channels) are spread over lanes, so every track
 * holds properly nested slices.
 */
#ifndef TRACE_MODEL_H
#define TRACE_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "trace_parse.h"

#define TR_MAX_LANES 8
#define TR_MAX_NPUS 64

struct tr_slice {
	int npu;
	uint32_t queue;
	int chan;
	uint64_t seq;
	uint32_t op;
	uint32_t flags;
	uint64_t bytes;
	int status;
	int peer;		/* the other NPU of a P2P job, or -1 */
	int pid;
	double submit_us, start_us, end_us;
	int lane;		/* within its queue, 0..TR_MAX_LANES-1 */
};

struct tr_instant {
	struct tr_event ev;	/* TR_ERROR (not started), TR_PIN, TR_UNPIN */
};

struct tr_model {
	struct tr_slice *slices;
	size_t nr_slices, cap_slices;
	struct tr_instant *instants;
	size_t nr_instants, cap_instants;
	struct tr_slice *open;	/* submitted, not completed yet */
	size_t nr_open, cap_open;
	size_t nr_events;	/* npu_dma events fed in */
	size_t nr_irqs;
	size_t nr_unmatched;	/* completions without their submit */
	double t0_us, t1_us;	/* first and last event */
	char backend[TR_MAX_NPUS][16];	/* "" when unknown */
};

void tr_model_init(struct tr_model *m);
void tr_model_free(struct tr_model *m);
/* Feed one event, in trace order. Return: 0 or -ENOMEM. */
int tr_model_add(struct tr_model *m, const struct tr_event *ev);
/* After the last event: sort the slices by start, assign lanes. */
int tr_model_finish(struct tr_model *m);

/*
 * The tracks of a device, in drawing order: its queues (one track per
 * lane), its DMA channels, then its host memory (pins and unpins).
 */
enum tr_track_kind { TR_TRACK_QUEUE, TR_TRACK_CHANNEL, TR_TRACK_HOST };

struct tr_track {
	int npu;
	enum tr_track_kind kind;
	uint32_t id;		/* queue or channel number */
	int lane;		/* queue lane */
};

/*
 * Every track that holds a slice or an instant, sorted by device, kind,
 * id, lane. *out is malloc'ed. Return: 0 or -ENOMEM.
 */
int tr_model_tracks(const struct tr_model *m, struct tr_track **out, size_t *nr);

/* Thread ids in the Chrome trace: queue lanes, then channels, then host. */
#define TR_TID_CHANNEL 1000000
#define TR_TID_HOST 2000000
int tr_track_tid(const struct tr_track *t);
/* "queue 5", "queue 5 (overlap 1)", "DMA channel 0", "host memory pins". */
void tr_track_name(const struct tr_track *t, char *buf, size_t size);
/* "NPU 2 (sim)", or "NPU 2" when the backend is unknown. */
void tr_npu_name(const struct tr_model *m, int npu, char *buf, size_t size);

/*
 * "P2P" when @peer (the other NPU, or -1) is set, else "H2D", "D2H",
 * "D2D" or "H2H" from the descriptor flags.
 */
const char *tr_direction(uint32_t flags, int peer);
/* "copy", "copy_2d", "fill", ... for an opcode. */
const char *tr_op_name(uint32_t op);

#endif /* TRACE_MODEL_H */
