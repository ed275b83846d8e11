/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * npu_dma: a job, one validated descriptor, from the doorbell to its
 * retirement (npu_dma_job.c owns its memory and references).
 */
#ifndef __NPU_DMA_JOB_H__
#define __NPU_DMA_JOB_H__

#include <linux/list.h>

#include "npu_dma.h"
#include "npu_dma_budget.h"

struct npu_dma_queue;
struct npu_dma_graph;
struct npu_batch_runner;
struct npu_dma_signal;

/**
 * enum npu_dma_side_kind - what one side of a transfer addresses
 * @NPU_DMA_SIDE_NONE: unused side
 * @NPU_DMA_SIDE_DEV: device memory (@obj is a struct npu_dma_alloc range)
 * @NPU_DMA_SIDE_HOST: host memory (@obj is a struct npu_dma_region range)
 * @NPU_DMA_SIDE_FILL: the fill pattern page of the job
 * @NPU_DMA_SIDE_IMPORT: a foreign dma-buf (@obj is a struct npu_dma_import
 *	range, npu_dma_prime.c)
 */
enum npu_dma_side_kind {
	NPU_DMA_SIDE_NONE,
	NPU_DMA_SIDE_DEV,
	NPU_DMA_SIDE_HOST,
	NPU_DMA_SIDE_FILL,
	NPU_DMA_SIDE_IMPORT,
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

/**
 * struct npu_dma_job - one validated descriptor
 * @d: the descriptor, copied out of the ring once, into the job itself
 *	(first: npu_dma_job_init() sets up what follows it)
 * @node: in q->jobs, in sequence order
 * @q: its queue
 * @seq: its sequence number
 * @status: result; set at submit for a descriptor that failed validation
 * @src: resolved source, holding a reference
 * @dst: resolved destination, holding a reference
 * @wait_q: WAIT: the queue waited for, holding a reference
 * @sig: SIGNAL, WAIT_SIGNAL: the signal, holding a reference
 * @sig_target: SIGNAL: its record's number; WAIT_SIGNAL: the records
 *	submitted before it (npu_dma_signal.c)
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
	struct npu_dma_desc d;
	struct list_head node;
	struct npu_dma_queue *q;
	u64 seq;
	int status;
	struct npu_dma_side src;
	struct npu_dma_side dst;
	struct npu_dma_queue *wait_q;
	struct npu_dma_signal *sig;
	u64 sig_target;
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
	struct npu_batch_runner *late_runner;
	int doorbell_cpu;
	struct npu_dma_charge charge;
};

/* npu_dma_job.c */
struct npu_dma_job *npu_dma_job_alloc(void);
void npu_dma_job_free(struct npu_dma_job *job);
void npu_dma_job_init(struct npu_dma_queue *q, struct npu_dma_job *job,
		      u64 *seq);
u64 npu_dma_desc_seqs(const struct npu_dma_desc *d);
struct npu_dma_job *npu_dma_members_alloc(struct npu_dma_queue *q, u32 n,
					  bool *spare);
void npu_dma_members_free(struct npu_dma_job *batch);
void npu_dma_job_put_refs(struct npu_dma_job *job);
u64 npu_dma_job_tasks(const struct npu_dma_job *job);
int npu_dma_job_init_cache(void);
void npu_dma_job_exit_cache(void);

/* What a batch may hold: copies, fills and no-ops. */
static inline bool npu_dma_batch_op_ok(u8 op)
{
	return op == NPU_DMA_OP_COPY || op == NPU_DMA_OP_COPY_2D ||
	       op == NPU_DMA_OP_FILL || op == NPU_DMA_OP_NOP;
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
	    job->d.opcode == NPU_DMA_OP_COPY_INDIRECT ||
	    job->d.opcode == NPU_DMA_OP_REDUCE)
		return job->d.len;
	return 0;
}

#endif /* __NPU_DMA_JOB_H__ */
