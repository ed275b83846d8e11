// SPDX-License-Identifier: MIT
/*
 * libacl: host work in stream order (callbacks, host functions, value
 * write/wait).
 *
 * Each such task is a HOST_BARRIER descriptor on the stream plus a host
 * part (struct acl_htask). A stream that ever had one gets a runner
 * thread; tasks reach it in sequence order (queued under the ring lock,
 * after their descriptors were submitted). For each task the runner waits
 * until the queue parks at its barrier (barrier_seq, signalled through
 * the stream's eventfd, shared with the stream's other waiters by
 * acl_ring_wait_barrier()), does the host part, then BARRIER_RELEASE.
 *
 *  - aclrtLaunchHostFunc: the runner calls the function (CANN's runtime
 *    thread model); the stream waits for it.
 *  - aclrtLaunchCallback: the runner posts the callback to the thread
 *    subscribed to the stream (aclrtSubscribeReport), which runs it in
 *    aclrtProcessReport. ACL_CALLBACK_BLOCK: the runner releases the
 *    barrier once the callback returned. ACL_CALLBACK_NO_BLOCK: released
 *    as soon as it was posted, so the stream only waits for the work
 *    before the callback to finish, never for the callback.
 *  - value write/wait: acl_value.c, run by the runner.
 *  - notify record/wait: acl_notify.c, run by the runner.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "acl_objects.h"
#include "acl_error.h"
#include "acl_ring.h"
#include "acl_stream.h"
#include "acl_htask.h"
#include "acl_submit.h"

#define ACL_MAX_SUBSCRIBERS	1024	/* CANN's limit per process */

/* The runner of one stream. */
struct acl_hostq {
	struct acl_ring *ring;		/* the stream's (a reference) */
	pthread_t thread;
	pthread_mutex_t lock;		/* protects head, tail, stop */
	pthread_cond_t cond;		/* a task arrived, or stop */
	struct acl_htask *head, *tail;	/* in sequence order */
	bool stop;
	struct acl_ring *io;		/* value tasks' copies, made on demand */
};

/* A thread bound by aclrtSubscribeReport, and the callbacks due to it. */
struct acl_sub {
	uint64_t tid;			/* pthread_self() of the thread */
	struct acl_device *dev;		/* the one device it serves */
	int refs;			/* bound streams + tasks; acl_sub_lock */
	int nstreams;			/* bound streams; acl_sub_lock */
	pthread_mutex_t lock;		/* protects head, tail, task->done */
	pthread_cond_t cond;		/* a callback was posted or ran */
	struct acl_htask *head, *tail;
	struct acl_sub *next;		/* in acl_subs, while nstreams > 0 */
};

/* Protects acl_subs, acl_nsubs, every sub's refs/nstreams, stream->sub. */
static pthread_mutex_t acl_sub_lock = PTHREAD_MUTEX_INITIALIZER;
static struct acl_sub *acl_subs;
static int acl_nsubs;
/* Serialises runner creation. */
static pthread_mutex_t acl_hostq_lock = PTHREAD_MUTEX_INITIALIZER;

static void acl_cond_init_mono(pthread_cond_t *c)
{
	pthread_condattr_t ca;

	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(c, &ca);
	pthread_condattr_destroy(&ca);
}

/* ---- subscribed threads ---------------------------------------------- */

static void acl_sub_put(struct acl_sub *sub)
{
	bool last;

	if (!sub)
		return;
	pthread_mutex_lock(&acl_sub_lock);
	last = !--sub->refs;
	pthread_mutex_unlock(&acl_sub_lock);
	if (!last)
		return;
	pthread_cond_destroy(&sub->cond);
	pthread_mutex_destroy(&sub->lock);
	free(sub);
}

/* Caller holds acl_sub_lock. */
static struct acl_sub *acl_sub_find(uint64_t tid)
{
	struct acl_sub *sub;

	for (sub = acl_subs; sub && sub->tid != tid; sub = sub->next)
		;
	return sub;
}

/* Caller holds acl_sub_lock. */
static struct acl_sub *acl_sub_new(uint64_t tid, struct acl_device *dev)
{
	struct acl_sub *sub;

	if (acl_nsubs >= ACL_MAX_SUBSCRIBERS)
		return NULL;
	sub = calloc(1, sizeof(*sub));
	if (!sub)
		return NULL;
	sub->tid = tid;
	sub->dev = dev;
	pthread_mutex_init(&sub->lock, NULL);
	acl_cond_init_mono(&sub->cond);
	sub->next = acl_subs;
	acl_subs = sub;
	acl_nsubs++;
	return sub;
}

/* Unbind @s from its thread (caller holds acl_sub_lock); the ref to drop. */
static struct acl_sub *acl_sub_unbind(struct acl_stream *s)
{
	struct acl_sub *sub = s->sub, **pp;

	s->sub = NULL;
	if (!sub || --sub->nstreams)
		return sub;
	for (pp = &acl_subs; *pp && *pp != sub; pp = &(*pp)->next)
		;
	if (*pp) {
		*pp = sub->next;
		acl_nsubs--;
	}
	return sub;
}

void acl_sub_detach(struct acl_stream *s)
{
	struct acl_sub *sub;

	pthread_mutex_lock(&acl_sub_lock);
	sub = acl_sub_unbind(s);
	pthread_mutex_unlock(&acl_sub_lock);
	acl_sub_put(sub);
}

/* @s's thread with a reference, or NULL. */
static struct acl_sub *acl_sub_of(struct acl_stream *s)
{
	struct acl_sub *sub;

	pthread_mutex_lock(&acl_sub_lock);
	sub = s->sub;
	if (sub)
		sub->refs++;
	pthread_mutex_unlock(&acl_sub_lock);
	return sub;
}

ACL_FUNC_VISIBILITY aclError aclrtSubscribeReport(uint64_t threadId,
						  aclrtStream stream)
{
	struct acl_stream *s;
	struct acl_sub *sub;
	aclError ret;

	ACL_ENTER();
	s = acl_stream_lookup(stream, &ret);
	if (!s)
		return ret;
	pthread_mutex_lock(&acl_sub_lock);
	sub = acl_sub_find(threadId);
	if (s->sub)
		ret = acl_err(ACL_ERROR_RT_STREAM_SUBSCRIBE,
			      "stream %d already has report thread %#llx", s->id,
			      (unsigned long long)s->sub->tid);
	else if (sub && sub->dev != s->ctx->dev)
		ret = acl_err(ACL_ERROR_RT_STREAM_SUBSCRIBE,
			      "thread %#llx already serves device %d",
			      (unsigned long long)threadId, sub->dev->id);
	else if (!sub && !(sub = acl_sub_new(threadId, s->ctx->dev)))
		ret = acl_err(ACL_ERROR_RT_STREAM_SUBSCRIBE,
			      "no room for another report thread (max %d)",
			      ACL_MAX_SUBSCRIBERS);
	if (!ret) {
		sub->refs++;
		sub->nstreams++;
		s->sub = sub;
	}
	pthread_mutex_unlock(&acl_sub_lock);
	return ret;
}

ACL_FUNC_VISIBILITY aclError aclrtUnSubscribeReport(uint64_t threadId,
						    aclrtStream stream)
{
	struct acl_sub *sub = NULL;
	struct acl_stream *s;
	aclError ret;

	ACL_ENTER();
	s = acl_stream_lookup(stream, &ret);
	if (!s)
		return ret;
	pthread_mutex_lock(&acl_sub_lock);
	if (!s->sub || s->sub->tid != threadId)
		ret = acl_err(ACL_ERROR_RT_STREAM_SUBSCRIBE,
			      "stream %d is not served by thread %#llx", s->id,
			      (unsigned long long)threadId);
	else
		sub = acl_sub_unbind(s);
	pthread_mutex_unlock(&acl_sub_lock);
	acl_sub_put(sub);
	return ret;
}

/* Wait on @sub->cond until @deadline (0: forever); false on timeout. */
static bool acl_sub_wait(struct acl_sub *sub, uint64_t deadline)
{
	struct timespec ts;

	if (!deadline) {
		pthread_cond_wait(&sub->cond, &sub->lock);
		return true;
	}
	if (acl_now_ns() >= deadline)
		return false;
	ts.tv_sec = (time_t)(deadline / 1000000000ULL);
	ts.tv_nsec = (long)(deadline % 1000000000ULL);
	pthread_cond_timedwait(&sub->cond, &sub->lock, &ts);
	return true;
}

/* Run callbacks taken from @sub; BLOCK ones are marked done. */
static void acl_sub_run(struct acl_sub *sub, struct acl_htask *list)
{
	struct acl_htask *t, *next;

	for (t = list; t; t = next) {
		next = t->next;
		t->fn(t->arg);
		pthread_mutex_lock(&sub->lock);
		if (t->block) {
			/* The runner owns it: it frees it once it sees done. */
			t->done = true;
			pthread_cond_broadcast(&sub->cond);
		}
		pthread_mutex_unlock(&sub->lock);
		if (!t->block) {
			free(t);
			acl_sub_put(sub);
		}
	}
}

ACL_FUNC_VISIBILITY aclError aclrtProcessReport(int32_t timeout)
{
	uint64_t deadline = 0;
	struct acl_htask *list;
	struct acl_sub *sub;

	ACL_ENTER();
	if (timeout == 0 || timeout < -1)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "timeout=%d: must be -1 or > 0 ms", timeout);
	pthread_mutex_lock(&acl_sub_lock);
	sub = acl_sub_find((uint64_t)pthread_self());
	if (sub)
		sub->refs++;
	pthread_mutex_unlock(&acl_sub_lock);
	if (!sub)
		return acl_err(ACL_ERROR_RT_THREAD_SUBSCRIBE,
			       "the calling thread serves no stream");
	if (timeout > 0)
		deadline = acl_now_ns() + (uint64_t)timeout * 1000000ULL;
	pthread_mutex_lock(&sub->lock);
	while (!sub->head && acl_sub_wait(sub, deadline))
		;
	list = sub->head;
	sub->head = sub->tail = NULL;
	pthread_mutex_unlock(&sub->lock);
	acl_sub_run(sub, list);
	acl_sub_put(sub);
	if (!list)
		return acl_err(ACL_ERROR_RT_REPORT_TIMEOUT,
			       "no callback within %d ms", timeout);
	return ACL_SUCCESS;
}

/* ---- the runner ------------------------------------------------------- */

/* Post a callback to its thread; for BLOCK, wait until it ran. */
static void acl_htask_post(struct acl_htask *t)
{
	struct acl_sub *sub = t->sub;

	pthread_mutex_lock(&sub->lock);
	t->next = NULL;
	t->done = false;
	if (sub->tail)
		sub->tail->next = t;
	else
		sub->head = t;
	sub->tail = t;
	pthread_cond_broadcast(&sub->cond);
	while (t->block && !t->done)
		pthread_cond_wait(&sub->cond, &sub->lock);
	pthread_mutex_unlock(&sub->lock);
}

static void acl_htask_free(struct acl_htask *t)
{
	acl_sub_put(t->sub);
	acl_notify_put(t->notify);
	free(t);
}

/* The host part of @t, the queue parked at its barrier. */
static void acl_htask_run(struct acl_hostq *q, struct acl_htask *t)
{
	switch (t->kind) {
	case ACL_HT_CALLBACK:
		if (t->sub) {
			acl_htask_post(t);
			return;		/* NO_BLOCK: the report thread owns it */
		}
		/* Unsubscribed since: run it here rather than lose it. */
		t->fn(t->arg);
		break;
	case ACL_HT_HOST_FUNC:
		t->fn(t->arg);
		break;
	case ACL_HT_VALUE_WRITE:
	case ACL_HT_VALUE_WAIT:
		acl_value_run(t, &q->io);
		break;
	case ACL_HT_NOTIFY_RECORD:
	case ACL_HT_NOTIFY_WAIT:
		acl_notify_run(t);
		break;
	}
}

static void *acl_hostq_main(void *arg)
{
	struct acl_hostq *q = arg;
	struct acl_htask *t;
	bool handed;

	for (;;) {
		pthread_mutex_lock(&q->lock);
		while (!q->head && !q->stop)
			pthread_cond_wait(&q->cond, &q->lock);
		t = q->head;
		if (t) {
			/* Popped first: posting reuses t->next. */
			q->head = t->next;
			if (!q->head)
				q->tail = NULL;
			t->next = NULL;
		}
		pthread_mutex_unlock(&q->lock);
		if (!t)
			return NULL;
		handed = false;
		/* Not parked (failed, aborted, NPU gone): nothing to run. */
		if (!acl_ring_wait_barrier(q->ring, t->seq, -1)) {
			handed = t->kind == ACL_HT_CALLBACK && t->sub &&
				 !t->block;
			acl_htask_run(q, t);
			acl_ring_barrier_release(q->ring, t->seq);
		}
		if (!handed)
			acl_htask_free(t);
	}
}

int acl_hostq_start(struct acl_stream *s)
{
	struct acl_hostq *q;
	int err = 0;

	if (__atomic_load_n(&s->hostq, __ATOMIC_ACQUIRE))
		return 0;
	pthread_mutex_lock(&acl_hostq_lock);
	if (s->hostq)
		goto out_unlock;
	q = calloc(1, sizeof(*q));
	if (!q) {
		err = -ENOMEM;
		goto out_unlock;
	}
	q->ring = s->ring;
	acl_ring_get(q->ring);
	pthread_mutex_init(&q->lock, NULL);
	pthread_cond_init(&q->cond, NULL);
	err = -pthread_create(&q->thread, NULL, acl_hostq_main, q);
	if (err) {
		pthread_cond_destroy(&q->cond);
		pthread_mutex_destroy(&q->lock);
		acl_ring_put(q->ring);
		free(q);
		goto out_unlock;
	}
	__atomic_store_n(&s->hostq, q, __ATOMIC_RELEASE);
out_unlock:
	pthread_mutex_unlock(&acl_hostq_lock);
	return err;
}

struct acl_htask *acl_hostq_prepare(struct acl_stream *s,
				    const struct acl_ref *refs, size_t nrefs,
				    uint64_t base, int *err)
{
	struct acl_htask *list = NULL, **tailp = &list, *t;
	size_t i;

	*err = 0;
	for (i = 0; i < nrefs; i++) {
		if (refs[i].kind != ACL_REF_HOST_TASK)
			continue;
		t = malloc(sizeof(*t));
		if (!t) {
			acl_hostq_commit(s, list, 0);
			*err = -ENOMEM;
			return NULL;
		}
		*t = *refs[i].task;
		t->seq = base + refs[i].idx;
		t->sub = t->kind == ACL_HT_CALLBACK ? acl_sub_of(s) : NULL;
		if (t->notify)
			acl_notify_get(t->notify);
		t->next = NULL;
		*tailp = t;
		tailp = &t->next;
	}
	return list;
}

void acl_hostq_commit(struct acl_stream *s, struct acl_htask *list,
		      uint64_t upto)
{
	struct acl_hostq *q = s->hostq;
	struct acl_htask *t, *keep = NULL, **tailp = &keep;

	while (list) {
		t = list;
		list = t->next;
		t->next = NULL;
		if (t->seq > upto || !q) {
			acl_htask_free(t);
			continue;
		}
		*tailp = t;
		tailp = &t->next;
	}
	if (!keep)
		return;
	pthread_mutex_lock(&q->lock);
	if (q->tail)
		q->tail->next = keep;
	else
		q->head = keep;
	for (t = keep; t->next; t = t->next)
		;
	q->tail = t;
	pthread_cond_signal(&q->cond);
	pthread_mutex_unlock(&q->lock);
}

void acl_hostq_stop(struct acl_stream *s)
{
	struct acl_hostq *q = s->hostq;

	if (!q)
		return;
	pthread_mutex_lock(&q->lock);
	q->stop = true;
	pthread_cond_signal(&q->cond);
	pthread_mutex_unlock(&q->lock);
	pthread_join(q->thread, NULL);
	if (q->io)
		acl_ring_put(q->io);
	acl_ring_put(q->ring);
	pthread_cond_destroy(&q->cond);
	pthread_mutex_destroy(&q->lock);
	free(q);
	s->hostq = NULL;
}

/* ---- submitting -------------------------------------------------------- */

aclError acl_htask_submit(struct acl_stream *s, const struct acl_htask *t)
{
	struct npu_dma_desc d = { .opcode = NPU_DMA_OP_HOST_BARRIER };
	struct acl_ref ref = {
		.kind = ACL_REF_HOST_TASK,
		.task = (struct acl_htask *)t,
	};
	struct acl_work w = {
		.d = &d, .n = 1, .refs = &ref, .nrefs = 1,
	};
	uint64_t first, last;
	int err = acl_stream_submit(s, &w, &first, &last);

	return err ? acl_err_sys(err, "queueing a host task") : ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtLaunchCallback(aclrtCallback fn,
						 void *userData,
						 aclrtCallbackBlockType blockType,
						 aclrtStream stream)
{
	struct acl_htask t = { .kind = ACL_HT_CALLBACK };
	struct acl_stream *s;
	struct acl_sub *sub;
	aclError ret;

	ACL_ENTER();
	if (!fn)
		return acl_err(ACL_ERROR_INVALID_PARAM, "fn is NULL");
	if (blockType != ACL_CALLBACK_NO_BLOCK && blockType != ACL_CALLBACK_BLOCK)
		return acl_err(ACL_ERROR_INVALID_PARAM, "blockType=%d is invalid",
			       (int)blockType);
	s = acl_stream_for_work(stream, &ret);
	if (!s)
		return ret;
	sub = acl_sub_of(s);
	if (!sub)
		return acl_err(ACL_ERROR_RT_STREAM_NO_CB_REG,
			       "stream %d has no report thread", s->id);
	acl_sub_put(sub);
	t.block = blockType == ACL_CALLBACK_BLOCK;
	t.fn = fn;
	t.arg = userData;
	return acl_htask_submit(s, &t);
}

ACL_FUNC_VISIBILITY aclError aclrtLaunchHostFunc(aclrtStream stream,
						 aclrtHostFunc fn, void *args)
{
	struct acl_htask t = { .kind = ACL_HT_HOST_FUNC, .block = true };
	struct acl_stream *s;
	aclError ret;

	ACL_ENTER();
	if (!fn)
		return acl_err(ACL_ERROR_INVALID_PARAM, "fn is NULL");
	s = acl_stream_for_work(stream, &ret);
	if (!s)
		return ret;
	t.fn = fn;
	t.arg = args;
	return acl_htask_submit(s, &t);
}

/* The subscribed threads are the parent's: none exists in the child. */
void acl_htask_forked(void)
{
	pthread_mutex_init(&acl_sub_lock, NULL);
	pthread_mutex_init(&acl_hostq_lock, NULL);
	acl_subs = NULL;
	acl_nsubs = 0;
}
