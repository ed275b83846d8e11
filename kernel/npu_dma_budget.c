// SPDX-License-Identifier: GPL-2.0-only
/*
 * npu_dma: how much validated work may be outstanding.
 *
 * A descriptor consumed from a ring holds a job until it retires, and
 * one naming pageable host memory holds that memory pinned. A queue
 * parked at a host barrier, or at a WAIT that never ends, would take
 * both without limit from a process that keeps publishing and ringing:
 * kernel memory, and pins (each pin of a small page adds
 * GUP_PIN_COUNTING_BIAS to its refcount, so one page named over and over
 * walks its count toward overflow). So a doorbell consumes the ring in
 * units (a descriptor, or a complete batch) only while they fit in what
 * its queue, its file and the module may have outstanding; the rest
 * stays in the ring, published, until earlier work retires:
 *
 * - work without pageable memory is then pulled by the queue's worker,
 *   which is running (the queue has work outstanding);
 * - pageable work waits for a later doorbell, which returns -EAGAIN
 *   until then: the worker never pins (a FUSE- or userfaultfd-backed
 *   buffer could park it where the owner's death cannot end the wait),
 *   so only the owner's own QUEUE_SUBMIT pins, killably.
 *
 * An idle queue always takes its first unit, within the module-wide pin
 * limit: a queue never waits for itself, and a file's other queues
 * retire by themselves. The limits are module parameters, read at each
 * doorbell.
 */

#include <linux/moduleparam.h>

#include "npu_dma_budget.h"
#include "npu_dma_queue.h"

static unsigned int queue_max_jobs = 16384;
module_param(queue_max_jobs, uint, 0644);
MODULE_PARM_DESC(queue_max_jobs,
		 "Descriptors a queue may have consumed and not retired (default 16384)");

static unsigned int file_max_jobs = 65536;
module_param(file_max_jobs, uint, 0644);
MODULE_PARM_DESC(file_max_jobs,
		 "Descriptors a file's queues may have consumed and not retired (default 65536)");

static unsigned int queue_pinned_mb = 1024;
module_param(queue_pinned_mb, uint, 0644);
MODULE_PARM_DESC(queue_pinned_mb,
		 "MiB of pageable host memory a queue's outstanding copies may pin; also the longest pageable side of one descriptor (default 1024)");

static unsigned int file_pinned_mb = 2048;
module_param(file_pinned_mb, uint, 0644);
MODULE_PARM_DESC(file_pinned_mb,
		 "MiB of pageable host memory a file's outstanding copies may pin (default 2048)");

static unsigned int total_pinned_mb = 4096;
module_param(total_pinned_mb, uint, 0644);
MODULE_PARM_DESC(total_pinned_mb,
		 "MiB of pageable host memory all outstanding copies may pin (default 4096)");

/* Pages pinned for pageable copies of every file, not retired yet. */
static atomic_long_t npu_budget_total_pages = ATOMIC_LONG_INIT(0);

static unsigned long npu_mb_pages(unsigned int mb)
{
	return (unsigned long)mb << (20 - PAGE_SHIFT);
}

/**
 * npu_dma_budget_max_pin_len() - longest pageable side of one descriptor
 *
 * Return: bytes; the library splits pageable copies to this.
 */
u64 npu_dma_budget_max_pin_len(void)
{
	return (u64)READ_ONCE(queue_pinned_mb) << 20;
}

/**
 * npu_dma_budget_pin_ok() - may one side pin @pages pages?
 * @pages: pages its extent spans
 */
bool npu_dma_budget_pin_ok(unsigned long pages)
{
	return pages <= npu_mb_pages(READ_ONCE(queue_pinned_mb));
}

static bool npu_budget_under(long used, unsigned long add, unsigned long max)
{
	return used >= 0 && (unsigned long)used + add <= max;
}

/**
 * npu_dma_budget_fits() - may a doorbell consume one more unit?
 * @q: the queue
 * @sofar: what the doorbell consumed before it (charged at its end)
 * @unit: the unit's jobs and pinned pages
 */
bool npu_dma_budget_fits(struct npu_dma_queue *q,
			 const struct npu_dma_charge *sofar,
			 const struct npu_dma_charge *unit)
{
	struct npu_dma_budget *qb = &q->budget, *fb = &q->ctx->budget;
	long qjobs = atomic_long_read(&qb->jobs) + sofar->jobs;
	long qpages = atomic_long_read(&qb->pages) + sofar->pages;
	long total = atomic_long_read(&npu_budget_total_pages) + sofar->pages;
	unsigned long total_max = npu_mb_pages(READ_ONCE(total_pinned_mb));

	/* Module-wide, even for an idle queue; alone, any size passes. */
	if (unit->pages && total && !npu_budget_under(total, unit->pages, total_max))
		return false;
	if (!qjobs && !qpages)
		return true;
	if (!npu_budget_under(qjobs, unit->jobs, READ_ONCE(queue_max_jobs)) ||
	    !npu_budget_under(atomic_long_read(&fb->jobs) + sofar->jobs,
			      unit->jobs, READ_ONCE(file_max_jobs)))
		return false;
	return !unit->pages ||
	       (npu_budget_under(qpages, unit->pages,
				 npu_mb_pages(READ_ONCE(queue_pinned_mb))) &&
		npu_budget_under(atomic_long_read(&fb->pages) + sofar->pages,
				 unit->pages,
				 npu_mb_pages(READ_ONCE(file_pinned_mb))));
}

static void npu_budget_add(struct npu_dma_budget *b,
			   const struct npu_dma_charge *c, int sign)
{
	atomic_long_add(sign * (long)c->jobs, &b->jobs);
	if (c->pages)
		atomic_long_add(sign * (long)c->pages, &b->pages);
}

/**
 * npu_dma_budget_charge() - a doorbell consumed @c on @q
 * @q: the queue
 * @c: its units' jobs and pages
 */
void npu_dma_budget_charge(struct npu_dma_queue *q, const struct npu_dma_charge *c)
{
	npu_budget_add(&q->budget, c, 1);
	npu_budget_add(&q->ctx->budget, c, 1);
	if (c->pages)
		atomic_long_add(c->pages, &npu_budget_total_pages);
}

/**
 * npu_dma_budget_uncharge() - the unit charged @c on @q retired
 * @q: the queue
 * @c: what its unit was charged
 */
void npu_dma_budget_uncharge(struct npu_dma_queue *q,
			     const struct npu_dma_charge *c)
{
	npu_budget_add(&q->budget, c, -1);
	npu_budget_add(&q->ctx->budget, c, -1);
	if (c->pages)
		atomic_long_sub(c->pages, &npu_budget_total_pages);
}

/**
 * npu_dma_budget_total_pages() - pages pinned for pageable copies now
 */
unsigned long npu_dma_budget_total_pages(void)
{
	return atomic_long_read(&npu_budget_total_pages);
}
