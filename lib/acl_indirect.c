// SPDX-License-Identifier: MIT
/*
 * libacl: indirect copies inside one NPU, CANN's descriptor and offset
 * copies (ACL_API.md 4.11).
 *
 * CANN's copy descriptor is 32 bytes of device memory the caller
 * allocates; here it is called a copy record, so that "desc" is only
 * ever the ABI's struct npu_dma_desc. aclrtSetMemcpyDesc() writes
 * (magic, src, dst, count) there, device addresses, with a small
 * synchronous copy. aclrtMemcpyAsyncWithDesc() and
 * aclrtMemcpyAsyncWithOffset() queue one COPY_INDIRECT descriptor
 * naming the words that hold the copy's addresses (and, for a record,
 * its length): the driver reads them when the copy runs, after the
 * stream's earlier work, as CANN's device does. So whatever rewrote
 * them before that (aclrtSetMemcpyDesc, a copy queued earlier, another
 * stream ordered by an event) decides what is copied, and a captured
 * graph reads them again at every replay. What they hold is checked
 * then too: a copy outside the context's memory of this NPU fails on
 * the stream (ACL_ERROR_RT_PARAM_INVALID when it is synchronized).
 */
#include <stddef.h>

#include "acl_objects.h"
#include "acl_error.h"
#include "acl_device.h"
#include "acl_stream.h"
#include "acl_mem.h"
#include "acl_copy.h"
#include "acl_submit.h"

#define ACL_REC_SIZE		32
#define ACL_REC_ALIGN		64
#define ACL_REC_MAGIC		0x61636c64U	/* "acld" */
#define ACL_REC_MAX_COUNT	(4ULL << 30)
#define ACL_OFFSET_MAX		0xFFFFFFFFFFFFULL

/* What a copy record's device memory holds: the driver reads the words. */
struct acl_copy_rec {
	uint32_t magic;
	uint32_t pad;
	uint64_t src;			/* device addresses */
	uint64_t dst;
	uint64_t count;
};

_Static_assert(sizeof(struct acl_copy_rec) == ACL_REC_SIZE,
	       "a descriptor is 32 bytes, as CANN's on A2/A3");
_Static_assert(offsetof(struct acl_copy_rec, count) ==
	       offsetof(struct acl_copy_rec, src) + 16,
	       "src, dst, count are consecutive words");

/* Kinds: > INTER_D2D is 100000, anything but INNER_D2D 207000. */
static aclError acl_indirect_kind(aclrtMemcpyKind kind)
{
	if ((unsigned int)kind > ACL_MEMCPY_INTER_DEVICE_TO_DEVICE)
		return acl_err(ACL_ERROR_INVALID_PARAM, "kind=%d is invalid",
			       (int)kind);
	if (kind != ACL_MEMCPY_INNER_DEVICE_TO_DEVICE)
		return acl_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
			       "kind=%s: descriptor copies are "
			       "ACL_MEMCPY_INNER_DEVICE_TO_DEVICE only",
			       acl_kind_name(kind));
	return ACL_SUCCESS;
}

/* Synchronous copy of @len bytes between host @h and device @d. */
static aclError acl_indirect_set(void *dst, const void *src, size_t len,
			      aclrtMemcpyKind kind)
{
	struct acl_work w;
	struct acl_xfer x;
	aclError ret = acl_plan_copy(&x, dst, src, len, kind, NULL);

	if (ret)
		return ret;
	w = acl_work_xfer(&x);
	return acl_submit_sync(x.dev, &w);
}

ACL_FUNC_VISIBILITY aclError aclrtGetMemcpyDescSize(aclrtMemcpyKind kind,
						    size_t *descSize)
{
	aclError ret;

	ACL_ENTER();
	if (!descSize)
		return acl_err(ACL_ERROR_INVALID_PARAM, "descSize is NULL");
	ret = acl_indirect_kind(kind);
	if (!ret)
		*descSize = ACL_REC_SIZE;
	return ret;
}

ACL_FUNC_VISIBILITY aclError aclrtSetMemcpyDesc(void *desc,
						aclrtMemcpyKind kind,
						void *srcAddr, void *dstAddr,
						size_t count, void *config)
{
	struct acl_device *dev = NULL;
	struct acl_copy_rec w = { .magic = ACL_REC_MAGIC, .count = count };
	aclError ret;

	ACL_ENTER();
	if (!desc || !srcAddr || !dstAddr || !count || config)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "desc=%p srcAddr=%p dstAddr=%p count=%zu "
			       "config=%p: pointers non-NULL, count > 0, config "
			       "NULL", desc, srcAddr, dstAddr, count, config);
	ret = acl_indirect_kind(kind);
	if (ret)
		return ret;
	if (count > ACL_REC_MAX_COUNT)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "count=%zu exceeds 4 GiB", count);
	if ((uintptr_t)desc % ACL_REC_ALIGN)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "desc=%p is not %d-byte aligned", desc,
			       ACL_REC_ALIGN);
	ret = acl_devptr_check("desc", desc, &dev);
	if (!ret)
		ret = acl_devptr_check("srcAddr", srcAddr, &dev);
	if (!ret)
		ret = acl_devptr_check("dstAddr", dstAddr, &dev);
	if (ret)
		return ret;
	w.src = acl_dev_addr(dev, srcAddr);
	w.dst = acl_dev_addr(dev, dstAddr);
	return acl_indirect_set(desc, &w, sizeof(w), ACL_MEMCPY_HOST_TO_DEVICE);
}

/* Queue COPY_INDIRECT @d on @s (or add it to its capture). */
static aclError acl_indirect_submit(struct acl_stream *s, struct npu_dma_desc *d)
{
	struct acl_work w = acl_work_descs(d, 1);
	uint64_t first, last;
	int err;

	if (!(s->ctx->dev->info.caps & NPU_DMA_CAP_COPY_INDIRECT))
		return acl_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
			       "device %d's driver cannot read a copy's "
			       "addresses from device memory", s->ctx->dev->id);
	d->opcode = NPU_DMA_OP_COPY_INDIRECT;
	err = acl_stream_submit(s, &w, &first, &last);
	return err ? acl_err_sys(err, "DRM_IOCTL_NPU_DMA_QUEUE_SUBMIT") :
		     ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtMemcpyAsyncWithDesc(void *desc,
						      aclrtMemcpyKind kind,
						      aclrtStream stream)
{
	struct npu_dma_desc d = { 0 };
	struct acl_device *dev = NULL;
	struct acl_stream *s;
	uint64_t addr;
	aclError ret;

	ACL_ENTER();
	if (!desc || !stream)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "desc=%p stream=%p: neither may be NULL (no "
			       "default stream here)", desc, stream);
	ret = acl_indirect_kind(kind);
	if (ret)
		return ret;
	s = acl_stream_for_task(stream, &ret);
	if (!s)
		return ret;
	dev = s->ctx->dev;
	ret = acl_devptr_check("desc", desc, &dev);
	if (ret)
		return ret;
	if ((uintptr_t)desc % ACL_REC_ALIGN)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "desc=%p is not %d-byte aligned", desc,
			       ACL_REC_ALIGN);
	addr = acl_dev_addr(dev, desc);
	d.src = addr + offsetof(struct acl_copy_rec, src);
	d.dst = addr + offsetof(struct acl_copy_rec, dst);
	d.value = addr + offsetof(struct acl_copy_rec, count);
	return acl_indirect_submit(s, &d);
}

static aclError acl_offset_checks(size_t destMax, size_t dstDataOffset,
				  size_t count, size_t srcDataOffset,
				  aclrtMemcpyKind kind)
{
	if (kind != ACL_MEMCPY_INNER_DEVICE_TO_DEVICE)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "kind=%d (%s): offset copies are "
			       "ACL_MEMCPY_INNER_DEVICE_TO_DEVICE only",
			       (int)kind, acl_kind_name(kind));
	if (dstDataOffset > ACL_OFFSET_MAX || srcDataOffset > ACL_OFFSET_MAX)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "dstDataOffset=%zu srcDataOffset=%zu: at most %llu",
			       dstDataOffset, srcDataOffset, ACL_OFFSET_MAX);
	if (dstDataOffset >= destMax || count > destMax - dstDataOffset)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "count=%zu at dstDataOffset=%zu does not fit "
			       "destMax=%zu", count, dstDataOffset, destMax);
	if (count > ACL_REC_MAX_COUNT)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "count=%zu exceeds 4 GiB", count);
	return ACL_SUCCESS;
}

/*
 * The word at device pointer @slot (which holds a device pointer of
 * @dev, as the application stores it) into @word, and into @add what
 * turns that pointer, plus @offset, into the device address the driver
 * copies at: the reservation's base is subtracted, modulo 2^64.
 */
static aclError acl_offset_slot(struct acl_device *dev, const char *name,
				const void *slot, size_t offset,
				__u64 *word, __u64 *add)
{
	struct acl_device *sdev = dev;
	aclError ret;

	ret = acl_devptr_check(name, slot, &sdev);
	if (ret)
		return ret;
	if ((uintptr_t)slot % sizeof(void *))
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "%s=%p is not %zu-byte aligned", name, slot,
			       sizeof(void *));
	*word = acl_dev_addr(dev, slot);
	*add = acl_dev_addr(dev, NULL) + offset;
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError
aclrtMemcpyAsyncWithOffset(void **dst, size_t destMax, size_t dstDataOffset,
			   const void **src, size_t count,
			   size_t srcDataOffset, aclrtMemcpyKind kind,
			   aclrtStream stream)
{
	struct npu_dma_desc d = { 0 };
	struct acl_stream *s;
	aclError ret;

	ACL_ENTER();
	if (!count)
		return ACL_SUCCESS;
	if (!dst || !src)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "dst=%p src=%p: neither may be NULL", (void *)dst,
			       (const void *)src);
	ret = acl_offset_checks(destMax, dstDataOffset, count, srcDataOffset,
				kind);
	if (ret)
		return ret;
	s = acl_stream_for_task(stream, &ret);
	if (!s)
		return ret;
	ret = acl_offset_slot(s->ctx->dev, "dst", dst, dstDataOffset, &d.dst,
			      &d.dst_pitch);
	if (!ret)
		ret = acl_offset_slot(s->ctx->dev, "src", src, srcDataOffset,
				      &d.src, &d.src_pitch);
	if (ret)
		return ret;
	d.len = count;
	return acl_indirect_submit(s, &d);
}
