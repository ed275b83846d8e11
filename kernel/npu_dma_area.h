/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * npu_dma: memory shared with user space, mapped through the DRM file (npu_dma_area.c).
 */
#ifndef __NPU_DMA_AREA_H__
#define __NPU_DMA_AREA_H__

#include <linux/mm_types.h>

#include <drm/drm_gem.h>

#include "npu_dma.h"

/**
 * struct npu_dma_area - memory shared with user space (npu_dma_area.c)
 * @base: the GEM object; its refcount: the owner and each mapping
 * @owner: the file that may map it
 * @mem: the memory, vmalloc_user'ed
 * @size: its size, page aligned
 * @readonly: mapped without write permission
 */
struct npu_dma_area {
	struct drm_gem_object base;
	struct drm_file *owner;
	void *mem;
	size_t size;
	bool readonly;
};

struct npu_dma_area *npu_dma_area_create(struct npu_dma_ctx *ctx, size_t size,
					 bool readonly);
u64 npu_dma_area_offset(struct npu_dma_area *area);
void npu_dma_area_put(struct npu_dma_area *area);

#endif /* __NPU_DMA_AREA_H__ */
