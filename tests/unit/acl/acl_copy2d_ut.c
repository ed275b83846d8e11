// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of aclrtMemcpy2d(Async)'s checks without an NPU (ACL_API.md
 * 4.9): zero width or height succeeds first, then the acl edge (100000),
 * then the runtime's limits (107000), then the need for a context.
 */
#include <stdint.h>

#include "acl_ut.h"
#include "t_check.h"

#define H2D ACL_MEMCPY_HOST_TO_DEVICE

START_TEST(test_aclrtMemcpy2d_zero_extent_succeeds)
{
	ck_assert_int_eq(aclrtMemcpy2d(NULL, 0, NULL, 0, 0, 5, 99), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpy2d(NULL, 0, NULL, 0, 5, 0, 99), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpy2dAsync(NULL, 0, NULL, 0, 0, 0, 99, NULL),
			 ACL_SUCCESS);
}
END_TEST

START_TEST(test_aclrtMemcpy2d_edge_checks)
{
	char a[64] = { 0 }, b[64] = { 0 };

	ck_assert_int_eq(aclrtMemcpy2d(NULL, 8, b, 8, 8, 2, H2D),
			 ACL_ERROR_INVALID_PARAM);
	msg_has("neither may be NULL");
	ck_assert_int_eq(aclrtMemcpy2d(a, 8, b, 7, 8, 2, H2D),
			 ACL_ERROR_INVALID_PARAM);
	msg_has("width=8 exceeds spitch=7 or dpitch=8");
	ck_assert_int_eq(aclrtMemcpy2dAsync(a, 0, b, 8, 8, 2, H2D, NULL),
			 ACL_ERROR_INVALID_PARAM);
	msg_has("dpitch=0");
	ck_assert_int_eq(aclrtMemcpy2d(a, 8, b, 8, 8, 2, ACL_MEMCPY_HOST_TO_HOST),
			 ACL_ERROR_INVALID_PARAM);
	msg_has("not allowed for 2-D copies");
	ck_assert_int_eq(aclrtMemcpy2d(a, 8, b, 8, 8, 2,
				       ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemcpy2dAsync(a, 8, b, 8, 8, 2,
					    ACL_MEMCPY_INNER_DEVICE_TO_DEVICE,
					    NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemcpy2dAsync(a, 8, b, 8, 8, 2,
					    ACL_MEMCPY_INTER_DEVICE_TO_DEVICE,
					    NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemcpy2d(a, 8, b, 8, 8, 2, (aclrtMemcpyKind)-1),
			 ACL_ERROR_INVALID_PARAM);
	msg_has("kind=-1");
}
END_TEST

START_TEST(test_aclrtMemcpy2d_limits)
{
	char a[64] = { 0 }, b[64] = { 0 };

	ck_assert_int_eq(aclrtMemcpy2d(a, 8, b, 8, 8, 5242881, H2D),
			 ACL_ERROR_RT_PARAM_INVALID);
	msg_has("height=5242881 exceeds 5242880");
	ck_assert_int_eq(aclrtMemcpy2dAsync(a, 5000001, b, 5000001, 5000001, 1,
					    H2D, NULL),
			 ACL_ERROR_RT_PARAM_INVALID);
	msg_has("width=5000001 exceeds 5000000");
	/* At the limits: only the missing device stops them. */
	ck_assert_int_eq(aclrtMemcpy2d(a, 5000000, b, 5000000, 5000000, 5242880,
				       H2D), ACL_ERROR_RT_CONTEXT_NULL);
	ck_assert_int_eq(aclrtMemcpy2dAsync(a, 8, b, 8, 8, 2,
					    ACL_MEMCPY_DEFAULT, NULL),
			 ACL_ERROR_RT_CONTEXT_NULL);
	/* The sync call's D2D refusal comes after the context check. */
	ck_assert_int_eq(aclrtMemcpy2d(a, 8, b, 8, 8, 2,
				       ACL_MEMCPY_DEVICE_TO_DEVICE),
			 ACL_ERROR_RT_CONTEXT_NULL);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("acl_copy2d");
	TCase *tc = tcase_create("edge");

	tcase_add_test(tc, test_aclrtMemcpy2d_zero_extent_succeeds);
	tcase_add_test(tc, test_aclrtMemcpy2d_edge_checks);
	tcase_add_test(tc, test_aclrtMemcpy2d_limits);
	suite_add_tcase(s, tc);
	return t_run_suite(s);
}
