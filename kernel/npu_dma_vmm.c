// SPDX-License-Identifier: GPL-2.0-only
/*
 * npu_dma: device memory mapped at virtual device addresses, the
 * driver's half of CANN's virtual memory management (aclrtReserveMemAddress,
 * aclrtMallocPhysical, aclrtMapMem; Documentation/driver.rst).
 *
 * Each NPU has a window of virtual device addresses right after its
 * memory (ndev->vmm_base). A file maps whole pages of an allocation it
 * holds a handle of (its own, or one shared with it) at an address of
 * the window: an alias range in its tree (npu_dma_prime.c) whose pages
 * are the allocation's from @offset on. Descriptors name the window's
 * addresses and are checked against the tree like any allocation's, so
 * an unmapped address is refused and a mapping cannot reach past its
 * allocation. Reserving addresses is the library's business: the
 * window is per file, and the tree refuses overlapping mappings.
 *
 * A descriptor may name a range across mappings that follow each other
 * without a gap (one virtual range over several physical allocations):
 * its side is then a span, which holds each mapping for the job. The
 * engine moves a page at a time, and mappings are whole pages, so each
 * piece falls in one mapping.
 */

#include <linux/overflow.h>
#include <linux/slab.h>

#include <drm/drm_gem.h>

#include "npu_dma_mem.h"
#include "npu_dma_prime.h"
#include "npu_dma_vmm.h"

/*
 * Mappings one descriptor's side may span: 8 GiB of 2 MiB mappings, as a
 * caching allocator's segment grows (each one a pointer here).
 */
#define NPU_VMM_SPAN_MAX	4096

/**
 * struct npu_vmm_span - a side over several mappings
 * @range: what the side names ([start, start + size)), referenced by the
 *	job (and the graph templates copied from it)
 * @n: entries of @r
 * @r: the mappings in address order, each referenced
 */
struct npu_vmm_span {
	struct npu_dma_range range;
	unsigned int n;
	struct npu_dma_range *r[];
};

static struct npu_dma_range *npu_vmm_next(struct npu_dma_range *r)
{
	struct rb_node *n = rb_next(&r->node);

	return n ? rb_entry(n, struct npu_dma_range, node) : NULL;
}

/**
 * npu_dma_span_get() - a side over mappings that follow each other
 * @root: the context's tree, its lock held
 * @addr: first device address named
 * @extent: bytes named, from @addr on
 *
 * Return: a span, referenced, when [@addr, @addr + @extent) is covered by
 * two or more VMM mappings without a gap; else NULL.
 */
struct npu_dma_range *npu_dma_span_get(struct rb_root *root, u64 addr,
				       u64 extent)
{
	struct npu_dma_range *first = npu_dma_range_find(root, addr, 1), *r;
	struct npu_vmm_span *span;
	unsigned int i, n = 1;
	u64 end;

	if (!first || !first->vmm || check_add_overflow(addr, extent, &end))
		return NULL;
	/* Count the mappings up to @end, each starting where one ended. */
	for (r = first; end - r->start > r->size; n++) {
		struct npu_dma_range *next = npu_vmm_next(r);

		if (!next || !next->vmm || next->start != r->start + r->size ||
		    n == NPU_VMM_SPAN_MAX)
			return NULL;
		r = next;
	}
	if (n < 2)
		return NULL;	/* one mapping holds it: not a span */
	span = kvzalloc(struct_size(span, r, n), GFP_KERNEL_ACCOUNT);
	if (!span)
		return NULL;
	span->range.start = addr;
	span->range.size = extent;
	span->range.span = true;
	kref_init(&span->range.ref);
	span->n = n;
	for (i = 0, r = first; i < n; i++, r = npu_vmm_next(r)) {
		kref_get(&r->ref);
		span->r[i] = r;
	}
	return &span->range;
}

/**
 * npu_dma_span_member() - the mapping of a span that holds @addr
 * @range: a span
 * @addr: a device address it names
 *
 * Return: the mapping (held by the span).
 */
struct npu_dma_range *npu_dma_span_member(struct npu_dma_range *range, u64 addr)
{
	struct npu_vmm_span *span = container_of(range, struct npu_vmm_span, range);
	unsigned int lo = 0, hi = span->n - 1;

	while (lo < hi) {
		unsigned int mid = (lo + hi + 1) / 2;

		if (span->r[mid]->start <= addr)
			lo = mid;
		else
			hi = mid - 1;
	}
	return span->r[lo];
}

static void npu_vmm_span_release(struct kref *ref)
{
	struct npu_vmm_span *span = container_of(ref, struct npu_vmm_span,
						 range.ref);
	unsigned int i;

	for (i = 0; i < span->n; i++)
		npu_dma_alloc_put(span->r[i]);
	kvfree(span);
}

void npu_dma_span_put(struct npu_dma_range *range)
{
	kref_put(&range->ref, npu_vmm_span_release);
}

/**
 * npu_dma_range_gone() - freed, unmapped or closed since a job named it
 * @range: a side's range
 *
 * Return: true if it (or, for a span, any of its mappings) is gone.
 */
bool npu_dma_range_gone(const struct npu_dma_range *range)
{
	const struct npu_vmm_span *span;
	unsigned int i;

	if (!range->span)
		return READ_ONCE(range->gone);
	span = container_of(range, const struct npu_vmm_span, range);
	for (i = 0; i < span->n; i++)
		if (READ_ONCE(span->r[i]->gone))
			return true;
	return false;
}

/* [@va, @va + @size) lies in @ndev's window. */
static bool npu_vmm_in_window(const struct npu_dma_device *ndev, u64 va,
			      u64 size)
{
	return va >= ndev->vmm_base && size <= ndev->vmm_size &&
	       va - ndev->vmm_base <= ndev->vmm_size - size;
}

int npu_dma_vmm_map_ioctl(struct npu_dma_ctx *ctx, void *data)
{
	struct npu_dma_vmm_map *req = data;
	struct npu_dma_device *ndev = ctx->ndev;
	struct drm_gem_object *obj;
	struct npu_dma_alloc *a;
	int ret;

	if (req->flags || req->reserved[0] || req->reserved[1] || !req->size ||
	    !PAGE_ALIGNED(req->va) || !PAGE_ALIGNED(req->size) ||
	    !PAGE_ALIGNED(req->offset)) {
		npu_dbg(ndev, "va %#llx size %#llx offset %#llx: unaligned, or flags\n",
			req->va, req->size, req->offset);
		return -EINVAL;
	}
	if (!npu_vmm_in_window(ndev, req->va, req->size))
		return -EFAULT;
	obj = drm_gem_object_lookup(ctx->file, req->handle);
	if (!obj)
		return -ENOENT;
	/* Only this NPU's memory (a foreign import has its own address). */
	if (!npu_dma_is_alloc(obj) || to_npu_dma_alloc(obj)->ndev != ndev) {
		ret = -EINVAL;
		goto out;
	}
	a = to_npu_dma_alloc(obj);
	if (req->offset > obj->size || req->size > obj->size - req->offset) {
		ret = -EINVAL;
		goto out;
	}
	ret = npu_dma_alias_add(ctx, &a->range, req->va, req->size,
				a->range.start + req->offset, NPU_DMA_ALIAS_VMM);
out:
	drm_gem_object_put(obj);
	return ret;
}

int npu_dma_vmm_unmap_ioctl(struct npu_dma_ctx *ctx, void *data)
{
	struct npu_dma_vmm_unmap *req = data;

	if (req->flags || req->pad || req->reserved[0] || req->reserved[1])
		return -EINVAL;
	return npu_dma_alias_remove_at(ctx, req->va, NPU_DMA_ALIAS_VMM);
}
