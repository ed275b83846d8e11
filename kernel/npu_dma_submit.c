// SPDX-License-Identifier: GPL-2.0-only
/*
 * npu_dma: the doorbell's side of a queue, from ring to job list.
 *
 * Descriptors published in the ring (sq_tail) are copied out once each,
 * numbered, validated into jobs and appended to the queue's job list in
 * order; a complete batch (BATCH_BEGIN .. BATCH_END in one doorbell)
 * becomes one job whose members are validated while the first of them
 * already run. Called by QUEUE_SUBMIT and by the queue's worker, which
 * pulls what was published while it worked (npu_dma_queue.c), both
 * under submit_lock.
 */

#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/wait_bit.h>

#include "npu_dma_queue.h"
#include "npu_dma_trace.h"

/*
 * Publish one doorbell's jobs in a single step, so that a running worker
 * sees them all or none.
 */
static void npu_submit_append(struct npu_dma_queue *q, struct list_head *jobs)
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

static void npu_submit_trace(const struct npu_dma_job *job)
{
	const struct npu_dma_desc *d = &job->d;

	/* A replay traces each task as it reaches it (npu_dma_graph_run()). */
	if (d->opcode != NPU_DMA_OP_GRAPH || job->status)
		trace_npu_dma_submit(job);
	npu_dbg(job->q->ctx->ndev,
		"queue %u seq %llu: op %u flags 0x%x src 0x%llx dst 0x%llx len %llu height %u: %d\n",
		job->q->id, job->seq, d->opcode, d->flags, d->src, d->dst,
		d->len, d->height, job->status);
}

/*
 * Sequence numbers a descriptor takes: a GRAPH one per task, valid or
 * not (user space counted them from its @len), anything else one.
 */
static u64 npu_submit_desc_seqs(const struct npu_dma_desc *d)
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
	*seq += npu_submit_desc_seqs(d);
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
static u32 npu_submit_batch_end(const struct npu_dma_desc *d, u32 n)
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
static struct npu_dma_job *npu_submit_members_alloc(struct npu_dma_queue *q,
						   u32 n, bool *spare)
{
	struct npu_dma_job *m;

	*spare = n >= NPU_QUEUE_SPARE_MIN;
	if (!*spare)
		return kvmalloc_array(n, sizeof(*m), GFP_KERNEL_ACCOUNT);
	m = xchg(&q->spare, NULL);
	return m ? m : kvmalloc_array(q->entries, sizeof(*m), GFP_KERNEL_ACCOUNT);
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
static struct npu_dma_job *npu_submit_new_job(struct npu_dma_queue *q,
					     const struct npu_dma_desc *d,
					     u32 end)
{
	struct npu_dma_job *job = npu_dma_job_alloc();
	struct npu_dma_job *members = NULL;
	bool spare = false;
	u32 i;

	if (!job)
		return NULL;
	if (end) {
		members = npu_submit_members_alloc(q, end, &spare);
		if (!members) {
			npu_dma_job_free(job);
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
		q->seq += npu_submit_desc_seqs(&d[i]);
	job->last_seq = q->seq;
	return job;
}

/*
 * Validate a job outside a complete batch. A BATCH_BEGIN without its
 * BATCH_END, a nested BATCH_BEGIN, or a BATCH_END without a BATCH_BEGIN
 * fails with -EINVAL.
 */
static void npu_submit_prepare_job(struct npu_dma_queue *q, struct npu_dma_job *job)
{
	npu_dma_job_prepare(q->ctx, job);
	if (!job->status && (job->d.opcode == NPU_DMA_OP_BATCH_BEGIN ||
			     job->d.opcode == NPU_DMA_OP_BATCH_END))
		job->status = -EINVAL;
	npu_submit_trace(job);
	/* A GRAPH counts its tasks, as they are counted when completed. */
	atomic64_add(job->last_seq - job->seq + 1, &q->ctx->ndev->stats.submitted);
}

/* The first @n members of @batch are validated: runners may take them. */
static void npu_submit_members_ready(struct npu_dma_job *batch, u32 n)
{
	smp_store_release(&batch->prepared, n);
	/*
	 * wake_up_var() tests for sleepers without a lock: the store must be
	 * visible before that test, or a runner that just found the old
	 * count sleeps with nobody left to wake it (the last call is final).
	 */
	smp_mb();
	wake_up_var(&batch->prepared);
}

/*
 * npu_dma_batch_prepare() got to member @done: trace and release them.
 * At nr_members (the BATCH_END too) the doorbell is done with the batch:
 * the worker may retire and free it from then on.
 */
static void npu_submit_batch_progress(struct npu_dma_job *batch, u32 done)
{
	u32 i;

	for (i = batch->prepared; i < done; i++)
		npu_submit_trace(&batch->members[i]);
	if (done == batch->nr_members) {
		/*
		 * Every member first (all but the BATCH_END), then the helper
		 * for this CPU: one that found nothing left to claim would
		 * leave at once. The batch stays the doorbell's until the
		 * last store.
		 */
		npu_submit_members_ready(batch, done - 1);
		npu_dma_batch_validated(batch);
	}
	npu_submit_members_ready(batch, done);
}

/*
 * Queue the jobs on @jobs up to @batch, then validate the batch's
 * members: its first members run while the last are validated.
 */
static void npu_submit_prepare_batch(struct npu_dma_queue *q,
				    struct list_head *jobs,
				    struct npu_dma_job *batch)
{
	LIST_HEAD(head);

	npu_submit_trace(batch);
	atomic64_add(batch->last_seq - batch->seq + 1,
		     &q->ctx->ndev->stats.submitted);
	batch->doorbell_cpu = raw_smp_processor_id();
	list_cut_position(&head, jobs, &batch->node);
	npu_submit_append(q, &head);
	npu_dma_queue_kick(q);
	/* The last use of @batch: once done, the worker may free it. */
	npu_dma_batch_prepare(q->ctx, batch, npu_submit_batch_progress);
}

/* What the unit @d[0] .. @d[@end] takes from the budgets. */
static void npu_submit_unit_charge(const struct npu_dma_desc *d, u32 end,
				   struct npu_dma_charge *c)
{
	u32 i;

	c->jobs = end + 1;
	c->pages = 0;
	for (i = 0; i <= end; i++)
		c->pages += npu_dma_desc_pin_pages(&d[i]);
}

/*
 * Copy out, validate and queue up to @n descriptors from the ring, unit
 * by unit while the budgets admit them (npu_dma_budget.c); the worker
 * (@worker) stops before the first that pins pageable memory. Nothing
 * fails once the jobs are allocated: from then on they are queued in
 * order, each once validated, a batch before its members are.
 *
 * Return: descriptors consumed, or -ENOMEM (none). *@pinning: stopped
 * before pageable work, which a doorbell must consume later.
 */
static int npu_submit_consume(struct npu_dma_queue *q, u32 n, bool worker,
			      bool *pinning)
{
	struct npu_dma_desc stack[NPU_QUEUE_DESC_STACK], *d = stack;
	struct npu_dma_charge sofar = {}, unit;
	struct npu_dma_job *job, *tmp;
	u64 seq = q->seq;
	LIST_HEAD(jobs);
	u32 i, end;

	if (n >= NPU_QUEUE_SPARE_MIN) {
		if (!q->descs)
			q->descs = kvmalloc_array(q->entries, sizeof(*d),
						  GFP_KERNEL_ACCOUNT);
		if (!q->descs)
			return -ENOMEM;
		d = q->descs;
	} else if (n > NPU_QUEUE_DESC_STACK) {
		d = kvmalloc_array(n, sizeof(*d), GFP_KERNEL_ACCOUNT);
		if (!d)
			return -ENOMEM;
	}
	/* The one read of each slot: user space may rewrite it. */
	for (i = 0; i < n; i++)
		memcpy(&d[i], &q->ring[(q->head + i) & (q->entries - 1)],
		       sizeof(*d));
	*pinning = false;
	for (i = 0; i < n; i++) {
		end = npu_submit_batch_end(&d[i], n - i);
		npu_submit_unit_charge(&d[i], end, &unit);
		if ((worker && unit.pages) ||
		    !npu_dma_budget_fits(q, &sofar, &unit)) {
			*pinning = unit.pages;
			break;
		}
		job = npu_submit_new_job(q, &d[i], end);
		if (!job)
			goto err_free;
		job->charge = unit;
		sofar.jobs += unit.jobs;
		sofar.pages += unit.pages;
		list_add_tail(&job->node, &jobs);
		i += end;
	}
	n = i;
	npu_dma_budget_charge(q, &sofar);
	WRITE_ONCE(q->ctrl->submitted_seq, q->seq);

	list_for_each_entry_safe(job, tmp, &jobs, node) {
		if (job->members)
			npu_submit_prepare_batch(q, &jobs, job);
		else
			npu_submit_prepare_job(q, job);
	}
	npu_submit_append(q, &jobs);
	if (d != stack && d != q->descs)
		kvfree(d);
	return n;

err_free:
	/* As if this doorbell never came: nothing numbered, nothing held. */
	list_for_each_entry_safe(job, tmp, &jobs, node) {
		if (job->members)
			npu_dma_queue_members_free(job);
		npu_dma_job_free(job);
	}
	q->seq = seq;
	if (d != stack && d != q->descs)
		kvfree(d);
	return -ENOMEM;
}

/**
 * npu_dma_queue_pull_locked() - consume what user space published
 * @q: the queue; caller holds submit_lock
 * @worker: called by the queue's worker, which never pins
 * @pinning: set if pageable work was left in the ring (a doorbell must
 *	consume it once the budgets admit it)
 *
 * Consumes the descriptors between head and the published tail, or as
 * many of them as the budgets admit.
 *
 * Return: how many, or -errno.
 */
int npu_dma_queue_pull_locked(struct npu_dma_queue *q, bool worker,
			      bool *pinning)
{
	u32 tail, n;
	int ret;

	*pinning = false;
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
	ret = npu_submit_consume(q, n, worker, pinning);
	if (ret <= 0)
		return ret;
	q->head += ret;
	WRITE_ONCE(q->ctrl->submitted_seq, q->seq);
	smp_store_release(&q->ctrl->sq_head, q->head);
	return ret;
}
