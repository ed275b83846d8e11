/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * npu_dma: the pins of pageable copies kept for the next copy
 * (npu_dma_pin_cache.c).
 */
#ifndef __NPU_DMA_PIN_CACHE_H__
#define __NPU_DMA_PIN_CACHE_H__

#include <linux/kconfig.h>
#include <linux/list.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/workqueue.h>

struct npu_dma_ctx;
struct npu_dma_region;

/* Small copies remembered, to cache those copied again (the .c file). */
#define NPU_PIN_SEEN	8

/**
 * struct npu_dma_pin_cache - one file's cached pins
 * @lock: Protects @lru, @dead, @pages, @entries, each entry's state,
 *	@seen and @seen_next; taken by the mmu notifier's invalidate, so
 *	never held while allocating or sleeping
 * @lru: live entries, most recently used first
 * @dead: entries dropped (invalidated, evicted, drained) whose notifier
 *	and pin @reap releases
 * @pages: pages of the live entries
 * @entries: live entries
 * @reap: releases @dead outside the notifier
 * @seen: the last small copies pinned for themselves alone, as their
 *	first page's address ORed with their number of pages (0: none)
 * @seen_next: the slot of @seen the next one takes
 */
struct npu_dma_pin_cache {
	spinlock_t lock;		/* the lists, counts, states and @seen */
	struct list_head lru;
	struct list_head dead;
	unsigned long pages;
	unsigned int entries;
	struct work_struct reap;
	unsigned long seen[NPU_PIN_SEEN];
	unsigned int seen_next;
};

#if IS_ENABLED(CONFIG_MMU_NOTIFIER)
void npu_dma_pin_cache_init(struct npu_dma_ctx *ctx);
struct npu_dma_region *npu_dma_pin_cache_get(struct npu_dma_ctx *ctx, u64 addr,
					     u64 len, bool write);
bool npu_dma_pin_cache_shrink(struct npu_dma_ctx *ctx);
void npu_dma_pin_cache_drain(struct npu_dma_ctx *ctx);
#else
/* Without notifiers nothing could tell a cached pin is stale: none. */
static inline void npu_dma_pin_cache_init(struct npu_dma_ctx *ctx) {}
static inline struct npu_dma_region *
npu_dma_pin_cache_get(struct npu_dma_ctx *ctx, u64 addr, u64 len, bool write)
{
	return NULL;
}

static inline bool npu_dma_pin_cache_shrink(struct npu_dma_ctx *ctx)
{
	return false;
}

static inline void npu_dma_pin_cache_drain(struct npu_dma_ctx *ctx) {}
#endif

#endif /* __NPU_DMA_PIN_CACHE_H__ */
