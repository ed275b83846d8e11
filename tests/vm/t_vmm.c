// SPDX-License-Identifier: GPL-2.0-only
/*
 * VM test: device memory mapped at virtual device addresses
 * (DRM_IOCTL_NPU_DMA_VMM_MAP / VMM_UNMAP), the driver's half of CANN's
 * virtual memory management, on edu and sim NPUs.
 *
 * - A mapping shows the allocation's bytes from its offset on; copies,
 *   2-D copies and fills over a range that spans two allocations mapped
 *   side by side are byte-exact; after VMM_UNMAP the range is refused.
 * - Only the NPU's window, whole pages, the allocation's own extent and
 *   no overlap are accepted.
 * - Closing the handle while mapped keeps the memory until the unmap;
 *   an unmap with copies queued lets them finish.
 * - A whole allocation shared by key is imported as a handle by another
 *   process (IPC_IMPORT with NPU_DMA_IPC_IMPORT_F_HANDLE) and mapped.
 * Every test ends with pins, memory, queues and files as they began.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "t_share.h"

#define PG		4096ULL

/* Pages per allocation: an edu DMA is slow, so one there. */
static uint64_t pages_of(int npu)
{
	return is_sim(npu) ? 4 : 1;
}

static uint64_t window(int npu)
{
	return NPU_DMA_VMM_BASE(infos[npu].mem_base, infos[npu].mem_size);
}

static int run(struct npu_raw_queue *q, struct npu_dma_desc d)
{
	return npu_raw_run(q, &d);
}

static int to_dev(struct npu_raw_queue *q, uint64_t dev, const void *h, size_t len)
{
	return run(q, npu_raw_copy(dev, (uintptr_t)h, len,
				   NPU_DMA_DESC_F_SRC_HOST | NPU_DMA_DESC_F_SRC_PAGEABLE));
}

static int to_host(struct npu_raw_queue *q, void *h, uint64_t dev, size_t len)
{
	return run(q, npu_raw_copy((uintptr_t)h, dev, len,
				   NPU_DMA_DESC_F_DST_HOST | NPU_DMA_DESC_F_DST_PAGEABLE));
}

static int vmm_map(int fd, uint64_t va, uint64_t size, uint64_t offset,
		   uint32_t handle)
{
	struct npu_dma_vmm_map m = { .va = va, .size = size, .offset = offset,
				     .handle = handle };

	return npu_raw_ioctl(fd, DRM_IOCTL_NPU_DMA_VMM_MAP, &m);
}

static int vmm_unmap(int fd, uint64_t va)
{
	struct npu_dma_vmm_unmap u = { .va = va };

	return npu_raw_ioctl(fd, DRM_IOCTL_NPU_DMA_VMM_UNMAP, &u);
}

/*
 * Two allocations of n pages, mapped side by side at the window's start
 * + one page, the second from its second page on: one range across both.
 */
START_TEST(test_span_two_allocations)
{
	int npu = _i, fd;
	uint64_t n = pages_of(npu), len = 2 * n * PG - PG, va, da, db;
	unsigned char *in = malloc(len), *out = malloc(len), *b2 = malloc(n * PG);
	struct npu_raw_queue q;
	struct npu_dma_desc d;
	uint32_t ha, hb;

	T_SKIP_UNLESS(npu < nr_npus, "no NPU %d", npu);
	ck_assert_uint_ge(infos[npu].vmm_size, 2 * n * PG);
	fd = npu_raw_open(npu);
	ck_assert_int_eq(npu_raw_queue_create(fd, 16, &q), 0);
	ck_assert_int_eq(npu_raw_alloc(fd, n * PG, NPU_DMA_MEM_NORMAL_ONLY, &da, &ha), 0);
	ck_assert_int_eq(npu_raw_alloc(fd, n * PG, NPU_DMA_MEM_NORMAL_ONLY, &db, &hb), 0);
	va = window(npu) + PG;
	ck_assert_int_eq(vmm_map(fd, va, n * PG, 0, ha), 0);
	if (n > 1)
		ck_assert_int_eq(vmm_map(fd, va + n * PG, (n - 1) * PG, PG, hb), 0);
	else
		len = PG;

	pattern(in, len, 7);
	ck_assert_int_eq(to_dev(&q, va, in, len), 0);
	/* The bytes are the allocations' own, at their own addresses. */
	ck_assert_int_eq(to_host(&q, out, da, n * PG), 0);
	ck_assert_int_eq(memcmp(in, out, n * PG), 0);
	if (n > 1) {
		ck_assert_int_eq(to_host(&q, b2, db, n * PG), 0);
		ck_assert_int_eq(memcmp(in + n * PG, b2 + PG, (n - 1) * PG), 0);
		/* 2-D: 64-byte rows every 1 KiB, across the seam. */
		memset(out, 0, len);
		d = (struct npu_dma_desc){ .opcode = NPU_DMA_OP_COPY_2D,
			.flags = NPU_DMA_DESC_F_DST_HOST | NPU_DMA_DESC_F_DST_PAGEABLE,
			.src = va + 64, .dst = (uintptr_t)out, .len = 64,
			.height = (uint32_t)(len / 1024) - 1, .src_pitch = 1024,
			.dst_pitch = 64 };
		ck_assert_int_eq(run(&q, d), 0);
		ck_assert_int_eq(memcmp(out, in + 64, 64), 0);
		ck_assert_int_eq(memcmp(out + 64 * (n * 4 - 1), in + 64 + 1024 * (n * 4 - 1), 64), 0);
		/* A fill across the seam. */
		d = (struct npu_dma_desc){ .opcode = NPU_DMA_OP_FILL, .fill_size = 1,
			.dst = va + n * PG - 100, .len = 200, .value = 0xa5 };
		ck_assert_int_eq(run(&q, d), 0);
		memset(in + n * PG - 100, 0xa5, 200);
		ck_assert_int_eq(to_host(&q, out, va, len), 0);
		ck_assert_int_eq(memcmp(in, out, len), 0);
	}
	/* The end of the mapping is its end. */
	ck_assert_int_eq(to_host(&q, out, va + len, 1), -EFAULT);
	ck_assert_int_eq(to_host(&q, out, va - 1, 1), -EFAULT);
	ck_assert_int_eq(vmm_unmap(fd, va), 0);
	ck_assert_int_eq(to_host(&q, out, va, 1), -EFAULT);
	ck_assert_int_eq(vmm_unmap(fd, va), -ENOENT);
	if (n > 1)
		ck_assert_int_eq(vmm_unmap(fd, va + n * PG), 0);
	npu_raw_queue_destroy(&q);
	close(fd);
	free(in);
	free(out);
	free(b2);
}
END_TEST

START_TEST(test_refusals)
{
	int npu = nr_npus - 1, fd, other;
	uint64_t w = window(npu), da, db;
	uint32_t ha, hb;
	struct npu_dma_vmm_map m;

	fd = npu_raw_open(npu);
	ck_assert_int_eq(npu_raw_alloc(fd, 2 * PG, NPU_DMA_MEM_NORMAL_ONLY, &da, &ha), 0);
	/* Outside the window: the memory itself, before it, past its end. */
	ck_assert_int_eq(vmm_map(fd, da, PG, 0, ha), -EFAULT);
	ck_assert_int_eq(vmm_map(fd, w - PG, PG, 0, ha), -EFAULT);
	ck_assert_int_eq(vmm_map(fd, w + infos[npu].vmm_size - PG, 2 * PG, 0, ha), -EFAULT);
	/* Unaligned, empty, past the allocation, no such handle. */
	ck_assert_int_eq(vmm_map(fd, w + 1, PG, 0, ha), -EINVAL);
	ck_assert_int_eq(vmm_map(fd, w, PG + 1, 0, ha), -EINVAL);
	ck_assert_int_eq(vmm_map(fd, w, PG, 1, ha), -EINVAL);
	ck_assert_int_eq(vmm_map(fd, w, 0, 0, ha), -EINVAL);
	ck_assert_int_eq(vmm_map(fd, w, 2 * PG, PG, ha), -EINVAL);
	ck_assert_int_eq(vmm_map(fd, w, PG, 3 * PG, ha), -EINVAL);
	ck_assert_int_eq(vmm_map(fd, w, PG, 0, 0xdead), -ENOENT);
	m = (struct npu_dma_vmm_map){ .va = w, .size = PG, .handle = ha, .flags = 1 };
	ck_assert_int_eq(npu_raw_ioctl(fd, DRM_IOCTL_NPU_DMA_VMM_MAP, &m), -EINVAL);
	m.flags = 0;
	m.reserved[1] = 1;
	ck_assert_int_eq(npu_raw_ioctl(fd, DRM_IOCTL_NPU_DMA_VMM_MAP, &m), -EINVAL);
	/* Overlap. */
	ck_assert_int_eq(vmm_map(fd, w, 2 * PG, 0, ha), 0);
	ck_assert_int_eq(vmm_map(fd, w + PG, PG, 0, ha), -EEXIST);
	/* Unmap names a mapping's start only, never an allocation. */
	ck_assert_int_eq(vmm_unmap(fd, w + PG), -ENOENT);
	ck_assert_int_eq(vmm_unmap(fd, da), -ENOENT);
	/* Another file of the NPU has no such mapping, nor the handle. */
	other = npu_raw_open(npu);
	ck_assert_int_eq(vmm_unmap(other, w), -ENOENT);
	ck_assert_int_eq(npu_raw_alloc(other, PG, NPU_DMA_MEM_NORMAL_ONLY, &db, &hb), 0);
	ck_assert_int_eq(vmm_map(other, w, PG, 0, ha == hb ? hb + 1 : ha), -ENOENT);
	close(other);
	ck_assert_int_eq(vmm_unmap(fd, w), 0);
	close(fd);
}
END_TEST

/* The handle closes while mapped: the memory stays until the unmap. */
START_TEST(test_handle_closed_while_mapped)
{
	int npu = _i, fd;
	unsigned char *in = malloc(PG), *out = malloc(PG);
	struct npu_raw_queue q;
	struct npu_dma_info info;
	uint64_t da, w, free0;
	uint32_t ha;

	T_SKIP_UNLESS(npu < nr_npus, "no NPU %d", npu);
	w = window(npu) + 16 * PG;
	fd = npu_raw_open(npu);
	ck_assert_int_eq(npu_raw_queue_create(fd, 16, &q), 0);
	ck_assert_int_eq(npu_raw_info(fd, &info), 0);
	free0 = info.mem_free;
	ck_assert_int_eq(npu_raw_alloc(fd, PG, NPU_DMA_MEM_NORMAL_ONLY, &da, &ha), 0);
	ck_assert_int_eq(vmm_map(fd, w, PG, 0, ha), 0);
	ck_assert_int_eq(npu_raw_free(fd, ha), 0);
	ck_assert_int_eq(to_host(&q, out, da, 1), -EFAULT);
	pattern(in, PG, 9);
	ck_assert_int_eq(to_dev(&q, w, in, PG), 0);
	ck_assert_int_eq(to_host(&q, out, w, PG), 0);
	ck_assert_int_eq(memcmp(in, out, PG), 0);
	ck_assert_int_eq(npu_raw_info(fd, &info), 0);
	ck_assert_uint_lt(info.mem_free, free0);
	ck_assert_int_eq(vmm_unmap(fd, w), 0);
	ck_assert_int_eq(npu_raw_info(fd, &info), 0);
	ck_assert_uint_eq(info.mem_free, free0);
	npu_raw_queue_destroy(&q);
	close(fd);
	free(in);
	free(out);
}
END_TEST

/* Unmapped with copies queued: they complete, then the memory goes. */
START_TEST(test_unmap_with_copies_queued)
{
	int npu = nr_npus - 1, fd, i;
	uint64_t da, db, w = window(npu), seq = 0, len = 64 * 1024;
	struct npu_raw_queue q;
	uint32_t ha, hb;

	T_SKIP_UNLESS(is_sim(npu), "needs a sim NPU");
	fd = npu_raw_open(npu);
	ck_assert_int_eq(npu_raw_queue_create(fd, 64, &q), 0);
	ck_assert_int_eq(npu_raw_alloc(fd, len, NPU_DMA_MEM_NORMAL_ONLY, &da, &ha), 0);
	ck_assert_int_eq(npu_raw_alloc(fd, len, NPU_DMA_MEM_NORMAL_ONLY, &db, &hb), 0);
	ck_assert_int_eq(vmm_map(fd, w, len, 0, ha), 0);
	ck_assert_int_eq(npu_raw_free(fd, ha), 0);
	for (i = 0; i < 48; i++) {
		struct npu_dma_desc d = npu_raw_copy(db, w, len, 0);

		seq = npu_raw_push(&q, &d);
	}
	ck_assert_int_ge(npu_raw_submit(&q), 0);
	ck_assert_int_eq(vmm_unmap(fd, w), 0);
	ck_assert_int_eq(npu_raw_wait(&q, seq, 20000), 0);
	ck_assert_uint_eq(q.ctrl->error_count, 0);
	npu_raw_queue_destroy(&q);
	close(fd);
}
END_TEST

/* Another process imports a whole allocation as a handle and maps it. */
START_TEST(test_shared_handle)
{
	int npu = _i, fd, st;
	uint64_t n = pages_of(npu), da;
	unsigned char *in = malloc(n * PG);
	struct npu_dma_ipc_export x = { 0 };
	struct npu_raw_queue q;
	uint32_t ha;
	pid_t pid;

	T_SKIP_UNLESS(npu < nr_npus, "no NPU %d", npu);
	fd = npu_raw_open(npu);
	ck_assert_int_eq(npu_raw_queue_create(fd, 16, &q), 0);
	ck_assert_int_eq(npu_raw_alloc(fd, n * PG, NPU_DMA_MEM_NORMAL_ONLY, &da, &ha), 0);
	pattern(in, n * PG, 13);
	ck_assert_int_eq(to_dev(&q, da, in, n * PG), 0);
	x.dev_addr = da;
	x.size = n * PG;
	x.flags = NPU_DMA_IPC_F_NO_PID_CHECK;
	ck_assert_int_eq(npu_raw_ioctl(fd, DRM_IOCTL_NPU_DMA_IPC_EXPORT, &x), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid) {
		struct npu_dma_ipc_import m = { .key = { x.key[0], x.key[1] },
						.flags = NPU_DMA_IPC_IMPORT_F_HANDLE };
		unsigned char *out = malloc(n * PG);
		struct npu_raw_queue cq;
		uint64_t w = window(npu) + 3 * PG;
		int cfd = npu_raw_open(npu);

		if (cfd < 0 || npu_raw_queue_create(cfd, 16, &cq) ||
		    npu_raw_ioctl(cfd, DRM_IOCTL_NPU_DMA_IPC_IMPORT, &m) ||
		    m.dev_addr != da || !m.handle)
			_exit(1);
		/* Imported, the exporter's memory is named only where mapped. */
		if (vmm_map(cfd, w, n * PG, 0, m.handle) ||
		    to_host(&cq, out, w, n * PG) || memcmp(in, out, n * PG))
			_exit(2);
		pattern(out, n * PG, 14);
		if (to_dev(&cq, w, out, n * PG) || vmm_unmap(cfd, w))
			_exit(3);
		_exit(0);
	}
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert(WIFEXITED(st));
	ck_assert_int_eq(WEXITSTATUS(st), 0);
	pattern(in, n * PG, 14);
	{
		unsigned char *out = malloc(n * PG);

		ck_assert_int_eq(to_host(&q, out, da, n * PG), 0);
		ck_assert_int_eq(memcmp(in, out, n * PG), 0);
		free(out);
	}
	/* A window of part of an allocation is no handle. */
	{
		struct npu_dma_ipc_export y = { .dev_addr = da, .size = 1,
						.flags = NPU_DMA_IPC_F_NO_PID_CHECK };
		struct npu_dma_ipc_import m = { .flags = NPU_DMA_IPC_IMPORT_F_HANDLE };
		int other = npu_raw_open(npu);

		if (n > 1) {
			ck_assert_int_eq(npu_raw_ioctl(fd, DRM_IOCTL_NPU_DMA_IPC_EXPORT, &y), 0);
			m.key[0] = y.key[0];
			m.key[1] = y.key[1];
			ck_assert_int_eq(npu_raw_ioctl(other, DRM_IOCTL_NPU_DMA_IPC_IMPORT, &m),
					 -EINVAL);
		}
		close(other);
	}
	npu_raw_queue_destroy(&q);
	close(fd);
	free(in);
}
END_TEST

static Suite *vmm_suite(void)
{
	Suite *s = suite_create("vmm");
	TCase *tc = tcase_create("vmm");

	tcase_set_timeout(tc, 300);
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_loop_test(tc, test_span_two_allocations, 0, 3);
	tcase_add_test(tc, test_refusals);
	tcase_add_loop_test(tc, test_handle_closed_while_mapped, 0, 3);
	tcase_add_test(tc, test_unmap_with_copies_queued);
	tcase_add_loop_test(tc, test_shared_handle, 0, 3);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return t_run_suite(vmm_suite());
}
