/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * npu_dma tracepoints: the life of a descriptor (submit, start, complete,
 * error), pinning, and engine interrupts. tools/npu-trace turns them into
 * a timeline; the field names are what it parses, so keep them stable
 * (new fields go at the end; the parser treats a missing one as unset).
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM npu_dma

#if !defined(_NPU_DMA_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _NPU_DMA_TRACE_H

#include <linux/math64.h>
#include <linux/tracepoint.h>

#include "npu_dma_job.h"
#include "npu_dma_queue.h"

#ifndef NPU_DMA_TRACE_HELPERS
#define NPU_DMA_TRACE_HELPERS
/*
 * The peer NPU whose memory a data job reads or writes, or -1. A side
 * resolved to device memory outside the queue's NPU is a peer's (only
 * peers' allocations resolve, npu_val_resolve_peer()), and device
 * addresses name their NPU. Indirect copies learn their addresses when
 * they run, so they report none.
 */
static inline int npu_dma_trace_peer(const struct npu_dma_job *job)
{
	const struct npu_dma_device *ndev = job->q->ctx->ndev;
	u64 addr;

	if (job->d.opcode != NPU_DMA_OP_COPY && job->d.opcode != NPU_DMA_OP_COPY_2D &&
	    job->d.opcode != NPU_DMA_OP_FILL)
		return -1;
	if (job->src.kind == NPU_DMA_SIDE_DEV && !npu_dma_own_memory(ndev, job->d.src))
		addr = job->d.src;
	else if (job->dst.kind == NPU_DMA_SIDE_DEV && !npu_dma_own_memory(ndev, job->d.dst))
		addr = job->d.dst;
	else
		return -1;
	if (addr < NPU_DMA_DEVMEM_BASE)
		return -1;
	return div64_u64(addr - NPU_DMA_DEVMEM_BASE, NPU_DMA_DEVMEM_STRIDE);
}
#endif

DECLARE_EVENT_CLASS(npu_dma_job_class,
	TP_PROTO(const struct npu_dma_job *job),
	TP_ARGS(job),
	TP_STRUCT__entry(
		__field(int, npu)
		__field(u32, queue)
		__field(u64, seq)
		__field(u8, opcode)
		__field(u16, flags)
		__field(u64, bytes)
		__field(int, chan)
		__field(int, status)
		__field(int, peer)
	),
	TP_fast_assign(
		__entry->npu = job->q->ctx->ndev->index;
		__entry->queue = job->q->id;
		__entry->seq = job->seq;
		__entry->opcode = job->d.opcode;
		__entry->flags = job->d.flags;
		__entry->bytes = npu_dma_job_bytes(job);
		__entry->chan = job->chan;
		__entry->status = job->status;
		__entry->peer = npu_dma_trace_peer(job);
	),
	TP_printk("npu=%d queue=%u seq=%llu op=%u flags=0x%x bytes=%llu chan=%d status=%d peer=%d",
		  __entry->npu, __entry->queue, __entry->seq, __entry->opcode,
		  __entry->flags, __entry->bytes, __entry->chan, __entry->status,
		  __entry->peer)
);

/* A descriptor was copied out of the ring and validated (status: its verdict). */
DEFINE_EVENT(npu_dma_job_class, npu_dma_submit,
	TP_PROTO(const struct npu_dma_job *job), TP_ARGS(job));

/* The engine starts moving the job's bytes on DMA channel chan. */
DEFINE_EVENT(npu_dma_job_class, npu_dma_start,
	TP_PROTO(const struct npu_dma_job *job), TP_ARGS(job));

/* The job retired; its completion is about to be published. */
DEFINE_EVENT(npu_dma_job_class, npu_dma_complete,
	TP_PROTO(const struct npu_dma_job *job), TP_ARGS(job));

/* The job failed (validation, engine, or abort). */
DEFINE_EVENT(npu_dma_job_class, npu_dma_error,
	TP_PROTO(const struct npu_dma_job *job), TP_ARGS(job));

DECLARE_EVENT_CLASS(npu_dma_pin_class,
	TP_PROTO(int npu, u64 addr, u64 len, unsigned long pages, bool longterm),
	TP_ARGS(npu, addr, len, pages, longterm),
	TP_STRUCT__entry(
		__field(int, npu)
		__field(u64, addr)
		__field(u64, len)
		__field(unsigned long, pages)
		__field(bool, longterm)
	),
	TP_fast_assign(
		__entry->npu = npu;
		__entry->addr = addr;
		__entry->len = len;
		__entry->pages = pages;
		__entry->longterm = longterm;
	),
	TP_printk("npu=%d addr=0x%llx len=%llu pages=%lu longterm=%d",
		  __entry->npu, __entry->addr, __entry->len, __entry->pages,
		  __entry->longterm)
);

/* Host pages pinned: a registration (longterm) or for one copy. */
DEFINE_EVENT(npu_dma_pin_class, npu_dma_pin,
	TP_PROTO(int npu, u64 addr, u64 len, unsigned long pages, bool longterm),
	TP_ARGS(npu, addr, len, pages, longterm));

DEFINE_EVENT(npu_dma_pin_class, npu_dma_unpin,
	TP_PROTO(int npu, u64 addr, u64 len, unsigned long pages, bool longterm),
	TP_ARGS(npu, addr, len, pages, longterm));

/* An engine interrupt and the status bits it acknowledged. */
TRACE_EVENT(npu_dma_irq,
	TP_PROTO(int npu, u32 status),
	TP_ARGS(npu, status),
	TP_STRUCT__entry(
		__field(int, npu)
		__field(u32, status)
	),
	TP_fast_assign(
		__entry->npu = npu;
		__entry->status = status;
	),
	TP_printk("npu=%d status=0x%x", __entry->npu, __entry->status)
);

#endif /* _NPU_DMA_TRACE_H */

/* Out of tree: the header lives next to the sources, not in include/trace. */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE npu_dma_trace
#include <trace/define_trace.h>
