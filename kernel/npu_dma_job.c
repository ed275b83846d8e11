// SPDX-License-Identifier: GPL-2.0-only
/*
 * npu_dma: jobs, the one owner of their memory and references.
 *
 * A doorbell allocates a job per descriptor (a batch: one job with an
 * array of its members), numbers it here, has it validated
 * (npu_dma_validate.c), which takes references on what it names, and
 * queues it; retirement (npu_dma_retire.c) gives both back here. A
 * graph's tasks are jobs too, released with their graph.
 */

#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "npu_dma_graph.h"
#include "npu_dma_job.h"
#include "npu_dma_mem.h"
#include "npu_dma_pin.h"
#include "npu_dma_prime.h"
#include "npu_dma_queue.h"
#include "npu_dma_signal.h"

/* Batches of this many members take the queue's spare array. */
#define NPU_JOB_SPARE_MIN	64

static struct kmem_cache *npu_dma_job_cache;

/* Jobs come from one cache: the doorbell allocates, retirement frees. */
struct npu_dma_job *npu_dma_job_alloc(void)
{
	return kmem_cache_alloc(npu_dma_job_cache, GFP_KERNEL);
}

void npu_dma_job_free(struct npu_dma_job *job)
{
	kmem_cache_free(npu_dma_job_cache, job);
}

/**
 * npu_dma_desc_seqs() - sequence numbers a descriptor takes
 * @d: the descriptor, copied out
 *
 * A GRAPH one per task, valid or not (user space counted them from its
 * @len), anything else one.
 */
u64 npu_dma_desc_seqs(const struct npu_dma_desc *d)
{
	if (d->opcode == NPU_DMA_OP_GRAPH && d->len &&
	    d->len <= NPU_DMA_MAX_GRAPH_TASKS)
		return d->len;
	return 1;
}

/**
 * npu_dma_job_init() - set up the job of a copied-out descriptor
 * @q: its queue
 * @job: the job, its descriptor copied in; every other field is set
 *	(its memory may be reused)
 * @seq: the last sequence number taken, advanced by the job's
 */
void npu_dma_job_init(struct npu_dma_queue *q, struct npu_dma_job *job,
		      u64 *seq)
{
	memset_after(job, 0, d);
	job->q = q;
	job->seq = *seq + 1;
	job->chan = -1;
	*seq += npu_dma_desc_seqs(&job->d);
	job->last_seq = *seq;
}

/*
 * Tasks @job counts for, as it was counted when submitted: a GRAPH
 * that fails as a whole, all of its tasks; anything else one.
 */
u64 npu_dma_job_tasks(const struct npu_dma_job *job)
{
	if (job->d.opcode == NPU_DMA_OP_GRAPH)
		return job->last_seq - job->seq + 1;
	return 1;
}

/**
 * npu_dma_members_alloc() - memory for the members of a batch
 * @q: its queue
 * @n: how many
 * @spare: set when the array is ring-sized, to go back to @q->spare
 *
 * A batch does not allocate, map and zero its members' memory each time:
 * a large one takes the queue's spare array (xchg(); given back with
 * cmpxchg() by npu_dma_members_free()). Not initialised.
 */
struct npu_dma_job *npu_dma_members_alloc(struct npu_dma_queue *q, u32 n,
					  bool *spare)
{
	struct npu_dma_job *m;

	*spare = n >= NPU_JOB_SPARE_MIN;
	if (!*spare)
		return kvmalloc_array(n, sizeof(*m), GFP_KERNEL_ACCOUNT);
	m = xchg(&q->spare, NULL);
	return m ? m : kvmalloc_array(q->entries, sizeof(*m), GFP_KERNEL_ACCOUNT);
}

/**
 * npu_dma_members_free() - release the members array of a batch
 * @batch: the batch's job
 *
 * A ring-sized array becomes its queue's spare if it has none.
 */
void npu_dma_members_free(struct npu_dma_job *batch)
{
	if (batch->members_spare && !cmpxchg(&batch->q->spare, NULL, batch->members))
		return;
	kvfree(batch->members);
}

static void npu_side_put(struct npu_dma_side *side)
{
	if (side->shared)
		;	/* an earlier member of its batch holds the reference */
	else if (side->kind == NPU_DMA_SIDE_HOST)
		npu_dma_region_put(side->obj);
	else if (side->kind == NPU_DMA_SIDE_DEV)
		npu_dma_alloc_put(side->obj);
	else if (side->kind == NPU_DMA_SIDE_IMPORT)
		npu_dma_import_put(side->obj);
	side->kind = NPU_DMA_SIDE_NONE;
	side->obj = NULL;
	side->shared = false;
}

static void npu_job_put_own(struct npu_dma_job *job)
{
	npu_side_put(&job->src);
	npu_side_put(&job->dst);
	if (job->wait_q) {
		npu_dma_queue_put(job->wait_q);
		job->wait_q = NULL;
	}
	if (job->sig) {
		npu_dma_signal_put(job->sig);
		job->sig = NULL;
	}
	if (job->graph) {
		npu_dma_graph_put(job->graph);
		job->graph = NULL;
	}
}

/**
 * npu_dma_job_put_refs() - drop what a job holds
 * @job: the job; a batch's also what its members hold, and their array
 */
void npu_dma_job_put_refs(struct npu_dma_job *job)
{
	u32 i;

	for (i = 0; i < job->nr_members; i++)
		npu_job_put_own(&job->members[i]);
	if (job->members)
		npu_dma_members_free(job);
	job->members = NULL;
	job->nr_members = 0;
	npu_job_put_own(job);
}

int npu_dma_job_init_cache(void)
{
	npu_dma_job_cache = KMEM_CACHE(npu_dma_job, SLAB_ACCOUNT);
	return npu_dma_job_cache ? 0 : -ENOMEM;
}

void npu_dma_job_exit_cache(void)
{
	kmem_cache_destroy(npu_dma_job_cache);
}
