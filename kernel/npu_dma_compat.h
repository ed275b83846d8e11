/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * npu_dma: differences between the kernels the module builds for
 * (Debian 12's 6.1 and later).
 */
#ifndef __NPU_DMA_COMPAT_H__
#define __NPU_DMA_COMPAT_H__

#include <linux/eventfd.h>
#include <linux/mm.h>
#include <linux/version.h>

/* 6.8 dropped the count argument of eventfd_signal(). */
static inline void npu_dma_eventfd_signal(struct eventfd_ctx *ctx)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 8, 0)
	eventfd_signal(ctx);
#else
	eventfd_signal(ctx, 1);
#endif
}

/* 6.3 made vma->vm_flags read-only outside the vm_flags_*() helpers. */
static inline void npu_dma_vm_flags_set(struct vm_area_struct *vma,
					vm_flags_t set, vm_flags_t clear)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 3, 0)
	vm_flags_mod(vma, set, clear);
#else
	vma->vm_flags = (vma->vm_flags | set) & ~clear;
#endif
}

#endif /* __NPU_DMA_COMPAT_H__ */
