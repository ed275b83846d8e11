// SPDX-License-Identifier: MIT
/*
 * libacl: descriptor and offset copies inside one NPU (ACL_API.md 4.11).
 *
 * A copy descriptor is 32 bytes of device memory the caller allocates;
 * aclrtSetMemcpyDesc() writes (magic, src, dst, count) there with a
 * small synchronous copy, and libacl keeps the same record on the host,
 * keyed by the descriptor's address. aclrtMemcpyAsyncWithDesc() queues
 * the copy the record describes, so replaying a descriptor costs what a
 * 1-D device copy costs; a descriptor libacl has no record of (its bytes
 * copied there by other means) is read back from the device once.
 * The parameters are taken when the copy is queued: a later
 * aclrtSetMemcpyDesc() affects later launches only.
 *
 * aclrtMemcpyAsyncWithOffset() reads its two base addresses from device
 * memory when called, after the stream's earlier work finished (so a
 * base written by that work is seen), then queues an ordinary copy.
 */
#include <stdlib.h>
#include <string.h>

#include "acl_internal.h"

#define ACL_DESC_SIZE		32
#define ACL_DESC_ALIGN		64
#define ACL_DESC_MAGIC		0x61636c64U	/* "acld" */
#define ACL_DESC_MAX_COUNT	(4ULL << 30)
#define ACL_OFFSET_MAX		0xFFFFFFFFFFFFULL
#define ACL_DESC_BUCKETS	64

/* What the descriptor's device memory holds. */
struct acl_desc_wire {
	uint32_t magic;
	uint32_t pad;
	uint64_t src;			/* device addresses */
	uint64_t dst;
	uint64_t count;
};

_Static_assert(sizeof(struct acl_desc_wire) == ACL_DESC_SIZE,
	       "a descriptor is 32 bytes, as CANN's on A2/A3");

/* The host's record of one descriptor. */
struct acl_desc_rec {
	struct acl_device *dev;
	uint64_t gen;			/* dev->gen when written */
	uint64_t addr;			/* device address of the descriptor */
	struct acl_desc_wire w;
	struct acl_desc_rec *next;
};

static pthread_mutex_t acl_desc_lock = PTHREAD_MUTEX_INITIALIZER;
static struct acl_desc_rec *acl_desc_tab[ACL_DESC_BUCKETS];	/* under the lock */

static struct acl_desc_rec **acl_desc_slot(uint64_t addr)
{
	return &acl_desc_tab[(addr / ACL_DESC_ALIGN) % ACL_DESC_BUCKETS];
}

/* Record @w for the descriptor at @addr (the latest write wins). */
static void acl_desc_remember(struct acl_device *dev, uint64_t addr,
			      const struct acl_desc_wire *w)
{
	struct acl_desc_rec *r;

	pthread_mutex_lock(&acl_desc_lock);
	for (r = *acl_desc_slot(addr); r; r = r->next)
		if (r->dev == dev && r->addr == addr)
			break;
	if (!r) {
		r = calloc(1, sizeof(*r));
		if (r) {
			r->dev = dev;
			r->addr = addr;
			r->next = *acl_desc_slot(addr);
			*acl_desc_slot(addr) = r;
		}
	}
	if (r) {
		r->gen = dev->gen;
		r->w = *w;
	}
	pthread_mutex_unlock(&acl_desc_lock);
}

static bool acl_desc_recall(struct acl_device *dev, uint64_t addr,
			    struct acl_desc_wire *w)
{
	struct acl_desc_rec *r;
	bool found = false;

	pthread_mutex_lock(&acl_desc_lock);
	for (r = *acl_desc_slot(addr); r && !found; r = r->next)
		if (r->dev == dev && r->addr == addr && r->gen == dev->gen) {
			*w = r->w;
			found = true;
		}
	pthread_mutex_unlock(&acl_desc_lock);
	return found;
}

/* Kinds: > INTER_D2D is 100000, anything but INNER_D2D 207000. */
static aclError acl_desc_kind(aclrtMemcpyKind kind)
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

/* @p is device memory of an open NPU (of *@dev when set): 107000. */
static aclError acl_desc_devptr(const char *name, const void *p,
				struct acl_device **dev)
{
	struct acl_device *d = acl_va_find(p);

	if (!d)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "%s=%p is not device memory", name, p);
	if (!acl_device_is_open(d))
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "%s=%p: device %d was reset", name, p, d->id);
	if (*dev && *dev != d)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "%s=%p is on device %d, not device %d", name, p,
			       d->id, (*dev)->id);
	*dev = d;
	return ACL_SUCCESS;
}

/* Synchronous copy of @len bytes between host @h and device @d. */
static aclError acl_desc_xfer(void *dst, const void *src, size_t len,
			      aclrtMemcpyKind kind)
{
	struct acl_xfer x;
	aclError ret = acl_plan_copy(&x, dst, src, len, kind, NULL);

	return ret ? ret : acl_xfer_run_sync(&x);
}

ACL_FUNC_VISIBILITY aclError aclrtGetMemcpyDescSize(aclrtMemcpyKind kind,
						    size_t *descSize)
{
	aclError ret;

	ACL_ENTER();
	if (!descSize)
		return acl_err(ACL_ERROR_INVALID_PARAM, "descSize is NULL");
	ret = acl_desc_kind(kind);
	if (!ret)
		*descSize = ACL_DESC_SIZE;
	return ret;
}

ACL_FUNC_VISIBILITY aclError aclrtSetMemcpyDesc(void *desc,
						aclrtMemcpyKind kind,
						void *srcAddr, void *dstAddr,
						size_t count, void *config)
{
	struct acl_device *dev = NULL;
	struct acl_desc_wire w = { .magic = ACL_DESC_MAGIC, .count = count };
	aclError ret;

	ACL_ENTER();
	if (!desc || !srcAddr || !dstAddr || !count || config)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "desc=%p srcAddr=%p dstAddr=%p count=%zu "
			       "config=%p: pointers non-NULL, count > 0, config "
			       "NULL", desc, srcAddr, dstAddr, count, config);
	ret = acl_desc_kind(kind);
	if (ret)
		return ret;
	if (count > ACL_DESC_MAX_COUNT)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "count=%zu exceeds 4 GiB", count);
	if ((uintptr_t)desc % ACL_DESC_ALIGN)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "desc=%p is not %d-byte aligned", desc,
			       ACL_DESC_ALIGN);
	ret = acl_desc_devptr("desc", desc, &dev);
	if (!ret)
		ret = acl_desc_devptr("srcAddr", srcAddr, &dev);
	if (!ret)
		ret = acl_desc_devptr("dstAddr", dstAddr, &dev);
	if (ret)
		return ret;
	w.src = acl_dev_addr(dev, srcAddr);
	w.dst = acl_dev_addr(dev, dstAddr);
	ret = acl_desc_xfer(desc, &w, sizeof(w), ACL_MEMCPY_HOST_TO_DEVICE);
	if (!ret)
		acl_desc_remember(dev, acl_dev_addr(dev, desc), &w);
	return ret;
}

/* The copy the descriptor at @desc describes. */
static aclError acl_desc_get(struct acl_device *dev, void *desc,
			     struct acl_desc_wire *w)
{
	uint64_t addr = acl_dev_addr(dev, desc);
	aclError ret;

	if (acl_desc_recall(dev, addr, w))
		return ACL_SUCCESS;
	ret = acl_desc_xfer(w, desc, sizeof(*w), ACL_MEMCPY_DEVICE_TO_HOST);
	if (ret)
		return ret;
	if (w->magic != ACL_DESC_MAGIC || !w->count ||
	    w->count > ACL_DESC_MAX_COUNT)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "desc=%p holds no copy descriptor (see "
			       "aclrtSetMemcpyDesc)", desc);
	acl_desc_remember(dev, addr, w);
	return ACL_SUCCESS;
}

/* Queue a device-internal copy of @len bytes on @s. */
static aclError acl_desc_queue(struct acl_stream *s, uint64_t dst, uint64_t src,
			       uint64_t len)
{
	struct acl_xfer x = {
		.dev = s->ctx->dev,
		.tmpl = { .opcode = NPU_DMA_OP_COPY, .src = src, .dst = dst },
		.len = len,
	};

	return acl_xfer_run_async(&x, s);
}

ACL_FUNC_VISIBILITY aclError aclrtMemcpyAsyncWithDesc(void *desc,
						      aclrtMemcpyKind kind,
						      aclrtStream stream)
{
	struct acl_device *dev = NULL;
	struct acl_desc_wire w;
	struct acl_stream *s;
	aclError ret;

	ACL_ENTER();
	if (!desc || !stream)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "desc=%p stream=%p: neither may be NULL (no "
			       "default stream here)", desc, stream);
	ret = acl_desc_kind(kind);
	if (ret)
		return ret;
	s = acl_stream_lookup(stream, &ret);
	if (!s)
		return ret;
	dev = s->ctx->dev;
	ret = acl_desc_devptr("desc", desc, &dev);
	if (!ret)
		ret = acl_desc_get(dev, desc, &w);
	if (ret)
		return ret;
	return acl_desc_queue(s, w.dst, w.src, w.count);
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
	if (count > ACL_DESC_MAX_COUNT)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "count=%zu exceeds 4 GiB", count);
	return ACL_SUCCESS;
}

/* The base address stored at device pointer @slot, as a device address. */
static aclError acl_offset_base(struct acl_device *dev, const char *name,
				void *slot, uint64_t *base)
{
	struct acl_device *bdev = dev;
	void *p = NULL;
	aclError ret;

	ret = acl_desc_devptr(name, slot, &bdev);
	if (!ret)
		ret = acl_desc_xfer(&p, slot, sizeof(p),
				    ACL_MEMCPY_DEVICE_TO_HOST);
	if (!ret)
		ret = acl_desc_devptr(*name == 'd' ? "*dst" : "*src", p, &bdev);
	if (!ret)
		*base = acl_dev_addr(dev, p);
	return ret;
}

ACL_FUNC_VISIBILITY aclError
aclrtMemcpyAsyncWithOffset(void **dst, size_t destMax, size_t dstDataOffset,
			   const void **src, size_t count,
			   size_t srcDataOffset, aclrtMemcpyKind kind,
			   aclrtStream stream)
{
	uint64_t dbase, sbase;
	struct acl_stream *s;
	aclError ret;
	int err;

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
	s = acl_stream_lookup(stream, &ret);
	if (!s)
		return ret;
	if (acl_stream_capturing(s))
		return acl_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
			       "offset copies read their bases when called and "
			       "cannot be captured");
	/* The stream's earlier work may write the bases: let it finish. */
	err = acl_ring_wait(s->ring, acl_ring_last_seq(s->ring), -1);
	if (err)
		return acl_err_sys(err, "waiting for the stream");
	ret = acl_offset_base(s->ctx->dev, "dst", dst, &dbase);
	if (!ret)
		ret = acl_offset_base(s->ctx->dev, "src", (void *)src, &sbase);
	if (ret)
		return ret;
	return acl_desc_queue(s, dbase + dstDataOffset, sbase + srcDataOffset,
			      count);
}
