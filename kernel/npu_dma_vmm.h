/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * npu_dma: device memory mapped at virtual device addresses (npu_dma_vmm.c).
 */
#ifndef __NPU_DMA_VMM_H__
#define __NPU_DMA_VMM_H__

#include "npu_dma.h"

struct rb_root;

struct npu_dma_range *npu_dma_span_get(struct rb_root *root, u64 addr,
				       u64 extent);
struct npu_dma_range *npu_dma_span_member(struct npu_dma_range *span, u64 addr);
void npu_dma_span_put(struct npu_dma_range *span);
bool npu_dma_range_gone(const struct npu_dma_range *range);

int npu_dma_vmm_map_ioctl(struct npu_dma_ctx *ctx, void *data);
int npu_dma_vmm_unmap_ioctl(struct npu_dma_ctx *ctx, void *data);

#endif /* __NPU_DMA_VMM_H__ */
