// SPDX-License-Identifier: MIT
/*
 * libacl: events. An event owns one slot of its device's event table
 * (mapped read-only from the driver). Recording submits an EVENT_RECORD
 * naming the slot; the event remembers the ring and sequence number of
 * that record, so "complete" is that ring's completed_seq reaching it,
 * a cross-stream wait is a WAIT descriptor on (queue id, seq), and the
 * timestamps of elapsed-time queries come from the slot, checked to
 * belong to that very record.
 *
 * Work that must happen when a stream reaches it, not when it is
 * called, is a host task (acl_callback.c): a reset, and a wait with a
 * time limit, which the stream's runner thread waits out on the
 * record's ring. The event counts its references (the handle, and every
 * queued task naming it) and remembers the waits queued on it that have
 * not been seen complete, for aclrtQueryEventWaitStatus().
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
#include "acl_submit.h"

/* acl_event.rec_flag / wait_flag before the first record / wait. */
#define ACL_EVENT_FLAG_UNSET	UINT32_MAX

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
	e->refs = 1;
	e->rec_flag = e->wait_flag = ACL_EVENT_FLAG_UNSET;
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

void acl_event_get(struct acl_event *e)
{
	__atomic_add_fetch(&e->refs, 1, __ATOMIC_RELAXED);
}

void acl_event_put(struct acl_event *e)
{
	uint32_t i;

	if (__atomic_sub_fetch(&e->refs, 1, __ATOMIC_ACQ_REL))
		return;
	acl_event_clear(e);
	for (i = 0; i < e->nwaits; i++)
		acl_ring_put(e->waits[i].ring);
	free(e->waits);
	pthread_mutex_destroy(&e->lock);
	free(e);
}

/* Has the stream of @w passed its wait (or is its queue gone)? */
static bool acl_evwait_done(const struct acl_evwait *w)
{
	return acl_ring_completed(w->ring) >= w->seq ||
	       (__atomic_load_n(&w->ring->ctrl->flags, __ATOMIC_ACQUIRE) &
		NPU_DMA_QUEUE_S_DEAD);
}

/* Forget the waits that are done (e->lock held). */
static void acl_event_prune_waits(struct acl_event *e)
{
	uint32_t i, n = 0;

	for (i = 0; i < e->nwaits; i++) {
		if (acl_evwait_done(&e->waits[i]))
			acl_ring_put(e->waits[i].ring);
		else
			e->waits[n++] = e->waits[i];
	}
	e->nwaits = n;
}

/*
 * Remember that ring @r waits on @e until its descriptor @seq. Out of
 * memory, the wait goes untracked: aclrtQueryEventWaitStatus() may then
 * say COMPLETE early, the wait itself is unaffected.
 */
static void acl_event_add_wait(struct acl_event *e, struct acl_ring *r,
			       uint64_t seq)
{
	struct acl_evwait *nw;
	uint32_t ncap;

	pthread_mutex_lock(&e->lock);
	acl_event_prune_waits(e);
	if (e->nwaits == e->wcap) {
		ncap = e->wcap ? e->wcap * 2 : 4;
		nw = realloc(e->waits, ncap * sizeof(*nw));
		if (nw) {
			e->waits = nw;
			e->wcap = ncap;
		}
	}
	if (e->nwaits < e->wcap) {
		acl_ring_get(r);
		e->waits[e->nwaits].ring = r;
		e->waits[e->nwaits++].seq = seq;
	}
	pthread_mutex_unlock(&e->lock);
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
	acl_event_ipc_destroy(e);
	pthread_mutex_lock(&e->dev->lock);
	if (e->dev->slot_map && e->dev_gen == e->dev->gen)
		e->dev->slot_map[e->slot / 64] &= ~(1ULL << (e->slot % 64));
	pthread_mutex_unlock(&e->dev->lock);
	/* Queued resets keep it until they ran (CANN: destroy never blocks). */
	acl_event_put(e);
	return ACL_SUCCESS;
}

/*
 * The event and the stream of a call that queues work naming the event,
 * the stream as acl_stream_for_work() takes it: the event, or NULL with
 * the error recorded in *@ret.
 */
static struct acl_event *acl_event_for_work(aclrtEvent event,
					    aclrtStream stream,
					    struct acl_stream **s,
					    aclError *ret)
{
	struct acl_event *e = acl_event_lookup(event, "event", ret);

	if (!e)
		return NULL;
	*s = acl_stream_for_work(stream, ret);
	return *s ? e : NULL;
}

/* Records and resets: not a device-only event, a stream of its device. */
static aclError acl_event_host_usable(struct acl_event *e,
				      struct acl_stream *s)
{
	if (e->flags & ACL_EVENT_DEVICE_USE_ONLY)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "event=%p is DEVICE_USE_ONLY", (void *)e);
	if (s->ctx->dev != e->dev)
		return acl_err(ACL_ERROR_RT_STREAM_CONTEXT,
			       "event of device %d, stream of device %d",
			       e->dev->id, s->ctx->dev->id);
	return ACL_SUCCESS;
}

/*
 * CANN fixes the record (wait) flag of an event at its first record
 * (wait) with a flag, whatever that call returns: *@slot. A later call
 * with the other flag → 107000.
 */
static aclError acl_event_op_flag(struct acl_event *e, uint32_t *slot,
				  uint32_t flag, const char *what)
{
	uint32_t cur;

	pthread_mutex_lock(&e->lock);
	cur = *slot;
	if (cur == ACL_EVENT_FLAG_UNSET)
		*slot = flag;
	pthread_mutex_unlock(&e->lock);
	if (cur == ACL_EVENT_FLAG_UNSET || cur == flag)
		return ACL_SUCCESS;
	return acl_err(ACL_ERROR_RT_PARAM_INVALID,
		       "event=%p: its %ss use flag %#x, not flag=%#x (one per "
		       "event)", (void *)e, what, cur, flag);
}

/*
 * ACL_EVENT_RECORD_EXTERNAL / ACL_EVENT_WAIT_EXTERNAL: a record or wait
 * in a capture that the world outside the graph sees at every replay;
 * CANN's checks: an Ex event created with ACL_EVENT_SYNC alone, the
 * flag kept, a capturing stream.
 */
static aclError acl_external_check(struct acl_event *e, struct acl_stream *s,
				   uint32_t *slot, uint32_t flag,
				   const char *what)
{
	aclError ret;

	if (!e->ex || e->flags != ACL_EVENT_SYNC)
		return acl_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
			       "event=%p: an external %s needs an event of "
			       "aclrtCreateEventExWithFlag(ACL_EVENT_SYNC)",
			       (void *)e, what);
	ret = acl_event_op_flag(e, slot, flag, what);
	if (!ret && !acl_stream_capturing(s))
		ret = acl_err(ACL_ERROR_RT_STREAM_NOT_CAPTURED,
			      "stream %d is not capturing: an external %s "
			      "belongs in a capture", s->id, what);
	return ret;
}

/*
 * A record with ACL_EVENT_RECORD_* @flag. An external one is captured
 * like any record, but the event learns only where replays ran it.
 */
static aclError acl_record_event(aclrtEvent event, aclrtStream stream,
				 uint32_t flag)
{
	struct npu_dma_desc d = { .opcode = NPU_DMA_OP_EVENT_RECORD };
	struct acl_ref ref = { .kind = ACL_REF_EVENT };
	struct acl_work w = acl_work_descs(&d, 1);
	struct acl_stream *s;
	struct acl_event *e;
	uint64_t first, last;
	aclError ret;
	int err;

	e = acl_event_for_work(event, stream, &s, &ret);
	if (!e || (ret = acl_event_host_usable(e, s)))
		return ret;
	if (flag == ACL_EVENT_RECORD_EXTERNAL) {
		ret = acl_external_check(e, s, &e->rec_flag, flag, "record");
		ref.kind = ACL_REF_EVENT_EXTERNAL;
	} else {
		ret = acl_event_op_flag(e, &e->rec_flag, flag, "record");
	}
	if (ret)
		return ret;
	d.dst = e->slot;
	ref.ev = e;
	/* The stream tells the event its (ring, seq), or that it captured. */
	w.refs = &ref;
	w.nrefs = 1;
	if (__atomic_load_n(&e->sig, __ATOMIC_ACQUIRE) && acl_stream_capturing(s))
		return acl_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
			       "event=%p is shared with another process: its "
			       "records are not captured", event);
	err = acl_stream_submit(s, &w, &first, &last);
	/* Shared: the driver's signal too, for the other process's waits. */
	if (!err && __atomic_load_n(&e->sig, __ATOMIC_ACQUIRE))
		err = acl_event_ipc_record(e, s);
	return err ? acl_err_sys(err, "DRM_IOCTL_NPU_DMA_QUEUE_SUBMIT") : ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtRecordEvent(aclrtEvent event,
					      aclrtStream stream)
{
	ACL_ENTER();
	return acl_record_event(event, stream, ACL_EVENT_RECORD_DEFAULT);
}

ACL_FUNC_VISIBILITY aclError aclrtRecordEventWithFlag(aclrtEvent event,
						      aclrtStream stream,
						      uint32_t flag)
{
	ACL_ENTER();
	if (!event)
		return acl_err(ACL_ERROR_INVALID_PARAM, "event is NULL");
	if (flag != ACL_EVENT_RECORD_DEFAULT && flag != ACL_EVENT_RECORD_EXTERNAL)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "flag=%#x: must be ACL_EVENT_RECORD_DEFAULT or "
			       "ACL_EVENT_RECORD_EXTERNAL", flag);
	return acl_record_event(event, stream, flag);
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
	int err;

	if (!status)
		return acl_err(ACL_ERROR_INVALID_PARAM, "status is NULL");
	e = acl_event_lookup(event, "event", &ret);
	if (!e || acl_event_captured(e, "event", &ret))
		return ret;
	*done = acl_event_done(e, &recorded);
	/* Shared: the other processes' records too (acl_event_ipc.c). */
	if (*done) {
		err = acl_event_ipc_sync(e, 0, true);
		*done = !err;
		if (err && err != -EBUSY)
			ret = acl_err_sys(err, "querying the shared event");
	}
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
	int err = 0;

	e = acl_event_lookup(event, "event", &ret);
	if (!e || acl_event_captured(e, "event", &ret))
		return ret;
	if (acl_event_record_of(e, &r, &seq)) {
		err = acl_ring_wait(r, seq, timeout);
		acl_ring_put(r);
	}
	/*
	 * Shared: then the other processes' records. The limit applies to
	 * each part; only an application that shares events waits twice.
	 */
	if (!err)
		err = acl_event_ipc_sync(e, timeout, false);
	if (err == -ETIMEDOUT || err == -ETIME)
		ret = acl_err(ACL_ERROR_RT_EVENT_SYNC_TIMEOUT,
			      "event=%p not reached after %d ms", event, timeout);
	else if (err)
		ret = acl_err_sys(err, "waiting for the event");
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

/* Waits and resets: CANN's events without ACL_EVENT_SYNC have neither. */
static aclError acl_event_need_sync(struct acl_event *e)
{
	if (e->flags & ACL_EVENT_SYNC)
		return ACL_SUCCESS;
	return acl_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
		       "event=%p was created without ACL_EVENT_SYNC", (void *)e);
}

/*
 * Queue on @s a wait for @r reaching @seq: a WAIT descriptor, or with a
 * time limit (@timeout_s seconds, 0 none) a host task that waits for it
 * that long. *@last: the sequence number taken (0: went into a capture).
 */
static int acl_queue_wait(struct acl_stream *s, struct acl_ring *r,
			  uint64_t seq, uint32_t timeout_s, uint64_t *last)
{
	struct npu_dma_desc d = { .opcode = NPU_DMA_OP_WAIT };
	struct acl_htask t = { .kind = ACL_HT_EVENT_WAIT };
	struct acl_ref ref = { .kind = ACL_REF_HOST_TASK, .task = &t };
	struct acl_work w = acl_work_descs(&d, 1);
	uint64_t first;

	if (timeout_s) {
		d.opcode = NPU_DMA_OP_HOST_BARRIER;
		t.ring = r;
		t.value = seq;
		t.timeout_ms = acl_wait_limit_ms(timeout_s);
		w.refs = &ref;
		w.nrefs = 1;
	} else {
		d.wait_queue = r->id;
		d.value = seq;
	}
	return acl_stream_submit(s, &w, &first, last);
}

/*
 * An external wait: captured as a host task that names the event, whose
 * record each replay looks up when it is queued (acl_event_resolve()).
 */
static aclError acl_wait_external(struct acl_stream *s, struct acl_event *e)
{
	struct acl_htask t = {
		.kind = ACL_HT_EVENT_WAIT, .event = e, .timeout_ms = -1,
	};
	aclError ret = acl_external_check(e, s, &e->wait_flag,
					  ACL_EVENT_WAIT_EXTERNAL, "wait");

	return ret ? ret : acl_htask_submit(s, &t);
}

void acl_event_resolve(struct acl_htask *t)
{
	struct acl_ring *r;
	uint64_t seq;

	if (t->ring)
		return;
	if (acl_event_record_of(t->event, &r, &seq) &&
	    acl_ring_completed(r) < seq) {
		t->ring = r;
		t->value = seq;
	} else if (r) {
		acl_ring_put(r);
	}
}

/*
 * The waits of the aclrtStreamWaitEvent family: ACL_EVENT_WAIT_* @flag,
 * limit in s (0: none).
 */
static aclError acl_wait_event(aclrtStream stream, aclrtEvent event,
			       uint32_t timeout_s, uint32_t flag)
{
	struct acl_stream *s;
	struct acl_event *e;
	struct acl_ring *r;
	uint64_t seq, last = 0;
	aclError ret;
	int err = 0;

	e = acl_event_for_work(event, stream, &s, &ret);
	if (e && e->ipc_opened)
		return acl_event_ipc_wait(e, s);
	if (!e || (ret = acl_event_need_sync(e)))
		return ret;
	if (flag == ACL_EVENT_WAIT_EXTERNAL)
		return acl_wait_external(s, e);
	ret = acl_event_op_flag(e, &e->wait_flag, flag, "wait");
	if (ret)
		return ret;
	/* Never recorded (or nothing captured): nothing of ours to wait for. */
	if (acl_event_record_of(e, &r, &seq)) {
		if (acl_ring_completed(r) < seq)
			err = acl_queue_wait(s, r, seq, timeout_s, &last);
		acl_ring_put(r);
	}
	if (err)
		return acl_err_sys(err, "DRM_IOCTL_NPU_DMA_QUEUE_SUBMIT");
	if (last)
		acl_event_add_wait(e, s->ring, last);
	/* Shared: the importers' records too, where the driver can wait. */
	if (__atomic_load_n(&e->sig, __ATOMIC_ACQUIRE) &&
	    s->ctx->dev == e->dev && !acl_stream_capturing(s))
		return acl_event_ipc_wait(e, s);
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtStreamWaitEvent(aclrtStream stream,
						  aclrtEvent event)
{
	ACL_ENTER();
	return acl_wait_event(stream, event, 0, ACL_EVENT_WAIT_DEFAULT);
}

/*
 * CANN's time limit is in seconds, 0 for none (its API reference; the
 * header's comment says ms, the device scheduler takes seconds). When it
 * runs out the stream goes on, and its next synchronize fails with
 * ACL_ERROR_RT_TASK_TIMEOUT.
 */
ACL_FUNC_VISIBILITY aclError
aclrtStreamWaitEventWithTimeout(aclrtStream stream, aclrtEvent event,
				int32_t timeout)
{
	ACL_ENTER();
	if (timeout < 0)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "timeout=%d: must be >= 0 s (0: none)", timeout);
	return acl_wait_event(stream, event, (uint32_t)timeout,
			      ACL_EVENT_WAIT_DEFAULT);
}

/* CANN's "use the default wait timeout" (none here: no aclrtSetOpWaitTimeout). */
#define ACL_WAIT_TIMEOUT_DEFAULT	UINT32_MAX

ACL_FUNC_VISIBILITY aclError aclrtStreamWaitEventWithFlag(aclrtStream stream,
							  aclrtEvent event,
							  uint32_t timeout,
							  uint32_t flag)
{
	ACL_ENTER();
	if (!event)
		return acl_err(ACL_ERROR_INVALID_PARAM, "event is NULL");
	if (flag != ACL_EVENT_WAIT_DEFAULT && flag != ACL_EVENT_WAIT_EXTERNAL)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "flag=%#x: must be ACL_EVENT_WAIT_DEFAULT or "
			       "ACL_EVENT_WAIT_EXTERNAL", flag);
	if (flag == ACL_EVENT_WAIT_EXTERNAL && timeout)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "timeout=%u: must be 0 with ACL_EVENT_WAIT_EXTERNAL",
			       timeout);
	return acl_wait_event(stream, event,
			      timeout == ACL_WAIT_TIMEOUT_DEFAULT ? 0 : timeout,
			      flag);
}

/*
 * Reset, in stream order: a host task returns the event to its initial
 * state when the stream reaches it, unless the event was recorded again
 * since the call (rec_gen moved on): a record the application made
 * later is never undone by an earlier reset.
 */
ACL_FUNC_VISIBILITY aclError aclrtResetEvent(aclrtEvent event,
					     aclrtStream stream)
{
	struct acl_htask t = { .kind = ACL_HT_EVENT_RESET };
	struct acl_stream *s;
	struct acl_event *e;
	aclError ret;

	ACL_ENTER();
	e = acl_event_for_work(event, stream, &s, &ret);
	if (e && e->ipc_opened)
		return acl_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
			       "event=%p was opened from an IPC handle: its "
			       "exporter resets it", event);
	if (!e || (ret = acl_event_host_usable(e, s)) ||
	    (ret = acl_event_need_sync(e)))
		return ret;
	t.event = e;
	pthread_mutex_lock(&e->lock);
	t.value = e->rec_gen;
	pthread_mutex_unlock(&e->lock);
	return acl_htask_submit(s, &t);
}

aclError acl_event_run(const struct acl_htask *t)
{
	struct acl_event *e = t->event;

	if (t->kind == ACL_HT_EVENT_WAIT && !t->ring)
		return ACL_SUCCESS;	/* external: no record to wait for */
	if (t->kind == ACL_HT_EVENT_WAIT)
		return acl_ring_wait(t->ring, t->value, t->timeout_ms) ==
		       -ETIMEDOUT ? ACL_ERROR_RT_TASK_TIMEOUT : ACL_SUCCESS;
	pthread_mutex_lock(&e->lock);
	if (e->rec_gen == t->value) {
		acl_event_clear(e);
		e->captured = false;
	}
	pthread_mutex_unlock(&e->lock);
	return ACL_SUCCESS;
}

/* A query of @event into @out (called @name): the event, or NULL. */
static struct acl_event *acl_event_query_args(aclrtEvent event,
					      const void *out,
					      const char *name, aclError *ret)
{
	struct acl_event *e = acl_event_lookup(event, "event", ret);

	if (e && !out) {
		*ret = acl_err(ACL_ERROR_INVALID_PARAM, "%s is NULL", name);
		return NULL;
	}
	return e;
}

ACL_FUNC_VISIBILITY aclError
aclrtQueryEventWaitStatus(aclrtEvent event, aclrtEventWaitStatus *status)
{
	struct acl_event *e;
	aclError ret;
	bool done;

	ACL_ENTER();
	e = acl_event_query_args(event, status, "status", &ret);
	if (!e)
		return ret;
	if (e->flags == ACL_EVENT_EXTERNAL || e->flags == ACL_EVENT_IPC)
		return acl_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
			       "event=%p: flag=%#x events have no wait status",
			       event, e->flags);
	if (acl_event_captured(e, "event", &ret))
		return ret;
	pthread_mutex_lock(&e->lock);
	acl_event_prune_waits(e);
	done = !e->nwaits;
	pthread_mutex_unlock(&e->lock);
	*status = done ? ACL_EVENT_WAIT_STATUS_COMPLETE :
		  ACL_EVENT_WAIT_STATUS_NOT_READY;
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtGetEventId(aclrtEvent event,
					     uint32_t *eventId)
{
	struct acl_event *e;
	aclError ret;

	ACL_ENTER();
	e = acl_event_query_args(event, eventId, "eventId", &ret);
	if (!e)
		return ret;
	if (e->flags == ACL_EVENT_IPC)
		return acl_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
			       "event=%p is an IPC event", event);
	/* Every event owns its slot from creation: the slot is its id. */
	*eventId = e->slot;
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtGetEventAvailNum(uint32_t *eventCount)
{
	struct acl_context *ctx;
	struct acl_device *dev;
	uint32_t i, used = 0;

	ACL_ENTER();
	if (!eventCount)
		return acl_err(ACL_ERROR_INVALID_PARAM, "eventCount is NULL");
	ctx = acl_current_ctx();
	if (!ctx)
		return ACL_ERROR_RT_CONTEXT_NULL;
	dev = ctx->dev;
	pthread_mutex_lock(&dev->lock);
	for (i = 0; i < (dev->info.max_event_slots + 63) / 64; i++)
		used += (uint32_t)__builtin_popcountll(dev->slot_map[i]);
	pthread_mutex_unlock(&dev->lock);
	*eventCount = dev->info.max_event_slots - used;
	return ACL_SUCCESS;
}
