// SPDX-License-Identifier: GPL-2.0-only
/*
 * npu_dma: retirement, the last stage of a job.
 *
 * A job that ran (or failed) is accounted for here: counters, tracing,
 * the error fields of the queue's control area, an EVENT_RECORD's slot.
 * Its references are dropped and its budget given back before its
 * completion is published (completed_seq, release), so that whoever
 * waits for it finds its pages unpinned. Jobs retire in sequence order;
 * a graph replay publishes its tasks as they complete, before the whole
 * job retires.
 */

#include <linux/ktime.h>
#include <linux/wait.h>

#include "npu_dma_budget.h"
#include "npu_dma_job.h"
#include "npu_dma_queue.h"
#include "npu_dma_retire.h"
#include "npu_dma_signal.h"
#include "npu_dma_trace.h"

/*
 * Acquire: a WAIT on this queue lets its own queue read what the jobs up
 * to the sequence number wrote (paired with npu_retire_complete_locked()).
 */
u64 npu_dma_queue_completed(struct npu_dma_queue *q)
{
	/* Pairs with the release in npu_retire_complete_locked(). */
	return smp_load_acquire(&q->completed);
}

static void npu_retire_event(struct npu_dma_queue *q,
			     struct npu_dma_job *job)
{
	struct npu_dma_event_slot *slot = &q->ctx->events[job->d.dst];

	WRITE_ONCE(slot->timestamp_ns, ktime_get_ns());
	WRITE_ONCE(slot->queue_id, q->id);
	/* The slot's fields before its seq: readers test seq (acquire). */
	smp_store_release(&slot->seq, job->seq);
}

/* Count @n finished tasks, @failed of them failed, @bytes moved by the rest. */
static void npu_retire_count(struct npu_dma_queue *q, u64 n, u64 failed,
			     u64 bytes)
{
	struct npu_dma_stats *st = &q->ctx->ndev->stats;

	if (failed)
		atomic64_add(failed, &st->failed);
	if (bytes)
		atomic64_add(bytes, &st->bytes);
	atomic64_add(n, &st->completed);
}

/* npu_dma_retire_note() but the counters. */
static void npu_retire_note_one(struct npu_dma_queue *q, struct npu_dma_job *job)
{
	struct npu_dma_queue_ctrl *ctrl = q->ctrl;

	/* A record that failed (its queue aborted) was never made. */
	if (job->d.opcode == NPU_DMA_OP_SIGNAL && !job->status)
		npu_dma_signal_done(job);
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
		npu_retire_event(q, job);
	}
}

/**
 * npu_dma_retire_note() - account for one finished task
 * @q: its queue
 * @job: the job (or a graph task run as one), status final
 *
 * Counters, tracing, the error fields of the control area and, for an
 * EVENT_RECORD, its slot. Completion itself is published separately.
 */
void npu_dma_retire_note(struct npu_dma_queue *q, struct npu_dma_job *job)
{
	u64 n = npu_dma_job_tasks(job);

	npu_retire_count(q, n, job->status ? n : 0,
			 job->status ? 0 : npu_dma_job_bytes(job));
	npu_retire_note_one(q, job);
}

/* As npu_dma_retire_note() for every member of @batch, counted once. */
static void npu_retire_note_members(struct npu_dma_queue *q,
				    struct npu_dma_job *batch)
{
	u64 n = 0, failed = 0, bytes = 0;
	struct npu_dma_job *m;
	u32 i;

	for (i = 0; i < batch->nr_members; i++) {
		m = &batch->members[i];
		n += npu_dma_job_tasks(m);
		if (m->status)
			failed += npu_dma_job_tasks(m);
		else
			bytes += npu_dma_job_bytes(m);
		npu_retire_note_one(q, m);
	}
	npu_retire_count(q, n, failed, bytes);
}

/* Caller holds q->lock. */
static void npu_retire_complete_locked(struct npu_dma_queue *q, u64 seq)
{
	/* Pairs with npu_dma_queue_completed(): what the jobs wrote first. */
	smp_store_release(&q->completed, seq);
	if (q->barrier_seq == seq) {
		q->barrier_seq = 0;
		WRITE_ONCE(q->ctrl->barrier_seq, 0);
	}
}

/**
 * npu_dma_retire_publish() - every task up to @seq has completed
 * @q: the queue
 * @seq: a sequence number inside the job at the head of the queue
 *
 * For a graph replay that has run part of its tasks: waiters see them
 * done before the whole job retires.
 */
void npu_dma_retire_publish(struct npu_dma_queue *q, u64 seq)
{
	spin_lock_irq(&q->lock);
	npu_retire_complete_locked(q, seq);
	spin_unlock_irq(&q->lock);
	/* User space reads completed_seq with acquire: results first. */
	smp_store_release(&q->ctrl->completed_seq, seq);
}

/*
 * The first @n jobs of @q, accounted for and unpinned, leave it: their
 * completion is published and they are freed.
 */
static void npu_retire_unlink(struct npu_dma_queue *q, struct npu_dma_job **jobs,
			      unsigned int n)
{
	u64 last = jobs[n - 1]->last_seq;
	unsigned int i;
	bool idle;

	spin_lock_irq(&q->lock);
	for (i = 0; i < n; i++)
		list_del(&jobs[i]->node);
	npu_retire_complete_locked(q, last);
	idle = list_empty(&q->jobs);
	spin_unlock_irq(&q->lock);

	/* Unpinned and accounted before user space sees the completion. */
	smp_store_release(&q->ctrl->completed_seq, last);
	for (i = 0; i < n; i++)
		npu_dma_job_free(jobs[i]);
	/* A destroy waits for a sequence number, not for an empty queue. */
	if (idle || wq_has_sleeper(&q->idle))
		wake_up_all(&q->idle);
}

/**
 * npu_dma_retire_job() - account for a job that ran, and publish it
 * @q: its queue
 * @job: the job at the head of @q, status final; freed here
 *
 * Jobs retire in sequence order.
 */
void npu_dma_retire_job(struct npu_dma_queue *q, struct npu_dma_job *job)
{
	/* A graph's tasks were accounted for one by one as they ran. */
	if (!job->graph || job->status)
		npu_dma_retire_note(q, job);
	if (job->nr_members)
		npu_retire_note_members(q, job);

	/*
	 * Unpin before anyone can see the completion: whoever waits for it
	 * (a pageable copy, close) finds the pages released.
	 */
	npu_dma_job_put_refs(job);
	npu_dma_budget_uncharge(q, &job->charge);
	npu_retire_unlink(q, &job, 1);
}

/**
 * npu_dma_retire_jobs() - npu_dma_retire_job() for a run of jobs
 * @q: their queue
 * @jobs: the first @n jobs of @q, in order, each status final; freed here
 * @n: how many
 *
 * One pass over the queue's lock and one completion published for the
 * whole run, as for a batch's members.
 */
void npu_dma_retire_jobs(struct npu_dma_queue *q, struct npu_dma_job **jobs,
			 unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		npu_dma_retire_note(q, jobs[i]);
		npu_dma_job_put_refs(jobs[i]);
		npu_dma_budget_uncharge(q, &jobs[i]->charge);
	}
	npu_retire_unlink(q, jobs, n);
}
