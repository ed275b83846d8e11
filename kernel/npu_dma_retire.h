/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * npu_dma: completion: results, counters and what user space sees of them (npu_dma_retire.c).
 */
#ifndef __NPU_DMA_RETIRE_H__
#define __NPU_DMA_RETIRE_H__

#include <linux/types.h>

struct npu_dma_job;
struct npu_dma_queue;

void npu_dma_retire_note(struct npu_dma_queue *q, struct npu_dma_job *job);
void npu_dma_retire_publish(struct npu_dma_queue *q, u64 seq);
void npu_dma_retire_job(struct npu_dma_queue *q, struct npu_dma_job *job);
void npu_dma_retire_jobs(struct npu_dma_queue *q, struct npu_dma_job **jobs,
			 unsigned int n);
u64 npu_dma_queue_completed(struct npu_dma_queue *q);

#endif /* __NPU_DMA_RETIRE_H__ */
