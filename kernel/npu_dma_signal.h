/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * npu_dma: signals, counted records that queues of any process wait for
 * (npu_dma_signal.c).
 */
#ifndef __NPU_DMA_SIGNAL_H__
#define __NPU_DMA_SIGNAL_H__

#include "npu_dma.h"

struct npu_dma_job;
struct npu_dma_signal;

struct npu_dma_signal *npu_dma_signal_lookup(struct npu_dma_ctx *ctx, u32 id);
void npu_dma_signal_get(struct npu_dma_signal *sig);
void npu_dma_signal_put(struct npu_dma_signal *sig);
bool npu_dma_signal_owned(struct npu_dma_signal *sig, struct npu_dma_ctx *ctx);
int npu_dma_signal_add(struct npu_dma_ctx *ctx, struct npu_dma_signal *sig,
		       u32 *id);
void npu_dma_signal_release_all(struct npu_dma_ctx *ctx);

/* The descriptors (validation, scheduler, retirement). */
int npu_dma_signal_validate(struct npu_dma_ctx *ctx, struct npu_dma_job *job);
bool npu_dma_signal_met(const struct npu_dma_job *job);
void npu_dma_signal_pass(struct npu_dma_job *job);
void npu_dma_signal_done(struct npu_dma_job *job);

int npu_dma_signal_create_ioctl(struct npu_dma_ctx *ctx, void *data);
int npu_dma_signal_destroy_ioctl(struct npu_dma_ctx *ctx, void *data);

/* SIGNAL_WAIT: its checks and lookup, then its sleep (npu_dma.c). */
struct npu_dma_signal *npu_dma_signal_wait_begin(struct npu_dma_ctx *ctx,
						 void *data, u64 *target);
int npu_dma_signal_wait_end(struct npu_dma_signal *sig, u64 target,
			    void *data);

#endif /* __NPU_DMA_SIGNAL_H__ */
