// SPDX-License-Identifier: MIT
/*
 * libacl: device memory. aclrtMalloc* ask the driver (MEM_ALLOC) on the
 * current device and hand out the device address translated into the
 * device's reserved host range (acl_va.c); aclrtFree translates back.
 * The driver keeps the allocation list: the library keeps none.
 */
#include <errno.h>
#include <string.h>

#include "acl_internal.h"

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

static aclError acl_malloc(void **devPtr, size_t size, uint32_t policy,
			   bool pad, bool cfg)
{
	struct npu_dma_mem_alloc a = { 0 };
	struct acl_alloc_req req;
	struct acl_context *ctx;
	int err;

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
	err = acl_ioctl(ctx->dev->fd, NPU_DMA_IOCTL_MEM_ALLOC, &a);
	if (err == -ENOMEM)
		return acl_err(ACL_ERROR_RT_MEMORY_ALLOCATION,
			       "size=%zu policy=%#x: out of memory on device %d",
			       size, policy, ctx->dev->id);
	if (err)
		return acl_err_sys(err, "NPU_DMA_IOCTL_MEM_ALLOC");
	*devPtr = (void *)(ctx->dev->va_base +
			   (uintptr_t)(a.dev_addr - ctx->dev->info.mem_base));
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtMalloc(void **devPtr, size_t size,
					 aclrtMemMallocPolicy policy)
{
	ACL_ENTER();
	return acl_malloc(devPtr, size, (uint32_t)policy, true, false);
}

ACL_FUNC_VISIBILITY aclError aclrtMallocAlign32(void **devPtr, size_t size,
						aclrtMemMallocPolicy policy)
{
	ACL_ENTER();
	return acl_malloc(devPtr, size, (uint32_t)policy, false, false);
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
	return acl_malloc(devPtr, size, (uint32_t)policy, true, true);
}

static aclError acl_free(void *devPtr)
{
	struct npu_dma_mem_free f = { 0 };
	struct acl_device *dev;
	int err;

	if (!devPtr)
		return acl_err(ACL_ERROR_INVALID_PARAM, "devPtr is NULL");
	dev = acl_va_find(devPtr);
	if (!dev)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "devPtr=%p is not device memory", devPtr);
	if (!acl_device_is_open(dev))
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "devPtr=%p: device %d was reset", devPtr, dev->id);
	f.dev_addr = acl_dev_addr(dev, devPtr);
	err = acl_ioctl(dev->fd, NPU_DMA_IOCTL_MEM_FREE, &f);
	if (err == -EINVAL)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "devPtr=%p is not the start of an allocation",
			       devPtr);
	if (err)
		return acl_err_sys(err, "NPU_DMA_IOCTL_MEM_FREE");
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
