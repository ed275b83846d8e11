// SPDX-License-Identifier: MIT
/*
 * libacl: 1-D copies and memset.
 *
 * A copy is planned here (pointer classes, CANN's kind rules, the NPU
 * that runs it, the descriptor template) and submitted through
 * acl_submit.c: synchronous calls by acl_submit_sync(), on one of the
 * device's library rings, waiting for their own descriptors only (never
 * for a stream); asynchronous calls by acl_submit_async(), on the
 * stream, which with pageable host memory (not registered with the NPU)
 * also waits for its own descriptors, so the caller's buffer is done
 * with on return and the stream order is kept. Copies longer than the
 * driver's max_copy_len are cut there. The common asynchronous copy
 * (pinned host memory, the stream's own NPU) is planned by
 * acl_plan_fast(), without the general planner.
 */
#include <errno.h>
#include <string.h>

#include <unistd.h>

#include "acl_objects.h"
#include "acl_error.h"
#include "acl_device.h"
#include "acl_stream.h"
#include "acl_mem.h"
#include "acl_copy.h"
#include "acl_submit.h"

static aclError acl_copy_edge_checks(const void *dst, const void *src,
				     aclrtMemcpyKind kind)
{
	if (!dst || !src)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "dst=%p src=%p: neither may be NULL", dst, src);
	if ((unsigned int)kind > ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "kind=%d is invalid for this call (%s)", (int)kind,
			       acl_kind_name(kind));
	return ACL_SUCCESS;
}

/* The host side of a transfer on @dev: registered there, or pageable. */
static void acl_xfer_host(struct acl_xfer *x, const void *p, bool is_src)
{
	uint16_t host = is_src ? NPU_DMA_DESC_F_SRC_HOST : NPU_DMA_DESC_F_DST_HOST;
	uint16_t pg = is_src ? NPU_DMA_DESC_F_SRC_PAGEABLE :
			       NPU_DMA_DESC_F_DST_PAGEABLE;

	x->tmpl.flags |= host;
	if (!acl_host_pinned_on(x->dev, p, x->len)) {
		x->tmpl.flags |= pg;
		x->pageable = true;
	}
	if (is_src)
		x->tmpl.src = (uintptr_t)p;
	else
		x->tmpl.dst = (uintptr_t)p;
}

/*
 * A device pointer on an open NPU. The copy runs on *@want when set (a
 * stream's NPU): memory of another NPU needs peer access from it.
 */
static aclError acl_xfer_dev_side(const char *name, const void *p,
				  struct acl_device *dev, enum acl_loc loc,
				  struct acl_device **want)
{
	if (loc != ACL_LOC_DEVICE)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "%s=%p is not device memory", name, p);
	if (!acl_device_is_open(dev))
		return acl_err_dev_gone(name, p, dev);
	if (*want && *want != dev)
		return acl_peer_check(*want, dev, name, p);
	*want = dev;
	return ACL_SUCCESS;
}

/*
 * The NPU a synchronous copy between two NPUs runs on: the current
 * device when it is one of them (its access was enabled), else the
 * source's.
 */
static struct acl_device *acl_d2d_runner(struct acl_device *sdev,
					 struct acl_device *ddev)
{
	struct acl_context *ctx = acl_tls.ctx;

	if (ctx && ctx->magic == ACL_CTX_MAGIC && ctx->dev == ddev)
		return ddev;
	return sdev;
}

/* One side on the NPU, the other host memory (the source if @host_src). */
static aclError acl_plan_host_dev(struct acl_xfer *x, const char *name,
				  const void *devp, struct acl_device *dev,
				  enum acl_loc loc, const void *hostp,
				  bool host_src)
{
	aclError ret = acl_xfer_dev_side(name, devp, dev, loc, &x->dev);

	if (ret)
		return ret;
	acl_xfer_host(x, hostp, host_src);
	if (host_src)
		x->tmpl.dst = acl_dev_addr(dev, devp);
	else
		x->tmpl.src = acl_dev_addr(dev, devp);
	return ACL_SUCCESS;
}

aclError acl_plan_copy_ptrs(struct acl_xfer *x, const struct acl_ptr *dst,
			    const struct acl_ptr *src, size_t count,
			    aclrtMemcpyKind kind, struct acl_device *run)
{
	struct acl_device *sdev = src->dev, *ddev = dst->dev;
	enum acl_loc sloc = src->loc, dloc = dst->loc;
	aclrtMemcpyKind k;
	aclError ret;

	memset(x, 0, sizeof(*x));
	x->len = count;
	x->tmpl.opcode = NPU_DMA_OP_COPY;
	if (kind == ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE) {
		/* Staged H2D: as H2D, and the source is free on return. */
		if (sloc == ACL_LOC_DEVICE || dloc != ACL_LOC_DEVICE)
			return acl_err(ACL_ERROR_RT_PARAM_INVALID,
				       "kind=%s needs a host src and a device dst",
				       acl_kind_name(kind));
		kind = ACL_MEMCPY_HOST_TO_DEVICE;
	}
	if (acl_resolve_kind(sloc, dloc, kind, &k))
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "kind=%s does not fit src=%p dst=%p",
			       acl_kind_name(kind), src->p, dst->p);
	x->dev = run;
	switch (k) {
	case ACL_MEMCPY_HOST_TO_DEVICE:
		return acl_plan_host_dev(x, "dst", dst->p, ddev, dloc, src->p,
					 true);
	case ACL_MEMCPY_DEVICE_TO_HOST:
		return acl_plan_host_dev(x, "src", src->p, sdev, sloc, dst->p,
					 false);
	case ACL_MEMCPY_DEVICE_TO_DEVICE:
		if (!x->dev && sloc == ACL_LOC_DEVICE && dloc == ACL_LOC_DEVICE &&
		    sdev != ddev)
			x->dev = acl_d2d_runner(sdev, ddev);
		ret = acl_xfer_dev_side("src", src->p, sdev, sloc, &x->dev);
		if (!ret)
			ret = acl_xfer_dev_side("dst", dst->p, ddev, dloc, &x->dev);
		if (!ret) {
			x->tmpl.src = acl_dev_addr(sdev, src->p);
			x->tmpl.dst = acl_dev_addr(ddev, dst->p);
		}
		return ret;
	default:
		x->dev = NULL;		/* host to host: memcpy */
		x->tmpl.src = (uintptr_t)src->p;
		x->tmpl.dst = (uintptr_t)dst->p;
		return ACL_SUCCESS;
	}
}

/*
 * Plan a copy. @run is the NPU the caller will run it on (a stream's), or
 * NULL to use the device memory's own.
 */
aclError acl_plan_copy(struct acl_xfer *x, void *dst, const void *src,
		       size_t count, aclrtMemcpyKind kind, struct acl_device *run)
{
	struct acl_ptr d = { .p = dst }, s = { .p = src };

	s.loc = acl_classify(src, &s.dev);
	d.loc = acl_classify(dst, &d.dev);
	return acl_plan_copy_ptrs(x, &d, &s, count, kind, run);
}

/*
 * Bytes one descriptor may move on @dev: the driver's max_copy_len, and
 * for @pageable host memory its max_pin_len less a page (an unaligned
 * side spans one page more than its length).
 */
uint64_t acl_dev_max_len(const struct acl_device *dev, bool pageable)
{
	uint64_t max = dev->info.max_copy_len ? dev->info.max_copy_len :
		       (1ULL << 30);
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);

	if (pageable && dev->info.max_pin_len > page &&
	    dev->info.max_pin_len - page < max)
		max = dev->info.max_pin_len - page;
	return max;
}

ACL_FUNC_VISIBILITY aclError aclrtMemcpy(void *dst, size_t destMax,
					 const void *src, size_t count,
					 aclrtMemcpyKind kind)
{
	struct acl_work w;
	struct acl_xfer x;
	aclError ret;

	ACL_ENTER();
	if (!count)
		return ACL_SUCCESS;
	ret = acl_copy_edge_checks(dst, src, kind);
	if (ret)
		return ret;
	if (!destMax || count > destMax)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "count=%zu does not fit destMax=%zu", count,
			       destMax);
	if (dst == src)
		return ACL_SUCCESS;
	ret = acl_sync_allowed("copy");
	if (ret)
		return ret;
	ret = acl_plan_copy(&x, dst, src, count, kind, NULL);
	if (ret)
		return ret;
	if (!x.dev) {
		memmove(dst, src, count);
		return ACL_SUCCESS;
	}
	w = acl_work_xfer(&x);
	return acl_submit_sync(x.dev, &w);
}

/* Does @p lie in @dev's reserved device range (as acl_va_find() sees it)? */
static bool acl_on_dev(const struct acl_device *dev, const void *p)
{
	uintptr_t base = __atomic_load_n(&dev->va_base, __ATOMIC_ACQUIRE);

	return base && (uintptr_t)p - base < dev->va_size;
}

bool acl_plan_fast(struct npu_dma_desc *d, void *dst, const void *src,
		   size_t count, aclrtMemcpyKind kind, struct acl_device *dev)
{
	uint64_t max = dev->info.max_copy_len ? dev->info.max_copy_len :
		       (1ULL << 30);

	if ((unsigned int)kind > ACL_MEMCPY_DEFAULT || count > max)
		return false;
	memset(d, 0, sizeof(*d));
	d->opcode = NPU_DMA_OP_COPY;
	d->len = count;
	if (acl_on_dev(dev, dst) && acl_host_hit_pinned(dev, src, count)) {
		d->flags = NPU_DMA_DESC_F_SRC_HOST;
		d->src = (uintptr_t)src;
		d->dst = acl_dev_addr(dev, dst);
	} else if (acl_on_dev(dev, src) && acl_host_hit_pinned(dev, dst, count)) {
		d->flags = NPU_DMA_DESC_F_DST_HOST;
		d->src = acl_dev_addr(dev, src);
		d->dst = (uintptr_t)dst;
	} else {
		return false;
	}
	return true;
}

static aclError acl_memcpy_async(void *dst, size_t destMax, const void *src,
				 size_t count, aclrtMemcpyKind kind,
				 aclrtStream stream, bool need_pinned)
{
	struct npu_dma_desc d;
	struct acl_stream *s;
	struct acl_work w;
	struct acl_xfer x;
	aclError ret;

	if (!count)
		return ACL_SUCCESS;
	ret = acl_copy_edge_checks(dst, src, kind);
	if (ret)
		return ret;
	if (count > destMax)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "count=%zu does not fit destMax=%zu", count,
			       destMax);
	if (dst == src)
		return ACL_SUCCESS;
	s = acl_stream_for_task(stream, &ret);
	if (!s)
		return ret;
	if (acl_plan_fast(&d, dst, src, count, kind, s->ctx->dev)) {
		w = acl_work_descs(&d, 1);
		return acl_submit_async(s, &w);
	}
	ret = acl_plan_copy(&x, dst, src, count, kind, s->ctx->dev);
	if (ret)
		return ret;
	if (!x.dev)
		return acl_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
			       "asynchronous host-to-host copies are not "
			       "supported (dst=%p src=%p)", dst, src);
	if (need_pinned && x.pageable)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "host memory is not pinned (dst=%p src=%p)", dst,
			       src);
	w = acl_work_xfer(&x);
	return acl_submit_async(s, &w);
}

ACL_FUNC_VISIBILITY aclError aclrtMemcpyAsync(void *dst, size_t destMax,
					      const void *src, size_t count,
					      aclrtMemcpyKind kind,
					      aclrtStream stream)
{
	ACL_ENTER();
	return acl_memcpy_async(dst, destMax, src, count, kind, stream, false);
}

ACL_FUNC_VISIBILITY aclError
aclrtMemcpyAsyncWithCondition(void *dst, size_t destMax, const void *src,
			      size_t count, aclrtMemcpyKind kind,
			      aclrtStream stream)
{
	ACL_ENTER();
	return acl_memcpy_async(dst, destMax, src, count, kind, stream, true);
}

/*
 * Plan a memset: FILL of the low byte of @value. Device memory and acl
 * host memory qualify; other host memory is undefined in CANN and
 * rejected here.
 */
aclError acl_plan_fill(struct acl_xfer *x, void *p, int32_t value, size_t count,
		       struct acl_device *run)
{
	struct acl_device *dev;
	enum acl_loc loc = acl_classify(p, &dev);
	aclError ret = ACL_SUCCESS;

	memset(x, 0, sizeof(*x));
	x->len = count;
	x->tmpl.opcode = NPU_DMA_OP_FILL;
	x->tmpl.fill_size = 1;
	x->tmpl.value = (uint8_t)value;
	x->dev = run;
	if (loc == ACL_LOC_UNREG)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "devPtr=%p is neither device nor acl host memory",
			       p);
	if (loc == ACL_LOC_HOST) {
		if (x->dev)
			acl_xfer_host(x, p, false);
		else
			x->tmpl.dst = (uintptr_t)p;
		return ACL_SUCCESS;
	}
	ret = acl_xfer_dev_side("devPtr", p, dev, loc, &x->dev);
	if (!ret)
		x->tmpl.dst = acl_dev_addr(dev, p);
	return ret;
}

static aclError acl_memset_checks(const void *devPtr, size_t maxCount,
				  size_t count)
{
	if (!devPtr)
		return acl_err(ACL_ERROR_INVALID_PARAM, "devPtr is NULL");
	if (count > maxCount)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "count=%zu does not fit maxCount=%zu", count,
			       maxCount);
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtMemset(void *devPtr, size_t maxCount,
					 int32_t value, size_t count)
{
	struct acl_work w;
	struct acl_xfer x;
	aclError ret;

	ACL_ENTER();
	if (!count)
		return ACL_SUCCESS;
	ret = acl_memset_checks(devPtr, maxCount, count);
	if (ret)
		return ret;
	ret = acl_sync_allowed("memset");
	if (ret)
		return ret;
	ret = acl_plan_fill(&x, devPtr, value, count, NULL);
	if (ret)
		return ret;
	if (!x.dev) {
		memset(devPtr, (uint8_t)value, count);	/* acl host memory */
		return ACL_SUCCESS;
	}
	w = acl_work_xfer(&x);
	return acl_submit_sync(x.dev, &w);
}

ACL_FUNC_VISIBILITY aclError aclrtMemsetAsync(void *devPtr, size_t maxCount,
					      int32_t value, size_t count,
					      aclrtStream stream)
{
	struct acl_stream *s;
	struct acl_work w;
	struct acl_xfer x;
	aclError ret;

	ACL_ENTER();
	if (!count)
		return ACL_SUCCESS;
	ret = acl_memset_checks(devPtr, maxCount, count);
	if (ret)
		return ret;
	s = acl_stream_for_task(stream, &ret);
	if (!s)
		return ret;
	ret = acl_plan_fill(&x, devPtr, value, count, s->ctx->dev);
	if (ret)
		return ret;
	w = acl_work_xfer(&x);
	return acl_submit_async(s, &w);
}
