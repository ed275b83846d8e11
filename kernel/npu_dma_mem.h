/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * npu_dma: device memory and its allocations (npu_dma_mem.c).
 */
#ifndef __NPU_DMA_MEM_H__
#define __NPU_DMA_MEM_H__

#include "npu_dma_engine.h"

#include <drm/drm_gem.h>

struct mem_cgroup;
struct npu_dma_job;
struct npu_dma_side;

/**
 * struct npu_dma_alloc - one device allocation of a context
 * @base: the GEM object (see the top of npu_dma_mem.c for the references)
 * @range: device addresses, in ctx->mem_tree
 * @owner: the file that allocated it, whose tree holds @range
 * @ndev: its NPU (the object holds a DRM device reference)
 * @mem: its NPU's memory (referenced)
 * @memcg: lazy @mem: the memory cgroup its pages are charged to
 *	(referenced), NULL without memory cgroups
 * @huge: placed in 2 MiB pages (MEM_INFO reports it)
 */
struct npu_dma_alloc {
	struct drm_gem_object base;
	struct npu_dma_range range;
	struct drm_file *owner;
	struct npu_dma_device *ndev;
	struct npu_dma_devmem *mem;
	struct mem_cgroup *memcg;
	bool huge;
};

static inline struct npu_dma_alloc *to_npu_dma_alloc(struct drm_gem_object *obj)
{
	return container_of(obj, struct npu_dma_alloc, base);
}

int npu_dma_devmem_init(struct npu_dma_device *ndev, bool lazy);
void npu_dma_devmem_fini(struct npu_dma_device *ndev);
u64 npu_dma_devmem_free_bytes(struct npu_dma_device *ndev);
u64 npu_dma_devmem_free_blocks(struct npu_dma_device *ndev, u64 block);
int npu_dma_devmem_seg(struct npu_dma_range *range, u64 addr,
		       struct npu_dma_seg *seg);
struct page *npu_dma_devmem_page(struct npu_dma_alloc *a, unsigned long idx);
bool npu_dma_devmem_lazy(const struct npu_dma_alloc *a);
bool npu_dma_is_alloc(const struct drm_gem_object *obj);
struct npu_dma_devmem *npu_dma_alloc_reserved_mem(struct npu_dma_alloc *a);
void npu_dma_devmem_put(struct npu_dma_devmem *mem);
int npu_dma_mem_alloc_ioctl(struct npu_dma_ctx *ctx, void *data);
void npu_dma_mem_release_all(struct npu_dma_ctx *ctx);
void npu_dma_alloc_put(struct npu_dma_range *range);
struct npu_dma_device *npu_dma_alloc_ndev(struct npu_dma_range *range);
struct npu_dma_device *npu_dma_side_peer(const struct npu_dma_job *job,
					 const struct npu_dma_side *side);
int npu_dma_peer_hold(const struct npu_dma_job *job);
bool npu_dma_peer_mem_named(const struct npu_dma_job *job);
void npu_dma_peer_unhold(const struct npu_dma_job *job);

#endif /* __NPU_DMA_MEM_H__ */
