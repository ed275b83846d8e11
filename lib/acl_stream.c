// SPDX-License-Identifier: MIT
/*
 * libacl: streams. A stream is one kernel queue (struct acl_ring): work
 * runs in submission order, several threads may submit to it (the ring
 * lock orders them), and synchronizing is waiting for the sequence
 * number of the last descriptor submitted. A failed descriptor is reported
 * once, by the next synchronize of its stream.
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
#include "acl_capture.h"

/*
 * Most bytes an asynchronous doorbell of an idle stream asks the driver
 * to copy inline: the sizes of the latency table of issue 27 (64 B to
 * 64 KiB), whose round trips are otherwise two wake-ups long.
 */
#define ACL_ASYNC_INLINE_BYTES	(64u << 10)

/* Caller holds ctx->dev->lock. */
struct acl_stream *acl_stream_new(struct acl_context *ctx, uint32_t priority,
				  uint32_t flags, aclError *ret)
{
	struct acl_device *dev = ctx->dev;
	uint32_t entries = ACL_RING_ENTRIES;
	struct acl_stream *s = calloc(1, sizeof(*s));
	int err;

	if (!s) {
		*ret = acl_err(ACL_ERROR_BAD_ALLOC, "no memory for a stream");
		return NULL;
	}
	if (dev->info.max_queue_entries && entries > dev->info.max_queue_entries)
		entries = dev->info.max_queue_entries;
	s->ring = acl_ring_create(dev->fd, entries, &err);
	if (!s->ring) {
		free(s);
		*ret = err == -EBUSY ?
		       acl_err(ACL_ERROR_RT_NO_STREAM_RESOURCE,
			       "device %d: no more queues", dev->id) :
		       acl_err_sys(err, "DRM_IOCTL_NPU_DMA_QUEUE_CREATE");
		return NULL;
	}
	s->ctx = ctx;
	s->flags = flags;
	if (flags & ACL_STREAM_FAST_SYNC)
		acl_ring_set_fast_sync(s->ring);
	/*
	 * Small asynchronous work on an idle stream runs in its doorbell.
	 * Copies only where the CPU copies (sim): an engine that DMAs
	 * would hold the asynchronous caller for its DMA and interrupt
	 * (100 ms of guest time on edu).
	 */
	if (dev->info.caps & NPU_DMA_CAP_SUBMIT_INLINE)
		acl_ring_set_async_inline(s->ring,
					  dev->info.backend == NPU_DMA_BACKEND_SIM ?
					  ACL_ASYNC_INLINE_BYTES : 0);
	/* The same reason: a waiter may run the copy the worker has not started. */
	if ((dev->info.caps & NPU_DMA_CAP_SUBMIT_HELP) &&
	    dev->info.backend == NPU_DMA_BACKEND_SIM)
		acl_ring_set_help(s->ring);
	s->priority = priority > 7 ? 7 : priority;	/* CANN clamps */
	*ret = acl_stream_apply_priority(s);
	if (*ret) {
		acl_ring_put(s->ring);	/* the last reference: destroys the queue */
		free(s);
		return NULL;
	}
	s->id = dev->next_stream_id++;
	s->gen = dev->gen;
	s->magic = ACL_STREAM_MAGIC;
	return s;
}

void acl_stream_free(struct acl_stream *s)
{
	s->magic = 0;
	acl_capture_drop(s);
	/* The runner serves the host tasks the queue still has to pass. */
	acl_ring_shutdown(s->ring);
	acl_hostq_stop(s);
	acl_sub_detach(s);
	acl_ring_put(s->ring);
	free(s);
}

bool acl_stream_capturing(struct acl_stream *s)
{
	return __atomic_load_n(&s->graph, __ATOMIC_ACQUIRE) != NULL;
}

aclError acl_stream_captured_err(struct acl_stream *s)
{
	return acl_err(ACL_ERROR_RT_STREAM_CAPTURED,
		       "stream %d is capturing", s->id);
}

struct acl_stream *acl_stream_lookup(aclrtStream handle, aclError *ret)
{
	struct acl_stream *s = handle;
	struct acl_context *ctx;

	*ret = ACL_SUCCESS;
	if (!handle) {
		ctx = acl_current_ctx();
		if (!ctx) {
			*ret = ACL_ERROR_RT_CONTEXT_NULL;
			return NULL;
		}
		return ctx->defstream;
	}
	/* A stream of the parent (fork) has another gen than its device. */
	if (s->magic != ACL_STREAM_MAGIC || !acl_device_is_open(s->ctx->dev) ||
	    s->gen != s->ctx->dev->gen) {
		*ret = acl_err_stale("stream", handle, s->magic ==
				     ACL_STREAM_MAGIC ? s->gen : 0, "stream");
		return NULL;
	}
	return s;
}

struct acl_stream *acl_stream_for_work(aclrtStream handle, aclError *ret)
{
	struct acl_stream *s = acl_stream_lookup(handle, ret);

	if (s)
		*ret = acl_capture_check_default(s);
	if (s && !*ret)
		*ret = acl_stream_check_stopped(s);
	return *ret ? NULL : s;
}

struct acl_stream *acl_stream_for_task(aclrtStream handle, aclError *ret)
{
	struct acl_stream *s = acl_stream_for_work(handle, ret);
	struct acl_context *ctx;

	if (!s || !handle)
		return s;
	ctx = acl_current_ctx();
	if (!ctx) {
		*ret = acl_err(ACL_ERROR_RT_CONTEXT_NULL,
			       "stream=%p: this thread has no current context "
			       "(aclrtSetDevice or aclrtSetCurrentContext first)",
			       handle);
		return NULL;
	}
	if (s->ctx != ctx) {
		*ret = acl_err(ACL_ERROR_RT_STREAM_CONTEXT,
			       "stream=%p belongs to device %d's context %p, not "
			       "to this thread's current context %p", handle,
			       s->ctx->dev->id, (void *)s->ctx, (void *)ctx);
		return NULL;
	}
	return s;
}

static aclError acl_stream_report(struct acl_stream *s, int err)
{
	return acl_err(acl_errno_to_acl(err),
		       "a task of stream %d on device %d failed: %s", s->id,
		       s->ctx->dev->id, strerror(-err));
}

aclError acl_stream_check_range(struct acl_stream *s, uint64_t first,
				uint64_t last)
{
	int err = acl_ring_error_in(s->ring, first, last);

	if (!err)
		return ACL_SUCCESS;
	/* Reported here, so the next synchronize does not repeat it. */
	__atomic_store_n(&s->errors_seen, acl_ring_error_count(s->ring),
			 __ATOMIC_RELAXED);
	return acl_stream_report(s, err);
}

aclError acl_stream_sync(struct acl_stream *s, int32_t timeout_ms)
{
	uint32_t count, seen;
	uint64_t seq;
	int err;

	/* A host function started early is waited for through its barrier. */
	if (timeout_ms)
		acl_hostq_settle(s);
	err = acl_stream_mark(s, &seq);
	if (err)
		return acl_err_sys(err, "queueing the barrier of a running "
				   "host function");
	err = acl_ring_wait(s->ring, seq, timeout_ms);

	if (err == -ETIMEDOUT)
		return acl_err(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT,
			       "stream %d not done after %d ms", s->id,
			       timeout_ms);
	if (err == -ESHUTDOWN)
		return acl_err(ACL_ERROR_RT_INTERNAL_ERROR,
			       "stream %d is stopped (aclrtStreamStop): its "
			       "queued tasks run no more until aclrtStreamAbort",
			       s->id);
	if (err)
		return acl_err_sys(err, "waiting for the stream");
	/* As CANN: the first synchronize after an abort says so. */
	if (__atomic_exchange_n(&s->aborted, false, __ATOMIC_ACQ_REL))
		return acl_err(ACL_ERROR_RT_STREAM_ABORT,
			       "stream %d was aborted (aclrtStreamAbort): its "
			       "tasks queued then were dropped", s->id);
	count = acl_ring_error_count(s->ring);
	seen = __atomic_exchange_n(&s->errors_seen, count, __ATOMIC_RELAXED);
	if (count != seen)
		return acl_stream_report(s, acl_ring_last_error(s->ring));
	return acl_hostq_failure(s);
}

aclError acl_create_stream(aclrtStream *stream, uint32_t priority,
			   uint32_t flag)
{
	struct acl_context *ctx;
	struct acl_stream *s;
	aclError ret;

	if (!stream)
		return acl_err(ACL_ERROR_INVALID_PARAM, "stream is NULL");
	ctx = acl_current_ctx();
	if (!ctx)
		return ACL_ERROR_RT_CONTEXT_NULL;
	pthread_mutex_lock(&ctx->dev->lock);
	s = acl_stream_new(ctx, priority, flag, &ret);
	if (s) {
		s->next = ctx->streams;
		ctx->streams = s;
	}
	pthread_mutex_unlock(&ctx->dev->lock);
	if (!s)
		return ret;
	*stream = s;
	/* Outside dev->lock: a hook may call back into libacl. */
	acl_stream_notify(s, ACL_RT_STREAM_STATE_CREATE_POST);
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtCreateStream(aclrtStream *stream)
{
	ACL_ENTER();
	return acl_create_stream(stream, 0, 0);
}

ACL_FUNC_VISIBILITY aclError aclrtCreateStreamWithConfig(aclrtStream *stream,
							 uint32_t priority,
							 uint32_t flag)
{
	ACL_ENTER();
	/* Unknown flag bits are ignored, as CANN's acl layer does. */
	return acl_create_stream(stream, priority, flag);
}

static aclError acl_destroy_stream(aclrtStream stream)
{
	struct acl_context *ctx;
	struct acl_stream *s, **pp;
	aclError ret;

	if (!stream)
		return acl_err(ACL_ERROR_INVALID_PARAM, "stream is NULL");
	s = acl_stream_lookup(stream, &ret);
	if (!s)
		return ret;
	ctx = acl_current_ctx();
	if (!ctx)
		return ACL_ERROR_RT_CONTEXT_NULL;
	if (s->ctx != ctx)
		return acl_err(ACL_ERROR_RT_STREAM_CONTEXT,
			       "stream=%p belongs to another context", stream);
	if (s == ctx->defstream)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "stream=%p is a default stream", stream);
	if (acl_stream_capturing(s))
		return acl_stream_captured_err(s);
	acl_stream_notify(s, ACL_RT_STREAM_STATE_DESTROY_PRE);
	pthread_mutex_lock(&ctx->dev->lock);
	for (pp = &ctx->streams; *pp && *pp != s; pp = &(*pp)->next)
		;
	if (*pp)
		*pp = s->next;
	pthread_mutex_unlock(&ctx->dev->lock);
	acl_stream_free(s);
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtDestroyStream(aclrtStream stream)
{
	ACL_ENTER();
	return acl_destroy_stream(stream);
}

ACL_FUNC_VISIBILITY aclError aclrtDestroyStreamForce(aclrtStream stream)
{
	ACL_ENTER();
	/* The driver finishes queued work before a queue goes away. */
	return acl_destroy_stream(stream);
}

static aclError acl_sync_stream(aclrtStream stream, int32_t timeout)
{
	struct acl_stream *s;
	aclError ret;

	s = acl_stream_lookup(stream, &ret);
	if (!s)
		return ret;
	if (s->flags & (ACL_STREAM_PERSISTENT | ACL_STREAM_DEVICE_USE_ONLY |
			ACL_STREAM_CPU_SCHEDULE))
		return ACL_SUCCESS;
	if (acl_stream_capturing(s))
		return acl_stream_captured_err(s);
	return acl_stream_sync(s, timeout);
}

ACL_FUNC_VISIBILITY aclError aclrtSynchronizeStream(aclrtStream stream)
{
	ACL_ENTER();
	return acl_sync_stream(stream, -1);
}

ACL_FUNC_VISIBILITY aclError
aclrtSynchronizeStreamWithTimeout(aclrtStream stream, int32_t timeout)
{
	ACL_ENTER();
	if (acl_check_timeout(timeout, "timeout"))
		return ACL_ERROR_RT_PARAM_INVALID;
	return acl_sync_stream(stream, timeout);
}

ACL_FUNC_VISIBILITY aclError aclrtStreamQuery(aclrtStream stream,
					      aclrtStreamStatus *status)
{
	struct acl_stream *s;
	aclError ret;

	ACL_ENTER();
	if (!status)
		return acl_err(ACL_ERROR_INVALID_PARAM, "status is NULL");
	s = acl_stream_lookup(stream, &ret);
	if (!s)
		return ret;
	if (acl_stream_capturing(s))
		return acl_stream_captured_err(s);
	*status = acl_ring_completed(s->ring) >= acl_ring_last_seq(s->ring) &&
		  !acl_hostq_early_busy(s) ?
		  ACL_STREAM_STATUS_COMPLETE : ACL_STREAM_STATUS_NOT_READY;
	return ACL_SUCCESS;
}

/* Common shape of the three stream getters. */
static aclError acl_stream_attr(aclrtStream stream, void *out,
				struct acl_stream **s)
{
	aclError ret;

	if (!out)
		return acl_err(ACL_ERROR_INVALID_PARAM, "output pointer is NULL");
	*s = acl_stream_lookup(stream, &ret);
	return *s ? ACL_SUCCESS : ret;
}

ACL_FUNC_VISIBILITY aclError aclrtStreamGetId(aclrtStream stream,
					      int32_t *streamId)
{
	struct acl_stream *s;
	aclError ret;

	ACL_ENTER();
	ret = acl_stream_attr(stream, streamId, &s);
	if (!ret)
		*streamId = s->id;
	return ret;
}

ACL_FUNC_VISIBILITY aclError aclrtStreamGetFlags(aclrtStream stream,
						 uint32_t *flags)
{
	struct acl_stream *s;
	aclError ret;

	ACL_ENTER();
	ret = acl_stream_attr(stream, flags, &s);
	if (!ret)
		*flags = s->flags;
	return ret;
}

ACL_FUNC_VISIBILITY aclError aclrtStreamGetPriority(aclrtStream stream,
						    uint32_t *priority)
{
	struct acl_stream *s;
	aclError ret;

	ACL_ENTER();
	ret = acl_stream_attr(stream, priority, &s);
	if (!ret)
		*priority = s->priority;
	return ret;
}
