// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of the descriptor and offset copies' checks without an NPU
 * (ACL_API.md 4.11): only ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, the NULL
 * rules (aclrtMemcpyAsyncWithDesc refuses the default stream), the
 * alignment and size limits, and device memory only.
 */
#include <stdint.h>

#include "acl_ut.h"
#include "t_check.h"

#define INNER ACL_MEMCPY_INNER_DEVICE_TO_DEVICE
#define GIB4 (4ULL << 30)

START_TEST(test_aclrtGetMemcpyDescSize)
{
	size_t n = 0;

	ck_assert_int_eq(aclrtGetMemcpyDescSize(INNER, NULL),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtGetMemcpyDescSize((aclrtMemcpyKind)8, &n),
			 ACL_ERROR_INVALID_PARAM);
	msg_has("kind=8 is invalid");
	ck_assert_int_eq(aclrtGetMemcpyDescSize(ACL_MEMCPY_DEVICE_TO_DEVICE, &n),
			 ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	msg_has("INNER_DEVICE_TO_DEVICE only");
	ck_assert_int_eq(aclrtGetMemcpyDescSize(INNER, &n), ACL_SUCCESS);
	ck_assert_uint_eq(n, 32);
}
END_TEST

START_TEST(test_aclrtSetMemcpyDesc_checks)
{
	_Alignas(64) char d[64] = { 0 };
	char a[8] = { 0 }, b[8] = { 0 };

	ck_assert_int_eq(aclrtSetMemcpyDesc(NULL, INNER, a, b, 8, NULL),
			 ACL_ERROR_INVALID_PARAM);
	msg_has("desc=(nil)");
	ck_assert_int_eq(aclrtSetMemcpyDesc(d, INNER, a, b, 0, NULL),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtSetMemcpyDesc(d, INNER, a, b, 8, a),
			 ACL_ERROR_INVALID_PARAM);
	msg_has("config NULL");
	ck_assert_int_eq(aclrtSetMemcpyDesc(d, (aclrtMemcpyKind)9, a, b, 8, NULL),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtSetMemcpyDesc(d, ACL_MEMCPY_DEFAULT, a, b, 8, NULL),
			 ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	ck_assert_int_eq(aclrtSetMemcpyDesc(d, INNER, a, b, GIB4 + 1, NULL),
			 ACL_ERROR_RT_PARAM_INVALID);
	msg_has("exceeds 4 GiB");
	ck_assert_int_eq(aclrtSetMemcpyDesc(d + 8, INNER, a, b, 8, NULL),
			 ACL_ERROR_RT_PARAM_INVALID);
	msg_has("is not 64-byte aligned");
	ck_assert_int_eq(aclrtSetMemcpyDesc(d, INNER, a, b, 8, NULL),
			 ACL_ERROR_RT_PARAM_INVALID);
	msg_has("is not device memory");
}
END_TEST

START_TEST(test_aclrtMemcpyAsyncWithDesc_checks)
{
	uint64_t junk[16] = { 0 };	/* not a stream */
	_Alignas(64) char d[64] = { 0 };

	ck_assert_int_eq(aclrtMemcpyAsyncWithDesc(NULL, INNER, junk),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemcpyAsyncWithDesc(d, INNER, NULL),
			 ACL_ERROR_INVALID_PARAM);
	msg_has("no default stream");
	ck_assert_int_eq(aclrtMemcpyAsyncWithDesc(d, ACL_MEMCPY_HOST_TO_DEVICE,
						  junk),
			 ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	ck_assert_int_eq(aclrtMemcpyAsyncWithDesc(d, (aclrtMemcpyKind)8, junk),
			 ACL_ERROR_INVALID_PARAM);
	msg_has("kind=8 is invalid");
	ck_assert_int_eq(aclrtMemcpyAsyncWithDesc(d, INNER, junk),
			 ACL_ERROR_RT_INVALID_HANDLE);
}
END_TEST

START_TEST(test_aclrtMemcpyAsyncWithOffset_checks)
{
	void *dp = NULL;
	const void *sp = NULL;

	ck_assert_int_eq(aclrtMemcpyAsyncWithOffset(NULL, 0, 0, NULL, 0, 0, 0,
						    NULL), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpyAsyncWithOffset(NULL, 8, 0, &sp, 8, 0, INNER,
						    NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemcpyAsyncWithOffset(&dp, 8, 0, &sp, 8, 0,
						    ACL_MEMCPY_DEVICE_TO_DEVICE,
						    NULL), ACL_ERROR_RT_PARAM_INVALID);
	msg_has("offset copies are ACL_MEMCPY_INNER_DEVICE_TO_DEVICE only");
	ck_assert_int_eq(aclrtMemcpyAsyncWithOffset(&dp, SIZE_MAX, 0, &sp, 8,
						    0x1000000000000ULL, INNER,
						    NULL), ACL_ERROR_RT_PARAM_INVALID);
	msg_has("srcDataOffset=281474976710656");
	ck_assert_int_eq(aclrtMemcpyAsyncWithOffset(&dp, 8, 8, &sp, 1, 0, INNER,
						    NULL), ACL_ERROR_RT_PARAM_INVALID);
	msg_has("count=1 at dstDataOffset=8 does not fit destMax=8");
	ck_assert_int_eq(aclrtMemcpyAsyncWithOffset(&dp, 8, 4, &sp, 5, 0, INNER,
						    NULL), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtMemcpyAsyncWithOffset(&dp, SIZE_MAX, 0, &sp,
						    GIB4 + 1, 0, INNER, NULL),
			 ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtMemcpyAsyncWithOffset(&dp, 8, 4, &sp, 4, 0, INNER,
						    NULL), ACL_ERROR_RT_CONTEXT_NULL);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("acl_desc");
	TCase *tc = tcase_create("edge");

	tcase_add_test(tc, test_aclrtGetMemcpyDescSize);
	tcase_add_test(tc, test_aclrtSetMemcpyDesc_checks);
	tcase_add_test(tc, test_aclrtMemcpyAsyncWithDesc_checks);
	tcase_add_test(tc, test_aclrtMemcpyAsyncWithOffset_checks);
	suite_add_tcase(s, tc);
	return t_run_suite(s);
}
