/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * npu_dma: limits on outstanding validated work (npu_dma_budget.c).
 */
#ifndef __NPU_DMA_BUDGET_H__
#define __NPU_DMA_BUDGET_H__

#include <linux/atomic.h>
#include <linux/types.h>

/**
 * struct npu_dma_budget - what a queue or a file has outstanding
 * @jobs: descriptors consumed and not retired
 * @pages: pages of pageable host memory those pin (or will, once
 *	validated)
 */
struct npu_dma_budget {
	atomic_long_t jobs;
	atomic_long_t pages;
};

/**
 * struct npu_dma_charge - what one unit (or a doorbell's units) takes
 * @jobs: descriptors
 * @pages: pageable pages their extents span
 */
struct npu_dma_charge {
	unsigned long jobs;
	unsigned long pages;
};

struct npu_dma_queue;

u64 npu_dma_budget_max_pin_len(void);
bool npu_dma_budget_pin_ok(unsigned long pages);
bool npu_dma_budget_fits(struct npu_dma_queue *q,
			 const struct npu_dma_charge *sofar,
			 const struct npu_dma_charge *unit);
void npu_dma_budget_charge(struct npu_dma_queue *q, const struct npu_dma_charge *c);
void npu_dma_budget_uncharge(struct npu_dma_queue *q,
			     const struct npu_dma_charge *c);
unsigned long npu_dma_budget_total_pages(void);

#endif /* __NPU_DMA_BUDGET_H__ */
