// SPDX-License-Identifier: GPL-2.0-only
/*
 * npu_dma: queues (streams), the ABI front end of the pipeline.
 *
 * A queue is a ring of descriptors shared with user space plus a control
 * area (struct npu_dma_queue_ctrl), in one vmalloc_user area mapped by the
 * process (npu_dma_area.c). User space writes descriptors and publishes
 * sq_tail (release), then rings the doorbell (QUEUE_SUBMIT). From there a
 * descriptor goes through the stages in order: submission copies it out
 * of the ring once (npu_dma_submit.c), validation makes a job of it
 * (npu_dma_validate.c, npu_dma_job.c), the scheduler runs it in order
 * (npu_dma_sched.c) on the NPU's engine (npu_dma_xfer.c) and it retires
 * (npu_dma_retire.c): completed_seq is published (release) and the
 * eventfd signalled once per burst.
 *
 * This file holds the queues' objects, their ids and their ioctls.
 *
 * Errors: a descriptor that fails validation, or whose transfer fails,
 * completes with its errno recorded (first failure in error_seq/error,
 * all counted in error_count); the queue goes on with the next one.
 */

#include <linux/eventfd.h>
#include <linux/file.h>
#include <linux/mm.h>
#include <linux/slab.h>

#include "npu_dma_area.h"
#include "npu_dma_compat.h"
#include "npu_dma_job.h"
#include "npu_dma_queue.h"
#include "npu_dma_retire.h"
#include "npu_dma_sched.h"
#include "npu_dma_submit.h"

/* The one file that instantiates the tracepoints of npu_dma_trace.h. */
#define CREATE_TRACE_POINTS
#include "npu_dma_trace.h"

static DEFINE_XARRAY_ALLOC1(npu_dma_queue_ids);

static void npu_queue_release(struct kref *ref)
{
	struct npu_dma_queue *q = container_of(ref, struct npu_dma_queue, ref);

	kvfree(q->spare);
	kfree(q);
}

void npu_dma_queue_put(struct npu_dma_queue *q)
{
	kref_put(&q->ref, npu_queue_release);
}

/**
 * npu_dma_queue_get_by_id() - find a live queue of a process
 * @id: global queue id
 * @mm: the queue's context must belong to this address space
 *
 * Return: the queue with a reference held, or NULL.
 */
struct npu_dma_queue *npu_dma_queue_get_by_id(u32 id, struct mm_struct *mm)
{
	struct npu_dma_queue *q;

	xa_lock(&npu_dma_queue_ids);
	q = xa_load(&npu_dma_queue_ids, id);
	if (q && q->ctx->mm == mm)
		kref_get(&q->ref);
	else
		q = NULL;
	xa_unlock(&npu_dma_queue_ids);
	return q;
}

/* A queue of this very context, by its global id. */
static struct npu_dma_queue *npu_queue_get(struct npu_dma_ctx *ctx, u32 id)
{
	struct npu_dma_queue *q = npu_dma_queue_get_by_id(id, ctx->mm);

	if (q && q->ctx != ctx) {
		npu_dma_queue_put(q);
		q = NULL;
	}
	if (!q)
		npu_dbg(ctx->ndev, "no queue %u in this context\n", id);
	return q;
}

/*
 * The head every queue ioctl shares: flags and reserved words must be
 * zero, the id must name a queue of this context.
 */
static struct npu_dma_queue *npu_queue_from_arg(struct npu_dma_ctx *ctx, u32 id,
						u32 flags, u32 valid,
						const __u64 reserved[2])
{
	struct npu_dma_queue *q;

	if ((flags & ~valid) || reserved[0] || reserved[1])
		return ERR_PTR(-EINVAL);
	q = npu_queue_get(ctx, id);
	return q ? q : ERR_PTR(-ENOENT);
}

static int npu_queue_check_create(struct npu_dma_queue_create *req)
{
	if (req->flags || req->queue_id || req->mmap_offset || req->mmap_size ||
	    memchr_inv(req->reserved, 0, sizeof(req->reserved)))
		return -EINVAL;
	if (!req->entries || req->entries > NPU_DMA_MAX_QUEUE_ENTRIES ||
	    !is_power_of_2(req->entries))
		return -EINVAL;
	return 0;
}

static struct npu_dma_queue *npu_queue_alloc(struct npu_dma_ctx *ctx, u32 entries)
{
	struct npu_dma_queue *q = kzalloc(sizeof(*q), GFP_KERNEL_ACCOUNT);
	struct npu_dma_area *area;

	if (!q)
		return ERR_PTR(-ENOMEM);
	area = npu_dma_area_create(ctx, NPU_DMA_QUEUE_RING_OFFSET +
				   (size_t)entries * sizeof(struct npu_dma_desc),
				   false);
	if (IS_ERR(area)) {
		kfree(q);
		return ERR_CAST(area);
	}
	q->area = area;
	kref_init(&q->ref);
	q->ctx = ctx;
	q->entries = entries;
	q->ctrl = q->area->mem;
	q->need_wakeup = true;	/* nothing runs until the first doorbell */
	npu_dma_submit_publish_flags(q);
	q->ring = q->area->mem + NPU_DMA_QUEUE_RING_OFFSET;
	mutex_init(&q->submit_lock);
	mutex_init(&q->run_lock);
	spin_lock_init(&q->lock);
	INIT_LIST_HEAD(&q->jobs);
	INIT_LIST_HEAD(&q->wait_node);
	INIT_WORK(&q->work, npu_dma_submit_work);
	init_waitqueue_head(&q->idle);
	return q;
}

static void npu_queue_free(struct npu_dma_queue *q)
{
	if (q->efd)
		eventfd_ctx_put(q->efd);
	npu_dma_area_put(q->area);
	npu_dma_queue_put(q);
}

int npu_dma_queue_create_ioctl(struct npu_dma_ctx *ctx, void *data)
{
	struct npu_dma_queue_create *req = data;
	struct npu_dma_queue *q;
	int ret;

	ret = npu_queue_check_create(req);
	if (ret) {
		npu_dbg(ctx->ndev, "bad queue parameters (entries %u)\n", req->entries);
		return ret;
	}
	q = npu_queue_alloc(ctx, req->entries);
	if (IS_ERR(q))
		return PTR_ERR(q);
	if (req->eventfd >= 0) {
		q->efd = eventfd_ctx_fdget(req->eventfd);
		if (IS_ERR(q->efd)) {
			ret = PTR_ERR(q->efd);
			q->efd = NULL;
			goto err_free;
		}
	} else if (req->eventfd != -1) {
		ret = -EBADF;
		goto err_free;
	}

	/*
	 * Reserve the index and the id (a NULL entry: no lookup finds it)
	 * and publish the queue only once nothing can fail: another thread
	 * could guess the id and submit, and a queue with work cannot just
	 * be freed. (The DRM core copies the answer out after this returns:
	 * if that fails the queue stays the file's, as GEM objects do.)
	 */
	ret = xa_alloc(&ctx->queues, &q->index, NULL,
		       XA_LIMIT(0, NPU_DMA_MAX_QUEUES - 1), GFP_KERNEL);
	if (ret)
		goto err_free;
	ret = xa_alloc(&npu_dma_queue_ids, &q->id, NULL, xa_limit_31b, GFP_KERNEL);
	if (ret)
		goto err_erase_index;

	req->queue_id = q->id;
	req->mmap_offset = npu_dma_area_offset(q->area);
	req->mmap_size = q->area->size;
	/* Reserved slots exist: storing there allocates nothing. */
	ret = xa_err(xa_store(&ctx->queues, q->index, q, GFP_KERNEL));
	if (!ret)
		ret = xa_err(xa_store(&npu_dma_queue_ids, q->id, q, GFP_KERNEL));
	if (ret)
		goto err_erase_id;
	return 0;

err_erase_id:
	xa_erase(&npu_dma_queue_ids, q->id);
err_erase_index:
	xa_erase(&ctx->queues, q->index);
	/* If it was in ctx->queues for a moment, device removal may have kicked it. */
	cancel_work_sync(&q->work);
err_free:
	npu_queue_free(q);
	return ret;
}

/*
 * Stop a queue for good: fail what has not started, wait for the rest.
 * The caller has taken it out of ctx->queues and holds no ctx->lock: the
 * worker may be validating descriptors, which takes ctx->lock under
 * submit_lock.
 */
static void npu_queue_kill(struct npu_dma_queue *q)
{
	mutex_lock(&q->submit_lock);
	WRITE_ONCE(q->dead, true);
	npu_dma_submit_publish_flags(q);
	mutex_unlock(&q->submit_lock);

	spin_lock_irq(&q->lock);
	q->aborting = true;
	spin_unlock_irq(&q->lock);
	npu_dma_sched_kick(q);
	wait_event(q->idle, list_empty(&q->jobs));
	/* A doorbell running jobs inline may still be signalling: wait. */
	mutex_lock(&q->run_lock);
	mutex_unlock(&q->run_lock);

	npu_dma_sched_forget(q);
	cancel_work_sync(&q->work);

	xa_erase(&npu_dma_queue_ids, q->id);
	/* Queues waiting on this one see it dead and go on. */
	npu_dma_sched_kick_waiting();
	npu_queue_free(q);
}

/*
 * Destroying waits for the work submitted before it, like a stream sync;
 * a stopped queue's work is dropped instead (it would never end). Work
 * another thread submits meanwhile is cancelled by the kill: waiting for
 * no work at all starved behind a thread ringing in a loop (seconds a
 * destroy on edu, and in one make check the test's 120 s).
 */
static int npu_queue_drain(struct npu_dma_queue *q)
{
	u64 target;

	if (mutex_lock_interruptible(&q->submit_lock))
		return -EINTR;
	target = q->seq;
	mutex_unlock(&q->submit_lock);
	return wait_event_interruptible(q->idle,
					npu_dma_queue_completed(q) >= target ||
					READ_ONCE(q->stopped));
}

int npu_dma_queue_destroy_ioctl(struct npu_dma_ctx *ctx, void *data)
{
	struct npu_dma_queue_destroy *req = data;
	struct npu_dma_queue *q;
	int ret;

	q = npu_queue_from_arg(ctx, req->queue_id, req->flags, 0, req->reserved);
	if (IS_ERR(q))
		return PTR_ERR(q);

	ret = npu_queue_drain(q);
	mutex_lock(&ctx->lock);
	if (!ret && xa_load(&ctx->queues, q->index) != q)
		ret = -ENOENT;	/* destroyed meanwhile by another thread */
	if (!ret)
		xa_erase(&ctx->queues, q->index);
	mutex_unlock(&ctx->lock);
	if (!ret)
		npu_queue_kill(q);
	npu_dma_queue_put(q);
	return ret;
}

/**
 * npu_dma_queue_abort_all() - fail the queued work of every queue
 * @ctx: the context
 */
void npu_dma_queue_abort_all(struct npu_dma_ctx *ctx)
{
	struct npu_dma_queue *q;
	unsigned long idx, flags;

	/*
	 * Under the xarray's lock, not ctx->lock (device removal holds
	 * ctx_lock, which nests inside a context's lock): a queue found
	 * there is not erased yet, so not killed nor freed, while it is
	 * marked and kicked.
	 */
	xa_lock(&ctx->queues);
	xa_for_each(&ctx->queues, idx, q) {
		spin_lock_irqsave(&q->lock, flags);
		q->aborting = true;
		npu_dma_sched_kick(q);
		spin_unlock_irqrestore(&q->lock, flags);
	}
	xa_unlock(&ctx->queues);
}

/**
 * npu_dma_queue_destroy_all() - kill every queue of a closing context
 * @ctx: the context
 */
void npu_dma_queue_destroy_all(struct npu_dma_ctx *ctx)
{
	struct npu_dma_queue *q;
	unsigned long idx;

	npu_dma_queue_abort_all(ctx);
	for (;;) {
		idx = 0;
		mutex_lock(&ctx->lock);
		q = xa_find(&ctx->queues, &idx, ULONG_MAX, XA_PRESENT);
		if (q)
			xa_erase(&ctx->queues, idx);
		mutex_unlock(&ctx->lock);
		if (!q)
			break;
		npu_queue_kill(q);
	}
}

int npu_dma_queue_submit_ioctl(struct npu_dma_ctx *ctx, void *data)
{
	struct npu_dma_queue_submit *req = data;
	struct npu_dma_queue *q;
	bool pinning;
	int ret;

	q = npu_queue_from_arg(ctx, req->queue_id, req->flags,
			       NPU_DMA_SUBMIT_F_INLINE | NPU_DMA_SUBMIT_F_HELP,
			       req->reserved);
	if (IS_ERR(q))
		return PTR_ERR(q);
	ret = npu_dma_submit_doorbell(q, req->flags, &pinning);
	npu_dma_queue_put(q);
	/*
	 * Pageable work the budgets did not admit yet stays published:
	 * user space rings again once earlier work has retired.
	 */
	if (ret >= 0 && pinning) {
		npu_dbg(ctx->ndev, "queue %u: pageable work over budget\n",
			req->queue_id);
		return -EAGAIN;
	}
	return ret;
}

int npu_dma_barrier_release_ioctl(struct npu_dma_ctx *ctx, void *data)
{
	struct npu_dma_barrier_release *req = data;
	struct npu_dma_queue *q;
	int ret = 0;

	q = npu_queue_from_arg(ctx, req->queue_id, req->flags, 0, req->reserved);
	if (IS_ERR(q))
		return PTR_ERR(q);

	spin_lock_irq(&q->lock);
	if (!req->seq || q->barrier_seq != req->seq)
		ret = -EINVAL;
	else
		q->barrier_released = req->seq;
	spin_unlock_irq(&q->lock);
	if (!ret && !npu_dma_submit_release_inline(q)) {
		/*
		 * Under q->lock, as for a doorbell: a killer sets aborting
		 * under it before its last kick, and an aborting queue needs
		 * no other.
		 */
		spin_lock_irq(&q->lock);
		if (!q->aborting)
			npu_dma_sched_kick(q);
		spin_unlock_irq(&q->lock);
	}
	npu_dma_queue_put(q);
	return ret;
}

/*
 * QUEUE_CTL STOP: start nothing more, wait for what runs, then tell the
 * waiters (NPU_DMA_QUEUE_S_STOPPED, the eventfd): completed_seq is final.
 */
static int npu_queue_stop(struct npu_dma_queue *q, u64 *seq)
{
	spin_lock_irq(&q->lock);
	q->stopped = true;
	spin_unlock_irq(&q->lock);
	/* A destroy waiting for the queue's work drops it now. */
	wake_up_all(&q->idle);
	/*
	 * Whoever runs its jobs (worker, inline doorbell) tests @stopped
	 * before each: once it lets go of run_lock nothing of it runs.
	 */
	if (mutex_lock_killable(&q->run_lock))
		return -EINTR;
	mutex_unlock(&q->run_lock);
	if (mutex_lock_killable(&q->submit_lock))
		return -EINTR;
	/*
	 * Killed meanwhile by a destroy from another thread: its area and
	 * eventfd may be gone, only the queue itself is still referenced.
	 */
	if (q->dead) {
		mutex_unlock(&q->submit_lock);
		return -ENOENT;
	}
	*seq = q->seq;
	npu_dma_submit_publish_flags(q);
	if (q->efd)
		npu_dma_eventfd_signal(q->efd);
	mutex_unlock(&q->submit_lock);
	return 0;
}

/*
 * QUEUE_CTL ABORT: cancel what was taken and what is published, wait
 * until it all retired, then run again. The wait is not under
 * submit_lock: the worker takes it to go idle once the queue is empty,
 * and an abort holding it waited for that worker for ever (a doorbell
 * rung just before the abort, as another thread may). What is rung
 * meanwhile is cancelled too, while the queue is aborting; the last of
 * concurrent aborts clears @aborting, unless the queue was killed
 * meanwhile, or the NPU went away (each pass sets it again then, see
 * npu_sched_enter()).
 */
static int npu_queue_abort(struct npu_dma_queue *q, u64 *seq)
{
	u64 target;
	int ret;

	if (mutex_lock_killable(&q->submit_lock))
		return -EINTR;
	if (q->dead) {
		mutex_unlock(&q->submit_lock);
		return -ENOENT;
	}
	spin_lock_irq(&q->lock);
	q->aborting = true;
	q->aborts++;
	spin_unlock_irq(&q->lock);
	ret = npu_dma_submit_drop(q);
	/* A tail past the ring names nothing: its doorbell says -EINVAL. */
	if (ret == -EINVAL)
		ret = 0;
	*seq = target = q->seq;
	npu_dma_sched_kick(q);
	mutex_unlock(&q->submit_lock);

	/* Bounded: nothing waits or starts on an aborting queue. */
	if (wait_event_killable(q->idle, npu_dma_queue_completed(q) >= target))
		return -EINTR;	/* left aborting: the file is closing */

	mutex_lock(&q->submit_lock);
	spin_lock_irq(&q->lock);
	if (!--q->aborts && !q->dead) {
		q->aborting = false;
		q->stopped = false;
	}
	spin_unlock_irq(&q->lock);
	/* Killed meanwhile: its area may be gone (see npu_queue_stop()). */
	if (q->dead)
		ret = -ENOENT;
	else
		npu_dma_submit_publish_flags(q);
	mutex_unlock(&q->submit_lock);
	return ret < 0 ? ret : 0;
}

int npu_dma_queue_ctl_ioctl(struct npu_dma_ctx *ctx, void *data)
{
	struct npu_dma_queue_ctl *req = data;
	struct npu_dma_queue *q;
	int ret = 0;

	if (req->seq)
		return -EINVAL;
	q = npu_queue_from_arg(ctx, req->queue_id, req->flags, 0, req->reserved);
	if (IS_ERR(q))
		return PTR_ERR(q);
	switch (req->op) {
	case NPU_DMA_QUEUE_CTL_SET_PRIORITY:
		if (req->value > NPU_DMA_QUEUE_PRIO_LOWEST)
			ret = -EINVAL;
		else
			WRITE_ONCE(q->priority, req->value);
		break;
	case NPU_DMA_QUEUE_CTL_STOP:
		ret = req->value ? -EINVAL : npu_queue_stop(q, &req->seq);
		break;
	case NPU_DMA_QUEUE_CTL_ABORT:
		ret = req->value ? -EINVAL : npu_queue_abort(q, &req->seq);
		break;
	default:
		ret = -EINVAL;
	}
	if (ret == -EINVAL)
		npu_dbg(ctx->ndev, "queue %u: bad control op %u value %u\n",
			q->id, req->op, req->value);
	npu_dma_queue_put(q);
	return ret;
}

void npu_dma_queue_exit(void)
{
	WARN_ON(!xa_empty(&npu_dma_queue_ids));
}
