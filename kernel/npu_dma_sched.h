/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * npu_dma: the scheduler: which job of a queue runs next, and when (npu_dma_sched.c).
 */
#ifndef __NPU_DMA_SCHED_H__
#define __NPU_DMA_SCHED_H__

#include <linux/types.h>

struct npu_dma_queue;

/**
 * struct npu_dma_sched_pass - one pass over a queue's ready jobs
 * @t0: local_clock() at its start, for the file's engine time
 * @idx: drm_dev_enter() cookie
 * @entered: the device was entered (not unplugged)
 * @budget: jobs it may still retire before it publishes them and ends
 * @retired: some work completed: signal and unblock waiters at the end
 */
struct npu_dma_sched_pass {
	u64 t0;
	int idx;
	bool entered;
	int budget;
	bool retired;
};

void npu_dma_sched_kick(struct npu_dma_queue *q);
void npu_dma_sched_begin(struct npu_dma_queue *q, struct npu_dma_sched_pass *p);
bool npu_dma_sched_run(struct npu_dma_queue *q, struct npu_dma_sched_pass *p);
void npu_dma_sched_end(struct npu_dma_queue *q, struct npu_dma_sched_pass *p);
bool npu_dma_sched_busy(struct npu_dma_queue *q);
bool npu_dma_sched_inline_ok(struct npu_dma_queue *q, u64 max_bytes);
void npu_dma_sched_run_inline(struct npu_dma_queue *q);
void npu_dma_sched_forget(struct npu_dma_queue *q);
void npu_dma_sched_kick_waiting(void);
int npu_dma_sched_init(void);
void npu_dma_sched_exit(void);

#endif /* __NPU_DMA_SCHED_H__ */
