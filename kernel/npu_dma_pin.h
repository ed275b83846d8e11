/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * npu_dma: host memory pinned for the engines (npu_dma_pin.c, npu_dma_pagemap.c).
 */
#ifndef __NPU_DMA_PIN_H__
#define __NPU_DMA_PIN_H__

#include "npu_dma_engine.h"

/**
 * struct npu_dma_region - pinned host memory
 * @range: user addresses [start, start + size); in ctx->host_tree when
 *	registered, held by an entry of ctx->pin_cache when cached (whole
 *	pages), in no tree when pinned for one copy (transient)
 * @ndev: NPU the pages are DMA-mapped for
 * @mm: address space the pages were pinned from (mmgrab'ed)
 * @pages: pinned pages, from the page holding @range.start
 * @dma: bus address of each page (engines with dma_mapped), else NULL
 * @nr_pages: entries of @pages
 * @writable: pinned with FOLL_WRITE: the device may write
 * @accounted: charged to @mm's locked_vm (registered ranges)
 */
struct npu_dma_region {
	struct npu_dma_range range;
	struct npu_dma_device *ndev;
	struct mm_struct *mm;
	struct page **pages;
	dma_addr_t *dma;
	unsigned long nr_pages;
	bool writable;
	bool accounted;
};

/* npu_dma_pin.c: registrations and pins for one copy */
int npu_dma_host_register_ioctl(struct npu_dma_ctx *ctx, void *data);
int npu_dma_host_unregister_ioctl(struct npu_dma_ctx *ctx, void *data);
void npu_dma_host_release_all(struct npu_dma_ctx *ctx);
struct npu_dma_region *npu_dma_region_create(struct npu_dma_ctx *ctx, u64 addr,
					     u64 len, bool write, bool longterm);
struct npu_dma_region *npu_dma_pin_transient(struct npu_dma_ctx *ctx, u64 addr,
					     u64 len, bool write);
void npu_dma_region_put(struct npu_dma_range *range);
void npu_dma_region_seg(struct npu_dma_region *r, u64 addr,
			struct npu_dma_seg *seg);

/* npu_dma_pagemap.c: one DMA mapping per host page, direction and NPU */
int npu_dma_pages_map(struct npu_dma_device *ndev, struct page **pages,
		      dma_addr_t *dma, unsigned long n, bool writable);

#endif /* __NPU_DMA_PIN_H__ */
