// SPDX-License-Identifier: MIT
/*
 * libacl: stream control and stream settings. Failure mode, stop and
 * abort, stream attributes, stream-config handles and
 * aclrtCreateStreamV2(), the default-stream and priority-range queries,
 * and the stream-state hooks.
 *
 * Priorities (0 highest ... 7 lowest, CANN's range) go to the driver,
 * whose channel arbitration serves the queue of highest priority first
 * (DRM_IOCTL_NPU_DMA_QUEUE_CTL); stop and abort are the driver's too.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "acl_objects.h"
#include "acl_error.h"
#include "acl_ring.h"
#include "acl_device.h"
#include "acl_stream.h"
#include "acl_htask.h"

/* CANN's range: RT_STREAM_GREATEST_PRIORITY 0, RT_STREAM_LEAST_PRIORITY 7. */
#define ACL_PRIO_GREATEST	0
#define ACL_PRIO_LEAST		7

/* ---- failure mode ---------------------------------------------------- */

static bool acl_stream_stop_mode(const struct acl_stream *s)
{
	return __atomic_load_n(&s->fail_mode, __ATOMIC_RELAXED) ==
	       ACL_STOP_ON_FAILURE ||
	       __atomic_load_n(&s->ctx->stop_on_failure, __ATOMIC_RELAXED);
}

aclError acl_stream_check_stopped(struct acl_stream *s)
{
	aclError host;
	bool fresh;
	int err;

	if (!acl_stream_stop_mode(s))
		return ACL_SUCCESS;
	/* A failed host task (a timed-out event wait) stops it too. */
	host = acl_hostq_failed(s);
	/* Failures before the last abort are over: it made the stream usable. */
	fresh = acl_ring_error_count(s->ring) !=
		__atomic_load_n(&s->errors_base, __ATOMIC_RELAXED);
	if (host && !fresh)
		return acl_err(host, "stream %d stopped on failure "
			       "(ACL_STOP_ON_FAILURE): a wait for an event timed "
			       "out, new work is refused", s->id);
	if (!fresh)
		return ACL_SUCCESS;
	err = acl_ring_last_error(s->ring);
	return acl_err(acl_errno_to_acl(err ? err : -EIO),
		       "stream %d stopped on failure (ACL_STOP_ON_FAILURE): a "
		       "task failed (%s), new work is refused", s->id,
		       strerror(err ? -err : EIO));
}

/*
 * The stream a setting applies to: a live one of the current context
 * (NULL: its default stream).
 */
static struct acl_stream *acl_stream_own(aclrtStream stream, aclError *ret)
{
	struct acl_stream *s = acl_stream_lookup(stream, ret);
	struct acl_context *ctx;

	if (!s)
		return NULL;
	ctx = acl_current_ctx();
	if (!ctx) {
		*ret = ACL_ERROR_RT_CONTEXT_NULL;
		return NULL;
	}
	if (s->ctx != ctx) {
		*ret = acl_err(ACL_ERROR_RT_STREAM_CONTEXT,
			       "stream=%p is not of the current context %p",
			       stream, (void *)ctx);
		return NULL;
	}
	return s;
}

static aclError acl_set_failure_mode(aclrtStream stream, uint64_t mode)
{
	struct acl_stream *s;
	aclError ret;
	uint64_t cur;

	s = acl_stream_own(stream, &ret);
	if (!s)
		return ret;
	/* CANN looks at bit 0 only: 2 is CONTINUE, 3 is STOP. */
	mode &= ACL_STOP_ON_FAILURE;
	cur = __atomic_load_n(&s->fail_mode, __ATOMIC_RELAXED);
	if (cur == mode)
		return ACL_SUCCESS;
	if (cur == ACL_STOP_ON_FAILURE)
		return acl_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
			       "stream %d: mode=%llu: a stream in "
			       "ACL_STOP_ON_FAILURE cannot go back to "
			       "ACL_CONTINUE_ON_FAILURE", s->id,
			       (unsigned long long)mode);
	__atomic_store_n(&s->fail_mode, mode, __ATOMIC_RELAXED);
	/* As CANN: STOP on one stream puts the whole context in STOP. */
	__atomic_store_n(&s->ctx->stop_on_failure, true, __ATOMIC_RELAXED);
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtSetStreamFailureMode(aclrtStream stream,
						       uint64_t mode)
{
	ACL_ENTER();
	return acl_set_failure_mode(stream, mode);
}

/* ---- stop and abort -------------------------------------------------- */

aclError acl_stream_apply_priority(struct acl_stream *s)
{
	int err;

	if (!(s->ctx->dev->info.caps & NPU_DMA_CAP_QUEUE_CTL))
		return ACL_SUCCESS;	/* an older driver: stored only */
	err = acl_ring_ctl(s->ring, NPU_DMA_QUEUE_CTL_SET_PRIORITY, s->priority);
	if (err)
		return acl_err_sys(err, "DRM_IOCTL_NPU_DMA_QUEUE_CTL "
				   "(SET_PRIORITY)");
	return ACL_SUCCESS;
}

/*
 * The stream stop or abort applies to: a created stream of the current
 * context, not capturing, on a driver that has QUEUE_CTL.
 */
static struct acl_stream *acl_stream_ctl_target(aclrtStream stream,
						const char *what,
						aclError *ret)
{
	struct acl_stream *s;

	if (!stream) {
		*ret = acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "stream is NULL (the default stream cannot be "
			       "%s)", what);
		return NULL;
	}
	s = acl_stream_own(stream, ret);
	if (!s)
		return NULL;
	if (acl_stream_capturing(s)) {
		*ret = acl_stream_captured_err(s);
		return NULL;
	}
	if (!(s->ctx->dev->info.caps & NPU_DMA_CAP_QUEUE_CTL)) {
		*ret = acl_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
			       "stream %d cannot be %s: the npu_dma driver has "
			       "no QUEUE_CTL", s->id, what);
		return NULL;
	}
	return s;
}

/*
 * Stop: the driver starts none of the stream's queued tasks any more
 * and returns once none runs; synchronizing it then gives 507000 (the
 * queue says it is stopped, see acl_ring_wait()).
 */
ACL_FUNC_VISIBILITY aclError aclrtStreamStop(aclrtStream stream)
{
	struct acl_stream *s;
	aclError ret;
	int err;

	ACL_ENTER();
	s = acl_stream_ctl_target(stream, "stopped", &ret);
	if (!s)
		return ret;
	err = acl_ring_ctl(s->ring, NPU_DMA_QUEUE_CTL_STOP, 0);
	if (err)
		return acl_err_sys(err, "DRM_IOCTL_NPU_DMA_QUEUE_CTL (STOP)");
	return ACL_SUCCESS;
}

/*
 * Abort: the driver drops every task queued on the stream, its host
 * tasks included (their barriers complete cancelled, so the host part
 * never runs), and the stream runs again. The cancellations are no
 * failures of the stream's own (a stream in ACL_STOP_ON_FAILURE takes
 * new work again); its next synchronize reports the abort, 107023.
 */
ACL_FUNC_VISIBILITY aclError aclrtStreamAbort(aclrtStream stream)
{
	struct acl_stream *s;
	aclError ret;
	int err;

	ACL_ENTER();
	s = acl_stream_ctl_target(stream, "aborted", &ret);
	if (!s)
		return ret;
	pthread_mutex_lock(&s->ring->lock);
	err = acl_ring_ctl(s->ring, NPU_DMA_QUEUE_CTL_ABORT, 0);
	if (!err)
		acl_hostq_abandon_locked(s);
	pthread_mutex_unlock(&s->ring->lock);
	if (err)
		return acl_err_sys(err, "DRM_IOCTL_NPU_DMA_QUEUE_CTL (ABORT)");
	__atomic_store_n(&s->errors_base, acl_ring_error_count(s->ring),
			 __ATOMIC_RELAXED);
	__atomic_store_n(&s->errors_seen, acl_ring_error_count(s->ring),
			 __ATOMIC_RELAXED);
	acl_hostq_forgive(s);
	__atomic_store_n(&s->aborted, true, __ATOMIC_RELEASE);
	return ACL_SUCCESS;
}

/* ---- attributes ------------------------------------------------------ */

static aclError acl_check_switch(uint32_t v, const char *name)
{
	if (v <= 1)
		return ACL_SUCCESS;
	return acl_err(ACL_ERROR_RT_PARAM_INVALID, "%s=%u: must be 0 or 1",
		       name, v);
}

static aclError acl_stream_attr_set(struct acl_stream *s, aclrtStreamAttr a,
				    const aclrtStreamAttrValue *v)
{
	aclError ret;

	switch (a) {
	case ACL_STREAM_ATTR_FAILURE_MODE:
		return acl_set_failure_mode(s, v->failureMode);
	case ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK:
		ret = acl_check_switch(v->overflowSwitch, "overflowSwitch");
		if (!ret)
			s->overflow = v->overflowSwitch;
		return ret;
	case ACL_STREAM_ATTR_USER_CUSTOM_TAG:
		s->tag = v->userCustomTag;
		return ACL_SUCCESS;
	case ACL_STREAM_ATTR_CACHE_OP_INFO:
		ret = acl_check_switch(v->cacheOpInfoSwitch,
				       "cacheOpInfoSwitch");
		if (!ret)
			s->cache_op = v->cacheOpInfoSwitch;
		return ret;
	case ACL_STREAM_ATTR_PRIORITY:
		if (v->streamPriority > ACL_PRIO_LEAST)
			return acl_err(ACL_ERROR_RT_PARAM_INVALID,
				       "streamPriority=%u: must be in [%d, %d]",
				       v->streamPriority, ACL_PRIO_GREATEST,
				       ACL_PRIO_LEAST);
		s->priority = v->streamPriority;
		return acl_stream_apply_priority(s);
	}
	return acl_err(ACL_ERROR_RT_PARAM_INVALID,
		       "stmAttrType=%d: must be in [%d, %d]", (int)a,
		       ACL_STREAM_ATTR_FAILURE_MODE, ACL_STREAM_ATTR_PRIORITY);
}

static aclError acl_stream_attr_get(const struct acl_stream *s,
				    aclrtStreamAttr a, aclrtStreamAttrValue *v)
{
	switch (a) {
	case ACL_STREAM_ATTR_FAILURE_MODE:
		v->failureMode = __atomic_load_n(&s->fail_mode,
						 __ATOMIC_RELAXED);
		return ACL_SUCCESS;
	case ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK:
		v->overflowSwitch = s->overflow;
		return ACL_SUCCESS;
	case ACL_STREAM_ATTR_USER_CUSTOM_TAG:
		v->userCustomTag = s->tag;
		return ACL_SUCCESS;
	case ACL_STREAM_ATTR_CACHE_OP_INFO:
		v->cacheOpInfoSwitch = s->cache_op;
		return ACL_SUCCESS;
	case ACL_STREAM_ATTR_PRIORITY:
		v->streamPriority = s->priority;
		return ACL_SUCCESS;
	}
	return acl_err(ACL_ERROR_RT_PARAM_INVALID,
		       "stmAttrType=%d: must be in [%d, %d]", (int)a,
		       ACL_STREAM_ATTR_FAILURE_MODE, ACL_STREAM_ATTR_PRIORITY);
}

ACL_FUNC_VISIBILITY aclError
aclrtSetStreamAttribute(aclrtStream stream, aclrtStreamAttr stmAttrType,
			aclrtStreamAttrValue *value)
{
	struct acl_stream *s;
	aclError ret;

	ACL_ENTER();
	if (!value)
		return acl_err(ACL_ERROR_INVALID_PARAM, "value is NULL");
	s = acl_stream_own(stream, &ret);
	if (!s)
		return ret;
	return acl_stream_attr_set(s, stmAttrType, value);
}

ACL_FUNC_VISIBILITY aclError
aclrtGetStreamAttribute(aclrtStream stream, aclrtStreamAttr stmAttrType,
			aclrtStreamAttrValue *value)
{
	struct acl_stream *s;
	aclError ret;

	ACL_ENTER();
	if (!value)
		return acl_err(ACL_ERROR_INVALID_PARAM, "value is NULL");
	s = acl_stream_lookup(stream, &ret);
	if (!s)
		return ret;
	return acl_stream_attr_get(s, stmAttrType, value);
}

/* ---- config handles and aclrtCreateStreamV2 -------------------------- */

ACL_FUNC_VISIBILITY aclrtStreamConfigHandle *
aclrtCreateStreamConfigHandle(void)
{
	aclrtStreamConfigHandle *h;

	ACL_ENTER();
	h = calloc(1, sizeof(*h));
	if (!h)
		acl_err(ACL_ERROR_BAD_ALLOC, "no memory for a config handle");
	return h;
}

ACL_FUNC_VISIBILITY aclError
aclrtDestroyStreamConfigHandle(aclrtStreamConfigHandle *handle)
{
	ACL_ENTER();
	if (!handle)
		return acl_err(ACL_ERROR_INVALID_PARAM, "handle is NULL");
	free(handle);
	return ACL_SUCCESS;
}

/* The value of @attr must be exactly @want bytes, as CANN checks. */
static aclError acl_check_size(size_t size, size_t want, int attr)
{
	if (size == want)
		return ACL_SUCCESS;
	return acl_err(ACL_ERROR_INVALID_PARAM,
		       "attr=%d: valueSize=%zu, must be %zu", attr, size, want);
}

ACL_FUNC_VISIBILITY aclError
aclrtSetStreamConfigOpt(aclrtStreamConfigHandle *handle,
			aclrtStreamConfigAttr attr, const void *attrValue,
			size_t valueSize)
{
	uint32_t prio;
	aclError ret;

	ACL_ENTER();
	if (!handle)
		return acl_err(ACL_ERROR_INVALID_PARAM, "handle is NULL");
	if (!attrValue)
		return acl_err(ACL_ERROR_INVALID_PARAM, "attrValue is NULL");
	switch (attr) {
	case ACL_RT_STREAM_WORK_ADDR_PTR:
		ret = acl_check_size(valueSize, sizeof(void *), attr);
		if (!ret)
			memcpy(&handle->workptr, attrValue, sizeof(void *));
		return ret;
	case ACL_RT_STREAM_WORK_SIZE:
		ret = acl_check_size(valueSize, sizeof(size_t), attr);
		if (!ret)
			memcpy(&handle->workSize, attrValue, sizeof(size_t));
		return ret;
	case ACL_RT_STREAM_FLAG:
		ret = acl_check_size(valueSize, sizeof(size_t), attr);
		if (!ret)
			memcpy(&handle->flag, attrValue, sizeof(size_t));
		return ret;
	case ACL_RT_STREAM_PRIORITY:
		ret = acl_check_size(valueSize, sizeof(uint32_t), attr);
		if (ret)
			return ret;
		memcpy(&prio, attrValue, sizeof(prio));
		/* Unlike aclrtCreateStreamWithConfig(), CANN rejects here. */
		if (prio > ACL_PRIO_LEAST)
			return acl_err(ACL_ERROR_INVALID_PARAM,
				       "priority=%u: must be in [%d, %d]", prio,
				       ACL_PRIO_GREATEST, ACL_PRIO_LEAST);
		handle->priority = prio;
		return ACL_SUCCESS;
	}
	return acl_err(ACL_ERROR_INVALID_PARAM, "attr=%d: must be in [%d, %d]",
		       (int)attr, ACL_RT_STREAM_WORK_ADDR_PTR,
		       ACL_RT_STREAM_PRIORITY);
}

ACL_FUNC_VISIBILITY aclError
aclrtCreateStreamV2(aclrtStream *stream, const aclrtStreamConfigHandle *handle)
{
	ACL_ENTER();
	if (!stream)
		return acl_err(ACL_ERROR_INVALID_PARAM, "stream is NULL");
	/* No handle: a plain stream, as CANN's zeroed default config. */
	if (!handle)
		return acl_create_stream(stream, 0, 0);
	/* Our flags are 32-bit: a wider value is no ACL_STREAM_* mask. */
	if (handle->flag > UINT32_MAX)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "handle->flag=%#zx: not a 32-bit ACL_STREAM_* "
			       "mask", handle->flag);
	/* The work buffer is for CANN's task memory; queues need none. */
	return acl_create_stream(stream, handle->priority,
				 (uint32_t)handle->flag);
}

/* ---- queries --------------------------------------------------------- */

ACL_FUNC_VISIBILITY aclError
aclrtCtxGetCurrentDefaultStream(aclrtStream *stream)
{
	struct acl_context *ctx;

	ACL_ENTER();
	if (!stream)
		return acl_err(ACL_ERROR_INVALID_PARAM, "stream is NULL");
	ctx = acl_current_ctx();
	if (!ctx)
		return ACL_ERROR_RT_CONTEXT_NULL;
	*stream = ctx->defstream;
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError
aclrtDeviceGetStreamPriorityRange(int32_t *leastPriority,
				  int32_t *greatestPriority)
{
	ACL_ENTER();
	/* CANN fills what it is given; both NULL is not an error. */
	if (leastPriority)
		*leastPriority = ACL_PRIO_LEAST;
	if (greatestPriority)
		*greatestPriority = ACL_PRIO_GREATEST;
	return ACL_SUCCESS;
}
