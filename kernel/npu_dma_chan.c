// SPDX-License-Identifier: GPL-2.0-only
/*
 * npu_dma: DMA channels, and the helpers that use the idle ones.
 *
 * Every transfer holds one of its NPU's channels (a counting semaphore,
 * FIFO among waiters, so queues share them in order); which one it holds
 * is kept for tracing and the timeline. A job that spreads over several
 * channels (a batch's members, npu_dma_runner.c; a large copy cut into
 * chunks, npu_dma_xfer.c) starts a helper per extra channel, a work item
 * on a per-CPU workqueue: where it starts decides whether it competes
 * with the CPU that submits or validates the work.
 */

#include <linux/cpumask.h>
#include <linux/semaphore.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>

#include "npu_dma_xfer.h"

/* Per CPU: helpers started where they should run, not where they were woken. */
static struct workqueue_struct *npu_dma_helper_wq;

/*
 * After down(&ndev->channels) (or a successful down_trylock()): which
 * channel is ours.
 */
int npu_dma_chan_take(struct npu_dma_device *ndev)
{
	int chan;

	spin_lock(&ndev->chan_lock);
	chan = ffz(ndev->chan_busy);
	__set_bit(chan, &ndev->chan_busy);
	spin_unlock(&ndev->chan_lock);
	return chan;
}

/**
 * npu_dma_chan_get() - take a DMA channel of an NPU
 * @ndev: the NPU
 *
 * Sleeps until one is free.
 *
 * Return: its number.
 */
int npu_dma_chan_get(struct npu_dma_device *ndev)
{
	down(&ndev->channels);
	return npu_dma_chan_take(ndev);
}

/**
 * npu_dma_chan_put() - give a DMA channel back
 * @ndev: the NPU
 * @chan: the channel, from npu_dma_chan_get()
 */
void npu_dma_chan_put(struct npu_dma_device *ndev, int chan)
{
	spin_lock(&ndev->chan_lock);
	__clear_bit(chan, &ndev->chan_busy);
	spin_unlock(&ndev->chan_lock);
	up(&ndev->channels);
}

/**
 * npu_dma_work_elsewhere() - start a channel's helper on a given CPU
 * @work: the helper's work item
 * @nth: the nth online CPU after this one, wrapping around (0: this one;
 *	a job's helper i goes to the ith)
 *
 * Per CPU (``WQ_CPU_INTENSIVE``): a helper queued on the unbound
 * workqueue tends to be woken on the CPU of its waker, which is busy
 * with the job itself, and to stay there.
 */
void npu_dma_work_elsewhere(struct work_struct *work, unsigned int nth)
{
	int cpu = raw_smp_processor_id();

	while (nth--) {
		cpu = cpumask_next(cpu, cpu_online_mask);
		if (cpu >= nr_cpu_ids)
			cpu = cpumask_first(cpu_online_mask);
	}
	queue_work_on(cpu, npu_dma_helper_wq, work);
}

/**
 * npu_dma_work_on() - start a helper on a given CPU
 * @work: the helper's work item
 * @cpu: an online CPU
 */
void npu_dma_work_on(struct work_struct *work, int cpu)
{
	queue_work_on(cpu, npu_dma_helper_wq, work);
}

int npu_dma_chan_init(void)
{
	/*
	 * Its work items copy for as long as members last: not per-CPU
	 * concurrency managed, or they would hold up the CPU's other work.
	 */
	npu_dma_helper_wq = alloc_workqueue("npu_dma_runner", WQ_CPU_INTENSIVE, 0);
	return npu_dma_helper_wq ? 0 : -ENOMEM;
}

void npu_dma_chan_exit(void)
{
	destroy_workqueue(npu_dma_helper_wq);
}
