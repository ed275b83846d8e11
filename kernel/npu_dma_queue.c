// SPDX-License-Identifier: GPL-2.0-only
/*
 * npu_dma: queues (streams).
 *
 * A queue is a ring of descriptors shared with user space plus a control
 * area (struct npu_dma_queue_ctrl), in one vmalloc_user area mapped by the
 * process. User space writes descriptors and publishes sq_tail (release);
 * the doorbell (QUEUE_SUBMIT) copies each new descriptor out of the ring
 * once, validates the copy into a job and appends it to the queue's job
 * list. The queue's work item runs jobs in order on the NPU's engine,
 * each holding one DMA channel, and retires them: completed_seq is
 * published (release) and the eventfd signalled once per burst.
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
#include <linux/mm.h>
#include <linux/sched/mm.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#include "npu_dma_compat.h"
#include "npu_dma_queue.h"

/* The one file that instantiates the tracepoints of npu_dma_trace.h. */
#define CREATE_TRACE_POINTS
#include "npu_dma_trace.h"

#define NPU_DMA_QUEUE_MMAP_SHIFT	24
#define NPU_DMA_QUEUE_BUDGET		32

static DEFINE_XARRAY_ALLOC1(npu_dma_queue_ids);
static struct workqueue_struct *npu_dma_wq;
/* Per CPU, for a batch's helper started where its doorbell ran. */
static struct workqueue_struct *npu_dma_runner_wq;
static struct kmem_cache *npu_dma_job_cache;
/* Queues stopped at a WAIT, kicked whenever any queue retires work. */
static DEFINE_SPINLOCK(npu_dma_waiting_lock);
static LIST_HEAD(npu_dma_waiting);

static void npu_area_put(struct npu_dma_area *area)
{
	if (refcount_dec_and_test(&area->ref)) {
		vfree(area->mem);
		kfree(area);
	}
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
						u32 flags, const __u64 reserved[2])
{
	struct npu_dma_queue *q;

	if (flags || reserved[0] || reserved[1])
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
		queue_work(npu_dma_wq, &q->work);
	}
	spin_unlock_irqrestore(&npu_dma_waiting_lock, flags);
}

static void npu_queue_wait_later(struct npu_dma_queue *q)
{
	unsigned long flags;

	spin_lock_irqsave(&npu_dma_waiting_lock, flags);
	if (list_empty(&q->wait_node))
		list_add_tail(&q->wait_node, &npu_dma_waiting);
	spin_unlock_irqrestore(&npu_dma_waiting_lock, flags);
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

/* npu_dma_queue_note_result() but the counters. */
static void npu_queue_note_one(struct npu_dma_queue *q, struct npu_dma_job *job)
{
	struct npu_dma_queue_ctrl *ctrl = q->ctrl;

	if (job->status)
		trace_npu_dma_error(job);
	trace_npu_dma_complete(job);
	dev_dbg(&q->ctx->ndev->dev, "queue %u seq %llu: complete: %d\n", q->id,
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
	npu_queue_count(q, 1, !!job->status,
			job->status ? 0 : npu_dma_job_bytes(job));
	npu_queue_note_one(q, job);
}

/* As npu_dma_queue_note_result() for every member of @batch, counted once. */
static void npu_queue_note_members(struct npu_dma_queue *q,
				   struct npu_dma_job *batch)
{
	u64 failed = 0, bytes = 0;
	struct npu_dma_job *m;
	u32 i;

	for (i = 0; i < batch->nr_members; i++) {
		m = &batch->members[i];
		if (m->status)
			failed++;
		else
			bytes += npu_dma_job_bytes(m);
		npu_queue_note_one(q, m);
	}
	npu_queue_count(q, batch->nr_members, failed, bytes);
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

	spin_lock_irq(&q->lock);
	list_del(&job->node);
	npu_queue_complete_locked(q, job->last_seq);
	idle = list_empty(&q->jobs);
	spin_unlock_irq(&q->lock);

	smp_store_release(&q->ctrl->completed_seq, job->last_seq);
	kmem_cache_free(npu_dma_job_cache, job);
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
		ready = npu_dma_queue_completed(job->wait_q) >= job->d.value ||
			job->wait_q->dead;
		if (!ready)
			npu_queue_wait_later(q);
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

/**
 * struct npu_dma_batch - a batch in flight
 * @q: its queue
 * @begin: its job
 * @count: its members (the BATCH_END after them is not one)
 * @next: index of the next member to claim
 */
struct npu_dma_batch {
	struct npu_dma_queue *q;
	struct npu_dma_job *begin;
	u32 count;
	atomic_t next;
};

/*
 * Wait until the doorbell has validated the first @n members of @begin.
 * Interruptibly, though a kworker gets no signals: how long validation
 * takes is up to the submitter (its pageable members' page faults, a
 * userfaultfd that never answers), and that is no hung task.
 */
static void npu_batch_wait_prepared(struct npu_dma_job *begin, u32 n)
{
	if (wait_var_event_interruptible(&begin->prepared,
					 smp_load_acquire(&begin->prepared) >= n))
		wait_var_event(&begin->prepared,
			       smp_load_acquire(&begin->prepared) >= n);
}

/*
 * Members claimed at once: a run of them shares the claim, the wait and
 * the engine calls (npu_dma_members_exec()), up to so many bytes, so
 * that a few large members still spread over the channels.
 */
#define NPU_BATCH_CLAIM_MAX	16
#define NPU_BATCH_CLAIM_BYTES	SZ_64K

/* How many validated members from @next on (below @ready) to claim. */
static u32 npu_batch_chunk(const struct npu_dma_batch *b, u32 next, u32 ready)
{
	const struct npu_dma_job *m = b->begin->members;
	u64 bytes = 0;
	u32 n = 0;

	while (next + n < ready && n < NPU_BATCH_CLAIM_MAX &&
	       bytes < NPU_BATCH_CLAIM_BYTES) {
		bytes += m[next + n].d.len * max_t(u64, m[next + n].d.height, 1);
		n++;
	}
	return n;
}

/*
 * Claim members *@first .. *@first + return - 1 (0: none left). Runners
 * take validated members only: a helper that catches up with the
 * doorbell leaves, rather than sleep and wake every few members and
 * steal the doorbell's CPU each time. The worker then claims the next
 * member alone and waits for its validation.
 */
static u32 npu_batch_claim(struct npu_dma_batch *b, bool helper, u32 *first)
{
	int next = atomic_read(&b->next);
	u32 ready, n;

	do {
		ready = min(b->count, smp_load_acquire(&b->begin->prepared));
		if (next >= b->count || (helper && next >= ready))
			return 0;
		n = next < ready ? npu_batch_chunk(b, next, ready) : 1;
	} while (!atomic_try_cmpxchg(&b->next, &next, next + n));
	*first = next;
	return n;
}

/*
 * Run members until none is left. A runner takes a DMA channel for the
 * first members it claims and keeps it for the rest, but not while it
 * waits for the doorbell's validation: that may wait on page faults for
 * as long as the submitter likes, and the channels are every process's.
 */
static void npu_batch_run_members(struct npu_dma_batch *b, bool helper)
{
	struct npu_dma_device *ndev = b->q->ctx->ndev;
	u32 first, n;
	int chan = -1;

	while ((n = npu_batch_claim(b, helper, &first))) {
		if (smp_load_acquire(&b->begin->prepared) < first + n) {
			if (chan >= 0)
				npu_dma_chan_put(ndev, chan);
			chan = -1;
			npu_batch_wait_prepared(b->begin, first + n);
		}
		if (chan < 0)
			chan = npu_dma_chan_get(ndev);
		npu_dma_members_exec(&b->begin->members[first], n, chan);
	}
	if (chan >= 0)
		npu_dma_chan_put(ndev, chan);
}

struct npu_batch_runner {
	struct work_struct work;
	struct npu_dma_batch *batch;
};

static void npu_batch_runner_work(struct work_struct *work)
{
	npu_batch_run_members(container_of(work, struct npu_batch_runner, work)->batch,
			      true);
}

/**
 * npu_dma_queue_work_elsewhere() - start a channel's helper on a given CPU
 * @work: the helper's work item
 * @nth: the nth online CPU after this one, wrapping around (0: this one;
 *	a job's helper i goes to the ith)
 *
 * Per CPU (``WQ_CPU_INTENSIVE``): a helper queued on the unbound
 * workqueue tends to be woken on the CPU of its waker, which is busy
 * with the job itself, and to stay there.
 */
void npu_dma_queue_work_elsewhere(struct work_struct *work, unsigned int nth)
{
	int cpu = raw_smp_processor_id();

	while (nth--) {
		cpu = cpumask_next(cpu, cpu_online_mask);
		if (cpu >= nr_cpu_ids)
			cpu = cpumask_first(cpu_online_mask);
	}
	queue_work_on(cpu, npu_dma_runner_wq, work);
}

/* In a batch's late_runner once its doorbell has validated every member. */
static struct npu_batch_runner npu_batch_validated_mark;

/**
 * npu_dma_batch_validated() - the doorbell has validated a whole batch
 * @begin: the batch's job, not reported done yet (still the doorbell's)
 *
 * If its worker runs it already, start the helper it left for this
 * CPU: the submitter is about to go back to user space, typically to
 * wait, and a helper woken elsewhere would wait there for the scheduler
 * to move it. Else the worker starts that helper itself.
 */
static void npu_dma_batch_validated(struct npu_dma_job *begin)
{
	struct npu_batch_runner *late = xchg(&begin->late_runner,
					     &npu_batch_validated_mark);

	if (late && atomic_read(&late->batch->next) < late->batch->count)
		npu_dma_queue_work_elsewhere(&late->work, 0);
}

/*
 * Start up to @n - 1 helpers at once, one on each CPU that neither this
 * worker nor the doorbell runs on: the doorbell's CPU is busy validating
 * the members the runners take, and a runner woken there (the scheduler
 * puts an unbound worker on any CPU once none is idle) took it from the
 * doorbell, held up every runner and left once it caught up. The last
 * helper goes to the doorbell's CPU when the doorbell is done (see
 * npu_dma_batch_validated()), or now if it already is.
 */
static void npu_batch_start_helpers(struct npu_dma_batch *batch,
				    struct npu_batch_runner *runners,
				    unsigned int n)
{
	int self = raw_smp_processor_id(), cpu;
	unsigned int i, early = 0;

	for (i = 0; i < n; i++) {
		runners[i].batch = batch;
		INIT_WORK(&runners[i].work, npu_batch_runner_work);
	}
	for_each_online_cpu(cpu) {
		if (early == n - 1)
			break;
		if (cpu != self && cpu != batch->begin->doorbell_cpu)
			queue_work_on(cpu, npu_dma_runner_wq,
				      &runners[early++].work);
	}
	if (cmpxchg(&batch->begin->late_runner, NULL, &runners[early]))
		queue_work_on(batch->begin->doorbell_cpu, npu_dma_runner_wq,
			      &runners[early].work);
}

/*
 * Run a batch's members on as many channels as the NPU has: this worker
 * and up to nr_channels - 1 helpers claim runs of members (a work item
 * per channel, not per member: a batch of thousands of tiny copies must
 * not cost thousands of wake-ups). The last helper is started by the
 * doorbell on its own CPU once it has validated the batch (or here, if
 * it has already). Then retire the batch as one job.
 */
static void npu_queue_run_batch(struct npu_dma_queue *q, struct npu_dma_job *begin)
{
	struct npu_dma_batch batch = {
		.q = q, .begin = begin, .count = begin->nr_members - 1,
	};
	struct npu_batch_runner *runners = NULL;
	unsigned int i, n;

	atomic_set(&batch.next, 0);
	if (begin->status) {
		npu_batch_wait_prepared(begin, begin->nr_members);
		/* Aborted before it started: so is every member. */
		for (i = 0; i < begin->nr_members; i++)
			if (!begin->members[i].status)
				begin->members[i].status = begin->status;
		batch.count = 0;
	}
	n = min(batch.count, q->ctx->ndev->nr_channels) - (batch.count > 0);
	/* Without helpers (no memory) this worker runs every member alone. */
	if (n)
		runners = kcalloc(n, sizeof(*runners), GFP_KERNEL);
	if (runners)
		npu_batch_start_helpers(&batch, runners, n);
	npu_batch_run_members(&batch, false);
	/*
	 * Not before the doorbell is done with the batch (an empty one
	 * too): then no helper is queued any more. Every member is
	 * claimed: a helper still waiting to start would find none, so it
	 * is not waited for.
	 */
	npu_batch_wait_prepared(begin, begin->nr_members);
	for (i = 0; runners && i < n; i++)
		cancel_work_sync(&runners[i].work);
	kfree(runners);
	npu_queue_retire(q, begin);
}

static int npu_queue_pull_locked(struct npu_dma_queue *q);

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
 * From the worker: consume what user space published since, as the
 * process would (its mm, for pageable pins). Return: descriptors taken,
 * 0, or -errno (left for the next doorbell to report).
 */
static int npu_queue_pull(struct npu_dma_queue *q)
{
	struct mm_struct *mm = q->ctx->mm;
	int n;

	if (smp_load_acquire(&q->ctrl->sq_tail) == READ_ONCE(q->head))
		return 0;
	/* A process that is exiting has nothing more to say. */
	if (!mmget_not_zero(mm))
		return 0;
	kthread_use_mm(mm);
	mutex_lock(&q->submit_lock);
	n = npu_queue_pull_locked(q);
	mutex_unlock(&q->submit_lock);
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
			npu_queue_run_batch(q, job);
		} else {
			if (!job->status)
				job->status = npu_dma_job_run(job);
			npu_queue_retire(q, job);
		}
		*retired = true;
		if (!--*budget) {
			/* Let the other queues have the channels too. */
			queue_work(npu_dma_wq, &q->work);
			return false;
		}
	}
	return true;
}

static void npu_queue_work(struct work_struct *work)
{
	struct npu_dma_queue *q = container_of(work, struct npu_dma_queue, work);
	int budget = NPU_DMA_QUEUE_BUDGET;
	bool retired = false;

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
	if (retired) {
		if (q->efd)
			npu_dma_eventfd_signal(q->efd);
		npu_queue_kick_waiting();
	}
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

static struct npu_dma_area *npu_area_alloc(size_t size)
{
	struct npu_dma_area *area = kzalloc(sizeof(*area), GFP_KERNEL);

	if (!area)
		return NULL;
	area->size = PAGE_ALIGN(size);
	area->mem = vmalloc_user(area->size);
	if (!area->mem) {
		kfree(area);
		return NULL;
	}
	refcount_set(&area->ref, 1);
	return area;
}

static struct npu_dma_queue *npu_queue_alloc(struct npu_dma_ctx *ctx, u32 entries)
{
	struct npu_dma_queue *q = kzalloc(sizeof(*q), GFP_KERNEL);

	if (!q)
		return NULL;
	q->area = npu_area_alloc(NPU_DMA_QUEUE_RING_OFFSET +
				 (size_t)entries * sizeof(struct npu_dma_desc));
	if (!q->area) {
		kfree(q);
		return NULL;
	}
	kref_init(&q->ref);
	q->ctx = ctx;
	q->entries = entries;
	q->ctrl = q->area->mem;
	q->need_wakeup = true;	/* nothing runs until the first doorbell */
	npu_queue_publish_flags(q);
	q->ring = q->area->mem + NPU_DMA_QUEUE_RING_OFFSET;
	mutex_init(&q->submit_lock);
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
	npu_area_put(q->area);
	npu_dma_queue_put(q);
}

int npu_dma_queue_create_ioctl(struct npu_dma_ctx *ctx, void __user *arg)
{
	struct npu_dma_queue_create req;
	struct npu_dma_queue *q;
	int ret;

	if (copy_from_user(&req, arg, sizeof(req)))
		return -EFAULT;
	ret = npu_queue_check_create(&req);
	if (ret) {
		npu_dbg(ctx->ndev, "bad queue parameters (entries %u)\n", req.entries);
		return ret;
	}
	q = npu_queue_alloc(ctx, req.entries);
	if (!q)
		return -ENOMEM;
	if (req.eventfd >= 0) {
		q->efd = eventfd_ctx_fdget(req.eventfd);
		if (IS_ERR(q->efd)) {
			ret = PTR_ERR(q->efd);
			q->efd = NULL;
			goto err_free;
		}
	} else if (req.eventfd != -1) {
		ret = -EBADF;
		goto err_free;
	}

	ret = xa_alloc(&ctx->queues, &q->index, q,
		       XA_LIMIT(0, NPU_DMA_MAX_QUEUES - 1), GFP_KERNEL);
	if (ret)
		goto err_free;
	ret = xa_alloc(&npu_dma_queue_ids, &q->id, q, xa_limit_31b, GFP_KERNEL);
	if (ret)
		goto err_erase_index;

	req.queue_id = q->id;
	req.mmap_offset = NPU_DMA_QUEUE_MMAP_BASE +
			  ((u64)q->index << NPU_DMA_QUEUE_MMAP_SHIFT);
	req.mmap_size = q->area->size;
	if (copy_to_user(arg, &req, sizeof(req))) {
		ret = -EFAULT;
		goto err_erase_id;
	}
	return 0;

err_erase_id:
	xa_erase(&npu_dma_queue_ids, q->id);
err_erase_index:
	xa_erase(&ctx->queues, q->index);
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
	q->dead = true;
	npu_queue_publish_flags(q);
	mutex_unlock(&q->submit_lock);

	spin_lock_irq(&q->lock);
	q->aborting = true;
	spin_unlock_irq(&q->lock);
	queue_work(npu_dma_wq, &q->work);
	wait_event(q->idle, list_empty(&q->jobs));

	spin_lock_irqsave(&npu_dma_waiting_lock, flags);
	list_del_init(&q->wait_node);
	spin_unlock_irqrestore(&npu_dma_waiting_lock, flags);
	cancel_work_sync(&q->work);

	xa_erase(&npu_dma_queue_ids, q->id);
	/* Queues waiting on this one see it dead and go on. */
	npu_queue_kick_waiting();
	npu_queue_free(q);
}

int npu_dma_queue_destroy_ioctl(struct npu_dma_ctx *ctx, void __user *arg)
{
	struct npu_dma_queue_destroy req;
	struct npu_dma_queue *q;
	int ret;

	if (copy_from_user(&req, arg, sizeof(req)))
		return -EFAULT;
	q = npu_queue_from_arg(ctx, req.queue_id, req.flags, req.reserved);
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
	unsigned long idx;

	xa_for_each(&ctx->queues, idx, q) {
		spin_lock_irq(&q->lock);
		q->aborting = true;
		spin_unlock_irq(&q->lock);
		queue_work(npu_dma_wq, &q->work);
	}
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

/*
 * Publish one doorbell's jobs in a single step, so that a running worker
 * sees them all or none.
 */
static void npu_queue_append(struct npu_dma_queue *q, struct list_head *jobs)
{
	spin_lock_irq(&q->lock);
	list_splice_tail(jobs, &q->jobs);
	spin_unlock_irq(&q->lock);
}

/*
 * Mark the members of complete batches. A BATCH_BEGIN without its
 * BATCH_END in the same doorbell, a nested BEGIN, or an END without a
 * BEGIN fail with -EINVAL; their descriptors then run as ordinary ones.
 * A member that is not a copy, fill or nop fails with -EINVAL.
 */
void npu_dma_queue_mark_batches(struct npu_dma_job **jobs, u32 n)
{
	u32 i, j;

	for (i = 0; i < n; i++) {
		if (jobs[i]->d.opcode != NPU_DMA_OP_BATCH_BEGIN || jobs[i]->status)
			continue;
		for (j = i + 1; j < n; j++)
			if (jobs[j]->d.opcode == NPU_DMA_OP_BATCH_BEGIN ||
			    jobs[j]->d.opcode == NPU_DMA_OP_BATCH_END)
				break;
		if (j == n || jobs[j]->d.opcode != NPU_DMA_OP_BATCH_END ||
		    jobs[j]->status) {
			jobs[i]->status = -EINVAL;
			continue;
		}
		for (i++; i <= j; i++) {
			jobs[i]->batch_member = true;
			if (i < j && !jobs[i]->status &&
			    !npu_dma_batch_op_ok(jobs[i]->d.opcode))
				jobs[i]->status = -EINVAL;
		}
		i = j;
	}
	for (i = 0; i < n; i++)
		if (jobs[i]->d.opcode == NPU_DMA_OP_BATCH_END &&
		    !jobs[i]->batch_member && !jobs[i]->status)
			jobs[i]->status = -EINVAL;
}

static void npu_queue_trace_one(const struct npu_dma_job *job)
{
	const struct npu_dma_desc *d = &job->d;

	/* A replay traces each task as it reaches it (npu_dma_graph_run()). */
	if (d->opcode != NPU_DMA_OP_GRAPH || job->status)
		trace_npu_dma_submit(job);
	dev_dbg(&job->q->ctx->ndev->dev,
		"queue %u seq %llu: op %u flags 0x%x src 0x%llx dst 0x%llx len %llu height %u: %d\n",
		job->q->id, job->seq, d->opcode, d->flags, d->src, d->dst,
		d->len, d->height, job->status);
}

/*
 * Sequence numbers a descriptor takes: a GRAPH one per task, valid or
 * not (user space counted them from its @len), anything else one.
 */
static u64 npu_queue_desc_seqs(const struct npu_dma_desc *d)
{
	if (d->opcode == NPU_DMA_OP_GRAPH && d->len &&
	    d->len <= NPU_DMA_MAX_GRAPH_TASKS)
		return d->len;
	return 1;
}

/**
 * npu_dma_job_init() - set up the job of a copied-out descriptor
 * @q: its queue
 * @job: the job; every field is set (its memory may be reused)
 * @d: the descriptor
 * @seq: the last sequence number taken, advanced by the job's
 */
void npu_dma_job_init(struct npu_dma_queue *q, struct npu_dma_job *job,
		      const struct npu_dma_desc *d, u64 *seq)
{
	*job = (struct npu_dma_job){ .d = *d, .q = q, .seq = *seq + 1, .chan = -1 };
	*seq += npu_queue_desc_seqs(d);
	job->last_seq = *seq;
}

#define NPU_QUEUE_DESC_STACK	4
/*
 * Doorbells of this many descriptors or more copy them out to the queue's
 * own buffer, and batches of this many members use its spare array.
 */
#define NPU_QUEUE_SPARE_MIN	64

/*
 * If @d[0] opens a complete batch, the index of its BATCH_END, else 0: the
 * first marker after it must be a BATCH_END, and both must be well-formed.
 */
static u32 npu_queue_batch_end(const struct npu_dma_desc *d, u32 n)
{
	u32 j;

	if (d[0].opcode != NPU_DMA_OP_BATCH_BEGIN || npu_dma_desc_check(&d[0]))
		return 0;
	for (j = 1; j < n; j++) {
		if (d[j].opcode == NPU_DMA_OP_BATCH_BEGIN)
			return 0;
		if (d[j].opcode == NPU_DMA_OP_BATCH_END)
			return npu_dma_desc_check(&d[j]) ? 0 : j;
	}
	return 0;
}


/* Memory for @n members of a batch, not initialised. */
static struct npu_dma_job *npu_queue_members_alloc(struct npu_dma_queue *q,
						   u32 n, bool *spare)
{
	struct npu_dma_job *m;

	*spare = n >= NPU_QUEUE_SPARE_MIN;
	if (!*spare)
		return kvmalloc_array(n, sizeof(*m), GFP_KERNEL);
	m = xchg(&q->spare, NULL);
	return m ? m : kvmalloc_array(q->entries, sizeof(*m), GFP_KERNEL);
}

/**
 * npu_dma_queue_members_free() - release the members array of a batch
 * @batch: the batch's job
 *
 * A ring-sized array becomes its queue's spare if it has none.
 */
void npu_dma_queue_members_free(struct npu_dma_job *batch)
{
	if (batch->members_spare && !cmpxchg(&batch->q->spare, NULL, batch->members))
		return;
	kvfree(batch->members);
}

/*
 * The job of @d[0], numbered, not validated yet. For the complete batch
 * @d[0] (BATCH_BEGIN) .. @d[@end] (BATCH_END), one job with an array of
 * the others: each descriptor keeps its sequence number. The members
 * are set up as they are validated (npu_dma_batch_prepare()), so that
 * the batch can be queued, and its worker woken, first.
 */
static struct npu_dma_job *npu_queue_new_job(struct npu_dma_queue *q,
					     const struct npu_dma_desc *d,
					     u32 end)
{
	struct npu_dma_job *job = kmem_cache_alloc(npu_dma_job_cache, GFP_KERNEL);
	struct npu_dma_job *members = NULL;
	bool spare = false;
	u32 i;

	if (!job)
		return NULL;
	if (end) {
		members = npu_queue_members_alloc(q, end, &spare);
		if (!members) {
			kmem_cache_free(npu_dma_job_cache, job);
			return NULL;
		}
	}
	npu_dma_job_init(q, job, &d[0], &q->seq);
	job->members = members;
	job->members_spare = spare;
	job->member_descs = end ? &d[1] : NULL;
	job->nr_members = end;
	/* Number the members as npu_dma_job_init() will. */
	for (i = 1; i <= end; i++)
		q->seq += npu_queue_desc_seqs(&d[i]);
	job->last_seq = q->seq;
	return job;
}

/*
 * Validate a job outside a complete batch. A BATCH_BEGIN without its
 * BATCH_END, a nested BATCH_BEGIN, or a BATCH_END without a BATCH_BEGIN
 * fails with -EINVAL.
 */
static void npu_queue_prepare_job(struct npu_dma_queue *q, struct npu_dma_job *job)
{
	npu_dma_job_prepare(q->ctx, job);
	if (!job->status && (job->d.opcode == NPU_DMA_OP_BATCH_BEGIN ||
			     job->d.opcode == NPU_DMA_OP_BATCH_END))
		job->status = -EINVAL;
	npu_queue_trace_one(job);
	/* A GRAPH counts its tasks, as they are counted when completed. */
	atomic64_add(job->last_seq - job->seq + 1, &q->ctx->ndev->stats.submitted);
}

/*
 * npu_dma_batch_prepare() got to member @done: trace and release them.
 * At nr_members (the BATCH_END too) the doorbell is done with the batch:
 * the worker may retire and free it from then on.
 */
static void npu_queue_batch_progress(struct npu_dma_job *batch, u32 done)
{
	u32 i;

	if (done == batch->nr_members)
		npu_dma_batch_validated(batch);
	for (i = batch->prepared; i < done; i++)
		npu_queue_trace_one(&batch->members[i]);
	smp_store_release(&batch->prepared, done);
	/*
	 * wake_up_var() tests for sleepers without a lock: the store must be
	 * visible before that test, or a runner that just found the old
	 * count sleeps with nobody left to wake it (the last call is final).
	 */
	smp_mb();
	wake_up_var(&batch->prepared);
}

/*
 * Queue the jobs on @jobs up to @batch, then validate the batch's
 * members: its first members run while the last are validated.
 */
static void npu_queue_prepare_batch(struct npu_dma_queue *q,
				    struct list_head *jobs,
				    struct npu_dma_job *batch)
{
	LIST_HEAD(head);

	npu_queue_trace_one(batch);
	atomic64_add(batch->last_seq - batch->seq + 1,
		     &q->ctx->ndev->stats.submitted);
	batch->doorbell_cpu = raw_smp_processor_id();
	list_cut_position(&head, jobs, &batch->node);
	npu_queue_append(q, &head);
	queue_work(npu_dma_wq, &q->work);
	/* The last use of @batch: once done, the worker may free it. */
	npu_dma_batch_prepare(q->ctx, batch, npu_queue_batch_progress);
}


/*
 * Copy out, validate and queue @n descriptors from the ring. Nothing
 * fails once the jobs are allocated: from then on they are queued in
 * order, each once validated, a batch before its members are.
 */
static int npu_queue_consume(struct npu_dma_queue *q, u32 n)
{
	struct npu_dma_desc stack[NPU_QUEUE_DESC_STACK], *d = stack;
	struct npu_dma_job *job, *tmp;
	u64 seq = q->seq;
	LIST_HEAD(jobs);
	u32 i, end;

	if (n >= NPU_QUEUE_SPARE_MIN) {
		if (!q->descs)
			q->descs = kvmalloc_array(q->entries, sizeof(*d),
						  GFP_KERNEL);
		if (!q->descs)
			return -ENOMEM;
		d = q->descs;
	} else if (n > NPU_QUEUE_DESC_STACK) {
		d = kvmalloc_array(n, sizeof(*d), GFP_KERNEL);
		if (!d)
			return -ENOMEM;
	}
	/* The one read of each slot: user space may rewrite it. */
	for (i = 0; i < n; i++)
		memcpy(&d[i], &q->ring[(q->head + i) & (q->entries - 1)],
		       sizeof(*d));
	for (i = 0; i < n; i++) {
		end = npu_queue_batch_end(&d[i], n - i);
		job = npu_queue_new_job(q, &d[i], end);
		if (!job)
			goto err_free;
		list_add_tail(&job->node, &jobs);
		i += end;
	}
	WRITE_ONCE(q->ctrl->submitted_seq, q->seq);

	list_for_each_entry_safe(job, tmp, &jobs, node) {
		if (job->members)
			npu_queue_prepare_batch(q, &jobs, job);
		else
			npu_queue_prepare_job(q, job);
	}
	npu_queue_append(q, &jobs);
	if (d != stack && d != q->descs)
		kvfree(d);
	return 0;

err_free:
	/* As if this doorbell never came: nothing numbered, nothing held. */
	list_for_each_entry_safe(job, tmp, &jobs, node) {
		if (job->members)
			npu_dma_queue_members_free(job);
		kmem_cache_free(npu_dma_job_cache, job);
	}
	q->seq = seq;
	if (d != stack && d != q->descs)
		kvfree(d);
	return -ENOMEM;
}

/*
 * Consume the descriptors between head and the published tail. Caller
 * holds submit_lock. Return: how many, or -errno.
 */
static int npu_queue_pull_locked(struct npu_dma_queue *q)
{
	u32 tail, n;
	int ret;

	/* A dead queue's area may be gone: a killer frees it after this. */
	if (q->dead)
		return -ENOENT;
	tail = smp_load_acquire(&q->ctrl->sq_tail);
	n = tail - q->head;
	if (n > q->entries) {
		npu_dbg(q->ctx->ndev, "queue %u: tail %u is %u past head\n", q->id,
			tail, n);
		return -EINVAL;
	}
	if (!n)
		return 0;
	ret = npu_queue_consume(q, n);
	if (ret)
		return ret;
	q->head = tail;
	WRITE_ONCE(q->ctrl->submitted_seq, q->seq);
	smp_store_release(&q->ctrl->sq_head, tail);
	return n;
}

int npu_dma_queue_submit_ioctl(struct npu_dma_ctx *ctx, void __user *arg)
{
	struct npu_dma_queue_submit req;
	struct npu_dma_queue *q;
	int ret;

	if (copy_from_user(&req, arg, sizeof(req)))
		return -EFAULT;
	q = npu_queue_from_arg(ctx, req.queue_id, req.flags, req.reserved);
	if (IS_ERR(q))
		return PTR_ERR(q);

	mutex_lock(&q->submit_lock);
	ret = npu_queue_pull_locked(q);
	if (ret > 0 && q->need_wakeup) {
		/* Awake until the worker finds the queue idle again. */
		q->need_wakeup = false;
		npu_queue_publish_flags(q);
	}
	mutex_unlock(&q->submit_lock);
	if (ret > 0)
		queue_work(npu_dma_wq, &q->work);
	npu_dma_queue_put(q);
	return ret;
}

int npu_dma_barrier_release_ioctl(struct npu_dma_ctx *ctx, void __user *arg)
{
	struct npu_dma_barrier_release req;
	struct npu_dma_queue *q;
	int ret = 0;

	if (copy_from_user(&req, arg, sizeof(req)))
		return -EFAULT;
	q = npu_queue_from_arg(ctx, req.queue_id, req.flags, req.reserved);
	if (IS_ERR(q))
		return PTR_ERR(q);

	spin_lock_irq(&q->lock);
	if (!req.seq || q->barrier_seq != req.seq)
		ret = -EINVAL;
	else
		q->barrier_released = req.seq;
	spin_unlock_irq(&q->lock);
	if (!ret)
		queue_work(npu_dma_wq, &q->work);
	npu_dma_queue_put(q);
	return ret;
}

static void npu_area_vm_open(struct vm_area_struct *vma)
{
	struct npu_dma_area *area = vma->vm_private_data;

	refcount_inc(&area->ref);
}

static void npu_area_vm_close(struct vm_area_struct *vma)
{
	npu_area_put(vma->vm_private_data);
}

/**
 * npu_dma_vmalloc_fault() - map a page of a vmalloc_user() area again
 * @vmf: the fault
 * @mem: the area
 * @size: its size in bytes, page aligned
 * @pgoff: file page offset at which the area starts
 *
 * remap_vmalloc_range() fills the page tables at mmap time; this brings
 * a page back once they were zapped (MADV_DONTNEED), so the process sees
 * the same memory again instead of a SIGBUS. @vmf->pgoff is the file
 * offset, which stays right when a partial munmap splits the mapping.
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

/*
 * Queue mappings sit 1 << NPU_DMA_QUEUE_MMAP_SHIFT apart, so the file
 * offset within that span is the offset in the area, also in what is
 * left of a mapping after a partial munmap.
 */
static vm_fault_t npu_area_vm_fault(struct vm_fault *vmf)
{
	struct npu_dma_area *area = vmf->vma->vm_private_data;
	pgoff_t span = 1UL << (NPU_DMA_QUEUE_MMAP_SHIFT - PAGE_SHIFT);

	return npu_dma_vmalloc_fault(vmf, area->mem, area->size,
				     vmf->pgoff & ~(span - 1));
}

static const struct vm_operations_struct npu_area_vm_ops = {
	.open = npu_area_vm_open,
	.close = npu_area_vm_close,
	.fault = npu_area_vm_fault,
};

int npu_dma_queue_mmap(struct npu_dma_ctx *ctx, struct vm_area_struct *vma)
{
	u64 off = (u64)vma->vm_pgoff << PAGE_SHIFT;
	struct npu_dma_area *area = NULL;
	struct npu_dma_queue *q;
	int ret;

	if (off < NPU_DMA_QUEUE_MMAP_BASE ||
	    (off - NPU_DMA_QUEUE_MMAP_BASE) & ((1ULL << NPU_DMA_QUEUE_MMAP_SHIFT) - 1))
		return -EINVAL;

	mutex_lock(&ctx->lock);
	q = xa_load(&ctx->queues,
		    (off - NPU_DMA_QUEUE_MMAP_BASE) >> NPU_DMA_QUEUE_MMAP_SHIFT);
	if (q) {
		area = q->area;
		refcount_inc(&area->ref);
	}
	mutex_unlock(&ctx->lock);
	if (!area)
		return -EINVAL;

	ret = -EINVAL;
	if (vma->vm_end - vma->vm_start != area->size)
		goto err_put;
	/* VM_IO: madvise(MADV_DOFORK) must not undo VM_DONTCOPY. */
	npu_dma_vm_flags_set(vma, VM_IO | VM_DONTCOPY | VM_DONTEXPAND | VM_DONTDUMP, 0);
	ret = remap_vmalloc_range(vma, area->mem, 0);
	if (ret)
		goto err_put;
	vma->vm_private_data = area;
	vma->vm_ops = &npu_area_vm_ops;
	return 0;

err_put:
	npu_area_put(area);
	return ret;
}

int npu_dma_queue_init(void)
{
	npu_dma_job_cache = KMEM_CACHE(npu_dma_job, 0);
	if (!npu_dma_job_cache)
		return -ENOMEM;
	npu_dma_wq = alloc_workqueue("npu_dma", WQ_UNBOUND, 0);
	if (!npu_dma_wq)
		goto err_cache;
	/*
	 * Its work items copy for as long as members last: not per-CPU
	 * concurrency managed, or they would hold up the CPU's other work.
	 */
	npu_dma_runner_wq = alloc_workqueue("npu_dma_runner", WQ_CPU_INTENSIVE, 0);
	if (!npu_dma_runner_wq)
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
	destroy_workqueue(npu_dma_runner_wq);
	destroy_workqueue(npu_dma_wq);
	kmem_cache_destroy(npu_dma_job_cache);
	WARN_ON(!xa_empty(&npu_dma_queue_ids));
}
