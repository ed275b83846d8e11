// SPDX-License-Identifier: MIT
/*
 * libacl: device memory. aclrtMalloc* ask the driver (MEM_ALLOC) on the
 * current device and hand out the device address translated into the
 * device's reserved host range (acl_va.c); aclrtFree translates back.
 *
 * Each allocation is a GEM object of the device's file, freed by closing
 * its handle (DRM_IOCTL_GEM_CLOSE), so the library remembers the handle
 * of every allocation by its device address, per device, in a hash table
 * (aclrtFree is as cheap as before). Closing the file frees them all:
 * the table is then simply forgotten.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "acl_objects.h"
#include "acl_error.h"
#include "acl_kmd.h"
#include "acl_device.h"
#include "acl_mem.h"
#include "acl_copy.h"

#define ACL_MEM_EXTRA_BITS	(ACL_MEM_TYPE_LOW_BAND_WIDTH | \
				 ACL_MEM_TYPE_HIGH_BAND_WIDTH | \
				 ACL_MEM_ACCESS_USER_SPACE_READONLY)
#define ACL_GIB			(1ULL << 30)

aclError acl_malloc_params(size_t size, uint32_t policy, bool pad, bool cfg,
			   struct acl_alloc_req *req)
{
	uint32_t base = cfg ? policy & ~(uint32_t)ACL_MEM_EXTRA_BITS : policy;
	uint64_t round = 32, extra = pad ? 32 : 0;

	memset(req, 0, sizeof(*req));
	if (!size)
		return acl_err(ACL_ERROR_INVALID_PARAM, "size=0 is invalid");
	switch (base) {
	case ACL_MEM_MALLOC_HUGE_FIRST_P2P:
	case ACL_MEM_MALLOC_HUGE_ONLY_P2P:
	case ACL_MEM_MALLOC_NORMAL_ONLY_P2P:
		req->flags = NPU_DMA_MEM_F_P2P;
		base -= ACL_MEM_MALLOC_HUGE_FIRST_P2P;
		/* fall through */
	case ACL_MEM_MALLOC_HUGE_FIRST:
	case ACL_MEM_MALLOC_HUGE_ONLY:
	case ACL_MEM_MALLOC_NORMAL_ONLY:
		req->policy = base;	/* same numbering as NPU_DMA_MEM_* */
		break;
	case ACL_MEM_MALLOC_HUGE1G_ONLY_P2P:
		req->flags = NPU_DMA_MEM_F_P2P;
		/* fall through */
	case ACL_MEM_MALLOC_HUGE1G_ONLY:
		/* No 1 GiB pages: 2 MiB pages, 1 GiB aligned and rounded. */
		req->policy = NPU_DMA_MEM_HUGE_ONLY;
		req->align = ACL_GIB;
		round = ACL_GIB;
		extra = 0;
		break;
	default:
		req->policy = NPU_DMA_MEM_HUGE_FIRST;	/* CANN's default */
		break;
	}
	if ((uint64_t)size > UINT64_MAX - round - extra)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "size=%zu overflows when rounded", size);
	req->bytes = (((uint64_t)size + round - 1) & ~(round - 1)) + extra;
	return ACL_SUCCESS;
}

/* ---- the allocation table --------------------------------------------- */

/* Allocations are page aligned: the page number, spread by Fibonacci hashing. */
static size_t acl_mem_slot(const struct acl_mem_table *t, uint64_t addr)
{
	return (size_t)(((addr >> 12) * 0x9e3779b97f4a7c15ULL) >> 17) &
	       (t->cap - 1);
}

/* Put @ent in @e (a table with room, no entry for its address). */
static void acl_mem_place(struct acl_mem_entry *e, size_t cap,
			  const struct acl_mem_entry *ent)
{
	struct acl_mem_table t = { .e = e, .cap = cap };
	size_t i = acl_mem_slot(&t, ent->addr);

	while (e[i].handle)
		i = (i + 1) & (cap - 1);
	e[i] = *ent;
}

/* Double the table (or make the first one): 0 or -ENOMEM. */
static int acl_mem_grow(struct acl_mem_table *t)
{
	size_t i, cap = t->cap ? 2 * t->cap : 64;
	struct acl_mem_entry *e = calloc(cap, sizeof(*e));

	if (!e)
		return -ENOMEM;
	for (i = 0; i < t->cap; i++)
		if (t->e[i].handle)
			acl_mem_place(e, cap, &t->e[i]);
	free(t->e);
	t->e = e;
	t->cap = cap;
	return 0;
}

/* Slot of @addr's entry, or -1. */
static ssize_t acl_mem_find(const struct acl_mem_table *t, uint64_t addr)
{
	size_t i;

	if (!t->cap)
		return -1;
	for (i = acl_mem_slot(t, addr); t->e[i].handle; i = (i + 1) & (t->cap - 1))
		if (t->e[i].addr == addr)
			return (ssize_t)i;
	return -1;
}

int acl_mem_insert(struct acl_mem_table *t, const struct acl_mem_entry *ent)
{
	if (!ent->handle)
		return -EINVAL;
	if (acl_mem_find(t, ent->addr) >= 0)
		return -EEXIST;
	/* At most half full: probe runs stay short. */
	if (2 * (t->n + 1) > t->cap && acl_mem_grow(t))
		return -ENOMEM;
	acl_mem_place(t->e, t->cap, ent);
	t->n++;
	return 0;
}

uint32_t acl_mem_remove(struct acl_mem_table *t, uint64_t addr,
			struct acl_mem_entry *gone)
{
	ssize_t found = acl_mem_find(t, addr);
	size_t i, j, home;
	uint32_t handle;

	if (found < 0)
		return 0;
	i = (size_t)found;
	handle = t->e[i].handle;
	if (gone)
		*gone = t->e[i];
	/*
	 * Backward shift: pull later entries of the probe run into the hole
	 * unless their home slot lies cyclically in (i, j].
	 */
	for (j = (i + 1) & (t->cap - 1); t->e[j].handle; j = (j + 1) & (t->cap - 1)) {
		home = acl_mem_slot(t, t->e[j].addr);
		if (((j - home) & (t->cap - 1)) < ((j - i) & (t->cap - 1)))
			continue;
		t->e[i] = t->e[j];
		i = j;
	}
	memset(&t->e[i], 0, sizeof(t->e[i]));
	t->n--;
	return handle;
}

void acl_mem_table_free(struct acl_mem_table *t)
{
	free(t->e);
	memset(t, 0, sizeof(*t));
}

bool acl_mem_containing(struct acl_device *dev, uint64_t addr, uint64_t *start,
			uint32_t *handle)
{
	const struct acl_mem_table *t = &dev->mem;
	bool found = false;
	size_t i;

	pthread_mutex_lock(&dev->mem_lock);
	for (i = 0; i < t->cap; i++) {
		const struct acl_mem_entry *e = &t->e[i];

		if (e->handle && e->addr <= addr && (!found || e->addr > *start)) {
			*start = e->addr;
			*handle = e->handle;
			found = true;
		}
	}
	pthread_mutex_unlock(&dev->mem_lock);
	return found;
}

void acl_mem_forget(struct acl_device *dev)
{
	pthread_mutex_lock(&dev->mem_lock);
	acl_mem_table_free(&dev->mem);
	acl_usage_forget_locked(dev);
	pthread_mutex_unlock(&dev->mem_lock);
}

/* ---- aclrtMalloc / aclrtFree -------------------------------------------- */

/* Check, remember and charge a new allocation (mem_lock held): aclError. */
static aclError acl_dev_track(struct acl_device *dev,
			      const struct npu_dma_mem_alloc *a, size_t size,
			      enum acl_mem_use use)
{
	uint64_t end = dev->info.mem_base + dev->info.mem_size;
	struct acl_mem_entry ent = {
		.addr = a->dev_addr, .size = a->alloc_size,
		.handle = a->handle, .use = use,
	};
	int err;

	if (a->dev_addr < dev->info.mem_base || a->dev_addr >= end ||
	    a->alloc_size > end - a->dev_addr)
		return acl_err(ACL_ERROR_RT_DRV_INTERNAL_ERROR,
			       "size=%zu: the driver gave address %#llx outside "
			       "device %d's memory", size,
			       (unsigned long long)a->dev_addr, dev->id);
	err = acl_mem_insert(&dev->mem, &ent);
	if (err == -ENOMEM)
		return acl_err(ACL_ERROR_BAD_ALLOC,
			       "size=%zu: no memory to track the allocation",
			       size);
	if (err)
		return acl_err(ACL_ERROR_RT_DRV_INTERNAL_ERROR,
			       "size=%zu: the driver gave address %#llx (handle "
			       "%u) twice, or handle 0", size,
			       (unsigned long long)a->dev_addr, a->handle);
	acl_usage_charge_locked(dev, use, ent.size);
	return ACL_SUCCESS;
}

/*
 * MEM_ALLOC on @dev and remember the handle, under mem_lock so that a
 * closing device never loses an entry to a racing allocation.
 */
static aclError acl_dev_alloc(struct acl_device *dev, struct npu_dma_mem_alloc *a,
			      size_t size, uint32_t policy, enum acl_mem_use use)
{
	aclError ret;
	int err;

	pthread_mutex_lock(&dev->mem_lock);
	err = acl_kmd_mem_alloc(dev->fd, a);
	if (err == -ENOMEM) {
		ret = acl_err(ACL_ERROR_RT_MEMORY_ALLOCATION,
			      "size=%zu policy=%#x: out of memory on device %d",
			      size, policy, dev->id);
	} else if (err) {
		ret = acl_err_sys(err, "DRM_IOCTL_NPU_DMA_MEM_ALLOC");
	} else {
		ret = acl_dev_track(dev, a, size, use);
		/* Allocated but not handed out: give it back at once. */
		if (ret && a->handle)
			acl_kmd_gem_close(dev->fd, a->handle);
	}
	pthread_mutex_unlock(&dev->mem_lock);
	return ret;
}

static aclError acl_malloc(void **devPtr, size_t size, uint32_t policy,
			   bool pad, bool cfg, enum acl_mem_use use)
{
	struct npu_dma_mem_alloc a = { 0 };
	struct acl_alloc_req req;
	struct acl_context *ctx;
	aclError ret;

	if (!devPtr)
		return acl_err(ACL_ERROR_INVALID_PARAM, "devPtr is NULL");
	if (acl_malloc_params(size, policy, pad, cfg, &req))
		return ACL_ERROR_INVALID_PARAM;
	ctx = acl_current_ctx();
	if (!ctx)
		return ACL_ERROR_RT_CONTEXT_NULL;
	a.size = req.bytes;
	a.align = req.align;
	a.policy = req.policy;
	a.flags = req.flags;
	ret = acl_dev_alloc(ctx->dev, &a, size, policy, use);
	if (ret)
		return ret;
	*devPtr = (void *)(ctx->dev->va_base +
			   (uintptr_t)(a.dev_addr - ctx->dev->info.mem_base));
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtMalloc(void **devPtr, size_t size,
					 aclrtMemMallocPolicy policy)
{
	ACL_ENTER();
	return acl_malloc(devPtr, size, (uint32_t)policy, true, false,
			  ACL_MEM_USE_APP);
}

ACL_FUNC_VISIBILITY aclError aclrtMallocAlign32(void **devPtr, size_t size,
						aclrtMemMallocPolicy policy)
{
	ACL_ENTER();
	return acl_malloc(devPtr, size, (uint32_t)policy, false, false,
			  ACL_MEM_USE_APP);
}

aclError acl_malloc_for(void **devPtr, size_t size, enum acl_mem_use use)
{
	return acl_malloc(devPtr, size, ACL_MEM_MALLOC_HUGE_FIRST, false, false,
			  use);
}

/* DEVICE_ID must name the current device; the other attributes are hints. */
static aclError acl_check_malloc_cfg(const aclrtMallocConfig *cfg)
{
	struct acl_context *ctx;
	size_t i;

	if (!cfg)
		return ACL_SUCCESS;
	if (cfg->numAttrs && !cfg->attrs)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "cfg->numAttrs=%zu with cfg->attrs NULL",
			       cfg->numAttrs);
	for (i = 0; i < cfg->numAttrs; i++) {
		if (cfg->attrs[i].attr != ACL_RT_MEM_ATTR_DEVICE_ID)
			continue;
		ctx = acl_current_ctx();
		if (!ctx)
			return ACL_ERROR_RT_CONTEXT_NULL;
		if ((int)cfg->attrs[i].value.deviceId != ctx->dev->id)
			return acl_err(ACL_ERROR_RT_PARAM_INVALID,
				       "cfg deviceId=%u is not the current device %d",
				       cfg->attrs[i].value.deviceId, ctx->dev->id);
	}
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtMallocWithCfg(void **devPtr, size_t size,
						aclrtMemMallocPolicy policy,
						aclrtMallocConfig *cfg)
{
	aclError ret;

	ACL_ENTER();
	ret = acl_check_malloc_cfg(cfg);
	if (ret)
		return ret;
	return acl_malloc(devPtr, size, (uint32_t)policy, true, true,
			  ACL_MEM_USE_APP);
}

static aclError acl_free(void *devPtr)
{
	struct acl_mem_entry gone;
	struct acl_device *dev;
	uint32_t handle = 0;
	int err = 0;

	if (!devPtr)
		return acl_err(ACL_ERROR_INVALID_PARAM, "devPtr is NULL");
	dev = acl_va_find(devPtr);
	if (!dev)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "devPtr=%p is not device memory", devPtr);
	if (!acl_device_is_open(dev))
		return acl_err_dev_gone("devPtr", devPtr, dev);
	/*
	 * The driver frees the memory once the copies already queued on it
	 * completed; new descriptors naming it are refused from now on.
	 */
	pthread_mutex_lock(&dev->mem_lock);
	if (acl_device_is_open(dev))
		handle = acl_mem_remove(&dev->mem, acl_dev_addr(dev, devPtr),
					&gone);
	if (handle) {
		err = acl_kmd_gem_close(dev->fd, handle);
		/* Untracked now, whatever the close said: not held. */
		acl_usage_uncharge_locked(dev, gone.use, gone.size);
	}
	pthread_mutex_unlock(&dev->mem_lock);
	if (!handle)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "devPtr=%p is not the start of an allocation",
			       devPtr);
	if (err)
		return acl_err_sys(err, "DRM_IOCTL_GEM_CLOSE");
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtFree(void *devPtr)
{
	ACL_ENTER();
	return acl_free(devPtr);
}

ACL_FUNC_VISIBILITY aclError aclrtFreeWithDevSync(void *devPtr)
{
	struct acl_device *dev;

	ACL_ENTER();
	dev = devPtr ? acl_va_find(devPtr) : NULL;
	if (dev && acl_device_is_open(dev)) {
		aclError ret = acl_device_sync(dev, -1);

		if (ret)
			return ret;
	}
	return acl_free(devPtr);
}

/*
 * The page size of device memory at @ptr of @dev: 2 MiB where the driver
 * placed the allocation (or the physical allocation mapped there) in huge
 * pages, as MEM_ALLOC's policy asked and room allowed; else 4 KiB.
 */
static uint64_t acl_dev_page_size(struct acl_device *dev, const void *ptr)
{
	uint32_t gem = acl_vmm_gem_at(dev, ptr), flags = 0;
	uint64_t a = acl_dev_addr(dev, ptr), start, size;
	bool vmm = gem;

	if (!gem && !acl_mem_containing(dev, a, &start, &gem))
		return ACL_PAGE_SIZE;
	if (acl_kmd_mem_info(dev->fd, gem, &start, &size, &flags) ||
	    (!vmm && a - start >= size))
		return ACL_PAGE_SIZE;
	return (flags & NPU_DMA_MEM_INFO_F_HUGE) ? ACL_HUGE_PAGE_SIZE :
						   ACL_PAGE_SIZE;
}

ACL_FUNC_VISIBILITY aclError
aclrtPointerGetAttributes(const void *ptr, aclrtPtrAttributes *attributes)
{
	struct acl_device *dev;

	ACL_ENTER();
	if (!ptr || !attributes)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "ptr=%p attributes=%p: neither may be NULL", ptr,
			       (void *)attributes);
	memset(attributes, 0, sizeof(*attributes));
	attributes->pageSize = ACL_PAGE_SIZE;
	switch (acl_classify(ptr, &dev)) {
	case ACL_LOC_DEVICE:
		attributes->location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
		attributes->location.id = (uint32_t)dev->id;
		attributes->pageSize = acl_dev_page_size(dev, ptr);
		break;
	case ACL_LOC_HOST:
		attributes->location.type = ACL_MEM_LOCATION_TYPE_HOST;
		break;
	default:
		attributes->location.type = ACL_MEM_LOCATION_TYPE_UNREGISTERED;
		break;
	}
	return ACL_SUCCESS;
}
