// SPDX-License-Identifier: GPL-2.0-only
/*
 * npu_dma: one DMA mapping per host page and NPU.
 *
 * Pins overlap: registrations of neighbouring buffers share their edge
 * pages, and each transient pin of a pageable buffer maps its pages
 * again while earlier copies of the same buffer are still queued. The
 * DMA API does not support several mappings of one page that the device
 * may write (a non-coherent machine could not keep their cache lines
 * straight; CONFIG_DMA_API_DEBUG reports them), so every pin of a page
 * on one NPU shares a single mapping, counted by its users.
 *
 * The shared mapping is bidirectional and skips the CPU cache maintenance
 * (DMA_ATTR_SKIP_CPU_SYNC): the engine syncs exactly the bytes of each
 * transfer, in that transfer's direction, as a streaming mapping kept
 * for long needs.
 */

#include <linux/dma-mapping.h>
#include <linux/slab.h>

#include "npu_dma.h"

/*
 * An entry is usually an xarray value packing the page's bus address
 * (page aligned: the whole page is mapped) with its user count, so that
 * mapping a page allocates nothing beyond the tree's nodes (a kmalloc()
 * per page made registering on edu several times slower than pinning).
 * A bus address that does not pack is kept in a struct npu_dma_page_map.
 */
#define NPU_PAGE_USERS_BITS	20
#define NPU_PAGE_USERS_MAX	((1UL << NPU_PAGE_USERS_BITS) - 1)
/* Bus page numbers that fit above the users in a value (63 bits). */
#define NPU_PAGE_DMA_PFN_MAX	(1ULL << (BITS_PER_LONG - 1 - NPU_PAGE_USERS_BITS))

struct npu_dma_page_map {
	dma_addr_t dma;
	unsigned long users;
};

static bool npu_page_packs(dma_addr_t dma)
{
	return !offset_in_page(dma) && (u64)dma >> PAGE_SHIFT < NPU_PAGE_DMA_PFN_MAX;
}

static void *npu_page_value(dma_addr_t dma, unsigned long users)
{
	return xa_mk_value((unsigned long)((u64)dma >> PAGE_SHIFT) <<
			   NPU_PAGE_USERS_BITS | users);
}

static dma_addr_t npu_page_value_dma(void *entry)
{
	return (dma_addr_t)(xa_to_value(entry) >> NPU_PAGE_USERS_BITS) << PAGE_SHIFT;
}

static unsigned long npu_page_value_users(void *entry)
{
	return xa_to_value(entry) & NPU_PAGE_USERS_MAX;
}

/* A new entry for the first user of a page mapped at @dma. */
static void *npu_page_entry_new(dma_addr_t dma)
{
	struct npu_dma_page_map *m;

	if (npu_page_packs(dma))
		return npu_page_value(dma, 1);
	m = kmalloc(sizeof(*m), GFP_KERNEL);
	if (!m)
		return NULL;
	m->dma = dma;
	m->users = 1;
	return m;
}

static void npu_page_entry_free(void *entry)
{
	if (!xa_is_value(entry))
		kfree(entry);
}

/* One more user of a mapped page. Replacing a present entry cannot fail. */
static dma_addr_t npu_page_get(struct npu_dma_device *ndev, unsigned long pfn,
			       void *entry)
{
	struct npu_dma_page_map *m = entry;
	unsigned long users;

	if (!xa_is_value(entry)) {
		m->users++;
		return m->dma;
	}
	users = npu_page_value_users(entry);
	if (users == NPU_PAGE_USERS_MAX)
		return DMA_MAPPING_ERROR;
	xa_store(&ndev->dma_pages, pfn,
		 npu_page_value(npu_page_value_dma(entry), users + 1), GFP_KERNEL);
	return npu_page_value_dma(entry);
}

static dma_addr_t npu_page_map_one(struct npu_dma_device *ndev,
				   struct page *page)
{
	unsigned long pfn = page_to_pfn(page);
	void *entry = xa_load(&ndev->dma_pages, pfn);
	struct device *dev = ndev->parent;
	dma_addr_t dma;

	if (entry)
		return npu_page_get(ndev, pfn, entry);
	dma = dma_map_page_attrs(dev, page, 0, PAGE_SIZE, DMA_BIDIRECTIONAL,
				 DMA_ATTR_SKIP_CPU_SYNC);
	if (dma_mapping_error(dev, dma))
		return DMA_MAPPING_ERROR;
	entry = npu_page_entry_new(dma);
	if (!entry)
		goto err_unmap;
	if (xa_err(xa_store(&ndev->dma_pages, pfn, entry, GFP_KERNEL)))
		goto err_free;
	return dma;

err_free:
	npu_page_entry_free(entry);
err_unmap:
	dma_unmap_page_attrs(dev, dma, PAGE_SIZE, DMA_BIDIRECTIONAL,
			     DMA_ATTR_SKIP_CPU_SYNC);
	return DMA_MAPPING_ERROR;
}

static void npu_page_unmap_one(struct npu_dma_device *ndev, struct page *page)
{
	unsigned long pfn = page_to_pfn(page);
	void *entry = xa_load(&ndev->dma_pages, pfn);
	struct npu_dma_page_map *m = entry;
	unsigned long users;
	dma_addr_t dma;

	if (WARN_ON_ONCE(!entry))
		return;
	if (xa_is_value(entry)) {
		dma = npu_page_value_dma(entry);
		users = npu_page_value_users(entry) - 1;
		if (users) {
			xa_store(&ndev->dma_pages, pfn,
				 npu_page_value(dma, users), GFP_KERNEL);
			return;
		}
	} else {
		dma = m->dma;
		if (--m->users)
			return;
	}
	xa_erase(&ndev->dma_pages, pfn);
	dma_unmap_page_attrs(ndev->parent, dma, PAGE_SIZE, DMA_BIDIRECTIONAL,
			     DMA_ATTR_SKIP_CPU_SYNC);
	npu_page_entry_free(entry);
}

/**
 * npu_dma_pages_unmap() - drop a pin's use of the pages' mappings
 * @ndev: the NPU the pages were mapped for
 * @pages: pinned pages, as given to npu_dma_pages_map()
 * @n: how many
 *
 * Context: process context; the pages are still pinned.
 */
void npu_dma_pages_unmap(struct npu_dma_device *ndev, struct page **pages,
			 unsigned long n)
{
	unsigned long i;

	mutex_lock(&ndev->dma_pages_lock);
	for (i = 0; i < n; i++)
		npu_page_unmap_one(ndev, pages[i]);
	mutex_unlock(&ndev->dma_pages_lock);
}

/**
 * npu_dma_pages_map() - bus addresses of pinned pages for an NPU's engine
 * @ndev: the NPU whose engine will DMA to and from the pages
 * @pages: pinned pages
 * @dma: filled with each page's bus address
 * @n: how many
 *
 * A page already mapped for @ndev by another pin reuses that mapping.
 * Undo with npu_dma_pages_unmap() before unpinning.
 *
 * Context: process context.
 * Return: 0, or -ENOMEM with nothing mapped (also when a page already has
 * NPU_PAGE_USERS_MAX users: a million overlapping pins of one page).
 */
int npu_dma_pages_map(struct npu_dma_device *ndev, struct page **pages,
		      dma_addr_t *dma, unsigned long n)
{
	unsigned long i;

	mutex_lock(&ndev->dma_pages_lock);
	for (i = 0; i < n; i++) {
		dma[i] = npu_page_map_one(ndev, pages[i]);
		if (dma[i] == DMA_MAPPING_ERROR)
			break;
		cond_resched();
	}
	mutex_unlock(&ndev->dma_pages_lock);
	if (i == n)
		return 0;
	npu_dma_pages_unmap(ndev, pages, i);
	return -ENOMEM;
}
