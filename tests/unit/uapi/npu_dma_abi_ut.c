// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit test of the ioctl ABI v2 (include/uapi/drm/npu_dma_accel.h).
 * Sizes, offsets and ioctl numbers are frozen in npu_dma_abi_layout.h,
 * whose static asserts break the build of this file (and
 * scripts/check-uapi.sh's C++ check) when anything moves; the rest is
 * checked here at run time.
 */
#include <check.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <drm/npu_dma_accel.h>

#include "npu_dma_abi_layout.h"
#include "t_check.h"

START_TEST(test_abi_ring_layout)
{
	ck_assert_uint_ge(NPU_DMA_QUEUE_RING_OFFSET, sizeof(struct npu_dma_queue_ctrl));
	ck_assert_uint_eq(NPU_DMA_QUEUE_RING_OFFSET % 4096, 0);
	ck_assert_uint_eq(NPU_DMA_OP_GRAPH, 9);
	ck_assert_uint_eq(NPU_DMA_OP_COPY_INDIRECT, 10);
	ck_assert_uint_eq(NPU_DMA_OP_SIGNAL, 11);
	ck_assert_uint_eq(NPU_DMA_OP_WAIT_SIGNAL, 12);
	ck_assert_uint_eq(NPU_DMA_OP_REDUCE, 13);
	ck_assert_uint_eq(NPU_DMA_OP_MAX, NPU_DMA_OP_REDUCE);
	ck_assert_uint_eq(NPU_DMA_CAP_REDUCE, 1ULL << 17);
	ck_assert_uint_eq(NPU_DMA_REDUCE_VALUE(NPU_DMA_REDUCE_OP_MIN,
					       NPU_DMA_REDUCE_T_F32), 0x802);
	ck_assert_uint_eq(NPU_DMA_DESC_FLAGS_MASK,
			  NPU_DMA_DESC_F_SRC_HOST | NPU_DMA_DESC_F_DST_HOST |
			  NPU_DMA_DESC_F_SRC_PAGEABLE | NPU_DMA_DESC_F_DST_PAGEABLE |
			  NPU_DMA_DESC_F_SIGNAL_RESET);
}
END_TEST

/* The driver's name and ABI version, as DRM_IOCTL_VERSION and GET_INFO say. */
START_TEST(test_abi_identity)
{
	ck_assert_str_eq(NPU_DMA_DRIVER_NAME, "npu_dma");
	ck_assert_uint_eq(NPU_DMA_ABI_VERSION, 2);
	ck_assert_uint_eq(NPU_DMA_BACKEND_EDU, 0);
	ck_assert_uint_eq(NPU_DMA_BACKEND_SIM, 1);
}
END_TEST

/*
 * Every ioctl number carries its structure's size and is in the driver's
 * range after DRM_COMMAND_BASE, in the order of the command indexes.
 */
START_TEST(test_abi_ioctl_numbers)
{
	static const struct {
		unsigned long cmd;
		unsigned int nr;
		size_t size;
		unsigned int dir;
	} c[] = {
		{ DRM_IOCTL_NPU_DMA_GET_INFO, DRM_NPU_DMA_GET_INFO,
		  sizeof(struct npu_dma_info), _IOC_READ | _IOC_WRITE },
		{ DRM_IOCTL_NPU_DMA_MEM_ALLOC, DRM_NPU_DMA_MEM_ALLOC,
		  sizeof(struct npu_dma_mem_alloc), _IOC_READ | _IOC_WRITE },
		{ DRM_IOCTL_NPU_DMA_HOST_REGISTER, DRM_NPU_DMA_HOST_REGISTER,
		  sizeof(struct npu_dma_host_register), _IOC_WRITE },
		{ DRM_IOCTL_NPU_DMA_HOST_UNREGISTER, DRM_NPU_DMA_HOST_UNREGISTER,
		  sizeof(struct npu_dma_host_unregister), _IOC_WRITE },
		{ DRM_IOCTL_NPU_DMA_QUEUE_CREATE, DRM_NPU_DMA_QUEUE_CREATE,
		  sizeof(struct npu_dma_queue_create), _IOC_READ | _IOC_WRITE },
		{ DRM_IOCTL_NPU_DMA_QUEUE_DESTROY, DRM_NPU_DMA_QUEUE_DESTROY,
		  sizeof(struct npu_dma_queue_destroy), _IOC_WRITE },
		{ DRM_IOCTL_NPU_DMA_QUEUE_SUBMIT, DRM_NPU_DMA_QUEUE_SUBMIT,
		  sizeof(struct npu_dma_queue_submit), _IOC_WRITE },
		{ DRM_IOCTL_NPU_DMA_BARRIER_RELEASE, DRM_NPU_DMA_BARRIER_RELEASE,
		  sizeof(struct npu_dma_barrier_release), _IOC_WRITE },
		{ DRM_IOCTL_NPU_DMA_GRAPH_CREATE, DRM_NPU_DMA_GRAPH_CREATE,
		  sizeof(struct npu_dma_graph_create), _IOC_READ | _IOC_WRITE },
		{ DRM_IOCTL_NPU_DMA_GRAPH_DESTROY, DRM_NPU_DMA_GRAPH_DESTROY,
		  sizeof(struct npu_dma_graph_destroy), _IOC_WRITE },
		{ DRM_IOCTL_NPU_DMA_MEM_INFO, DRM_NPU_DMA_MEM_INFO,
		  sizeof(struct npu_dma_mem_info), _IOC_READ | _IOC_WRITE },
		{ DRM_IOCTL_NPU_DMA_IPC_EXPORT, DRM_NPU_DMA_IPC_EXPORT,
		  sizeof(struct npu_dma_ipc_export), _IOC_READ | _IOC_WRITE },
		{ DRM_IOCTL_NPU_DMA_IPC_SET_PIDS, DRM_NPU_DMA_IPC_SET_PIDS,
		  sizeof(struct npu_dma_ipc_set_pids), _IOC_WRITE },
		{ DRM_IOCTL_NPU_DMA_IPC_IMPORT, DRM_NPU_DMA_IPC_IMPORT,
		  sizeof(struct npu_dma_ipc_import), _IOC_READ | _IOC_WRITE },
		{ DRM_IOCTL_NPU_DMA_IPC_CLOSE, DRM_NPU_DMA_IPC_CLOSE,
		  sizeof(struct npu_dma_ipc_close), _IOC_WRITE },
		{ DRM_IOCTL_NPU_DMA_VMM_MAP, DRM_NPU_DMA_VMM_MAP,
		  sizeof(struct npu_dma_vmm_map), _IOC_WRITE },
		{ DRM_IOCTL_NPU_DMA_VMM_UNMAP, DRM_NPU_DMA_VMM_UNMAP,
		  sizeof(struct npu_dma_vmm_unmap), _IOC_WRITE },
		{ DRM_IOCTL_NPU_DMA_SIGNAL_CREATE, DRM_NPU_DMA_SIGNAL_CREATE,
		  sizeof(struct npu_dma_signal_create), _IOC_READ | _IOC_WRITE },
		{ DRM_IOCTL_NPU_DMA_SIGNAL_DESTROY, DRM_NPU_DMA_SIGNAL_DESTROY,
		  sizeof(struct npu_dma_signal_destroy), _IOC_WRITE },
		{ DRM_IOCTL_NPU_DMA_SIGNAL_WAIT, DRM_NPU_DMA_SIGNAL_WAIT,
		  sizeof(struct npu_dma_signal_wait), _IOC_WRITE },
	};
	unsigned int i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		ck_assert_uint_eq(c[i].nr, i);
		ck_assert_uint_eq(_IOC_TYPE(c[i].cmd), DRM_IOCTL_BASE);
		ck_assert_uint_eq(_IOC_NR(c[i].cmd), DRM_COMMAND_BASE + i);
		ck_assert_uint_lt(_IOC_NR(c[i].cmd), DRM_COMMAND_END);
		ck_assert_uint_eq(_IOC_SIZE(c[i].cmd), c[i].size);
		ck_assert_uint_eq(_IOC_DIR(c[i].cmd), c[i].dir);
		ck_assert_uint_eq(c[i].size % 8, 0);
	}
}
END_TEST

/*
 * Growth by size: the fields ABI v2 added sit where v1's reserved words
 * were or after them, so a v1-sized argument (the DRM core zero-extends
 * it) means "as before".
 */
START_TEST(test_abi_growth)
{
	ck_assert_uint_ge(offsetof(struct npu_dma_info, events_offset), 104);
	ck_assert_uint_eq(offsetof(struct npu_dma_mem_alloc, handle), 40);
	/* max_pin_len took the first of the two reserved words, vmm_size the other. */
	ck_assert_uint_eq(offsetof(struct npu_dma_info, max_pin_len), 120);
	ck_assert_uint_eq(offsetof(struct npu_dma_info, vmm_size), 128);
	ck_assert_uint_eq(sizeof(struct npu_dma_info), 152);
	ck_assert_uint_eq(sizeof(((struct npu_dma_mem_alloc *)0)->reserved), 16);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("npu_dma_abi");
	TCase *tc = tcase_create("abi");

	tcase_add_test(tc, test_abi_ring_layout);
	tcase_add_test(tc, test_abi_identity);
	tcase_add_test(tc, test_abi_ioctl_numbers);
	tcase_add_test(tc, test_abi_growth);
	suite_add_tcase(s, tc);
	return t_run_suite(s);
}
