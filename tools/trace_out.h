/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * npu-trace: the model written as a Chrome/Perfetto trace (JSON object
 * format) and as an SVG timeline.
 *
 * Chrome trace: one process per NPU (pid = NPU index + 1, named
 * "NPU n (backend)"), one thread per queue lane, per DMA channel and one
 * for host pins; each copy is an "X" event on its queue's track and on
 * its channel's track, with args size, direction, op, seq, queue, chan,
 * flags, status, queued_us; failures, pins and unpins are "i" events.
 * Timestamps are microseconds since the first recorded event.
 */
#ifndef TRACE_OUT_H
#define TRACE_OUT_H

#include <stdio.h>

#include "trace_model.h"

/* command: what was recorded (shown in metadata and titles), may be NULL. */
int tr_write_chrome(FILE *f, const struct tr_model *m, const char *command);
int tr_write_svg(FILE *f, const struct tr_model *m, const char *command);

#endif /* TRACE_OUT_H */
