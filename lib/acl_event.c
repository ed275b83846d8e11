// SPDX-License-Identifier: MIT
/*
 * libacl: events. An event owns one slot of its device's event table
 * (mapped read-only from the driver). Recording submits an EVENT_RECORD
 * naming the slot; the event remembers the ring and sequence number of
 * that record, so "complete" is that ring's completed_seq reaching it,
 * a cross-stream wait is a WAIT descriptor on (queue id, seq), and the
 * timestamps of elapsed-time queries come from the slot, checked to
 * belong to that very record.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "acl_objects.h"
#include "acl_error.h"
#include "acl_ring.h"
#include "acl_device.h"
#include "acl_stream.h"
#include "acl_submit.h"

/* CANN's flag set of a plain aclrtCreateEvent event: sync + timeline. */
#define ACL_EVENT_PLAIN_FLAGS	(ACL_EVENT_SYNC | ACL_EVENT_TIME_LINE | \
				 ACL_EVENT_CAPTURE_STREAM_PROGRESS)

static int acl_slot_alloc(struct acl_device *dev)
{
	uint32_t i, n = dev->info.max_event_slots;

	for (i = 0; i < n; i++) {
		if (!(dev->slot_map[i / 64] & (1ULL << (i % 64)))) {
			dev->slot_map[i / 64] |= 1ULL << (i % 64);
			return (int)i;
		}
	}
	return -1;
}

static aclError acl_create_event(aclrtEvent *event, uint32_t flags, bool ex)
{
	struct acl_context *ctx;
	struct acl_event *e;
	int slot;

	ctx = acl_current_ctx();
	if (!ctx)
		return ACL_ERROR_RT_CONTEXT_NULL;
	e = calloc(1, sizeof(*e));
	if (!e)
		return acl_err(ACL_ERROR_BAD_ALLOC, "no memory for an event");
	pthread_mutex_lock(&ctx->dev->lock);
	slot = acl_slot_alloc(ctx->dev);
	pthread_mutex_unlock(&ctx->dev->lock);
	if (slot < 0) {
		free(e);
		return acl_err(ACL_ERROR_RT_NO_EVENT_RESOURCE,
			       "device %d: all %u event slots in use",
			       ctx->dev->id, ctx->dev->info.max_event_slots);
	}
	pthread_mutex_init(&e->lock, NULL);
	e->dev = ctx->dev;
	e->dev_gen = ctx->dev->gen;
	e->slot = (uint32_t)slot;
	e->flags = flags;
	e->ex = ex;
	e->magic = ACL_EVENT_MAGIC;
	*event = e;
	return ACL_SUCCESS;
}

/* CANN's rules for event flags (ACL_API.md 4.5). */
static aclError acl_check_event_flags(uint32_t flag, bool ex)
{
	const uint32_t alone = ACL_EVENT_DEVICE_USE_ONLY | ACL_EVENT_EXTERNAL |
			       (ex ? ACL_EVENT_IPC : 0);
	const uint32_t all = 0x3F | (ex ? ACL_EVENT_IPC : 0);

	if (!flag || flag & ~all || (flag & alone && flag & ~(flag & alone)) ||
	    __builtin_popcount(flag & alone) > 1)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID, "flag=%#x is invalid",
			       flag);
	return ACL_SUCCESS;
}

/* The three create calls: @check the flags unless it is a plain event. */
static aclError acl_create_event_api(aclrtEvent *event, uint32_t flag,
				     bool check, bool ex)
{
	if (!event)
		return acl_err(ACL_ERROR_INVALID_PARAM, "event is NULL");
	if (check && acl_check_event_flags(flag, ex))
		return ACL_ERROR_RT_PARAM_INVALID;
	return acl_create_event(event, flag, ex);
}

ACL_FUNC_VISIBILITY aclError aclrtCreateEvent(aclrtEvent *event)
{
	ACL_ENTER();
	return acl_create_event_api(event, ACL_EVENT_PLAIN_FLAGS, false, false);
}

ACL_FUNC_VISIBILITY aclError aclrtCreateEventWithFlag(aclrtEvent *event,
						      uint32_t flag)
{
	ACL_ENTER();
	return acl_create_event_api(event, flag, true, false);
}

ACL_FUNC_VISIBILITY aclError aclrtCreateEventExWithFlag(aclrtEvent *event,
							uint32_t flag)
{
	ACL_ENTER();
	return acl_create_event_api(event, flag, true, true);
}

/* Sync, query and elapsed time are illegal on a record being captured. */
static bool acl_event_captured(struct acl_event *e, const char *name,
			       aclError *ret)
{
	if (!__atomic_load_n(&e->captured, __ATOMIC_ACQUIRE))
		return false;
	*ret = acl_err(ACL_ERROR_RT_EVENT_CAPTURED,
		       "%s=%p was recorded into a capture", name, (void *)e);
	return true;
}

static struct acl_event *acl_event_lookup(aclrtEvent handle, const char *name,
					  aclError *ret)
{
	struct acl_event *e = handle;

	*ret = ACL_SUCCESS;
	if (!handle) {
		*ret = acl_err(ACL_ERROR_INVALID_PARAM, "%s is NULL", name);
		return NULL;
	}
	if (e->magic != ACL_EVENT_MAGIC || !acl_device_is_open(e->dev) ||
	    e->dev_gen != e->dev->gen) {
		*ret = acl_err_stale(name, handle, e->magic == ACL_EVENT_MAGIC ?
				     e->dev_gen : 0, "event");
		return NULL;
	}
	return e;
}

/* The last record of @e, with a reference on its ring; false if none. */
static bool acl_event_record_of(struct acl_event *e, struct acl_ring **ring,
				uint64_t *seq)
{
	pthread_mutex_lock(&e->lock);
	*ring = e->ring;
	*seq = e->seq;
	if (*ring)
		acl_ring_get(*ring);
	pthread_mutex_unlock(&e->lock);
	return *ring != NULL;
}

/* Forget the last record (e->lock held). */
static void acl_event_clear(struct acl_event *e)
{
	if (e->ring)
		acl_ring_put(e->ring);
	e->ring = NULL;
	e->seq = 0;
}

ACL_FUNC_VISIBILITY aclError aclrtDestroyEvent(aclrtEvent event)
{
	struct acl_event *e;
	aclError ret;

	ACL_ENTER();
	e = acl_event_lookup(event, "event", &ret);
	if (!e)
		return ret;
	e->magic = 0;
	pthread_mutex_lock(&e->dev->lock);
	if (e->dev->slot_map && e->dev_gen == e->dev->gen)
		e->dev->slot_map[e->slot / 64] &= ~(1ULL << (e->slot % 64));
	pthread_mutex_unlock(&e->dev->lock);
	acl_event_clear(e);
	pthread_mutex_destroy(&e->lock);
	free(e);
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtRecordEvent(aclrtEvent event,
					      aclrtStream stream)
{
	struct npu_dma_desc d = { .opcode = NPU_DMA_OP_EVENT_RECORD };
	struct acl_ref ref = { .kind = ACL_REF_EVENT };
	struct acl_work w = acl_work_descs(&d, 1);
	struct acl_stream *s;
	struct acl_event *e;
	uint64_t first, last;
	aclError ret;
	int err;

	ACL_ENTER();
	e = acl_event_lookup(event, "event", &ret);
	if (!e)
		return ret;
	s = acl_stream_for_work(stream, &ret);
	if (!s)
		return ret;
	if (e->flags & ACL_EVENT_DEVICE_USE_ONLY)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "event=%p is DEVICE_USE_ONLY", event);
	if (s->ctx->dev != e->dev)
		return acl_err(ACL_ERROR_RT_STREAM_CONTEXT,
			       "event of device %d, stream of device %d",
			       e->dev->id, s->ctx->dev->id);
	d.dst = e->slot;
	ref.ev = e;
	/* The stream tells the event its (ring, seq), or that it captured. */
	w.refs = &ref;
	w.nrefs = 1;
	err = acl_stream_submit(s, &w, &first, &last);
	return err ? acl_err_sys(err, "DRM_IOCTL_NPU_DMA_QUEUE_SUBMIT") : ACL_SUCCESS;
}

/*
 * Has the last record completed? Never-recorded: per the event kind.
 * Under e->lock the event's own reference keeps its ring alive: no
 * reference of our own to take and drop.
 */
static bool acl_event_done(struct acl_event *e, bool *recorded)
{
	struct acl_ring *r;
	uint64_t seq;
	bool done;

	pthread_mutex_lock(&e->lock);
	r = e->ring;
	seq = e->seq;
	*recorded = r != NULL;
	done = r ? acl_ring_completed(r) >= seq &&
		   !acl_ring_error_in(r, seq, seq) : e->ex;
	pthread_mutex_unlock(&e->lock);
	return done;
}

/* Both query calls: *done tells whether the last record completed. */
static aclError acl_query_event(aclrtEvent event, const void *status,
				bool *done)
{
	struct acl_event *e;
	bool recorded;
	aclError ret;

	if (!status)
		return acl_err(ACL_ERROR_INVALID_PARAM, "status is NULL");
	e = acl_event_lookup(event, "event", &ret);
	if (e && !acl_event_captured(e, "event", &ret))
		*done = acl_event_done(e, &recorded);
	return ret;
}

ACL_FUNC_VISIBILITY aclError
aclrtQueryEventStatus(aclrtEvent event, aclrtEventRecordedStatus *status)
{
	aclError ret;
	bool done;

	ACL_ENTER();
	ret = acl_query_event(event, status, &done);
	if (!ret)
		*status = done ? ACL_EVENT_RECORDED_STATUS_COMPLETE :
			  ACL_EVENT_RECORDED_STATUS_NOT_READY;
	return ret;
}

ACL_FUNC_VISIBILITY aclError aclrtQueryEvent(aclrtEvent event,
					     aclrtEventStatus *status)
{
	aclError ret;
	bool done;

	ACL_ENTER();
	ret = acl_query_event(event, status, &done);
	if (!ret)
		*status = done ? ACL_EVENT_STATUS_COMPLETE :
			  ACL_EVENT_STATUS_NOT_READY;
	return ret;
}

static aclError acl_sync_event(aclrtEvent event, int32_t timeout)
{
	struct acl_ring *r;
	struct acl_event *e;
	uint64_t seq;
	aclError ret;
	int err;

	e = acl_event_lookup(event, "event", &ret);
	if (!e || acl_event_captured(e, "event", &ret))
		return ret;
	if (!acl_event_record_of(e, &r, &seq))
		return ACL_SUCCESS;
	err = acl_ring_wait(r, seq, timeout);
	if (err == -ETIMEDOUT)
		ret = acl_err(ACL_ERROR_RT_EVENT_SYNC_TIMEOUT,
			      "event=%p not reached after %d ms", event, timeout);
	else if (err)
		ret = acl_err_sys(err, "waiting for the event");
	acl_ring_put(r);
	return ret;
}

ACL_FUNC_VISIBILITY aclError aclrtSynchronizeEvent(aclrtEvent event)
{
	ACL_ENTER();
	return acl_sync_event(event, -1);
}

ACL_FUNC_VISIBILITY aclError
aclrtSynchronizeEventWithTimeout(aclrtEvent event, int32_t timeout)
{
	ACL_ENTER();
	if (acl_check_timeout(timeout, "timeout"))
		return ACL_ERROR_RT_PARAM_INVALID;
	return acl_sync_event(event, timeout);
}

/*
 * The completion time of @e's last record, in ns of CLOCK_MONOTONIC.
 * The slot is overwritten by later records, so check that it still holds
 * this one (seq and queue), reading seq again after the timestamp.
 */
static aclError acl_event_time(struct acl_event *e, const char *name,
			       uint64_t *ns)
{
	const struct npu_dma_event_slot *slot = &e->dev->slots[e->slot];
	struct acl_ring *r;
	uint64_t seq, s1, s2;
	bool done;

	if (!acl_event_record_of(e, &r, &seq))
		return acl_err(ACL_ERROR_RT_INTERNAL_ERROR,
			       "%s=%p was never recorded", name, (void *)e);
	done = acl_ring_completed(r) >= seq;
	s1 = __atomic_load_n(&slot->seq, __ATOMIC_ACQUIRE);
	*ns = __atomic_load_n(&slot->timestamp_ns, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	s2 = __atomic_load_n(&slot->seq, __ATOMIC_RELAXED);
	if (!done) {
		acl_ring_put(r);
		return acl_err(ACL_ERROR_RT_EVENT_NOT_COMPLETE,
			       "%s=%p has not completed", name, (void *)e);
	}
	if (s1 != seq || s2 != seq || slot->queue_id != r->id) {
		acl_ring_put(r);
		return acl_err(ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID,
			       "%s=%p: its timestamp was not written", name,
			       (void *)e);
	}
	acl_ring_put(r);
	if (!(e->flags & ACL_EVENT_TIME_LINE))
		return acl_err(ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID,
			       "%s=%p was created without ACL_EVENT_TIME_LINE",
			       name, (void *)e);
	return ACL_SUCCESS;
}

static aclError acl_event_time_of(aclrtEvent handle, const char *name,
				  uint64_t *ns)
{
	struct acl_event *e;
	aclError ret;

	e = acl_event_lookup(handle, name, &ret);
	if (!e || acl_event_captured(e, name, &ret))
		return ret;
	return acl_event_time(e, name, ns);
}

ACL_FUNC_VISIBILITY aclError aclrtEventElapsedTime(float *ms,
						   aclrtEvent startEvent,
						   aclrtEvent endEvent)
{
	uint64_t t0, t1;
	aclError ret;

	ACL_ENTER();
	if (!ms)
		return acl_err(ACL_ERROR_INVALID_PARAM, "ms is NULL");
	ret = acl_event_time_of(startEvent, "startEvent", &t0);
	if (!ret)
		ret = acl_event_time_of(endEvent, "endEvent", &t1);
	if (!ret)
		*ms = (float)((double)(int64_t)(t1 - t0) / 1e6);
	return ret;
}

ACL_FUNC_VISIBILITY aclError aclrtEventGetTimestamp(aclrtEvent event,
						    uint64_t *timestamp)
{
	aclError ret;
	uint64_t ns;

	ACL_ENTER();
	if (!timestamp)
		return acl_err(ACL_ERROR_INVALID_PARAM, "timestamp is NULL");
	ret = acl_event_time_of(event, "event", &ns);
	if (!ret)
		*timestamp = ns / 1000;	/* us since boot */
	return ret;
}

static aclError acl_wait_event(aclrtStream stream, aclrtEvent event)
{
	struct npu_dma_desc d = { .opcode = NPU_DMA_OP_WAIT };
	struct acl_work w = acl_work_descs(&d, 1);
	struct acl_stream *s;
	struct acl_event *e;
	struct acl_ring *r;
	uint64_t seq, first, last;
	aclError ret;
	int err = 0;

	e = acl_event_lookup(event, "event", &ret);
	if (!e)
		return ret;
	s = acl_stream_for_work(stream, &ret);
	if (!s)
		return ret;
	if (!(e->flags & ACL_EVENT_SYNC))
		return acl_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
			       "event=%p was created without ACL_EVENT_SYNC",
			       event);
	if (!acl_event_record_of(e, &r, &seq))
		return ACL_SUCCESS;	/* nothing captured: nothing to wait for */
	if (acl_ring_completed(r) < seq) {
		d.wait_queue = r->id;
		d.value = seq;
		err = acl_stream_submit(s, &w, &first, &last);
	}
	acl_ring_put(r);
	return err ? acl_err_sys(err, "DRM_IOCTL_NPU_DMA_QUEUE_SUBMIT") : ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtStreamWaitEvent(aclrtStream stream,
						  aclrtEvent event)
{
	ACL_ENTER();
	return acl_wait_event(stream, event);
}

ACL_FUNC_VISIBILITY aclError
aclrtStreamWaitEventWithTimeout(aclrtStream stream, aclrtEvent event,
				int32_t timeout)
{
	ACL_ENTER();
	if (timeout < 0)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "timeout=%d is negative", timeout);
	/* The driver's WAIT has no time limit: the timeout is not enforced. */
	return acl_wait_event(stream, event);
}

ACL_FUNC_VISIBILITY aclError aclrtResetEvent(aclrtEvent event,
					     aclrtStream stream)
{
	struct acl_stream *s;
	struct acl_event *e;
	aclError ret;

	ACL_ENTER();
	e = acl_event_lookup(event, "event", &ret);
	if (!e)
		return ret;
	s = acl_stream_lookup(stream, &ret);
	if (!s)
		return ret;
	if (!(e->flags & ACL_EVENT_SYNC))
		return acl_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
			       "event=%p was created without ACL_EVENT_SYNC",
			       event);
	/*
	 * Waits already queued hold their (queue, seq): forgetting the
	 * record now cannot release them early.
	 */
	pthread_mutex_lock(&e->lock);
	acl_event_clear(e);
	e->captured = false;
	pthread_mutex_unlock(&e->lock);
	return ACL_SUCCESS;
}
