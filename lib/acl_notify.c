// SPDX-License-Identifier: MIT
/*
 * libacl: notifies (aclrtCreateNotify and friends), within a process and
 * shared with others by key.
 *
 * A CANN notify is one bit of device state: a record sets it when its
 * stream reaches the record, a wait holds its stream until the bit is
 * set and then clears it, so one record satisfies one wait, and a wait
 * queued before its record waits for it (an event wait would not).
 *
 * The driver has no such descriptor, so both halves are host tasks
 * (acl_callback.c): a HOST_BARRIER on the stream whose runner, once the
 * queue is parked there (all earlier work of the stream done), sets the
 * bit (record) or sleeps until it is set and clears it (wait), then
 * releases the barrier. The bit lives in struct acl_notify, which every
 * queued task (and every captured one, for its replays) holds a reference
 * on, so destroying the handle never frees it under a runner.
 *
 * A notify shared with other processes (aclrtNotifyGetExportKey, or
 * imported by aclrtNotifyImportByKey) is a signal of the driver instead
 * (kernel/npu_dma_signal.c): records and waits are descriptors the NPU's
 * queues run, so a stream of another process waits in the driver, and a
 * wait whose notify's creator died ends with an error instead of hanging.
 * Captured records and waits of such a notify are refused by the driver
 * (no signals in graphs).
 *
 * Ids are what aclrtGetNotifyId returns: the lowest free one of the
 * creating device, at most CANN's A2/A3 per-device count.
 */
#include <errno.h>
#include <stdlib.h>

#include "acl_objects.h"
#include "acl_error.h"
#include "acl_device.h"
#include "acl_stream.h"
#include "acl_htask.h"
#include "acl_kmd.h"
#include "acl_mem.h"
#include "acl_submit.h"
#include "acl_ring.h"

#define ACL_NOTIFY_MAGIC	0x61636c6eU	/* "acln" */
#define ACL_NOTIFY_MAX		8192	/* per device (A2/A3) */

struct acl_notify {
	uint32_t pad[4];		/* keeps magic clear of malloc's free list */
	uint32_t magic;
	uint32_t flag;			/* ACL_NOTIFY_* at creation */
	uint32_t id;
	struct acl_device *dev;		/* device it was created on */
	uint64_t gen;			/* its gen then: the parent's after fork */
	int refs;			/* atomic: the handle + queued tasks */
	pthread_mutex_t lock;		/* protects set, destroyed */
	pthread_cond_t cond;		/* set or destroyed changed */
	bool set;			/* recorded, not yet taken by a wait */
	bool destroyed;			/* handle gone: waits give up */
	/*
	 * Shared with other processes (exported, or imported by key): a
	 * signal of the driver in dev's file, recorded and waited for by
	 * the NPU's queues instead of host tasks; 0 while process-local.
	 */
	uint32_t sig;
	uint64_t key[2];		/* the export's key, to revoke */
	bool exported;
};

/* Ids in use, per logical device. */
static pthread_mutex_t acl_notify_ids_lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t acl_notify_ids[ACL_MAX_DEVICES][ACL_NOTIFY_MAX / 64];

/* Lowest free id of device @dev_id, or -1 when all are taken. */
static int acl_notify_id_alloc(int dev_id)
{
	uint64_t *map = acl_notify_ids[dev_id];
	int i, id = -1;

	pthread_mutex_lock(&acl_notify_ids_lock);
	for (i = 0; i < ACL_NOTIFY_MAX / 64; i++) {
		if (~map[i]) {
			id = i * 64 + __builtin_ctzll(~map[i]);
			map[i] |= 1ULL << (id % 64);
			break;
		}
	}
	pthread_mutex_unlock(&acl_notify_ids_lock);
	return id;
}

static void acl_notify_id_free(int dev_id, uint32_t id)
{
	pthread_mutex_lock(&acl_notify_ids_lock);
	acl_notify_ids[dev_id][id / 64] &= ~(1ULL << (id % 64));
	pthread_mutex_unlock(&acl_notify_ids_lock);
}

void acl_notify_get(struct acl_notify *n)
{
	__atomic_add_fetch(&n->refs, 1, __ATOMIC_RELAXED);
}

void acl_notify_put(struct acl_notify *n)
{
	if (!n || __atomic_sub_fetch(&n->refs, 1, __ATOMIC_ACQ_REL))
		return;
	pthread_cond_destroy(&n->cond);
	pthread_mutex_destroy(&n->lock);
	free(n);
}

/*
 * Wait for @n to be recorded, for @timeout_ms at most (-1: for ever).
 * Caller holds n->lock. Return: true if it was (or is destroyed).
 */
static bool acl_notify_wait_set(struct acl_notify *n, int32_t timeout_ms)
{
	struct timespec until;
	uint64_t end;

	if (timeout_ms < 0) {
		while (!n->set && !n->destroyed)
			pthread_cond_wait(&n->cond, &n->lock);
		return true;
	}
	end = acl_now_ns() + (uint64_t)timeout_ms * 1000000ULL;
	until.tv_sec = (time_t)(end / 1000000000ULL);
	until.tv_nsec = (long)(end % 1000000000ULL);
	while (!n->set && !n->destroyed)
		if (pthread_cond_timedwait(&n->cond, &n->lock, &until) ==
		    ETIMEDOUT)
			return n->set || n->destroyed;
	return true;
}

aclError acl_notify_run(const struct acl_htask *t)
{
	struct acl_notify *n = t->notify;
	aclError ret = ACL_SUCCESS;

	pthread_mutex_lock(&n->lock);
	if (t->kind == ACL_HT_NOTIFY_RECORD) {
		n->set = true;
		pthread_cond_broadcast(&n->cond);
	} else if (acl_notify_wait_set(n, t->timeout_ms)) {
		n->set = false;
	} else {
		/*
		 * Not recorded in time: the stream's synchronize reports it
		 * (107020, as a timed-out event wait), and the stream goes on,
		 * as after any failed task; the notify stays unset.
		 */
		ret = ACL_ERROR_RT_TASK_TIMEOUT;
	}
	pthread_mutex_unlock(&n->lock);
	return ret;
}

static struct acl_notify *acl_notify_lookup(aclrtNotify handle, aclError *ret)
{
	struct acl_notify *n = handle;

	*ret = ACL_SUCCESS;
	if (!handle) {
		*ret = acl_err(ACL_ERROR_INVALID_PARAM, "notify is NULL");
		return NULL;
	}
	/* A notify outlives a reset, not a fork (acl_fork.c). */
	if (n->magic != ACL_NOTIFY_MAGIC || acl_gen_inherited(n->gen)) {
		*ret = acl_err_stale("notify", handle, n->magic ==
				     ACL_NOTIFY_MAGIC ? n->gen : 0, "notify");
		return NULL;
	}
	return n;
}

ACL_FUNC_VISIBILITY aclError aclrtCreateNotify(aclrtNotify *notify,
					       uint64_t flag)
{
	struct acl_context *ctx;
	struct acl_notify *n;
	int id;

	ACL_ENTER();
	if (!notify)
		return acl_err(ACL_ERROR_INVALID_PARAM, "notify is NULL");
	if (flag != ACL_NOTIFY_DEFAULT && flag != ACL_NOTIFY_DEVICE_USE_ONLY)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "flag=%#llx: must be ACL_NOTIFY_DEFAULT or "
			       "ACL_NOTIFY_DEVICE_USE_ONLY",
			       (unsigned long long)flag);
	ctx = acl_current_ctx();
	if (!ctx)
		return ACL_ERROR_RT_CONTEXT_NULL;
	n = calloc(1, sizeof(*n));
	if (!n)
		return acl_err(ACL_ERROR_RT_MEMORY_ALLOCATION,
			       "no memory for a notify");
	id = acl_notify_id_alloc(ctx->dev->id);
	if (id < 0) {
		free(n);
		return acl_err(ACL_ERROR_RT_NO_NOTIFY_RESOURCE,
			       "device %d has all its %d notifies in use",
			       ctx->dev->id, ACL_NOTIFY_MAX);
	}
	n->id = (uint32_t)id;
	n->flag = (uint32_t)flag;
	n->dev = ctx->dev;
	n->gen = ctx->dev->gen;
	n->refs = 1;
	pthread_mutex_init(&n->lock, NULL);
	acl_cond_init_mono(&n->cond);	/* its timed waits use CLOCK_MONOTONIC */
	n->magic = ACL_NOTIFY_MAGIC;
	*notify = n;
	return ACL_SUCCESS;
}

/* Destroyed: its key is revoked and the driver's signal let go of. */
static void acl_notify_unshare(struct acl_notify *n)
{
	struct npu_dma_ipc_close c = { .key = { n->key[0], n->key[1] },
				       .flags = NPU_DMA_IPC_CLOSE_EXPORT };

	if (!n->sig || !acl_device_is_open(n->dev) || n->dev->gen != n->gen)
		return;
	if (n->exported)
		acl_kmd_ipc_close(n->dev->fd, &c);
	acl_kmd_signal_destroy(n->dev->fd, n->sig);
}

ACL_FUNC_VISIBILITY aclError aclrtDestroyNotify(aclrtNotify notify)
{
	struct acl_notify *n;
	aclError ret;

	ACL_ENTER();
	n = acl_notify_lookup(notify, &ret);
	if (!n)
		return ret;
	n->magic = 0;
	acl_notify_id_free(n->dev->id, n->id);
	acl_notify_unshare(n);
	/*
	 * No record can be queued any more: a wait still pending would hold
	 * its stream (and the stream's destruction) forever. Let it go.
	 */
	pthread_mutex_lock(&n->lock);
	n->destroyed = true;
	pthread_cond_broadcast(&n->cond);
	pthread_mutex_unlock(&n->lock);
	acl_notify_put(n);
	return ACL_SUCCESS;
}

/*
 * A shared notify on @s: the driver records it (SIGNAL) or waits for a
 * record and takes it (WAIT_SIGNAL with NPU_DMA_DESC_F_SIGNAL_RESET).
 */
static aclError acl_notify_signal(struct acl_notify *n, struct acl_stream *s,
				  enum acl_htask_kind kind)
{
	struct npu_dma_desc d = { .value = n->sig };
	struct acl_work w = acl_work_descs(&d, 1);
	uint64_t first, last;
	int err;

	if (s->ctx->dev != n->dev)
		return acl_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
			       "a shared notify of device %d on a stream of "
			       "device %d: import it with that device current",
			       n->dev->id, s->ctx->dev->id);
	if (kind == ACL_HT_NOTIFY_RECORD) {
		d.opcode = NPU_DMA_OP_SIGNAL;
	} else {
		d.opcode = NPU_DMA_OP_WAIT_SIGNAL;
		d.flags = NPU_DMA_DESC_F_SIGNAL_RESET;
	}
	err = acl_stream_submit(s, &w, &first, &last);
	return err ? acl_err_sys(err, "queueing a shared notify") : ACL_SUCCESS;
}

/*
 * Queue @kind of @notify on @stream; a wait gives up after @timeout_s
 * seconds (0: never).
 */
static aclError acl_notify_task(aclrtNotify notify, aclrtStream stream,
				enum acl_htask_kind kind, uint32_t timeout_s)
{
	struct acl_htask t = { .kind = kind, .block = true, .timeout_ms = -1 };
	struct acl_notify *n;
	struct acl_stream *s;
	aclError ret;

	n = acl_notify_lookup(notify, &ret);
	if (!n)
		return ret;
	s = acl_stream_for_task(stream, &ret);
	if (!s)
		return ret;
	if (__atomic_load_n(&n->sig, __ATOMIC_ACQUIRE))
		return acl_notify_signal(n, s, kind);
	t.notify = n;
	if (timeout_s)
		t.timeout_ms = acl_wait_limit_ms(timeout_s);
	return acl_htask_submit(s, &t);
}

ACL_FUNC_VISIBILITY aclError aclrtRecordNotify(aclrtNotify notify,
					       aclrtStream stream)
{
	ACL_ENTER();
	return acl_notify_task(notify, stream, ACL_HT_NOTIFY_RECORD, 0);
}

ACL_FUNC_VISIBILITY aclError aclrtWaitAndResetNotify(aclrtNotify notify,
						     aclrtStream stream,
						     uint32_t timeout)
{
	ACL_ENTER();
	/*
	 * Seconds, 0 = forever; CANN checks no range, nor do we. A shared
	 * notify's wait is the driver's WAIT_SIGNAL, which has no limit.
	 */
	return acl_notify_task(notify, stream, ACL_HT_NOTIFY_WAIT, timeout);
}

ACL_FUNC_VISIBILITY aclError aclrtGetNotifyId(aclrtNotify notify,
					      uint32_t *notifyId)
{
	struct acl_notify *n;
	aclError ret;

	ACL_ENTER();
	n = acl_notify_lookup(notify, &ret);
	if (!n)
		return ret;
	if (!notifyId)
		return acl_err(ACL_ERROR_INVALID_PARAM, "notifyId is NULL");
	*notifyId = n->id;
	return ACL_SUCCESS;
}

void acl_notify_forked(void)
{
	pthread_mutex_init(&acl_notify_ids_lock, NULL);
}

/* ---- shared with other processes ------------------------------------ */

/* CANN's key buffers are 65 bytes; "ntf<N>:" and 32 hex digits fit. */
#define ACL_NOTIFY_KEY_LEN	65U

ACL_FUNC_VISIBILITY aclError aclrtNotifyGetExportKey(aclrtNotify notify,
						     char *key, size_t len,
						     uint64_t flags)
{
	struct npu_dma_ipc_export x = { .flags = NPU_DMA_IPC_F_SIGNAL };
	struct acl_notify *n;
	aclError ret;
	uint32_t sig = 0;
	int err;

	ACL_ENTER();
	n = acl_notify_lookup(notify, &ret);
	if (!n)
		return ret;
	if (!key || len < ACL_NOTIFY_KEY_LEN)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "key=%p len=%zu: the key needs %u bytes",
			       (void *)key, len, ACL_NOTIFY_KEY_LEN);
	if (flags & ~ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "flags=%#llx is not an export flag",
			       (unsigned long long)flags);
	pthread_mutex_lock(&n->lock);
	if (n->exported || n->sig) {
		ret = acl_err(ACL_ERROR_INVALID_PARAM,
			      "notify %p is shared already (exported or imported)",
			      notify);
	} else if (n->set) {
		ret = acl_err(ACL_ERROR_INVALID_PARAM,
			      "notify %p was recorded and not waited for: export "
			      "it before its first record", notify);
	} else if ((err = acl_kmd_signal_create(n->dev->fd, &sig))) {
		ret = acl_err_sys(err, "DRM_IOCTL_NPU_DMA_SIGNAL_CREATE");
	} else {
		x.dev_addr = sig;
		if (flags & ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION)
			x.flags |= NPU_DMA_IPC_F_NO_PID_CHECK;
		err = acl_kmd_ipc_export(n->dev->fd, &x);
		if (err) {
			acl_kmd_signal_destroy(n->dev->fd, sig);
			ret = acl_err_sys(err, "DRM_IOCTL_NPU_DMA_IPC_EXPORT");
		} else {
			n->key[0] = x.key[0];
			n->key[1] = x.key[1];
			n->exported = true;
			__atomic_store_n(&n->sig, sig, __ATOMIC_RELEASE);
			acl_key_format(key, len, "ntf", n->dev->phys, n->key);
		}
	}
	pthread_mutex_unlock(&n->lock);
	return ret;
}

ACL_FUNC_VISIBILITY aclError aclrtNotifySetImportPid(aclrtNotify notify,
						     int32_t *pid, size_t num)
{
	struct acl_notify *n;
	aclError ret;
	size_t i;
	int err;

	ACL_ENTER();
	n = acl_notify_lookup(notify, &ret);
	if (!n)
		return ret;
	if (!pid || !num || num > NPU_DMA_IPC_MAX_PIDS)
		return acl_err(ACL_ERROR_INVALID_PARAM, "pid=%p num=%zu",
			       (void *)pid, num);
	for (i = 0; i < num; i++)
		if (pid[i] <= 0)
			return acl_err(ACL_ERROR_INVALID_PARAM,
				       "pid[%zu]=%d is no process id", i, pid[i]);
	if (!n->exported)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "notify %p was not exported (aclrtNotifyGetExportKey)",
			       notify);
	err = acl_kmd_ipc_set_pids(n->dev->fd, n->key, pid, (uint32_t)num);
	if (err == -ESRCH)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "pid: one of the %zu ids names no process", num);
	return err ? acl_err_sys(err, "DRM_IOCTL_NPU_DMA_IPC_SET_PIDS") : ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtNotifyImportByKey(aclrtNotify *notify,
						    const char *key,
						    uint64_t flags)
{
	struct acl_device *dev = NULL;
	struct acl_notify *n;
	uint64_t k[2];
	uint32_t id = 0;
	aclError ret;
	int phys;

	ACL_ENTER();
	if (!notify)
		return acl_err(ACL_ERROR_INVALID_PARAM, "notify is NULL");
	if (flags & ~ACL_RT_NOTIFY_IMPORT_FLAG_ENABLE_PEER_ACCESS)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "flags=%#llx is not an import flag",
			       (unsigned long long)flags);
	if (acl_key_parse(key, "ntf", &phys, k))
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "key=%.64s is not a key of aclrtNotifyGetExportKey",
			       key ? key : "(null)");
	/* The driver's signals cross NPUs: it is imported on the current one. */
	ret = acl_signal_import(k, key, "notify", &dev, &id);
	if (ret)
		return ret;
	ret = aclrtCreateNotify((aclrtNotify *)&n, ACL_NOTIFY_DEFAULT);
	if (ret) {
		acl_kmd_signal_destroy(dev->fd, id);
		return ret;
	}
	__atomic_store_n(&n->sig, id, __ATOMIC_RELEASE);
	*notify = n;
	return ACL_SUCCESS;
}
