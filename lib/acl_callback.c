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
 * A host function or callback launched on an idle stream is the
 * exception: it starts at once, and its barrier is queued only if work
 * comes after it while it runs ("tasks started early" below).
 *
 *  - aclrtLaunchHostFunc: the runner calls the function (CANN's runtime
 *    thread model); the stream waits for it. On a stream subscribed with
 *    aclrtSubscribeHostFunc, the runner posts it to that thread instead,
 *    which runs it in aclrtProcessHostFunc, as a BLOCK callback.
 *  - aclrtLaunchCallback: the runner posts the callback to the thread
 *    subscribed to the stream (aclrtSubscribeReport), which runs it in
 *    aclrtProcessReport. ACL_CALLBACK_BLOCK: the runner releases the
 *    barrier once the callback returned. ACL_CALLBACK_NO_BLOCK: released
 *    as soon as it was posted, so the stream only waits for the work
 *    before the callback to finish, never for the callback.
 *  - value write/wait: acl_value.c, run by the runner.
 *  - notify record/wait: acl_notify.c, run by the runner.
 *  - event reset and time-limited event wait: acl_event.c, run by the
 *    runner; a wait that times out fails the stream's next synchronize.
 *
 * The two kinds of subscribed thread (report callbacks, host functions)
 * share one machinery: a thread id bound to streams of one device, a
 * list of posted tasks, and the Process call that runs them.
 */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "acl_objects.h"
#include "acl_error.h"
#include "acl_ring.h"
#include "acl_stream.h"
#include "acl_htask.h"
#include "acl_submit.h"

#define ACL_MAX_SUBSCRIBERS	1024	/* CANN's limit per process */
/*
 * The runner polls this long for its next task after each one (us):
 * a wake-up of a sleeping thread on another CPU costs 30 to 40 us in
 * the TCG guest, a callback launched within the window about 18
 * (Documentation/performance.md, "The runner lingers").
 */
#define ACL_RUNNER_SPIN_DEFAULT_US	100

/*
 * A host function or callback launched on an idle stream starts at
 * once: nothing before it is left to wait for, so the runner takes it
 * without a HOST_BARRIER (whose doorbell and park are most of a
 * launch's cost). The stream's order is kept by whoever comes next: a
 * submission while it runs queues its barrier first, which the runner
 * releases when it returns (acl_hostq_fence_locked()); a synchronize
 * does the same, after a short poll for it to return.
 */
enum acl_early {
	ACL_EARLY_NONE,		/* no task started early runs */
	ACL_EARLY_RUNNING,	/* one runs, with no barrier on the stream */
	ACL_EARLY_FENCING,	/* a submitter queues its barrier */
	ACL_EARLY_FENCED,	/* its barrier, early_seq, awaits release */
	ACL_EARLY_ABANDONED,	/* aborted: nothing on the stream waits */
};

/* The runner of one stream. */
struct acl_hostq {
	struct acl_ring *ring;		/* the stream's (a reference) */
	pthread_t thread;
	pthread_mutex_t lock;		/* protects head, tail, stop */
	pthread_cond_t cond;		/* a task arrived, or stop */
	struct acl_htask *head, *tail;	/* in sequence order */
	bool stop;
	int early;			/* atomic: enum acl_early */
	uint64_t early_seq;		/* ACL_EARLY_FENCED: the barrier */
	/* The task started early (a NO_BLOCK callback is allocated) */
	struct acl_htask early_task;
	struct acl_ring *io;		/* value tasks' copies, made on demand */
	/* A failed host task (timed-out event wait), under lock: */
	uint32_t failures;		/* how many so far */
	uint32_t failures_seen;		/* how many acl_hostq_failure() reported */
	aclError fail_code;		/* the latest one's */
	int32_t fail_ms;		/* its time limit */
};

/*
 * A thread bound by aclrtSubscribeReport (or aclrtSubscribeHostFunc),
 * and the callbacks (host functions) due to it.
 */
struct acl_sub {
	uint64_t tid;			/* pthread_self() of the thread */
	enum acl_sub_kind kind;
	struct acl_device *dev;		/* the one device it serves */
	int refs;			/* bound streams + tasks; acl_sub_lock */
	int nstreams;			/* bound streams; acl_sub_lock */
	pthread_mutex_t lock;		/* protects head, tail, task->done */
	pthread_cond_t cond;		/* a callback was posted or ran */
	struct acl_htask *head, *tail;
	struct acl_sub *next;		/* in acl_subs, while nstreams > 0 */
};

/* Protects acl_subs, acl_nsubs, every sub's refs/nstreams, stream->sub[]. */
static pthread_mutex_t acl_sub_lock = PTHREAD_MUTEX_INITIALIZER;
static struct acl_sub *acl_subs;
static int acl_nsubs;
/* Serialises runner creation. */
static pthread_mutex_t acl_hostq_lock = PTHREAD_MUTEX_INITIALIZER;

void acl_cond_init_mono(pthread_cond_t *c)
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
static struct acl_sub *acl_sub_find(uint64_t tid, enum acl_sub_kind kind)
{
	struct acl_sub *sub;

	for (sub = acl_subs; sub && (sub->tid != tid || sub->kind != kind);
	     sub = sub->next)
		;
	return sub;
}

/* Caller holds acl_sub_lock. */
static struct acl_sub *acl_sub_new(uint64_t tid, enum acl_sub_kind kind,
				   struct acl_device *dev)
{
	struct acl_sub *sub;

	if (acl_nsubs >= ACL_MAX_SUBSCRIBERS)
		return NULL;
	sub = calloc(1, sizeof(*sub));
	if (!sub)
		return NULL;
	sub->tid = tid;
	sub->kind = kind;
	sub->dev = dev;
	pthread_mutex_init(&sub->lock, NULL);
	acl_cond_init_mono(&sub->cond);
	sub->next = acl_subs;
	acl_subs = sub;
	acl_nsubs++;
	return sub;
}

/* Unbind @s from its thread (caller holds acl_sub_lock); the ref to drop. */
static struct acl_sub *acl_sub_unbind(struct acl_stream *s,
				      enum acl_sub_kind kind)
{
	struct acl_sub *sub = s->sub[kind], **pp;

	s->sub[kind] = NULL;
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
	struct acl_sub *sub[ACL_SUB_KINDS];
	int k;

	pthread_mutex_lock(&acl_sub_lock);
	for (k = 0; k < ACL_SUB_KINDS; k++)
		sub[k] = acl_sub_unbind(s, (enum acl_sub_kind)k);
	pthread_mutex_unlock(&acl_sub_lock);
	for (k = 0; k < ACL_SUB_KINDS; k++)
		acl_sub_put(sub[k]);
}

/* @s's thread of @kind with a reference, or NULL. */
static struct acl_sub *acl_sub_of(struct acl_stream *s, enum acl_sub_kind kind)
{
	struct acl_sub *sub;

	pthread_mutex_lock(&acl_sub_lock);
	sub = s->sub[kind];
	if (sub)
		sub->refs++;
	pthread_mutex_unlock(&acl_sub_lock);
	return sub;
}

static const char *const acl_sub_what[ACL_SUB_KINDS] = {
	[ACL_SUB_REPORT] = "report",
	[ACL_SUB_HOSTFUNC] = "host function",
};

/* Bind thread @tid to serve @s's tasks of @kind. aclError, recorded. */
static aclError acl_subscribe(uint64_t tid, struct acl_stream *s,
			      enum acl_sub_kind kind)
{
	const char *what = acl_sub_what[kind];
	struct acl_sub *sub;
	aclError ret = ACL_SUCCESS;

	pthread_mutex_lock(&acl_sub_lock);
	sub = acl_sub_find(tid, kind);
	if (s->sub[kind])
		ret = acl_err(ACL_ERROR_RT_STREAM_SUBSCRIBE,
			      "stream %d already has %s thread %#llx", s->id,
			      what, (unsigned long long)s->sub[kind]->tid);
	else if (sub && sub->dev != s->ctx->dev)
		ret = acl_err(ACL_ERROR_RT_STREAM_SUBSCRIBE,
			      "thread %#llx already serves device %d",
			      (unsigned long long)tid, sub->dev->id);
	else if (!sub && !(sub = acl_sub_new(tid, kind, s->ctx->dev)))
		ret = acl_err(ACL_ERROR_RT_STREAM_SUBSCRIBE,
			      "no room for another %s thread (max %d)", what,
			      ACL_MAX_SUBSCRIBERS);
	if (!ret) {
		sub->refs++;
		sub->nstreams++;
		s->sub[kind] = sub;
	}
	pthread_mutex_unlock(&acl_sub_lock);
	return ret;
}

static aclError acl_unsubscribe(uint64_t tid, struct acl_stream *s,
				enum acl_sub_kind kind)
{
	struct acl_sub *sub = NULL;
	aclError ret = ACL_SUCCESS;

	pthread_mutex_lock(&acl_sub_lock);
	if (!s->sub[kind] || s->sub[kind]->tid != tid)
		ret = acl_err(ACL_ERROR_RT_STREAM_SUBSCRIBE,
			      "stream %d is not served by %s thread %#llx",
			      s->id, acl_sub_what[kind],
			      (unsigned long long)tid);
	else
		sub = acl_sub_unbind(s, kind);
	pthread_mutex_unlock(&acl_sub_lock);
	acl_sub_put(sub);
	return ret;
}

ACL_FUNC_VISIBILITY aclError aclrtSubscribeReport(uint64_t threadId,
						  aclrtStream stream)
{
	struct acl_stream *s;
	aclError ret;

	ACL_ENTER();
	s = acl_stream_lookup(stream, &ret);
	return s ? acl_subscribe(threadId, s, ACL_SUB_REPORT) : ret;
}

ACL_FUNC_VISIBILITY aclError aclrtUnSubscribeReport(uint64_t threadId,
						    aclrtStream stream)
{
	struct acl_stream *s;
	aclError ret;

	ACL_ENTER();
	s = acl_stream_lookup(stream, &ret);
	return s ? acl_unsubscribe(threadId, s, ACL_SUB_REPORT) : ret;
}

/* CANN's host-function calls take no NULL (default) stream. */
static struct acl_stream *acl_hostfunc_stream(aclrtStream stream,
					      aclError *ret)
{
	if (!stream) {
		*ret = acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "exeStream is NULL: name a created stream");
		return NULL;
	}
	return acl_stream_lookup(stream, ret);
}

ACL_FUNC_VISIBILITY aclError aclrtSubscribeHostFunc(uint64_t hostFuncThreadId,
						    aclrtStream exeStream)
{
	struct acl_stream *s;
	aclError ret;

	ACL_ENTER();
	s = acl_hostfunc_stream(exeStream, &ret);
	return s ? acl_subscribe(hostFuncThreadId, s, ACL_SUB_HOSTFUNC) : ret;
}

ACL_FUNC_VISIBILITY aclError
aclrtUnSubscribeHostFunc(uint64_t hostFuncThreadId, aclrtStream exeStream)
{
	struct acl_stream *s;
	aclError ret;

	ACL_ENTER();
	s = acl_hostfunc_stream(exeStream, &ret);
	return s ? acl_unsubscribe(hostFuncThreadId, s, ACL_SUB_HOSTFUNC) : ret;
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

	bool block;

	for (t = list; t; t = next) {
		next = t->next;
		block = t->block;
		t->fn(t->arg);
		pthread_mutex_lock(&sub->lock);
		if (block) {
			/* The runner owns it: it frees it once it sees done. */
			t->done = true;
			pthread_cond_broadcast(&sub->cond);
		}
		pthread_mutex_unlock(&sub->lock);
		if (!block) {
			free(t);
			acl_sub_put(sub);
		}
	}
}

/*
 * Run what was posted to the calling thread as a thread of @kind,
 * waiting up to @timeout ms (-1: forever) for the first. aclError.
 */
static aclError acl_process(enum acl_sub_kind kind, int32_t timeout)
{
	uint64_t deadline = 0;
	struct acl_htask *list;
	struct acl_sub *sub;

	pthread_mutex_lock(&acl_sub_lock);
	sub = acl_sub_find((uint64_t)pthread_self(), kind);
	if (sub)
		sub->refs++;
	pthread_mutex_unlock(&acl_sub_lock);
	if (!sub)
		return acl_err(ACL_ERROR_RT_THREAD_SUBSCRIBE,
			       "the calling thread serves no stream as a %s "
			       "thread", acl_sub_what[kind]);
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
			       "no %s within %d ms", kind == ACL_SUB_REPORT ?
			       "callback" : "host function", timeout);
	return ACL_SUCCESS;
}

/* CANN checks this timeout at its acl layer: ACL_ERROR_INVALID_PARAM. */
ACL_FUNC_VISIBILITY aclError aclrtProcessReport(int32_t timeout)
{
	ACL_ENTER();
	if (timeout == 0 || timeout < -1)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "timeout=%d: must be -1 or > 0 ms", timeout);
	return acl_process(ACL_SUB_REPORT, timeout);
}

/* ... and this one in its runtime: ACL_ERROR_RT_PARAM_INVALID. */
ACL_FUNC_VISIBILITY aclError aclrtProcessHostFunc(int32_t timeout)
{
	ACL_ENTER();
	if (timeout == 0 || timeout < -1)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "timeout=%d: must be -1 or > 0 ms", timeout);
	return acl_process(ACL_SUB_HOSTFUNC, timeout);
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

void acl_htask_hold(struct acl_htask *t)
{
	if (t->notify)
		acl_notify_get(t->notify);
	if (t->event)
		acl_event_get(t->event);
	if (t->ring)
		acl_ring_get(t->ring);
}

void acl_htask_release(struct acl_htask *t)
{
	acl_notify_put(t->notify);
	if (t->event)
		acl_event_put(t->event);
	if (t->ring)
		acl_ring_put(t->ring);
}

/* Drop what @t holds: its thread, its references (not @t itself). */
static void acl_htask_drop(struct acl_htask *t)
{
	acl_sub_put(t->sub);
	acl_htask_release(t);
}

static void acl_htask_free(struct acl_htask *t)
{
	acl_htask_drop(t);
	free(t);
}

/* Remember a host task's failure for the stream's next synchronize. */
static void acl_hostq_fail(struct acl_hostq *q, aclError code, int32_t ms)
{
	pthread_mutex_lock(&q->lock);
	q->failures++;
	q->fail_code = code;
	q->fail_ms = ms;
	pthread_mutex_unlock(&q->lock);
}

aclError acl_hostq_failed(struct acl_stream *s)
{
	struct acl_hostq *q = __atomic_load_n(&s->hostq, __ATOMIC_ACQUIRE);
	aclError code;

	if (!q)
		return ACL_SUCCESS;
	pthread_mutex_lock(&q->lock);
	code = q->failures ? q->fail_code : ACL_SUCCESS;
	pthread_mutex_unlock(&q->lock);
	return code;
}

aclError acl_hostq_failure(struct acl_stream *s)
{
	struct acl_hostq *q = __atomic_load_n(&s->hostq, __ATOMIC_ACQUIRE);
	aclError code = ACL_SUCCESS;
	int32_t ms = 0;

	if (!q)
		return ACL_SUCCESS;
	pthread_mutex_lock(&q->lock);
	if (q->failures != q->failures_seen) {
		q->failures_seen = q->failures;
		code = q->fail_code;
		ms = q->fail_ms;
	}
	pthread_mutex_unlock(&q->lock);
	if (!code)
		return ACL_SUCCESS;
	return acl_err(code, "a wait of stream %d for an event or a notify "
		       "was not satisfied within its timeout (%d ms)", s->id, ms);
}

void acl_hostq_forgive(struct acl_stream *s)
{
	struct acl_hostq *q = __atomic_load_n(&s->hostq, __ATOMIC_ACQUIRE);

	if (!q)
		return;
	pthread_mutex_lock(&q->lock);
	q->failures_seen = q->failures = 0;
	q->fail_code = ACL_SUCCESS;
	pthread_mutex_unlock(&q->lock);
}

/* Is @sub still bound to a stream, so that its thread asks for work? */
static bool acl_sub_serving(struct acl_sub *sub)
{
	bool on;

	pthread_mutex_lock(&acl_sub_lock);
	on = sub->nstreams > 0;
	pthread_mutex_unlock(&acl_sub_lock);
	return on;
}

/*
 * The host part of @t, the queue parked at its barrier. Return: true if
 * @t was handed to a subscribed thread, which frees it (NO_BLOCK).
 */
static bool acl_htask_run(struct acl_hostq *q, struct acl_htask *t)
{
	aclError ret;
	bool block;

	switch (t->kind) {
	case ACL_HT_CALLBACK:
	case ACL_HT_HOST_FUNC:
		if (t->sub && acl_sub_serving(t->sub)) {
			block = t->block;
			acl_htask_post(t);	/* BLOCK: back once it ran */
			return !block;
		}
		/* No thread serves it (any more): run it here, not lose it. */
		t->fn(t->arg);
		break;
	case ACL_HT_VALUE_WRITE:
	case ACL_HT_VALUE_WAIT:
		acl_value_run(t, &q->io);
		break;
	case ACL_HT_NOTIFY_RECORD:
	case ACL_HT_NOTIFY_WAIT:
		ret = acl_notify_run(t);
		if (ret)
			acl_hostq_fail(q, ret, t->timeout_ms);
		break;
	case ACL_HT_EVENT_WAIT:
	case ACL_HT_EVENT_RESET:
		ret = acl_event_run(t);
		if (ret)
			acl_hostq_fail(q, ret, t->timeout_ms);
		break;
	}
	return false;
}

/* A hint read without the lock: the runner takes it to be sure. */
static bool acl_hostq_has_work(const void *arg)
{
	const struct acl_hostq *q = arg;

	return __atomic_load_n(&q->head, __ATOMIC_ACQUIRE) ||
	       __atomic_load_n(&q->stop, __ATOMIC_ACQUIRE);
}

/*
 * How long the runner polls for its next task after it ran one:
 * ACL_RUNNER_SPIN_US if set, else ACL_RUNNER_SPIN_DEFAULT_US where a
 * second CPU is online (polling on the only CPU delays the launcher).
 * A program that launches host functions in a loop meets a runner
 * awake; one that launched its last long ago meets it asleep, and costs
 * no CPU in between.
 */
static uint64_t acl_hostq_linger_ns(void)
{
	const char *env = getenv("ACL_RUNNER_SPIN_US");
	long long us;

	if (env && *env) {
		us = strtoll(env, NULL, 10);
		return us > 0 ? (uint64_t)us * 1000 : 0;
	}
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		return 0;
	return ACL_RUNNER_SPIN_DEFAULT_US * 1000ULL;
}

/*
 * The task started early returned (or, NO_BLOCK, was posted): let the
 * stream go on past it, releasing the barrier a submitter queued for it
 * meanwhile, if any.
 */
static void acl_hostq_early_end(struct acl_hostq *q)
{
	int state = ACL_EARLY_RUNNING;
	uint64_t seq;

	acl_ring_set_host_busy(q->ring, 0);
	while (!__atomic_compare_exchange_n(&q->early, &state, ACL_EARLY_NONE,
					    false, __ATOMIC_ACQ_REL,
					    __ATOMIC_ACQUIRE)) {
		if (state == ACL_EARLY_FENCED) {
			seq = __atomic_load_n(&q->early_seq, __ATOMIC_RELAXED);
			acl_ring_set_host_busy(q->ring, seq);
			/* Went past unreleased: the stream was aborted. */
			if (!acl_ring_wait_barrier(q->ring, seq, -1))
				acl_ring_barrier_release(q->ring, seq);
			acl_ring_set_host_busy(q->ring, 0);
		}
		if (state != ACL_EARLY_FENCING) {
			/* Only this thread leaves FENCED and ABANDONED. */
			__atomic_store_n(&q->early, ACL_EARLY_NONE,
					 __ATOMIC_RELEASE);
			return;
		}
		/* A doorbell under way, ending in FENCED or back at RUNNING. */
		sched_yield();
		state = ACL_EARLY_RUNNING;
	}
}

/*
 * Run @t, started early: the stream was idle at its launch. It is done
 * with before the stream may go on, as q->early_task may be reused then.
 */
static void acl_hostq_run_early(struct acl_hostq *q, struct acl_htask *t)
{
	acl_ring_set_host_busy(q->ring, ACL_HOST_BUSY_EARLY);
	if (t == &q->early_task) {
		acl_htask_run(q, t);	/* never handed: not a NO_BLOCK */
		acl_htask_drop(t);
	} else if (!acl_htask_run(q, t)) {
		acl_htask_free(t);
	}
	acl_hostq_early_end(q);
}

static void *acl_hostq_main(void *arg)
{
	struct acl_hostq *q = arg;
	uint64_t linger = acl_hostq_linger_ns(), spin = 0;
	struct acl_htask *t;
	bool handed;

	for (;;) {
		/*
		 * A task queued while the runner polls runs without a
		 * thread wake-up, most of a callback's cost. It polls
		 * after each task (linger), and always as long as the
		 * stream's waiters would (ACL_STREAM_FAST_SYNC,
		 * ACL_WAIT_SPIN_US).
		 */
		if (spin < q->ring->spin_ns)
			spin = q->ring->spin_ns;
		acl_spin(acl_hostq_has_work, q, spin);
		pthread_mutex_lock(&q->lock);
		while (!q->head && !q->stop)
			pthread_cond_wait(&q->cond, &q->lock);
		t = q->head;
		if (t) {
			/* Popped first: posting reuses t->next. */
			__atomic_store_n(&q->head, t->next, __ATOMIC_RELAXED);
			if (!q->head)
				q->tail = NULL;
			t->next = NULL;
		}
		pthread_mutex_unlock(&q->lock);
		if (!t)
			return NULL;
		if (!t->seq) {
			acl_hostq_run_early(q, t);
			spin = linger;
			continue;
		}
		handed = false;
		/* Not parked (failed, aborted, NPU gone): nothing to run. */
		if (!acl_ring_wait_barrier(q->ring, t->seq, -1)) {
			acl_ring_set_host_busy(q->ring, t->seq);
			handed = acl_htask_run(q, t);
			acl_ring_barrier_release(q->ring, t->seq);
			acl_ring_set_host_busy(q->ring, 0);
		}
		if (!handed)
			acl_htask_free(t);
		spin = linger;
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

/* @t as the runner's copy of @src, its barrier @seq (0: started early). */
static void acl_htask_init(struct acl_htask *t, struct acl_stream *s,
			   const struct acl_htask *src, uint64_t seq)
{
	*t = *src;
	t->seq = seq;
	t->sub = t->kind == ACL_HT_CALLBACK ? acl_sub_of(s, ACL_SUB_REPORT) :
		 t->kind == ACL_HT_HOST_FUNC ?
		 acl_sub_of(s, ACL_SUB_HOSTFUNC) : NULL;
	acl_htask_hold(t);
	if (t->kind == ACL_HT_EVENT_WAIT && t->event)
		acl_event_resolve(t);
	t->next = NULL;
}

static struct acl_htask *acl_htask_copy(struct acl_stream *s,
					const struct acl_htask *src,
					uint64_t seq)
{
	struct acl_htask *t = malloc(sizeof(*t));

	if (t)
		acl_htask_init(t, s, src, seq);
	return t;
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
		t = acl_htask_copy(s, refs[i].task, base + refs[i].idx);
		if (!t) {
			acl_hostq_commit(s, list, 0);
			*err = -ENOMEM;
			return NULL;
		}
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
		__atomic_store_n(&q->head, keep, __ATOMIC_RELEASE);
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
	__atomic_store_n(&q->stop, true, __ATOMIC_RELEASE);
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

/* ---- tasks started early ----------------------------------------------- */

static bool acl_hostq_early_over(const void *arg)
{
	const struct acl_hostq *q = arg;

	return __atomic_load_n(&q->early, __ATOMIC_ACQUIRE) !=
	       ACL_EARLY_RUNNING;
}

int acl_hostq_fence_locked(struct acl_stream *s)
{
	struct acl_hostq *q = __atomic_load_n(&s->hostq, __ATOMIC_ACQUIRE);
	struct npu_dma_desc d = { .opcode = NPU_DMA_OP_HOST_BARRIER };
	int state = ACL_EARLY_RUNNING;
	uint64_t first, last;
	int err;

	if (!q || acl_hostq_early_over(q) ||
	    !__atomic_compare_exchange_n(&q->early, &state, ACL_EARLY_FENCING,
					 false, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE))
		return 0;
	err = acl_ring_submit_locked(s->ring, &d, 1, &first, &last);
	if (err) {
		/* The caller's work is refused: nothing waits for the task. */
		__atomic_store_n(&q->early, ACL_EARLY_RUNNING,
				 __ATOMIC_RELEASE);
		return err;
	}
	__atomic_store_n(&q->early_seq, last, __ATOMIC_RELAXED);
	__atomic_store_n(&q->early, ACL_EARLY_FENCED, __ATOMIC_RELEASE);
	return 0;
}

void acl_hostq_abandon_locked(struct acl_stream *s)
{
	struct acl_hostq *q = __atomic_load_n(&s->hostq, __ATOMIC_ACQUIRE);
	int state = ACL_EARLY_RUNNING;

	if (q)
		__atomic_compare_exchange_n(&q->early, &state,
					    ACL_EARLY_ABANDONED, false,
					    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
}

bool acl_hostq_early_busy(struct acl_stream *s)
{
	struct acl_hostq *q = __atomic_load_n(&s->hostq, __ATOMIC_ACQUIRE);
	int state;

	if (!q)
		return false;
	state = __atomic_load_n(&q->early, __ATOMIC_ACQUIRE);
	return state != ACL_EARLY_NONE && state != ACL_EARLY_ABANDONED;
}

void acl_hostq_settle(struct acl_stream *s)
{
	struct acl_hostq *q = __atomic_load_n(&s->hostq, __ATOMIC_ACQUIRE);

	if (q && s->ring->host_spin_ns && !acl_hostq_early_over(q))
		acl_spin(acl_hostq_early_over, q, s->ring->host_spin_ns);
}

int acl_stream_mark(struct acl_stream *s, uint64_t *seq)
{
	struct acl_ring *r = s->ring;
	int err;

	pthread_mutex_lock(&r->lock);
	err = acl_hostq_fence_locked(s);
	*seq = r->seq;
	pthread_mutex_unlock(&r->lock);
	return err;
}

/*
 * Start @src now if @s is idle and no other task started early runs:
 * 1 if it was handed to the runner, 0 if it is to take the stream's
 * order (a HOST_BARRIER), or -errno.
 */
static int acl_hostq_launch_early(struct acl_stream *s,
				  const struct acl_htask *src)
{
	struct acl_ring *r = s->ring;
	struct acl_htask *t = NULL;
	struct acl_hostq *q;
	int err = acl_hostq_start(s);

	if (err)
		return err;
	q = s->hostq;
	pthread_mutex_lock(&r->lock);
	if (!s->graph && acl_ring_idle(r) &&
	    __atomic_load_n(&q->early, __ATOMIC_ACQUIRE) == ACL_EARLY_NONE) {
		/*
		 * One at a time: its slot in the runner saves an allocation,
		 * but for a NO_BLOCK callback, which its thread frees.
		 */
		if (src->kind == ACL_HT_CALLBACK && !src->block) {
			t = acl_htask_copy(s, src, 0);
		} else {
			t = &q->early_task;
			acl_htask_init(t, s, src, 0);
		}
		if (t) {
			__atomic_store_n(&q->early, ACL_EARLY_RUNNING,
					 __ATOMIC_RELEASE);
			acl_hostq_commit(s, t, r->seq);
		}
	}
	pthread_mutex_unlock(&r->lock);
	return t ? 1 : 0;
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
	int err = 0;

	if (t->kind == ACL_HT_HOST_FUNC || t->kind == ACL_HT_CALLBACK)
		err = acl_hostq_launch_early(s, t);
	if (!err)	/* not started early: in the stream's order */
		err = acl_stream_submit(s, &w, &first, &last);
	if (err < 0)
		return acl_err_sys(err, "queueing a host task");
	return ACL_SUCCESS;
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
	sub = acl_sub_of(s, ACL_SUB_REPORT);
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
