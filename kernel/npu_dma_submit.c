// SPDX-License-Identifier: GPL-2.0-only
/*
 * npu_dma: submission, from ring to job list: the doorbell and the worker.
 *
 * Descriptors published in the ring (sq_tail) are copied out once each,
 * numbered, validated into jobs and appended to the queue's job list in
 * order; a complete batch (BATCH_BEGIN .. BATCH_END in one doorbell)
 * becomes one job whose members are validated while the first of them
 * already run. Called by QUEUE_SUBMIT and by the queue's worker, both
 * under submit_lock.
 *
 * The worker runs the queue's jobs (npu_dma_sched.c) and, while it works,
 * also consumes descriptors published since (in the process's mm, for
 * pageable pins), so a busy queue needs no doorbell; only when it goes
 * idle does it set NEED_WAKEUP and ask for one (io_uring's SQPOLL wakeup
 * protocol, with the worker as the poller).
 */

#include <linux/kthread.h>
#include <linux/memcontrol.h>
#include <linux/mm.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/wait_bit.h>

#include "npu_dma_budget.h"
#include "npu_dma_job.h"
#include "npu_dma_queue.h"
#include "npu_dma_sched.h"
#include "npu_dma_submit.h"
#include "npu_dma_trace.h"
#include "npu_dma_validate.h"
#include "npu_dma_xfer.h"

/*
 * Who consumes the ring: a doorbell, the queue's worker (which never
 * pins), or an abort (which drops what it takes).
 */
enum npu_submit_mode {
	NPU_SUBMIT_DOORBELL,
	NPU_SUBMIT_WORKER,
	NPU_SUBMIT_DROP,
};

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

static void npu_submit_trace(const struct npu_dma_job *job)
{
	const struct npu_dma_desc *d = &job->d;

	/* A replay traces each task as it reaches it (npu_dma_graph_run_task()). */
	if (d->opcode != NPU_DMA_OP_GRAPH || job->status)
		trace_npu_dma_submit(job);
	npu_dbg(job->q->ctx->ndev,
		"queue %u seq %llu: op %u flags 0x%x src 0x%llx dst 0x%llx len %llu height %u: %d\n",
		job->q->id, job->seq, d->opcode, d->flags, d->src, d->dst,
		d->len, d->height, job->status);
}

/* Ring slot @i places after the kernel's head. */
static struct npu_dma_desc *npu_submit_slot(struct npu_dma_queue *q, u32 i)
{
	return &q->ring[(q->head + i) & (q->entries - 1)];
}

/*
 * The one copy of a slot: user space may rewrite the ring at any time,
 * so everything after works on the copy, which is the job's own.
 */
static void npu_submit_copy(struct npu_dma_queue *q, u32 i,
			    struct npu_dma_desc *d)
{
	memcpy(d, npu_submit_slot(q, i), sizeof(*d));
}

/*
 * If @d, the copy of slot @i, opens a batch: how many slots after it up
 * to its BATCH_END (the first marker after it must be one, and both must
 * be well-formed), else 0. The slots after it are peeked at, opcode by
 * opcode, not copied: their copies are checked again.
 */
static u32 npu_submit_peek_batch(struct npu_dma_queue *q,
				 const struct npu_dma_desc *d, u32 i, u32 n)
{
	u32 j;
	u8 op;

	if (d->opcode != NPU_DMA_OP_BATCH_BEGIN || npu_dma_validate_fields(d))
		return 0;
	for (j = 1; i + j < n; j++) {
		op = READ_ONCE(npu_submit_slot(q, i + j)->opcode);
		if (op == NPU_DMA_OP_BATCH_BEGIN)
			return 0;
		if (op == NPU_DMA_OP_BATCH_END)
			return j;
	}
	return 0;
}

/* The @n members, as copied, close their batch where the peek saw it. */
static bool npu_submit_batch_ok(const struct npu_dma_job *m, u32 n)
{
	u32 k;

	for (k = 0; k + 1 < n; k++)
		if (m[k].d.opcode == NPU_DMA_OP_BATCH_BEGIN ||
		    m[k].d.opcode == NPU_DMA_OP_BATCH_END)
			return false;
	return m[n - 1].d.opcode == NPU_DMA_OP_BATCH_END &&
	       !npu_dma_validate_fields(&m[n - 1].d);
}

static void npu_submit_free_unit(struct npu_dma_job *job)
{
	if (job->members)
		npu_dma_members_free(job);
	npu_dma_job_free(job);
}

/*
 * The unit at slot @i: a job with its descriptor copied in, not numbered
 * yet. For a complete batch (BATCH_BEGIN .. BATCH_END) one job with an
 * array of the others, each descriptor copied into its member; the
 * members are set up as they are validated (npu_dma_validate_batch()),
 * so that the batch can be queued, and its worker woken, first. A batch
 * rewritten while it was copied is none: its BATCH_BEGIN fails alone and
 * the slots after it are consumed as ordinary descriptors.
 */
static struct npu_dma_job *npu_submit_copy_unit(struct npu_dma_queue *q,
						u32 i, u32 n, bool single)
{
	struct npu_dma_job *job = npu_dma_job_alloc();
	u32 k, end;

	if (!job)
		return NULL;
	npu_submit_copy(q, i, &job->d);
	job->q = q;	/* for the spare array, before npu_submit_number() */
	job->members = NULL;
	job->members_spare = false;
	job->nr_members = 0;
	end = single ? 0 : npu_submit_peek_batch(q, &job->d, i, n);
	if (!end)
		return job;
	job->members = npu_dma_members_alloc(q, end, &job->members_spare);
	if (!job->members) {
		npu_dma_job_free(job);
		return NULL;
	}
	for (k = 0; k < end; k++)
		npu_submit_copy(q, i + 1 + k, &job->members[k].d);
	if (npu_submit_batch_ok(job->members, end)) {
		job->nr_members = end;
		return job;
	}
	npu_dma_members_free(job);
	job->members = NULL;
	return job;
}

/*
 * Number a unit: each descriptor of a batch keeps its own sequence
 * number, the batch's job ends at its BATCH_END's.
 */
static void npu_submit_number(struct npu_dma_queue *q, struct npu_dma_job *job)
{
	struct npu_dma_job *members = job->members;
	bool spare = job->members_spare;
	u32 k, n = job->nr_members;

	npu_dma_job_init(q, job, &q->seq);
	job->members = members;
	job->members_spare = spare;
	job->nr_members = n;
	for (k = 0; k < n; k++)
		q->seq += npu_dma_desc_seqs(&members[k].d);
	job->last_seq = q->seq;
}

/*
 * Validate a job outside a complete batch. A BATCH_BEGIN without its
 * BATCH_END, a nested BATCH_BEGIN, or a BATCH_END without a BATCH_BEGIN
 * fails with -EINVAL.
 */
static void npu_submit_validate_job(struct npu_dma_queue *q, struct npu_dma_job *job)
{
	npu_dma_validate_job(q->ctx, job);
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
	/* Pairs with the runners' acquire: the members' setup first. */
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
 * npu_dma_validate_batch() got to member @done: trace and release them.
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
static void npu_submit_validate_batch(struct npu_dma_queue *q,
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
	npu_dma_sched_kick(q);
	/* The last use of @batch: once done, the worker may free it. */
	npu_dma_validate_batch(q->ctx, batch, npu_submit_batch_progress);
}

/*
 * A descriptor an abort took from the ring: it completes at once with
 * -ECANCELED, counted as submitted like any other.
 */
static void npu_submit_drop_job(struct npu_dma_queue *q, struct npu_dma_job *job)
{
	job->status = -ECANCELED;
	npu_submit_trace(job);
	atomic64_add(job->last_seq - job->seq + 1, &q->ctx->ndev->stats.submitted);
}

/*
 * What a unit, a job or a batch with its members, takes from the
 * budgets: one that is dropped pins nothing.
 */
static void npu_submit_unit_charge(const struct npu_dma_job *job,
				   struct npu_dma_charge *c, bool drop)
{
	u32 k;

	c->jobs = job->nr_members + 1;
	c->pages = 0;
	if (drop)
		return;
	c->pages = npu_dma_desc_pin_pages(&job->d);
	for (k = 0; k < job->nr_members; k++)
		c->pages += npu_dma_desc_pin_pages(&job->members[k].d);
}

/*
 * Copy out, validate and queue up to @n descriptors from the ring, unit
 * by unit while the budgets admit them (npu_dma_budget.c); the worker
 * stops before the first that pins pageable memory. An abort
 * (NPU_SUBMIT_DROP) takes every descriptor alone, whatever the budgets,
 * and validates none: nothing is pinned or referenced, each completes
 * cancelled. Nothing fails once the jobs are allocated: from then on they are queued in
 * order, each once validated, a batch before its members are.
 *
 * Return: descriptors consumed, or -ENOMEM (none). *@pinning: stopped
 * before pageable work, which a doorbell must consume later.
 */
static int npu_submit_consume(struct npu_dma_queue *q, u32 n,
			      enum npu_submit_mode mode, bool *pinning)
{
	bool drop = mode == NPU_SUBMIT_DROP;
	struct npu_dma_charge sofar = {}, unit;
	struct npu_dma_job *job, *tmp;
	u64 seq = q->seq;
	LIST_HEAD(jobs);
	u32 i;

	*pinning = false;
	for (i = 0; i < n; i += unit.jobs) {
		job = npu_submit_copy_unit(q, i, n, drop);
		if (!job)
			goto err_free;
		npu_submit_unit_charge(job, &unit, drop);
		if (!drop && ((mode == NPU_SUBMIT_WORKER && unit.pages) ||
			      !npu_dma_budget_fits(q, &sofar, &unit))) {
			/* Left in the ring, to be copied again when admitted. */
			npu_submit_free_unit(job);
			*pinning = unit.pages;
			break;
		}
		npu_submit_number(q, job);
		job->charge = unit;
		sofar.jobs += unit.jobs;
		sofar.pages += unit.pages;
		list_add_tail(&job->node, &jobs);
	}
	n = i;
	npu_dma_budget_charge(q, &sofar);
	WRITE_ONCE(q->ctrl->submitted_seq, q->seq);

	list_for_each_entry_safe(job, tmp, &jobs, node) {
		if (drop)
			npu_submit_drop_job(q, job);
		else if (job->members)
			npu_submit_validate_batch(q, &jobs, job);
		else
			npu_submit_validate_job(q, job);
	}
	npu_submit_append(q, &jobs);
	return n;

err_free:
	/* As if this doorbell never came: nothing numbered, nothing held. */
	list_for_each_entry_safe(job, tmp, &jobs, node)
		npu_submit_free_unit(job);
	q->seq = seq;
	return -ENOMEM;
}

/*
 * npu_submit_ring() - consume what user space published
 * @q: the queue; caller holds submit_lock
 * @mode: who consumes
 * @pinning: set if pageable work was left in the ring (a doorbell must
 *	consume it once the budgets admit it)
 *
 * Consumes the descriptors between head and the published tail, or as
 * many of them as the budgets admit.
 *
 * Return: how many, or -errno.
 */
static int npu_submit_ring(struct npu_dma_queue *q, enum npu_submit_mode mode,
			   bool *pinning)
{
	u32 tail, n;
	int ret;

	*pinning = false;
	/* A dead queue's area may be gone: a killer frees it after this. */
	if (q->dead)
		return -ENOENT;
	/* Pairs with user space's release of sq_tail: the slots first. */
	tail = smp_load_acquire(&q->ctrl->sq_tail);
	n = tail - q->head;
	if (n > q->entries) {
		npu_dbg(q->ctx->ndev, "queue %u: tail %u is %u past head\n", q->id,
			tail, n);
		return -EINVAL;
	}
	if (!n)
		return 0;
	ret = npu_submit_consume(q, n, mode, pinning);
	if (ret <= 0)
		return ret;
	q->head += ret;
	WRITE_ONCE(q->ctrl->submitted_seq, q->seq);
	/* The slots are ours again once user space sees sq_head (acquire). */
	smp_store_release(&q->ctrl->sq_head, q->head);
	return ret;
}

/* ctrl->flags is the kernel's to write: rebuild it from its own state. */
void npu_dma_submit_publish_flags(struct npu_dma_queue *q)
{
	WRITE_ONCE(q->ctrl->flags, (q->dead ? NPU_DMA_QUEUE_S_DEAD : 0) |
		   (q->need_wakeup ? NPU_DMA_QUEUE_S_NEED_WAKEUP : 0) |
		   (READ_ONCE(q->stopped) ? NPU_DMA_QUEUE_S_STOPPED : 0));
}

static void npu_submit_set_need_wakeup(struct npu_dma_queue *q, bool on)
{
	mutex_lock(&q->submit_lock);
	q->need_wakeup = on;
	npu_dma_submit_publish_flags(q);
	mutex_unlock(&q->submit_lock);
}

/*
 * From the worker: consume what user space published since, in the
 * process's mm, up to the first descriptor naming pageable memory: that
 * one and what follows wait for the doorbell user space rings after
 * publishing it (the worker never pins, see npu_dma_budget.c). Return:
 * descriptors taken, 0, or -errno (left for the next doorbell to report).
 */
static int npu_submit_poll(struct npu_dma_queue *q)
{
	struct mm_struct *mm = q->ctx->mm;
	struct mem_cgroup *memcg;
	bool pinning;
	int n;

	/* Pairs with user space's release of sq_tail. */
	if (smp_load_acquire(&q->ctrl->sq_tail) == READ_ONCE(q->head))
		return 0;
	/* A process that is exiting has nothing more to say. */
	if (!mmget_not_zero(mm))
		return 0;
	kthread_use_mm(mm);
	/* Jobs allocated for the process are charged to its cgroup. */
	memcg = set_active_memcg(q->ctx->memcg);
	mutex_lock(&q->submit_lock);
	n = npu_submit_ring(q, NPU_SUBMIT_WORKER, &pinning);
	mutex_unlock(&q->submit_lock);
	set_active_memcg(memcg);
	kthread_unuse_mm(mm);
	mmput(mm);
	return n;
}

/*
 * One pass of the worker: run the queue's jobs and consume what is
 * published meanwhile, until the queue is idle, parked, or the pass's
 * budget ran out (return: true, more to do).
 */
static bool npu_submit_work_pass(struct npu_dma_queue *q)
{
	struct npu_dma_sched_pass p;
	bool more = false;

	mutex_lock(&q->run_lock);
	npu_dma_sched_begin(q, &p);
	for (;;) {
		if (!npu_dma_sched_run(q, &p)) {
			more = true;
			break;
		}
		if (npu_dma_sched_busy(q))
			break;	/* parked at a WAIT or barrier: kicked later */
		if (npu_submit_poll(q) > 0)
			continue;
		/* Idle: ask for a doorbell, then look once more (see the ABI). */
		npu_submit_set_need_wakeup(q, true);
		/* NEED_WAKEUP before the last look: pairs with user space's fence. */
		smp_mb();
		if (npu_submit_poll(q) <= 0)
			break;
		npu_submit_set_need_wakeup(q, false);
	}
	npu_dma_sched_end(q, &p);
	mutex_unlock(&q->run_lock);
	return more;
}

/*
 * The queue's work item. Between passes it publishes what retired
 * (npu_dma_sched_end()), lets go of run_lock and of the CPU, and goes
 * on: requeueing itself instead cost a worker wake-up each time, 8 % of
 * the worker's time in a stream of small copies (the channels are
 * shared by priority in npu_dma_chan_get(), not by taking turns here).
 */
void npu_dma_submit_work(struct work_struct *work)
{
	struct npu_dma_queue *q = container_of(work, struct npu_dma_queue, work);

	while (npu_submit_work_pass(q))
		cond_resched();
}

/*
 * NPU_DMA_SUBMIT_F_HELP, under submit_lock: the caller is going to wait
 * for the queue. A worker that was kicked (NEED_WAKEUP clear) but does
 * not hold run_lock yet has not started: waking it on another CPU costs
 * 100 to 150 us under TCG, more than a copy of a few hundred KiB, so the
 * caller runs the small work itself. The worker still comes, finds the
 * jobs gone, and parks the queue as usual; NEED_WAKEUP stays clear until
 * then, so nothing published meanwhile is missed. Return: true if it ran
 * the queue (both locks dropped), false with submit_lock still held.
 */
static bool npu_submit_help(struct npu_dma_queue *q)
{
	if (q->dead || q->need_wakeup || !mutex_trylock(&q->run_lock))
		return false;
	if (npu_dma_sched_inline_ok(q, U64_MAX)) {
		npu_dma_sched_run_inline(q);	/* drops both locks */
		return true;
	}
	mutex_unlock(&q->run_lock);
	return false;
}

/**
 * npu_dma_submit_doorbell() - consume what user space published, and run it
 * @q: the queue, referenced
 * @flags: the doorbell's NPU_DMA_SUBMIT_F_* flags, checked
 * @pinning: set if pageable work was left in the ring, over budget
 *
 * Return: descriptors consumed, or -errno.
 */
int npu_dma_submit_doorbell(struct npu_dma_queue *q, u32 flags, bool *pinning)
{
	int ret;

	mutex_lock(&q->submit_lock);
	ret = npu_submit_ring(q, NPU_SUBMIT_DOORBELL, pinning);
	/*
	 * Idle (NEED_WAKEUP) and no worker running jobs: the worker sets
	 * the flag while it still holds run_lock, so the trylock fails
	 * until it is truly gone.
	 */
	if (ret > 0 && (flags & NPU_DMA_SUBMIT_F_INLINE) &&
	    q->need_wakeup && mutex_trylock(&q->run_lock)) {
		if (npu_dma_sched_inline_ok(q, U64_MAX)) {
			npu_dma_sched_run_inline(q);	/* drops both locks */
			return ret;
		}
		mutex_unlock(&q->run_lock);
	}
	if (ret >= 0 && (flags & NPU_DMA_SUBMIT_F_HELP) && npu_submit_help(q))
		return ret;
	if (ret > 0 && q->need_wakeup) {
		/* Awake until the worker finds the queue idle again. */
		q->need_wakeup = false;
		npu_dma_submit_publish_flags(q);
	}
	/*
	 * Kicked under submit_lock: a killer marks the queue dead under it
	 * too, so this work is queued before the killer cancels the last,
	 * never after the queue was freed.
	 */
	if (ret > 0)
		npu_dma_sched_kick(q);
	mutex_unlock(&q->submit_lock);
	return ret;
}

/**
 * npu_dma_submit_release_inline() - run a queue whose barrier was released
 * @q: the queue, referenced, its host barrier just released
 *
 * As a doorbell on an idle queue runs small work (npu_dma_submit_doorbell()),
 * the releasing thread retires the barrier and runs what follows it when
 * no worker is awake and none of it moves data (event records, NOPs, the
 * next barrier, where the queue parks again): a kick would first wake the
 * worker on another CPU. Copies behind a barrier stay the worker's, the
 * releasing thread (libacl's callback runner) did not ask to wait for
 * them. Never waits for a lock: a busy queue is the worker's.
 *
 * Return: true if it ran the queue, false if the caller must kick it.
 */
bool npu_dma_submit_release_inline(struct npu_dma_queue *q)
{
	if (!mutex_trylock(&q->submit_lock))
		return false;
	/* Same order and checks as the doorbell's, under submit_lock. */
	if (!q->dead && q->need_wakeup && mutex_trylock(&q->run_lock)) {
		if (npu_dma_sched_inline_ok(q, 0)) {
			npu_dma_sched_run_inline(q);	/* drops both locks */
			return true;
		}
		mutex_unlock(&q->run_lock);
	}
	mutex_unlock(&q->submit_lock);
	return false;
}

/**
 * npu_dma_submit_drop() - cancel what user space published, unread
 * @q: the queue, being aborted; the caller holds submit_lock
 *
 * Every descriptor between the kernel's head and the published tail is
 * taken, numbered as a doorbell would, and completes with -ECANCELED.
 *
 * Return: descriptors taken, or -errno (a tail past the ring, -ENOMEM).
 */
int npu_dma_submit_drop(struct npu_dma_queue *q)
{
	bool pinning;

	lockdep_assert_held(&q->submit_lock);
	return npu_submit_ring(q, NPU_SUBMIT_DROP, &pinning);
}
