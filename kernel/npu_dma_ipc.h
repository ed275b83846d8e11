/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * npu_dma: device memory shared between processes by key (npu_dma_ipc.c).
 */
#ifndef __NPU_DMA_IPC_H__
#define __NPU_DMA_IPC_H__

#include "npu_dma.h"

struct npu_dma_alloc;

void npu_dma_ipc_revoke_alloc(struct npu_dma_ctx *ctx, struct npu_dma_alloc *a);
void npu_dma_ipc_revoke_all(struct npu_dma_ctx *ctx);

int npu_dma_ipc_export_ioctl(struct npu_dma_ctx *ctx, void *data);
int npu_dma_ipc_set_pids_ioctl(struct npu_dma_ctx *ctx, void *data);
int npu_dma_ipc_import_ioctl(struct npu_dma_ctx *ctx, void *data);
int npu_dma_ipc_close_ioctl(struct npu_dma_ctx *ctx, void *data);

#endif /* __NPU_DMA_IPC_H__ */
