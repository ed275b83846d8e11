/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * npu_dma: queues (streams): their objects and ioctls (npu_dma_queue.c).
 */
#ifndef __NPU_DMA_QUEUE_H__
#define __NPU_DMA_QUEUE_H__

#include <linux/eventfd.h>
#include <linux/spinlock.h>

#include "npu_dma.h"
#include "npu_dma_budget.h"

struct npu_dma_area;

/**
 * struct npu_dma_queue - one stream: ring, control area and jobs
 * @ref: the context's xarray holds one reference, the global id table
 *	none (lookups take one under its lock), each WAIT job one
 * @ctx: owning context
 * @id: global id (npu_dma_queue_ids)
 * @index: id within the context, selects the mmap offset
 * @entries: ring entries
 * @area: shared area: struct npu_dma_queue_ctrl then the ring; the queue
 *	and every mapping of it hold a reference, so it outlives both
 * @ctrl: control part of @area
 * @ring: descriptor part of @area
 * @efd: eventfd to signal, or NULL
 * @submit_lock: Protects @head, @seq and @dead (one doorbell at a time)
 * @dead: destroyed: no more doorbells
 * @need_wakeup: idle: only a doorbell makes it look at the ring again
 *	(published as NPU_DMA_QUEUE_S_NEED_WAKEUP)
 * @head: next ring index to consume (the kernel's own copy)
 * @seq: sequence number of the last job created
 * @priority: NPU_DMA_QUEUE_PRIO_*, for the channels' arbitration
 *	(READ_ONCE: set by QUEUE_CTL at any time)
 * @lock: Protects @jobs, @completed, @barrier_*, @aborting, @aborts,
 *	@stopped
 * @jobs: jobs not retired yet, in sequence order
 * @completed: sequence number of the last retired job
 * @barrier_seq: HOST_BARRIER the queue stopped at, or 0
 * @barrier_released: last HOST_BARRIER user space released
 * @aborting: fail every job not started yet with -ECANCELED
 * @aborts: QUEUE_CTL ABORTs under way: the last one clears @aborting
 * @stopped: start no job (QUEUE_CTL STOP) until an abort
 * @run_lock: held by whoever runs the queue's jobs: its @work, or a doorbell
 *	running small work inline (NPU_DMA_SUBMIT_F_INLINE); a killer takes it
 *	to wait for the latter
 * @work: runs the queue's jobs in order
 * @idle: woken whenever @jobs becomes empty, and on any retire while
 *	someone waits on it
 * @wait_node: in the list of queues stopped at a WAIT (npu_dma_waiting)
 * @spare: an array of @entries jobs for the members of the next batch, or
 *	NULL (taken with xchg(), given back with cmpxchg()): a batch does not
 *	allocate, map and zero its members' memory each time
 * @budget: what it has consumed and not retired (npu_dma_budget.c)
 */
struct npu_dma_queue {
	struct kref ref;
	struct npu_dma_ctx *ctx;
	u32 id;
	u32 index;
	u32 entries;
	struct npu_dma_area *area;
	struct npu_dma_queue_ctrl *ctrl;
	struct npu_dma_desc *ring;
	struct eventfd_ctx *efd;

	struct mutex submit_lock;	/* @head, @seq, @dead */
	u32 head;
	u64 seq;
	bool dead;
	bool need_wakeup;
	u8 priority;

	spinlock_t lock;		/* @jobs .. @stopped */
	struct list_head jobs;
	u64 completed;
	u64 barrier_seq;
	u64 barrier_released;
	bool aborting;
	bool stopped;
	unsigned int aborts;

	struct mutex run_lock;		/* whoever runs the jobs */
	struct work_struct work;
	wait_queue_head_t idle;
	struct list_head wait_node;

	struct npu_dma_job *spare;
	struct npu_dma_budget budget;
};

int npu_dma_queue_create_ioctl(struct npu_dma_ctx *ctx, void *data);
int npu_dma_queue_destroy_ioctl(struct npu_dma_ctx *ctx, void *data);
int npu_dma_queue_submit_ioctl(struct npu_dma_ctx *ctx, void *data);
int npu_dma_barrier_release_ioctl(struct npu_dma_ctx *ctx, void *data);
int npu_dma_queue_ctl_ioctl(struct npu_dma_ctx *ctx, void *data);
void npu_dma_queue_destroy_all(struct npu_dma_ctx *ctx);
void npu_dma_queue_abort_all(struct npu_dma_ctx *ctx);
struct npu_dma_queue *npu_dma_queue_get_by_id(u32 id, struct mm_struct *mm);
void npu_dma_queue_put(struct npu_dma_queue *q);
void npu_dma_queue_exit(void);

#endif /* __NPU_DMA_QUEUE_H__ */
