/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * npu_dma: device memory shared as dma-buf, and foreign dma-bufs imported
 * (npu_dma_prime.c).
 */
#ifndef __NPU_DMA_PRIME_H__
#define __NPU_DMA_PRIME_H__

#include <linux/kref.h>

#include "npu_dma_engine.h"

struct dma_buf;
struct drm_device;
struct drm_gem_object;
struct iosys_map;
struct sg_table;
struct vm_area_struct;

int npu_dma_prime_init(struct npu_dma_device *ndev);
void npu_dma_prime_fini(struct npu_dma_device *ndev);

/* Exports of device allocations (struct npu_dma_alloc's GEM functions). */
struct sg_table *npu_dma_alloc_sg_table(struct drm_gem_object *obj);
int npu_dma_alloc_vmap(struct drm_gem_object *obj, struct iosys_map *map);
void npu_dma_alloc_vunmap(struct drm_gem_object *obj, struct iosys_map *map);
int npu_dma_alloc_mmap(struct drm_gem_object *obj, struct vm_area_struct *vma);
extern const struct vm_operations_struct npu_dma_alloc_vm_ops;

/* Another file's handles on an allocation: aliases in its tree. */
/* Who made an alias, and so who may remove it. */
enum npu_dma_alias_kind {
	NPU_DMA_ALIAS_HANDLE,	/* another file's GEM handle, at the same address */
	NPU_DMA_ALIAS_IPC,	/* IPC_IMPORT of a window, at the same address */
	NPU_DMA_ALIAS_VMM,	/* VMM_MAP, at a virtual address */
};

int npu_dma_alias_add(struct npu_dma_ctx *ctx, struct npu_dma_range *target,
		      u64 start, u64 size, u64 phys, enum npu_dma_alias_kind kind);
void npu_dma_alias_remove(struct npu_dma_ctx *ctx, struct npu_dma_range *target);
int npu_dma_alias_remove_at(struct npu_dma_ctx *ctx, u64 start,
			    enum npu_dma_alias_kind kind);
void npu_dma_alias_release(struct kref *ref);

/* Foreign dma-bufs. */
struct drm_gem_object *npu_dma_prime_import(struct drm_device *drm,
					    struct dma_buf *buf);
int npu_dma_import_seg(struct npu_dma_range *range, u64 addr,
		       struct npu_dma_seg *seg);
void npu_dma_import_put(struct npu_dma_range *range);
struct npu_dma_devmem *npu_dma_import_mem(struct npu_dma_range *range);

int npu_dma_mem_info_ioctl(struct npu_dma_ctx *ctx, void *data);

#endif /* __NPU_DMA_PRIME_H__ */
