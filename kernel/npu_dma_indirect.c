// SPDX-License-Identifier: GPL-2.0-only
/*
 * npu_dma: COPY_INDIRECT, a copy whose addresses are read when it runs.
 *
 * CANN's descriptor and offset copies (aclrtMemcpyAsyncWithDesc,
 * aclrtMemcpyAsyncWithOffset) name device memory that holds the copy's
 * parameters; the device reads them when it gets to the copy, so work
 * queued before it, or a rewrite between replays of a captured graph,
 * decides what is copied. The words were checked at submission and the
 * job holds their allocations; what they hold is user data, validated
 * here exactly as a COPY descriptor naming it would be, under the same
 * rules (this NPU's memory of the submitting context, whole extent,
 * referenced while it moves).
 */

#include <linux/dma-mapping.h>
#include <linux/highmem.h>

#include "npu_dma_job.h"
#include "npu_dma_mem.h"
#include "npu_dma_queue.h"
#include "npu_dma_validate.h"
#include "npu_dma_vmm.h"
#include "npu_dma_xfer.h"

/* The u64 at device address @addr of the allocation on @side. */
static int npu_indirect_word(struct npu_dma_job *job, struct npu_dma_side *side,
			     u64 addr, u64 *val)
{
	struct npu_dma_device *ndev = job->q->ctx->ndev;
	struct npu_dma_seg seg;
	void *p;
	int ret;

	/* Freed since it was submitted (or captured): not read. */
	if (npu_dma_range_gone(side->obj))
		return -EFAULT;
	ret = npu_dma_devmem_seg(side->obj, addr, &seg);
	if (ret)
		return ret;
	/* The engine may have written it: the CPU reads it as the NPU's. */
	if (ndev->ops->dma_mapped)
		dma_sync_single_for_cpu(ndev->parent, seg.dma, sizeof(u64),
					DMA_BIDIRECTIONAL);
	p = kmap_local_page(seg.page);
	*val = READ_ONCE(*(u64 *)(p + seg.offset));
	kunmap_local(p);
	return 0;
}

/* The plain COPY @job's words describe now, into @d. */
static int npu_indirect_read(struct npu_dma_job *job, struct npu_dma_desc *d)
{
	const struct npu_dma_desc *in = &job->d;
	u64 src, dst, len = in->len;
	int ret;

	ret = npu_indirect_word(job, &job->src, in->src, &src);
	if (!ret)
		ret = npu_indirect_word(job, &job->dst, in->dst, &dst);
	if (!ret && !len)
		ret = npu_indirect_word(job, &job->src, in->value, &len);
	if (ret)
		return ret;
	*d = (struct npu_dma_desc){
		.opcode = NPU_DMA_OP_COPY,
		.src = src + in->src_pitch,
		.dst = dst + in->dst_pitch,
		.len = len,
	};
	return 0;
}

/**
 * npu_dma_indirect_run() - run a COPY_INDIRECT job on the channel it holds
 * @job: the job, validated; job->d.len becomes the length it moved
 *
 * Reads the words, checks the copy they describe and runs it as a COPY
 * job of its own (same queue, sequence number and channel), holding its
 * memory while it moves. Sleeps.
 *
 * Return: 0, -EFAULT (a word's memory was freed, or the copy does not lie
 * in the context's memory of this NPU), -EINVAL (too long), or what the
 * copy returned.
 */
int npu_dma_indirect_run(struct npu_dma_job *job)
{
	struct npu_dma_ctx *ctx = job->q->ctx;
	/* A graph task's job is on the stack too: both are small. */
	struct npu_dma_job copy = {
		.q = job->q, .seq = job->seq, .last_seq = job->seq,
		.chan = job->chan,
	};
	int ret;

	INIT_LIST_HEAD(&copy.node);
	ret = npu_indirect_read(job, &copy.d);
	/* No bytes until they moved: a refused length is not traced. */
	job->d.len = 0;
	if (ret)
		goto out;
	if (!copy.d.len)
		return 0;
	/* CANN's INNER_DEVICE_TO_DEVICE: this NPU's memory, not a peer's. */
	if (!npu_dma_own_memory(ctx->ndev, copy.d.src) ||
	    !npu_dma_own_memory(ctx->ndev, copy.d.dst)) {
		ret = -EFAULT;
		goto out;
	}
	ret = npu_dma_validate_task(ctx, &copy);
	if (!ret)
		ret = npu_dma_job_run_on_chan(&copy);
	if (!ret)
		job->d.len = copy.d.len;
	npu_dma_job_put_refs(&copy);
out:
	if (ret)
		npu_dbg(ctx->ndev, "queue %u seq %llu: indirect copy of %llu bytes %llx -> %llx failed: %d\n",
			job->q->id, job->seq, copy.d.len, copy.d.src,
			copy.d.dst, ret);
	return ret;
}
