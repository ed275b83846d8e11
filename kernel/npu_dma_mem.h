/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * npu_dma: device memory and its allocations (npu_dma_mem.c).
 */
#ifndef __NPU_DMA_MEM_H__
#define __NPU_DMA_MEM_H__

#include "npu_dma_engine.h"

struct npu_dma_job;
struct npu_dma_side;

int npu_dma_devmem_init(struct npu_dma_device *ndev, bool lazy);
void npu_dma_devmem_fini(struct npu_dma_device *ndev);
u64 npu_dma_devmem_free_bytes(struct npu_dma_device *ndev);
int npu_dma_devmem_seg(struct npu_dma_range *range, u64 addr,
		       struct npu_dma_seg *seg);
int npu_dma_mem_alloc_ioctl(struct npu_dma_ctx *ctx, void *data);
void npu_dma_mem_release_all(struct npu_dma_ctx *ctx);
void npu_dma_alloc_put(struct npu_dma_range *range);
struct npu_dma_device *npu_dma_alloc_ndev(struct npu_dma_range *range);
struct npu_dma_device *npu_dma_side_peer(const struct npu_dma_job *job,
					 const struct npu_dma_side *side);
int npu_dma_peer_hold(const struct npu_dma_job *job);
void npu_dma_peer_unhold(const struct npu_dma_job *job);

#endif /* __NPU_DMA_MEM_H__ */
