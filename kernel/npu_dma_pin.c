// SPDX-License-Identifier: GPL-2.0-only
/*
 * npu_dma: pinning host memory.
 *
 * HOST_REGISTER pins a user range for as long as it stays registered:
 * pin_user_pages_fast(FOLL_LONGTERM, FOLL_WRITE unless read-only),
 * charged to the opener's locked_vm against RLIMIT_MEMLOCK (by
 * account_locked_vm(), which lets CAP_IPC_LOCK through), and DMA-mapped
 * page by page for engines that need bus addresses (one mapping per page
 * and NPU, shared by every pin of it: npu_dma_pagemap.c). A pageable buffer
 * named by one descriptor is pinned the same way, without FOLL_LONGTERM
 * or accounting (like direct I/O), and released when that copy retires.
 *
 * Regions are refcounted (struct npu_dma_range.ref): the tree holds one
 * reference, every job using the region one. Unregister drops the tree's;
 * the pages go when the last copy using them retires.
 */

#include <linux/dma-mapping.h>
#include <linux/iommu.h>
#include <linux/mm.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>
#include <linux/userfaultfd_k.h>

#include "npu_dma_budget.h"
#include "npu_dma_pin.h"
#include "npu_dma_pin_cache.h"
#include "npu_dma_queue.h"
#include "npu_dma_trace.h"

/* A registration larger than this is refused: its page array alone is big. */
#define NPU_DMA_MAX_PIN_PAGES	(1UL << 22)	/* 16 GiB of 4 KiB pages */
#define NPU_DMA_PIN_BATCH	512

static void npu_region_free(struct npu_dma_region *r)
{
	trace_npu_dma_unpin(r->ndev->index, r->range.start, r->range.size,
			    r->nr_pages, r->accounted);
	atomic64_inc(&r->ndev->stats.unpins);
	if (r->dma) {
		npu_dma_pages_unmap(r->ndev, r->pages, r->nr_pages,
				    r->writable);
		kvfree(r->dma);
	}
	unpin_user_pages_dirty_lock(r->pages, r->nr_pages, r->writable);
	if (r->accounted)
		account_locked_vm(r->mm, r->nr_pages, false);
	mmdrop(r->mm);
	drm_dev_put(&r->ndev->drm);
	kvfree(r->pages);
	kfree(r);
}

static void npu_dma_region_release(struct kref *ref)
{
	npu_region_free(container_of(ref, struct npu_dma_region, range.ref));
}

/**
 * npu_dma_region_put() - drop a reference on a host region
 * @range: the region's range
 */
void npu_dma_region_put(struct npu_dma_range *range)
{
	kref_put(&range->ref, npu_dma_region_release);
}

/**
 * npu_dma_region_seg() - the pinned page behind a user address
 * @r: region holding @addr
 * @addr: user address
 * @seg: filled with page, offset and bus address
 */
void npu_dma_region_seg(struct npu_dma_region *r, u64 addr,
			struct npu_dma_seg *seg)
{
	unsigned long idx = (addr >> PAGE_SHIFT) - (r->range.start >> PAGE_SHIFT);

	seg->page = r->pages[idx];
	seg->offset = offset_in_page(addr);
	seg->dma = r->dma ? r->dma[idx] + seg->offset : 0;
}

/*
 * The time spent in pin_user_pages_fast() by registrations (FOLL_LONGTERM)
 * is counted apart, so that debugfs shows what the rest of HOST_REGISTER
 * costs on top of it.
 */
static int npu_region_pin(struct npu_dma_region *r, unsigned int gup_flags)
{
	unsigned long start = r->range.start & PAGE_MASK, done = 0;
	struct npu_dma_stats *st = &r->ndev->stats;
	u64 t, ns = 0;
	int n = 0;

	while (done < r->nr_pages) {
		t = ktime_get_ns();
		n = pin_user_pages_fast(start + (done << PAGE_SHIFT),
					min_t(unsigned long, r->nr_pages - done,
					      NPU_DMA_PIN_BATCH),
					gup_flags, r->pages + done);
		ns += ktime_get_ns() - t;
		if (n <= 0)
			break;
		done += n;
		cond_resched();
	}
	if (gup_flags & FOLL_LONGTERM) {
		atomic64_inc(&st->reg_pin_calls);
		atomic64_add(ns, &st->reg_pin_ns);
	}
	if (done < r->nr_pages) {
		unpin_user_pages(r->pages, done);
		return n ? n : -EFAULT;
	}
	return 0;
}

static bool npu_range_has_uffd(struct mm_struct *mm, unsigned long start,
			       unsigned long end)
{
	VMA_ITERATOR(vmi, mm, start);
	struct vm_area_struct *vma;
	bool armed = false;

	mmap_read_lock(mm);
	for_each_vma_range(vmi, vma, end) {
		if (userfaultfd_armed(vma)) {
			armed = true;
			break;
		}
	}
	mmap_read_unlock(mm);
	return armed;
}

/*
 * A FOLL_LONGTERM pin cannot let a fault drop mmap_lock and retry, so a
 * missing page of a userfaultfd range fails it with SIGBUS (and a
 * DEBUG_VM stack dump) instead of waiting for the handler. Fault such a
 * range in first the way a user access does, killably and with retries,
 * so that registering it works as it does for any other memory and a
 * handler that never answers leaves the caller killable. Ranges without
 * userfaultfd skip this: the pin faults them in itself. A page another
 * thread drops between the two (MADV_DONTNEED) still fails the pin with
 * -EFAULT, as a pin of an unmapped page does.
 */
static int npu_region_prefault(struct npu_dma_region *r)
{
	unsigned long start = r->range.start & PAGE_MASK;
	size_t len = r->nr_pages << PAGE_SHIFT;
	void __user *p = (void __user *)start;
	size_t left;

	if (!npu_range_has_uffd(r->mm, start, start + len))
		return 0;
	left = r->writable ? fault_in_safe_writeable(p, len) :
			     fault_in_readable(p, len);
	if (fatal_signal_pending(current))
		return -EINTR;
	return left ? -EFAULT : 0;
}

/*
 * Without an IOMMU a page above the DMA mask cannot be mapped (and the
 * DMA API warns): refuse it before mapping.
 */
static bool npu_page_reachable(struct device *dev, struct page *page)
{
	u64 limit = min_not_zero(dma_get_mask(dev), dev->bus_dma_limit);

	return device_iommu_mapped(dev) ||
	       page_to_phys(page) + PAGE_SIZE - 1 <= limit;
}

static int npu_region_map(struct npu_dma_region *r)
{
	struct device *dev = r->ndev->parent;
	unsigned long i;

	for (i = 0; i < r->nr_pages; i++)
		if (!npu_page_reachable(dev, r->pages[i]))
			return -EIO;

	r->dma = kvmalloc_array(r->nr_pages, sizeof(*r->dma), GFP_KERNEL_ACCOUNT);
	if (!r->dma)
		return -ENOMEM;
	if (npu_dma_pages_map(r->ndev, r->pages, r->dma, r->nr_pages,
			      r->writable)) {
		kvfree(r->dma);
		r->dma = NULL;
		return -ENOMEM;
	}
	return 0;
}

/**
 * npu_dma_region_create() - pin host memory of the context's process
 * @ctx: the context; current->mm is @ctx->mm
 * @addr: user address
 * @len: bytes
 * @write: the device writes it (FOLL_WRITE)
 * @longterm: held for long, by a registration or the pin cache
 *	(FOLL_LONGTERM and RLIMIT_MEMLOCK accounting)
 *
 * Return: a region in no tree, referenced once, or an ERR_PTR().
 */
struct npu_dma_region *npu_dma_region_create(struct npu_dma_ctx *ctx, u64 addr,
					     u64 len, bool write, bool longterm)
{
	unsigned int gup = (write ? FOLL_WRITE : 0) | (longterm ? FOLL_LONGTERM : 0);
	struct npu_dma_region *r;
	u64 end;
	int ret;

	if (!len || check_add_overflow(addr, len, &end) || end > TASK_SIZE ||
	    !access_ok(u64_to_user_ptr(addr), len))
		return ERR_PTR(-EFAULT);

	r = kzalloc(sizeof(*r), GFP_KERNEL_ACCOUNT);
	if (!r)
		return ERR_PTR(-ENOMEM);
	r->range.start = addr;
	r->range.size = len;
	kref_init(&r->range.ref);
	r->nr_pages = (PAGE_ALIGN(end) - (addr & PAGE_MASK)) >> PAGE_SHIFT;
	r->writable = write;
	r->ndev = ctx->ndev;
	r->mm = ctx->mm;
	ret = -ENOMEM;
	if (r->nr_pages > NPU_DMA_MAX_PIN_PAGES)
		goto err_free;
	r->pages = kvmalloc_array(r->nr_pages, sizeof(*r->pages), GFP_KERNEL_ACCOUNT);
	if (!r->pages)
		goto err_free;

	if (longterm) {
		ret = account_locked_vm(ctx->mm, r->nr_pages, true);
		if (ret)
			goto err_free_pages;
		r->accounted = true;
		ret = npu_region_prefault(r);
		if (ret)
			goto err_unaccount;
	}
	ret = npu_region_pin(r, gup);
	if (ret)
		goto err_unaccount;
	if (ctx->ndev->ops->dma_mapped) {
		ret = npu_region_map(r);
		if (ret)
			goto err_unpin;
	}
	mmgrab(r->mm);
	drm_dev_get(&r->ndev->drm);
	trace_npu_dma_pin(r->ndev->index, addr, len, r->nr_pages, longterm);
	atomic64_inc(&r->ndev->stats.pins);
	return r;

err_unpin:
	unpin_user_pages(r->pages, r->nr_pages);
err_unaccount:
	if (r->accounted)
		account_locked_vm(ctx->mm, r->nr_pages, false);
err_free_pages:
	kvfree(r->pages);
err_free:
	kfree(r);
	return ERR_PTR(ret);
}

/**
 * npu_dma_pin_transient() - pin a pageable buffer for one copy, or take
 *	the pin the file's cache keeps of it (npu_dma_pin_cache.c)
 * @ctx: context of the calling process
 * @addr: user address
 * @len: bytes
 * @write: the device writes it
 *
 * Return: a region in no tree (drop it with npu_dma_region_put()), or an
 * ERR_PTR().
 */
struct npu_dma_region *npu_dma_pin_transient(struct npu_dma_ctx *ctx, u64 addr,
					     u64 len, bool write)
{
	struct npu_dma_region *r = npu_dma_pin_cache_get(ctx, addr, len, write);

	return r ?: npu_dma_region_create(ctx, addr, len, write, false);
}

static int npu_host_register(struct npu_dma_ctx *ctx,
			     const struct npu_dma_host_register *req)
{
	struct npu_dma_region *r;
	int ret;

	if (req->flags & ~NPU_DMA_HOST_FLAGS_MASK || req->pad ||
	    req->reserved[0] || req->reserved[1] || !req->size) {
		npu_dbg(ctx->ndev, "bad flags 0x%x, size or reserved fields\n",
			req->flags);
		return -EINVAL;
	}
	if (req->addr + req->size < req->addr)
		return -EINVAL;

	r = npu_dma_region_create(ctx, req->addr, req->size,
				  !(req->flags & NPU_DMA_HOST_F_READONLY), true);
	/* The pin cache's locked_vm is the program's to register. */
	if (PTR_ERR_OR_ZERO(r) == -ENOMEM && npu_dma_pin_cache_shrink(ctx))
		r = npu_dma_region_create(ctx, req->addr, req->size,
					  !(req->flags & NPU_DMA_HOST_F_READONLY),
					  true);
	if (IS_ERR(r)) {
		npu_dbg(ctx->ndev, "cannot pin 0x%llx+%llu: %ld\n", req->addr,
			req->size, PTR_ERR(r));
		return PTR_ERR(r);
	}

	mutex_lock(&ctx->lock);
	ret = npu_dma_range_insert(&ctx->host_tree, &r->range);
	mutex_unlock(&ctx->lock);
	if (ret) {
		npu_dbg(ctx->ndev, "0x%llx+%llu overlaps a registration\n",
			req->addr, req->size);
		npu_dma_region_put(&r->range);
	}
	return ret;
}

/* Timed as a whole for debugfs (counters: register_*). */
int npu_dma_host_register_ioctl(struct npu_dma_ctx *ctx, void *data)
{
	struct npu_dma_stats *st = &ctx->ndev->stats;
	u64 t = ktime_get_ns();
	int ret;

	ret = npu_host_register(ctx, data);
	atomic64_inc(&st->reg_calls);
	atomic64_add(ktime_get_ns() - t, &st->reg_ns);
	return ret;
}

int npu_dma_host_unregister_ioctl(struct npu_dma_ctx *ctx, void *data)
{
	struct npu_dma_host_unregister *req = data;
	struct npu_dma_range *r;

	if (req->flags || req->pad || req->reserved[0] || req->reserved[1])
		return -EINVAL;

	r = npu_dma_range_take(ctx, &ctx->host_tree, req->addr);
	if (!r) {
		npu_dbg(ctx->ndev, "0x%llx is not registered\n", req->addr);
		return -EINVAL;
	}

	npu_dma_region_put(r);
	return 0;
}

/**
 * npu_dma_host_release_all() - unregister everything of a closing context
 * @ctx: the context; its queues are already drained
 */
void npu_dma_host_release_all(struct npu_dma_ctx *ctx)
{
	npu_dma_range_drain(ctx, &ctx->host_tree, npu_dma_region_put);
}
