// SPDX-License-Identifier: GPL-2.0-only
/*
 * npu_dma: queues (streams).
 *
 * A queue is a ring of descriptors shared with user space plus a control
 * area (struct npu_dma_queue_ctrl), in one vmalloc_user area mapped by the
 * process. User space writes descriptors and publishes sq_tail (release);
 * the doorbell (QUEUE_SUBMIT) copies each new descriptor out of the ring
 * once, validates the copy into a job and appends it to the queue's job
 * list (npu_dma_submit.c). The queue's work item runs jobs in order on
 * the NPU's engine, each holding one DMA channel (a batch on several:
 * npu_dma_runner.c), and retires them: completed_seq is published
 * (release) and the eventfd signalled once per burst.
 *
 * While it works, the work item also pulls descriptors published since
 * (in the process's mm, for pageable pins), so a busy queue needs no
 * doorbell; only when it goes idle does it set NEED_WAKEUP and ask for
 * one (io_uring's SQPOLL wakeup protocol, with the worker as the poller).
 *
 * Errors: a descriptor that fails validation, or whose transfer fails,
 * completes with its errno recorded (first failure in error_seq/error,
 * all counted in error_count); the queue goes on with the next one.
 */

#include <linux/eventfd.h>
#include <linux/file.h>
#include <linux/ktime.h>
#include <linux/kthread.h>
#include <linux/memcontrol.h>
#include <linux/mm.h>
#include <linux/sched/clock.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#include "npu_dma_compat.h"
#include "npu_dma_queue.h"

/* The one file that instantiates the tracepoints of npu_dma_trace.h. */
#define CREATE_TRACE_POINTS
#include "npu_dma_trace.h"

#define NPU_DMA_QUEUE_BUDGET		32

static unsigned int inline_max_bytes = 65536;
module_param(inline_max_bytes, uint, 0644);
MODULE_PARM_DESC(inline_max_bytes,
		 "Most bytes a doorbell with NPU_DMA_SUBMIT_F_INLINE runs in its caller's context (0: never; default 65536)");

static DEFINE_XARRAY_ALLOC1(npu_dma_queue_ids);
static struct workqueue_struct *npu_dma_wq;
static struct kmem_cache *npu_dma_job_cache;
/* Queues stopped at a WAIT, kicked whenever any queue retires work. */
static DEFINE_SPINLOCK(npu_dma_waiting_lock);
static LIST_HEAD(npu_dma_waiting);

/* Jobs come from one cache: the doorbell allocates, retirement frees. */
struct npu_dma_job *npu_dma_job_alloc(void)
{
	return kmem_cache_alloc(npu_dma_job_cache, GFP_KERNEL);
}

void npu_dma_job_free(struct npu_dma_job *job)
{
	kmem_cache_free(npu_dma_job_cache, job);
}

/* Have the queue's worker run (again). */
void npu_dma_queue_kick(struct npu_dma_queue *q)
{
	queue_work(npu_dma_wq, &q->work);
}

static void npu_queue_release(struct kref *ref)
{
	struct npu_dma_queue *q = container_of(ref, struct npu_dma_queue, ref);

	kvfree(q->spare);
	kvfree(q->descs);
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

/*
 * Acquire: a WAIT on this queue lets its own queue read what the jobs up
 * to the sequence number wrote (paired with npu_queue_complete_locked()).
 */
u64 npu_dma_queue_completed(struct npu_dma_queue *q)
{
	return smp_load_acquire(&q->completed);
}

static void npu_queue_kick_waiting(void)
{
	struct npu_dma_queue *q, *tmp;
	unsigned long flags;

	spin_lock_irqsave(&npu_dma_waiting_lock, flags);
	list_for_each_entry_safe(q, tmp, &npu_dma_waiting, wait_node) {
		list_del_init(&q->wait_node);
		npu_dma_queue_kick(q);
	}
	spin_unlock_irqrestore(&npu_dma_waiting_lock, flags);
}

static bool npu_queue_wait_over(const struct npu_dma_job *job)
{
	return npu_dma_queue_completed(job->wait_q) >= job->d.value ||
	       READ_ONCE(job->wait_q->dead);
}

/*
 * May @q's WAIT @job go on? If not, park @q until some queue progresses.
 * The test is made again under the list's lock, with the parking: a
 * queue that completes (or dies) publishes that before it takes the lock
 * to kick the list, so either this test sees it or the kick finds @q.
 */
static bool npu_queue_wait_ready(struct npu_dma_queue *q,
				 const struct npu_dma_job *job)
{
	unsigned long flags;
	bool ready;

	if (npu_queue_wait_over(job))
		return true;
	spin_lock_irqsave(&npu_dma_waiting_lock, flags);
	ready = npu_queue_wait_over(job);
	if (!ready && list_empty(&q->wait_node))
		list_add_tail(&q->wait_node, &npu_dma_waiting);
	spin_unlock_irqrestore(&npu_dma_waiting_lock, flags);
	return ready;
}

static void npu_queue_record_event(struct npu_dma_queue *q,
				   struct npu_dma_job *job)
{
	struct npu_dma_event_slot *slot = &q->ctx->events[job->d.dst];

	WRITE_ONCE(slot->timestamp_ns, ktime_get_ns());
	WRITE_ONCE(slot->queue_id, q->id);
	smp_store_release(&slot->seq, job->seq);
}

/* Count @n finished tasks, @failed of them failed, @bytes moved by the rest. */
static void npu_queue_count(struct npu_dma_queue *q, u64 n, u64 failed,
			    u64 bytes)
{
	struct npu_dma_stats *st = &q->ctx->ndev->stats;

	if (failed)
		atomic64_add(failed, &st->failed);
	if (bytes)
		atomic64_add(bytes, &st->bytes);
	atomic64_add(n, &st->completed);
}

/*
 * Tasks @job counts for, as it was counted when submitted: a GRAPH
 * that fails as a whole, all of its tasks; anything else one.
 */
static u64 npu_queue_job_tasks(const struct npu_dma_job *job)
{
	if (job->d.opcode == NPU_DMA_OP_GRAPH)
		return job->last_seq - job->seq + 1;
	return 1;
}

/* npu_dma_queue_note_result() but the counters. */
static void npu_queue_note_one(struct npu_dma_queue *q, struct npu_dma_job *job)
{
	struct npu_dma_queue_ctrl *ctrl = q->ctrl;

	if (job->status)
		trace_npu_dma_error(job);
	trace_npu_dma_complete(job);
	npu_dbg(q->ctx->ndev, "queue %u seq %llu: complete: %d\n", q->id,
		job->seq, job->status);
	if (job->status) {
		if (!READ_ONCE(ctrl->error_seq)) {
			WRITE_ONCE(ctrl->error, job->status);
			WRITE_ONCE(ctrl->error_seq, job->seq);
		}
		WRITE_ONCE(ctrl->last_error, job->status);
		WRITE_ONCE(ctrl->last_error_seq, job->seq);
		WRITE_ONCE(ctrl->error_count, READ_ONCE(ctrl->error_count) + 1);
	} else if (job->d.opcode == NPU_DMA_OP_EVENT_RECORD) {
		npu_queue_record_event(q, job);
	}
}

/**
 * npu_dma_queue_note_result() - account for one finished task
 * @q: its queue
 * @job: the job (or a graph task run as one), status final
 *
 * Counters, tracing, the error fields of the control area and, for an
 * EVENT_RECORD, its slot. Completion itself is published separately.
 */
void npu_dma_queue_note_result(struct npu_dma_queue *q, struct npu_dma_job *job)
{
	u64 n = npu_queue_job_tasks(job);

	npu_queue_count(q, n, job->status ? n : 0,
			job->status ? 0 : npu_dma_job_bytes(job));
	npu_queue_note_one(q, job);
}

/* As npu_dma_queue_note_result() for every member of @batch, counted once. */
static void npu_queue_note_members(struct npu_dma_queue *q,
				   struct npu_dma_job *batch)
{
	u64 n = 0, failed = 0, bytes = 0;
	struct npu_dma_job *m;
	u32 i;

	for (i = 0; i < batch->nr_members; i++) {
		m = &batch->members[i];
		n += npu_queue_job_tasks(m);
		if (m->status)
			failed += npu_queue_job_tasks(m);
		else
			bytes += npu_dma_job_bytes(m);
		npu_queue_note_one(q, m);
	}
	npu_queue_count(q, n, failed, bytes);
}

/* Caller holds q->lock. */
static void npu_queue_complete_locked(struct npu_dma_queue *q, u64 seq)
{
	smp_store_release(&q->completed, seq);
	if (q->barrier_seq == seq) {
		q->barrier_seq = 0;
		WRITE_ONCE(q->ctrl->barrier_seq, 0);
	}
}

/**
 * npu_dma_queue_publish() - every task up to @seq has completed
 * @q: the queue
 * @seq: a sequence number inside the job at the head of the queue
 *
 * For a graph replay that has run part of its tasks: waiters see them
 * done before the whole job retires.
 */
void npu_dma_queue_publish(struct npu_dma_queue *q, u64 seq)
{
	spin_lock_irq(&q->lock);
	npu_queue_complete_locked(q, seq);
	spin_unlock_irq(&q->lock);
	smp_store_release(&q->ctrl->completed_seq, seq);
}

/* Publish one job's completion; jobs retire in sequence order. */
static void npu_queue_retire(struct npu_dma_queue *q, struct npu_dma_job *job)
{
	bool idle;

	/* A graph's tasks were accounted for one by one as they ran. */
	if (!job->graph || job->status)
		npu_dma_queue_note_result(q, job);
	if (job->nr_members)
		npu_queue_note_members(q, job);

	/*
	 * Unpin before anyone can see the completion: whoever waits for it
	 * (a pageable copy, close) finds the pages released.
	 */
	npu_dma_job_put_refs(job);
	npu_dma_budget_uncharge(q, &job->charge);

	spin_lock_irq(&q->lock);
	list_del(&job->node);
	npu_queue_complete_locked(q, job->last_seq);
	idle = list_empty(&q->jobs);
	spin_unlock_irq(&q->lock);

	smp_store_release(&q->ctrl->completed_seq, job->last_seq);
	npu_dma_job_free(job);
	if (idle)
		wake_up_all(&q->idle);
}

/**
 * npu_dma_queue_job_ready() - may the queue's next job (or task) start?
 * @q: the queue
 * @job: its next job, or a graph task run as one
 *
 * Also publishes a reached barrier (and signals the eventfd), and puts
 * the queue on the list kicked when other queues progress.
 */
bool npu_dma_queue_job_ready(struct npu_dma_queue *q, struct npu_dma_job *job)
{
	bool ready = true;

	if (job->status || q->aborting)
		return true;

	switch (job->d.opcode) {
	case NPU_DMA_OP_WAIT:
		ready = npu_queue_wait_ready(q, job);
		break;
	case NPU_DMA_OP_HOST_BARRIER:
		spin_lock_irq(&q->lock);
		ready = q->barrier_released >= job->seq;
		if (!ready && q->barrier_seq != job->seq) {
			q->barrier_seq = job->seq;
			WRITE_ONCE(q->ctrl->barrier_seq, job->seq);
			if (q->efd)
				npu_dma_eventfd_signal(q->efd);
		}
		spin_unlock_irq(&q->lock);
		break;
	}
	return ready;
}

/* ctrl->flags is the kernel's to write: rebuild it from its own state. */
static void npu_queue_publish_flags(struct npu_dma_queue *q)
{
	WRITE_ONCE(q->ctrl->flags, (q->dead ? NPU_DMA_QUEUE_S_DEAD : 0) |
		   (q->need_wakeup ? NPU_DMA_QUEUE_S_NEED_WAKEUP : 0));
}

static void npu_queue_set_need_wakeup(struct npu_dma_queue *q, bool on)
{
	mutex_lock(&q->submit_lock);
	q->need_wakeup = on;
	npu_queue_publish_flags(q);
	mutex_unlock(&q->submit_lock);
}

/*
 * From the worker: consume what user space published since, in the
 * process's mm, up to the first descriptor naming pageable memory: that
 * one and what follows wait for the doorbell user space rings after
 * publishing it (the worker never pins, see npu_dma_budget.c). Return:
 * descriptors taken, 0, or -errno (left for the next doorbell to report).
 */
static int npu_queue_pull(struct npu_dma_queue *q)
{
	struct mm_struct *mm = q->ctx->mm;
	struct mem_cgroup *memcg;
	bool pinning;
	int n;

	if (smp_load_acquire(&q->ctrl->sq_tail) == READ_ONCE(q->head))
		return 0;
	/* A process that is exiting has nothing more to say. */
	if (!mmget_not_zero(mm))
		return 0;
	kthread_use_mm(mm);
	/* Jobs allocated for the process are charged to its cgroup. */
	memcg = set_active_memcg(q->ctx->memcg);
	mutex_lock(&q->submit_lock);
	n = npu_dma_queue_pull_locked(q, true, &pinning);
	mutex_unlock(&q->submit_lock);
	set_active_memcg(memcg);
	kthread_unuse_mm(mm);
	mmput(mm);
	return n;
}

static struct npu_dma_job *npu_queue_first(struct npu_dma_queue *q)
{
	struct npu_dma_job *job;

	spin_lock_irq(&q->lock);
	job = list_first_entry_or_null(&q->jobs, struct npu_dma_job, node);
	spin_unlock_irq(&q->lock);
	return job;
}

/* Run ready jobs; false when the budget ran out (the work is requeued). */
static bool npu_queue_run_ready(struct npu_dma_queue *q, int *budget,
				bool *retired)
{
	struct npu_dma_job *job;

	while ((job = npu_queue_first(q)) && npu_dma_queue_job_ready(q, job)) {
		if (!job->status && q->aborting && !job->graph)
			job->status = -ECANCELED;
		if (!job->status && job->graph) {
			*retired = true;	/* some of its tasks may be done */
			if (!npu_dma_graph_run(q, job))
				return true;	/* parked inside the graph */
			npu_queue_retire(q, job);
		} else if (job->members) {
			npu_dma_batch_run(q, job);
			npu_queue_retire(q, job);
		} else {
			if (!job->status)
				job->status = npu_dma_job_run(job);
			npu_queue_retire(q, job);
		}
		*retired = true;
		if (!--*budget) {
			/* Let the other queues have the channels too. */
			npu_dma_queue_kick(q);
			return false;
		}
	}
	return true;
}

/*
 * The engine is entered only inside drm_dev_enter(): once the NPU is
 * unplugged, what is left fails as an aborted queue's work does. The
 * helpers a job starts on other channels (batches, split copies) run
 * while the job waits for them, inside the same section.
 */
static bool npu_queue_enter(struct npu_dma_queue *q, int *idx)
{
	if (drm_dev_enter(&q->ctx->ndev->drm, idx))
		return true;
	spin_lock_irq(&q->lock);
	q->aborting = true;
	spin_unlock_irq(&q->lock);
	return false;
}

/*
 * A run of the worker, charged to the file's engine time (fdinfo
 * drm-engine-dma) once per run rather than per job: the clock is read
 * twice per run (local_clock(): a clocksource read can trap into the
 * hypervisor), and a worker that moved CPU, whose clock may go back,
 * charges nothing for that run.
 */
static void npu_queue_charge(struct npu_dma_queue *q, u64 t0)
{
	u64 t1 = local_clock();

	if (t1 > t0)
		atomic64_add(t1 - t0, &q->ctx->engine_ns);
}

/* The end of a run: what retired is charged, signalled, and unblocks WAITs. */
static void npu_queue_run_done(struct npu_dma_queue *q, u64 t0, bool retired)
{
	if (!retired)
		return;
	npu_queue_charge(q, t0);
	if (q->efd)
		npu_dma_eventfd_signal(q->efd);
	npu_queue_kick_waiting();
}

static void npu_queue_work(struct work_struct *work)
{
	struct npu_dma_queue *q = container_of(work, struct npu_dma_queue, work);
	int budget = NPU_DMA_QUEUE_BUDGET;
	bool entered, retired = false;
	u64 t0;
	int idx;

	mutex_lock(&q->run_lock);
	t0 = local_clock();
	entered = npu_queue_enter(q, &idx);
	while (npu_queue_run_ready(q, &budget, &retired)) {
		if (npu_queue_first(q))
			break;	/* parked at a WAIT or barrier: kicked later */
		if (npu_queue_pull(q) > 0)
			continue;
		/* Idle: ask for a doorbell, then look once more (see the ABI). */
		npu_queue_set_need_wakeup(q, true);
		smp_mb();
		if (npu_queue_pull(q) <= 0)
			break;
		npu_queue_set_need_wakeup(q, false);
	}
	if (entered)
		drm_dev_exit(idx);
	npu_queue_run_done(q, t0, retired);
	mutex_unlock(&q->run_lock);
}

/* Work a doorbell may run inline: short, and never parks. */
static bool npu_queue_job_inline(const struct npu_dma_job *job, u64 *bytes)
{
	const struct npu_dma_desc *d = &job->d;

	if (job->graph || job->members)
		return false;
	switch (d->opcode) {
	case NPU_DMA_OP_COPY_2D:
		*bytes += job->status ? 0 : d->len * d->height;
		return true;
	case NPU_DMA_OP_COPY:
	case NPU_DMA_OP_FILL:
		*bytes += job->status ? 0 : d->len;
		return true;
	case NPU_DMA_OP_NOP:
	case NPU_DMA_OP_EVENT_RECORD:
		return true;
	default:
		return false;
	}
}

static bool npu_queue_jobs_inline(struct npu_dma_queue *q)
{
	u64 bytes = 0, max = READ_ONCE(inline_max_bytes);
	struct npu_dma_job *job;
	bool ok = max;

	spin_lock_irq(&q->lock);
	list_for_each_entry(job, &q->jobs, node) {
		if (!ok || !npu_queue_job_inline(job, &bytes) || bytes > max) {
			ok = false;
			break;
		}
	}
	spin_unlock_irq(&q->lock);
	return ok;
}

/*
 * NPU_DMA_SUBMIT_F_INLINE on an idle queue: run what this doorbell
 * consumed here, in the caller's context, when it is small. The caller
 * waits for it anyway; waking the queue's worker, and then being woken
 * by it, costs more than the work (two cross-CPU wake-ups). Called with
 * submit_lock held and @q->run_lock taken by the caller (so no worker
 * runs jobs meanwhile, and a killer waits); drops both. NEED_WAKEUP
 * stays set: the queue never looked awake, so user space rings for
 * whatever it publishes next. Whatever is left (another doorbell's work
 * appended meanwhile) goes to the worker.
 */
static void npu_queue_run_inline(struct npu_dma_queue *q)
{
	int budget = NPU_DMA_QUEUE_BUDGET;
	bool entered, retired = false;
	u64 t0 = local_clock();
	int idx;

	mutex_unlock(&q->submit_lock);
	entered = npu_queue_enter(q, &idx);
	npu_queue_run_ready(q, &budget, &retired);
	if (entered)
		drm_dev_exit(idx);
	npu_queue_run_done(q, t0, retired);
	if (npu_queue_first(q))
		npu_dma_queue_kick(q);
	mutex_unlock(&q->run_lock);
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
	npu_queue_publish_flags(q);
	q->ring = q->area->mem + NPU_DMA_QUEUE_RING_OFFSET;
	mutex_init(&q->submit_lock);
	mutex_init(&q->run_lock);
	spin_lock_init(&q->lock);
	INIT_LIST_HEAD(&q->jobs);
	INIT_LIST_HEAD(&q->wait_node);
	INIT_WORK(&q->work, npu_queue_work);
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
	unsigned long flags;

	mutex_lock(&q->submit_lock);
	WRITE_ONCE(q->dead, true);
	npu_queue_publish_flags(q);
	mutex_unlock(&q->submit_lock);

	spin_lock_irq(&q->lock);
	q->aborting = true;
	spin_unlock_irq(&q->lock);
	npu_dma_queue_kick(q);
	wait_event(q->idle, list_empty(&q->jobs));
	/* A doorbell running jobs inline may still be signalling: wait. */
	mutex_lock(&q->run_lock);
	mutex_unlock(&q->run_lock);

	spin_lock_irqsave(&npu_dma_waiting_lock, flags);
	list_del_init(&q->wait_node);
	spin_unlock_irqrestore(&npu_dma_waiting_lock, flags);
	cancel_work_sync(&q->work);

	xa_erase(&npu_dma_queue_ids, q->id);
	/* Queues waiting on this one see it dead and go on. */
	npu_queue_kick_waiting();
	npu_queue_free(q);
}

int npu_dma_queue_destroy_ioctl(struct npu_dma_ctx *ctx, void *data)
{
	struct npu_dma_queue_destroy *req = data;
	struct npu_dma_queue *q;
	int ret;

	q = npu_queue_from_arg(ctx, req->queue_id, req->flags, 0, req->reserved);
	if (IS_ERR(q))
		return PTR_ERR(q);

	/* Destroying waits for the queue's work, like a stream sync. */
	ret = wait_event_interruptible(q->idle, list_empty(&q->jobs));
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
		npu_dma_queue_kick(q);
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
			       NPU_DMA_SUBMIT_F_INLINE, req->reserved);
	if (IS_ERR(q))
		return PTR_ERR(q);

	mutex_lock(&q->submit_lock);
	ret = npu_dma_queue_pull_locked(q, false, &pinning);
	/*
	 * Idle (NEED_WAKEUP) and no worker running jobs: the worker sets
	 * the flag while it still holds run_lock, so the trylock fails
	 * until it is truly gone.
	 */
	if (ret > 0 && (req->flags & NPU_DMA_SUBMIT_F_INLINE) &&
	    q->need_wakeup && mutex_trylock(&q->run_lock)) {
		if (npu_queue_jobs_inline(q)) {
			npu_queue_run_inline(q);
			goto out;
		}
		mutex_unlock(&q->run_lock);
	}
	if (ret > 0 && q->need_wakeup) {
		/* Awake until the worker finds the queue idle again. */
		q->need_wakeup = false;
		npu_queue_publish_flags(q);
	}
	/*
	 * Kicked under submit_lock: a killer marks the queue dead under it
	 * too, so this work is queued before the killer cancels the last,
	 * never after the queue was freed.
	 */
	if (ret > 0)
		npu_dma_queue_kick(q);
	mutex_unlock(&q->submit_lock);
out:
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
	/*
	 * Under q->lock, as for a doorbell: a killer sets aborting under it
	 * before its last kick, and an aborting queue needs no other.
	 */
	if (!ret && !q->aborting)
		npu_dma_queue_kick(q);
	spin_unlock_irq(&q->lock);
	npu_dma_queue_put(q);
	return ret;
}

/**
 * npu_dma_vmalloc_fault() - map a page of a vmalloc_user() area again
 * @vmf: the fault
 * @mem: the area
 * @size: its size in bytes, page aligned
 * @pgoff: file page offset at which the area starts
 *
 * remap_vmalloc_range() fills the page tables at mmap time; this brings
 * a page back once they were zapped (MADV_DONTNEED, drm_dev_unplug()), so
 * the process sees the same memory again instead of a SIGBUS.
 * @vmf->pgoff is the file offset, which stays right when a partial munmap
 * splits the mapping.
 *
 * Return: 0 with @vmf->page referenced, VM_FAULT_SIGBUS outside the area.
 */
vm_fault_t npu_dma_vmalloc_fault(struct vm_fault *vmf, void *mem, size_t size,
				 pgoff_t pgoff)
{
	pgoff_t index = vmf->pgoff - pgoff;

	if (vmf->pgoff < pgoff || index >= size >> PAGE_SHIFT)
		return VM_FAULT_SIGBUS;
	vmf->page = vmalloc_to_page(mem + (index << PAGE_SHIFT));
	get_page(vmf->page);
	return 0;
}

int npu_dma_queue_init(void)
{
	npu_dma_job_cache = KMEM_CACHE(npu_dma_job, SLAB_ACCOUNT);
	if (!npu_dma_job_cache)
		return -ENOMEM;
	npu_dma_wq = alloc_workqueue("npu_dma", WQ_UNBOUND, 0);
	if (!npu_dma_wq)
		goto err_cache;
	if (npu_dma_runner_init())
		goto err_wq;
	return 0;

err_wq:
	destroy_workqueue(npu_dma_wq);
err_cache:
	kmem_cache_destroy(npu_dma_job_cache);
	return -ENOMEM;
}

void npu_dma_queue_exit(void)
{
	npu_dma_runner_exit();
	destroy_workqueue(npu_dma_wq);
	kmem_cache_destroy(npu_dma_job_cache);
	WARN_ON(!xa_empty(&npu_dma_queue_ids));
}
