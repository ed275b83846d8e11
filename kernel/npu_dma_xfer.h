/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * npu_dma: running jobs on an NPU's engine and channels (npu_dma_xfer.c,
 * npu_dma_indirect.c, npu_dma_runner.c, npu_dma_chan.c).
 */
#ifndef __NPU_DMA_XFER_H__
#define __NPU_DMA_XFER_H__

#include "npu_dma.h"

struct npu_dma_job;
struct npu_dma_queue;
struct work_struct;

/* npu_dma_xfer.c: one job, or a run of batch members or jobs, on the engine */
int npu_dma_job_run(struct npu_dma_job *job);
int npu_dma_job_run_on_chan(struct npu_dma_job *job);
void npu_dma_members_run(struct npu_dma_job *jobs, unsigned int n, int *chan);
void npu_dma_jobs_run(struct npu_dma_job **jobs, unsigned int n);

/* npu_dma_indirect.c: copies whose addresses are read when they run */
int npu_dma_indirect_run(struct npu_dma_job *job);

/* npu_dma_runner.c: a batch's members over several channels */
void npu_dma_batch_run(struct npu_dma_queue *q, struct npu_dma_job *begin);
void npu_dma_batch_validated(struct npu_dma_job *begin);

/* npu_dma_chan.c: DMA channels, and helpers started on other CPUs */
int npu_dma_chan_get(struct npu_dma_device *ndev, int prio);
int npu_dma_chan_tryget(struct npu_dma_device *ndev);
void npu_dma_chan_put(struct npu_dma_device *ndev, int chan);
int npu_dma_chan_yield(struct npu_dma_device *ndev, int chan, int prio);
void npu_dma_work_elsewhere(struct work_struct *work, unsigned int nth);
void npu_dma_work_on(struct work_struct *work, int cpu);
int npu_dma_chan_init(void);
void npu_dma_chan_exit(void);

#endif /* __NPU_DMA_XFER_H__ */
