// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of lib/acl_capture.c, lib/acl_callback.c and lib/acl_value.c
 * that need no NPU: the value comparisons, and the argument checks each
 * entry point makes before it looks for a device.
 */
#include <check.h>

#include "acl_internal.h"
#include "t_check.h"

START_TEST(test_acl_value_met_comparisons)
{
	/* GEQ is a wrap-around comparison, as CANN's (int64_t)(a - b) >= 0. */
	ck_assert(acl_value_met(5, 5, ACL_STREAM_WAIT_VALUE_GEQ));
	ck_assert(acl_value_met(6, 5, ACL_STREAM_WAIT_VALUE_GEQ));
	ck_assert(!acl_value_met(4, 5, ACL_STREAM_WAIT_VALUE_GEQ));
	ck_assert(acl_value_met(1, UINT64_MAX, ACL_STREAM_WAIT_VALUE_GEQ));
	ck_assert(acl_value_met(7, 7, ACL_STREAM_WAIT_VALUE_EQ));
	ck_assert(!acl_value_met(7, 8, ACL_STREAM_WAIT_VALUE_EQ));
	ck_assert(acl_value_met(6, 2, ACL_STREAM_WAIT_VALUE_AND));
	ck_assert(!acl_value_met(4, 2, ACL_STREAM_WAIT_VALUE_AND));
	ck_assert(acl_value_met(1, 2, ACL_STREAM_WAIT_VALUE_NOR));
	ck_assert(!acl_value_met(UINT64_MAX, 0, ACL_STREAM_WAIT_VALUE_NOR));
	ck_assert(!acl_value_met(UINT64_MAX ^ 1, 1, ACL_STREAM_WAIT_VALUE_NOR));
	ck_assert(!acl_value_met(1, 1, 4));
}
END_TEST

START_TEST(test_aclmdlRI_rejects_null_arguments)
{
	aclmdlRICaptureStatus st;
	aclmdlRICaptureMode mode = (aclmdlRICaptureMode)7;
	aclmdlRI ri;

	ck_assert_int_eq(aclmdlRICaptureBegin(NULL, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclmdlRICaptureEnd(NULL, &ri), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclmdlRICaptureGetInfo(NULL, &st, &ri),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclmdlRIExecuteAsync(NULL, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclmdlRIDestroy(NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclmdlRICaptureThreadExchangeMode(NULL),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclmdlRICaptureThreadExchangeMode(&mode),
			 ACL_ERROR_INVALID_PARAM);
}
END_TEST

START_TEST(test_aclmdlRICaptureThreadExchangeMode_swaps)
{
	aclmdlRICaptureMode mode = ACL_MODEL_RI_CAPTURE_MODE_RELAXED;

	ck_assert_int_eq(aclmdlRICaptureThreadExchangeMode(&mode), ACL_SUCCESS);
	ck_assert_int_eq(mode, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL);
	ck_assert_int_eq(aclmdlRICaptureThreadExchangeMode(&mode), ACL_SUCCESS);
	ck_assert_int_eq(mode, ACL_MODEL_RI_CAPTURE_MODE_RELAXED);
	/* No capture anywhere: synchronous copies are allowed. */
	ck_assert(!acl_capture_forbids_sync());
}
END_TEST

static void t_nop(void *arg)
{
	(void)arg;
}

START_TEST(test_callbacks_reject_bad_arguments)
{
	ck_assert_int_eq(aclrtProcessReport(0), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtProcessReport(-2), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtProcessReport(1), ACL_ERROR_RT_THREAD_SUBSCRIBE);
	ck_assert_int_eq(aclrtLaunchCallback(NULL, NULL, ACL_CALLBACK_BLOCK, NULL),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtLaunchCallback(t_nop, NULL,
					     (aclrtCallbackBlockType)5, NULL),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtLaunchHostFunc(NULL, NULL, NULL),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtValueWrite(NULL, 1, 0, NULL),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtValueWrite((void *)8, 1, 1, NULL),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtValueWait((void *)8, 1, 4, NULL),
			 ACL_ERROR_INVALID_PARAM);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("acl_capture");
	TCase *tc = tcase_create("capture");

	tcase_add_test(tc, test_acl_value_met_comparisons);
	tcase_add_test(tc, test_aclmdlRI_rejects_null_arguments);
	tcase_add_test(tc, test_aclmdlRICaptureThreadExchangeMode_swaps);
	tcase_add_test(tc, test_callbacks_reject_bad_arguments);
	suite_add_tcase(s, tc);
	return t_run_suite(s);
}
