/* SPDX-License-Identifier: MIT */
/*
 * libacl internals: host tasks in stream order: callbacks and host
 * functions (acl_callback.c), value write/wait (acl_value.c), notifies
 * (acl_notify.c).
 */
#ifndef ACL_HTASK_H
#define ACL_HTASK_H

#include "acl_stream.h"

/* ---- acl_callback.c: host tasks in stream order ----------------------- */

enum acl_htask_kind {
	ACL_HT_CALLBACK = 1,		/* aclrtLaunchCallback */
	ACL_HT_HOST_FUNC,		/* aclrtLaunchHostFunc */
	ACL_HT_VALUE_WRITE,		/* aclrtValueWrite */
	ACL_HT_VALUE_WAIT,		/* aclrtValueWait */
	ACL_HT_NOTIFY_RECORD,		/* aclrtRecordNotify */
	ACL_HT_NOTIFY_WAIT,		/* aclrtWaitAndResetNotify */
	ACL_HT_EVENT_WAIT,		/* aclrtStreamWaitEventWithTimeout */
	ACL_HT_EVENT_RESET,		/* aclrtResetEvent */
};

/* One HOST_BARRIER's host part. */
struct acl_htask {
	enum acl_htask_kind kind;
	bool block;			/* CALLBACK: ACL_CALLBACK_BLOCK */
	void (*fn)(void *arg);
	void *arg;
	struct acl_device *dev;		/* VALUE_*: NPU of @addr */
	uint64_t addr;			/* VALUE_*: device address */
	/* VALUE_*; EVENT_WAIT: the record's seq; EVENT_RESET: its rec_gen */
	uint64_t value;
	uint32_t flag;			/* VALUE_WAIT: ACL_STREAM_WAIT_VALUE_* */
	struct acl_notify *notify;	/* NOTIFY_*: a reference per queued copy */
	struct acl_event *event;	/* EVENT_RESET: a reference per copy */
	struct acl_ring *ring;		/* EVENT_WAIT: the record's ring (a ref) */
	int32_t timeout_ms;		/* EVENT_WAIT: limit of the wait */
	/* Set when queued: */
	uint64_t seq;			/* its HOST_BARRIER */
	struct acl_sub *sub;		/* CALLBACK: the thread to run it */
	bool done;			/* CALLBACK: ran (under sub->lock) */
	struct acl_htask *next;
};

/* A wait's time limit in seconds as a runner's ms (INT32_MAX at most). */
static inline int32_t acl_wait_limit_ms(uint32_t timeout_s)
{
	return timeout_s > INT32_MAX / 1000 ? INT32_MAX :
	       (int32_t)(timeout_s * 1000);
}

/* A condition variable whose timed waits use CLOCK_MONOTONIC. */
void acl_cond_init_mono(pthread_cond_t *c);

/* Take / drop the references a task (or a copy of it) holds. */
void acl_htask_hold(struct acl_htask *t);
void acl_htask_release(struct acl_htask *t);
/*
 * A failure of @s's host tasks (a timed-out event wait) not reported
 * yet: its aclError, recorded, and now reported; else ACL_SUCCESS.
 */
aclError acl_hostq_failure(struct acl_stream *s);
/* The code of @s's latest failed host task (reported or not), or 0. */
aclError acl_hostq_failed(struct acl_stream *s);
/* Forget @s's host-task failures (aclrtStreamAbort made it usable). */
void acl_hostq_forgive(struct acl_stream *s);
/* Start @s's runner thread unless it runs: 0 or -errno. */
int acl_hostq_start(struct acl_stream *s);
/*
 * Copies of the host tasks among @refs, the first descriptor having
 * sequence number @base; NULL with *@err -ENOMEM, or NULL if none.
 */
struct acl_htask *acl_hostq_prepare(struct acl_stream *s,
				    const struct acl_ref *refs, size_t nrefs,
				    uint64_t base, int *err);
/*
 * Hand prepared tasks to the runner, those up to @upto (submitted); free
 * the others. Caller holds s->ring->lock, so tasks arrive in order.
 */
void acl_hostq_commit(struct acl_stream *s, struct acl_htask *list,
		      uint64_t upto);
/*
 * Tasks started early (a host function or callback launched on an idle
 * stream runs without a HOST_BARRIER until work follows it):
 * acl_hostq_fence_locked() queues the barrier of one that still runs,
 * so that what the caller submits next waits for it: 0 or -errno.
 * Caller holds s->ring->lock, and calls it before any submission.
 */
int acl_hostq_fence_locked(struct acl_stream *s);
/* aclrtStreamAbort: nothing on @s waits for it any more (ring lock held). */
void acl_hostq_abandon_locked(struct acl_stream *s);
/* Does one run that the stream's order waits for? */
bool acl_hostq_early_busy(struct acl_stream *s);
/* Poll briefly for one to return (a synchronize, before it fences). */
void acl_hostq_settle(struct acl_stream *s);
/*
 * The sequence number in *@seq that covers all of @s's work so far,
 * fencing a task started early: 0 or -errno (*@seq set anyway).
 */
int acl_stream_mark(struct acl_stream *s, uint64_t *seq);
/* Stop and free @s's runner (after its ring was shut down). */
void acl_hostq_stop(struct acl_stream *s);
/* Detach @s from its report thread (stream destruction). */
void acl_sub_detach(struct acl_stream *s);
/* Queue one host task on @s: HOST_BARRIER plus @t. aclError. */
aclError acl_htask_submit(struct acl_stream *s, const struct acl_htask *t);
/* In a forked child: the locks again, no subscribed thread (acl_fork.c). */
void acl_htask_forked(void);

/* ---- acl_value.c ----------------------------------------------------- */

/* CANN's ACL_STREAM_WAIT_VALUE_* test of @cur against @value. */
bool acl_value_met(uint64_t cur, uint64_t value, uint32_t flag);
/*
 * Run a VALUE_WRITE / VALUE_WAIT task in a runner, whose private copy
 * ring *@io is created on first use: 0 or -errno.
 */
int acl_value_run(const struct acl_htask *t, struct acl_ring **io);

/* ---- acl_notify.c ---------------------------------------------------- */

void acl_notify_get(struct acl_notify *n);
/* Drop a reference (NULL: nothing); the last one frees the notify. */
void acl_notify_put(struct acl_notify *n);
/*
 * Run a NOTIFY_RECORD / NOTIFY_WAIT task in a runner: ACL_SUCCESS, or
 * ACL_ERROR_RT_TASK_TIMEOUT when a wait's time limit passed.
 */
aclError acl_notify_run(const struct acl_htask *t);
/* In a forked child: the id lock again (acl_fork.c). */
void acl_notify_forked(void);

/* ---- acl_event.c ----------------------------------------------------- */

void acl_event_get(struct acl_event *e);
/* Drop a reference; the last one frees the event. */
void acl_event_put(struct acl_event *e);
/*
 * Run an EVENT_WAIT / EVENT_RESET task in a runner. Return: 0, or the
 * aclError the stream fails with (a wait that timed out).
 */
aclError acl_event_run(const struct acl_htask *t);
/*
 * An external wait being queued (a replay): make it wait for the event's
 * record of now, if that has not completed. Caller holds the ring lock
 * of the stream it is queued on.
 */
void acl_event_resolve(struct acl_htask *t);

#endif /* ACL_HTASK_H */
