// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of aclrtMemsetD32(Async)'s checks without an NPU (ACL_API.md
 * 4.12): N == 0 succeeds first; NULL, misalignment, a memSize too small
 * and memory that is not acl memory are all 100000.
 */
#include <stdint.h>

#include "acl_ut.h"
#include "t_check.h"

START_TEST(test_aclrtMemsetD32_checks)
{
	uint32_t w[4] = { 0 };
	char *c = (char *)w;

	ck_assert_int_eq(aclrtMemsetD32(NULL, 0, 1, 0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemsetD32Async(NULL, 0, 1, 0, NULL), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemsetD32(NULL, 16, 1, 4), ACL_ERROR_INVALID_PARAM);
	msg_has("ptr is NULL");
	ck_assert_int_eq(aclrtMemsetD32(c + 1, 12, 1, 2), ACL_ERROR_INVALID_PARAM);
	msg_has("not 4-byte aligned");
	ck_assert_int_eq(aclrtMemsetD32(w, 15, 1, 4), ACL_ERROR_INVALID_PARAM);
	msg_has("N=4 words do not fit memSize=15");
	ck_assert_int_eq(aclrtMemsetD32Async(w, SIZE_MAX, 1, SIZE_MAX / 2, NULL),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemsetD32(w, 16, 1, 4), ACL_ERROR_INVALID_PARAM);
	msg_has("neither aclrtMalloc nor aclrtMallocHost memory");
	ck_assert_int_eq(aclrtMemsetD32Async(w, 16, 1, 4, NULL),
			 ACL_ERROR_INVALID_PARAM);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("acl_fill");
	TCase *tc = tcase_create("edge");

	tcase_add_test(tc, test_aclrtMemsetD32_checks);
	suite_add_tcase(s, tc);
	return t_run_suite(s);
}
