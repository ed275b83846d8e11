// SPDX-License-Identifier: GPL-2.0-only
/*
 * npu_dma: file operations. An open file is a context.
 *
 * A context is bound to the process that opened it: only that address
 * space may allocate, pin, submit or map through it (-EPERM otherwise),
 * so an fd inherited over fork() or passed over a socket cannot be used
 * to reach the opener's memory. Release (last fput, possibly after the
 * opener died) aborts and drains the queues first, then unpins and frees,
 * using the mm recorded at open, never current->mm.
 */

#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/pid.h>
#include <linux/sched/mm.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#include "npu_dma_compat.h"
#include "npu_dma_queue.h"

#define NPU_DMA_EVENTS_SIZE \
	PAGE_ALIGN(NPU_DMA_MAX_EVENT_SLOTS * sizeof(struct npu_dma_event_slot))

static int npu_dma_open(struct inode *inode, struct file *file)
{
	struct npu_dma_device *ndev =
		container_of(inode->i_cdev, struct npu_dma_device, cdev);
	struct npu_dma_ctx *ctx;
	int ret = 0;

	if (!current->mm)
		return -EINVAL;
	ctx = kzalloc(sizeof(*ctx), GFP_KERNEL);
	if (!ctx)
		return -ENOMEM;
	ctx->events = vmalloc_user(NPU_DMA_EVENTS_SIZE);
	if (!ctx->events) {
		kfree(ctx);
		return -ENOMEM;
	}
	mutex_init(&ctx->lock);
	ctx->mem_tree = RB_ROOT;
	ctx->host_tree = RB_ROOT;
	xa_init_flags(&ctx->queues, XA_FLAGS_ALLOC);
	xa_init_flags(&ctx->graphs, XA_FLAGS_ALLOC1);
	ctx->mm = current->mm;
	mmgrab(ctx->mm);
	ctx->pid = get_task_pid(current, PIDTYPE_TGID);
	ctx->ndev = ndev;

	down_read(&ndev->gone_lock);
	if (ndev->gone) {
		ret = -ENODEV;
	} else {
		get_device(&ndev->dev);
		mutex_lock(&ndev->ctx_lock);
		list_add_tail(&ctx->node, &ndev->contexts);
		mutex_unlock(&ndev->ctx_lock);
	}
	up_read(&ndev->gone_lock);
	if (ret) {
		put_pid(ctx->pid);
		mmdrop(ctx->mm);
		vfree(ctx->events);
		kfree(ctx);
		return ret;
	}

	file->private_data = ctx;
	return nonseekable_open(inode, file);
}

/**
 * npu_dma_ctx_teardown() - stop a context's work and free its resources
 * @ctx: the context
 *
 * Order matters: no queue may run a job once its pages are unpinned.
 * Safe to call twice (device removal, then release).
 */
void npu_dma_ctx_teardown(struct npu_dma_ctx *ctx)
{
	npu_dma_queue_destroy_all(ctx);
	npu_dma_graph_release_all(ctx);
	npu_dma_host_release_all(ctx);
	npu_dma_mem_release_all(ctx);
}

static int npu_dma_release(struct inode *inode, struct file *file)
{
	struct npu_dma_ctx *ctx = file->private_data;
	struct npu_dma_device *ndev = ctx->ndev;

	/*
	 * gone_lock keeps device removal (which tears contexts down without
	 * ctx_lock) from seeing this context half torn down or unlinked.
	 */
	down_read(&ndev->gone_lock);
	npu_dma_ctx_teardown(ctx);
	mutex_lock(&ndev->ctx_lock);
	list_del(&ctx->node);
	mutex_unlock(&ndev->ctx_lock);
	up_read(&ndev->gone_lock);

	xa_destroy(&ctx->queues);
	xa_destroy(&ctx->graphs);
	vfree(ctx->events);
	put_pid(ctx->pid);
	mmdrop(ctx->mm);
	kfree(ctx);
	put_device(&ndev->dev);
	return 0;
}

static int npu_dma_get_info_ioctl(struct npu_dma_ctx *ctx, void __user *arg)
{
	struct npu_dma_device *ndev = ctx->ndev;
	struct npu_dma_info info;
	u32 usize;

	if (get_user(usize, (u32 __user *)arg))
		return -EFAULT;
	if (usize < offsetofend(struct npu_dma_info, flags))
		return -EINVAL;
	memset(&info, 0, sizeof(info));
	if (copy_from_user(&info, arg, min_t(u32, usize, sizeof(info))))
		return -EFAULT;
	if (info.flags)
		return -EINVAL;

	memset(&info, 0, sizeof(info));
	info.size = sizeof(info);
	info.abi_version = NPU_DMA_ABI_VERSION;
	info.backend = ndev->backend;
	info.index = ndev->index;
	info.nr_channels = ndev->nr_channels;
	info.mem_size = ndev->mem_size;
	info.mem_free = npu_dma_devmem_free_bytes(ndev);
	info.max_copy_len = NPU_DMA_MAX_COPY_LEN;
	info.max_2d_pitch = NPU_DMA_MAX_2D_PITCH;
	info.max_2d_height = NPU_DMA_MAX_2D_HEIGHT;
	info.max_queue_entries = NPU_DMA_MAX_QUEUE_ENTRIES;
	info.max_event_slots = NPU_DMA_MAX_EVENT_SLOTS;
	info.mem_base = ndev->mem_base;
	info.peers = npu_dma_device_peers(ndev);
	info.caps = NPU_DMA_CAP_COPY_2D | NPU_DMA_CAP_FILL | NPU_DMA_CAP_EVENTS |
		    NPU_DMA_CAP_WAIT | NPU_DMA_CAP_HOST_BARRIER |
		    NPU_DMA_CAP_BATCH | NPU_DMA_CAP_PAGEABLE |
		    NPU_DMA_CAP_NEED_WAKEUP | NPU_DMA_CAP_GRAPH |
		    NPU_DMA_CAP_COPY_INDIRECT;
	info.max_graph_tasks = NPU_DMA_MAX_GRAPH_TASKS;
	if (copy_to_user(arg, &info, min_t(u32, usize, sizeof(info))))
		return -EFAULT;
	return 0;
}

static long npu_dma_dispatch(struct npu_dma_ctx *ctx, unsigned int cmd,
			     void __user *arg)
{
	if (cmd == NPU_DMA_IOCTL_GET_INFO)
		return npu_dma_get_info_ioctl(ctx, arg);

	if (current->mm != ctx->mm) {
		npu_dbg(ctx->ndev, "ioctl from a process that did not open the device\n");
		return -EPERM;
	}
	switch (cmd) {
	case NPU_DMA_IOCTL_MEM_ALLOC:
		return npu_dma_mem_alloc_ioctl(ctx, arg);
	case NPU_DMA_IOCTL_MEM_FREE:
		return npu_dma_mem_free_ioctl(ctx, arg);
	case NPU_DMA_IOCTL_HOST_REGISTER:
		return npu_dma_host_register_ioctl(ctx, arg);
	case NPU_DMA_IOCTL_HOST_UNREGISTER:
		return npu_dma_host_unregister_ioctl(ctx, arg);
	case NPU_DMA_IOCTL_QUEUE_CREATE:
		return npu_dma_queue_create_ioctl(ctx, arg);
	case NPU_DMA_IOCTL_QUEUE_DESTROY:
		return npu_dma_queue_destroy_ioctl(ctx, arg);
	case NPU_DMA_IOCTL_QUEUE_SUBMIT:
		return npu_dma_queue_submit_ioctl(ctx, arg);
	case NPU_DMA_IOCTL_BARRIER_RELEASE:
		return npu_dma_barrier_release_ioctl(ctx, arg);
	case NPU_DMA_IOCTL_GRAPH_CREATE:
		return npu_dma_graph_create_ioctl(ctx, arg);
	case NPU_DMA_IOCTL_GRAPH_DESTROY:
		return npu_dma_graph_destroy_ioctl(ctx, arg);
	default:
		return -ENOTTY;
	}
}

static long npu_dma_ioctl(struct file *file, unsigned int cmd,
			  unsigned long arg)
{
	struct npu_dma_ctx *ctx = file->private_data;
	struct npu_dma_device *ndev = ctx->ndev;
	long ret;

	down_read(&ndev->gone_lock);
	if (ndev->gone)
		ret = -ENODEV;
	else
		ret = npu_dma_dispatch(ctx, cmd, (void __user *)arg);
	up_read(&ndev->gone_lock);
	return ret;
}

/* The mapping holds the file, so the context outlives it. */
static vm_fault_t npu_dma_events_fault(struct vm_fault *vmf)
{
	struct npu_dma_ctx *ctx = vmf->vma->vm_file->private_data;

	return npu_dma_vmalloc_fault(vmf, ctx->events, NPU_DMA_EVENTS_SIZE,
				     NPU_DMA_MMAP_EVENTS >> PAGE_SHIFT);
}

static const struct vm_operations_struct npu_dma_events_vm_ops = {
	.fault = npu_dma_events_fault,
};

static int npu_dma_mmap_events(struct npu_dma_ctx *ctx,
			       struct vm_area_struct *vma)
{
	int ret;

	if (vma->vm_flags & VM_WRITE)
		return -EPERM;
	npu_dma_vm_flags_set(vma, VM_IO | VM_DONTCOPY | VM_DONTEXPAND | VM_DONTDUMP,
			     VM_MAYWRITE);
	if (vma->vm_end - vma->vm_start != NPU_DMA_EVENTS_SIZE)
		return -EINVAL;
	ret = remap_vmalloc_range(vma, ctx->events, 0);
	if (ret)
		return ret;
	vma->vm_ops = &npu_dma_events_vm_ops;
	return 0;
}

static int npu_dma_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct npu_dma_ctx *ctx = file->private_data;

	if (current->mm != ctx->mm)
		return -EPERM;
	if (vma->vm_pgoff == NPU_DMA_MMAP_EVENTS >> PAGE_SHIFT)
		return npu_dma_mmap_events(ctx, vma);
	return npu_dma_queue_mmap(ctx, vma);
}

const struct file_operations npu_dma_fops = {
	.owner = THIS_MODULE,
	.open = npu_dma_open,
	.release = npu_dma_release,
	.unlocked_ioctl = npu_dma_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.mmap = npu_dma_mmap,
	.llseek = no_llseek,
};
