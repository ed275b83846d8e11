// SPDX-License-Identifier: GPL-2.0-only
/*
 * The ABI tests' fixture (t_abi.h).
 */
#include <sys/mman.h>
#include <unistd.h>

#include "t_abi.h"
#include "t_vm.h"

struct t_abi_env e;

void *t_abi_map(int prot)
{
	uint8_t *p = mmap(NULL, BUF + 4096, prot,
			  MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);

	ck_assert_ptr_ne(p, MAP_FAILED);
	ck_assert_int_eq(munmap(p + BUF, 4096), 0);
	return p;
}

/* The sim NPU when there is one: validation does not depend on the engine. */
static int pick_npu(void)
{
	struct npu_dma_info info;
	int i, fd, last = 0;

	for (i = 0; (fd = npu_raw_open(i)) >= 0; i++) {
		ck_assert_int_eq(npu_raw_info(fd, &info), 0);
		close(fd);
		last = i;
		if (info.backend == NPU_DMA_BACKEND_SIM)
			return i;
	}
	return last;
}

void t_abi_setup(void)
{
	int npu = pick_npu();

	e.fd = npu_raw_open(npu);
	e.fd2 = npu_raw_open(npu);
	ck_assert_int_ge(e.fd, 0);
	ck_assert_int_ge(e.fd2, 0);
	ck_assert_int_eq(npu_raw_info(e.fd, &e.info), 0);
	ck_assert_int_eq(npu_raw_alloc(e.fd, BUF, NPU_DMA_MEM_NORMAL_ONLY, &e.dev,
				       &e.dev_h), 0);
	ck_assert_int_eq(npu_raw_alloc(e.fd, BUF, NPU_DMA_MEM_NORMAL_ONLY, &e.freed,
				       &e.freed_h), 0);
	ck_assert_int_eq(npu_raw_free(e.fd, e.freed_h), 0);
	ck_assert_int_eq(npu_raw_alloc(e.fd2, BUF, NPU_DMA_MEM_NORMAL_ONLY, &e.foreign,
				       &e.foreign_h), 0);
	e.host = t_abi_map(PROT_READ | PROT_WRITE);
	e.host_ro = t_abi_map(PROT_READ | PROT_WRITE);
	e.host_other = t_abi_map(PROT_READ | PROT_WRITE);
	e.unreg = t_abi_map(PROT_READ | PROT_WRITE);
	e.rdonly = t_abi_map(PROT_READ);
	ck_assert_int_eq(npu_raw_register(e.fd, e.host, BUF, 0), 0);
	ck_assert_int_eq(npu_raw_register(e.fd, e.host_ro, BUF, NPU_DMA_HOST_F_READONLY), 0);
	ck_assert_int_eq(npu_raw_register(e.fd2, e.host_other, BUF, 0), 0);
	ck_assert_int_eq(npu_raw_queue_create(e.fd, 16, &e.q), 0);
}

void t_abi_teardown(void)
{
	npu_raw_queue_destroy(&e.q);
	close(e.fd);
	close(e.fd2);
}
