// SPDX-License-Identifier: GPL-2.0-only
/*
 * npu_dma: validation of descriptors.
 *
 * Works on the job's private copy of a descriptor, never on the ring.
 * Every field an opcode does not use must be zero; every address must
 * lie, with its whole extent, inside one device allocation or one host
 * registration of the submitting context (or be pinned now, for
 * pageable host memory); lengths and 2-D extents are checked for
 * overflow. The job takes a reference on what it touches.
 *
 * A device address in a peer NPU's memory (the address names the NPU)
 * must lie in an allocation the same process made on that peer, through
 * any of its open files there; the queue's own engine then moves it.
 */

#include <linux/mm.h>
#include <linux/overflow.h>
#include <linux/sched.h>

#include "npu_dma_budget.h"
#include "npu_dma_graph.h"
#include "npu_dma_job.h"
#include "npu_dma_mem.h"
#include "npu_dma_pin.h"
#include "npu_dma_queue.h"
#include "npu_dma_reduce.h"
#include "npu_dma_signal.h"
#include "npu_dma_validate.h"
#include "npu_dma_vmm.h"

static int npu_val_fields(const struct npu_dma_desc *d)
{
	bool indirect = d->opcode == NPU_DMA_OP_COPY_INDIRECT;
	bool reduce = d->opcode == NPU_DMA_OP_REDUCE;
	bool copy = d->opcode == NPU_DMA_OP_COPY ||
		    d->opcode == NPU_DMA_OP_COPY_2D || indirect || reduce;

	if (d->opcode > NPU_DMA_OP_MAX || d->flags & ~NPU_DMA_DESC_FLAGS_MASK ||
	    d->reserved)
		return -EINVAL;
	if (d->opcode != NPU_DMA_OP_FILL && d->fill_size)
		return -EINVAL;
	if (d->opcode != NPU_DMA_OP_COPY_2D && d->height)
		return -EINVAL;
	if (d->opcode != NPU_DMA_OP_COPY_2D && !indirect &&
	    (d->src_pitch || d->dst_pitch))
		return -EINVAL;
	if (d->opcode != NPU_DMA_OP_WAIT && d->wait_queue)
		return -EINVAL;
	if (d->opcode != NPU_DMA_OP_FILL && d->opcode != NPU_DMA_OP_WAIT &&
	    d->opcode != NPU_DMA_OP_GRAPH && d->opcode != NPU_DMA_OP_SIGNAL &&
	    d->opcode != NPU_DMA_OP_WAIT_SIGNAL && !indirect && !reduce &&
	    d->value)
		return -EINVAL;
	if (d->opcode != NPU_DMA_OP_WAIT_SIGNAL &&
	    d->flags & NPU_DMA_DESC_F_SIGNAL_RESET)
		return -EINVAL;
	/*
	 * Its words are device memory, and so is what they describe; a
	 * reduction runs inside the NPU's memory.
	 */
	if ((indirect || reduce) && d->flags)
		return -EINVAL;
	if (!copy && (d->src || d->flags & (NPU_DMA_DESC_F_SRC_HOST |
					    NPU_DMA_DESC_F_SRC_PAGEABLE)))
		return -EINVAL;
	if (!copy && d->opcode != NPU_DMA_OP_FILL &&
	    d->flags & (NPU_DMA_DESC_F_DST_HOST | NPU_DMA_DESC_F_DST_PAGEABLE))
		return -EINVAL;
	if (!copy && d->opcode != NPU_DMA_OP_FILL &&
	    d->opcode != NPU_DMA_OP_GRAPH && d->len)
		return -EINVAL;
	if (!copy && d->opcode != NPU_DMA_OP_FILL &&
	    d->opcode != NPU_DMA_OP_EVENT_RECORD && d->dst)
		return -EINVAL;
	/* Pageable names host memory; host-to-host is the library's job. */
	if ((d->flags & NPU_DMA_DESC_F_SRC_PAGEABLE &&
	     !(d->flags & NPU_DMA_DESC_F_SRC_HOST)) ||
	    (d->flags & NPU_DMA_DESC_F_DST_PAGEABLE &&
	     !(d->flags & NPU_DMA_DESC_F_DST_HOST)))
		return -EINVAL;
	if ((d->flags & NPU_DMA_DESC_F_SRC_HOST) &&
	    (d->flags & NPU_DMA_DESC_F_DST_HOST))
		return -EINVAL;
	return 0;
}

/* Bytes a side spans: one run, or height rows pitch apart. */
static int npu_val_extent(const struct npu_dma_desc *d, u64 pitch, u64 *extent)
{
	u64 rows;

	if (!d->len || d->len > NPU_DMA_MAX_COPY_LEN)
		return -EINVAL;
	if (d->opcode != NPU_DMA_OP_COPY_2D) {
		*extent = d->len;
		return 0;
	}
	if (!d->height || d->height > NPU_DMA_MAX_2D_HEIGHT ||
	    pitch < d->len || pitch > NPU_DMA_MAX_2D_PITCH)
		return -EINVAL;
	if (check_mul_overflow((u64)(d->height - 1), pitch, &rows) ||
	    check_add_overflow(rows, d->len, extent))
		return -EINVAL;
	return 0;
}

/* Pages [@addr, @addr + @extent) spans; 0 for a range no pin accepts. */
static unsigned long npu_val_span_pages(u64 addr, u64 extent)
{
	u64 end;

	if (check_add_overflow(addr, extent, &end) || end > TASK_SIZE)
		return 0;
	return (PAGE_ALIGN(end) - (addr & PAGE_MASK)) >> PAGE_SHIFT;
}

/**
 * npu_dma_desc_pin_pages() - pageable pages a descriptor will pin
 * @d: the descriptor, copied out
 *
 * Read before it is validated, to charge it to the budgets
 * (npu_dma_budget.c): a descriptor that will fail validation before
 * pinning counts what its fields say, or nothing.
 */
unsigned long npu_dma_desc_pin_pages(const struct npu_dma_desc *d)
{
	unsigned long pages = 0;
	u64 ext;

	if (!(d->flags & (NPU_DMA_DESC_F_SRC_PAGEABLE |
			  NPU_DMA_DESC_F_DST_PAGEABLE)))
		return 0;
	if (d->flags & NPU_DMA_DESC_F_SRC_PAGEABLE &&
	    !npu_val_extent(d, d->src_pitch, &ext))
		pages += npu_val_span_pages(d->src, ext);
	if (d->flags & NPU_DMA_DESC_F_DST_PAGEABLE &&
	    !npu_val_extent(d, d->opcode == NPU_DMA_OP_FILL ? 0 : d->dst_pitch,
			     &ext))
		pages += npu_val_span_pages(d->dst, ext);
	return pages;
}

/* A peer NPU's allocation of the submitting process, referenced. */
static int npu_val_resolve_peer(struct npu_dma_ctx *ctx, struct npu_dma_side *side,
				u64 addr, u64 extent)
{
	struct npu_dma_device *peer = npu_dma_device_get_peer(ctx->ndev, addr);
	struct npu_dma_range *r = NULL;
	struct npu_dma_ctx *pctx;
	int ret = -EFAULT;

	if (!peer)
		return -EFAULT;
	mutex_lock(&peer->ctx_lock);
	if (READ_ONCE(peer->gone)) {
		ret = -ENODEV;
		goto out;
	}
	list_for_each_entry(pctx, &peer->contexts, node) {
		if (pctx->mm != ctx->mm)
			continue;
		mutex_lock(&pctx->lock);
		r = npu_dma_range_find(&pctx->mem_tree, addr, extent);
		/* A peer's import is mapped for the peer's engine only. */
		if (r && r->imported)
			r = NULL;
		if (r)
			kref_get(&r->ref);
		else
			r = npu_dma_span_get(&pctx->mem_tree, addr, extent);
		mutex_unlock(&pctx->lock);
		if (r)
			break;
	}
	if (r) {
		side->kind = NPU_DMA_SIDE_DEV;
		side->obj = r;
		ret = 0;
	}
out:
	mutex_unlock(&peer->ctx_lock);
	npu_dma_device_put(peer);
	return ret;
}

/*
 * Members of a batch are resolved in one pass: ctx->lock is held across
 * the members that name the context's own memory (dropped for a pageable
 * or peer side, and now and then for others waiting for it), and the
 * range the previous member found on a side is tried first. A member
 * that falls in it shares the reference the earlier one took: the tree
 * cannot have changed while the lock was held.
 */
#define NPU_VAL_BATCH_LOCK_MAX	256	/* members per hold of ctx->lock */
#define NPU_VAL_BATCH_PROGRESS	16	/* members per progress report */

struct npu_val_cache {
	struct npu_dma_ctx *ctx;
	bool locked;
	struct npu_dma_range *last[2];	/* source, destination */
	bool last_host[2];
};

static void npu_val_cache_unlock(struct npu_val_cache *c)
{
	if (c && c->locked) {
		mutex_unlock(&c->ctx->lock);
		c->locked = false;
		c->last[0] = NULL;
		c->last[1] = NULL;
	}
}

/* [@addr, @addr + @extent) lies inside @r (no overflow for any input). */
static bool npu_val_in_range(const struct npu_dma_range *r, u64 addr,
			     u64 extent)
{
	return addr >= r->start && extent <= r->size &&
	       addr - r->start <= r->size - extent;
}

static bool npu_val_cache_hit(struct npu_val_cache *c, bool write, bool host,
			      u64 addr, u64 extent)
{
	struct npu_dma_range *r = c->last[write];

	return r && c->last_host[write] == host &&
	       npu_val_in_range(r, addr, extent);
}

static enum npu_dma_side_kind
npu_val_side_kind(const struct npu_dma_range *r, bool host)
{
	if (host)
		return NPU_DMA_SIDE_HOST;
	return r->imported ? NPU_DMA_SIDE_IMPORT : NPU_DMA_SIDE_DEV;
}

/*
 * Resolve one side to an object of the context, taking a reference (or,
 * with @c, sharing one found for the previous member).
 */
static int npu_val_resolve(struct npu_dma_ctx *ctx, struct npu_val_cache *c,
			   struct npu_dma_side *side, u64 addr, u64 extent,
			    bool host, bool pageable, bool write)
{
	struct npu_dma_region *pin;
	struct npu_dma_range *r;

	if (pageable) {
		npu_val_cache_unlock(c);
		/* The budgets admit work by its extents: one must fit them. */
		if (!npu_dma_budget_pin_ok(npu_val_span_pages(addr, extent)))
			return -E2BIG;
		pin = npu_dma_pin_transient(ctx, addr, extent, write);
		if (IS_ERR(pin))
			return PTR_ERR(pin);
		side->kind = NPU_DMA_SIDE_HOST;
		side->obj = &pin->range;
		return 0;
	}
	if (!host && !npu_dma_own_addr(ctx->ndev, addr)) {
		npu_val_cache_unlock(c);
		return npu_val_resolve_peer(ctx, side, addr, extent);
	}

	if (c && npu_val_cache_hit(c, write, host, addr, extent)) {
		side->kind = npu_val_side_kind(c->last[write], host);
		side->obj = c->last[write];
		side->shared = true;
		return 0;
	}
	if (!c || !c->locked)
		mutex_lock(&ctx->lock);
	r = npu_dma_range_find(host ? &ctx->host_tree : &ctx->mem_tree, addr,
			       extent);
	if (r && host && write &&
	    !container_of(r, struct npu_dma_region, range)->writable)
		r = NULL;	/* registered read-only */
	if (r)
		kref_get(&r->ref);
	else if (!host)
		r = npu_dma_span_get(&ctx->mem_tree, addr, extent);
	if (c) {
		c->locked = true;
		/* A span is this side's own: a later member finds its own. */
		c->last[write] = r && !r->span ? r : NULL;
		c->last_host[write] = host;
	} else {
		mutex_unlock(&ctx->lock);
	}
	if (!r) {
		side->kind = NPU_DMA_SIDE_NONE;
		return -EFAULT;
	}
	side->kind = npu_val_side_kind(r, host);
	side->obj = r;
	return 0;
}

static int npu_val_copy(struct npu_dma_ctx *ctx, struct npu_val_cache *c,
			struct npu_dma_job *job)
{
	const struct npu_dma_desc *d = &job->d;
	u64 sext, dext;
	int ret;

	ret = npu_val_extent(d, d->src_pitch, &sext);
	if (!ret)
		ret = npu_val_extent(d, d->dst_pitch, &dext);
	if (ret)
		return ret;

	ret = npu_val_resolve(ctx, c, &job->src, d->src, sext,
			      d->flags & NPU_DMA_DESC_F_SRC_HOST,
			       d->flags & NPU_DMA_DESC_F_SRC_PAGEABLE, false);
	if (ret)
		return ret;
	return npu_val_resolve(ctx, c, &job->dst, d->dst, dext,
				d->flags & NPU_DMA_DESC_F_DST_HOST,
				d->flags & NPU_DMA_DESC_F_DST_PAGEABLE, true);
}

static int npu_val_fill(struct npu_dma_ctx *ctx, struct npu_val_cache *c,
			struct npu_dma_job *job)
{
	const struct npu_dma_desc *d = &job->d;
	u64 ext;
	int ret;

	if (d->fill_size != 1 && d->fill_size != 2 && d->fill_size != 4)
		return -EINVAL;
	if (d->len % d->fill_size || d->value >> (8 * d->fill_size))
		return -EINVAL;
	ret = npu_val_extent(d, 0, &ext);
	if (ret)
		return ret;
	job->src.kind = NPU_DMA_SIDE_FILL;
	return npu_val_resolve(ctx, c, &job->dst, d->dst, ext,
				d->flags & NPU_DMA_DESC_F_DST_HOST,
				d->flags & NPU_DMA_DESC_F_DST_PAGEABLE, true);
}

/*
 * COPY_INDIRECT: the words it reads, in the context's memory of this NPU
 * (8-byte aligned, so that each lies in one page), the length's beside
 * the source's. What they hold is checked when it runs.
 */
static int npu_val_indirect(struct npu_dma_ctx *ctx,
			    struct npu_val_cache *c,
				     struct npu_dma_job *job)
{
	const struct npu_dma_desc *d = &job->d;
	int ret;

	if (!IS_ALIGNED(d->src | d->dst | d->value, sizeof(u64)) ||
	    !d->len == !d->value || d->len > NPU_DMA_MAX_COPY_LEN)
		return -EINVAL;
	if (!npu_dma_own_memory(ctx->ndev, d->src) ||
	    !npu_dma_own_memory(ctx->ndev, d->dst))
		return -EFAULT;
	ret = npu_val_resolve(ctx, c, &job->src, d->src, sizeof(u64), false,
			      false, false);
	if (ret)
		return ret;
	if (d->value && !npu_val_in_range(job->src.obj, d->value, sizeof(u64)))
		return -EFAULT;
	return npu_val_resolve(ctx, c, &job->dst, d->dst, sizeof(u64), false,
				false, true);
}

/*
 * REDUCE: elements of a type the engine combines, whole and aligned on
 * both sides (pieces cut at page boundaries then hold whole elements),
 * in the context's memory of this NPU. An engine without the operation
 * refuses it here, not when it would run.
 */
static int npu_val_reduce(struct npu_dma_ctx *ctx, struct npu_val_cache *c,
			  struct npu_dma_job *job)
{
	const struct npu_dma_desc *d = &job->d;
	unsigned int size = npu_dma_reduce_elem_size(d->value);
	int ret;

	if (!ctx->ndev->ops->reduce)
		return -EOPNOTSUPP;
	if (!size || !d->len || d->len > NPU_DMA_MAX_COPY_LEN ||
	    !IS_ALIGNED(d->src | d->dst | d->len, size))
		return -EINVAL;
	if (!npu_dma_own_memory(ctx->ndev, d->src) ||
	    !npu_dma_own_memory(ctx->ndev, d->dst))
		return -EFAULT;
	ret = npu_val_resolve(ctx, c, &job->src, d->src, d->len, false, false,
			      false);
	if (ret)
		return ret;
	return npu_val_resolve(ctx, c, &job->dst, d->dst, d->len, false, false,
			       true);
}

/*
 * GRAPH: the graph named by @value, whose task count @len must be. Ids
 * are 32 bits: high bits set are refused, not dropped, or such a value
 * would name the graph of its low half.
 */
static int npu_val_graph(struct npu_dma_ctx *ctx, struct npu_dma_job *job)
{
	if (job->d.value > U32_MAX)
		return -EINVAL;
	job->graph = npu_dma_graph_get(ctx, job->d.value);
	if (!job->graph)
		return -ENOENT;
	return job->d.len == npu_dma_graph_count(job->graph) ? 0 : -EINVAL;
}

/**
 * npu_dma_validate_fields() - the checks of a descriptor's fields alone
 * @d: a copied-out descriptor
 *
 * All that BATCH_BEGIN, BATCH_END and NOP need.
 *
 * Return: 0 or -EINVAL.
 */
int npu_dma_validate_fields(const struct npu_dma_desc *d)
{
	return npu_val_fields(d);
}

static int npu_val_desc(struct npu_dma_ctx *ctx, struct npu_val_cache *c,
			struct npu_dma_job *job)
{
	int ret = npu_val_fields(&job->d);

	if (ret)
		return ret;
	switch (job->d.opcode) {
	case NPU_DMA_OP_COPY:
	case NPU_DMA_OP_COPY_2D:
		return npu_val_copy(ctx, c, job);
	case NPU_DMA_OP_FILL:
		return npu_val_fill(ctx, c, job);
	case NPU_DMA_OP_COPY_INDIRECT:
		return npu_val_indirect(ctx, c, job);
	case NPU_DMA_OP_REDUCE:
		return npu_val_reduce(ctx, c, job);
	case NPU_DMA_OP_EVENT_RECORD:
		return job->d.dst < NPU_DMA_MAX_EVENT_SLOTS ? 0 : -EINVAL;
	case NPU_DMA_OP_WAIT:
		npu_val_cache_unlock(c);
		job->wait_q = npu_dma_queue_get_by_id(job->d.wait_queue, ctx->mm);
		return job->wait_q ? 0 : -ENOENT;
	case NPU_DMA_OP_GRAPH:
		npu_val_cache_unlock(c);
		return npu_val_graph(ctx, job);
	case NPU_DMA_OP_SIGNAL:
	case NPU_DMA_OP_WAIT_SIGNAL:
		return npu_dma_signal_validate(ctx, job);
	default:
		return 0;
	}
}

/**
 * npu_dma_validate_task() - validate a descriptor and resolve its addresses
 * @ctx: submitting context (its process is current)
 * @job: job holding a private copy of the descriptor
 *
 * Return: 0, or -errno; on failure the job may hold references still
 * (npu_dma_job_put_refs() drops them either way).
 */
int npu_dma_validate_task(struct npu_dma_ctx *ctx, struct npu_dma_job *job)
{
	return npu_val_desc(ctx, NULL, job);
}

static void npu_val_reject(struct npu_dma_ctx *ctx, struct npu_dma_job *job,
			   int ret)
{
	npu_dbg(ctx->ndev, "queue %u seq %llu: opcode %u rejected: %d\n",
		job->q->id, job->seq, job->d.opcode, ret);
	npu_dma_job_put_refs(job);
	job->status = ret;
}

/**
 * npu_dma_validate_job() - validate a job's descriptor and resolve it
 * @ctx: submitting context (its process is current)
 * @job: job holding a private copy of the descriptor
 *
 * On failure job->status is set and the job holds no reference.
 */
void npu_dma_validate_job(struct npu_dma_ctx *ctx, struct npu_dma_job *job)
{
	int ret = npu_val_desc(ctx, NULL, job);

	if (ret)
		npu_val_reject(ctx, job, ret);
}

/**
 * npu_dma_validate_batch() - validate and resolve the members of a batch
 * @ctx: submitting context (its process is current)
 * @batch: the batch's job, numbered; its members are set up here from
 *	their descriptors (copied in by the doorbell), one by one before
 *	each is validated
 * @progress: called with the number of members done so far, now and then
 *	(with ctx->lock possibly held), and last with @batch->nr_members
 *	(the BATCH_END included), after which @batch is not touched again
 *
 * As npu_dma_validate_job() for each, in one pass (see struct
 * npu_val_cache); a member that is not a copy, fill or no-op fails
 * with -EINVAL. A member's side may share a reference held by an earlier
 * member (side->shared): the members are released together. Nothing
 * else may look at member i before @progress reported more than i done.
 */
void npu_dma_validate_batch(struct npu_dma_ctx *ctx, struct npu_dma_job *batch,
			    void (*progress)(struct npu_dma_job *batch, u32 done))
{
	struct npu_val_cache c = { .ctx = ctx };
	u32 i, n = batch->nr_members - 1;
	u64 seq = batch->seq;
	struct npu_dma_job *job;
	int ret;

	for (i = 0; i < n; i++) {
		job = &batch->members[i];
		npu_dma_job_init(batch->q, job, &seq);
		if (i % NPU_VAL_BATCH_LOCK_MAX == NPU_VAL_BATCH_LOCK_MAX - 1) {
			npu_val_cache_unlock(&c);
			cond_resched();
		}
		if (i % NPU_VAL_BATCH_PROGRESS == NPU_VAL_BATCH_PROGRESS - 1)
			progress(batch, i);
		ret = npu_val_desc(ctx, &c, job);
		if (!ret && !npu_dma_batch_op_ok(job->d.opcode))
			ret = -EINVAL;
		if (!ret)
			continue;
		/*
		 * Its references go, not under ctx->lock (the last put of a
		 * range may take mmap_lock), and later members must not
		 * share them.
		 */
		npu_val_cache_unlock(&c);
		npu_val_reject(ctx, job, ret);
	}
	npu_val_cache_unlock(&c);
	npu_dma_job_init(batch->q, &batch->members[n], &seq);	/* BATCH_END */
	progress(batch, n + 1);
}
