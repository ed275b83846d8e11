/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * npu_dma: element arithmetic of NPU_DMA_OP_REDUCE (internal).
 *
 * Pure functions over memory the caller mapped: no locking, no
 * allocation, no kernel service, so that tests/unit builds the same
 * source in user space.
 */
#ifndef __NPU_DMA_REDUCE_H__
#define __NPU_DMA_REDUCE_H__

#include <linux/types.h>

#include <drm/npu_dma_accel.h>

unsigned int npu_dma_reduce_elem_size(u64 value);
void npu_dma_reduce(void *dst, const void *src, size_t len, u64 value);

#endif /* __NPU_DMA_REDUCE_H__ */
