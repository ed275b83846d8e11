// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit test of the ioctl ABI (include/uapi/linux/npu_dma.h): sizes and
 * offsets are frozen here. A change that moves a field breaks the
 * build of this file (static asserts) and fails the run-time checks.
 */
#include <check.h>
#include <stddef.h>
#include <stdlib.h>

#include <linux/npu_dma.h>

#include "t_check.h"

#define ABI(type, size) _Static_assert(sizeof(struct type) == (size), #type)
#define OFF(type, field, off) \
	_Static_assert(offsetof(struct type, field) == (off), #type "." #field)

ABI(npu_dma_info, 128);
OFF(npu_dma_info, mem_size, 24);
OFF(npu_dma_info, max_2d_height, 56);
OFF(npu_dma_info, caps, 72);
OFF(npu_dma_info, mem_base, 80);
OFF(npu_dma_info, peers, 88);
OFF(npu_dma_info, max_graph_tasks, 96);
ABI(npu_dma_mem_alloc, 56);
OFF(npu_dma_mem_alloc, dev_addr, 24);
ABI(npu_dma_mem_free, 32);
ABI(npu_dma_host_register, 40);
ABI(npu_dma_host_unregister, 32);
ABI(npu_dma_queue_create, 64);
OFF(npu_dma_queue_create, mmap_offset, 16);
ABI(npu_dma_queue_destroy, 24);
ABI(npu_dma_queue_submit, 24);
ABI(npu_dma_barrier_release, 32);
ABI(npu_dma_desc, 64);
OFF(npu_dma_desc, height, 4);
OFF(npu_dma_desc, src, 8);
OFF(npu_dma_desc, value, 48);
OFF(npu_dma_desc, wait_queue, 56);
ABI(npu_dma_queue_ctrl, 128);
OFF(npu_dma_queue_ctrl, sq_head, 64);
OFF(npu_dma_queue_ctrl, completed_seq, 80);
OFF(npu_dma_queue_ctrl, error, 104);
OFF(npu_dma_queue_ctrl, last_error_seq, 112);
OFF(npu_dma_queue_ctrl, last_error, 120);
ABI(npu_dma_event_slot, 32);
ABI(npu_dma_graph_create, 40);
OFF(npu_dma_graph_create, graph_id, 16);
OFF(npu_dma_graph_create, error_index, 20);
ABI(npu_dma_graph_destroy, 24);

START_TEST(test_abi_sizes_are_multiples_of_8)
{
	ck_assert_uint_eq(sizeof(struct npu_dma_info) % 8, 0);
	ck_assert_uint_eq(sizeof(struct npu_dma_mem_alloc) % 8, 0);
	ck_assert_uint_eq(sizeof(struct npu_dma_host_register) % 8, 0);
	ck_assert_uint_eq(sizeof(struct npu_dma_queue_create) % 8, 0);
	ck_assert_uint_eq(sizeof(struct npu_dma_desc) % 8, 0);
}
END_TEST

START_TEST(test_abi_ioctl_numbers_are_frozen)
{
	ck_assert_uint_eq(NPU_DMA_IOCTL_GET_INFO, 0xc080b900u);
	ck_assert_uint_eq(NPU_DMA_IOCTL_MEM_ALLOC, 0xc038b901u);
	ck_assert_uint_eq(NPU_DMA_IOCTL_MEM_FREE, 0x4020b902u);
	ck_assert_uint_eq(NPU_DMA_IOCTL_HOST_REGISTER, 0x4028b903u);
	ck_assert_uint_eq(NPU_DMA_IOCTL_HOST_UNREGISTER, 0x4020b904u);
	ck_assert_uint_eq(NPU_DMA_IOCTL_QUEUE_CREATE, 0xc040b905u);
	ck_assert_uint_eq(NPU_DMA_IOCTL_QUEUE_DESTROY, 0x4018b906u);
	ck_assert_uint_eq(NPU_DMA_IOCTL_QUEUE_SUBMIT, 0x4018b907u);
	ck_assert_uint_eq(NPU_DMA_IOCTL_BARRIER_RELEASE, 0x4020b908u);
	ck_assert_uint_eq(NPU_DMA_IOCTL_GRAPH_CREATE, 0xc028b909u);
	ck_assert_uint_eq(NPU_DMA_IOCTL_GRAPH_DESTROY, 0x4018b90au);
}
END_TEST

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
	tcase_add_test(tc, test_abi_sizes_are_multiples_of_8);
	tcase_add_test(tc, test_abi_ioctl_numbers_are_frozen);
	tcase_add_test(tc, test_abi_ring_layout);
	suite_add_tcase(s, tc);
	return t_run_suite(s);
}
