// SPDX-License-Identifier: GPL-2.0-only
/*
 * npu_dma: the scheduler, which runs a queue's jobs in order.
 *
 * One loop, npu_dma_sched_run(), takes the job at the head of a queue,
 * or the next task of a GRAPH job being replayed, tests that it may
 * start (a WAIT for its queue's progress, a HOST_BARRIER for user space's
 * release), runs it on the NPU (npu_dma_xfer.c, npu_dma_runner.c) and
 * retires it (npu_dma_retire.c). It runs on the queue's worker
 * (npu_dma_submit.c) or, for small work on an idle queue, in the
 * doorbell itself; a per-queue run_lock keeps the two apart.
 *
 * A queue parked at a WAIT goes on a list kicked whenever any queue
 * retires work. Each pass retires at most NPU_SCHED_BUDGET jobs before
 * it publishes them (eventfd, parked queues) and the worker starts
 * another; the NPU's channels are shared by priority (npu_dma_chan.c).
 */

#include <linux/ktime.h>
#include <linux/moduleparam.h>
#include <linux/sched.h>
#include <linux/sched/clock.h>
#include <linux/sizes.h>
#include <linux/workqueue.h>

#include <drm/drm_drv.h>

#include "npu_dma_compat.h"
#include "npu_dma_graph.h"
#include "npu_dma_job.h"
#include "npu_dma_mem.h"
#include "npu_dma_queue.h"
#include "npu_dma_retire.h"
#include "npu_dma_sched.h"
#include "npu_dma_signal.h"
#include "npu_dma_xfer.h"

#define NPU_SCHED_BUDGET	32
/*
 * Small plain copies at the head of a queue run together, up to so many
 * (npu_sched_run_copies()); a longer copy is shared among channels, and
 * its own overheads are noise.
 */
#define NPU_SCHED_RUN		16
#define NPU_SCHED_RUN_BYTES	SZ_64K

/*
 * An upper bound: user space asks for inline runs (F_INLINE) only for
 * what it is going to wait for, and libacl asks for less on an engine
 * whose DMA is slow.
 */
static unsigned int inline_max_bytes = SZ_1M;
module_param(inline_max_bytes, uint, 0644);
MODULE_PARM_DESC(inline_max_bytes,
		 "Most bytes a doorbell with NPU_DMA_SUBMIT_F_INLINE or F_HELP runs in its caller's context (0: never; default 1048576)");

static struct workqueue_struct *npu_dma_wq;
/* Queues stopped at a WAIT, kicked whenever any queue retires work. */
static DEFINE_SPINLOCK(npu_dma_waiting_lock);
static LIST_HEAD(npu_dma_waiting);

/* Have the queue's worker run (again). */
void npu_dma_sched_kick(struct npu_dma_queue *q)
{
	queue_work(npu_dma_wq, &q->work);
}

/* Some queue progressed or died: every parked queue looks again. */
void npu_dma_sched_kick_waiting(void)
{
	struct npu_dma_queue *q, *tmp;
	unsigned long flags;

	spin_lock_irqsave(&npu_dma_waiting_lock, flags);
	list_for_each_entry_safe(q, tmp, &npu_dma_waiting, wait_node) {
		list_del_init(&q->wait_node);
		npu_dma_sched_kick(q);
	}
	spin_unlock_irqrestore(&npu_dma_waiting_lock, flags);
}

static bool npu_sched_wait_over(const struct npu_dma_job *job)
{
	if (job->d.opcode == NPU_DMA_OP_WAIT_SIGNAL)
		return npu_dma_signal_met(job);
	return npu_dma_queue_completed(job->wait_q) >= job->d.value ||
	       READ_ONCE(job->wait_q->dead);
}

/*
 * May @q's WAIT @job go on? If not, park @q until some queue progresses.
 * The test is made again under the list's lock, with the parking: a
 * queue that completes (or dies) publishes that before it takes the lock
 * to kick the list, so either this test sees it or the kick finds @q.
 */
static bool npu_sched_wait_ready(struct npu_dma_queue *q,
				 const struct npu_dma_job *job)
{
	unsigned long flags;
	bool ready;

	if (npu_sched_wait_over(job))
		return true;
	spin_lock_irqsave(&npu_dma_waiting_lock, flags);
	ready = npu_sched_wait_over(job);
	if (!ready && list_empty(&q->wait_node))
		list_add_tail(&q->wait_node, &npu_dma_waiting);
	spin_unlock_irqrestore(&npu_dma_waiting_lock, flags);
	return ready;
}

/**
 * npu_sched_ready() - may the queue's next job (or task) start?
 * @q: the queue
 * @job: its next job, or a graph task run as one
 *
 * Not on a stopped queue. Also publishes a reached barrier (and signals
 * the eventfd), and puts the queue on the list kicked when other queues
 * progress.
 */
static bool npu_sched_ready(struct npu_dma_queue *q, struct npu_dma_job *job)
{
	bool ready = true;

	if (job->status || q->aborting)
		return true;
	/* Stopped (QUEUE_CTL): the abort that ends it kicks the queue. */
	if (READ_ONCE(q->stopped))
		return false;

	switch (job->d.opcode) {
	case NPU_DMA_OP_WAIT:
		ready = npu_sched_wait_ready(q, job);
		break;
	case NPU_DMA_OP_WAIT_SIGNAL:
		ready = npu_sched_wait_ready(q, job);
		if (ready)
			npu_dma_signal_pass(job);
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

static struct npu_dma_job *npu_sched_first(struct npu_dma_queue *q)
{
	struct npu_dma_job *job;

	spin_lock_irq(&q->lock);
	job = list_first_entry_or_null(&q->jobs, struct npu_dma_job, node);
	spin_unlock_irq(&q->lock);
	return job;
}

/* Is the queue parked at a host barrier not released yet? */
static bool npu_sched_at_barrier(struct npu_dma_queue *q)
{
	struct npu_dma_job *job;
	bool parked;

	spin_lock_irq(&q->lock);
	job = list_first_entry_or_null(&q->jobs, struct npu_dma_job, node);
	parked = job && job->d.opcode == NPU_DMA_OP_HOST_BARRIER &&
		 !job->status && q->barrier_seq == job->seq &&
		 q->barrier_released < job->seq;
	spin_unlock_irq(&q->lock);
	return parked;
}

/* Does the queue have work not retired yet? */
bool npu_dma_sched_busy(struct npu_dma_queue *q)
{
	return npu_sched_first(q);
}

/* Run a job that may start, at the head of its queue, on the NPU. */
static void npu_sched_run_job(struct npu_dma_queue *q, struct npu_dma_job *job)
{
	/* A GRAPH's tasks ran one by one, through the loop below. */
	if (!job->status && q->aborting && !job->graph)
		job->status = -ECANCELED;
	if (job->members)
		npu_dma_batch_run(q, job);
	else if (!job->status && !job->graph)
		job->status = npu_dma_job_run(job);
}

/* A side a run of copies may have: host memory, or this NPU's own. */
static bool npu_sched_side_plain(const struct npu_dma_job *job,
				 const struct npu_dma_side *side)
{
	return side->kind == NPU_DMA_SIDE_HOST ||
	       (side->kind == NPU_DMA_SIDE_DEV && !npu_dma_side_peer(job, side));
}

/* May @job run in a run of copies? It needs no test to start. */
static bool npu_sched_plain_copy(const struct npu_dma_job *job)
{
	return job->d.opcode == NPU_DMA_OP_COPY && !job->status &&
	       job->d.len <= NPU_SCHED_RUN_BYTES &&
	       npu_sched_side_plain(job, &job->src) &&
	       npu_sched_side_plain(job, &job->dst);
}

/*
 * @head, a plain copy at the head of @q, and the plain copies after it,
 * up to @max in all, into @run: how many. Only run_lock's holder removes
 * jobs, so they stay after the lock is let go.
 */
static unsigned int npu_sched_gather(struct npu_dma_queue *q,
				     struct npu_dma_job *head,
				     struct npu_dma_job **run, unsigned int max)
{
	struct npu_dma_job *job = head;
	unsigned int n = 1;

	run[0] = head;
	spin_lock_irq(&q->lock);
	list_for_each_entry_continue(job, &q->jobs, node) {
		if (n == max || !npu_sched_plain_copy(job))
			break;
		run[n++] = job;
	}
	spin_unlock_irq(&q->lock);
	return n;
}

/*
 * Plain copies at the head of a running queue run as a batch's members
 * do (npu_dma_jobs_run()): one channel, the engine's calls shared, one
 * retirement. Each job taking its own channel, engine call, peer test
 * and pass over the queue's lock cost a stream of 4 KiB copies on a sim
 * NPU about a third of its worker's time. Return: how many ran (0:
 * @head is not such a copy, or it is alone).
 */
static unsigned int npu_sched_run_copies(struct npu_dma_queue *q,
					 struct npu_dma_job *head,
					 struct npu_dma_sched_pass *p)
{
	struct npu_dma_job *run[NPU_SCHED_RUN];
	unsigned int n;

	/* Tested before the lock: most heads that are not copies are alone. */
	if (q->aborting || READ_ONCE(q->stopped) || p->budget < 2 ||
	    !npu_sched_plain_copy(head))
		return 0;
	n = npu_sched_gather(q, head, run,
			     min_t(unsigned int, p->budget, NPU_SCHED_RUN));
	if (n < 2)
		return 0;
	npu_dma_jobs_run(run, n);
	npu_dma_retire_jobs(q, run, n);
	return n;
}

/**
 * npu_dma_sched_run() - run a queue's ready jobs, in order
 * @q: the queue; the caller holds its run_lock
 * @p: the pass, from npu_dma_sched_begin()
 *
 * A GRAPH job is replayed here task by task, each task a job on the
 * stack made from the graph's template, tested and run as any job is;
 * the GRAPH job itself retires after its last task. Between tasks the
 * replay publishes what completed when it parks.
 *
 * Return: false when the pass's budget ran out (the caller ends the pass
 * and starts another, or hands the rest to the worker), true when the
 * queue is empty or parked.
 */
bool npu_dma_sched_run(struct npu_dma_queue *q, struct npu_dma_sched_pass *p)
{
	struct npu_dma_job *job, *unit, task;
	unsigned int n;

	while ((job = npu_sched_first(q))) {
		unit = job;
		if (job->graph && !job->status && npu_dma_graph_next_task(job, &task))
			unit = &task;
		if (!npu_sched_ready(q, unit)) {
			if (unit == &task && job->pos) {
				npu_dma_retire_publish(q, task.seq - 1);
				p->retired = true;
			}
			break;
		}
		p->retired = true;
		if (unit == &task) {
			npu_dma_graph_run_task(job, &task);
			continue;
		}
		n = npu_sched_run_copies(q, job, p);
		if (!n) {
			npu_sched_run_job(q, job);
			npu_dma_retire_job(q, job);
			n = 1;
		}
		/* Publish what retired now and then (npu_dma_sched_end()). */
		p->budget -= n;
		if (!p->budget)
			return false;
	}
	return true;
}

/*
 * The engine is entered only inside drm_dev_enter(): once the NPU is
 * unplugged, what is left fails as an aborted queue's work does. The
 * helpers a job starts on other channels (batches, split copies) run
 * while the job waits for them, inside the same section.
 */
static bool npu_sched_enter(struct npu_dma_queue *q, int *idx)
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
static void npu_sched_charge(struct npu_dma_queue *q, u64 t0)
{
	u64 t1 = local_clock();

	if (t1 > t0)
		atomic64_add(t1 - t0, &q->ctx->engine_ns);
}

/**
 * npu_dma_sched_begin() - start a pass over a queue's jobs
 * @q: the queue; the caller holds its run_lock
 * @p: the pass, set up here
 */
void npu_dma_sched_begin(struct npu_dma_queue *q, struct npu_dma_sched_pass *p)
{
	p->budget = NPU_SCHED_BUDGET;
	p->retired = false;
	p->t0 = local_clock();
	p->entered = npu_sched_enter(q, &p->idx);
}

/**
 * npu_dma_sched_end() - end a pass
 * @q: the queue
 * @p: the pass
 *
 * What retired is charged, signalled, and unblocks WAITs.
 */
void npu_dma_sched_end(struct npu_dma_queue *q, struct npu_dma_sched_pass *p)
{
	if (p->entered)
		drm_dev_exit(p->idx);
	if (!p->retired)
		return;
	npu_sched_charge(q, p->t0);
	if (q->efd)
		npu_dma_eventfd_signal(q->efd);
	npu_dma_sched_kick_waiting();
}

/* Work a doorbell may run inline: short, and parks only at a host barrier. */
static bool npu_sched_job_inline(const struct npu_dma_job *job, u64 *bytes)
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
	case NPU_DMA_OP_HOST_BARRIER:
		/*
		 * Parking is publishing barrier_seq: the doorbell does it
		 * at once, where the worker would first have to wake up.
		 */
		return true;
	default:
		return false;
	}
}

/*
 * May a doorbell or a barrier's release run all of the queue's work
 * itself, moving at most @max_bytes (and inline_max_bytes, 0: never)?
 */
bool npu_dma_sched_inline_ok(struct npu_dma_queue *q, u64 max_bytes)
{
	u64 bytes = 0, max = READ_ONCE(inline_max_bytes);
	struct npu_dma_job *job;
	bool ok = max;

	max = min(max, max_bytes);

	spin_lock_irq(&q->lock);
	ok = ok && !q->stopped;
	list_for_each_entry(job, &q->jobs, node) {
		if (!ok || !npu_sched_job_inline(job, &bytes) || bytes > max) {
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
void npu_dma_sched_run_inline(struct npu_dma_queue *q)
{
	struct npu_dma_sched_pass p;

	mutex_unlock(&q->submit_lock);
	npu_dma_sched_begin(q, &p);
	npu_dma_sched_run(q, &p);
	npu_dma_sched_end(q, &p);
	/* Parked at a host barrier, the queue waits for its release's kick. */
	if (npu_dma_sched_busy(q) && !npu_sched_at_barrier(q))
		npu_dma_sched_kick(q);
	mutex_unlock(&q->run_lock);
}

/* A queue being killed leaves the list of parked ones. */
void npu_dma_sched_forget(struct npu_dma_queue *q)
{
	unsigned long flags;

	spin_lock_irqsave(&npu_dma_waiting_lock, flags);
	list_del_init(&q->wait_node);
	spin_unlock_irqrestore(&npu_dma_waiting_lock, flags);
}

int npu_dma_sched_init(void)
{
	npu_dma_wq = alloc_workqueue("npu_dma", WQ_UNBOUND, 0);
	return npu_dma_wq ? 0 : -ENOMEM;
}

void npu_dma_sched_exit(void)
{
	destroy_workqueue(npu_dma_wq);
}
