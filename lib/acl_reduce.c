// SPDX-License-Identifier: MIT
/*
 * libacl: aclrtReduceAsync, dst[i] = op(dst[i], src[i]) over count bytes
 * of elements, done by the stream's NPU while it copies (one REDUCE
 * descriptor, include/uapi/drm/npu_dma_accel.h).
 *
 * CANN's constraints are kept: both pointers are device memory of the
 * stream's NPU, reserve is NULL, count is in bytes. CANN's boards take
 * SUM, MAX and MIN over int8, int16, int32, uint32 (950), fp16, fp32 and
 * bf16; uint8 and uint16 cost nothing more and are taken too. EQUAL has
 * no documented result, so it is refused rather than guessed, as is an
 * NPU whose engine cannot reduce (edu): 207000. The driver's arithmetic
 * (integer sums wrap, floats round to nearest even, NaN results are
 * the default quiet NaN) is described in Documentation/libacl.rst.
 */
#include <stdint.h>

#include "acl_objects.h"
#include "acl_error.h"
#include "acl_device.h"
#include "acl_stream.h"
#include "acl_mem.h"
#include "acl_copy.h"
#include "acl_submit.h"

/* The driver's operation for @kind, or -1 with the error recorded in *@ret. */
static int acl_reduce_op(aclrtReduceKind kind, aclError *ret)
{
	switch (kind) {
	case ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM:
		return NPU_DMA_REDUCE_OP_SUM;
	case ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX:
		return NPU_DMA_REDUCE_OP_MAX;
	case ACL_RT_MEMCPY_SDMA_AUTOMATIC_MIN:
		return NPU_DMA_REDUCE_OP_MIN;
	case ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL:
		*ret = acl_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
			       "kind=ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL is not "
			       "supported (SUM, MAX and MIN are)");
		return -1;
	default:
		*ret = acl_err(ACL_ERROR_INVALID_PARAM,
			       "kind=%d is not an aclrtReduceKind", (int)kind);
		return -1;
	}
}

/* The driver's element type for @type, or -1 with the error recorded. */
static int acl_reduce_type(aclDataType type, aclError *ret)
{
	switch (type) {
	case ACL_INT8:
		return NPU_DMA_REDUCE_T_S8;
	case ACL_UINT8:
		return NPU_DMA_REDUCE_T_U8;
	case ACL_INT16:
		return NPU_DMA_REDUCE_T_S16;
	case ACL_UINT16:
		return NPU_DMA_REDUCE_T_U16;
	case ACL_INT32:
		return NPU_DMA_REDUCE_T_S32;
	case ACL_UINT32:
		return NPU_DMA_REDUCE_T_U32;
	case ACL_FLOAT16:
		return NPU_DMA_REDUCE_T_F16;
	case ACL_BF16:
		return NPU_DMA_REDUCE_T_BF16;
	case ACL_FLOAT:
		return NPU_DMA_REDUCE_T_F32;
	default:
		*ret = acl_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
			       "type=%d is not supported (ACL_INT8, ACL_UINT8, "
			       "ACL_INT16, ACL_UINT16, ACL_INT32, ACL_UINT32, "
			       "ACL_FLOAT16, ACL_BF16, ACL_FLOAT are)", (int)type);
		return -1;
	}
}

/* What the caller passed, before the stream: 100000 or 107000. */
static aclError acl_reduce_args(void *dst, const void *src, uint64_t count,
				size_t size, void *reserve)
{
	if (!dst || !src)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "dst=%p src=%p: neither may be NULL", dst, src);
	if (reserve)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "reserve=%p must be NULL", reserve);
	if (count % size)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "count=%llu is not a multiple of the %zu-byte "
			       "element", (unsigned long long)count, size);
	if ((uintptr_t)dst % size || (uintptr_t)src % size)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "dst=%p src=%p: both must be %zu-byte aligned",
			       dst, src, size);
	return ACL_SUCCESS;
}

/* Both pointers on @s's NPU, which must be able to reduce. */
static aclError acl_reduce_where(struct acl_stream *s, void *dst,
				 const void *src)
{
	struct acl_device *dev = s->ctx->dev;
	aclError ret;

	ret = acl_devptr_check("dst", dst, &dev);
	if (!ret)
		ret = acl_devptr_check("src", src, &dev);
	if (ret)
		return ret;
	if (!(dev->info.caps & NPU_DMA_CAP_REDUCE))
		return acl_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
			       "device %d's engine cannot reduce", dev->id);
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtReduceAsync(void *dst, const void *src,
					      uint64_t count,
					      aclrtReduceKind kind,
					      aclDataType type,
					      aclrtStream stream, void *reserve)
{
	struct acl_xfer x = { .tmpl.opcode = NPU_DMA_OP_REDUCE, .len = count };
	struct acl_stream *s;
	struct acl_work w;
	aclError ret = ACL_SUCCESS;
	int op, t;

	ACL_ENTER();
	op = acl_reduce_op(kind, &ret);
	t = op < 0 ? -1 : acl_reduce_type(type, &ret);
	if (t < 0)
		return ret;
	ret = acl_reduce_args(dst, src, count, aclDataTypeSize(type), reserve);
	if (ret)
		return ret;
	s = acl_stream_for_task(stream, &ret);
	if (!s)
		return ret;
	ret = acl_reduce_where(s, dst, src);
	if (ret || !count)
		return ret;
	/*
	 * Planned as a transfer: above the driver's max_copy_len (a power
	 * of two, so a whole number of elements) it is cut into several
	 * descriptors, as copies are, all in one call.
	 */
	x.dev = s->ctx->dev;
	x.tmpl.src = acl_dev_addr(x.dev, src);
	x.tmpl.dst = acl_dev_addr(x.dev, dst);
	x.tmpl.value = NPU_DMA_REDUCE_VALUE(op, t);
	w = acl_work_xfer(&x);
	return acl_submit_async(s, &w);
}
