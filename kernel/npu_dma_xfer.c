// SPDX-License-Identifier: GPL-2.0-only
/*
 * npu_dma: execution of validated jobs.
 *
 * A transfer is cut into pieces that stay inside one page on both sides
 * (host pages are pinned one by one, device pages are not contiguous);
 * the engine moves each piece, or arrays of them when it can. A 2-D copy
 * is its rows, a fill is a copy from a page holding the repeated
 * pattern. A job holds one DMA channel of its NPU for its whole duration.
 */

#include <linux/cpumask.h>
#include <linux/dma-mapping.h>
#include <linux/highmem.h>
#include <linux/sched.h>
#include <linux/sizes.h>

#include "npu_dma_engine.h"
#include "npu_dma_job.h"
#include "npu_dma_mem.h"
#include "npu_dma_pin.h"
#include "npu_dma_prime.h"
#include "npu_dma_queue.h"
#include "npu_dma_trace.h"
#include "npu_dma_xfer.h"

/*
 * One side of a transfer as it is walked: the page last resolved, kept
 * while the next piece falls in it (narrow 2-D rows share pages; a device
 * page costs an xarray lookup, a host page an array index). @host is the
 * region of a host side, whose pages are indexed in the loop itself: a
 * narrow 2-D copy out of a wide host matrix changes page every row.
 */
struct npu_xfer_cursor {
	struct npu_dma_side *side;
	struct npu_dma_region *host;
	bool peer;
	bool valid;
	u64 base;
	struct page *page;
	dma_addr_t dma;
};

/*
 * The page behind @addr when it is not the cursor's; @seg->offset is set.
 * Out of line, so that the loop over the pieces stays small.
 */
static noinline int npu_xfer_seg_lookup(struct npu_dma_job *job,
					struct npu_xfer_cursor *c, u64 addr,
					struct npu_dma_seg *seg)
{
	int ret = 0;

	switch (c->side->kind) {
	case NPU_DMA_SIDE_DEV:
		ret = npu_dma_devmem_seg(c->side->obj, addr, seg);
		break;
	case NPU_DMA_SIDE_HOST:
		npu_dma_region_seg(container_of(c->side->obj,
						struct npu_dma_region, range),
				   addr, seg);
		break;
	case NPU_DMA_SIDE_FILL:
		seg->page = job->fill;
		seg->dma = job->fill_dma + addr;
		break;
	case NPU_DMA_SIDE_IMPORT:
		/* Looked up per piece: the cursor keeps no mapped address. */
		c->valid = false;
		return npu_dma_import_seg(c->side->obj, addr, seg);
	default:
		ret = -EINVAL;
	}
	c->valid = !ret;
	c->base = addr & PAGE_MASK;
	c->page = seg->page;
	c->dma = seg->dma ? seg->dma - seg->offset : 0;
	return ret;
}

/*
 * Inlined into the loop over the pieces: most pieces of a narrow 2-D
 * copy fall in the page last resolved on at least one side.
 */
static __always_inline int npu_xfer_seg(struct npu_dma_job *job,
					struct npu_xfer_cursor *c, u64 addr,
					struct npu_dma_seg *seg)
{
	seg->offset = offset_in_page(addr);
	seg->vaddr = NULL;
	if (likely(c->valid && (addr & PAGE_MASK) == c->base)) {
		seg->page = c->page;
		seg->dma = c->dma ? c->dma + seg->offset : 0;
		return 0;
	}
	if (c->host && !c->host->dma) {
		seg->page = c->host->pages[(addr >> PAGE_SHIFT) -
					   (c->host->range.start >> PAGE_SHIFT)];
		seg->dma = 0;
		return 0;
	}
	return npu_xfer_seg_lookup(job, c, addr, seg);
}

/*
 * A peer NPU's memory is mapped for its own engine; an engine that DMAs
 * maps the piece for itself, as a PCIe peer-to-peer transfer would. The
 * page stays mapped by its owner, so the second mapping skips the CPU
 * sync (the DMA API debug code rejects overlapping synced mappings) and
 * the engine syncs the bytes it moves itself, as it does for host pages.
 */
static void npu_xfer_cursor_init(struct npu_dma_job *job,
				 struct npu_xfer_cursor *c,
				 struct npu_dma_side *side)
{
	struct npu_dma_device *ndev = job->q->ctx->ndev;

	c->side = side;
	c->host = side->kind == NPU_DMA_SIDE_HOST ?
		  container_of(side->obj, struct npu_dma_region, range) : NULL;
	c->valid = false;
	c->peer = ndev->ops->dma_mapped && npu_dma_side_peer(job, side);
}

static int npu_xfer_map_peer(struct npu_dma_job *job, struct npu_xfer_cursor *c,
			     struct npu_dma_seg *seg, size_t n,
			     enum dma_data_direction dir)
{
	struct device *dev = job->q->ctx->ndev->parent;

	if (!c->peer)
		return 0;
	seg->dma = dma_map_page_attrs(dev, seg->page, seg->offset, n, dir,
				      DMA_ATTR_SKIP_CPU_SYNC);
	return dma_mapping_error(dev, seg->dma) ? -EIO : 0;
}

static void npu_xfer_unmap_peer(struct npu_dma_job *job, struct npu_xfer_cursor *c,
				struct npu_dma_seg *seg, size_t n,
				enum dma_data_direction dir)
{
	if (c->peer)
		dma_unmap_page_attrs(job->q->ctx->ndev->parent, seg->dma, n, dir,
				     DMA_ATTR_SKIP_CPU_SYNC);
}

/*
 * Pieces are resolved ahead and handed to an engine with copy_pieces in
 * arrays: the indirect call (a retpoline in distribution kernels), the
 * abort test and the scheduling point are then paid per array rather
 * than per piece, which is most of what a narrow 2-D row costs (a
 * 16-byte row is one piece). 16 pieces keep the array under 1 KiB of
 * stack.
 */
#define NPU_XFER_PIECES		16

/**
 * struct npu_xfer_walk - the pieces of some rows of a job, as they are walked
 * @job: the job
 * @sc: source cursor
 * @dc: destination cursor
 * @batch: the engine takes arrays of pieces (copy_pieces, no peer side);
 *	else each piece moves as soon as it is resolved, through @p[0]
 * @n: pieces resolved and not moved yet
 * @member: walking batch members: index of @job among them
 * @first: walking batch members: the first whose pieces may be in @p
 * @p: those pieces
 */
struct npu_xfer_walk {
	struct npu_dma_job *job;
	struct npu_xfer_cursor sc;
	struct npu_xfer_cursor dc;
	bool batch;
	unsigned int n;
	unsigned int member;
	unsigned int first;
	struct npu_dma_piece p[NPU_XFER_PIECES];
};

/* Walk @job next; pieces of an earlier job may still wait in @w->p. */
static void npu_xfer_walk_job(struct npu_xfer_walk *w, struct npu_dma_job *job)
{
	w->job = job;
	npu_xfer_cursor_init(job, &w->sc, &job->src);
	npu_xfer_cursor_init(job, &w->dc, &job->dst);
	/* A reduction is its engine's own operation, piece by piece. */
	w->batch = job->q->ctx->ndev->ops->copy_pieces &&
		   job->d.opcode != NPU_DMA_OP_REDUCE &&
		   !w->sc.peer && !w->dc.peer;
}

static void npu_xfer_walk_init(struct npu_xfer_walk *w, struct npu_dma_job *job)
{
	w->n = 0;
	w->member = 0;
	w->first = 0;
	npu_xfer_walk_job(w, job);
}

/* One piece through the engine's copy, mapping a peer's page for it. */
static int npu_xfer_piece(struct npu_xfer_walk *w, struct npu_dma_piece *p)
{
	struct npu_dma_job *job = w->job;
	struct npu_dma_device *ndev = job->q->ctx->ndev;
	size_t n = p->len;
	int ret;

	/* Validation kept it inside this NPU: no peer side to map. */
	if (job->d.opcode == NPU_DMA_OP_REDUCE)
		return ndev->ops->reduce(ndev, &p->dst, &p->src, n, job->d.value);
	if (!w->sc.peer && !w->dc.peer)
		return ndev->ops->copy(ndev, &p->dst, &p->src, n);
	ret = npu_xfer_map_peer(job, &w->sc, &p->src, n, DMA_TO_DEVICE);
	if (ret)
		return ret;
	ret = npu_xfer_map_peer(job, &w->dc, &p->dst, n, DMA_FROM_DEVICE);
	if (ret) {
		npu_xfer_unmap_peer(job, &w->sc, &p->src, n, DMA_TO_DEVICE);
		return ret;
	}
	ret = ndev->ops->copy(ndev, &p->dst, &p->src, n);
	npu_xfer_unmap_peer(job, &w->dc, &p->dst, n, DMA_FROM_DEVICE);
	npu_xfer_unmap_peer(job, &w->sc, &p->src, n, DMA_TO_DEVICE);
	return ret;
}

/* Move the pieces resolved so far, in one engine call. */
static int npu_xfer_flush(struct npu_xfer_walk *w)
{
	struct npu_dma_device *ndev = w->job->q->ctx->ndev;
	unsigned int n = w->n;
	int ret;

	if (!n)
		return 0;
	w->n = 0;
	if (READ_ONCE(w->job->q->aborting))
		return -ECANCELED;
	ret = ndev->ops->copy_pieces(ndev, w->p, n);
	if (!ret)
		w->first = w->member;	/* the earlier members are done */
	cond_resched();
	return ret;
}

/* @w->p[@w->n] is resolved: move it now, or once the array is full. */
static int npu_xfer_queue_piece(struct npu_xfer_walk *w)
{
	int ret;

	if (w->batch)
		return ++w->n < NPU_XFER_PIECES ? 0 : npu_xfer_flush(w);
	if (READ_ONCE(w->job->q->aborting))
		return -ECANCELED;
	ret = npu_xfer_piece(w, &w->p[0]);
	cond_resched();
	return ret;
}

/* Copy one run of @len bytes. For a fill, @src counts bytes filled so far. */
static int npu_xfer_bytes(struct npu_xfer_walk *w, u64 src, u64 dst, u64 len)
{
	struct npu_dma_job *job = w->job;
	bool fill = job->src.kind == NPU_DMA_SIDE_FILL;
	struct npu_dma_piece *p;
	int ret;

	while (len) {
		p = &w->p[w->n];
		ret = npu_xfer_seg(job, &w->sc, fill ? src % job->d.fill_size : src,
				   &p->src);
		if (!ret)
			ret = npu_xfer_seg(job, &w->dc, dst, &p->dst);
		if (ret)
			return ret;
		p->len = min3(len, (u64)(PAGE_SIZE - p->src.offset),
			      (u64)(PAGE_SIZE - p->dst.offset));
		src += p->len;
		dst += p->len;
		len -= p->len;
		ret = npu_xfer_queue_piece(w);
		if (ret)
			return ret;
	}
	return 0;
}

/* Rows @first .. @first + @n - 1 of a 2-D job; a 1-D job is one row. */
static int npu_xfer_rows(struct npu_dma_job *job, u32 first, u32 n)
{
	const struct npu_dma_desc *d = &job->d;
	u64 src = d->src + (u64)first * d->src_pitch;
	u64 dst = d->dst + (u64)first * d->dst_pitch;
	struct npu_xfer_walk w;
	int ret = 0;
	u32 row;

	npu_xfer_walk_init(&w, job);
	for (row = 0; row < n && !ret; row++) {
		ret = npu_xfer_bytes(&w, src, dst, d->len);
		src += d->src_pitch;
		dst += d->dst_pitch;
	}
	return ret ?: npu_xfer_flush(&w);
}

/*
 * A tall 2-D copy, or a long 1-D copy, is shared with the NPU's idle
 * channels, one per other CPU (more cannot copy at the same time): they
 * claim chunks of rows or bytes, as channels claim batch members. Below
 * a thousand rows or 1 MiB the wake-up of a helper costs more than the
 * part it would take (measured: Documentation/performance.md, "2-D and
 * batch copies" and "Small-copy latency": split from 512 KiB, a 512 KiB
 * copy was slower); a range copied onto itself keeps its order on one
 * channel. A helper that has not started when the chunks are all claimed
 * is cancelled, not waited for: its wake-up would be the job's last
 * moments.
 */
#define NPU_XFER_SPLIT_ROWS	1024
#define NPU_XFER_CHUNK_ROWS	256
#define NPU_XFER_SPLIT_BYTES	SZ_1M
#define NPU_XFER_CHUNK_BYTES	SZ_256K

struct npu_xfer_split;

struct npu_xfer_helper {
	struct work_struct work;
	struct npu_xfer_split *sp;
};

/**
 * struct npu_xfer_split - a job shared among channels
 * @job: the job
 * @next: next chunk to claim
 * @chunks: how many
 * @status: first error of any chunk
 * @helpers: one per extra channel
 */
struct npu_xfer_split {
	struct npu_dma_job *job;
	atomic_t next;
	u32 chunks;
	int status;
	struct npu_xfer_helper helpers[];
};

/* Bytes @off .. @off + @len - 1 of a 1-D job. */
static int npu_xfer_span(struct npu_dma_job *job, u64 off, u64 len)
{
	struct npu_xfer_walk w;
	int ret;

	npu_xfer_walk_init(&w, job);
	ret = npu_xfer_bytes(&w, job->d.src + off, job->d.dst + off, len);
	return ret ?: npu_xfer_flush(&w);
}

/* Chunk @i of a shared job: rows of a 2-D copy, bytes of a 1-D one. */
static int npu_xfer_chunk(struct npu_dma_job *job, u32 i)
{
	const struct npu_dma_desc *d = &job->d;
	u64 off;

	if (d->opcode == NPU_DMA_OP_COPY_2D)
		return npu_xfer_rows(job, i * NPU_XFER_CHUNK_ROWS,
				     min_t(u32, d->height - i * NPU_XFER_CHUNK_ROWS,
					   NPU_XFER_CHUNK_ROWS));
	off = (u64)i * NPU_XFER_CHUNK_BYTES;
	return npu_xfer_span(job, off, min_t(u64, d->len - off,
					     NPU_XFER_CHUNK_BYTES));
}

/*
 * Claim and copy chunks on channel *@chan, giving way between chunks to
 * a queue of higher priority waiting for a channel.
 */
static void npu_xfer_split_chunks(struct npu_xfer_split *sp, int *chan)
{
	struct npu_dma_queue *q = sp->job->q;
	u32 i;
	int ret;

	while ((i = atomic_inc_return(&sp->next) - 1) < sp->chunks) {
		if (i)
			*chan = npu_dma_chan_yield(q->ctx->ndev, *chan,
						   READ_ONCE(q->priority));
		ret = npu_xfer_chunk(sp->job, i);
		if (ret)
			cmpxchg(&sp->status, 0, ret);
	}
}

/* A helper runs only on a channel that is free now, else leaves it all. */
static void npu_xfer_split_work(struct work_struct *work)
{
	struct npu_xfer_split *sp = container_of(work, struct npu_xfer_helper,
						 work)->sp;
	struct npu_dma_device *ndev = sp->job->q->ctx->ndev;
	int chan = npu_dma_chan_tryget(ndev);

	if (chan < 0)
		return;
	npu_xfer_split_chunks(sp, &chan);
	npu_dma_chan_put(ndev, chan);
}

/* How many chunks @job is cut into when shared, 0 when it is not. */
static u32 npu_xfer_split_count(const struct npu_dma_job *job)
{
	const struct npu_dma_desc *d = &job->d;

	if (job->src.obj == job->dst.obj)
		return 0;
	if (d->opcode == NPU_DMA_OP_COPY_2D)
		return d->height < NPU_XFER_SPLIT_ROWS ? 0 :
			DIV_ROUND_UP(d->height, NPU_XFER_CHUNK_ROWS);
	if (d->opcode == NPU_DMA_OP_COPY && d->len >= NPU_XFER_SPLIT_BYTES)
		return DIV_ROUND_UP_ULL(d->len, NPU_XFER_CHUNK_BYTES);
	return 0;
}

/* Run @job, shared with idle channels when it is long enough. */
static int npu_xfer_shared(struct npu_dma_job *job)
{
	struct npu_dma_device *ndev = job->q->ctx->ndev;
	u32 chunks = npu_xfer_split_count(job);
	u32 i, n = min3(ndev->nr_channels, chunks, num_online_cpus());
	struct npu_xfer_split *sp = NULL;
	int ret;

	if (n >= 2)
		sp = kzalloc(struct_size(sp, helpers, n), GFP_KERNEL);
	if (!sp)
		return job->d.opcode == NPU_DMA_OP_COPY_2D ?
			npu_xfer_rows(job, 0, job->d.height) :
			npu_xfer_rows(job, 0, 1);
	sp->job = job;
	sp->chunks = chunks;
	atomic_set(&sp->next, 0);
	for (i = 1; i < n; i++) {
		sp->helpers[i].sp = sp;
		INIT_WORK(&sp->helpers[i].work, npu_xfer_split_work);
		npu_dma_work_elsewhere(&sp->helpers[i].work, i);
	}
	/* Its own channel may change: the timeline shows the last. */
	npu_xfer_split_chunks(sp, &job->chan);
	for (i = 1; i < n; i++)
		cancel_work_sync(&sp->helpers[i].work);
	ret = sp->status;
	kfree(sp);
	return ret;
}

/* The pattern repeated over @page; fill_size divides PAGE_SIZE. */
static void npu_xfer_fill_pattern(struct npu_dma_job *job, struct page *page)
{
	u32 i, value = job->d.value;
	u8 *p;

	p = kmap_local_page(page);
	for (i = 0; i < PAGE_SIZE; i++)
		p[i] = value >> (8 * (i % job->d.fill_size));
	kunmap_local(p);
}

/*
 * A page of the pattern for the job's engine. An engine that DMAs gets
 * one it can reach under its DMA mask (an edu card has 28 bits: a page
 * of plain alloc_page() above 256 MiB would need bouncing, which swiotlb
 * cannot do below that and the DMA API warns about), handed to the
 * device after the CPU wrote it.
 */
static int npu_xfer_fill_page(struct npu_dma_job *job)
{
	struct npu_dma_device *ndev = job->q->ctx->ndev;

	if (!ndev->ops->dma_mapped) {
		job->fill = alloc_page(GFP_KERNEL);
		if (!job->fill)
			return -ENOMEM;
		npu_xfer_fill_pattern(job, job->fill);
		return 0;
	}
	job->fill = dma_alloc_pages(ndev->parent, PAGE_SIZE, &job->fill_dma,
				    DMA_TO_DEVICE, GFP_KERNEL | __GFP_NOWARN);
	if (!job->fill)
		return -ENOMEM;
	/* Cannot fail; 6.1's DMA-API debugging wants it checked (see mem.c). */
	if (dma_mapping_error(ndev->parent, job->fill_dma)) {
		dma_free_pages(ndev->parent, PAGE_SIZE, job->fill, job->fill_dma,
			       DMA_TO_DEVICE);
		job->fill = NULL;
		return -ENOMEM;
	}
	npu_xfer_fill_pattern(job, job->fill);
	dma_sync_single_for_device(ndev->parent, job->fill_dma, PAGE_SIZE,
				   DMA_TO_DEVICE);
	return 0;
}

static void npu_xfer_fill_free(struct npu_dma_job *job)
{
	struct npu_dma_device *ndev = job->q->ctx->ndev;

	if (!job->fill)
		return;
	if (ndev->ops->dma_mapped)
		dma_free_pages(ndev->parent, PAGE_SIZE, job->fill, job->fill_dma,
			       DMA_TO_DEVICE);
	else
		__free_page(job->fill);
	job->fill = NULL;
}

static bool npu_xfer_moves(const struct npu_dma_job *job)
{
	return job->d.opcode == NPU_DMA_OP_COPY ||
	       job->d.opcode == NPU_DMA_OP_COPY_2D ||
	       job->d.opcode == NPU_DMA_OP_FILL ||
	       job->d.opcode == NPU_DMA_OP_COPY_INDIRECT ||
	       job->d.opcode == NPU_DMA_OP_REDUCE;
}

static void npu_xfer_start(struct npu_dma_job *job)
{
	trace_npu_dma_start(job);
	npu_dbg(job->q->ctx->ndev, "queue %u seq %llu: start on channel %d\n",
		job->q->id, job->seq, job->chan);
}

/**
 * npu_dma_job_run_on_chan() - execute one job on the channel it holds
 * @job: a validated job; job->chan is a channel its caller holds
 *
 * Sleeps while waiting for the engine.
 *
 * Return: 0 or a negative errno (-ECANCELED when its queue is aborted).
 */
int npu_dma_job_run_on_chan(struct npu_dma_job *job)
{
	int ret;

	if (!npu_xfer_moves(job))
		return 0;
	if (job->d.opcode == NPU_DMA_OP_COPY_INDIRECT)
		return npu_dma_indirect_run(job);
	ret = npu_dma_peer_hold(job);
	if (ret)
		return ret;
	if (job->d.opcode == NPU_DMA_OP_FILL) {
		ret = npu_xfer_fill_page(job);
		if (ret)
			goto out;
	}
	npu_xfer_start(job);
	ret = npu_xfer_shared(job);
	npu_xfer_fill_free(job);
out:
	npu_dma_peer_unhold(job);
	return ret;
}

/*
 * Jobs run in turn on one channel, sharing engine calls: a batch's
 * members (an array), or plain copies at the head of a queue, each a job
 * of its own (pointers).
 */
struct npu_xfer_set {
	struct npu_dma_job *array;
	struct npu_dma_job **ptrs;
};

static struct npu_dma_job *npu_xfer_at(const struct npu_xfer_set *s,
				       unsigned int i)
{
	return s->ptrs ? s->ptrs[i] : &s->array[i];
}

/* Jobs @from .. @to - 1 of @s failed with @ret, unless failed already. */
static void npu_xfer_members_fail(const struct npu_xfer_set *s,
				  unsigned int from, unsigned int to, int ret)
{
	struct npu_dma_job *job;

	for (; from < to; from++) {
		job = npu_xfer_at(s, from);
		if (!job->status)
			job->status = ret;
	}
}

/* Move what waits in @w->p: pieces of jobs @w->first .. @end - 1. */
static void npu_xfer_members_flush(struct npu_xfer_walk *w,
				   const struct npu_xfer_set *s, unsigned int end)
{
	unsigned int first = w->first;
	int ret = w->n ? npu_xfer_flush(w) : 0;

	if (ret)
		npu_xfer_members_fail(s, first, end, ret);
	w->first = end;
}

/* Job @i of @s, a 1-D copy, into the walk: false if it cannot share it. */
static bool npu_xfer_member_join(struct npu_xfer_walk *w,
				 const struct npu_xfer_set *s, unsigned int i)
{
	struct npu_dma_job *job = npu_xfer_at(s, i);
	int ret;

	/*
	 * A peer's reserved memory is held for a job alone, around its run
	 * (npu_dma_job_run_on_chan()): a removal frees it under that lock.
	 * Not only for engines that map peers (cursor's peer): a sim NPU
	 * reads an edu card's memory with the CPU.
	 */
	if (npu_dma_peer_mem_named(job))
		return false;
	npu_xfer_walk_job(w, job);
	if (!w->batch)
		return false;
	w->member = i;
	npu_xfer_start(job);
	ret = npu_xfer_bytes(w, job->d.src, job->d.dst, job->d.len);
	if (!ret) {
		if (!w->n)
			w->first = i + 1;
		return true;
	}
	/*
	 * A page lookup failed with the pieces still here (the earlier
	 * jobs' move them, the failed one's do no harm), or an engine
	 * call failed with those of jobs w->first .. @i in it.
	 */
	if (w->n)
		npu_xfer_members_flush(w, s, i);
	else
		npu_xfer_members_fail(s, w->first, i, ret);
	job->status = ret;
	w->first = i + 1;
	return true;
}

/* npu_dma_members_run() for the @n jobs of @s. */
static void npu_xfer_set_run(const struct npu_xfer_set *s, unsigned int n,
			     int *chan)
{
	struct npu_dma_job *job;
	struct npu_xfer_walk w;
	unsigned int i;

	w.n = 0;
	w.first = 0;
	for (i = 0; i < n; i++) {
		job = npu_xfer_at(s, i);
		if (job->status)
			continue;
		if (READ_ONCE(job->q->aborting)) {
			job->status = -ECANCELED;	/* as any job not started */
			continue;
		}
		if (!w.n)	/* nothing held back for the engine */
			*chan = npu_dma_chan_yield(job->q->ctx->ndev, *chan,
						   READ_ONCE(job->q->priority));
		if (job->d.opcode != NPU_DMA_OP_NOP)
			job->chan = *chan;	/* as traced */
		if (job->d.opcode == NPU_DMA_OP_COPY &&
		    npu_xfer_member_join(&w, s, i))
			continue;
		npu_xfer_members_flush(&w, s, i);
		job->status = npu_dma_job_run_on_chan(job);
		w.first = i + 1;
	}
	npu_xfer_members_flush(&w, s, n);
}

/**
 * npu_dma_members_run() - execute some members of a batch on one channel
 * @jobs: the members, validated; those that failed already are skipped
 * @n: how many
 * @chan: the channel they run on, which the caller holds; between two
 *	engine calls it gives way to a queue of higher priority waiting for
 *	a channel (npu_dma_chan_yield()), and *@chan is then another one
 *
 * Sets each member's status. Plain copies share engine calls when the
 * engine takes arrays of pieces: the call, the abort test and the
 * scheduling point are then paid per array rather than per member, which
 * is most of what a member of a few KiB costs the sim engine beyond its
 * bytes. A failed engine call fails every member with a piece in it.
 * Sleeps while waiting for the engine.
 */
void npu_dma_members_run(struct npu_dma_job *jobs, unsigned int n, int *chan)
{
	const struct npu_xfer_set s = { .array = jobs };

	npu_xfer_set_run(&s, n, chan);
}

/**
 * npu_dma_jobs_run() - execute a run of a queue's jobs on one channel
 * @jobs: consecutive validated jobs of one queue, in order; none a
 *	graph or a batch, none with a peer NPU's memory on either side
 * @n: how many
 *
 * As batch members run (npu_dma_members_run()): one channel for all of
 * them, plain copies sharing engine calls. Sets each job's status.
 * Sleeps while waiting for a channel and for the engine.
 */
void npu_dma_jobs_run(struct npu_dma_job **jobs, unsigned int n)
{
	const struct npu_xfer_set s = { .ptrs = jobs };
	struct npu_dma_queue *q = jobs[0]->q;
	int chan;

	chan = npu_dma_chan_get(q->ctx->ndev, READ_ONCE(q->priority));
	npu_xfer_set_run(&s, n, &chan);
	npu_dma_chan_put(q->ctx->ndev, chan);
}

/**
 * npu_dma_job_run() - execute one job on its NPU's engine
 * @job: a validated job
 *
 * Takes a DMA channel for the job's whole duration. Sleeps while waiting
 * for a channel and for the engine.
 *
 * Return: 0 or a negative errno (-ECANCELED when its queue is aborted).
 */
int npu_dma_job_run(struct npu_dma_job *job)
{
	struct npu_dma_device *ndev = job->q->ctx->ndev;
	int ret;

	if (!npu_xfer_moves(job))
		return 0;
	job->chan = npu_dma_chan_get(ndev, READ_ONCE(job->q->priority));
	ret = npu_dma_job_run_on_chan(job);
	npu_dma_chan_put(ndev, job->chan);
	return ret;
}
