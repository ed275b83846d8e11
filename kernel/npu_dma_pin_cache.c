// SPDX-License-Identifier: GPL-2.0-only
/*
 * npu_dma: the pins of pageable copies kept for the next copy.
 *
 * A pageable copy pins its host pages in the doorbell and unpins them
 * when it retires; under TCG that is 0.3 to 0.4 us a page each way, a
 * third of a 2 MiB copy (Documentation/performance.md, "Pageable
 * copies: the pin cache"). Programs copy from the same buffers again and
 * again, so a file keeps the pins of its recent pageable copies, up to
 * pin_cache_mb MiB and NPU_PIN_CACHE_ENTRIES ranges: a later copy inside
 * one of them takes a reference on it instead of pinning.
 *
 * A copy of NPU_PIN_CACHE_BIG or more is cached from its first use. A
 * smaller one pins one to sixteen pages, cheaper than caching a buffer
 * that is never copied again (a fill and its eviction cost about 11 us
 * more than a pin for the copy alone under TCG), but a buffer copied
 * again saves its pin and unpin, 3 to 5 us of a 25 us synchronous copy.
 * So a small copy is cached from its second use: when the same pages
 * are among the file's last NPU_PIN_SEEN small copies pinned for
 * themselves. A program walking through memory, or cycling through
 * more small buffers than that, pins as before.
 *
 * A cached pin is right only while the process maps those pages at those
 * addresses. Each entry watches its range with an mmu interval notifier
 * (as RDMA's on-demand paging and amdgpu's userptr do): munmap, mremap,
 * madvise(MADV_DONTNEED), mprotect, fork's write protection, anything
 * that changes a PTE there drops the entry before the change is made.
 * Copies that already hold the region keep its pages until they retire,
 * as a copy of a transient pin does when its buffer is unmapped under it.
 * The pins are long-term (FOLL_LONGTERM: no page of ZONE_MOVABLE or CMA
 * stays held) and charged to locked_vm like a registration; only private
 * anonymous memory without userfaultfd is cached (file pages held for
 * long trouble their file system, and a userfaultfd range needs the
 * registration's prefault). Anything else is pinned for its copy alone.
 *
 * The notifier's invalidate takes only the cache's spinlock: the entry
 * leaves the list there, and a work item removes its notifier (which
 * cannot be done from inside the notifier) and drops its pin.
 */

#include <linux/mm.h>
#include <linux/mmu_notifier.h>
#include <linux/module.h>
#include <linux/sched/mm.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/userfaultfd_k.h>

#include "npu_dma.h"
#include "npu_dma_pin.h"
#include "npu_dma_pin_cache.h"

static unsigned int pin_cache_mb = 256;
module_param(pin_cache_mb, uint, 0644);
MODULE_PARM_DESC(pin_cache_mb,
		 "MiB of pageable copies' pins one file keeps for later copies (default 256, 0: none)");

/* Cached from the first use; smaller copies from the second. */
#define NPU_PIN_CACHE_BIG	SZ_64K
/* Looked up by a walk of the list: a few buffers are what programs reuse. */
#define NPU_PIN_CACHE_ENTRIES	16
/* A cycle of small buffers that NPU_PIN_SEEN admits fits in the cache. */
static_assert(NPU_PIN_SEEN < NPU_PIN_CACHE_ENTRIES);

enum npu_pin_state {
	NPU_PIN_FILLING,	/* being pinned: in no list */
	NPU_PIN_LIVE,		/* in the cache's lru */
	NPU_PIN_DEAD,		/* in the cache's dead list */
};

/**
 * struct npu_pin_entry - one cached pin
 * @mni: watches the pinned range of the file's mm
 * @cache: the file's cache
 * @r: the pin: whole pages, writable or not; the entry holds a reference
 * @node: in @cache->lru or @cache->dead
 * @state: enum npu_pin_state, under @cache->lock
 */
struct npu_pin_entry {
	struct mmu_interval_notifier mni;
	struct npu_dma_pin_cache *cache;
	struct npu_dma_region *r;
	struct list_head node;
	enum npu_pin_state state;
};

/* Caller holds c->lock; c->reap must run afterwards. */
static void npu_pin_kill_locked(struct npu_dma_pin_cache *c,
				struct npu_pin_entry *e)
{
	c->pages -= e->r->nr_pages;
	c->entries--;
	e->state = NPU_PIN_DEAD;
	list_move_tail(&e->node, &c->dead);
}

static bool npu_pin_invalidate(struct mmu_interval_notifier *mni,
			       const struct mmu_notifier_range *range,
			       unsigned long cur_seq)
{
	struct npu_pin_entry *e = container_of(mni, struct npu_pin_entry, mni);
	struct npu_dma_pin_cache *c = e->cache;
	bool reap = false;

	spin_lock(&c->lock);
	mmu_interval_set_seq(mni, cur_seq);
	if (e->state == NPU_PIN_LIVE) {
		npu_pin_kill_locked(c, e);
		reap = true;
	}
	spin_unlock(&c->lock);
	if (reap)
		schedule_work(&c->reap);
	return true;
}

static const struct mmu_interval_notifier_ops npu_pin_notifier_ops = {
	.invalidate = npu_pin_invalidate,
};

static void npu_pin_entry_free(struct npu_pin_entry *e)
{
	mmu_interval_notifier_remove(&e->mni);
	if (e->r)
		npu_dma_region_put(&e->r->range);
	kfree(e);
}

static void npu_pin_reap(struct work_struct *work)
{
	struct npu_dma_pin_cache *c = container_of(work, struct npu_dma_pin_cache,
						   reap);
	struct npu_pin_entry *e, *tmp;
	LIST_HEAD(dead);

	spin_lock(&c->lock);
	list_splice_init(&c->dead, &dead);
	spin_unlock(&c->lock);
	list_for_each_entry_safe(e, tmp, &dead, node)
		npu_pin_entry_free(e);
}

/**
 * npu_dma_pin_cache_init() - an empty cache for a new file
 * @ctx: the file's context
 */
void npu_dma_pin_cache_init(struct npu_dma_ctx *ctx)
{
	struct npu_dma_pin_cache *c = &ctx->pin_cache;

	spin_lock_init(&c->lock);
	INIT_LIST_HEAD(&c->lru);
	INIT_LIST_HEAD(&c->dead);
	INIT_WORK(&c->reap, npu_pin_reap);
}

/* A live entry holding [addr, addr + len) pinned for @write, referenced. */
static struct npu_dma_region *npu_pin_lookup(struct npu_dma_pin_cache *c,
					     u64 addr, u64 len, bool write)
{
	struct npu_dma_region *r;
	struct npu_pin_entry *e;

	spin_lock(&c->lock);
	list_for_each_entry(e, &c->lru, node) {
		r = e->r;
		if (addr < r->range.start ||
		    addr - r->range.start + len > r->range.size ||
		    (write && !r->writable))
			continue;
		kref_get(&r->range.ref);
		list_move(&e->node, &c->lru);
		spin_unlock(&c->lock);
		return r;
	}
	spin_unlock(&c->lock);
	return NULL;
}

/* Private anonymous memory all along, without userfaultfd? */
static bool npu_pin_cacheable(struct mm_struct *mm, unsigned long start,
			      unsigned long end)
{
	VMA_ITERATOR(vmi, mm, start);
	struct vm_area_struct *vma;
	unsigned long next = start;

	mmap_read_lock(mm);
	for_each_vma_range(vmi, vma, end) {
		if (vma->vm_start > next || !vma_is_anonymous(vma) ||
		    (vma->vm_flags & VM_SHARED) || userfaultfd_armed(vma))
			break;
		next = vma->vm_end;
	}
	mmap_read_unlock(mm);
	return next >= end;
}

/*
 * Drop the least recently used entries over the limits; 1: reap. The
 * reap is left to the work item even for a one-page entry: removing a
 * notifier waits for any invalidation running on the mm, and the caller
 * may be a doorbell holding its queue's submit_lock.
 */
static bool npu_pin_evict_locked(struct npu_dma_pin_cache *c,
				 unsigned long max_pages)
{
	bool reap = false;

	while (c->pages > max_pages || c->entries > NPU_PIN_CACHE_ENTRIES) {
		npu_pin_kill_locked(c, list_last_entry(&c->lru,
						       struct npu_pin_entry,
						       node));
		reap = true;
	}
	return reap;
}

/*
 * Pin the whole pages around [addr, addr + len) long-term and keep them.
 * The notifier goes in before the pin, and its sequence is checked after
 * it: a change of the range meanwhile (the pages pinned may be gone from
 * it) leaves nothing cached. Return: the region, referenced for the
 * caller, or NULL (pin it for the copy alone).
 */
static struct npu_dma_region *npu_pin_fill(struct npu_dma_ctx *ctx, u64 addr,
					   u64 len, bool write,
					   unsigned long max_pages)
{
	struct npu_dma_pin_cache *c = &ctx->pin_cache;
	unsigned long start = addr & PAGE_MASK, end = PAGE_ALIGN(addr + len);
	struct npu_dma_region *r;
	struct npu_pin_entry *e;
	unsigned long seq;
	bool reap;

	if ((end - start) >> PAGE_SHIFT > max_pages ||
	    !npu_pin_cacheable(ctx->mm, start, end))
		return NULL;
	e = kzalloc(sizeof(*e), GFP_KERNEL_ACCOUNT);
	if (!e)
		return NULL;
	e->cache = c;
	e->state = NPU_PIN_FILLING;
	if (mmu_interval_notifier_insert(&e->mni, ctx->mm, start, end - start,
					 &npu_pin_notifier_ops)) {
		kfree(e);
		return NULL;
	}
	seq = mmu_interval_read_begin(&e->mni);
	r = npu_dma_region_create(ctx, start, end - start, write, true);
	if (IS_ERR(r)) {
		npu_pin_entry_free(e);
		return NULL;
	}
	spin_lock(&c->lock);
	if (mmu_interval_read_retry(&e->mni, seq)) {
		spin_unlock(&c->lock);
		e->r = r;	/* the pages may not be the range's any more */
		npu_pin_entry_free(e);
		return NULL;
	}
	e->r = r;
	kref_get(&r->range.ref);
	e->state = NPU_PIN_LIVE;
	list_add(&e->node, &c->lru);
	c->pages += r->nr_pages;
	c->entries++;
	reap = npu_pin_evict_locked(c, max_pages);
	spin_unlock(&c->lock);
	if (reap)
		schedule_work(&c->reap);
	return r;
}

/*
 * Has this small copy's range been pinned for a copy alone lately? If
 * not, remember it, the oldest forgotten.
 */
static bool npu_pin_seen(struct npu_dma_pin_cache *c, u64 addr, u64 len)
{
	unsigned long start = addr & PAGE_MASK;
	unsigned long key = start | ((PAGE_ALIGN(addr + len) - start) >> PAGE_SHIFT);
	bool seen = false;
	unsigned int i;

	spin_lock(&c->lock);
	for (i = 0; i < NPU_PIN_SEEN; i++)
		seen |= c->seen[i] == key;
	if (!seen)
		c->seen[c->seen_next++ % NPU_PIN_SEEN] = key;
	spin_unlock(&c->lock);
	return seen;
}

/**
 * npu_dma_pin_cache_get() - a cached pin holding a pageable buffer
 * @ctx: context of the calling process (current->mm is @ctx->mm)
 * @addr: user address
 * @len: bytes
 * @write: the device writes it
 *
 * Return: a referenced region holding [@addr, @addr + @len) (drop it with
 * npu_dma_region_put()), or NULL when the cache is off, the buffer is
 * small and not copied lately, or not cacheable, or pinning it long-term
 * failed: the caller pins it for this copy alone (which reports the
 * errors).
 */
struct npu_dma_region *npu_dma_pin_cache_get(struct npu_dma_ctx *ctx, u64 addr,
					     u64 len, bool write)
{
	unsigned long max_pages = (unsigned long)READ_ONCE(pin_cache_mb) <<
				  (20 - PAGE_SHIFT);
	struct npu_dma_stats *st = &ctx->ndev->stats;
	struct npu_dma_region *r;

	if (!max_pages || !len || addr + len < addr)
		return NULL;
	r = npu_pin_lookup(&ctx->pin_cache, addr, len, write);
	if (r) {
		atomic64_inc(&st->pin_cache_hits);
		return r;
	}
	if (len < NPU_PIN_CACHE_BIG && !npu_pin_seen(&ctx->pin_cache, addr, len))
		return NULL;
	r = npu_pin_fill(ctx, addr, len, write, max_pages);
	if (r)
		atomic64_inc(&st->pin_cache_fills);
	return r;
}

/* Everything live to the dead list; 1 if there was any. */
static bool npu_pin_kill_all(struct npu_dma_pin_cache *c)
{
	struct npu_pin_entry *e, *tmp;
	bool any;

	spin_lock(&c->lock);
	any = !list_empty(&c->lru);
	list_for_each_entry_safe(e, tmp, &c->lru, node)
		npu_pin_kill_locked(c, e);
	spin_unlock(&c->lock);
	return any;
}

/**
 * npu_dma_pin_cache_shrink() - give back what the cache holds
 * @ctx: the context
 *
 * For a registration refused by RLIMIT_MEMLOCK: the cache's locked_vm
 * is the program's to use. Return: true if anything was released (once
 * the copies using it retire).
 */
bool npu_dma_pin_cache_shrink(struct npu_dma_ctx *ctx)
{
	struct npu_dma_pin_cache *c = &ctx->pin_cache;
	bool any = npu_pin_kill_all(c);

	flush_work(&c->reap);
	npu_pin_reap(&c->reap);
	return any;
}

/**
 * npu_dma_pin_cache_drain() - release every cached pin of a closing file
 * @ctx: the context; its queues are already drained
 */
void npu_dma_pin_cache_drain(struct npu_dma_ctx *ctx)
{
	npu_dma_pin_cache_shrink(ctx);
}
