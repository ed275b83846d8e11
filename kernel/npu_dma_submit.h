/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * npu_dma: the doorbell and the queue's worker, from ring to job list
 * (npu_dma_submit.c).
 */
#ifndef __NPU_DMA_SUBMIT_H__
#define __NPU_DMA_SUBMIT_H__

struct npu_dma_queue;
struct work_struct;

int npu_dma_submit_doorbell(struct npu_dma_queue *q, u32 flags, bool *pinning);
void npu_dma_submit_work(struct work_struct *work);
bool npu_dma_submit_release_inline(struct npu_dma_queue *q);
int npu_dma_submit_drop(struct npu_dma_queue *q);
void npu_dma_submit_publish_flags(struct npu_dma_queue *q);

#endif /* __NPU_DMA_SUBMIT_H__ */
