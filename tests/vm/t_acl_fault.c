// SPDX-License-Identifier: GPL-2.0-only
/*
 * VM test: resource exhaustion seen through libacl. RLIMIT_MEMLOCK of an
 * unprivileged process runs out: aclrtHostRegister and aclrtMallocHost
 * fail cleanly with ACL_ERROR_RT_MEMORY_ALLOCATION and a message, and
 * work again once memory is given back. Device memory runs out on each
 * backend: aclrtMalloc fails with ACL_ERROR_RT_MEMORY_ALLOCATION (207001)
 * and aclrtGetMemInfo shows everything back after aclrtFree. With the
 * driver's pageable pin budget cut to 1 MiB (queue_pinned_mb), 8 MiB
 * pageable copies, synchronous and asynchronous, still arrive byte for
 * byte: the library splits them below the driver's max_pin_len and rings
 * again while the driver holds the rest back (-EAGAIN).
 */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "t_acl.h"

#define MAX_NPUS	8
#define UNPRIV		65534

static struct npu_node nodes[MAX_NPUS];
static struct stat node_st[MAX_NPUS];
static int nr_nodes;

/* The unprivileged test needs the NPUs' DRM nodes; put them back afterwards. */
static void nodes_open_up(void)
{
	for (nr_nodes = 0; nr_nodes < MAX_NPUS; nr_nodes++) {
		if (!t_npu_find(nr_nodes, &nodes[nr_nodes]) ||
		    stat(nodes[nr_nodes].node, &node_st[nr_nodes]))
			break;
		if (chmod(nodes[nr_nodes].node, 0666))
			perror(nodes[nr_nodes].node);
	}
}

static void nodes_restore(void)
{
	int i;

	for (i = 0; i < nr_nodes; i++)
		if (chmod(nodes[i].node, node_st[i].st_mode & 07777))
			perror(nodes[i].node);
}

START_TEST(test_memlock_exhaustion)
{
	struct rlimit lim = { 64 << 10, 64 << 10 };
	size_t len = 256 << 10;
	uint8_t *buf = mmap(NULL, len, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	void *dev, *host = NULL;
	int id;

	ck_assert_ptr_ne(buf, MAP_FAILED);
	ck_assert_int_eq(setrlimit(RLIMIT_MEMLOCK, &lim), 0);
	ck_assert_int_eq(setresgid(UNPRIV, UNPRIV, UNPRIV), 0);
	ck_assert_int_eq(setresuid(UNPRIV, UNPRIV, UNPRIV), 0);
	T_ACL_OK(aclInit(NULL));
	if (!t_acl_use_backend(_i, &id)) {
		T_ACL_OK(aclFinalize());
		return;
	}
	/* 32 KiB fit; 64 KiB more do not: a clean error and a message. */
	T_ACL_OK(aclrtHostRegister(buf, 32 << 10, ACL_HOST_REGISTER_MAPPED, &dev));
	T_ACL_EQ(aclrtHostRegister(buf + (64 << 10), 64 << 10, ACL_HOST_REGISTER_MAPPED,
				   &dev), ACL_ERROR_RT_MEMORY_ALLOCATION);
	ck_assert_ptr_nonnull(aclGetRecentErrMsg());
	T_ACL_EQ(aclrtMallocHost(&host, 1 << 20), ACL_ERROR_RT_MEMORY_ALLOCATION);
	ck_assert_ptr_nonnull(aclGetRecentErrMsg());
	/* Given back, the same requests (within the limit) work. */
	T_ACL_OK(aclrtHostUnregister(buf));
	T_ACL_OK(aclrtHostRegister(buf + (64 << 10), 64 << 10, ACL_HOST_REGISTER_MAPPED, &dev));
	T_ACL_OK(aclrtHostUnregister(buf + (64 << 10)));
	T_ACL_OK(aclrtMallocHost(&host, 32 << 10));
	T_ACL_OK(aclrtFreeHost(host));
	T_ACL_OK(aclrtResetDevice(id));
	T_ACL_OK(aclFinalize());
}
END_TEST

START_TEST(test_device_memory_exhaustion)
{
	size_t free0, total, free1, chunk;
	void *p[16];
	int id, n = 0, i;
	aclError err;

	T_ACL_OK(aclInit(NULL));
	if (!t_acl_use_backend(_i, &id)) {
		T_ACL_OK(aclFinalize());
		return;
	}
	T_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free0, &total));
	chunk = total / 8;
	while ((err = aclrtMalloc(&p[n], chunk, ACL_MEM_MALLOC_NORMAL_ONLY)) == ACL_SUCCESS)
		ck_assert_int_lt(++n, 16);
	ck_assert_int_eq(err, ACL_ERROR_RT_MEMORY_ALLOCATION);
	ck_assert_int_eq(err, 207001);
	t_acl_msg_has("out of memory");
	ck_assert_int_ge(n, 7);
	ck_assert_int_le(n, 8);
	/* A small one still fails while full, and works once a chunk is back. */
	T_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free1, &total));
	if (free1 < 4096)
		T_ACL_EQ(aclrtMalloc(&p[n], 4096, ACL_MEM_MALLOC_NORMAL_ONLY),
			 ACL_ERROR_RT_MEMORY_ALLOCATION);
	T_ACL_OK(aclrtFree(p[--n]));
	T_ACL_OK(aclrtMalloc(&p[n++], 4096, ACL_MEM_MALLOC_NORMAL_ONLY));
	for (i = 0; i < n; i++)
		T_ACL_OK(aclrtFree(p[i]));
	T_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free1, &total));
	ck_assert_uint_eq(free1, free0);
	T_ACL_OK(aclrtResetDevice(id));
	T_ACL_OK(aclFinalize());
}
END_TEST

#define PIN_PARAM	"/sys/module/npu_dma/parameters/queue_pinned_mb"
#define PAGEABLE_LEN	(8u << 20)

static void pin_budget_small(void)
{
	if (t_write_file(PIN_PARAM, "1"))
		perror(PIN_PARAM);
}

static void pin_budget_default(void)
{
	t_write_file(PIN_PARAM, "1024");
}

START_TEST(test_pageable_over_pin_budget)
{
	uint8_t *src, *back;
	aclrtStream s;
	void *dev;
	size_t i;
	int id;

	T_ACL_OK(aclInit(NULL));
	if (!t_acl_use_backend(1, &id)) {
		T_ACL_OK(aclFinalize());
		return;
	}
	src = malloc(PAGEABLE_LEN);
	back = malloc(PAGEABLE_LEN);
	ck_assert(src && back);
	for (i = 0; i < PAGEABLE_LEN; i++)
		src[i] = (uint8_t)(i * 13 + (i >> 20));
	T_ACL_OK(aclrtMalloc(&dev, PAGEABLE_LEN, ACL_MEM_MALLOC_HUGE_FIRST));
	T_ACL_OK(aclrtCreateStream(&s));
	T_ACL_OK(aclrtMemcpy(dev, PAGEABLE_LEN, src, PAGEABLE_LEN,
			     ACL_MEMCPY_HOST_TO_DEVICE));
	memset(back, 0, PAGEABLE_LEN);
	T_ACL_OK(aclrtMemcpyAsync(back, PAGEABLE_LEN, dev, PAGEABLE_LEN,
				  ACL_MEMCPY_DEVICE_TO_HOST, s));
	T_ACL_OK(aclrtSynchronizeStream(s));
	ck_assert_int_eq(memcmp(src, back, PAGEABLE_LEN), 0);
	/* And the other way round: async in, sync out. */
	for (i = 0; i < PAGEABLE_LEN; i++)
		src[i] = (uint8_t)~src[i];
	T_ACL_OK(aclrtMemcpyAsync(dev, PAGEABLE_LEN, src, PAGEABLE_LEN,
				  ACL_MEMCPY_HOST_TO_DEVICE, s));
	T_ACL_OK(aclrtSynchronizeStream(s));
	T_ACL_OK(aclrtMemcpy(back, PAGEABLE_LEN, dev, PAGEABLE_LEN,
			     ACL_MEMCPY_DEVICE_TO_HOST));
	ck_assert_int_eq(memcmp(src, back, PAGEABLE_LEN), 0);
	T_ACL_OK(aclrtDestroyStream(s));
	T_ACL_OK(aclrtFree(dev));
	free(src);
	free(back);
	T_ACL_OK(aclrtResetDevice(id));
	T_ACL_OK(aclFinalize());
}
END_TEST

int main(void)
{
	Suite *s = suite_create("t_acl_fault");
	TCase *tm = tcase_create("memlock");
	TCase *td = tcase_create("devmem");
	TCase *tp;

	if (geteuid() != 0 || !t_npu_find(0, NULL))
		return T_EXIT_SKIP;
	tcase_set_timeout(tm, 120);
	tcase_add_unchecked_fixture(tm, nodes_open_up, nodes_restore);
	tcase_add_loop_test(tm, test_memlock_exhaustion, 0, 2);
	suite_add_tcase(s, tm);
	tcase_set_timeout(td, 120);
	tcase_add_loop_test(td, test_device_memory_exhaustion, 0, 2);
	suite_add_tcase(s, td);
	tp = tcase_create("pin budget");
	tcase_set_timeout(tp, 120);
	tcase_add_unchecked_fixture(tp, pin_budget_small, pin_budget_default);
	tcase_add_test(tp, test_pageable_over_pin_budget);
	suite_add_tcase(s, tp);
	return t_run_suite(s);
}
