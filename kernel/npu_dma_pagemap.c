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

struct npu_dma_page_map {
	dma_addr_t dma;
	unsigned long users;
};

static dma_addr_t npu_page_map_one(struct npu_dma_device *ndev,
				   struct page *page)
{
	unsigned long pfn = page_to_pfn(page);
	struct npu_dma_page_map *m = xa_load(&ndev->dma_pages, pfn);
	struct device *dev = ndev->parent;

	if (m) {
		m->users++;
		return m->dma;
	}
	m = kmalloc(sizeof(*m), GFP_KERNEL);
	if (!m)
		return DMA_MAPPING_ERROR;
	m->users = 1;
	m->dma = dma_map_page_attrs(dev, page, 0, PAGE_SIZE, DMA_BIDIRECTIONAL,
				    DMA_ATTR_SKIP_CPU_SYNC);
	if (dma_mapping_error(dev, m->dma))
		goto err_free;
	if (xa_err(xa_store(&ndev->dma_pages, pfn, m, GFP_KERNEL)))
		goto err_unmap;
	return m->dma;

err_unmap:
	dma_unmap_page_attrs(dev, m->dma, PAGE_SIZE, DMA_BIDIRECTIONAL,
			     DMA_ATTR_SKIP_CPU_SYNC);
err_free:
	kfree(m);
	return DMA_MAPPING_ERROR;
}

static void npu_page_unmap_one(struct npu_dma_device *ndev, struct page *page)
{
	unsigned long pfn = page_to_pfn(page);
	struct npu_dma_page_map *m = xa_load(&ndev->dma_pages, pfn);

	if (WARN_ON_ONCE(!m) || --m->users)
		return;
	xa_erase(&ndev->dma_pages, pfn);
	dma_unmap_page_attrs(ndev->parent, m->dma, PAGE_SIZE, DMA_BIDIRECTIONAL,
			     DMA_ATTR_SKIP_CPU_SYNC);
	kfree(m);
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
 * Return: 0, or -ENOMEM with nothing mapped.
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
