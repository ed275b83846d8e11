/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * npu_dma: validation of copied-out descriptors into jobs (npu_dma_validate.c).
 */
#ifndef __NPU_DMA_VALIDATE_H__
#define __NPU_DMA_VALIDATE_H__

#include "npu_dma.h"

struct npu_dma_job;

int npu_dma_validate_fields(const struct npu_dma_desc *d);
unsigned long npu_dma_desc_pin_pages(const struct npu_dma_desc *d);
int npu_dma_validate_task(struct npu_dma_ctx *ctx, struct npu_dma_job *job);
void npu_dma_validate_job(struct npu_dma_ctx *ctx, struct npu_dma_job *job);
void npu_dma_validate_batch(struct npu_dma_ctx *ctx, struct npu_dma_job *batch,
			    void (*progress)(struct npu_dma_job *batch, u32 done));

#endif /* __NPU_DMA_VALIDATE_H__ */
