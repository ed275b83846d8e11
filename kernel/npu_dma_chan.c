// SPDX-License-Identifier: GPL-2.0-only
/*
 * npu_dma: DMA channels, and the helpers that use the idle ones.
 *
 * Every transfer holds one of its NPU's channels; which one it holds
 * is kept for tracing and the timeline. When all are busy, a channel
 * that comes free is handed to the waiter whose queue has the highest
 * priority, in arrival order among equals (QUEUE_CTL SET_PRIORITY); a
 * job that holds channels for long (a batch's runners, a copy shared
 * among channels) gives them up between its parts to a waiter of
 * higher priority than its own, so that a high-priority queue's copy
 * overtakes a low-priority queue's backlog. A job that spreads over
 * several channels (a batch's members, npu_dma_runner.c; a large copy
 * cut into chunks, npu_dma_xfer.c) starts a helper per extra channel, a
 * work item on a per-CPU workqueue: where it starts decides whether it
 * competes with the CPU that submits or validates the work.
 */

#include <linux/cpumask.h>
#include <linux/sched.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>

#include "npu_dma_xfer.h"

/* Per CPU: helpers started where they should run, not where they were woken. */
static struct workqueue_struct *npu_dma_helper_wq;

/**
 * struct npu_chan_waiter - a task waiting for a channel, on its stack
 * @node: in npu_dma_device.chan_waiters
 * @task: the task, woken when a channel is handed to it
 * @prio: its queue's priority (0 highest)
 * @chan: the channel handed over, -1 until then
 */
struct npu_chan_waiter {
	struct list_head node;
	struct task_struct *task;
	int prio;
	int chan;
};

/* A free channel, marked busy, or -1. Under chan_lock. */
static int npu_chan_take_free(struct npu_dma_device *ndev)
{
	int chan = ffz(ndev->chan_busy);

	if (chan >= ndev->nr_channels)
		return -1;
	__set_bit(chan, &ndev->chan_busy);
	return chan;
}

static void npu_chan_update_best(struct npu_dma_device *ndev)
{
	struct npu_chan_waiter *w;

	w = list_first_entry_or_null(&ndev->chan_waiters,
				     struct npu_chan_waiter, node);
	WRITE_ONCE(ndev->chan_best, w ? w->prio : NPU_DMA_QUEUE_PRIO_LOWEST + 1);
}

/* Queue @w behind every waiter of its priority or higher. Under chan_lock. */
static void npu_chan_enqueue(struct npu_dma_device *ndev,
			     struct npu_chan_waiter *w)
{
	struct npu_chan_waiter *pos;

	list_for_each_entry(pos, &ndev->chan_waiters, node)
		if (pos->prio > w->prio)
			break;
	list_add_tail(&w->node, &pos->node);
	npu_chan_update_best(ndev);
}

/**
 * npu_dma_chan_get() - take a DMA channel of an NPU
 * @ndev: the NPU
 * @prio: the priority of the queue it is for
 *
 * Sleeps (uninterruptibly, as for the engine) until one is handed over.
 *
 * Return: its number.
 */
int npu_dma_chan_get(struct npu_dma_device *ndev, int prio)
{
	struct npu_chan_waiter w = { .task = current, .prio = prio, .chan = -1 };
	int chan;

	spin_lock(&ndev->chan_lock);
	chan = list_empty(&ndev->chan_waiters) ? npu_chan_take_free(ndev) : -1;
	if (chan >= 0) {
		spin_unlock(&ndev->chan_lock);
		return chan;
	}
	npu_chan_enqueue(ndev, &w);
	for (;;) {
		set_current_state(TASK_UNINTERRUPTIBLE);
		if (w.chan >= 0)
			break;
		spin_unlock(&ndev->chan_lock);
		schedule();
		spin_lock(&ndev->chan_lock);
	}
	__set_current_state(TASK_RUNNING);
	spin_unlock(&ndev->chan_lock);
	return w.chan;
}

/**
 * npu_dma_chan_tryget() - take a DMA channel of an NPU if one is free now
 * @ndev: the NPU
 *
 * Not past anyone waiting: a helper that would take a channel from a
 * waiting queue does without it.
 *
 * Return: its number, or -1.
 */
int npu_dma_chan_tryget(struct npu_dma_device *ndev)
{
	int chan = -1;

	spin_lock(&ndev->chan_lock);
	if (list_empty(&ndev->chan_waiters))
		chan = npu_chan_take_free(ndev);
	spin_unlock(&ndev->chan_lock);
	return chan;
}

/**
 * npu_dma_chan_put() - give a DMA channel back
 * @ndev: the NPU
 * @chan: the channel, from npu_dma_chan_get()
 *
 * Handed to the first waiter if there is one: woken under the lock,
 * which it needs to return, so its waiter on the stack is still there.
 */
void npu_dma_chan_put(struct npu_dma_device *ndev, int chan)
{
	struct npu_chan_waiter *w;

	spin_lock(&ndev->chan_lock);
	w = list_first_entry_or_null(&ndev->chan_waiters,
				     struct npu_chan_waiter, node);
	if (w) {
		list_del(&w->node);
		npu_chan_update_best(ndev);
		w->chan = chan;
		wake_up_process(w->task);
	} else {
		__clear_bit(chan, &ndev->chan_busy);
	}
	spin_unlock(&ndev->chan_lock);
}

/**
 * npu_dma_chan_yield() - give way to a waiter of higher priority
 * @ndev: the NPU
 * @chan: a channel the caller holds, between two parts of its work
 * @prio: the priority of the caller's queue
 *
 * Return: the channel to go on with: @chan, or another one taken after
 * the waiters of higher priority had theirs.
 */
int npu_dma_chan_yield(struct npu_dma_device *ndev, int chan, int prio)
{
	if (READ_ONCE(ndev->chan_best) >= prio)
		return chan;
	npu_dma_chan_put(ndev, chan);
	return npu_dma_chan_get(ndev, prio);
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
