// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of lib/acl_mem.c's request building: CANN's size rounding
 * and padding, and the policy -> driver policy/flags mapping.
 */
#include <check.h>

#include "acl_internal.h"
#include "t_check.h"

START_TEST(test_acl_malloc_params_rounding)
{
	struct acl_alloc_req r;

	ck_assert_int_eq(acl_malloc_params(1, 0, true, false, &r), 0);
	ck_assert_uint_eq(r.bytes, 64);		/* 32-rounded + 32 pad */
	ck_assert_int_eq(acl_malloc_params(32, 0, true, false, &r), 0);
	ck_assert_uint_eq(r.bytes, 64);
	ck_assert_int_eq(acl_malloc_params(33, 0, false, false, &r), 0);
	ck_assert_uint_eq(r.bytes, 64);		/* Align32: no pad */
	ck_assert_int_eq(acl_malloc_params(0, 0, true, false, &r),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(acl_malloc_params(SIZE_MAX, 0, true, false, &r),
			 ACL_ERROR_INVALID_PARAM);
}
END_TEST

START_TEST(test_acl_malloc_params_policies)
{
	static const struct {
		uint32_t acl, npu, flags;
	} map[] = {
		{ ACL_MEM_MALLOC_HUGE_FIRST, NPU_DMA_MEM_HUGE_FIRST, 0 },
		{ ACL_MEM_MALLOC_HUGE_ONLY, NPU_DMA_MEM_HUGE_ONLY, 0 },
		{ ACL_MEM_MALLOC_NORMAL_ONLY, NPU_DMA_MEM_NORMAL_ONLY, 0 },
		{ ACL_MEM_MALLOC_HUGE_FIRST_P2P, NPU_DMA_MEM_HUGE_FIRST, NPU_DMA_MEM_F_P2P },
		{ ACL_MEM_MALLOC_HUGE_ONLY_P2P, NPU_DMA_MEM_HUGE_ONLY, NPU_DMA_MEM_F_P2P },
		{ ACL_MEM_MALLOC_NORMAL_ONLY_P2P, NPU_DMA_MEM_NORMAL_ONLY, NPU_DMA_MEM_F_P2P },
		{ ACL_MEM_MALLOC_HUGE1G_ONLY, NPU_DMA_MEM_HUGE_ONLY, 0 },
		{ ACL_MEM_MALLOC_HUGE1G_ONLY_P2P, NPU_DMA_MEM_HUGE_ONLY, NPU_DMA_MEM_F_P2P },
		{ 0x55, NPU_DMA_MEM_HUGE_FIRST, 0 },	/* unknown: default */
	};
	struct acl_alloc_req r;
	size_t i;

	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++) {
		ck_assert_int_eq(acl_malloc_params(100, map[i].acl, true, false,
						   &r), 0);
		ck_assert_uint_eq(r.policy, map[i].npu);
		ck_assert_uint_eq(r.flags, map[i].flags);
	}
}
END_TEST

START_TEST(test_acl_malloc_params_huge1g_and_cfg_bits)
{
	struct acl_alloc_req r;

	ck_assert_int_eq(acl_malloc_params(10, ACL_MEM_MALLOC_HUGE1G_ONLY, true,
					   false, &r), 0);
	ck_assert_uint_eq(r.bytes, 1ULL << 30);
	ck_assert_uint_eq(r.align, 1ULL << 30);
	/* With a config, bandwidth/read-only bits ride along the policy. */
	ck_assert_int_eq(acl_malloc_params(10, ACL_MEM_MALLOC_NORMAL_ONLY_P2P |
					   ACL_MEM_TYPE_HIGH_BAND_WIDTH, true,
					   true, &r), 0);
	ck_assert_uint_eq(r.policy, NPU_DMA_MEM_NORMAL_ONLY);
	ck_assert_uint_eq(r.flags, NPU_DMA_MEM_F_P2P);
	/* Without, an OR-ed policy is unknown: the default. */
	ck_assert_int_eq(acl_malloc_params(10, ACL_MEM_MALLOC_NORMAL_ONLY |
					   ACL_MEM_TYPE_HIGH_BAND_WIDTH, true,
					   false, &r), 0);
	ck_assert_uint_eq(r.policy, NPU_DMA_MEM_HUGE_FIRST);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("acl_mem");
	TCase *tc = tcase_create("mem");

	tcase_add_test(tc, test_acl_malloc_params_rounding);
	tcase_add_test(tc, test_acl_malloc_params_policies);
	tcase_add_test(tc, test_acl_malloc_params_huge1g_and_cfg_bits);
	suite_add_tcase(s, tc);
	return t_run_suite(s);
}
