// SPDX-License-Identifier: MIT
/*
 * libacl: 2-D copies (ACL_API.md 4.9): @height rows of @width bytes, row
 * i from src + i * spitch to dst + i * dpitch.
 *
 * The copy is planned like a 1-D one of @width bytes (pointer classes,
 * kind rules, NPU), then becomes one strided COPY_2D descriptor: the
 * engine walks the rows, so the cost does not grow with a descriptor
 * per row. Only a height above the driver's max_2d_height (1 Mi rows,
 * CANN allows 5 Mi) is cut into several COPY_2D descriptors, all in one
 * submission.
 */
#include <string.h>

#include "acl_objects.h"
#include "acl_error.h"
#include "acl_stream.h"
#include "acl_mem.h"
#include "acl_copy.h"
#include "acl_submit.h"

#define ACL_2D_MAX_HEIGHT	5242880UL	/* CANN's limits */
#define ACL_2D_MAX_WIDTH	5000000UL
#define ACL_2D_MAX_DESCS	8		/* 5 Mi rows / 1 Mi per descriptor */

struct acl_2d {
	struct acl_xfer x;		/* tmpl is the first COPY_2D */
	uint64_t height;
};

/* The checks of the acl edge: 100000. */
static aclError acl_2d_edge(const void *dst, size_t dpitch, const void *src,
			    size_t spitch, size_t width, aclrtMemcpyKind kind)
{
	if (!dst || !src)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "dst=%p src=%p: neither may be NULL", dst, src);
	if (width > spitch || width > dpitch)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "width=%zu exceeds spitch=%zu or dpitch=%zu",
			       width, spitch, dpitch);
	if (kind != ACL_MEMCPY_HOST_TO_DEVICE &&
	    kind != ACL_MEMCPY_DEVICE_TO_HOST &&
	    kind != ACL_MEMCPY_DEVICE_TO_DEVICE && kind != ACL_MEMCPY_DEFAULT)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "kind=%d (%s) is not allowed for 2-D copies",
			       (int)kind, acl_kind_name(kind));
	return ACL_SUCCESS;
}

/* The runtime's limits: 107000. */
static aclError acl_2d_limits(size_t width, size_t height)
{
	if (height > ACL_2D_MAX_HEIGHT)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "height=%zu exceeds %lu", height,
			       ACL_2D_MAX_HEIGHT);
	if (width > ACL_2D_MAX_WIDTH)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "width=%zu exceeds %lu", width, ACL_2D_MAX_WIDTH);
	return ACL_SUCCESS;
}

/* The kind a planned copy performs. */
static aclrtMemcpyKind acl_xfer_kind(const struct acl_xfer *x)
{
	if (!x->dev)
		return ACL_MEMCPY_HOST_TO_HOST;
	if (x->tmpl.flags & NPU_DMA_DESC_F_SRC_HOST)
		return ACL_MEMCPY_HOST_TO_DEVICE;
	if (x->tmpl.flags & NPU_DMA_DESC_F_DST_HOST)
		return ACL_MEMCPY_DEVICE_TO_HOST;
	return ACL_MEMCPY_DEVICE_TO_DEVICE;
}

/*
 * The host side of a 2-D copy is pinned only if its whole extent lies in
 * one registered region (the 1-D plan looked at the first row only).
 */
static void acl_2d_host(struct acl_xfer *x, const void *p, uint64_t extent,
			bool is_src)
{
	uint16_t host = is_src ? NPU_DMA_DESC_F_SRC_HOST : NPU_DMA_DESC_F_DST_HOST;
	uint16_t pg = is_src ? NPU_DMA_DESC_F_SRC_PAGEABLE :
			       NPU_DMA_DESC_F_DST_PAGEABLE;

	if (!(x->tmpl.flags & host))
		return;
	x->tmpl.flags &= (uint16_t)~pg;
	if (!acl_host_pinned_on(x->dev, p, extent))
		x->tmpl.flags |= pg;
	x->pageable = x->tmpl.flags & (NPU_DMA_DESC_F_SRC_PAGEABLE |
				       NPU_DMA_DESC_F_DST_PAGEABLE);
}

static aclError acl_plan_2d(struct acl_2d *c, void *dst, size_t dpitch,
			    const void *src, size_t spitch, size_t width,
			    size_t height, aclrtMemcpyKind kind,
			    struct acl_device *run)
{
	uint64_t sext = (uint64_t)(height - 1) * spitch + width;
	uint64_t dext = (uint64_t)(height - 1) * dpitch + width;
	aclError ret = acl_plan_copy(&c->x, dst, src, width, kind, run);

	if (ret || !c->x.dev)
		return ret;
	/* height <= 5 Mi and pitches < 2^64 / 5 Mi: no overflow above. */
	if (spitch > c->x.dev->info.max_2d_pitch ||
	    dpitch > c->x.dev->info.max_2d_pitch)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "spitch=%zu or dpitch=%zu exceeds device %d's "
			       "limit %llu", spitch, dpitch, c->x.dev->id,
			       (unsigned long long)c->x.dev->info.max_2d_pitch);
	c->height = height;
	c->x.tmpl.opcode = NPU_DMA_OP_COPY_2D;
	c->x.tmpl.len = width;
	c->x.tmpl.src_pitch = spitch;
	c->x.tmpl.dst_pitch = dpitch;
	acl_2d_host(&c->x, src, sext, true);
	acl_2d_host(&c->x, dst, dext, false);
	return ACL_SUCCESS;
}

/*
 * The COPY_2D descriptors of a planned copy, at most ACL_2D_MAX_DESCS
 * (enough for CANN's 5 Mi rows at the driver's 1 Mi a descriptor; a
 * driver with a smaller limit cannot take the tallest copies): how many
 * were written, or 0 (error recorded).
 */
static size_t acl_2d_descs(const struct acl_2d *c, struct npu_dma_desc *d)
{
	uint64_t max = c->x.dev->info.max_2d_height ?
		       c->x.dev->info.max_2d_height : ACL_2D_MAX_HEIGHT;
	uint64_t row = 0;
	size_t n = 0;

	if (c->height > max * ACL_2D_MAX_DESCS) {
		acl_err(ACL_ERROR_RT_PARAM_INVALID,
			"height=%llu: device %d takes at most %llu rows in %d "
			"descriptors", (unsigned long long)c->height,
			c->x.dev->id, (unsigned long long)(max * ACL_2D_MAX_DESCS),
			ACL_2D_MAX_DESCS);
		return 0;
	}
	while (row < c->height) {
		uint64_t rows = c->height - row < max ? c->height - row : max;

		d[n] = c->x.tmpl;
		d[n].height = (uint32_t)rows;
		d[n].src += row * c->x.tmpl.src_pitch;
		d[n].dst += row * c->x.tmpl.dst_pitch;
		row += rows;
		n++;
	}
	return n;
}

/* Checks both calls share; *@skip when there is nothing to do. */
static aclError acl_2d_checks(void *dst, size_t dpitch, const void *src,
			      size_t spitch, size_t width, size_t height,
			      aclrtMemcpyKind kind, bool *skip)
{
	aclError ret;

	*skip = !width || !height;
	if (*skip)
		return ACL_SUCCESS;
	ret = acl_2d_edge(dst, dpitch, src, spitch, width, kind);
	if (!ret)
		ret = acl_2d_limits(width, height);
	return ret;
}

ACL_FUNC_VISIBILITY aclError aclrtMemcpy2d(void *dst, size_t dpitch,
					   const void *src, size_t spitch,
					   size_t width, size_t height,
					   aclrtMemcpyKind kind)
{
	struct npu_dma_desc d[ACL_2D_MAX_DESCS];
	struct acl_2d c;
	aclrtMemcpyKind k;
	aclError ret;
	struct acl_work w;
	size_t n;
	bool skip;

	ACL_ENTER();
	ret = acl_2d_checks(dst, dpitch, src, spitch, width, height, kind, &skip);
	if (ret || skip)
		return ret;
	ret = acl_sync_allowed("2-D copy");
	if (ret)
		return ret;
	if (kind == ACL_MEMCPY_DEVICE_TO_DEVICE)
		return acl_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
			       "kind=%s: synchronous 2-D copies are H2D or D2H "
			       "only", acl_kind_name(kind));
	ret = acl_plan_2d(&c, dst, dpitch, src, spitch, width, height, kind,
			  NULL);
	if (ret)
		return ret;
	k = acl_xfer_kind(&c.x);
	if (k != ACL_MEMCPY_HOST_TO_DEVICE && k != ACL_MEMCPY_DEVICE_TO_HOST)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "dst=%p src=%p make a %s copy; synchronous 2-D "
			       "copies are H2D or D2H only", dst, src,
			       acl_kind_name(k));
	n = acl_2d_descs(&c, d);
	if (!n)
		return ACL_ERROR_RT_PARAM_INVALID;
	w = acl_work_descs(d, n);
	return acl_submit_sync(c.x.dev, &w);
}

ACL_FUNC_VISIBILITY aclError aclrtMemcpy2dAsync(void *dst, size_t dpitch,
						const void *src, size_t spitch,
						size_t width, size_t height,
						aclrtMemcpyKind kind,
						aclrtStream stream)
{
	struct npu_dma_desc d[ACL_2D_MAX_DESCS];
	struct acl_stream *s;
	struct acl_2d c;
	aclError ret;
	struct acl_work w;
	size_t n;
	bool skip;

	ACL_ENTER();
	ret = acl_2d_checks(dst, dpitch, src, spitch, width, height, kind, &skip);
	if (ret || skip)
		return ret;
	s = acl_stream_for_task(stream, &ret);
	if (!s)
		return ret;
	ret = acl_plan_2d(&c, dst, dpitch, src, spitch, width, height, kind,
			  s->ctx->dev);
	if (ret)
		return ret;
	if (!c.x.dev)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "dst=%p src=%p make a host-to-host copy; "
			       "asynchronous 2-D copies are H2D, D2H or D2D",
			       dst, src);
	n = acl_2d_descs(&c, d);
	if (!n)
		return ACL_ERROR_RT_PARAM_INVALID;
	w = acl_work_descs(d, n);
	w.pageable = c.x.pageable;
	return acl_submit_async(s, &w);
}
