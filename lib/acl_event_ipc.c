// SPDX-License-Identifier: MIT
/*
 * libacl: CANN's IPC events (aclrtIpcGetEventHandle,
 * aclrtIpcOpenEventHandle): an event of ACL_EVENT_IPC another process
 * waits for.
 *
 * The exporting event gets a signal of the driver (kernel/npu_dma_signal.c)
 * shared by a key, which the handle carries as the string "evt<N>:<32
 * hex digits>". Each record of the event also records the signal (a
 * SIGNAL descriptor behind its EVENT_RECORD), so the opened event's
 * waits (WAIT_SIGNAL) wait, in the driver, for the records the exporter
 * submitted before: CANN's "the most recent record". If the exporter
 * dies first, such a wait ends with an error instead of hanging.
 *
 * Both sides share one event: the importer records the opened event
 * (a SIGNAL behind its own record) and either side's synchronize and
 * query take in the other's records through SIGNAL_WAIT, the host's
 * view of the signal. The exporter's stream waits on a stream of the
 * event's device wait for the signal too; a captured one, or one on
 * another device, sees the exporter's own records only.
 */
#include <string.h>
#include <time.h>

#include "acl_objects.h"
#include "acl_error.h"
#include "acl_device.h"
#include "acl_kmd.h"
#include "acl_mem.h"
#include "acl_ring.h"
#include "acl_stream.h"
#include "acl_submit.h"

#define ACL_EVENT_IPC_PREFIX	"evt"

ACL_FUNC_VISIBILITY aclError aclrtIpcGetEventHandle(aclrtEvent event,
						    aclrtIpcEventHandle *handle)
{
	struct npu_dma_ipc_export x = {
		.flags = NPU_DMA_IPC_F_SIGNAL | NPU_DMA_IPC_F_NO_PID_CHECK,
	};
	struct acl_event *e = event;
	aclError ret = ACL_SUCCESS;
	uint32_t sig;
	int err;

	ACL_ENTER();
	if (!e || !handle)
		return acl_err(ACL_ERROR_INVALID_PARAM, "event=%p handle=%p: NULL",
			       event, (void *)handle);
	if (e->magic != ACL_EVENT_MAGIC || !(e->flags & ACL_EVENT_IPC) ||
	    e->ipc_opened)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "event=%p is not an event of this process created "
			       "with ACL_EVENT_IPC", event);
	if (!acl_device_is_open(e->dev) || e->dev->gen != e->dev_gen)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "event=%p: its device was reset", event);
	pthread_mutex_lock(&e->lock);
	if (!e->sig) {
		err = acl_kmd_signal_create(e->dev->fd, &sig);
		if (!err) {
			x.dev_addr = sig;
			err = acl_kmd_ipc_export(e->dev->fd, &x);
			if (err)
				acl_kmd_signal_destroy(e->dev->fd, sig);
		}
		if (err) {
			ret = acl_err_sys(err, "sharing the event");
		} else {
			e->ipc_key[0] = x.key[0];
			e->ipc_key[1] = x.key[1];
			__atomic_store_n(&e->sig, sig, __ATOMIC_RELEASE);
		}
	}
	if (!ret) {
		memset(handle, 0, sizeof(*handle));
		acl_key_format(handle->reserved, sizeof(handle->reserved),
			       ACL_EVENT_IPC_PREFIX, e->dev->phys, e->ipc_key);
	}
	pthread_mutex_unlock(&e->lock);
	return ret;
}

ACL_FUNC_VISIBILITY aclError aclrtIpcOpenEventHandle(aclrtIpcEventHandle handle,
						     aclrtEvent *event)
{
	struct acl_device *dev = NULL;
	struct acl_event *e;
	uint32_t id = 0;
	uint64_t k[2];
	aclError ret;
	int phys;

	ACL_ENTER();
	if (!event)
		return acl_err(ACL_ERROR_INVALID_PARAM, "event is NULL");
	handle.reserved[sizeof(handle.reserved) - 1] = 0;
	if (acl_key_parse(handle.reserved, ACL_EVENT_IPC_PREFIX, &phys, k))
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "handle is not one of aclrtIpcGetEventHandle");
	/* The driver's signals cross NPUs: it opens on the current one. */
	ret = acl_signal_import(k, handle.reserved, "event", &dev, &id);
	if (ret)
		return ret;
	ret = aclrtCreateEventExWithFlag((aclrtEvent *)&e, ACL_EVENT_IPC);
	if (ret) {
		acl_kmd_signal_destroy(dev->fd, id);
		return ret;
	}
	e->ipc_opened = true;
	__atomic_store_n(&e->sig, id, __ATOMIC_RELEASE);
	*event = e;
	return ACL_SUCCESS;
}

/* A record of an exported event: its signal too, behind the record. */
int acl_event_ipc_record(struct acl_event *e, struct acl_stream *s)
{
	struct npu_dma_desc d = { .opcode = NPU_DMA_OP_SIGNAL, .value = e->sig };
	struct acl_work w = acl_work_descs(&d, 1);
	uint64_t first, last;
	int err = acl_stream_submit(s, &w, &first, &last);

	/*
	 * A wait of the other process waits for the records the driver has
	 * taken: ring now, even if the stream is busy (or held behind a
	 * host task) and would pick it up later by itself.
	 */
	return err ? err : acl_ring_doorbell(s->ring);
}

/* CLOCK_MONOTONIC in @ms from now, in ns; INT64_MAX for @ms < 0. */
static int64_t acl_deadline_ns(int32_t ms)
{
	struct timespec ts;

	if (ms < 0)
		return INT64_MAX;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec +
	       (int64_t)ms * 1000000;
}

/*
 * Are the shared event's records, by every process, done? 0 if so;
 * else -EBUSY (@query), -ETIME after @timeout_ms (< 0: no limit), or
 * -EPIPE: the exporter let go of the event with records not done.
 */
int acl_event_ipc_sync(struct acl_event *e, int32_t timeout_ms, bool query)
{
	uint32_t sig = __atomic_load_n(&e->sig, __ATOMIC_ACQUIRE);

	if (!sig)
		return 0;
	return acl_kmd_signal_wait(e->dev->fd, sig,
				   query ? NPU_DMA_SIGNAL_WAIT_F_QUERY : 0,
				   query ? 0 : acl_deadline_ns(timeout_ms));
}

/* A stream's wait for a shared event: in the driver. */
aclError acl_event_ipc_wait(struct acl_event *e, struct acl_stream *s)
{
	struct npu_dma_desc d = { .opcode = NPU_DMA_OP_WAIT_SIGNAL, .value = e->sig };
	struct acl_work w = acl_work_descs(&d, 1);
	uint64_t first, last;
	int err;

	if (s->ctx->dev != e->dev)
		return acl_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
			       "an IPC event opened on device %d, a stream of "
			       "device %d: open it with that device current",
			       e->dev->id, s->ctx->dev->id);
	if (acl_stream_capturing(s))
		return acl_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
			       "stream %d is capturing: an IPC event's wait is "
			       "not captured", s->id);
	err = acl_stream_submit(s, &w, &first, &last);
	return err ? acl_err_sys(err, "DRM_IOCTL_NPU_DMA_QUEUE_SUBMIT") : ACL_SUCCESS;
}

/* The event goes: its key is revoked, the driver's signal let go of. */
void acl_event_ipc_destroy(struct acl_event *e)
{
	struct npu_dma_ipc_close c = { .key = { e->ipc_key[0], e->ipc_key[1] },
				       .flags = NPU_DMA_IPC_CLOSE_EXPORT };

	if (!e->sig || !acl_device_is_open(e->dev) || e->dev->gen != e->dev_gen)
		return;
	if (!e->ipc_opened)
		acl_kmd_ipc_close(e->dev->fd, &c);
	acl_kmd_signal_destroy(e->dev->fd, e->sig);
}
