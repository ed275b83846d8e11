// SPDX-License-Identifier: GPL-2.0-only
/*
 * npu_dma: the DRM compute driver of NPU DMA engines.
 *
 * One DRM device per NPU (npu_dma_dev.c), created by its engine: a
 * render node on kernels without drivers/accel, an accel node where it
 * exists (npu_dma_compat.h). An open file is a context (npu_dma_ctx.c);
 * device memory is GEM objects (npu_dma_mem.c), shared as dma-bufs, and
 * foreign dma-bufs are imported (npu_dma_prime.c); queue rings and event
 * tables are GEM objects without handles, mapped through their fake
 * offsets (npu_dma_area.c). The DRM core copies every ioctl's argument
 * in and out, so the handlers work on kernel copies.
 *
 * Copyright (C) 2026 The npu-dma authors
 */

#include <linux/module.h>

#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_gem.h>
#include <drm/drm_ioctl.h>
#include <drm/drm_prime.h>

#include "npu_dma_area.h"
#include "npu_dma_compat.h"
#include "npu_dma_engine.h"
#include "npu_dma_graph.h"
#include "npu_dma_ipc.h"
#include "npu_dma_job.h"
#include "npu_dma_mem.h"
#include "npu_dma_pin.h"
#include "npu_dma_prime.h"
#include "npu_dma_queue.h"
#include "npu_dma_sched.h"
#include "npu_dma_signal.h"
#include "npu_dma_vmm.h"
#include "npu_dma_xfer.h"

static unsigned int nr_sim;
module_param(nr_sim, uint, 0444);
MODULE_PARM_DESC(nr_sim, "Number of simulated NPUs to create (0..32, default 0)");

static bool test_hooks;
module_param(test_hooks, bool, 0444);
MODULE_PARM_DESC(test_hooks,
		 "Create debugfs files that let tests provoke kernel warnings (default off; never on production systems)");

typedef int (*npu_dma_ioctl_fn)(struct npu_dma_ctx *ctx, void *data);

/*
 * Every driver ioctl runs inside drm_dev_enter(): a removed NPU answers
 * -ENODEV, and removal waits for the ioctls already running (after
 * aborting the queues they may wait on) before it tears anything down.
 * All but GET_INFO are for the opener's address space only.
 */
static int npu_dma_enter(struct drm_device *drm, struct drm_file *file,
			 bool owner_only, int *idx)
{
	struct npu_dma_ctx *ctx = file->driver_priv;

	if (!drm_dev_enter(drm, idx))
		return -ENODEV;
	if (owner_only && current->mm != ctx->mm) {
		npu_dbg(ctx->ndev, "ioctl from a process that did not open the device\n");
		drm_dev_exit(*idx);
		return -EPERM;
	}
	return 0;
}

static int npu_dma_call(struct drm_device *drm, struct drm_file *file,
			void *data, npu_dma_ioctl_fn fn, bool owner_only)
{
	int idx, ret = npu_dma_enter(drm, file, owner_only, &idx);

	if (ret)
		return ret;
	ret = fn(file->driver_priv, data);
	drm_dev_exit(idx);
	return ret;
}

#define NPU_DMA_IOCTL(name, owner_only)					\
static int npu_dma_##name(struct drm_device *drm, void *data,		\
			  struct drm_file *file)			\
{									\
	return npu_dma_call(drm, file, data, npu_dma_##name##_ioctl,	\
			    owner_only);				\
}

NPU_DMA_IOCTL(get_info, false)
NPU_DMA_IOCTL(mem_alloc, true)
NPU_DMA_IOCTL(host_register, true)
NPU_DMA_IOCTL(host_unregister, true)
NPU_DMA_IOCTL(queue_create, true)
NPU_DMA_IOCTL(queue_destroy, true)
NPU_DMA_IOCTL(queue_submit, true)
NPU_DMA_IOCTL(barrier_release, true)
NPU_DMA_IOCTL(graph_create, true)
NPU_DMA_IOCTL(graph_destroy, true)
NPU_DMA_IOCTL(mem_info, true)
NPU_DMA_IOCTL(ipc_export, true)
NPU_DMA_IOCTL(ipc_set_pids, true)
NPU_DMA_IOCTL(ipc_import, true)
NPU_DMA_IOCTL(ipc_close, true)
NPU_DMA_IOCTL(vmm_map, true)
NPU_DMA_IOCTL(vmm_unmap, true)
NPU_DMA_IOCTL(signal_create, true)
NPU_DMA_IOCTL(signal_destroy, true)
NPU_DMA_IOCTL(queue_ctl, true)

/*
 * SIGNAL_WAIT looks its signal up inside drm_dev_enter() but sleeps
 * outside: a host waiting for another process must not hold up the
 * NPU's removal, which waits for every such section to end. The signal
 * lives on its own references, not on the device.
 */
static int npu_dma_signal_wait(struct drm_device *drm, void *data,
			       struct drm_file *file)
{
	struct npu_dma_signal *sig;
	int idx, ret;
	u64 target;

	ret = npu_dma_enter(drm, file, true, &idx);
	if (ret)
		return ret;
	sig = npu_dma_signal_wait_begin(file->driver_priv, data, &target);
	drm_dev_exit(idx);
	if (IS_ERR(sig))
		return PTR_ERR(sig);
	return npu_dma_signal_wait_end(sig, target, data);
}

#define NPU_DMA_IOCTL_DEF(ioctl, func) \
	DRM_IOCTL_DEF_DRV(NPU_DMA_##ioctl, func, DRM_RENDER_ALLOW)

static const struct drm_ioctl_desc npu_dma_ioctls[] = {
	NPU_DMA_IOCTL_DEF(GET_INFO, npu_dma_get_info),
	NPU_DMA_IOCTL_DEF(MEM_ALLOC, npu_dma_mem_alloc),
	NPU_DMA_IOCTL_DEF(HOST_REGISTER, npu_dma_host_register),
	NPU_DMA_IOCTL_DEF(HOST_UNREGISTER, npu_dma_host_unregister),
	NPU_DMA_IOCTL_DEF(QUEUE_CREATE, npu_dma_queue_create),
	NPU_DMA_IOCTL_DEF(QUEUE_DESTROY, npu_dma_queue_destroy),
	NPU_DMA_IOCTL_DEF(QUEUE_SUBMIT, npu_dma_queue_submit),
	NPU_DMA_IOCTL_DEF(BARRIER_RELEASE, npu_dma_barrier_release),
	NPU_DMA_IOCTL_DEF(GRAPH_CREATE, npu_dma_graph_create),
	NPU_DMA_IOCTL_DEF(GRAPH_DESTROY, npu_dma_graph_destroy),
	NPU_DMA_IOCTL_DEF(MEM_INFO, npu_dma_mem_info),
	NPU_DMA_IOCTL_DEF(IPC_EXPORT, npu_dma_ipc_export),
	NPU_DMA_IOCTL_DEF(IPC_SET_PIDS, npu_dma_ipc_set_pids),
	NPU_DMA_IOCTL_DEF(IPC_IMPORT, npu_dma_ipc_import),
	NPU_DMA_IOCTL_DEF(IPC_CLOSE, npu_dma_ipc_close),
	NPU_DMA_IOCTL_DEF(VMM_MAP, npu_dma_vmm_map),
	NPU_DMA_IOCTL_DEF(VMM_UNMAP, npu_dma_vmm_unmap),
	NPU_DMA_IOCTL_DEF(SIGNAL_CREATE, npu_dma_signal_create),
	NPU_DMA_IOCTL_DEF(SIGNAL_DESTROY, npu_dma_signal_destroy),
	NPU_DMA_IOCTL_DEF(SIGNAL_WAIT, npu_dma_signal_wait),
	NPU_DMA_IOCTL_DEF(QUEUE_CTL, npu_dma_queue_ctl),
};

/*
 * The DRM core's object ioctls act on the file's handles without asking
 * the driver: keep them, as the driver's own, to the opener, so that a
 * file inherited over fork() cannot free or share the opener's memory.
 */
static bool npu_dma_core_ioctl_owner_only(unsigned int cmd)
{
	switch (cmd) {
	case DRM_IOCTL_GEM_CLOSE:
	case DRM_IOCTL_GEM_FLINK:
	case DRM_IOCTL_GEM_OPEN:
	case DRM_IOCTL_PRIME_HANDLE_TO_FD:
	case DRM_IOCTL_PRIME_FD_TO_HANDLE:
		return true;
	default:
		return false;
	}
}

static long npu_dma_ioctl(struct file *filp, unsigned int cmd,
			  unsigned long arg)
{
	struct drm_file *file = filp->private_data;
	struct npu_dma_ctx *ctx = file->driver_priv;

	if (npu_dma_core_ioctl_owner_only(cmd) && current->mm != ctx->mm)
		return -EPERM;
	return drm_ioctl(filp, cmd, arg);
}

/* Drain the queues before drm_release() closes the GEM handles. */
static int npu_dma_release(struct inode *inode, struct file *filp)
{
	struct drm_file *file = filp->private_data;

	npu_dma_ctx_drain(file->driver_priv);
	return drm_release(inode, filp);
}

static void npu_dma_show_fdinfo(struct seq_file *m, struct file *filp)
{
	struct drm_file *file = filp->private_data;

	npu_dma_ctx_show_fdinfo(file->driver_priv, m);
}

static const struct file_operations npu_dma_fops = {
	.owner = THIS_MODULE,
	.open = npu_dma_fops_open,
	.release = npu_dma_release,
	.unlocked_ioctl = npu_dma_ioctl,
	.compat_ioctl = drm_compat_ioctl,
	.poll = drm_poll,
	.read = drm_read,
	.llseek = noop_llseek,
	.mmap = drm_gem_mmap,
	.show_fdinfo = npu_dma_show_fdinfo,
};

const struct drm_driver npu_dma_drm_driver = {
	.driver_features = DRIVER_GEM | NPU_DMA_DRIVER_NODE,
	.open = npu_dma_ctx_open,
	.postclose = npu_dma_ctx_close,
	.ioctls = npu_dma_ioctls,
	.num_ioctls = ARRAY_SIZE(npu_dma_ioctls),
	.fops = &npu_dma_fops,
	/* 6.1 has no defaults for these (npu_dma_prime.c). */
	.prime_handle_to_fd = drm_gem_prime_handle_to_fd,
	.prime_fd_to_handle = drm_gem_prime_fd_to_handle,
	.gem_prime_import = npu_dma_prime_import,
	.gem_prime_mmap = drm_gem_prime_mmap,
	.name = NPU_DMA_DRIVER_NAME,
	.desc = "NPU DMA engines",
	.date = "20261201",
	.major = NPU_DMA_ABI_VERSION,
	.minor = 0,
};

/* The pipeline's caches and workqueues, before any NPU exists. */
static int __init npu_dma_pipeline_init(void)
{
	int ret;

	ret = npu_dma_job_init_cache();
	if (ret)
		return ret;
	ret = npu_dma_sched_init();
	if (ret)
		goto err_cache;
	ret = npu_dma_chan_init();
	if (ret)
		goto err_sched;
	return 0;

err_sched:
	npu_dma_sched_exit();
err_cache:
	npu_dma_job_exit_cache();
	return ret;
}

static void npu_dma_pipeline_exit(void)
{
	npu_dma_chan_exit();
	npu_dma_sched_exit();
	npu_dma_job_exit_cache();
	npu_dma_queue_exit();
}

static int __init npu_dma_init(void)
{
	int ret;

	/* Every parameter first: a bad one must not leave devices probed. */
	ret = npu_dma_edu_check_params();
	if (!ret)
		ret = npu_dma_sim_check_params(nr_sim);
	if (ret)
		return ret;

	npu_dma_debugfs_init(test_hooks);
	ret = npu_dma_pipeline_init();
	if (ret)
		goto err_debugfs;
	ret = npu_dma_edu_init();
	if (ret)
		goto err_pipeline;
	ret = npu_dma_sim_init(nr_sim);
	if (ret)
		goto err_edu;
	return 0;

err_edu:
	npu_dma_edu_exit();
err_pipeline:
	npu_dma_pipeline_exit();
err_debugfs:
	npu_dma_debugfs_exit();
	return ret;
}
module_init(npu_dma_init);

static void __exit npu_dma_exit(void)
{
	npu_dma_sim_exit();
	npu_dma_edu_exit();
	npu_dma_pipeline_exit();
	npu_dma_debugfs_exit();
}
module_exit(npu_dma_exit);

MODULE_DESCRIPTION("NPU DMA engines: device memory, host pinning, submission rings");
MODULE_AUTHOR("The npu-dma authors");
MODULE_LICENSE("GPL");
MODULE_VERSION(NPU_DMA_VERSION);
