/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Shared bits of the raw-ABI sharing tests (t_prime, t_ipc, t_vmm): the
 * NPUs of the guest, the fixture that checks pins, memory, queues and
 * files come back, a byte pattern, and one pageable copy.
 */
#ifndef T_SHARE_H
#define T_SHARE_H

#include <stdlib.h>
#include <string.h>

#include "npu_raw.h"
#include "t_state.h"
#include "t_vm.h"

#define T_SHARE_MAX_NPUS	8

static struct npu_dma_info infos[T_SHARE_MAX_NPUS];
static int nr_npus;
static struct t_state t_share_start;

static void setup(void)
{
	nr_npus = t_find_npus(infos, T_SHARE_MAX_NPUS);
	ck_assert_int_gt(nr_npus, 0);
	t_state_get(&t_share_start, nr_npus);
}

static void teardown(void)
{
	ck_assert_msg(t_state_back(&t_share_start),
		      "pins, memory, queues or files leaked");
}

static inline int is_sim(int npu)
{
	return infos[npu].backend == NPU_DMA_BACKEND_SIM;
}

/* @len bytes that differ with @seed and along the buffer. */
static inline void pattern(unsigned char *p, size_t len, unsigned int seed)
{
	size_t i;

	for (i = 0; i < len; i++)
		p[i] = (unsigned char)(i * 13 + seed + (i >> 9));
}

/* One pageable copy between host memory and a device address: 0 or error. */
static inline int host_copy(struct npu_raw_queue *q, uint64_t dev, void *host,
			    size_t len, int to_dev)
{
	struct npu_dma_desc d;

	if (to_dev)
		d = npu_raw_copy(dev, (uintptr_t)host, len,
				 NPU_DMA_DESC_F_SRC_HOST | NPU_DMA_DESC_F_SRC_PAGEABLE);
	else
		d = npu_raw_copy((uintptr_t)host, dev, len,
				 NPU_DMA_DESC_F_DST_HOST | NPU_DMA_DESC_F_DST_PAGEABLE);
	return npu_raw_run(q, &d);
}

#endif /* T_SHARE_H */
