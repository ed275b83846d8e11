// SPDX-License-Identifier: GPL-2.0-only
/*
 * npu_dma: device memory shared as dma-buf (PRIME), and foreign dma-bufs
 * imported as copy sources and destinations.
 *
 * Export: an allocation's dma-buf is the DRM core's (drm_gem_prime_export)
 * over the allocation's pages (get_sg_table). The dma-buf holds the GEM
 * object, whose last reference frees the memory (npu_dma_mem.c): the
 * exporter freeing its handle, or dying, leaves every importer working.
 * Only a simulated NPU's memory is mapped for the CPU (mmap, vmap): its
 * pages live as long as the allocation. An edu NPU's reserved pages go
 * with the card (npu_dma_devmem_fini()), as a board's memory behind its
 * BAR would, and no CPU mapping of them may outlive it.
 *
 * Import of our own dma-buf: the DRM core hands back the same object. In
 * a file other than its owner's, the handle brings an alias: a range at
 * the same device address in that file's tree, standing for the
 * allocation's pages (range.target) and holding the object.
 *
 * Import of a foreign dma-buf (another driver's, or a peer NPU's): a GEM
 * object of its own with a device address in the NPU's import window.
 * The engine reaches it as its exporter allows, never through the pages
 * of the exporter's sg table: an engine that DMAs (edu) by the bus
 * addresses of the attachment's mapping; the sim engine through the
 * exporter's kernel mapping (dma_buf_vmap()), or, for exporters without
 * one (udmabuf in 6.1), as the bus master it stands for: by the bus
 * addresses of its own attachment, which on its platform device (no
 * IOMMU, no DMA offset) are physical addresses, mapped with memremap().
 */

#include <linux/dma-buf.h>
#include <linux/genalloc.h>
#include <linux/io.h>
#include <linux/mem_encrypt.h>
#include <linux/iosys-map.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_prime.h>

#include "npu_dma_compat.h"
#include "npu_dma_mem.h"
#include "npu_dma_prime.h"

MODULE_IMPORT_NS(DMA_BUF);

/**
 * struct npu_dma_import - a foreign dma-buf imported by an NPU
 * @base: the GEM object; obj->import_attach is @attach
 * @range: its device addresses, in the importing file's tree
 * @ndev: the importing NPU (the object holds a DRM device reference)
 * @owner: the importing file, once its handle exists
 * @attach: our attachment to the dma-buf
 * @bus: engines that DMA: the NPU's mapping of the buffer, shared with
 *	its other imports of it (referenced)
 * @dma: engines that DMA: the bus address of each page (@bus's)
 * @map: other engines: the exporter's kernel mapping (dma_buf_vmap())
 * @va: other engines, exporters without @map: each page memremap()ed
 *	from its bus address in @sgt
 * @src_alloc: a buffer of another sim NPU's memory, reached page by page
 *	as that NPU reaches it (backed on first use, never all at once as a
 *	kernel mapping would need): the allocation, its GEM object referenced
 * @src_mem: a buffer of another NPU's reserved memory (edu): that memory,
 *	referenced; its pages go with its card, so a job holds it as it
 *	holds a peer's (npu_dma_peer_hold()) and fails once it is gone
 */
struct npu_dma_import {
	struct drm_gem_object base;
	struct npu_dma_range range;
	struct npu_dma_device *ndev;
	struct drm_file *owner;
	struct dma_buf_attachment *attach;
	struct npu_dma_bus_map *bus;
	dma_addr_t *dma;
	struct iosys_map map;
	void **va;
	struct npu_dma_alloc *src_alloc;
	struct npu_dma_devmem *src_mem;
};

/**
 * struct npu_dma_bus_map - one NPU's mapping of a dma-buf, shared
 * @ref: held by each import of the buffer on the NPU
 * @node: in the NPU's bus_maps, under bus_maps_lock
 * @ndev: the NPU
 * @buf: the dma-buf (referenced)
 * @attach: the attachment the mapping is of
 * @sgt: the mapping, for the NPU's device
 * @dma: the bus address of each page of @sgt
 *
 * Every file imports a foreign dma-buf anew (the DRM core's rule). Were
 * each import to map the buffer again, its pages would be mapped twice
 * for one device at the same bus addresses, and the DMA API could not
 * tell which mapping a partial sync is of (CONFIG_DMA_API_DEBUG reports
 * it as a sync of memory never mapped). The imports of a buffer on an
 * NPU share this one mapping instead.
 */
struct npu_dma_bus_map {
	struct kref ref;
	struct list_head node;
	struct npu_dma_device *ndev;
	struct dma_buf *buf;
	struct dma_buf_attachment *attach;
	struct sg_table *sgt;
	dma_addr_t *dma;
};

static struct npu_dma_import *to_npu_dma_import(struct drm_gem_object *obj)
{
	return container_of(obj, struct npu_dma_import, base);
}

/**
 * npu_dma_prime_init() - the NPU's window of addresses for imports
 * @ndev: an NPU being created, its index set
 *
 * Return: 0 or -ENOMEM. Undone by npu_dma_prime_fini() once the DRM
 * device is released: every import holds it.
 */
int npu_dma_prime_init(struct npu_dma_device *ndev)
{
	ndev->import_base = NPU_DMA_IMPORT_BASE +
			    (u64)ndev->index * NPU_DMA_DEVMEM_STRIDE;
	INIT_LIST_HEAD(&ndev->bus_maps);
	mutex_init(&ndev->bus_maps_lock);
	ndev->import_pool = gen_pool_create(PAGE_SHIFT, NUMA_NO_NODE);
	if (!ndev->import_pool)
		return -ENOMEM;
	if (gen_pool_add(ndev->import_pool, ndev->import_base,
			 NPU_DMA_DEVMEM_STRIDE, NUMA_NO_NODE)) {
		gen_pool_destroy(ndev->import_pool);
		ndev->import_pool = NULL;
		return -ENOMEM;
	}
	return 0;
}

void npu_dma_prime_fini(struct npu_dma_device *ndev)
{
	if (ndev->import_pool)
		gen_pool_destroy(ndev->import_pool);
	ndev->import_pool = NULL;
}

/* Every page of @a, backed now if lazy; kvfree() the array. */
static struct page **npu_alloc_pages(struct npu_dma_alloc *a)
{
	unsigned long i, n = a->range.size >> PAGE_SHIFT;
	struct page **pages;

	pages = kvmalloc_array(n, sizeof(*pages), GFP_KERNEL);
	if (!pages)
		return ERR_PTR(-ENOMEM);
	for (i = 0; i < n; i++) {
		pages[i] = npu_dma_devmem_page(a, i);
		if (!pages[i]) {
			kvfree(pages);
			return ERR_PTR(npu_dma_devmem_lazy(a) ? -ENOMEM : -ENODEV);
		}
	}
	return pages;
}

/* The DRM core maps this for each importer's device (drm_gem_map_dma_buf). */
struct sg_table *npu_dma_alloc_sg_table(struct drm_gem_object *obj)
{
	struct npu_dma_alloc *a = to_npu_dma_alloc(obj);
	struct page **pages = npu_alloc_pages(a);
	struct sg_table *sgt;

	if (IS_ERR(pages))
		return ERR_CAST(pages);
	sgt = drm_prime_pages_to_sg(obj->dev, pages, a->range.size >> PAGE_SHIFT);
	kvfree(pages);
	return sgt;
}

int npu_dma_alloc_vmap(struct drm_gem_object *obj, struct iosys_map *map)
{
	struct npu_dma_alloc *a = to_npu_dma_alloc(obj);
	struct page **pages;
	void *vaddr;

	if (!npu_dma_devmem_lazy(a))
		return -EOPNOTSUPP;	/* see the top of this file */
	pages = npu_alloc_pages(a);
	if (IS_ERR(pages))
		return PTR_ERR(pages);
	vaddr = vmap(pages, a->range.size >> PAGE_SHIFT, VM_MAP, PAGE_KERNEL);
	kvfree(pages);
	if (!vaddr)
		return -ENOMEM;
	iosys_map_set_vaddr(map, vaddr);
	return 0;
}

void npu_dma_alloc_vunmap(struct drm_gem_object *obj, struct iosys_map *map)
{
	vunmap(map->vaddr);
}

/*
 * A CPU mapping of a dma-buf (the dma-buf's own mmap, or an importer's
 * such as vgem's): pages inserted by pfn as they are touched, so that
 * no page reference outlives the mapping, which holds the object.
 */
int npu_dma_alloc_mmap(struct drm_gem_object *obj, struct vm_area_struct *vma)
{
	if (!npu_dma_devmem_lazy(to_npu_dma_alloc(obj)))
		return -EOPNOTSUPP;
	if (is_cow_mapping(vma->vm_flags))
		return -EINVAL;
	npu_dma_vm_flags_set(vma, VM_PFNMAP | VM_IO | VM_DONTEXPAND |
			     VM_DONTDUMP, 0);
	return 0;
}

static vm_fault_t npu_alloc_vm_fault(struct vm_fault *vmf)
{
	struct drm_gem_object *obj = vmf->vma->vm_private_data;
	struct npu_dma_alloc *a = to_npu_dma_alloc(obj);
	unsigned long start = drm_vma_node_start(&obj->vma_node);
	struct page *page;

	if (vmf->pgoff < start ||
	    vmf->pgoff - start >= a->range.size >> PAGE_SHIFT)
		return VM_FAULT_SIGBUS;
	page = npu_dma_devmem_page(a, vmf->pgoff - start);
	if (!page)
		return VM_FAULT_OOM;
	return vmf_insert_pfn(vmf->vma, vmf->address, page_to_pfn(page));
}

const struct vm_operations_struct npu_dma_alloc_vm_ops = {
	.fault = npu_alloc_vm_fault,
	.open = drm_gem_vm_open,
	.close = drm_gem_vm_close,
};

/**
 * npu_dma_alias_add() - another file's handle on an allocation, or an import
 * @ctx: that file's context
 * @target: the allocation's range
 * @start: first device address the alias covers (page aligned)
 * @size: bytes it covers
 * @phys: the address of @target that @start stands for; the alias covers
 *	[@phys, @phys + @size) of @target
 * @kind: who made it (a GEM handle, IPC_IMPORT, VMM_MAP), who removes it
 *
 * The alias sits in @ctx's tree and holds the GEM object; jobs of @ctx
 * reference the alias.
 *
 * Return: 0, -ENOMEM, or -EEXIST if the file already has an address of it.
 */
int npu_dma_alias_add(struct npu_dma_ctx *ctx, struct npu_dma_range *target,
		      u64 start, u64 size, u64 phys, enum npu_dma_alias_kind kind)
{
	struct npu_dma_alloc *a = container_of(target, struct npu_dma_alloc, range);
	struct npu_dma_range *al;
	int ret;

	al = kzalloc(sizeof(*al), GFP_KERNEL_ACCOUNT);
	if (!al)
		return -ENOMEM;
	al->start = start;
	al->size = size;
	al->target = target;
	al->phys = phys;
	al->ipc = kind == NPU_DMA_ALIAS_IPC;
	al->vmm = kind == NPU_DMA_ALIAS_VMM;
	kref_init(&al->ref);
	mutex_lock(&ctx->lock);
	ret = npu_dma_range_insert(&ctx->mem_tree, al);
	mutex_unlock(&ctx->lock);
	if (ret) {
		kfree(al);
		return ret;
	}
	drm_gem_object_get(&a->base);
	return 0;
}

/**
 * npu_dma_alias_remove() - GEM_CLOSE of another file's handle
 * @ctx: that file's context
 * @target: the allocation's range
 */
void npu_dma_alias_remove(struct npu_dma_ctx *ctx, struct npu_dma_range *target)
{
	struct npu_dma_range *r;

	mutex_lock(&ctx->lock);
	r = npu_dma_range_find(&ctx->mem_tree, target->start, 1);
	if (r && r->target == target && !r->ipc && !r->vmm) {
		rb_erase(&r->node, &ctx->mem_tree);
		WRITE_ONCE(r->gone, true);
	} else {
		r = NULL;	/* device removal emptied the tree */
	}
	mutex_unlock(&ctx->lock);
	if (r)
		npu_dma_alloc_put(r);
}

/**
 * npu_dma_alias_remove_at() - IPC_CLOSE of an import, VMM_UNMAP of a mapping
 * @ctx: the file's context
 * @start: the alias's first device address
 * @kind: NPU_DMA_ALIAS_IPC or NPU_DMA_ALIAS_VMM
 *
 * Return: 0, or -ENOENT if @ctx has no such alias starting there.
 */
int npu_dma_alias_remove_at(struct npu_dma_ctx *ctx, u64 start,
			    enum npu_dma_alias_kind kind)
{
	struct npu_dma_range *r;
	bool match;

	mutex_lock(&ctx->lock);
	r = npu_dma_range_find(&ctx->mem_tree, start, 1);
	match = r && r->start == start && r->target &&
		(kind == NPU_DMA_ALIAS_IPC ? r->ipc : r->vmm);
	if (match) {
		rb_erase(&r->node, &ctx->mem_tree);
		WRITE_ONCE(r->gone, true);
	} else {
		r = NULL;
	}
	mutex_unlock(&ctx->lock);
	if (!r)
		return -ENOENT;
	npu_dma_alloc_put(r);
	return 0;
}

/* The alias's last reference (its tree's or a job's): drop the object. */
void npu_dma_alias_release(struct kref *ref)
{
	struct npu_dma_range *al = container_of(ref, struct npu_dma_range, ref);
	struct npu_dma_alloc *a = container_of(al->target, struct npu_dma_alloc,
					       range);

	kfree(al);
	drm_gem_object_put(&a->base);
}

/* The last import of the buffer went (bus_maps_lock held; dropped here). */
static void npu_bus_map_release(struct kref *ref)
{
	struct npu_dma_bus_map *m = container_of(ref, struct npu_dma_bus_map, ref);

	list_del(&m->node);
	mutex_unlock(&m->ndev->bus_maps_lock);
	npu_dma_buf_unmap_attachment(m->attach, m->sgt, DMA_BIDIRECTIONAL);
	dma_buf_detach(m->buf, m->attach);
	dma_buf_put(m->buf);
	kvfree(m->dma);
	kfree(m);
}

static void npu_bus_map_put(struct npu_dma_bus_map *m)
{
	kref_put_mutex(&m->ref, npu_bus_map_release, &m->ndev->bus_maps_lock);
}

/* Map @buf for @ndev's engine: its own attachment, and each page's address. */
static struct npu_dma_bus_map *npu_bus_map_create(struct npu_dma_device *ndev,
						  struct dma_buf *buf)
{
	unsigned long n = buf->size >> PAGE_SHIFT, i = 0;
	struct sg_dma_page_iter iter;
	struct npu_dma_bus_map *m;
	int ret = -ENOMEM;

	m = kzalloc(sizeof(*m), GFP_KERNEL_ACCOUNT);
	if (!m)
		return ERR_PTR(-ENOMEM);
	m->dma = kvmalloc_array(n, sizeof(*m->dma), GFP_KERNEL_ACCOUNT);
	if (!m->dma)
		goto err_free;
	m->attach = dma_buf_attach(buf, ndev->parent);
	if (IS_ERR(m->attach)) {
		ret = PTR_ERR(m->attach);
		goto err_free;
	}
	m->sgt = npu_dma_buf_map_attachment(m->attach, DMA_BIDIRECTIONAL);
	if (IS_ERR(m->sgt)) {
		ret = PTR_ERR(m->sgt);
		goto err_detach;
	}
	for_each_sgtable_dma_page(m->sgt, &iter, 0) {
		if (i == n)
			break;
		m->dma[i++] = sg_page_iter_dma_address(&iter);
	}
	if (i != n) {
		ret = -EINVAL;
		goto err_unmap;
	}
	get_dma_buf(buf);
	m->buf = buf;
	m->ndev = ndev;
	kref_init(&m->ref);
	return m;

err_unmap:
	npu_dma_buf_unmap_attachment(m->attach, m->sgt, DMA_BIDIRECTIONAL);
err_detach:
	dma_buf_detach(buf, m->attach);
err_free:
	kvfree(m->dma);
	kfree(m);
	return ERR_PTR(ret);
}

/* The NPU's mapping of @buf: the one its other imports use, or a new one. */
static struct npu_dma_bus_map *npu_bus_map_get(struct npu_dma_device *ndev,
					       struct dma_buf *buf)
{
	struct npu_dma_bus_map *m;

	mutex_lock(&ndev->bus_maps_lock);
	list_for_each_entry(m, &ndev->bus_maps, node)
		if (m->buf == buf && kref_get_unless_zero(&m->ref))
			goto out;
	m = npu_bus_map_create(ndev, buf);
	if (!IS_ERR(m))
		list_add(&m->node, &ndev->bus_maps);
out:
	mutex_unlock(&ndev->bus_maps_lock);
	return m;
}

static int npu_import_map_attachment(struct npu_dma_import *imp)
{
	struct npu_dma_bus_map *m = npu_bus_map_get(imp->ndev,
						    imp->attach->dmabuf);

	if (IS_ERR(m))
		return PTR_ERR(m);
	imp->bus = m;
	imp->dma = m->dma;
	return 0;
}

/*
 * A bus master without an IOMMU reaches a bus address as the physical
 * address it is; a CPU copy stands in for its transfers. Memory that is
 * not RAM (another device's BAR) is refused: a simulated engine has no
 * bus to reach it by.
 */
static int npu_import_map_bus(struct npu_dma_import *imp)
{
	struct device *dev = imp->attach->dev;
	unsigned long i, n = imp->range.size >> PAGE_SHIFT;
	int ret;

	if (dev->dma_range_map || device_iommu_mapped(dev))
		return -EOPNOTSUPP;
	ret = npu_import_map_attachment(imp);
	if (ret)
		return ret;
	imp->va = kvcalloc(n, sizeof(*imp->va), GFP_KERNEL);
	if (!imp->va)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		phys_addr_t phys = __sme_clr(imp->dma[i]);

		if (!pfn_valid(PHYS_PFN(phys)))
			return -EOPNOTSUPP;
		imp->va[i] = memremap(phys, PAGE_SIZE, MEMREMAP_WB);
		if (!imp->va[i])
			return -ENOMEM;
	}
	return 0;
}

/* A dma-buf of the DRM core's helpers, over one of our allocations. */
static struct npu_dma_alloc *npu_dma_buf_alloc(struct dma_buf *buf)
{
	struct drm_gem_object *obj = buf->priv;

	if (buf->ops->release != drm_gem_dmabuf_release || !npu_dma_is_alloc(obj))
		return NULL;
	return to_npu_dma_alloc(obj);
}

/* One of ours without a CPU mapping (see the top of this file). */
static bool npu_dma_buf_unmappable(struct dma_buf *buf)
{
	struct npu_dma_alloc *a = npu_dma_buf_alloc(buf);

	return a && !npu_dma_devmem_lazy(a);
}

/* What the engine needs to reach the buffer, as its exporter allows. */
static int npu_import_map(struct npu_dma_import *imp)
{
	struct dma_buf *buf = imp->attach->dmabuf;
	int ret;

	if (imp->ndev->ops->dma_mapped)
		return npu_import_map_attachment(imp);
	/* Asking ours for a mapping it refuses would warn (dma_buf_vmap). */
	if (npu_dma_buf_unmappable(buf))
		return npu_import_map_bus(imp);
	/* Another sim NPU's memory: its pages as they are used. */
	if (npu_dma_buf_alloc(buf)) {
		imp->src_alloc = npu_dma_buf_alloc(buf);
		drm_gem_object_get(&imp->src_alloc->base);
		return 0;
	}
	ret = npu_dma_buf_vmap(buf, &imp->map);
	if (!ret && !imp->map.is_iomem)
		return 0;
	if (!ret) {
		npu_dma_buf_vunmap(buf, &imp->map);
		iosys_map_clear(&imp->map);
	}
	npu_dbg(imp->ndev, "exporter %s gives no kernel mapping (%d): by bus address\n",
		buf->exp_name, ret);
	return npu_import_map_bus(imp);
}

static void npu_import_unmap(struct npu_dma_import *imp)
{
	unsigned long i;

	if (imp->src_alloc)
		drm_gem_object_put(&imp->src_alloc->base);
	if (imp->va) {
		for (i = 0; i < imp->range.size >> PAGE_SHIFT && imp->va[i]; i++)
			memunmap(imp->va[i]);
		kvfree(imp->va);
	}
	if (imp->bus)
		npu_bus_map_put(imp->bus);
	if (!iosys_map_is_null(&imp->map))
		npu_dma_buf_vunmap(imp->attach->dmabuf, &imp->map);
}

static void npu_import_gem_free(struct drm_gem_object *obj)
{
	struct npu_dma_import *imp = to_npu_dma_import(obj);
	struct dma_buf *buf = imp->attach->dmabuf;
	struct npu_dma_device *ndev = imp->ndev;

	npu_import_unmap(imp);
	dma_buf_detach(buf, imp->attach);
	dma_buf_put(buf);
	if (imp->src_mem)
		npu_dma_devmem_put(imp->src_mem);
	gen_pool_free(ndev->import_pool, imp->range.start, imp->range.size);
	drm_gem_object_release(obj);
	kfree(imp);
	drm_dev_put(&ndev->drm);
}

/* The importing file's handle: the buffer's address enters its tree. */
static int npu_import_gem_open(struct drm_gem_object *obj, struct drm_file *file)
{
	struct npu_dma_import *imp = to_npu_dma_import(obj);
	struct npu_dma_ctx *ctx = file->driver_priv;
	int ret;

	/* The DRM core imports a foreign buffer anew for each file. */
	if (WARN_ON_ONCE(imp->owner))
		return -EBUSY;
	kref_init(&imp->range.ref);
	mutex_lock(&ctx->lock);
	ret = npu_dma_range_insert(&ctx->mem_tree, &imp->range);
	mutex_unlock(&ctx->lock);
	if (ret)
		return ret;
	imp->owner = file;
	drm_gem_object_get(obj);	/* held by the range's references */
	return 0;
}

static void npu_import_gem_close(struct drm_gem_object *obj,
				 struct drm_file *file)
{
	struct npu_dma_import *imp = to_npu_dma_import(obj);
	struct npu_dma_ctx *ctx = file->driver_priv;
	bool taken = false;

	if (file != imp->owner)
		return;
	mutex_lock(&ctx->lock);
	if (!imp->range.gone) {
		rb_erase(&imp->range.node, &ctx->mem_tree);
		WRITE_ONCE(imp->range.gone, true);
		taken = true;
	}
	mutex_unlock(&ctx->lock);
	if (taken)
		npu_dma_import_put(&imp->range);
}

static const struct drm_gem_object_funcs npu_import_gem_funcs = {
	.free = npu_import_gem_free,
	.open = npu_import_gem_open,
	.close = npu_import_gem_close,
};

static void npu_import_range_release(struct kref *ref)
{
	struct npu_dma_import *imp = container_of(ref, struct npu_dma_import,
						  range.ref);

	drm_gem_object_put(&imp->base);
}

/**
 * npu_dma_import_mem() - the reserved memory of another NPU an import is of
 * @range: the range of a struct npu_dma_import
 *
 * Return: that memory (held by the import), or NULL.
 */
struct npu_dma_devmem *npu_dma_import_mem(struct npu_dma_range *range)
{
	return container_of(range, struct npu_dma_import, range)->src_mem;
}

/**
 * npu_dma_import_put() - drop a reference on an imported buffer's range
 * @range: the range of a struct npu_dma_import
 */
void npu_dma_import_put(struct npu_dma_range *range)
{
	kref_put(&range->ref, npu_import_range_release);
}

/**
 * npu_dma_import_seg() - where the engine finds @addr of an import
 * @range: the range of a struct npu_dma_import, referenced
 * @addr: a device address inside it
 * @seg: filled with the bus address (engines that DMA), kernel address,
 *	or page (another sim NPU's memory)
 *
 * Return: 0, or -ENOMEM when another sim NPU's page cannot be backed.
 */
int npu_dma_import_seg(struct npu_dma_range *range, u64 addr,
		       struct npu_dma_seg *seg)
{
	struct npu_dma_import *imp = container_of(range, struct npu_dma_import,
						  range);
	u64 off = addr - range->start;

	if (imp->src_alloc) {
		seg->vaddr = NULL;
		return npu_dma_devmem_seg(&imp->src_alloc->range,
					  imp->src_alloc->range.start + off, seg);
	}

	seg->page = NULL;
	seg->offset = offset_in_page(off);
	seg->dma = 0;
	seg->vaddr = NULL;
	if (imp->va)
		seg->vaddr = imp->va[off >> PAGE_SHIFT] + seg->offset;
	else if (imp->dma)
		seg->dma = imp->dma[off >> PAGE_SHIFT] + seg->offset;
	else
		seg->vaddr = imp->map.vaddr + off;
	return 0;
}

static struct drm_gem_object *npu_import_create(struct npu_dma_device *ndev,
						struct dma_buf *buf)
{
	struct npu_dma_alloc *ours;
	struct npu_dma_import *imp;
	unsigned long addr;
	int ret;

	if (!buf->size || !PAGE_ALIGNED(buf->size)) {
		npu_dbg(ndev, "dma-buf of %zu bytes\n", buf->size);
		return ERR_PTR(-EINVAL);
	}
	addr = gen_pool_alloc(ndev->import_pool, buf->size);
	if (!addr)
		return ERR_PTR(-ENOSPC);
	imp = kzalloc(sizeof(*imp), GFP_KERNEL_ACCOUNT);
	if (!imp) {
		ret = -ENOMEM;
		goto err_addr;
	}
	imp->ndev = ndev;
	imp->range.start = addr;
	imp->range.size = buf->size;
	imp->range.imported = true;
	imp->attach = dma_buf_attach(buf, ndev->parent);
	if (IS_ERR(imp->attach)) {
		ret = PTR_ERR(imp->attach);
		goto err_free;
	}
	get_dma_buf(buf);
	ret = npu_import_map(imp);
	if (ret)
		goto err_detach;
	ours = npu_dma_buf_alloc(buf);
	if (ours)
		imp->src_mem = npu_dma_alloc_reserved_mem(ours);

	imp->base.funcs = &npu_import_gem_funcs;
	drm_gem_private_object_init(&ndev->drm, &imp->base, buf->size);
	imp->base.import_attach = imp->attach;
	imp->base.resv = buf->resv;
	drm_dev_get(&ndev->drm);
	return &imp->base;

err_detach:
	npu_import_unmap(imp);
	dma_buf_detach(buf, imp->attach);
	dma_buf_put(buf);
err_free:
	kfree(imp);
err_addr:
	gen_pool_free(ndev->import_pool, addr, buf->size);
	return ERR_PTR(ret);
}

/**
 * npu_dma_prime_import() - drm_driver.gem_prime_import
 * @drm: the importing NPU's DRM device
 * @buf: the dma-buf
 *
 * Return: the same object for a buffer of this NPU's (the DRM core's
 * own rule), else a new import, or an ERR_PTR().
 */
struct drm_gem_object *npu_dma_prime_import(struct drm_device *drm,
					    struct dma_buf *buf)
{
	struct npu_dma_alloc *a = npu_dma_buf_alloc(buf);

	if (a && a->base.dev == drm) {
		drm_gem_object_get(&a->base);
		return &a->base;
	}
	return npu_import_create(to_npu_dma_device(drm), buf);
}

int npu_dma_mem_info_ioctl(struct npu_dma_ctx *ctx, void *data)
{
	struct npu_dma_mem_info *req = data;
	struct drm_gem_object *obj;
	int ret = 0;

	if (req->flags || req->dev_addr || req->size || req->reserved[0] ||
	    req->reserved[1]) {
		npu_dbg(ctx->ndev, "output or reserved fields set\n");
		return -EINVAL;
	}
	obj = drm_gem_object_lookup(ctx->file, req->handle);
	if (!obj)
		return -ENOENT;
	if (obj->funcs == &npu_import_gem_funcs) {
		req->dev_addr = to_npu_dma_import(obj)->range.start;
		req->size = obj->size;
		req->flags = NPU_DMA_MEM_INFO_F_IMPORTED;
	} else if (npu_dma_is_alloc(obj)) {
		req->dev_addr = to_npu_dma_alloc(obj)->range.start;
		req->size = obj->size;
		if (to_npu_dma_alloc(obj)->huge)
			req->flags = NPU_DMA_MEM_INFO_F_HUGE;
	} else {
		ret = -ENOENT;	/* no other object has a handle */
	}
	drm_gem_object_put(obj);
	return ret;
}
