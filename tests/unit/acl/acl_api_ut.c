// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of libacl's API edge, without any NPU: bad arguments give
 * ACL_ERROR_INVALID_PARAM before anything else is looked at, calls that
 * need a device give ACL_ERROR_RT_CONTEXT_NULL, zero-size and identity
 * copies succeed at once (ACL_API.md 4.8, 5.3), and every error leaves
 * a message naming the argument.
 */
#include <check.h>
#include <string.h>

#include "acl/acl.h"
#include "acl_ut.h"
#include "t_check.h"

START_TEST(test_aclrtMemcpy_check_order)
{
	char a[8], b[8];

	/* count 0 wins over everything, even NULL pointers. */
	ck_assert_int_eq(aclrtMemcpy(NULL, 0, NULL, 0, 99), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpy(NULL, 8, b, 8, ACL_MEMCPY_HOST_TO_HOST),
			 ACL_ERROR_INVALID_PARAM);
	msg_has("dst=(nil)");
	ck_assert_int_eq(aclrtMemcpy(a, 8, b, 8, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemcpy(a, 8, b, 8, (aclrtMemcpyKind)-1),
			 ACL_ERROR_INVALID_PARAM);
	msg_has("kind=-1");
	ck_assert_int_eq(aclrtMemcpy(a, 0, b, 8, ACL_MEMCPY_HOST_TO_HOST),
			 ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtMemcpy(a, 4, b, 8, ACL_MEMCPY_HOST_TO_HOST),
			 ACL_ERROR_RT_PARAM_INVALID);
	msg_has("count=8 does not fit destMax=4");
	ck_assert_int_eq(aclrtMemcpy(a, 8, a, 8, ACL_MEMCPY_HOST_TO_HOST),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpy(a, 8, b, 8, ACL_MEMCPY_HOST_TO_HOST),
			 ACL_ERROR_RT_CONTEXT_NULL);
	msg_has("aclrtSetDevice");
}
END_TEST

START_TEST(test_aclrtMemcpyAsync_check_order)
{
	char a[8], b[8];

	ck_assert_int_eq(aclrtMemcpyAsync(NULL, 0, NULL, 0, 0, NULL), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpyAsync(a, 8, NULL, 8, 0, NULL),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemcpyAsync(a, 8, b, 8, 6, NULL),
			 ACL_ERROR_INVALID_PARAM);
	/* No destMax == 0 rule here, but count > destMax is checked. */
	ck_assert_int_eq(aclrtMemcpyAsync(a, 0, b, 8, 0, NULL),
			 ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtMemcpyAsync(a, 8, a, 8, 0, NULL), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpyAsync(a, 8, b, 8, 0, NULL),
			 ACL_ERROR_RT_CONTEXT_NULL);
}
END_TEST

START_TEST(test_aclrtMemset_check_order)
{
	char a[8];

	ck_assert_int_eq(aclrtMemset(NULL, 0, 0, 0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemset(NULL, 8, 0, 8), ACL_ERROR_INVALID_PARAM);
	msg_has("devPtr is NULL");
	ck_assert_int_eq(aclrtMemset(a, 4, 0, 8), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtMemsetAsync(NULL, 8, 0, 8, NULL),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemset(a, 8, 0, 8), ACL_ERROR_RT_CONTEXT_NULL);
}
END_TEST

START_TEST(test_null_outputs)
{
	ck_assert_int_eq(aclrtGetDeviceCount(NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtGetRunMode(NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtGetDevice(NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtGetCurrentContext(NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtCreateContext(NULL, 0), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtSetCurrentContext(NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtDestroyContext(NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtCreateStream(NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtDestroyStream(NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtStreamQuery(NULL, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtCreateEvent(NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtDestroyEvent(NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtRecordEvent(NULL, NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtEventElapsedTime(NULL, NULL, NULL),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMalloc(NULL, 8, 0), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtFree(NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMallocHost(NULL, 8), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtFreeHost(NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtHostUnregister(NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtHostRegister(NULL, 8, 0, NULL),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtHostRegisterV2(NULL, 8, ACL_HOST_REG_PINNED),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtPointerGetAttributes(NULL, NULL),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtGetMemInfo(ACL_HBM_MEM, NULL, NULL),
			 ACL_ERROR_INVALID_PARAM);
	/* None of these is a runtime error. */
	ck_assert_int_eq(aclrtGetLastError(ACL_RT_THREAD_LEVEL), ACL_SUCCESS);
}
END_TEST

START_TEST(test_calls_needing_a_device)
{
	aclrtStream s;
	aclrtEvent e;
	int32_t id;
	void *p;
	size_t f, t;

	ck_assert_int_eq(aclrtGetDevice(&id), ACL_ERROR_RT_CONTEXT_NULL);
	ck_assert_int_eq(aclrtCreateStream(&s), ACL_ERROR_RT_CONTEXT_NULL);
	ck_assert_int_eq(aclrtCreateEvent(&e), ACL_ERROR_RT_CONTEXT_NULL);
	ck_assert_int_eq(aclrtMalloc(&p, 8, 0), ACL_ERROR_RT_CONTEXT_NULL);
	ck_assert_int_eq(aclrtGetMemInfo(ACL_HBM_MEM, &f, &t),
			 ACL_ERROR_RT_CONTEXT_NULL);
	ck_assert_int_eq(aclrtSynchronizeDevice(), ACL_ERROR_RT_CONTEXT_NULL);
	ck_assert_int_eq(aclrtSynchronizeStream(NULL), ACL_ERROR_RT_CONTEXT_NULL);
	ck_assert_int_eq(aclrtGetLastError(ACL_RT_THREAD_LEVEL),
			 ACL_ERROR_RT_CONTEXT_NULL);
	ck_assert_int_eq(aclrtSetDevice(4096), ACL_ERROR_RT_INVALID_DEVICEID);
	msg_has("deviceId=4096");
	ck_assert_int_eq(aclrtResetDevice(-5), ACL_ERROR_RT_INVALID_DEVICEID);
}
END_TEST

START_TEST(test_timeouts_and_flags)
{
	aclrtEvent e;

	ck_assert_int_eq(aclrtSynchronizeDeviceWithTimeout(-2),
			 ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtSynchronizeStreamWithTimeout(NULL, 0),
			 ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtSynchronizeEventWithTimeout(NULL, -3),
			 ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtCreateEventWithFlag(&e, 0),
			 ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtCreateEventWithFlag(&e, 0x80),
			 ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtCreateEventWithFlag(&e, ACL_EVENT_DEVICE_USE_ONLY |
						  ACL_EVENT_TIME_LINE),
			 ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtCreateEventExWithFlag(&e, ACL_EVENT_IPC |
						    ACL_EVENT_SYNC),
			 ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtHostRegisterV2((void *)4096, 8, 0),
			 ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtHostGetDevicePointer((void *)4096, (void **)&e, 1),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtGetLastError((aclrtLastErrLevel)1),
			 ACL_ERROR_INVALID_PARAM);
}
END_TEST

START_TEST(test_misc_without_device)
{
	aclrtRunMode m;
	aclDataBuffer *b;
	int x = 0;

	ck_assert_int_eq(aclrtGetRunMode(&m), ACL_SUCCESS);
	ck_assert_int_eq(m, ACL_HOST);
	b = aclCreateDataBuffer(&x, sizeof(x));
	ck_assert_ptr_eq(aclGetDataBufferAddr(b), &x);
	ck_assert_int_eq(aclDestroyDataBuffer(b), ACL_SUCCESS);
	ck_assert_int_eq(aclDestroyDataBuffer(NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_ptr_null(aclGetDataBufferAddr(NULL));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("acl_api");
	TCase *tc = tcase_create("edge");

	tcase_add_test(tc, test_aclrtMemcpy_check_order);
	tcase_add_test(tc, test_aclrtMemcpyAsync_check_order);
	tcase_add_test(tc, test_aclrtMemset_check_order);
	tcase_add_test(tc, test_null_outputs);
	tcase_add_test(tc, test_calls_needing_a_device);
	tcase_add_test(tc, test_timeouts_and_flags);
	tcase_add_test(tc, test_misc_without_device);
	suite_add_tcase(s, tc);
	return t_run_suite(s);
}
