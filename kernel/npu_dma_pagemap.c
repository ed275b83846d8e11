// SPDX-License-Identifier: GPL-2.0-only
/*
 * npu_dma: one DMA mapping per host page and NPU.
 *
 * Pins overlap: registrations of neighbouring buffers share their edge
 * pages, and each transient pin of a pageable buffer maps its pages
 * again while earlier copies of the same buffer are still queued. The
 * DMA API does not support several mappings of one page that the device
 * may write (a non-coherent machine could not keep their cache lines
 * straight; CONFIG_DMA_API_DEBUG reports them), so the pins of a page on
 * one NPU share its mapping, counted by its users (one per direction
 * behind an IOMMU, below).
 *
 * A read-only pin (a registration with NPU_DMA_HOST_F_READONLY, the
 * source of a pageable copy) maps its pages DMA_TO_DEVICE, so that an
 * IOMMU refuses the device's writes to them; a writable pin maps
 * DMA_BIDIRECTIONAL. A page pinned both ways (the edge page of a
 * read-only buffer and of a writable neighbour, one buffer registered by
 * two files) must still be writable by the device for its writable pins,
 * and a mapping cannot change while other pins use its bus address:
 *
 * - a read-only pin shares the page's bidirectional mapping when there
 *   is one (it only reads through it; validation keeps its descriptors
 *   from writing);
 * - a writable pin of a page mapped read-only only maps it bidirectional;
 *   where that mapping has the same bus address (no IOMMU, no bouncing:
 *   the direction then protects nothing) it replaces the read-only one
 *   for every user, since two mappings at one address leave the DMA API
 *   debug code unable to tell which one a partial sync is for; elsewhere
 *   (an IOMMU) each direction keeps its own mapping and protection.
 *
 * The mappings skip the CPU cache maintenance (DMA_ATTR_SKIP_CPU_SYNC):
 * the engine syncs exactly the bytes of each transfer, in that
 * transfer's direction, through the mapping of the pin it names, as a
 * streaming mapping kept for long needs.
 */

#include <linux/dma-mapping.h>
#include <linux/slab.h>

#include "npu_dma_pin.h"

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

/* Entries by pfn and direction: a page's two are neighbours. */
static unsigned long npu_page_key(struct page *page, bool writable)
{
	return page_to_pfn(page) << 1 | writable;
}

static enum dma_data_direction npu_page_dir(bool writable)
{
	return writable ? DMA_BIDIRECTIONAL : DMA_TO_DEVICE;
}

static dma_addr_t npu_page_entry_dma(void *entry)
{
	return xa_is_value(entry) ? npu_page_value_dma(entry) :
	       ((struct npu_dma_page_map *)entry)->dma;
}

static unsigned long npu_page_entry_users(void *entry)
{
	return xa_is_value(entry) ? npu_page_value_users(entry) :
	       ((struct npu_dma_page_map *)entry)->users;
}

/* An entry for a page mapped at @dma with @users users. */
static void *npu_page_entry_new(dma_addr_t dma, unsigned long users)
{
	struct npu_dma_page_map *m;

	if (npu_page_packs(dma))
		return npu_page_value(dma, users);
	m = kmalloc(sizeof(*m), GFP_KERNEL);
	if (!m)
		return NULL;
	m->dma = dma;
	m->users = users;
	return m;
}

static void npu_page_entry_free(void *entry)
{
	if (!xa_is_value(entry))
		kfree(entry);
}

/* One more user of a mapped page. Replacing a present entry cannot fail. */
static dma_addr_t npu_page_get(struct npu_dma_device *ndev, unsigned long key,
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
	xa_store(&ndev->dma_pages, key,
		 npu_page_value(npu_page_value_dma(entry), users + 1), GFP_KERNEL);
	return npu_page_value_dma(entry);
}

static void npu_page_unmap_dma(struct npu_dma_device *ndev, dma_addr_t dma,
			       bool writable)
{
	dma_unmap_page_attrs(ndev->parent, dma, PAGE_SIZE, npu_page_dir(writable),
			     DMA_ATTR_SKIP_CPU_SYNC);
}

/* Enter @dma, just mapped, for @users users; unmapped again on failure. */
static dma_addr_t npu_page_insert(struct npu_dma_device *ndev, unsigned long key,
				  dma_addr_t dma, unsigned long users)
{
	void *entry = users <= NPU_PAGE_USERS_MAX ? npu_page_entry_new(dma, users) :
			NULL;

	if (entry && !xa_err(xa_store(&ndev->dma_pages, key, entry, GFP_KERNEL)))
		return dma;
	if (entry)
		npu_page_entry_free(entry);
	npu_page_unmap_dma(ndev, dma, key & 1);
	return DMA_MAPPING_ERROR;
}

static dma_addr_t npu_page_map_new(struct npu_dma_device *ndev, struct page *page,
				   bool writable)
{
	struct device *dev = ndev->parent;
	dma_addr_t dma;

	dma = dma_map_page_attrs(dev, page, 0, PAGE_SIZE, npu_page_dir(writable),
				 DMA_ATTR_SKIP_CPU_SYNC);
	if (dma_mapping_error(dev, dma))
		return DMA_MAPPING_ERROR;
	return npu_page_insert(ndev, npu_page_key(page, writable), dma, 1);
}

/*
 * A writable pin of a page that only read-only pins have mapped. Where
 * the bidirectional mapping gets the read-only one's bus address (no
 * IOMMU, no bouncing) the page keeps one mapping, now bidirectional for
 * all its users: two mappings at one address leave the DMA API debug code
 * unable to tell which one a partial sync is for. Elsewhere each
 * direction keeps its own mapping.
 */
static dma_addr_t npu_page_map_upgrade(struct npu_dma_device *ndev,
				       struct page *page, void *ro)
{
	dma_addr_t dma, ro_dma = npu_page_entry_dma(ro);
	unsigned long users = npu_page_entry_users(ro);
	struct device *dev = ndev->parent;

	dma = dma_map_page_attrs(dev, page, 0, PAGE_SIZE, DMA_BIDIRECTIONAL,
				 DMA_ATTR_SKIP_CPU_SYNC);
	if (dma_mapping_error(dev, dma))
		return DMA_MAPPING_ERROR;
	if (dma != ro_dma)
		return npu_page_insert(ndev, npu_page_key(page, true), dma, 1);
	dma = npu_page_insert(ndev, npu_page_key(page, true), dma, users + 1);
	if (dma == DMA_MAPPING_ERROR)
		return dma;
	xa_erase(&ndev->dma_pages, npu_page_key(page, false));
	npu_page_unmap_dma(ndev, ro_dma, false);
	npu_page_entry_free(ro);
	return dma;
}

/*
 * Which entry a pin uses. A read-only pin takes the page's read-only
 * mapping, else its bidirectional one (which it only reads through), and
 * maps the page DMA_TO_DEVICE only when it has neither. So while a
 * read-only pin holds the bidirectional mapping no read-only one is
 * made, and at unmap the same rule finds the entry the pin took.
 */
static unsigned long npu_page_user_key(struct npu_dma_device *ndev,
				       struct page *page, bool writable)
{
	unsigned long ro = npu_page_key(page, false);

	if (writable || xa_load(&ndev->dma_pages, ro))
		return npu_page_key(page, writable);
	return npu_page_key(page, true);
}

static dma_addr_t npu_page_map_one(struct npu_dma_device *ndev,
				   struct page *page, bool writable)
{
	unsigned long key = npu_page_user_key(ndev, page, writable);
	void *entry = xa_load(&ndev->dma_pages, key);

	if (entry)
		return npu_page_get(ndev, key, entry);
	if (writable) {
		entry = xa_load(&ndev->dma_pages, npu_page_key(page, false));
		if (entry)
			return npu_page_map_upgrade(ndev, page, entry);
	}
	return npu_page_map_new(ndev, page, writable);
}

static void npu_page_unmap_one(struct npu_dma_device *ndev, struct page *page,
			       bool writable)
{
	unsigned long key = npu_page_user_key(ndev, page, writable);
	void *entry = xa_load(&ndev->dma_pages, key);
	struct npu_dma_page_map *m = entry;
	unsigned long users;
	dma_addr_t dma;

	if (WARN_ON_ONCE(!entry))
		return;
	if (xa_is_value(entry)) {
		dma = npu_page_value_dma(entry);
		users = npu_page_value_users(entry) - 1;
		if (users) {
			xa_store(&ndev->dma_pages, key,
				 npu_page_value(dma, users), GFP_KERNEL);
			return;
		}
	} else {
		dma = m->dma;
		if (--m->users)
			return;
	}
	xa_erase(&ndev->dma_pages, key);
	npu_page_unmap_dma(ndev, dma, key & 1);
	npu_page_entry_free(entry);
}

/**
 * npu_dma_pages_unmap() - drop a pin's use of the pages' mappings
 * @ndev: the NPU the pages were mapped for
 * @pages: pinned pages, as given to npu_dma_pages_map()
 * @n: how many
 * @writable: as given to npu_dma_pages_map()
 *
 * Context: process context; the pages are still pinned.
 */
void npu_dma_pages_unmap(struct npu_dma_device *ndev, struct page **pages,
			 unsigned long n, bool writable)
{
	unsigned long i;

	mutex_lock(&ndev->dma_pages_lock);
	for (i = 0; i < n; i++)
		npu_page_unmap_one(ndev, pages[i], writable);
	mutex_unlock(&ndev->dma_pages_lock);
}

/**
 * npu_dma_pages_map() - bus addresses of pinned pages for an NPU's engine
 * @ndev: the NPU whose engine will DMA to and from the pages
 * @pages: pinned pages
 * @dma: filled with each page's bus address
 * @n: how many
 * @writable: the engine may write them (else it only reads them)
 *
 * A page already mapped for @ndev in the same direction by another pin
 * reuses that mapping. Undo with npu_dma_pages_unmap() before
 * unpinning.
 *
 * Context: process context.
 * Return: 0, or -ENOMEM with nothing mapped (also when a page already has
 * NPU_PAGE_USERS_MAX users: a million overlapping pins of one page).
 */
int npu_dma_pages_map(struct npu_dma_device *ndev, struct page **pages,
		      dma_addr_t *dma, unsigned long n, bool writable)
{
	unsigned long i;

	mutex_lock(&ndev->dma_pages_lock);
	for (i = 0; i < n; i++) {
		dma[i] = npu_page_map_one(ndev, pages[i], writable);
		if (dma[i] == DMA_MAPPING_ERROR)
			break;
		cond_resched();
	}
	mutex_unlock(&ndev->dma_pages_lock);
	if (i == n)
		return 0;
	npu_dma_pages_unmap(ndev, pages, i, writable);
	return -ENOMEM;
}
