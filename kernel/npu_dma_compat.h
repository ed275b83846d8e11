/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * npu_dma: differences between the kernels the module builds for
 * (Debian 12's 6.1 and later).
 */
#ifndef __NPU_DMA_COMPAT_H__
#define __NPU_DMA_COMPAT_H__

#include <linux/dma-buf.h>
#include <linux/eventfd.h>
#include <linux/mm.h>

/*
 * The NPU_DMA_* symbols tested here come from probes of the kernel
 * headers in kernel/Kbuild, not from version numbers: distributions
 * backport API changes into older kernels.
 */

/* 6.8 dropped the count argument of eventfd_signal(). */
static inline void npu_dma_eventfd_signal(struct eventfd_ctx *ctx)
{
#ifdef NPU_DMA_EVENTFD_SIGNAL_COUNT
	eventfd_signal(ctx, 1);
#else
	eventfd_signal(ctx);
#endif
}

/* 6.3 made vma->vm_flags read-only outside the vm_flags_*() helpers. */
static inline void npu_dma_vm_flags_set(struct vm_area_struct *vma,
					vm_flags_t set, vm_flags_t clear)
{
#ifdef NPU_DMA_VM_FLAGS_MOD
	vm_flags_mod(vma, set, clear);
#else
	vma->vm_flags = (vma->vm_flags | set) & ~clear;
#endif
}

/*
 * 6.2 put the dma-buf calls of importers under the reservation lock; the
 * _unlocked variants take it, as 6.1's plain calls do themselves.
 */
#ifdef NPU_DMA_DMABUF_UNLOCKED
#define npu_dma_buf_map_attachment	dma_buf_map_attachment_unlocked
#define npu_dma_buf_unmap_attachment	dma_buf_unmap_attachment_unlocked
#define npu_dma_buf_vmap		dma_buf_vmap_unlocked
#define npu_dma_buf_vunmap		dma_buf_vunmap_unlocked
#else
#define npu_dma_buf_map_attachment	dma_buf_map_attachment
#define npu_dma_buf_unmap_attachment	dma_buf_unmap_attachment
#define npu_dma_buf_vmap		dma_buf_vmap
#define npu_dma_buf_vunmap		dma_buf_vunmap
#endif

/*
 * The DRM node: a compute accelerator node (/dev/accel/accelN) where the
 * kernel has drivers/accel (6.2 and later, CONFIG_DRM_ACCEL), a render
 * node (/dev/dri/renderDN) before. The two features are exclusive. A
 * kernel without accel still creates a primary node (/dev/dri/cardN)
 * beside the render node; nothing of ours needs it.
 */
#if IS_ENABLED(CONFIG_DRM_ACCEL)
#include <drm/drm_accel.h>
#define NPU_DMA_DRIVER_NODE	DRIVER_COMPUTE_ACCEL
#define npu_dma_fops_open	accel_open
#else
#define NPU_DMA_DRIVER_NODE	DRIVER_RENDER
#define npu_dma_fops_open	drm_open
#endif

#endif /* __NPU_DMA_COMPAT_H__ */
