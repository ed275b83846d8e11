// SPDX-License-Identifier: GPL-2.0-only
/*
 * npu_dma: graphs, descriptor lists validated once and replayed.
 *
 * GRAPH_CREATE copies a list of descriptors from user space and validates
 * each exactly as a doorbell would, resolving its addresses: the graph
 * keeps the resulting jobs as templates, holding a reference on every
 * allocation, registration and queue they name. A GRAPH descriptor on a
 * queue becomes one job that runs those templates in order on that queue,
 * with no copy, validation, lookup, reference or allocation per task.
 *
 * Re-checked on every replay, per task: that the ranges it names are
 * still in their context's trees (a buffer freed since fails its task
 * with -EFAULT and is never written; the graph's reference keeps its
 * memory from being handed out again meanwhile) and that the queue is
 * not being aborted. WAIT and HOST_BARRIER tasks park the replay exactly
 * as plain descriptors park a queue. Each task has its own sequence
 * number, error report and event slot update; completion is published
 * after each event record and barrier, when the replay parks, and at its
 * end.
 */

#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "npu_dma_queue.h"
#include "npu_dma_trace.h"

/**
 * struct npu_dma_graph - a validated descriptor list
 * @ref: the context's xarray holds one, each queued GRAPH job one
 * @count: tasks
 * @tasks: one prepared job per descriptor, holding its references
 */
struct npu_dma_graph {
	struct kref ref;
	u32 count;
	struct npu_dma_job *tasks;
};

static void npu_graph_release(struct kref *ref)
{
	struct npu_dma_graph *g = container_of(ref, struct npu_dma_graph, ref);
	u32 i;

	for (i = 0; i < g->count; i++)
		npu_dma_job_put_refs(&g->tasks[i]);
	kvfree(g->tasks);
	kfree(g);
}

void npu_dma_graph_put(struct npu_dma_graph *g)
{
	kref_put(&g->ref, npu_graph_release);
}

u32 npu_dma_graph_count(const struct npu_dma_graph *g)
{
	return g->count;
}

/**
 * npu_dma_graph_get() - look up a graph of a context
 * @ctx: the context
 * @id: its id
 *
 * Return: the graph with a reference held, or NULL.
 */
struct npu_dma_graph *npu_dma_graph_get(struct npu_dma_ctx *ctx, u32 id)
{
	struct npu_dma_graph *g;

	mutex_lock(&ctx->lock);
	g = xa_load(&ctx->graphs, id);
	if (g)
		kref_get(&g->ref);
	mutex_unlock(&ctx->lock);
	return g;
}

/*
 * What a graph may not hold: another graph (no nesting), and pageable
 * host memory, which would need pinning at every replay.
 */
static int npu_graph_task_allowed(const struct npu_dma_desc *d)
{
	if (d->opcode == NPU_DMA_OP_GRAPH)
		return -EINVAL;
	if (d->flags & (NPU_DMA_DESC_F_SRC_PAGEABLE | NPU_DMA_DESC_F_DST_PAGEABLE))
		return -EINVAL;
	return 0;
}

/* Copy in and validate every task; on failure *@bad is the culprit. */
static int npu_graph_prepare(struct npu_dma_ctx *ctx, struct npu_dma_graph *g,
			     const struct npu_dma_desc __user *descs, u32 *bad)
{
	struct npu_dma_job **jobs;
	int ret = 0;
	u32 i;

	jobs = kvmalloc_array(g->count, sizeof(*jobs), GFP_KERNEL);
	if (!jobs)
		return -ENOMEM;
	for (i = 0; i < g->count && !ret; i++) {
		struct npu_dma_job *t = &g->tasks[i];

		jobs[i] = t;
		t->chan = -1;
		if (copy_from_user(&t->d, &descs[i], sizeof(t->d)))
			ret = -EFAULT;
		else
			ret = npu_graph_task_allowed(&t->d) ?:
			      npu_dma_desc_prepare(ctx, t);
		t->status = ret;
		*bad = i;
	}
	if (!ret)
		npu_dma_queue_mark_batches(jobs, g->count);
	for (i = 0; i < g->count && !ret; i++) {
		ret = jobs[i]->status;
		*bad = i;
	}
	kvfree(jobs);
	return ret;
}

static int npu_graph_check_create(const struct npu_dma_graph_create *req)
{
	if (req->flags || req->graph_id || req->error_index ||
	    req->reserved[0] || req->reserved[1])
		return -EINVAL;
	if (!req->count || req->count > NPU_DMA_MAX_GRAPH_TASKS)
		return -EINVAL;
	return 0;
}

static struct npu_dma_graph *npu_graph_alloc(u32 count)
{
	struct npu_dma_graph *g = kzalloc(sizeof(*g), GFP_KERNEL_ACCOUNT);

	if (!g)
		return NULL;
	g->tasks = kvcalloc(count, sizeof(*g->tasks), GFP_KERNEL_ACCOUNT);
	if (!g->tasks) {
		kfree(g);
		return NULL;
	}
	kref_init(&g->ref);
	g->count = count;
	return g;
}

int npu_dma_graph_create_ioctl(struct npu_dma_ctx *ctx, void *data)
{
	struct npu_dma_graph_create *req = data;
	struct npu_dma_graph *g;
	u32 bad = 0, id;
	int ret;

	ret = npu_graph_check_create(req);
	if (ret)
		return ret;
	g = npu_graph_alloc(req->count);
	if (!g)
		return -ENOMEM;

	ret = npu_graph_prepare(ctx, g, u64_to_user_ptr(req->descs), &bad);
	if (ret) {
		npu_dbg(ctx->ndev, "graph task %u of %u rejected: %d\n", bad,
			req->count, ret);
		/* The DRM core copies the argument out on failure too. */
		req->error_index = bad;
		goto err_put;
	}

	/*
	 * Nothing touches the graph once it is in the table: another thread
	 * may destroy the (predictable) id at once. If the DRM core then
	 * fails to copy the id out, the graph stays the file's until close.
	 */
	mutex_lock(&ctx->lock);
	ret = xa_alloc(&ctx->graphs, &id, g, XA_LIMIT(1, NPU_DMA_MAX_GRAPHS),
		       GFP_KERNEL);
	mutex_unlock(&ctx->lock);
	if (ret)
		goto err_put;	/* -EBUSY: too many graphs */
	req->graph_id = id;
	return 0;

err_put:
	npu_dma_graph_put(g);
	return ret;
}

int npu_dma_graph_destroy_ioctl(struct npu_dma_ctx *ctx, void *data)
{
	struct npu_dma_graph_destroy *req = data;
	struct npu_dma_graph *g;

	if (req->flags || req->reserved[0] || req->reserved[1])
		return -EINVAL;
	mutex_lock(&ctx->lock);
	g = xa_erase(&ctx->graphs, req->graph_id);
	mutex_unlock(&ctx->lock);
	if (!g)
		return -ENOENT;
	/* Not under ctx->lock: a last unpin takes mmap_lock. */
	npu_dma_graph_put(g);
	return 0;
}

/**
 * npu_dma_graph_release_all() - drop every graph of a closing context
 * @ctx: the context, whose queues are gone already
 */
void npu_dma_graph_release_all(struct npu_dma_ctx *ctx)
{
	struct npu_dma_graph *g;
	unsigned long id;

	for (;;) {
		id = 0;
		mutex_lock(&ctx->lock);
		g = xa_find(&ctx->graphs, &id, ULONG_MAX, XA_PRESENT);
		if (g)
			xa_erase(&ctx->graphs, id);
		mutex_unlock(&ctx->lock);
		if (!g)
			break;
		npu_dma_graph_put(g);
	}
}

/* Task @tmpl as a job of @q with sequence number @seq, on the stack. */
static void npu_graph_task(struct npu_dma_job *t, const struct npu_dma_job *tmpl,
			   struct npu_dma_queue *q, u64 seq)
{
	*t = *tmpl;
	INIT_LIST_HEAD(&t->node);
	t->q = q;
	t->seq = seq;
	t->last_seq = seq;
	t->chan = -1;
	t->status = 0;
}

static bool npu_graph_side_gone(const struct npu_dma_side *side)
{
	return (side->kind == NPU_DMA_SIDE_DEV || side->kind == NPU_DMA_SIDE_HOST) &&
	       READ_ONCE(side->obj->gone);
}

static int npu_graph_task_run(struct npu_dma_queue *q, struct npu_dma_job *t)
{
	if (READ_ONCE(q->aborting))
		return -ECANCELED;
	if (npu_graph_side_gone(&t->src) || npu_graph_side_gone(&t->dst))
		return -EFAULT;
	return npu_dma_job_run(t);
}

/**
 * npu_dma_graph_run() - run a GRAPH job's tasks from where it stopped
 * @q: its queue (the job is at its head)
 * @job: the job
 *
 * Return: true once every task ran, false when parked at a WAIT or a
 * HOST_BARRIER (the queue is kicked again as for a plain one).
 */
bool npu_dma_graph_run(struct npu_dma_queue *q, struct npu_dma_job *job)
{
	struct npu_dma_graph *g = job->graph;
	struct npu_dma_job t;

	for (; job->pos < g->count; job->pos++) {
		u64 seq = job->seq + job->pos;

		npu_graph_task(&t, &g->tasks[job->pos], q, seq);
		if (!npu_dma_queue_job_ready(q, &t)) {
			if (job->pos)
				npu_dma_queue_publish(q, seq - 1);
			return false;
		}
		/*
		 * For npu-trace and dynamic debug, a task is submitted when the
		 * replay gets to it, with the line an ordinary descriptor gets.
		 */
		trace_npu_dma_submit(&t);
		npu_dbg(q->ctx->ndev,
			"queue %u seq %llu: op %u flags 0x%x src 0x%llx dst 0x%llx len %llu height %u: %d (graph %llu task %u)\n",
			q->id, seq, t.d.opcode, t.d.flags, t.d.src, t.d.dst, t.d.len,
			t.d.height, t.status, job->d.value, job->pos);
		t.status = npu_graph_task_run(q, &t);
		npu_dma_queue_note_result(q, &t);
		/* Whoever waits for an event or a barrier sees it at once. */
		if (t.d.opcode == NPU_DMA_OP_EVENT_RECORD ||
		    t.d.opcode == NPU_DMA_OP_HOST_BARRIER)
			npu_dma_queue_publish(q, seq);
		cond_resched();
	}
	return true;
}
