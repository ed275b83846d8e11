// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of lib/acl_error.c: errno mapping, the per-thread messages
 * of aclGetRecentErrMsg() and the last error.
 */
#include <check.h>
#include <errno.h>
#include <pthread.h>
#include <string.h>

#include "acl_internal.h"
#include "t_check.h"

START_TEST(test_acl_errno_to_acl_mapping)
{
	ck_assert_int_eq(acl_errno_to_acl(0), ACL_SUCCESS);
	ck_assert_int_eq(acl_errno_to_acl(-EINVAL), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(acl_errno_to_acl(-EFAULT), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(acl_errno_to_acl(-ENOMEM), ACL_ERROR_RT_MEMORY_ALLOCATION);
	ck_assert_int_eq(acl_errno_to_acl(-ETIMEDOUT), ACL_ERROR_RT_TIMEOUT);
	ck_assert_int_eq(acl_errno_to_acl(-EIO), ACL_ERROR_RT_SYS_DMA);
	ck_assert_int_eq(acl_errno_to_acl(-ENODEV), ACL_ERROR_RT_NO_DEVICE);
	ck_assert_int_eq(acl_errno_to_acl(-EBUSY), ACL_ERROR_RT_NO_STREAM_RESOURCE);
	ck_assert_int_eq(acl_errno_to_acl(-EPERM), ACL_ERROR_RT_NO_PERMISSION);
	ck_assert_int_eq(acl_errno_to_acl(-EEXIST),
			 ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED);
	ck_assert_int_eq(acl_errno_to_acl(-E2BIG), ACL_ERROR_RT_DRV_INTERNAL_ERROR);
}
END_TEST

START_TEST(test_acl_err_message_names_api_and_code)
{
	const char *m;

	acl_tls.api = "aclrtMemcpy";
	ck_assert_int_eq(acl_err(ACL_ERROR_RT_PARAM_INVALID, "count=%d", 5),
			 ACL_ERROR_RT_PARAM_INVALID);
	m = aclGetRecentErrMsg();
	ck_assert_ptr_nonnull(m);
	ck_assert_str_eq(m, "aclrtMemcpy: count=5 (ACL_ERROR_RT_PARAM_INVALID 107000)");
	ck_assert_ptr_null(aclGetRecentErrMsg());
}
END_TEST

START_TEST(test_acl_err_newest_first)
{
	const char *m;

	acl_tls.api = "x";
	acl_err(ACL_ERROR_INVALID_PARAM, "first");
	acl_err(ACL_ERROR_INVALID_PARAM, "second");
	m = aclGetRecentErrMsg();
	ck_assert_ptr_nonnull(strstr(m, "second"));
	ck_assert(strstr(m, "second") < strstr(m, "first"));
}
END_TEST

START_TEST(test_acl_err_clips_long_messages)
{
	char big[3 * ACL_MSG_LEN];
	int i;

	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	for (i = 0; i < 5; i++)
		acl_err(ACL_ERROR_INVALID_PARAM, "%s", big);
	ck_assert_uint_lt(strlen(aclGetRecentErrMsg()), ACL_MSG_LEN);
}
END_TEST

START_TEST(test_last_error_skips_invalid_param)
{
	acl_err(ACL_ERROR_INVALID_PARAM, "edge");
	ck_assert_int_eq(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL), 0);
	acl_err(ACL_ERROR_RT_CONTEXT_NULL, "deeper");
	ck_assert_int_eq(aclrtPeekAtLastError(ACL_RT_THREAD_LEVEL),
			 ACL_ERROR_RT_CONTEXT_NULL);
	ck_assert_int_eq(aclrtGetLastError(ACL_RT_THREAD_LEVEL),
			 ACL_ERROR_RT_CONTEXT_NULL);
	ck_assert_int_eq(aclrtGetLastError(ACL_RT_THREAD_LEVEL), 0);
	ck_assert_int_eq(aclrtGetLastError((aclrtLastErrLevel)2),
			 ACL_ERROR_INVALID_PARAM);
}
END_TEST

static void *t_other_thread(void *arg)
{
	*(const char **)arg = aclGetRecentErrMsg();
	return NULL;
}

START_TEST(test_messages_are_per_thread)
{
	const char *seen = "unset";
	pthread_t t;

	acl_err(ACL_ERROR_RT_PARAM_INVALID, "mine");
	pthread_create(&t, NULL, t_other_thread, &seen);
	pthread_join(t, NULL);
	ck_assert_ptr_null(seen);
	ck_assert_ptr_nonnull(aclGetRecentErrMsg());
}
END_TEST

START_TEST(test_acl_check_timeout)
{
	ck_assert_int_eq(acl_check_timeout(-1, "t"), ACL_SUCCESS);
	ck_assert_int_eq(acl_check_timeout(1, "t"), ACL_SUCCESS);
	ck_assert_int_eq(acl_check_timeout(0, "t"), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(acl_check_timeout(-2, "t"), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_ptr_nonnull(strstr(aclGetRecentErrMsg(), "t=-2"));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("acl_error");
	TCase *tc = tcase_create("error");

	tcase_add_test(tc, test_acl_errno_to_acl_mapping);
	tcase_add_test(tc, test_acl_err_message_names_api_and_code);
	tcase_add_test(tc, test_acl_err_newest_first);
	tcase_add_test(tc, test_acl_err_clips_long_messages);
	tcase_add_test(tc, test_last_error_skips_invalid_param);
	tcase_add_test(tc, test_messages_are_per_thread);
	tcase_add_test(tc, test_acl_check_timeout);
	suite_add_tcase(s, tc);
	return t_run_suite(s);
}
