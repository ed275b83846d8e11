// SPDX-License-Identifier: GPL-2.0-only
/*
 * npu_dma: runners, the work items that share a batch over DMA channels.
 *
 * A batch's members run on the queue's worker and on helpers
 * (npu_dma_chan.c), each holding a channel. A helper is a work item per
 * channel, not per member, on a per-CPU workqueue: where it starts
 * decides whether it competes with the CPU that submits or validates the
 * work.
 */

#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/wait_bit.h>
#include <linux/workqueue.h>

#include "npu_dma_job.h"
#include "npu_dma_queue.h"
#include "npu_dma_xfer.h"

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
static bool npu_batch_prepared(struct npu_dma_job *begin, u32 n)
{
	/* Pairs with the doorbell's release of @prepared: members first. */
	return smp_load_acquire(&begin->prepared) >= n;
}

static void npu_batch_wait_prepared(struct npu_dma_job *begin, u32 n)
{
	if (wait_var_event_interruptible(&begin->prepared,
					 npu_batch_prepared(begin, n)))
		wait_var_event(&begin->prepared, npu_batch_prepared(begin, n));
}

/*
 * Members claimed at once: a run of them shares the claim, the wait and
 * the engine calls (npu_dma_members_run()), up to so many bytes, so
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
		/* Pairs with the doorbell's release: validated members only. */
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
 * waits for the doorbell's validation (that may wait on page faults for
 * as long as the submitter likes, and the channels are every process's),
 * and not past a queue of higher priority waiting for one (between
 * members, npu_dma_members_run()).
 */
static void npu_batch_run_members(struct npu_dma_batch *b, bool helper)
{
	struct npu_dma_device *ndev = b->q->ctx->ndev;
	u32 first, n;
	int chan = -1;

	while ((n = npu_batch_claim(b, helper, &first))) {
		/* As in npu_batch_claim(): the members' setup first. */
		if (smp_load_acquire(&b->begin->prepared) < first + n) {
			if (chan >= 0)
				npu_dma_chan_put(ndev, chan);
			chan = -1;
			npu_batch_wait_prepared(b->begin, first + n);
		}
		if (chan < 0)
			chan = npu_dma_chan_get(ndev, READ_ONCE(b->q->priority));
		npu_dma_members_run(&b->begin->members[first], n, &chan);
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
void npu_dma_batch_validated(struct npu_dma_job *begin)
{
	struct npu_batch_runner *late = xchg(&begin->late_runner,
					     &npu_batch_validated_mark);

	if (late && atomic_read(&late->batch->next) < late->batch->count)
		npu_dma_work_elsewhere(&late->work, 0);
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
			npu_dma_work_on(&runners[early++].work, cpu);
	}
	if (cmpxchg(&batch->begin->late_runner, NULL, &runners[early]))
		npu_dma_work_on(&runners[early].work,
				batch->begin->doorbell_cpu);
}

/**
 * npu_dma_batch_run() - run a batch's members, on the queue's worker
 * @q: the queue
 * @begin: the batch's job
 *
 * On as many channels as the NPU has: this worker and up to
 * nr_channels - 1 helpers claim runs of members (a work item per
 * channel, not per member: a batch of thousands of tiny copies must not
 * cost thousands of wake-ups). The last helper is started by the
 * doorbell on its own CPU once it has validated the batch (or here, if
 * it has already). Returns once every member ran and the doorbell is
 * done with the batch: the caller retires it as one job.
 */
void npu_dma_batch_run(struct npu_dma_queue *q, struct npu_dma_job *begin)
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
}

