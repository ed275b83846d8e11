// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit test of the ioctl ABI (include/uapi/linux/npu_dma.h). Sizes,
 * offsets and ioctl numbers are frozen in npu_dma_abi_layout.h, whose
 * static asserts break the build of this file (and scripts/check-uapi.sh's
 * C++ check) when anything moves; the rest is checked here at run time.
 */
#include <check.h>
#include <stddef.h>
#include <stdlib.h>

#include <linux/npu_dma.h>

#include "npu_dma_abi_layout.h"
#include "t_check.h"

START_TEST(test_abi_ring_layout)
{
	ck_assert_uint_ge(NPU_DMA_QUEUE_RING_OFFSET, sizeof(struct npu_dma_queue_ctrl));
	ck_assert_uint_eq(NPU_DMA_QUEUE_RING_OFFSET % 4096, 0);
	ck_assert_uint_eq(NPU_DMA_OP_GRAPH, 9);
	ck_assert_uint_eq(NPU_DMA_OP_MAX, NPU_DMA_OP_COPY_INDIRECT);
	ck_assert_uint_eq(NPU_DMA_OP_COPY_INDIRECT, 10);
	ck_assert_uint_eq(NPU_DMA_DESC_FLAGS_MASK,
			  NPU_DMA_DESC_F_SRC_HOST | NPU_DMA_DESC_F_DST_HOST |
			  NPU_DMA_DESC_F_SRC_PAGEABLE | NPU_DMA_DESC_F_DST_PAGEABLE);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("npu_dma_abi");
	TCase *tc = tcase_create("abi");
	tcase_add_test(tc, test_abi_ring_layout);
	suite_add_tcase(s, tc);
	return t_run_suite(s);
}
