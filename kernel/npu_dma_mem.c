// SPDX-License-Identifier: GPL-2.0-only
/*
 * npu_dma: device memory.
 *
 * Each NPU has mem_size bytes of device memory at device addresses
 * [mem_base, + mem_size), mem_base distinct per NPU so that an address
 * names its NPU (peer copies): a genalloc pool hands out ranges,
 * pages back them. A simulated NPU backs pages lazily, on first access,
 * and returns them when the allocation is freed, so a large advertised
 * memory costs only what is used. An edu NPU reserves all its pages from
 * host RAM at probe and DMA-maps them for the card.
 *
 * An allocation is a GEM object of the file that made it, named by a
 * handle there and by its device address in that file's descriptors
 * (ctx->mem_tree). Its range is refcounted: the tree holds a reference,
 * each queued job and graph one more, so GEM_CLOSE or close during a
 * copy takes the address away at once but releases the memory only when
 * the copy is done. The range's references together hold one reference
 * on the GEM object, whose own last reference frees the structure. Each
 * allocation holds a reference on the NPU's memory, so a copy queued on a
 * peer NPU keeps the pages it uses even while this NPU goes away.
 *
 * A simulated NPU's pages are kernel memory that user space sizes: each
 * is charged to the memory cgroup the allocating process was in at
 * MEM_ALLOC, also when a queue's worker (or a peer's) backs it on first
 * access, and over that cgroup's limit the copy fails with -ENOMEM
 * rather than invoking its OOM killer from a worker. An edu NPU's
 * reserved pages belong to the device, not to a process, and are not
 * charged. The CPU writes those (zeroes at probe and on free) only with
 * the device's ownership handed back afterwards (dma_sync_*_for_device()),
 * for machines whose DMA is not cache coherent.
 */

#include <linux/dma-mapping.h>
#include <linux/genalloc.h>
#include <linux/highmem.h>
#include <linux/log2.h>
#include <linux/memcontrol.h>
#include <linux/rwsem.h>
#include <linux/sched/mm.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#include <drm/drm_file.h>
#include <drm/drm_gem.h>

#include "npu_dma_area.h"
#include "npu_dma_ipc.h"
#include "npu_dma_job.h"
#include "npu_dma_mem.h"
#include "npu_dma_pin.h"
#include "npu_dma_prime.h"
#include "npu_dma_queue.h"
#include "npu_dma_vmm.h"

#define NPU_DMA_HUGE_SIZE	SZ_2M
#define NPU_DMA_MAX_ALIGN	SZ_1G

/**
 * struct npu_dma_devmem - device memory of one NPU
 * @pool: allocator of device addresses, page granular
 * @lazy: pages are allocated on first access (sim)
 * @pages: lazy: page index -> struct page
 * @eager: !lazy: every page, allocated at init
 * @dma: !lazy: bus address of each page of @eager
 * @nr_pages: pages of device memory
 * @base: device address of the first page
 * @dev: the engine's bus device (referenced): @eager was allocated for it
 * @gone_lock: read-held by a peer NPU's job while it uses @eager; written
 *	when the NPU goes away
 * @gone: !lazy: the NPU went away and @eager was freed with it
 * @ref: held by the NPU until npu_dma_devmem_fini() and by each allocation
 */
struct npu_dma_devmem {
	struct gen_pool *pool;
	bool lazy;
	struct xarray pages;
	struct page **eager;
	dma_addr_t *dma;
	unsigned long nr_pages;
	u64 base;
	struct device *dev;
	struct rw_semaphore gone_lock;
	bool gone;
	struct kref ref;
};

/* The allocation a device range stands for (itself, an alias's, a span's). */
static struct npu_dma_alloc *npu_range_alloc(struct npu_dma_range *range)
{
	/* A span's mappings are all of one file, of its NPU. */
	if (range->span)
		range = npu_dma_span_member(range, range->start);
	return container_of(range->target ?: range, struct npu_dma_alloc, range);
}

static void npu_devmem_free_eager(struct npu_dma_devmem *mem)
{
	unsigned long i;

	for (i = 0; i < mem->nr_pages && mem->eager[i]; i++)
		dma_free_pages(mem->dev, PAGE_SIZE, mem->eager[i], mem->dma[i],
			       DMA_BIDIRECTIONAL);
	kvfree(mem->eager);
	kvfree(mem->dma);
	mem->eager = NULL;
	mem->dma = NULL;
}

/* Zero reserved page @idx and give it back to the device. */
static void npu_devmem_scrub(struct npu_dma_devmem *mem, unsigned long idx)
{
	clear_highpage(mem->eager[idx]);
	dma_sync_single_for_device(mem->dev, mem->dma[idx], PAGE_SIZE,
				   DMA_BIDIRECTIONAL);
}

/* Pages the engine can reach with its DMA mask, mapped for it. */
static int npu_devmem_alloc_eager(struct npu_dma_device *ndev,
				  struct npu_dma_devmem *mem)
{
	unsigned long i;

	mem->eager = kvcalloc(mem->nr_pages, sizeof(*mem->eager), GFP_KERNEL);
	mem->dma = kvcalloc(mem->nr_pages, sizeof(*mem->dma), GFP_KERNEL);
	if (!mem->eager || !mem->dma)
		return -ENOMEM;

	for (i = 0; i < mem->nr_pages; i++) {
		/*
		 * A narrow DMA mask can leave too few reachable pages (with
		 * 28 bits, the pages below 256 MiB): a failure the probe
		 * reports, not one for the allocator to warn about.
		 */
		mem->eager[i] = dma_alloc_pages(ndev->parent, PAGE_SIZE, &mem->dma[i],
						DMA_BIDIRECTIONAL,
						GFP_KERNEL | __GFP_NOWARN);
		if (!mem->eager[i]) {
			dev_err(ndev->parent,
				"Only %lu of %llu MiB of device memory reachable with a %u-bit DMA mask\n",
				i >> (20 - PAGE_SHIFT), ndev->mem_size >> 20,
				fls64(dma_get_mask(ndev->parent)));
			return -ENOMEM;
		}
		/*
		 * Cannot fail here, but 6.1's DMA-API debugging records the
		 * page as a streaming mapping and reports it unchecked when
		 * dma_free_pages() unmaps it.
		 */
		if (dma_mapping_error(ndev->parent, mem->dma[i])) {
			dma_free_pages(ndev->parent, PAGE_SIZE, mem->eager[i],
				       mem->dma[i], DMA_BIDIRECTIONAL);
			mem->eager[i] = NULL;
			return -ENOMEM;
		}
		npu_devmem_scrub(mem, i);
	}
	return 0;
}

/**
 * npu_dma_devmem_init() - set up the device memory of an NPU
 * @ndev: the NPU, with mem_size set
 * @lazy: back pages on first use (else reserve and DMA-map all now)
 *
 * Return: 0 or a negative errno.
 */
int npu_dma_devmem_init(struct npu_dma_device *ndev, bool lazy)
{
	struct npu_dma_devmem *mem;
	int ret;

	mem = kzalloc(sizeof(*mem), GFP_KERNEL);
	if (!mem)
		return -ENOMEM;
	mem->lazy = lazy;
	mem->nr_pages = ndev->mem_size >> PAGE_SHIFT;
	mem->base = ndev->mem_base;
	kref_init(&mem->ref);
	xa_init(&mem->pages);

	ret = -ENOMEM;
	mem->pool = gen_pool_create(PAGE_SHIFT, dev_to_node(ndev->parent));
	if (!mem->pool)
		goto err_free;
	ret = gen_pool_add(mem->pool, mem->base, ndev->mem_size,
			   dev_to_node(ndev->parent));
	if (ret)
		goto err_pool;
	mem->dev = get_device(ndev->parent);
	init_rwsem(&mem->gone_lock);
	if (!lazy) {
		ret = npu_devmem_alloc_eager(ndev, mem);
		if (ret) {
			dev_err(ndev->parent, "Failed to reserve device memory: %d\n", ret);
			npu_devmem_free_eager(mem);
			goto err_put;
		}
	}
	ndev->mem = mem;
	return 0;

err_put:
	put_device(mem->dev);
err_pool:
	gen_pool_destroy(mem->pool);
err_free:
	kfree(mem);
	return ret;
}

static void npu_devmem_release(struct kref *ref)
{
	struct npu_dma_devmem *mem = container_of(ref, struct npu_dma_devmem, ref);
	struct page *page;
	unsigned long idx;

	if (mem->lazy) {
		xa_for_each(&mem->pages, idx, page)
			__free_page(page);
		xa_destroy(&mem->pages);
	} else if (!mem->gone) {
		npu_devmem_free_eager(mem);
	}
	gen_pool_destroy(mem->pool);
	put_device(mem->dev);
	kfree(mem);
}

/**
 * npu_dma_devmem_fini() - detach the device memory from its NPU
 * @ndev: the NPU; its own contexts' allocations are released
 *
 * Memory reserved for the NPU's bus device (edu) goes with it: a driver
 * may hold no DMA allocation of a device past its removal (the DMA-API
 * debug code reports it), and on a board the memory is on the board.
 * Waits for the peer NPUs' jobs that are using it; those that start
 * later fail (npu_dma_peer_hold()). The bookkeeping is freed once the
 * last allocation a peer's queue still names is released.
 */
void npu_dma_devmem_fini(struct npu_dma_device *ndev)
{
	struct npu_dma_devmem *mem = ndev->mem;

	if (!mem)
		return;
	ndev->mem = NULL;
	if (!mem->lazy) {
		down_write(&mem->gone_lock);
		mem->gone = true;
		npu_devmem_free_eager(mem);
		up_write(&mem->gone_lock);
	}
	kref_put(&mem->ref, npu_devmem_release);
}

static struct npu_dma_devmem *npu_side_peer_mem(const struct npu_dma_job *job,
						const struct npu_dma_side *side)
{
	struct npu_dma_alloc *a;

	/* An import of a peer's reserved memory, reached by bus address. */
	if (side->kind == NPU_DMA_SIDE_IMPORT)
		return npu_dma_import_mem(side->obj);
	if (!npu_dma_side_peer(job, side))
		return NULL;
	a = npu_range_alloc(side->obj);
	return a->mem->lazy ? NULL : a->mem;
}

/**
 * npu_dma_alloc_reserved_mem() - the reserved memory an allocation is in
 * @a: an allocation
 *
 * Return: its NPU's memory, referenced (npu_dma_devmem_put()), when it is
 * reserved for a bus device (edu) and so goes with it; NULL when lazy.
 */
struct npu_dma_devmem *npu_dma_alloc_reserved_mem(struct npu_dma_alloc *a)
{
	if (a->mem->lazy)
		return NULL;
	kref_get(&a->mem->ref);
	return a->mem;
}

void npu_dma_devmem_put(struct npu_dma_devmem *mem)
{
	kref_put(&mem->ref, npu_devmem_release);
}

/*
 * @job's sides on a peer's reserved memory, each once; NULL when none.
 * Two are in address order, the order npu_dma_peer_hold() locks them
 * in: a job copying between two peers and another job copying the
 * other way must not each hold one while a removal waits on the other.
 */
static void npu_job_peer_mems(const struct npu_dma_job *job,
			      struct npu_dma_devmem *mems[2])
{
	mems[0] = npu_side_peer_mem(job, &job->src);
	mems[1] = npu_side_peer_mem(job, &job->dst);
	if (mems[1] == mems[0])
		mems[1] = NULL;
	else if (mems[0] && mems[1] && mems[1] < mems[0])
		swap(mems[0], mems[1]);
}

/**
 * npu_dma_peer_hold() - keep a peer's reserved memory while @job uses it
 * @job: a validated job about to run
 *
 * Return: 0 (undo with npu_dma_peer_unhold()), or -ENODEV when a peer
 * NPU whose memory @job names has gone away.
 */
int npu_dma_peer_hold(const struct npu_dma_job *job)
{
	struct npu_dma_devmem *mems[2];
	int i;

	npu_job_peer_mems(job, mems);
	for (i = 0; i < 2; i++) {
		if (!mems[i])
			continue;
		/* Two peers' locks: one lock class, ordered above. */
		down_read_nested(&mems[i]->gone_lock, i);
		if (!mems[i]->gone)
			continue;
		up_read(&mems[i]->gone_lock);
		if (i && mems[0])
			up_read(&mems[0]->gone_lock);
		return -ENODEV;
	}
	return 0;
}

/**
 * npu_dma_peer_mem_named() - does @job name a peer's reserved memory?
 * @job: a validated job
 *
 * Return: true if running it needs npu_dma_peer_hold().
 */
bool npu_dma_peer_mem_named(const struct npu_dma_job *job)
{
	struct npu_dma_devmem *mems[2];

	npu_job_peer_mems(job, mems);
	return mems[0] || mems[1];
}

void npu_dma_peer_unhold(const struct npu_dma_job *job)
{
	struct npu_dma_devmem *mems[2];
	int i;

	npu_job_peer_mems(job, mems);
	for (i = 1; i >= 0; i--)
		if (mems[i])
			up_read(&mems[i]->gone_lock);
}

u64 npu_dma_devmem_free_bytes(struct npu_dma_device *ndev)
{
	return ndev->mem ? gen_pool_avail(ndev->mem->pool) : 0;
}

struct npu_free_blocks {
	u64 block;
	u64 bytes;
};

/* Count @chunk's wholly free, aligned blocks (racy: a snapshot). */
static void npu_count_free_blocks(struct gen_pool *pool,
				  struct gen_pool_chunk *chunk, void *data)
{
	struct npu_free_blocks *f = data;
	int order = pool->min_alloc_order;
	unsigned long nbits = f->block >> order;
	unsigned long end = (chunk->end_addr - chunk->start_addr + 1) >> order;
	unsigned long b = (ALIGN(chunk->start_addr, f->block) -
			   chunk->start_addr) >> order;

	for (; b + nbits <= end; b += nbits)
		if (find_next_bit(chunk->bits, b + nbits, b) >= b + nbits)
			f->bytes += f->block;
}

/**
 * npu_dma_devmem_free_blocks() - free device memory in aligned blocks
 * @ndev: the NPU
 * @block: the block size, a power of two of pages
 *
 * Return: the bytes in wholly free @block-aligned blocks of @block bytes,
 * what an allocation placed in pages of that size can still get.
 */
u64 npu_dma_devmem_free_blocks(struct npu_dma_device *ndev, u64 block)
{
	struct npu_free_blocks f = { .block = block };

	if (ndev->mem)
		gen_pool_for_each_chunk(ndev->mem->pool, npu_count_free_blocks, &f);
	return f.bytes;
}

/*
 * Page @idx of lazy memory, allocated on first access for @a, in whatever
 * context the copy runs (usually a queue's worker): charged to @a's
 * cgroup, failing over its limit (__GFP_RETRY_MAYFAIL), never warning.
 */
static struct page *npu_devmem_lazy_page(struct npu_dma_alloc *a,
					 unsigned long idx)
{
	struct npu_dma_devmem *mem = a->mem;
	struct mem_cgroup *old_memcg;
	struct page *page, *old;

	page = xa_load(&mem->pages, idx);
	if (page)
		return page;

	old_memcg = set_active_memcg(a->memcg);
	page = alloc_page(GFP_KERNEL_ACCOUNT | __GFP_ZERO | __GFP_RETRY_MAYFAIL |
			  __GFP_NOWARN);
	set_active_memcg(old_memcg);
	if (!page)
		return NULL;
	old = xa_cmpxchg(&mem->pages, idx, NULL, page, GFP_KERNEL);
	if (xa_is_err(old)) {
		__free_page(page);
		return NULL;
	}
	if (old) {
		__free_page(page);	/* another channel backed it first */
		return old;
	}
	return page;
}

/**
 * npu_dma_devmem_seg() - the page behind a device address
 * @range: the allocation holding @addr (a referenced struct npu_dma_alloc)
 * @addr: device address
 * @seg: filled with page, offset and (edu) bus address for the memory's
 *	own NPU
 *
 * Return: 0, or -ENOMEM when a lazy page cannot be allocated.
 */
int npu_dma_devmem_seg(struct npu_dma_range *range, u64 addr,
		       struct npu_dma_seg *seg)
{
	struct npu_dma_alloc *a;
	struct npu_dma_devmem *mem;
	unsigned long idx;

	if (range->span)
		range = npu_dma_span_member(range, addr);
	a = npu_range_alloc(range);
	mem = a->mem;
	/* An alias (a mapping at a virtual address) stands for @phys. */
	if (range->target)
		addr = addr - range->start + range->phys;
	idx = (addr - mem->base) >> PAGE_SHIFT;

	seg->offset = offset_in_page(addr);
	if (mem->lazy) {
		seg->page = npu_devmem_lazy_page(a, idx);
		seg->dma = 0;
		return seg->page ? 0 : -ENOMEM;
	}
	seg->page = mem->eager[idx];
	seg->dma = mem->dma[idx] + seg->offset;
	return 0;
}

/* Give the pages of a freed allocation back (sim) or scrub them (edu). */
static void npu_devmem_release_pages(struct npu_dma_devmem *mem, u64 start,
				     u64 size)
{
	unsigned long first = (start - mem->base) >> PAGE_SHIFT;
	unsigned long idx, last = first + (size >> PAGE_SHIFT);
	struct page *page;

	/* Reserved pages are scrubbed unless they went with their NPU. */
	if (!mem->lazy) {
		down_read(&mem->gone_lock);
		if (mem->gone)
			last = first;
	}
	for (idx = first; idx < last; idx++) {
		if (mem->lazy) {
			page = xa_erase(&mem->pages, idx);
			if (page)
				__free_page(page);
		} else {
			npu_devmem_scrub(mem, idx);
		}
		cond_resched();
	}
	if (!mem->lazy)
		up_read(&mem->gone_lock);
}

/* The last range reference: the address users are gone, not the object. */
static void npu_dma_alloc_release(struct kref *ref)
{
	struct npu_dma_alloc *a = container_of(ref, struct npu_dma_alloc, range.ref);

	drm_gem_object_put(&a->base);
}

/*
 * The last user of the memory is gone (address users, handles, dma-bufs
 * and CPU mappings each hold the object): give it back to the NPU.
 */
static void npu_alloc_gem_free(struct drm_gem_object *obj)
{
	struct npu_dma_alloc *a = to_npu_dma_alloc(obj);
	struct npu_dma_device *ndev = a->ndev;
	struct npu_dma_devmem *mem = a->mem;

	npu_devmem_release_pages(mem, a->range.start, a->range.size);
	gen_pool_free(mem->pool, a->range.start, a->range.size);
	kref_put(&mem->ref, npu_devmem_release);
	mem_cgroup_put(a->memcg);
	drm_gem_object_release(obj);
	kfree(a);
	drm_dev_put(&ndev->drm);
}

/*
 * GEM_CLOSE (or the file's close): the address leaves the file's tree
 * now, unless device removal already emptied it. Another file's handle
 * (a PRIME import) is an alias there (npu_dma_prime.c).
 */
static void npu_alloc_gem_close(struct drm_gem_object *obj,
				struct drm_file *file)
{
	struct npu_dma_alloc *a = to_npu_dma_alloc(obj);
	struct npu_dma_ctx *ctx = file->driver_priv;
	bool taken = false;

	mutex_lock(&ctx->lock);
	if (file == a->owner && !a->range.gone) {
		rb_erase(&a->range.node, &ctx->mem_tree);
		WRITE_ONCE(a->range.gone, true);
		taken = true;
	}
	mutex_unlock(&ctx->lock);
	if (taken) {
		/* Freed by its owner: no new imports by key. */
		npu_dma_ipc_revoke_alloc(ctx, a);
		npu_dma_alloc_put(&a->range);
	} else {
		npu_dma_alias_remove(ctx, &a->range);
	}
}

/* A handle in a file: the owner's first, or another's (an alias). */
static int npu_alloc_gem_open(struct drm_gem_object *obj, struct drm_file *file)
{
	struct npu_dma_alloc *a = to_npu_dma_alloc(obj);
	struct npu_dma_ctx *ctx = file->driver_priv;
	bool own;

	/*
	 * The owner's own tree, under its lock: a file that closed long
	 * ago may have left its address to a new one, but then the range
	 * is gone (drained at close).
	 */
	mutex_lock(&ctx->lock);
	own = file == a->owner && !a->range.gone;
	mutex_unlock(&ctx->lock);
	return own ? 0 : npu_dma_alias_add(ctx, &a->range, a->range.start,
					   a->range.size, a->range.start,
					   NPU_DMA_ALIAS_HANDLE);
}

static const struct drm_gem_object_funcs npu_alloc_gem_funcs = {
	.free = npu_alloc_gem_free,
	.open = npu_alloc_gem_open,
	.close = npu_alloc_gem_close,
	.get_sg_table = npu_dma_alloc_sg_table,
	.vmap = npu_dma_alloc_vmap,
	.vunmap = npu_dma_alloc_vunmap,
	.mmap = npu_dma_alloc_mmap,
	.vm_ops = &npu_dma_alloc_vm_ops,
};

/* A device allocation's GEM object (the driver has others, see npu_dma.c). */
bool npu_dma_is_alloc(const struct drm_gem_object *obj)
{
	return obj->funcs == &npu_alloc_gem_funcs;
}

/**
 * npu_dma_devmem_lazy() - the allocation's pages are backed on first use
 * @a: an allocation
 *
 * Return: true on a simulated NPU; its pages never go away before @a.
 */
bool npu_dma_devmem_lazy(const struct npu_dma_alloc *a)
{
	return a->mem->lazy;
}

/**
 * npu_dma_devmem_page() - page @idx of an allocation, backed if need be
 * @a: an allocation, referenced
 * @idx: page index inside it
 *
 * Return: the page, or NULL when a lazy page cannot be allocated or the
 * NPU of reserved memory has gone away (callers hold no gone_lock: for
 * sharing reserved memory, see npu_dma_prime.c).
 */
struct page *npu_dma_devmem_page(struct npu_dma_alloc *a, unsigned long idx)
{
	unsigned long first = (a->range.start - a->mem->base) >> PAGE_SHIFT;

	if (a->mem->lazy)
		return npu_devmem_lazy_page(a, first + idx);
	return READ_ONCE(a->mem->gone) ? NULL : a->mem->eager[first + idx];
}

/**
 * npu_dma_alloc_ndev() - the NPU an allocation belongs to
 * @range: a referenced struct npu_dma_alloc
 *
 * Return: the NPU; it stays allocated while the reference is held.
 */
struct npu_dma_device *npu_dma_alloc_ndev(struct npu_dma_range *range)
{
	return npu_range_alloc(range)->ndev;
}

/**
 * npu_dma_side_peer() - the peer NPU whose memory a job side names
 * @job: a validated job, its sides still referenced
 * @side: @job's source or destination
 *
 * Only peers' allocations resolve besides the queue's own NPU's
 * (npu_val_resolve_peer()), so device memory of another NPU is a peer's.
 * The trace helper npu_dma_trace_peer() does not use this: it also
 * traces rejected descriptors, whose sides were put (npu_val_reject()),
 * so it reads the descriptor's addresses.
 *
 * Return: that NPU, or NULL for any other side.
 */
struct npu_dma_device *npu_dma_side_peer(const struct npu_dma_job *job,
					 const struct npu_dma_side *side)
{
	struct npu_dma_device *owner;

	if (side->kind != NPU_DMA_SIDE_DEV)
		return NULL;
	owner = npu_dma_alloc_ndev(side->obj);
	return owner != job->q->ctx->ndev ? owner : NULL;
}

/**
 * npu_dma_alloc_put() - drop a reference on a device allocation
 * @range: the allocation's range
 */
void npu_dma_alloc_put(struct npu_dma_range *range)
{
	if (range->imported)	/* a context's tree holds these too */
		npu_dma_import_put(range);
	else if (range->span)
		npu_dma_span_put(range);
	else
		kref_put(&range->ref, range->target ? npu_dma_alias_release :
						      npu_dma_alloc_release);
}

/* Page size and alignment for a request, per CANN's policies. */
static int npu_mem_layout(const struct npu_dma_mem_alloc *req, u64 *size,
			  u64 *align, bool huge)
{
	u64 gran = huge ? NPU_DMA_HUGE_SIZE : PAGE_SIZE;

	*align = max_t(u64, req->align, gran);
	if (req->size > U64_MAX - gran)
		return -ENOMEM;
	*size = round_up(req->size, gran);
	return 0;
}

static unsigned long npu_mem_try_alloc(struct npu_dma_device *ndev,
				       const struct npu_dma_mem_alloc *req,
				       bool huge, u64 *size)
{
	struct genpool_data_align data;
	u64 align;

	if (npu_mem_layout(req, size, &align, huge) || *size > ndev->mem_size)
		return 0;
	data.align = align;
	return gen_pool_alloc_algo(ndev->mem->pool, *size,
				   gen_pool_first_fit_align, &data);
}

static int npu_mem_check(struct npu_dma_ctx *ctx,
			 const struct npu_dma_mem_alloc *req)
{
	struct npu_dma_device *ndev = ctx->ndev;

	if (req->flags & ~NPU_DMA_MEM_FLAGS_MASK || req->reserved[0] ||
	    req->reserved[1] || req->dev_addr || req->alloc_size ||
	    req->handle || req->pad) {
		npu_dbg(ndev, "bad flags 0x%x or reserved fields\n", req->flags);
		return -EINVAL;
	}
	if (req->policy > NPU_DMA_MEM_POLICY_MAX || !req->size ||
	    (req->align && (!is_power_of_2(req->align) ||
			    req->align > NPU_DMA_MAX_ALIGN))) {
		npu_dbg(ndev, "bad policy %u, size %llu or align %llu\n",
			req->policy, req->size, req->align);
		return -EINVAL;
	}
	return 0;
}

/* A new allocation of [@addr, + @size) of @ndev, in no tree yet. */
static struct npu_dma_alloc *npu_alloc_create(struct npu_dma_ctx *ctx,
					      unsigned long addr, u64 size)
{
	struct npu_dma_alloc *a = kzalloc(sizeof(*a), GFP_KERNEL_ACCOUNT);
	struct npu_dma_device *ndev = ctx->ndev;

	if (!a)
		return NULL;
	a->owner = ctx->file;
	a->ndev = ndev;
	drm_dev_get(&ndev->drm);
	a->mem = ndev->mem;
	kref_get(&a->mem->ref);
	/* The opener's mm: a MEM_ALLOC comes from the process that opened. */
	if (a->mem->lazy)
		a->memcg = get_mem_cgroup_from_mm(ctx->mm);
	a->range.start = addr;
	a->range.size = size;
	kref_init(&a->range.ref);
	a->base.funcs = &npu_alloc_gem_funcs;
	drm_gem_private_object_init(&ndev->drm, &a->base, size);
	return a;
}

int npu_dma_mem_alloc_ioctl(struct npu_dma_ctx *ctx, void *data)
{
	struct npu_dma_mem_alloc *req = data;
	struct npu_dma_device *ndev = ctx->ndev;
	struct npu_dma_alloc *a;
	unsigned long addr = 0;
	bool huge = false;
	u64 size = 0;
	int ret;

	ret = npu_mem_check(ctx, req);
	if (ret)
		return ret;

	if (req->policy != NPU_DMA_MEM_NORMAL_ONLY &&
	    (req->policy == NPU_DMA_MEM_HUGE_ONLY || req->size > SZ_1M)) {
		addr = npu_mem_try_alloc(ndev, req, true, &size);
		huge = addr;
	}
	if (!addr && req->policy != NPU_DMA_MEM_HUGE_ONLY)
		addr = npu_mem_try_alloc(ndev, req, false, &size);
	if (!addr) {
		npu_dbg(ndev, "no room for %llu bytes\n", req->size);
		return -ENOMEM;
	}
	a = npu_alloc_create(ctx, addr, size);
	if (!a) {
		gen_pool_free(ndev->mem->pool, addr, size);
		return -ENOMEM;
	}
	a->huge = huge;

	mutex_lock(&ctx->lock);
	ret = npu_dma_range_insert(&ctx->mem_tree, &a->range);
	mutex_unlock(&ctx->lock);
	if (WARN_ON_ONCE(ret)) {
		npu_dma_alloc_put(&a->range);
		return ret;
	}

	/*
	 * Answer first: once the handle exists another thread may close it
	 * (handles are predictable) and the allocation may be gone. If the
	 * DRM core then fails to copy the answer out, the allocation stays
	 * the file's until close, as every GEM object does.
	 */
	req->dev_addr = addr;
	req->alloc_size = size;
	ret = drm_gem_handle_create(ctx->file, &a->base, &req->handle);
	if (ret) {
		struct npu_dma_range *r;

		r = npu_dma_range_take(ctx, &ctx->mem_tree, addr);
		if (r)
			npu_dma_alloc_put(r);
		req->dev_addr = 0;
		req->alloc_size = 0;
	}
	return ret;
}

/**
 * npu_dma_mem_release_all() - drop every allocation of a closing context
 * @ctx: the context; its queues are already drained
 */
void npu_dma_mem_release_all(struct npu_dma_ctx *ctx)
{
	npu_dma_range_drain(ctx, &ctx->mem_tree, npu_dma_alloc_put);
}
