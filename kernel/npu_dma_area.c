// SPDX-License-Identifier: GPL-2.0-only
/*
 * npu_dma: memory shared with user space (queue rings, event tables).
 *
 * An area is a GEM object of the driver backed by zeroed vmalloc memory
 * charged to the memory cgroup of the process that made it (a queue's
 * ring is up to 256 KiB, 64 queues a file), mapped through its fake
 * offset (drm_gem_mmap()) by the one file that owns it; it has no
 * handle, so user space can neither close nor share it. Its owner (a
 * queue, or the file for its event table) holds one reference, every
 * mapping another, so a mapping outlives the queue.
 *
 * The mapping is filled at mmap time; the fault handler brings a page
 * back after MADV_DONTNEED or after drm_dev_unplug() zapped the page
 * tables, so a process sees the same memory again instead of SIGBUS. It
 * needs no drm_dev_enter(): the pages belong to the area, which the
 * mapping keeps alive, and no device state is touched.
 */

#include <linux/mm.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_vma_manager.h>

#include "npu_dma_area.h"
#include "npu_dma_compat.h"

static inline struct npu_dma_area *to_npu_dma_area(struct drm_gem_object *obj)
{
	return container_of(obj, struct npu_dma_area, base);
}

static void npu_area_free(struct drm_gem_object *obj)
{
	struct npu_dma_area *area = to_npu_dma_area(obj);

	/* The owner's permission entry is freed here; @owner is only a key. */
	drm_vma_node_revoke(&obj->vma_node, area->owner);
	drm_gem_object_release(obj);
	vfree(area->mem);
	kfree(area);
}

/*
 * npu_area_vmalloc_fault() - map a page of a vmalloc_user() area again
 * @vmf: the fault
 * @mem: the area
 * @size: its size in bytes, page aligned
 * @pgoff: file page offset at which the area starts
 *
 * remap_vmalloc_range() fills the page tables at mmap time; this brings
 * a page back once they were zapped (MADV_DONTNEED, drm_dev_unplug()), so
 * the process sees the same memory again instead of a SIGBUS.
 * @vmf->pgoff is the file offset, which stays right when a partial munmap
 * splits the mapping.
 *
 * Return: 0 with @vmf->page referenced, VM_FAULT_SIGBUS outside the area.
 */
static vm_fault_t npu_area_vmalloc_fault(struct vm_fault *vmf, void *mem,
					 size_t size, pgoff_t pgoff)
{
	pgoff_t index = vmf->pgoff - pgoff;

	if (vmf->pgoff < pgoff || index >= size >> PAGE_SHIFT)
		return VM_FAULT_SIGBUS;
	vmf->page = vmalloc_to_page(mem + (index << PAGE_SHIFT));
	get_page(vmf->page);
	return 0;
}

static vm_fault_t npu_area_vm_fault(struct vm_fault *vmf)
{
	struct drm_gem_object *obj = vmf->vma->vm_private_data;
	struct npu_dma_area *area = to_npu_dma_area(obj);

	return npu_area_vmalloc_fault(vmf, area->mem, area->size,
				     drm_vma_node_start(&obj->vma_node));
}

static const struct vm_operations_struct npu_area_vm_ops = {
	.open = drm_gem_vm_open,
	.close = drm_gem_vm_close,
	.fault = npu_area_vm_fault,
};

/*
 * What remap_vmalloc_range() does, which takes only vmalloc_user() memory
 * (VM_USERMAP), and 6.1 exports no accounted variant of that: the pages
 * here are zeroed at allocation, which is what VM_USERMAP stands for.
 */
static int npu_area_insert_pages(struct vm_area_struct *vma,
				 struct npu_dma_area *area)
{
	unsigned long off;
	int ret;

	for (off = 0; off < area->size; off += PAGE_SIZE) {
		ret = vm_insert_page(vma, vma->vm_start + off,
				     vmalloc_to_page(area->mem + off));
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * drm_gem_mmap() has checked that the file may map the object and that
 * the mapping is no larger; it must also be no smaller, come from the
 * owner's address space, and stay out of a fork's child.
 */
static int npu_area_mmap(struct drm_gem_object *obj, struct vm_area_struct *vma)
{
	struct npu_dma_area *area = to_npu_dma_area(obj);
	struct npu_dma_ctx *ctx = area->owner->driver_priv;

	if (current->mm != ctx->mm)
		return -EPERM;
	if (vma->vm_end - vma->vm_start != area->size)
		return -EINVAL;
	if (area->readonly) {
		if (vma->vm_flags & VM_WRITE)
			return -EPERM;
		npu_dma_vm_flags_set(vma, 0, VM_MAYWRITE);
	}
	/* VM_IO: madvise(MADV_DOFORK) must not undo VM_DONTCOPY. */
	npu_dma_vm_flags_set(vma, VM_IO | VM_DONTCOPY | VM_DONTEXPAND |
			     VM_DONTDUMP, 0);
	return npu_area_insert_pages(vma, area);
}

static const struct drm_gem_object_funcs npu_area_funcs = {
	.free = npu_area_free,
	.mmap = npu_area_mmap,
	.vm_ops = &npu_area_vm_ops,
};

/**
 * npu_dma_area_create() - zeroed shared memory for one file
 * @ctx: the file's context, the only one that may map it
 * @size: bytes, rounded up to pages
 * @readonly: user space may only read it
 *
 * Return: the area with one reference (the caller's), or an ERR_PTR().
 */
struct npu_dma_area *npu_dma_area_create(struct npu_dma_ctx *ctx, size_t size,
					 bool readonly)
{
	struct npu_dma_area *area;
	int ret;

	area = kzalloc(sizeof(*area), GFP_KERNEL_ACCOUNT);
	if (!area)
		return ERR_PTR(-ENOMEM);
	area->size = PAGE_ALIGN(size);
	area->readonly = readonly;
	/* User-sized: a failure is an answer to the caller, not an OOM kill. */
	area->mem = __vmalloc(area->size, GFP_KERNEL_ACCOUNT | __GFP_ZERO |
			      __GFP_RETRY_MAYFAIL | __GFP_NOWARN);
	if (!area->mem) {
		kfree(area);
		return ERR_PTR(-ENOMEM);
	}
	area->base.funcs = &npu_area_funcs;
	drm_gem_private_object_init(&ctx->ndev->drm, &area->base, area->size);

	/* From here on the object's free callback undoes everything. */
	area->owner = ctx->file;
	ret = drm_gem_create_mmap_offset(&area->base);
	if (!ret)
		ret = drm_vma_node_allow(&area->base.vma_node, ctx->file);
	if (ret) {
		drm_gem_object_put(&area->base);
		return ERR_PTR(ret);
	}
	return area;
}

/**
 * npu_dma_area_offset() - what user space passes to mmap() for an area
 * @area: the area
 *
 * Return: its fake offset on the owner's file.
 */
u64 npu_dma_area_offset(struct npu_dma_area *area)
{
	return drm_vma_node_offset_addr(&area->base.vma_node);
}

void npu_dma_area_put(struct npu_dma_area *area)
{
	drm_gem_object_put(&area->base);
}
