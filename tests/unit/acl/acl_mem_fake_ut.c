// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of lib/acl_mem.c against a fake NPU: every allocation is a
 * GEM handle that aclrtFree closes (the fake counts the open ones), the
 * library's handle table under many allocations, errors of MEM_ALLOC and
 * of bad frees, synchronous copies and memsets through device memory, and
 * aclrtGetMemInfo's classes by page size (and an older driver's answer).
 */
#include <check.h>
#include <errno.h>
#include <stdlib.h>

#include "acl_fake.h"
#include "acl_internal.h"
#include "acl_ut.h"
#include "t_check.h"

static void setup(void)
{
	fake_add_index(0);
	set_device(0);
}

START_TEST(test_aclrtFree_closes_the_gem_handle)
{
	void *a = NULL, *b = NULL;

	ck_assert_int_eq(aclrtMalloc(&a, 4096, ACL_MEM_MALLOC_HUGE_FIRST),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclrtMalloc(&b, 100, ACL_MEM_MALLOC_NORMAL_ONLY),
			 ACL_SUCCESS);
	ck_assert_ptr_ne(a, b);
	ck_assert_uint_eq(fake_npu_handles(0), 2);
	ck_assert_int_eq(aclrtFree(a), ACL_SUCCESS);
	ck_assert_uint_eq(fake_npu_handles(0), 1);
	ck_assert_int_eq(aclrtFreeWithDevSync(b), ACL_SUCCESS);
	ck_assert_uint_eq(fake_npu_handles(0), 0);
	ck_assert_uint_eq(fake_kmd_calls(FAKE_GEM_CLOSE), 2);
}
END_TEST

START_TEST(test_bad_frees_close_nothing)
{
	void *a = NULL;

	ck_assert_int_eq(aclrtMalloc(&a, 8192, ACL_MEM_MALLOC_NORMAL_ONLY),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree((char *)a + 64), ACL_ERROR_RT_PARAM_INVALID);
	msg_has("is not the start of an allocation");
	ck_assert_uint_eq(fake_npu_handles(0), 1);
	ck_assert_int_eq(aclrtFree(a), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(a), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtFree(&a), ACL_ERROR_RT_PARAM_INVALID);
	msg_has("is not device memory");
	ck_assert_uint_eq(fake_kmd_calls(FAKE_GEM_CLOSE), 1);
}
END_TEST

/* Enough allocations to grow the table, freed in a scrambled order. */
START_TEST(test_many_allocations)
{
	enum { N = 300 };
	void *p[N];
	int i, k;

	for (i = 0; i < N; i++)
		ck_assert_int_eq(aclrtMalloc(&p[i], 4096,
					     ACL_MEM_MALLOC_NORMAL_ONLY),
				 ACL_SUCCESS);
	ck_assert_uint_eq(fake_npu_handles(0), N);
	for (i = 0; i < N; i++) {
		k = (i * 7) % N;	/* 7 and 300 are coprime: each once */
		ck_assert_msg(aclrtFree(p[k]) == ACL_SUCCESS, "free #%d: %s", k,
			      aclGetRecentErrMsg());
		ck_assert_uint_eq(fake_npu_handles(0), (unsigned int)(N - i - 1));
	}
}
END_TEST

/* Entry @i of the probe-run test: what it was charged tells it apart. */
static struct acl_mem_entry probe_entry(uint64_t base, int i)
{
	struct acl_mem_entry e = {
		.addr = base + (uint64_t)i * 4096,
		.size = 4096 * ((uint64_t)i + 1),
		.handle = (uint32_t)i + 1,
		.use = (uint32_t)i % ACL_MEM_USE_NR,
	};

	return e;
}

/* Remove entry @i: its handle, size and component come back. */
static void probe_remove(struct acl_mem_table *t, uint64_t base, int i)
{
	struct acl_mem_entry want = probe_entry(base, i), gone = { 0 };

	ck_assert_uint_eq(acl_mem_remove(t, want.addr, &gone), want.handle);
	ck_assert_uint_eq(gone.addr, want.addr);
	ck_assert_uint_eq(gone.size, want.size);
	ck_assert_uint_eq(gone.use, want.use);
}

START_TEST(test_mem_table_probe_runs)
{
	struct acl_mem_table t = { 0 };
	uint64_t base = 1ULL << 36;
	struct acl_mem_entry e;
	int i;

	/* Many addresses, removals in the middle of probe runs. */
	for (i = 0; i < 1000; i++) {
		e = probe_entry(base, i);
		ck_assert_int_eq(acl_mem_insert(&t, &e), 0);
	}
	e = probe_entry(base, 0);
	e.handle = 5000;
	ck_assert_int_eq(acl_mem_insert(&t, &e), -EEXIST);
	e.addr = base + (1ULL << 30);
	e.handle = 0;
	ck_assert_int_eq(acl_mem_insert(&t, &e), -EINVAL);
	for (i = 0; i < 1000; i += 2)
		probe_remove(&t, base, i);
	for (i = 1; i < 1000; i += 2)
		probe_remove(&t, base, i);
	ck_assert_uint_eq(t.n, 0);
	ck_assert_uint_eq(acl_mem_remove(&t, base, NULL), 0);
	acl_mem_table_free(&t);
}
END_TEST

START_TEST(test_mem_alloc_errors)
{
	void *p = NULL;

	fake_kmd_fail_next(FAKE_MEM_ALLOC, -ENOMEM);
	ck_assert_int_eq(aclrtMalloc(&p, 1000, ACL_MEM_MALLOC_HUGE_FIRST),
			 ACL_ERROR_RT_MEMORY_ALLOCATION);
	msg_has("size=1000 policy=0: out of memory on device 0");
	/* Larger than the fake's 16 MiB: the driver's -ENOMEM. */
	ck_assert_int_eq(aclrtMalloc(&p, 32 << 20, ACL_MEM_MALLOC_HUGE_FIRST),
			 ACL_ERROR_RT_MEMORY_ALLOCATION);
	fake_kmd_fail_next(FAKE_MEM_ALLOC, -EINVAL);
	ck_assert_int_eq(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST),
			 ACL_ERROR_RT_PARAM_INVALID);
	msg_has("DRM_IOCTL_NPU_DMA_MEM_ALLOC failed: Invalid argument");
	ck_assert_uint_eq(fake_npu_handles(0), 0);
}
END_TEST

START_TEST(test_reset_frees_everything)
{
	void *p[3];
	int i;

	for (i = 0; i < 3; i++)
		ck_assert_int_eq(aclrtMalloc(&p[i], 4096,
					     ACL_MEM_MALLOC_HUGE_FIRST),
				 ACL_SUCCESS);
	ck_assert_int_eq(aclrtResetDevice(0), ACL_SUCCESS);
	ck_assert_uint_eq(fake_npu_handles(0), 0);	/* the file took them */
	ck_assert_int_eq(aclrtFree(p[0]), ACL_ERROR_RT_PARAM_INVALID);
	msg_has("device 0 was reset");
	/* Opened again, the old addresses are no allocations of the table. */
	set_device(0);
	ck_assert_int_eq(aclrtMalloc(&p[1], 4096, ACL_MEM_MALLOC_HUGE_FIRST),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(p[2]), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_uint_eq(fake_npu_handles(0), 1);
}
END_TEST

START_TEST(test_mem_info_follows_allocations)
{
	size_t free0 = 0, total = 0, free1 = 0;
	void *p = NULL;

	ck_assert_int_eq(aclrtGetMemInfo(ACL_HBM_MEM, &free0, &total),
			 ACL_SUCCESS);
	ck_assert_uint_eq(total, 16 << 20);
	ck_assert_int_eq(aclrtMalloc(&p, 1 << 20, ACL_MEM_MALLOC_NORMAL_ONLY),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclrtGetMemInfo(ACL_HBM_MEM, &free1, &total),
			 ACL_SUCCESS);
	ck_assert_uint_ge(free0 - free1, 1 << 20);
}
END_TEST

/* The classes by page size, from GET_INFO; an older driver's: plain. */
START_TEST(test_mem_info_classes)
{
	const uint64_t size = (1ULL << 30) + (2 << 20) + 4096;
	struct fake_npu_cfg c = { .index = 1, .mem_size = size,
				  .free_huge = 6 << 20, .free_1g = 1ULL << 30 };
	struct fake_npu_cfg old = { .index = 2, .info_size = 136 };
	size_t f = 0, t = 0;

	/* Its own test case: the NPUs are there before the library looks. */
	fake_add_index(0);
	ck_assert_int_eq(fake_npu_add(&c), 0);
	ck_assert_int_eq(fake_npu_add(&old), 0);
	set_device(1);
	ck_assert_int_eq(aclrtGetMemInfo(ACL_HBM_MEM_HUGE, &f, &t), ACL_SUCCESS);
	ck_assert_uint_eq(f, 6 << 20);
	ck_assert_uint_eq(t, size - 4096);
	ck_assert_int_eq(aclrtGetMemInfo(ACL_MEM_P2P_HUGE1G, &f, &t), ACL_SUCCESS);
	ck_assert_uint_eq(f, 1ULL << 30);
	ck_assert_uint_eq(t, 1ULL << 30);
	ck_assert_int_eq(aclrtGetMemInfo(ACL_DDR_MEM_NORMAL, &f, &t), ACL_SUCCESS);
	ck_assert_uint_eq(f, size);
	ck_assert_uint_eq(t, size);
	ck_assert_int_eq(aclrtGetMemInfo((aclrtMemAttr)18, &f, &t),
			 ACL_ERROR_INVALID_PARAM);
	set_device(2);
	ck_assert_int_eq(aclrtGetMemInfo(ACL_HBM_MEM_HUGE, &f, &t), ACL_SUCCESS);
	ck_assert_uint_eq(f, 16 << 20);
	ck_assert_uint_eq(t, 16 << 20);
}
END_TEST

START_TEST(test_sync_copies_and_memset)
{
	enum { N = 3 * 4096 + 17 };
	char *src = malloc(N), *dst = malloc(N);
	void *dev = NULL;

	ck_assert_ptr_nonnull(src);
	ck_assert_ptr_nonnull(dst);
	fill_pattern(src, N, 1);
	ck_assert_int_eq(aclrtMalloc(&dev, N, ACL_MEM_MALLOC_HUGE_FIRST),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpy(dev, N, src, N, ACL_MEMCPY_HOST_TO_DEVICE),
			 ACL_SUCCESS);
	memset(dst, 0, N);
	ck_assert_int_eq(aclrtMemcpy(dst, N, dev, N, ACL_MEMCPY_DEVICE_TO_HOST),
			 ACL_SUCCESS);
	ck_assert_pattern(dst, N, 1);
	ck_assert_int_eq(aclrtMemset(dev, N, 0x5a, 4096), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpy(dst, N, dev, N, ACL_MEMCPY_DEFAULT),
			 ACL_SUCCESS);
	ck_assert_int_eq(dst[0], 0x5a);
	ck_assert_int_eq(dst[4095], 0x5a);
	ck_assert_int_eq((unsigned char)dst[4096], (unsigned char)src[4096]);
	ck_assert_int_eq(aclrtFree(dev), ACL_SUCCESS);
	free(src);
	free(dst);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("acl_mem_fake");
	TCase *tc = tcase_create("mem");

	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, test_aclrtFree_closes_the_gem_handle);
	tcase_add_test(tc, test_bad_frees_close_nothing);
	tcase_add_test(tc, test_many_allocations);
	tcase_add_test(tc, test_mem_table_probe_runs);
	tcase_add_test(tc, test_mem_alloc_errors);
	tcase_add_test(tc, test_reset_frees_everything);
	tcase_add_test(tc, test_mem_info_follows_allocations);
	tcase_add_test(tc, test_sync_copies_and_memset);
	suite_add_tcase(s, tc);
	tc = tcase_create("mem_classes");
	tcase_add_test(tc, test_mem_info_classes);
	suite_add_tcase(s, tc);
	return t_run_suite(s);
}
