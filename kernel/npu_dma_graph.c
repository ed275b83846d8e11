// SPDX-License-Identifier: GPL-2.0-only
/*
 * npu_dma: graphs, descriptor lists validated once and replayed.
 *
 * GRAPH_CREATE copies a list of descriptors from user space and validates
 * each exactly as a doorbell would, resolving its addresses: the graph
 * keeps the resulting jobs as templates, holding a reference on every
 * allocation, registration and queue they name. A GRAPH descriptor on a
 * queue becomes one job whose tasks, made from those templates, go one
 * by one through the scheduler's loop (npu_dma_sched.c) on that queue,
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
 *
 * A graph's tasks are kernel memory of the size user space chooses (about
 * 16 MiB for the largest): they are charged to the creator's memory
 * cgroup, and a file holds at most graphs_per_file graphs of together at
 * most graph_tasks_per_file tasks, counted until the last replay that
 * uses a destroyed graph has finished.
 */

#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "npu_dma_graph.h"
#include "npu_dma_job.h"
#include "npu_dma_queue.h"
#include "npu_dma_retire.h"
#include "npu_dma_trace.h"
#include "npu_dma_validate.h"
#include "npu_dma_vmm.h"
#include "npu_dma_xfer.h"

#define NPU_GRAPH_MAX_GRAPHS	NPU_DMA_MAX_GRAPHS
#define NPU_GRAPH_MAX_TASKS	(1U << 28)

static unsigned int graphs_per_file = NPU_DMA_MAX_GRAPHS;
static unsigned int graph_tasks_per_file = 1U << 20;

/* An out-of-range value fails insmod, with the line every parameter gives. */
static int npu_graph_param_set(const char *val, const struct kernel_param *kp)
{
	unsigned int max = kp->arg == &graphs_per_file ? NPU_GRAPH_MAX_GRAPHS :
			   NPU_GRAPH_MAX_TASKS;
	int ret = param_set_uint_minmax(val, kp, 1, max);

	if (ret)
		pr_err(NPU_DMA_NAME ": %s=%s out of range (1..%u)\n", kp->name,
		       val, max);
	return ret;
}

static const struct kernel_param_ops npu_graph_param_ops = {
	.set = npu_graph_param_set,
	.get = param_get_uint,
};

module_param_cb(graphs_per_file, &npu_graph_param_ops, &graphs_per_file, 0444);
MODULE_PARM_DESC(graphs_per_file,
		 "Graphs one file may hold (1..4096, default 4096); GRAPH_CREATE beyond: -EBUSY");
module_param_cb(graph_tasks_per_file, &npu_graph_param_ops,
		&graph_tasks_per_file, 0444);
MODULE_PARM_DESC(graph_tasks_per_file,
		 "Tasks of all graphs of one file (1..268435456, default 1048576); GRAPH_CREATE beyond: -ENOSPC");

/**
 * struct npu_dma_graph - a validated descriptor list
 * @ref: the context's xarray holds one, each queued GRAPH job one
 * @ctx: the file it counts against (its queues, which hold the GRAPH
 *	jobs, are gone before the context is freed)
 * @count: tasks
 * @tasks: one prepared job per descriptor, holding its references
 */
struct npu_dma_graph {
	struct kref ref;
	struct npu_dma_ctx *ctx;
	u32 count;
	struct npu_dma_job *tasks;
};

/* Take @count tasks of @ctx's budget: 0 or -ENOSPC. */
static int npu_graph_tasks_charge(struct npu_dma_ctx *ctx, u32 count)
{
	int old = atomic_read(&ctx->graph_tasks);

	do {
		if (count > READ_ONCE(graph_tasks_per_file) - old)
			return -ENOSPC;
	} while (!atomic_try_cmpxchg(&ctx->graph_tasks, &old, old + count));
	return 0;
}

static void npu_graph_tasks_uncharge(struct npu_dma_ctx *ctx, u32 count)
{
	atomic_sub(count, &ctx->graph_tasks);
}

static void npu_graph_release(struct kref *ref)
{
	struct npu_dma_graph *g = container_of(ref, struct npu_dma_graph, ref);
	u32 i;

	for (i = 0; i < g->count; i++)
		npu_dma_job_put_refs(&g->tasks[i]);
	kvfree(g->tasks);
	npu_graph_tasks_uncharge(g->ctx, g->count);
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
 * What a graph may not hold: another graph (no nesting), signals, and
 * pageable host memory, which would need pinning at every replay.
 */
static int npu_graph_task_allowed(const struct npu_dma_desc *d)
{
	/* A replay would reuse the record numbers validation took. */
	if (d->opcode == NPU_DMA_OP_GRAPH || d->opcode == NPU_DMA_OP_SIGNAL ||
	    d->opcode == NPU_DMA_OP_WAIT_SIGNAL)
		return -EINVAL;
	if (d->flags & (NPU_DMA_DESC_F_SRC_PAGEABLE | NPU_DMA_DESC_F_DST_PAGEABLE))
		return -EINVAL;
	return 0;
}

/*
 * Mark the members of complete batches. A BATCH_BEGIN without its
 * BATCH_END in the same doorbell, a nested BEGIN, or an END without a
 * BEGIN fail with -EINVAL; their descriptors then run as ordinary ones.
 * A member that is not a copy, fill or nop fails with -EINVAL.
 */
static void npu_graph_mark_batches(struct npu_dma_job **jobs, u32 n)
{
	u32 i, j;

	for (i = 0; i < n; i++) {
		if (jobs[i]->d.opcode != NPU_DMA_OP_BATCH_BEGIN || jobs[i]->status)
			continue;
		for (j = i + 1; j < n; j++)
			if (jobs[j]->d.opcode == NPU_DMA_OP_BATCH_BEGIN ||
			    jobs[j]->d.opcode == NPU_DMA_OP_BATCH_END)
				break;
		if (j == n || jobs[j]->d.opcode != NPU_DMA_OP_BATCH_END ||
		    jobs[j]->status) {
			jobs[i]->status = -EINVAL;
			continue;
		}
		for (i++; i <= j; i++) {
			jobs[i]->batch_member = true;
			if (i < j && !jobs[i]->status &&
			    !npu_dma_batch_op_ok(jobs[i]->d.opcode))
				jobs[i]->status = -EINVAL;
		}
		i = j;
	}
	for (i = 0; i < n; i++)
		if (jobs[i]->d.opcode == NPU_DMA_OP_BATCH_END &&
		    !jobs[i]->batch_member && !jobs[i]->status)
			jobs[i]->status = -EINVAL;
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
			      npu_dma_validate_task(ctx, t);
		t->status = ret;
		*bad = i;
	}
	if (!ret)
		npu_graph_mark_batches(jobs, g->count);
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

/*
 * A graph of @count tasks charged to @ctx. The tasks are charged to the
 * caller's memory cgroup; over its limit the answer is -ENOMEM, not the
 * cgroup's OOM killer (__GFP_RETRY_MAYFAIL), and no kernel warning.
 */
static struct npu_dma_graph *npu_graph_alloc(struct npu_dma_ctx *ctx, u32 count)
{
	struct npu_dma_graph *g;
	int ret;

	ret = npu_graph_tasks_charge(ctx, count);
	if (ret)
		return ERR_PTR(ret);
	g = kzalloc(sizeof(*g), GFP_KERNEL_ACCOUNT);
	if (!g)
		goto err_uncharge;
	g->tasks = kvcalloc(count, sizeof(*g->tasks), GFP_KERNEL_ACCOUNT |
			    __GFP_RETRY_MAYFAIL | __GFP_NOWARN);
	if (!g->tasks)
		goto err_free;
	kref_init(&g->ref);
	g->ctx = ctx;
	g->count = count;
	return g;

err_free:
	kfree(g);
err_uncharge:
	npu_graph_tasks_uncharge(ctx, count);
	return ERR_PTR(-ENOMEM);
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
	g = npu_graph_alloc(ctx, req->count);
	if (IS_ERR(g)) {
		npu_dbg(ctx->ndev, "no room for a graph of %u tasks: %ld\n",
			req->count, PTR_ERR(g));
		return PTR_ERR(g);
	}

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
	ret = xa_alloc(&ctx->graphs, &id, g, XA_LIMIT(1, graphs_per_file),
		       GFP_KERNEL_ACCOUNT);
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
	return (side->kind == NPU_DMA_SIDE_DEV || side->kind == NPU_DMA_SIDE_HOST ||
		side->kind == NPU_DMA_SIDE_IMPORT) &&
	       npu_dma_range_gone(side->obj);
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
 * npu_dma_graph_next_task() - the next task of a GRAPH job being replayed
 * @job: the GRAPH job, at the head of its queue
 * @t: set to the task, as a job of @job's queue with its own sequence
 *	number (on the caller's stack: nothing is allocated per task)
 *
 * Return: false once every task ran (the GRAPH job may retire).
 */
bool npu_dma_graph_next_task(struct npu_dma_job *job, struct npu_dma_job *t)
{
	struct npu_dma_graph *g = job->graph;

	if (job->pos >= g->count)
		return false;
	npu_graph_task(t, &g->tasks[job->pos], job->q, job->seq + job->pos);
	return true;
}

/**
 * npu_dma_graph_run_task() - run the task npu_dma_graph_next_task() made
 * @job: the GRAPH job
 * @t: its task, which may start (the scheduler tested it)
 *
 * Traced, run and accounted for as a plain job is; whoever waits for an
 * event or a barrier among the tasks sees it at once.
 */
void npu_dma_graph_run_task(struct npu_dma_job *job, struct npu_dma_job *t)
{
	struct npu_dma_queue *q = job->q;

	/*
	 * For npu-trace and dynamic debug, a task is submitted when the
	 * replay gets to it, with the line an ordinary descriptor gets.
	 */
	trace_npu_dma_submit(t);
	npu_dbg(q->ctx->ndev,
		"queue %u seq %llu: op %u flags 0x%x src 0x%llx dst 0x%llx len %llu height %u: %d (graph %llu task %u)\n",
		q->id, t->seq, t->d.opcode, t->d.flags, t->d.src, t->d.dst,
		t->d.len, t->d.height, t->status, job->d.value, job->pos);
	t->status = npu_graph_task_run(q, t);
	npu_dma_retire_note(q, t);
	if (t->d.opcode == NPU_DMA_OP_EVENT_RECORD ||
	    t->d.opcode == NPU_DMA_OP_HOST_BARRIER)
		npu_dma_retire_publish(q, t->seq);
	job->pos++;
	cond_resched();
}
