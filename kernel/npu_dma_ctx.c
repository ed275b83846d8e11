// SPDX-License-Identifier: GPL-2.0-only
/*
 * npu_dma: contexts. An open DRM file of an NPU is a context.
 *
 * A context is bound to the process that opened it: only that address
 * space may allocate, pin, submit or map through it (-EPERM otherwise),
 * so an fd inherited over fork() or passed over a socket cannot be used
 * to reach the opener's memory. Closing (the last fput, possibly after
 * the opener died) drains the queues first, from the file's release,
 * before the DRM core closes the GEM handles; postclose then unpins and
 * frees, using the mm recorded at open, never current->mm.
 */

#include <linux/memcontrol.h>
#include <linux/mm.h>
#include <linux/pci.h>
#include <linux/pid.h>
#include <linux/sched/mm.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

#include <drm/drm_file.h>

#include "npu_dma_area.h"
#include "npu_dma_graph.h"
#include "npu_dma_ipc.h"
#include "npu_dma_mem.h"
#include "npu_dma_pin.h"
#include "npu_dma_queue.h"
#include "npu_dma_signal.h"

#define NPU_DMA_EVENTS_SIZE \
	PAGE_ALIGN(NPU_DMA_MAX_EVENT_SLOTS * sizeof(struct npu_dma_event_slot))

static atomic64_t npu_dma_client_ids = ATOMIC64_INIT(0);

static void npu_ctx_free(struct npu_dma_ctx *ctx)
{
	xa_destroy(&ctx->queues);
	xa_destroy(&ctx->graphs);
	xa_destroy(&ctx->signals);
	if (ctx->events_area)
		npu_dma_area_put(ctx->events_area);
	put_pid(ctx->pid);
	mem_cgroup_put(ctx->memcg);
	mmdrop(ctx->mm);
	kfree(ctx);
}

/* drm_driver.open: a new file of @drm. */
int npu_dma_ctx_open(struct drm_device *drm, struct drm_file *file)
{
	struct npu_dma_device *ndev = to_npu_dma_device(drm);
	struct npu_dma_ctx *ctx;
	int ret = 0;

	if (!current->mm)
		return -EINVAL;
	ctx = kzalloc(sizeof(*ctx), GFP_KERNEL_ACCOUNT);
	if (!ctx)
		return -ENOMEM;
	ctx->ndev = ndev;
	ctx->file = file;
	mutex_init(&ctx->lock);
	ctx->mem_tree = RB_ROOT;
	ctx->host_tree = RB_ROOT;
	INIT_LIST_HEAD(&ctx->ipc_shares);
	npu_dma_pin_cache_init(ctx);
	xa_init_flags(&ctx->queues, XA_FLAGS_ALLOC);
	xa_init_flags(&ctx->graphs, XA_FLAGS_ALLOC1);
	xa_init_flags(&ctx->signals, XA_FLAGS_ALLOC1);
	ctx->mm = current->mm;
	mmgrab(ctx->mm);
	ctx->memcg = get_mem_cgroup_from_mm(ctx->mm);
	ctx->pid = get_task_pid(current, PIDTYPE_TGID);
	ctx->client_id = atomic64_inc_return(&npu_dma_client_ids);

	ctx->events_area = npu_dma_area_create(ctx, NPU_DMA_EVENTS_SIZE, true);
	if (IS_ERR(ctx->events_area)) {
		ret = PTR_ERR(ctx->events_area);
		ctx->events_area = NULL;
		goto err_free;
	}
	ctx->events = ctx->events_area->mem;

	down_read(&ndev->gone_lock);
	if (ndev->gone) {
		ret = -ENODEV;
	} else {
		mutex_lock(&ndev->ctx_lock);
		list_add_tail(&ctx->node, &ndev->contexts);
		mutex_unlock(&ndev->ctx_lock);
	}
	up_read(&ndev->gone_lock);
	if (ret)
		goto err_free;
	file->driver_priv = ctx;
	return 0;

err_free:
	npu_ctx_free(ctx);
	return ret;
}

/**
 * npu_dma_ctx_teardown() - stop a context's work and free its resources
 * @ctx: the context
 *
 * Order matters: no queue may run a job once its pages are unpinned.
 * Safe to call twice (device removal, then close).
 */
void npu_dma_ctx_teardown(struct npu_dma_ctx *ctx)
{
	npu_dma_queue_destroy_all(ctx);
	npu_dma_graph_release_all(ctx);
	npu_dma_pin_cache_drain(ctx);
	npu_dma_host_release_all(ctx);
	npu_dma_mem_release_all(ctx);
}

/**
 * npu_dma_ctx_drain() - stop a closing context's queues
 * @ctx: the context
 *
 * From the file's release, before drm_release(): the DRM core closes the
 * file's GEM handles before postclose, and no queue may still be copying
 * then. (Closing a handle while copies run is safe by itself: they hold
 * the memory; but a dying process's queued work must not outlive it.)
 */
void npu_dma_ctx_drain(struct npu_dma_ctx *ctx)
{
	struct npu_dma_device *ndev = ctx->ndev;

	/* gone_lock: device removal tears contexts down without ctx_lock. */
	down_read(&ndev->gone_lock);
	npu_dma_queue_destroy_all(ctx);
	npu_dma_graph_release_all(ctx);
	up_read(&ndev->gone_lock);
}

/* drm_driver.postclose: the GEM handles are closed, the queues drained. */
void npu_dma_ctx_close(struct drm_device *drm, struct drm_file *file)
{
	struct npu_dma_ctx *ctx = file->driver_priv;
	struct npu_dma_device *ndev = ctx->ndev;

	/* Normally gone with the allocations' handles: not after removal. */
	npu_dma_ipc_revoke_all(ctx);
	npu_dma_signal_release_all(ctx);
	down_read(&ndev->gone_lock);
	npu_dma_ctx_teardown(ctx);
	mutex_lock(&ndev->ctx_lock);
	list_del(&ctx->node);
	mutex_unlock(&ndev->ctx_lock);
	up_read(&ndev->gone_lock);
	npu_ctx_free(ctx);
}

int npu_dma_get_info_ioctl(struct npu_dma_ctx *ctx, void *data)
{
	struct npu_dma_device *ndev = ctx->ndev;
	struct npu_dma_info *info = data;

	if (info->size || info->flags)
		return -EINVAL;
	memset(info, 0, sizeof(*info));
	info->size = sizeof(*info);
	info->abi_version = NPU_DMA_ABI_VERSION;
	info->backend = ndev->backend;
	info->index = ndev->index;
	info->nr_channels = ndev->nr_channels;
	info->mem_size = ndev->mem_size;
	info->mem_free = npu_dma_devmem_free_bytes(ndev);
	info->mem_free_huge = npu_dma_devmem_free_blocks(ndev, SZ_2M);
	info->mem_free_1g = npu_dma_devmem_free_blocks(ndev, SZ_1G);
	info->max_copy_len = NPU_DMA_MAX_COPY_LEN;
	info->max_2d_pitch = NPU_DMA_MAX_2D_PITCH;
	info->max_2d_height = NPU_DMA_MAX_2D_HEIGHT;
	info->max_queue_entries = NPU_DMA_MAX_QUEUE_ENTRIES;
	info->max_event_slots = NPU_DMA_MAX_EVENT_SLOTS;
	info->mem_base = ndev->mem_base;
	info->vmm_size = ndev->vmm_size;
	info->peers = npu_dma_device_peers(ndev);
	info->caps = NPU_DMA_CAP_COPY_2D | NPU_DMA_CAP_FILL | NPU_DMA_CAP_EVENTS |
		     NPU_DMA_CAP_WAIT | NPU_DMA_CAP_HOST_BARRIER |
		     NPU_DMA_CAP_BATCH | NPU_DMA_CAP_PAGEABLE |
		     NPU_DMA_CAP_NEED_WAKEUP | NPU_DMA_CAP_GRAPH |
		     NPU_DMA_CAP_COPY_INDIRECT | NPU_DMA_CAP_SUBMIT_INLINE |
		     NPU_DMA_CAP_SUBMIT_HELP |
		     NPU_DMA_CAP_PRIME | NPU_DMA_CAP_IPC | NPU_DMA_CAP_VMM |
		     NPU_DMA_CAP_SIGNAL | NPU_DMA_CAP_SIGNAL_WAIT |
		     NPU_DMA_CAP_QUEUE_CTL;
	if (ndev->ops->reduce)
		info->caps |= NPU_DMA_CAP_REDUCE;
	info->max_graph_tasks = NPU_DMA_MAX_GRAPH_TASKS;
	info->events_offset = npu_dma_area_offset(ctx->events_area);
	info->events_size = ctx->events_area->size;
	info->max_pin_len = npu_dma_budget_max_pin_len();
	return 0;
}

static u64 npu_ctx_tree_bytes(struct npu_dma_ctx *ctx, struct rb_root *root)
{
	struct rb_node *n;
	u64 bytes = 0;

	mutex_lock(&ctx->lock);
	for (n = rb_first(root); n; n = rb_next(n))
		bytes += rb_entry(n, struct npu_dma_range, node)->size;
	mutex_unlock(&ctx->lock);
	return bytes;
}

/**
 * npu_dma_ctx_show_fdinfo() - per-client usage, in DRM's fdinfo format
 * @ctx: the file's context
 * @m: /proc/PID/fdinfo/FD
 *
 * Documentation/gpu/drm-usage-stats.rst: one engine class, "dma", with a
 * capacity of the NPU's channels; device memory this file allocated and
 * host memory it registered (pinned), in KiB.
 */
void npu_dma_ctx_show_fdinfo(struct npu_dma_ctx *ctx, struct seq_file *m)
{
	struct npu_dma_device *ndev = ctx->ndev;

	seq_printf(m, "drm-driver:\t%s\n", NPU_DMA_DRIVER_NAME);
	if (dev_is_pci(ndev->parent))
		seq_printf(m, "drm-pdev:\t%s\n", pci_name(to_pci_dev(ndev->parent)));
	seq_printf(m, "drm-client-id:\t%llu\n", ctx->client_id);
	seq_printf(m, "drm-engine-dma:\t%llu ns\n",
		   (u64)atomic64_read(&ctx->engine_ns));
	seq_printf(m, "drm-engine-capacity-dma:\t%u\n", ndev->nr_channels);
	seq_printf(m, "drm-memory-device:\t%llu KiB\n",
		   npu_ctx_tree_bytes(ctx, &ctx->mem_tree) >> 10);
	seq_printf(m, "drm-memory-host:\t%llu KiB\n",
		   npu_ctx_tree_bytes(ctx, &ctx->host_tree) >> 10);
}
