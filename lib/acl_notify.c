// SPDX-License-Identifier: MIT
/*
 * libacl: notifies within a process (aclrtCreateNotify and friends).
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

void acl_notify_run(const struct acl_htask *t)
{
	struct acl_notify *n = t->notify;

	pthread_mutex_lock(&n->lock);
	if (t->kind == ACL_HT_NOTIFY_RECORD) {
		n->set = true;
		pthread_cond_broadcast(&n->cond);
	} else {
		/*
		 * The timeout is not enforced (see aclrtWaitAndResetNotify):
		 * a barrier released early would let the stream's later work
		 * run unordered, and no error could reach its synchronize.
		 */
		while (!n->set && !n->destroyed)
			pthread_cond_wait(&n->cond, &n->lock);
		n->set = false;
	}
	pthread_mutex_unlock(&n->lock);
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
	pthread_cond_init(&n->cond, NULL);
	n->magic = ACL_NOTIFY_MAGIC;
	*notify = n;
	return ACL_SUCCESS;
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

/* Queue @kind of @notify on @stream. */
static aclError acl_notify_task(aclrtNotify notify, aclrtStream stream,
				enum acl_htask_kind kind)
{
	struct acl_htask t = { .kind = kind, .block = true };
	struct acl_notify *n;
	struct acl_stream *s;
	aclError ret;

	n = acl_notify_lookup(notify, &ret);
	if (!n)
		return ret;
	s = acl_stream_for_task(stream, &ret);
	if (!s)
		return ret;
	t.notify = n;
	return acl_htask_submit(s, &t);
}

ACL_FUNC_VISIBILITY aclError aclrtRecordNotify(aclrtNotify notify,
					       aclrtStream stream)
{
	ACL_ENTER();
	return acl_notify_task(notify, stream, ACL_HT_NOTIFY_RECORD);
}

ACL_FUNC_VISIBILITY aclError aclrtWaitAndResetNotify(aclrtNotify notify,
						     aclrtStream stream,
						     uint32_t timeout)
{
	ACL_ENTER();
	/*
	 * Seconds, 0 = forever; CANN checks no range, nor do we. Not
	 * enforced: see acl_notify_run().
	 */
	(void)timeout;
	return acl_notify_task(notify, stream, ACL_HT_NOTIFY_WAIT);
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
