// SPDX-License-Identifier: MIT
/*
 * libacl: 32-bit fills, aclrtMemsetD32(Async) (ACL_API.md 4.12).
 *
 * Device memory gets FILL descriptors with a 4-byte pattern, on a
 * library ring (synchronous call) or on the stream. acl host memory is
 * filled by the CPU, at once, in both calls, as CANN does; any other
 * host memory is refused, and so is a fill running past the end of the
 * acl host memory it starts in (memSize is only the caller's word).
 *
 * CANN's acl layer turns a 207000 of its runtime (D32 unsupported by the
 * chip) into success. Every engine here fills 32-bit patterns; the one
 * 207000 these calls give is memory of an NPU that is not a peer of the
 * stream's, which was not filled: it is returned, not hidden.
 */
#include <stdint.h>

#include "acl_objects.h"
#include "acl_error.h"
#include "acl_stream.h"
#include "acl_mem.h"
#include "acl_copy.h"
#include "acl_submit.h"

/*
 * The checks of the acl edge, all 100000, after N == 0 (*@skip: nothing
 * to do); @loc gets the pointer class.
 */
static aclError acl_d32_checks(void *ptr, size_t memSize, size_t N,
			       enum acl_loc *loc, bool *skip)
{
	struct acl_device *dev;

	*skip = !N;
	if (*skip)
		return ACL_SUCCESS;
	if (!ptr)
		return acl_err(ACL_ERROR_INVALID_PARAM, "ptr is NULL");
	if ((uintptr_t)ptr % sizeof(uint32_t))
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "ptr=%p is not 4-byte aligned", ptr);
	if (N > memSize / sizeof(uint32_t))
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "N=%zu words do not fit memSize=%zu", N, memSize);
	*loc = acl_classify(ptr, &dev);
	if (*loc == ACL_LOC_UNREG)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "ptr=%p is neither aclrtMalloc nor aclrtMallocHost "
			       "memory", ptr);
	/* The CPU fills host memory: memSize is the caller's word, not a bound. */
	if (*loc == ACL_LOC_HOST && !acl_host_is_acl(ptr, N * sizeof(uint32_t)))
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "ptr=%p N=%zu: the words run past the end of its "
			       "acl host memory", ptr, N);
	return ACL_SUCCESS;
}

static void acl_d32_host(void *ptr, uint32_t value, size_t N)
{
	uint32_t *p = ptr;
	size_t i;

	for (i = 0; i < N; i++)
		p[i] = value;
}

/* Plan the fill of device memory on @run (NULL: the memory's NPU). */
static aclError acl_plan_d32(struct acl_xfer *x, void *ptr, uint32_t value,
			     size_t N, struct acl_device *run)
{
	aclError ret = acl_plan_fill(x, ptr, 0, N * sizeof(uint32_t), run);

	x->tmpl.fill_size = sizeof(uint32_t);
	x->tmpl.value = value;
	return ret;
}

ACL_FUNC_VISIBILITY aclError aclrtMemsetD32(void *ptr, size_t memSize,
					    uint32_t value, size_t N)
{
	struct acl_work w;
	struct acl_xfer x;
	enum acl_loc loc;
	aclError ret;
	bool skip;

	ACL_ENTER();
	ret = acl_d32_checks(ptr, memSize, N, &loc, &skip);
	if (!ret && !skip)
		ret = acl_sync_allowed("memset");
	if (ret || skip)
		return ret;
	if (loc == ACL_LOC_HOST) {
		acl_d32_host(ptr, value, N);
		return ACL_SUCCESS;
	}
	ret = acl_plan_d32(&x, ptr, value, N, NULL);
	if (ret)
		return ret;
	w = acl_work_xfer(&x);
	return acl_submit_sync(x.dev, &w);
}

ACL_FUNC_VISIBILITY aclError aclrtMemsetD32Async(void *ptr, size_t memSize,
						 uint32_t value, size_t N,
						 aclrtStream stream)
{
	struct acl_stream *s;
	struct acl_work w;
	struct acl_xfer x;
	enum acl_loc loc;
	aclError ret;
	bool skip;

	ACL_ENTER();
	ret = acl_d32_checks(ptr, memSize, N, &loc, &skip);
	if (ret || skip)
		return ret;
	s = acl_stream_for_task(stream, &ret);
	if (!s)
		return ret;
	if (loc == ACL_LOC_HOST) {
		acl_d32_host(ptr, value, N);
		return ACL_SUCCESS;
	}
	ret = acl_plan_d32(&x, ptr, value, N, s->ctx->dev);
	if (ret)
		return ret;
	w = acl_work_xfer(&x);
	return acl_submit_async(s, &w);
}
