// SPDX-License-Identifier: GPL-2.0-only
/*
 * npu_dma: signals, the driver's half of CANN's IPC events and notifies
 * (aclrtIpcGetEventHandle, aclrtNotifyGetExportKey and friends).
 *
 * A signal counts records. A SIGNAL descriptor is one more record: its
 * number is taken when the doorbell validates it, and it is done when
 * the descriptor retires without error (one that failed, its queue
 * aborted, was never made: its waiters wait on, until the signal's
 * creator lets go of it, which fails them). A WAIT_SIGNAL waits until
 * every record submitted before it is done; with
 * NPU_DMA_DESC_F_SIGNAL_RESET it waits for one record done since the
 * last such wait passed, and consumes them (a notify's wait-and-reset).
 * Waits park on the scheduler's list of waiting queues, like WAIT, and
 * are looked at again whenever a queue retires work.
 *
 * A signal belongs to the file that created it and is shared with other
 * processes by IPC key (npu_dma_ipc.c, NPU_DMA_IPC_F_SIGNAL): every file
 * that has it holds a reference. When the creator's file closes or
 * destroys it, the signal is dead: waits not met end with -EPIPE, never
 * hang. Signals are not allowed in graphs: a replay would reuse the
 * record numbers its validation took.
 *
 * A host waits by SIGNAL_WAIT, on the signal's wait queue, for what a
 * WAIT_SIGNAL would wait for: the records submitted before the call.
 */

#include <linux/ktime.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <linux/xarray.h>

#include "npu_dma_job.h"
#include "npu_dma_sched.h"
#include "npu_dma_signal.h"

/* Signals a file may hold. */
#define NPU_DMA_MAX_SIGNALS	4096

/**
 * struct npu_dma_signal - counted records
 * @ref: held by each file that has it and by each job naming it
 * @lock: Protects @submitted, @consumed and writes of @completed
 * @submitted: records validated
 * @completed: records done (read without the lock)
 * @consumed: records that wait-and-reset waits have taken
 * @owner: the creating file's context while it holds the signal
 * @dead: the creator let go: waits not met fail
 * @wq: hosts in SIGNAL_WAIT; woken when a record is done or @dead is set
 */
struct npu_dma_signal {
	struct kref ref;
	spinlock_t lock;		/* see above */
	u64 submitted;
	u64 completed;
	u64 consumed;
	struct npu_dma_ctx *owner;
	bool dead;
	wait_queue_head_t wq;
};

static void npu_signal_free(struct kref *ref)
{
	kfree(container_of(ref, struct npu_dma_signal, ref));
}

void npu_dma_signal_get(struct npu_dma_signal *sig)
{
	kref_get(&sig->ref);
}

void npu_dma_signal_put(struct npu_dma_signal *sig)
{
	kref_put(&sig->ref, npu_signal_free);
}

/* Did @ctx create @sig (and still holds it)? */
bool npu_dma_signal_owned(struct npu_dma_signal *sig, struct npu_dma_ctx *ctx)
{
	bool owned;

	spin_lock(&sig->lock);
	owned = sig->owner == ctx;
	spin_unlock(&sig->lock);
	return owned;
}

/**
 * npu_dma_signal_lookup() - a signal of a file, referenced
 * @ctx: the file's context
 * @id: its id there
 *
 * Return: the signal, or NULL.
 */
struct npu_dma_signal *npu_dma_signal_lookup(struct npu_dma_ctx *ctx, u32 id)
{
	struct npu_dma_signal *sig;

	xa_lock(&ctx->signals);
	sig = xa_load(&ctx->signals, id);
	if (sig)
		kref_get(&sig->ref);
	xa_unlock(&ctx->signals);
	return sig;
}

/**
 * npu_dma_signal_add() - give a file a signal (created, or imported)
 * @ctx: the file's context
 * @sig: the signal; the file's table takes this reference
 * @id: out: its id in the file
 *
 * Return: 0, or -ENOSPC / -ENOMEM (the reference is the caller's then).
 */
int npu_dma_signal_add(struct npu_dma_ctx *ctx, struct npu_dma_signal *sig,
		       u32 *id)
{
	return xa_alloc(&ctx->signals, id, sig,
			XA_LIMIT(1, NPU_DMA_MAX_SIGNALS), GFP_KERNEL_ACCOUNT);
}

/* The creator lets go of @sig: it is dead, and its waiters look again. */
static void npu_signal_drop(struct npu_dma_ctx *ctx, struct npu_dma_signal *sig)
{
	bool died = false;

	spin_lock(&sig->lock);
	if (sig->owner == ctx) {
		sig->owner = NULL;
		WRITE_ONCE(sig->dead, true);
		died = true;
	}
	spin_unlock(&sig->lock);
	if (died) {
		wake_up_all(&sig->wq);
		npu_dma_sched_kick_waiting();
	}
	npu_dma_signal_put(sig);
}

/**
 * npu_dma_signal_release_all() - a closing file lets go of its signals
 * @ctx: the file's context
 */
void npu_dma_signal_release_all(struct npu_dma_ctx *ctx)
{
	struct npu_dma_signal *sig;
	unsigned long id;

	xa_for_each(&ctx->signals, id, sig) {
		xa_erase(&ctx->signals, id);
		npu_signal_drop(ctx, sig);
	}
}

int npu_dma_signal_create_ioctl(struct npu_dma_ctx *ctx, void *data)
{
	struct npu_dma_signal_create *req = data;
	struct npu_dma_signal *sig;
	int ret;

	if (req->id || req->flags || req->reserved[0] || req->reserved[1])
		return -EINVAL;
	sig = kzalloc(sizeof(*sig), GFP_KERNEL_ACCOUNT);
	if (!sig)
		return -ENOMEM;
	kref_init(&sig->ref);
	spin_lock_init(&sig->lock);
	init_waitqueue_head(&sig->wq);
	sig->owner = ctx;
	ret = npu_dma_signal_add(ctx, sig, &req->id);
	if (ret) {
		kfree(sig);
		return ret == -EBUSY ? -ENOSPC : ret;
	}
	return 0;
}

int npu_dma_signal_destroy_ioctl(struct npu_dma_ctx *ctx, void *data)
{
	struct npu_dma_signal_destroy *req = data;
	struct npu_dma_signal *sig;

	if (req->flags || req->reserved[0] || req->reserved[1])
		return -EINVAL;
	sig = xa_erase(&ctx->signals, req->id);
	if (!sig)
		return -ENOENT;
	npu_signal_drop(ctx, sig);
	return 0;
}

/**
 * npu_dma_signal_validate() - resolve a SIGNAL or WAIT_SIGNAL descriptor
 * @ctx: the submitting file's context
 * @job: the job; @job->d.value is the signal's id in the file
 *
 * Return: 0, or -ENOENT for no such signal.
 */
int npu_dma_signal_validate(struct npu_dma_ctx *ctx, struct npu_dma_job *job)
{
	struct npu_dma_signal *sig;

	if (job->d.value > U32_MAX)
		return -ENOENT;
	sig = npu_dma_signal_lookup(ctx, (u32)job->d.value);
	if (!sig)
		return -ENOENT;
	job->sig = sig;
	spin_lock(&sig->lock);
	if (job->d.opcode == NPU_DMA_OP_SIGNAL)
		job->sig_target = ++sig->submitted;
	else
		job->sig_target = sig->submitted;
	spin_unlock(&sig->lock);
	return 0;
}

/* May @job's WAIT_SIGNAL go on (met, or never to be)? */
bool npu_dma_signal_met(const struct npu_dma_job *job)
{
	const struct npu_dma_signal *sig = job->sig;

	if (job->d.flags & NPU_DMA_DESC_F_SIGNAL_RESET)
		return READ_ONCE(sig->completed) > READ_ONCE(sig->consumed) ||
		       READ_ONCE(sig->dead);
	return READ_ONCE(sig->completed) >= job->sig_target ||
	       READ_ONCE(sig->dead);
}

/* @job's WAIT_SIGNAL goes on: take what it consumes, or fail it. */
void npu_dma_signal_pass(struct npu_dma_job *job)
{
	struct npu_dma_signal *sig = job->sig;

	spin_lock(&sig->lock);
	if (job->d.flags & NPU_DMA_DESC_F_SIGNAL_RESET) {
		if (sig->completed > sig->consumed)
			sig->consumed = sig->completed;
		else
			job->status = -EPIPE;	/* dead before a record */
	} else if (sig->completed < job->sig_target) {
		job->status = -EPIPE;
	}
	spin_unlock(&sig->lock);
}

/* @job's SIGNAL retired: its record is done. */
void npu_dma_signal_done(struct npu_dma_job *job)
{
	struct npu_dma_signal *sig = job->sig;

	spin_lock(&sig->lock);
	if (job->sig_target > sig->completed)
		WRITE_ONCE(sig->completed, job->sig_target);
	spin_unlock(&sig->lock);
	wake_up_all(&sig->wq);
}

/* Are the records up to @target done, or never to be? */
static bool npu_signal_reached(const struct npu_dma_signal *sig, u64 target)
{
	return READ_ONCE(sig->completed) >= target || READ_ONCE(sig->dead);
}

/* Sleep until @target is reached or CLOCK_MONOTONIC passes @deadline. */
static int npu_signal_sleep(struct npu_dma_signal *sig, u64 target,
			    s64 deadline)
{
	ktime_t left;

	if (deadline == S64_MAX)
		return wait_event_interruptible(sig->wq,
						npu_signal_reached(sig, target));
	left = ktime_sub(ns_to_ktime(deadline), ktime_get());
	if (ktime_to_ns(left) <= 0)
		return -ETIME;
	return wait_event_interruptible_hrtimeout(sig->wq,
						  npu_signal_reached(sig, target),
						  left);
}

/**
 * npu_dma_signal_wait_begin() - SIGNAL_WAIT's checks, and its target
 * @ctx: the caller's file's context
 * @data: its struct npu_dma_signal_wait
 * @target: out: the records submitted so far, which it waits for
 *
 * Return: the signal, referenced; or ERR_PTR(-EINVAL / -ENOENT).
 */
struct npu_dma_signal *npu_dma_signal_wait_begin(struct npu_dma_ctx *ctx,
						 void *data, u64 *target)
{
	struct npu_dma_signal_wait *req = data;
	struct npu_dma_signal *sig;

	if ((req->flags & ~NPU_DMA_SIGNAL_WAIT_F_QUERY) || req->reserved[0] ||
	    req->reserved[1])
		return ERR_PTR(-EINVAL);
	sig = npu_dma_signal_lookup(ctx, req->id);
	if (!sig)
		return ERR_PTR(-ENOENT);
	spin_lock(&sig->lock);
	*target = sig->submitted;
	spin_unlock(&sig->lock);
	return sig;
}

/**
 * npu_dma_signal_wait_end() - SIGNAL_WAIT's wait; drops the reference
 * @sig: from npu_dma_signal_wait_begin()
 * @target: likewise
 * @data: the struct npu_dma_signal_wait
 *
 * Return: 0 when the records up to @target are done; -EBUSY (a query),
 * -ETIME, -ERESTARTSYS, or -EPIPE (the creator let go first).
 */
int npu_dma_signal_wait_end(struct npu_dma_signal *sig, u64 target,
			    void *data)
{
	struct npu_dma_signal_wait *req = data;
	int ret = 0;

	if (!npu_signal_reached(sig, target))
		ret = (req->flags & NPU_DMA_SIGNAL_WAIT_F_QUERY) ? -EBUSY :
		      npu_signal_sleep(sig, target, req->timeout_ns);
	if (!ret && READ_ONCE(sig->completed) < target)
		ret = -EPIPE;	/* its creator let go first */
	npu_dma_signal_put(sig);
	return ret;
}
