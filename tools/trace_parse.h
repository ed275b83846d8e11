/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * npu-trace: one line of tracefs text ("trace" or "trace_pipe") holding
 * an npu_dma tracepoint, parsed into its fields. The field names are
 * those of kernel/npu_dma_trace.h (Documentation/driver.rst).
 */
#ifndef TRACE_PARSE_H
#define TRACE_PARSE_H

#include <stdint.h>

enum tr_kind {
	TR_SUBMIT,
	TR_START,
	TR_COMPLETE,
	TR_ERROR,
	TR_PIN,
	TR_UNPIN,
	TR_IRQ,
	TR_NR_KINDS
};

/*
 * One tracepoint hit. Fields a kind does not carry stay 0 (chan and
 * peer: -1); so does peer in recordings of modules older than the field.
 */
struct tr_event {
	enum tr_kind kind;
	double ts_us;		/* trace clock, microseconds */
	int pid;		/* task that was running */
	char comm[32];
	int npu;
	/* job events */
	uint32_t queue;
	uint64_t seq;
	uint32_t op;
	uint32_t flags;
	uint64_t bytes;
	int chan;
	int status;		/* also the irq status bits */
	int peer;		/* NPU whose memory a P2P job uses, or -1 */
	/* pin events */
	uint64_t addr;
	uint64_t len;
	uint64_t pages;
	int longterm;
};

/*
 * Parse one line (without or with its newline).
 * Return: 1 and *ev filled for an npu_dma event, 0 for any other line
 * (comments, other events, "CPU n buffer started" notes), -EINVAL for an
 * npu_dma line whose fields do not parse.
 */
int tr_parse_line(const char *line, struct tr_event *ev);

/* "npu_dma_submit", ... for a kind. */
const char *tr_kind_name(enum tr_kind kind);

#endif /* TRACE_PARSE_H */
