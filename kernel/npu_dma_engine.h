/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * npu_dma: the interface between the core and an engine (internal).
 *
 * An engine (npu_dma_edu.c, npu_dma_sim.c, a real board's) creates and
 * adds one NPU per device it drives, with its operations; the core cuts
 * every transfer into pieces inside one page on both sides and hands
 * them to those operations (npu_dma_xfer.c). Nothing else of the core
 * is the engine's to call.
 */
#ifndef __NPU_DMA_ENGINE_H__
#define __NPU_DMA_ENGINE_H__

#include <linux/dma-mapping.h>
#include <linux/mm_types.h>

#include "npu_dma.h"

/**
 * struct npu_dma_seg - one side of a transfer piece, inside one page
 * @page: the page
 * @offset: byte offset in @page
 * @dma: bus address of @page + @offset (engines with dma_mapped only)
 * @vaddr: engines without dma_mapped: when set, the bytes are here (a
 *	foreign dma-buf mapped with dma_buf_vmap(), whose pages are not
 *	ours to touch), and @page is NULL
 */
struct npu_dma_seg {
	struct page *page;
	unsigned int offset;
	dma_addr_t dma;
	void *vaddr;
};

/**
 * struct npu_dma_piece - one piece of a transfer, inside one page on both sides
 * @dst: where the bytes go
 * @src: where they come from
 * @len: bytes, at most PAGE_SIZE
 */
struct npu_dma_piece {
	struct npu_dma_seg dst;
	struct npu_dma_seg src;
	unsigned int len;
};

/**
 * struct npu_dma_engine_ops - what an engine provides to the core
 * @name: backend name shown in sysfs ("edu", "sim")
 * @dma_mapped: host and device pages must be DMA-mapped for this engine
 * @copy: move @len bytes from @src to @dst, neither crossing a page;
 *	may sleep; returns 0 or a negative errno (-ETIMEDOUT, -EIO)
 * @copy_pieces: optional; move @n pieces, in order, as @copy would move
 *	each; returns 0 or the first error, after which the rest may not
 *	have moved. The core hands the engine up to 16 pieces per call
 *	and tests for an abort and a reschedule only between calls, so
 *	an engine whose pieces are cheap (narrow 2-D rows on the sim engine)
 *	pays the indirect call and that bookkeeping once per array. Not
 *	used for pieces of a peer NPU's memory (mapped per piece, see
 *	npu_dma_xfer.c); without it the core calls @copy per piece.
 * @reduce: optional; combine @len bytes of elements at @src into those
 *	at @dst as NPU_DMA_OP_REDUCE's @value says (npu_dma_reduce()),
 *	neither side crossing a page, both this NPU's memory and aligned
 *	to the element size; may sleep; returns 0 or a negative errno.
 *	Without it REDUCE descriptors fail validation with -EOPNOTSUPP
 *	and GET_INFO does not report NPU_DMA_CAP_REDUCE.
 */
struct npu_dma_engine_ops {
	const char *name;
	bool dma_mapped;
	int (*copy)(struct npu_dma_device *ndev, const struct npu_dma_seg *dst,
		    const struct npu_dma_seg *src, size_t len);
	int (*copy_pieces)(struct npu_dma_device *ndev,
			   const struct npu_dma_piece *p, unsigned int n);
	int (*reduce)(struct npu_dma_device *ndev, const struct npu_dma_seg *dst,
		      const struct npu_dma_seg *src, size_t len, u64 value);
};

/* npu_dma_dev.c: one DRM device per NPU */
struct npu_dma_device *npu_dma_device_create(struct device *parent,
					     u32 backend,
					     const struct npu_dma_engine_ops *ops,
					     void *engine);
int npu_dma_device_add(struct npu_dma_device *ndev);
void npu_dma_device_remove(struct npu_dma_device *ndev);
struct npu_dma_device *npu_dma_device_by_parent(struct device *parent);

/* npu_dma_edu.c, npu_dma_sim.c: engines */
int npu_dma_edu_check_params(void);
int npu_dma_edu_init(void);
void npu_dma_edu_exit(void);
int npu_dma_sim_check_params(unsigned int nr_sim);
int npu_dma_sim_init(unsigned int nr_sim);
void npu_dma_sim_exit(void);

/* Fault injection (debugfs edu_lose_irqs): edu DMAs to start without IRQ. */
extern atomic_t npu_dma_fault_edu_lost_irqs;

#endif /* __NPU_DMA_ENGINE_H__ */
