/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * npu_dma: queues, jobs and host regions (internal).
 */
#ifndef __NPU_DMA_QUEUE_H__
#define __NPU_DMA_QUEUE_H__

#include <linux/completion.h>
#include <linux/eventfd.h>
#include <linux/spinlock.h>

#include <drm/drm_gem.h>

#include "npu_dma.h"

/**
 * struct npu_dma_region - pinned host memory
 * @range: user addresses [start, start + size); in ctx->host_tree when
 *	registered, in no tree when pinned for one copy (transient)
 * @ndev: NPU the pages are DMA-mapped for
 * @mm: address space the pages were pinned from (mmgrab'ed)
 * @pages: pinned pages, from the page holding @range.start
 * @dma: bus address of each page (engines with dma_mapped), else NULL
 * @nr_pages: entries of @pages
 * @writable: pinned with FOLL_WRITE: the device may write
 * @accounted: charged to @mm's locked_vm (registered ranges)
 */
struct npu_dma_region {
	struct npu_dma_range range;
	struct npu_dma_device *ndev;
	struct mm_struct *mm;
	struct page **pages;
	dma_addr_t *dma;
	unsigned long nr_pages;
	bool writable;
	bool accounted;
};

/**
 * enum npu_dma_side_kind - what one side of a transfer addresses
 * @NPU_DMA_SIDE_NONE: unused side
 * @NPU_DMA_SIDE_DEV: device memory (@obj is a struct npu_dma_alloc range)
 * @NPU_DMA_SIDE_HOST: host memory (@obj is a struct npu_dma_region range)
 * @NPU_DMA_SIDE_FILL: the fill pattern page of the job
 */
enum npu_dma_side_kind {
	NPU_DMA_SIDE_NONE,
	NPU_DMA_SIDE_DEV,
	NPU_DMA_SIDE_HOST,
	NPU_DMA_SIDE_FILL,
};

/**
 * struct npu_dma_side - one side of a transfer, resolved
 * @kind: what it addresses
 * @obj: the range, referenced
 * @shared: the reference is an earlier member's of the same batch (the
 *	members are released together), not this side's own
 */
struct npu_dma_side {
	enum npu_dma_side_kind kind;
	struct npu_dma_range *obj;
	bool shared;
};

struct npu_dma_queue;
struct npu_batch_runner;

/**
 * struct npu_dma_job - one validated descriptor
 * @node: in q->jobs, in sequence order
 * @q: its queue
 * @seq: its sequence number
 * @d: the descriptor, copied out of the ring once
 * @status: result; set at submit for a descriptor that failed validation
 * @src: resolved source, holding a reference
 * @dst: resolved destination, holding a reference
 * @wait_q: WAIT: the queue waited for, holding a reference
 * @fill: FILL: page holding the repeated pattern
 * @fill_dma: its bus address (engines with dma_mapped)
 * @batch_member: between BATCH_BEGIN and BATCH_END of one doorbell
 * @members_spare: @members has room for a ring's worth of members and
 *	may go back to q->spare for the next batch
 * @chan: DMA channel the job runs on, -1 while it holds none (tracing)
 * @last_seq: sequence number of its last task: @seq, or for GRAPH
 *	@seq + d.len - 1
 * @graph: GRAPH: the graph replayed, holding a reference
 * @pos: GRAPH: index of the next task to run
 * @members: BATCH_BEGIN of a complete batch: its members then its
 *	BATCH_END, a job each (not on any list), run and retired with it;
 *	@last_seq is then the BATCH_END's sequence number
 * @nr_members: entries of @members, the BATCH_END included
 * @member_descs: while the doorbell validates the members, their
 *	descriptors as copied out of the ring, else NULL
 * @prepared: members validated so far (release; waited for with
 *	wait_var_event()): the batch is queued before they are, so that
 *	its first members run while the doorbell validates the rest;
 *	@nr_members once the doorbell is done with the batch (it may be
 *	retired and freed only then, even if it has no members to run)
 * @late_runner: a helper of the worker running the batch, for the
 *	doorbell to start on its own CPU once it has validated every
 *	member; whichever of the two comes second starts it (xchg/cmpxchg)
 * @doorbell_cpu: the CPU that validates the batch's members; no other
 *	helper is started there while it does
 * @charge: what its unit (the job, or a batch with its members) was
 *	charged to the budgets when consumed, given back when it retires
 */
struct npu_dma_job {
	struct list_head node;
	struct npu_dma_queue *q;
	u64 seq;
	struct npu_dma_desc d;
	int status;
	struct npu_dma_side src;
	struct npu_dma_side dst;
	struct npu_dma_queue *wait_q;
	struct page *fill;
	dma_addr_t fill_dma;
	bool batch_member;
	bool members_spare;
	int chan;
	u64 last_seq;
	struct npu_dma_graph *graph;
	u32 pos;
	struct npu_dma_job *members;
	u32 nr_members;
	u32 prepared;
	const struct npu_dma_desc *member_descs;
	struct npu_batch_runner *late_runner;
	int doorbell_cpu;
	struct npu_dma_charge charge;
};

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
 * @lock: Protects @jobs, @completed, @barrier_*, @aborting
 * @jobs: jobs not retired yet, in sequence order
 * @completed: sequence number of the last retired job
 * @barrier_seq: HOST_BARRIER the queue stopped at, or 0
 * @barrier_released: last HOST_BARRIER user space released
 * @aborting: fail every job not started yet with -ECANCELED
 * @run_lock: held by whoever runs the queue's jobs: its @work, or a doorbell
 *	running small work inline (NPU_DMA_SUBMIT_F_INLINE); a killer takes it
 *	to wait for the latter
 * @work: runs the queue's jobs in order
 * @idle: woken whenever @jobs becomes empty
 * @wait_node: in the list of queues stopped at a WAIT (npu_dma_waiting)
 * @descs: @entries descriptors a large doorbell copies the ring out to (under
 *	@submit_lock), allocated by the first doorbell that needs it
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

	struct mutex submit_lock;
	u32 head;
	u64 seq;
	bool dead;
	bool need_wakeup;

	spinlock_t lock;
	struct list_head jobs;
	u64 completed;
	u64 barrier_seq;
	u64 barrier_released;
	bool aborting;

	struct mutex run_lock;
	struct work_struct work;
	wait_queue_head_t idle;
	struct list_head wait_node;

	struct npu_dma_desc *descs;
	struct npu_dma_job *spare;
	struct npu_dma_budget budget;
};

/**
 * struct npu_dma_area - memory shared with user space (npu_dma_area.c)
 * @base: the GEM object; its refcount: the owner and each mapping
 * @owner: the file that may map it
 * @mem: the memory, vmalloc_user'ed
 * @size: its size, page aligned
 * @readonly: mapped without write permission
 */
struct npu_dma_area {
	struct drm_gem_object base;
	struct drm_file *owner;
	void *mem;
	size_t size;
	bool readonly;
};

/* npu_dma_pin.c */
int npu_dma_host_register_ioctl(struct npu_dma_ctx *ctx, void *data);
int npu_dma_host_unregister_ioctl(struct npu_dma_ctx *ctx, void *data);
void npu_dma_host_release_all(struct npu_dma_ctx *ctx);
struct npu_dma_region *npu_dma_pin_transient(struct npu_dma_ctx *ctx, u64 addr,
					     u64 len, bool write);
void npu_dma_region_put(struct npu_dma_range *range);
void npu_dma_region_seg(struct npu_dma_region *r, u64 addr,
			struct npu_dma_seg *seg);

/* npu_dma_mem.c */
void npu_dma_alloc_put(struct npu_dma_range *range);
struct npu_dma_device *npu_dma_alloc_ndev(struct npu_dma_range *range);
struct npu_dma_device *npu_dma_side_peer(const struct npu_dma_job *job,
					 const struct npu_dma_side *side);
int npu_dma_peer_hold(const struct npu_dma_job *job);
void npu_dma_peer_unhold(const struct npu_dma_job *job);

/* npu_dma_desc.c: validation of copied-out descriptors */
int npu_dma_desc_check(const struct npu_dma_desc *d);
unsigned long npu_dma_desc_pin_pages(const struct npu_dma_desc *d);
int npu_dma_desc_prepare(struct npu_dma_ctx *ctx, struct npu_dma_job *job);
void npu_dma_job_prepare(struct npu_dma_ctx *ctx, struct npu_dma_job *job);
void npu_dma_batch_prepare(struct npu_dma_ctx *ctx, struct npu_dma_job *batch,
			   void (*progress)(struct npu_dma_job *batch, u32 done));
void npu_dma_job_put_refs(struct npu_dma_job *job);

/* npu_dma_graph.c: validate-once descriptor lists */
int npu_dma_graph_create_ioctl(struct npu_dma_ctx *ctx, void *data);
int npu_dma_graph_destroy_ioctl(struct npu_dma_ctx *ctx, void *data);
void npu_dma_graph_release_all(struct npu_dma_ctx *ctx);
struct npu_dma_graph *npu_dma_graph_get(struct npu_dma_ctx *ctx, u32 id);
void npu_dma_graph_put(struct npu_dma_graph *g);
u32 npu_dma_graph_count(const struct npu_dma_graph *g);
bool npu_dma_graph_run(struct npu_dma_queue *q, struct npu_dma_job *job);

/* npu_dma_xfer.c: execution */
int npu_dma_job_run(struct npu_dma_job *job);
int npu_dma_chan_get(struct npu_dma_device *ndev);
void npu_dma_chan_put(struct npu_dma_device *ndev, int chan);
int npu_dma_job_exec(struct npu_dma_job *job);
void npu_dma_members_exec(struct npu_dma_job *jobs, unsigned int n, int chan);

/* npu_dma_indirect.c: copies whose addresses are read when they run */
int npu_dma_indirect_exec(struct npu_dma_job *job);

/* npu_dma_runner.c: batches and split copies over several channels */
void npu_dma_work_elsewhere(struct work_struct *work, unsigned int nth);
void npu_dma_batch_run(struct npu_dma_queue *q, struct npu_dma_job *begin);
void npu_dma_batch_validated(struct npu_dma_job *begin);
int npu_dma_runner_init(void);
void npu_dma_runner_exit(void);

/* npu_dma_submit.c: the doorbell, from ring to job list */
void npu_dma_job_init(struct npu_dma_queue *q, struct npu_dma_job *job,
		      const struct npu_dma_desc *d, u64 *seq);
void npu_dma_queue_mark_batches(struct npu_dma_job **jobs, u32 n);
void npu_dma_queue_members_free(struct npu_dma_job *batch);
int npu_dma_queue_pull_locked(struct npu_dma_queue *q, bool worker,
			      bool *pinning);

/* npu_dma_queue.c */
struct npu_dma_job *npu_dma_job_alloc(void);
void npu_dma_job_free(struct npu_dma_job *job);
void npu_dma_queue_kick(struct npu_dma_queue *q);
int npu_dma_queue_create_ioctl(struct npu_dma_ctx *ctx, void *data);
int npu_dma_queue_destroy_ioctl(struct npu_dma_ctx *ctx, void *data);
int npu_dma_queue_submit_ioctl(struct npu_dma_ctx *ctx, void *data);
int npu_dma_barrier_release_ioctl(struct npu_dma_ctx *ctx, void *data);
vm_fault_t npu_dma_vmalloc_fault(struct vm_fault *vmf, void *mem, size_t size,
				 pgoff_t pgoff);
void npu_dma_queue_destroy_all(struct npu_dma_ctx *ctx);
void npu_dma_queue_abort_all(struct npu_dma_ctx *ctx);
struct npu_dma_queue *npu_dma_queue_get_by_id(u32 id, struct mm_struct *mm);
void npu_dma_queue_put(struct npu_dma_queue *q);
u64 npu_dma_queue_completed(struct npu_dma_queue *q);
bool npu_dma_queue_job_ready(struct npu_dma_queue *q, struct npu_dma_job *job);
void npu_dma_queue_note_result(struct npu_dma_queue *q, struct npu_dma_job *job);
void npu_dma_queue_publish(struct npu_dma_queue *q, u64 seq);
int npu_dma_queue_init(void);
void npu_dma_queue_exit(void);

/* What a batch may hold: copies, fills and no-ops. */
static inline bool npu_dma_batch_op_ok(u8 op)
{
	return op == NPU_DMA_OP_COPY || op == NPU_DMA_OP_COPY_2D ||
	       op == NPU_DMA_OP_FILL || op == NPU_DMA_OP_NOP;
}

/* @addr lies in @ndev's own device memory (not a peer's). */
static inline bool npu_dma_own_memory(const struct npu_dma_device *ndev, u64 addr)
{
	return addr >= ndev->mem_base && addr - ndev->mem_base < ndev->mem_size;
}

/*
 * Bytes a job moves: one run, or height rows of len (COPY_INDIRECT: its
 * length once it ran).
 */
static inline u64 npu_dma_job_bytes(const struct npu_dma_job *job)
{
	if (job->d.opcode == NPU_DMA_OP_COPY_2D)
		return job->d.len * job->d.height;
	if (job->d.opcode == NPU_DMA_OP_COPY || job->d.opcode == NPU_DMA_OP_FILL ||
	    job->d.opcode == NPU_DMA_OP_COPY_INDIRECT)
		return job->d.len;
	return 0;
}

#endif /* __NPU_DMA_QUEUE_H__ */
