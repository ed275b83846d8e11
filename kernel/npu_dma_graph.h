/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * npu_dma: graphs, descriptor lists validated once and replayed (npu_dma_graph.c).
 */
#ifndef __NPU_DMA_GRAPH_H__
#define __NPU_DMA_GRAPH_H__

#include "npu_dma.h"

struct npu_dma_graph;
struct npu_dma_job;
struct npu_dma_queue;

int npu_dma_graph_create_ioctl(struct npu_dma_ctx *ctx, void *data);
int npu_dma_graph_destroy_ioctl(struct npu_dma_ctx *ctx, void *data);
void npu_dma_graph_release_all(struct npu_dma_ctx *ctx);
struct npu_dma_graph *npu_dma_graph_get(struct npu_dma_ctx *ctx, u32 id);
void npu_dma_graph_put(struct npu_dma_graph *g);
u32 npu_dma_graph_count(const struct npu_dma_graph *g);
bool npu_dma_graph_next_task(struct npu_dma_job *job, struct npu_dma_job *t);
void npu_dma_graph_run_task(struct npu_dma_job *job, struct npu_dma_job *t);

#endif /* __NPU_DMA_GRAPH_H__ */
