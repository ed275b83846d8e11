// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of libacl's device resource limits (lib/acl_reslimit.c)
 * against a fake NPU: every limit is the hardware's 0 cores, only 0 can
 * be set, a stream's limit applies to a thread that uses the stream, and
 * the argument checks give CANN's codes.
 */
#include <check.h>
#include <pthread.h>
#include <stdlib.h>

#include "acl_fake.h"
#include "acl_ut.h"
#include "t_check.h"

static aclrtStream stream;

static void setup(void)
{
	fake_add_index(0);
	set_device(0);
	ck_assert_int_eq(aclrtCreateStream(&stream), ACL_SUCCESS);
}

START_TEST(test_limits_are_zero_cores)
{
	uint32_t v = 99;

	ck_assert_int_eq(aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, &v),
			 ACL_SUCCESS);
	ck_assert_uint_eq(v, 0);
	v = 99;
	ck_assert_int_eq(aclrtGetStreamResLimit(stream, ACL_RT_DEV_RES_VECTOR_CORE,
						&v), ACL_SUCCESS);
	ck_assert_uint_eq(v, 0);
	v = 99;
	ck_assert_int_eq(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_CUBE_CORE, &v),
			 ACL_SUCCESS);
	ck_assert_uint_eq(v, 0);
	/* No more cores than the NPU has. */
	ck_assert_int_eq(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, 1),
			 ACL_ERROR_RT_PARAM_INVALID);
	msg_has("value=1");
	ck_assert_int_eq(aclrtSetStreamResLimit(stream, ACL_RT_DEV_RES_VECTOR_CORE,
						8), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtSetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, 0),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclrtSetStreamResLimit(NULL, ACL_RT_DEV_RES_VECTOR_CORE, 0),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclrtResetDeviceResLimit(0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtResetStreamResLimit(NULL), ACL_SUCCESS);
}
END_TEST

static void *use_and_get(void *arg)
{
	uint32_t v = 99;

	(void)arg;
	/* A thread without a current context and without a stream. */
	if (aclrtGetResInCurrentThread(ACL_RT_DEV_RES_CUBE_CORE, &v) !=
	    ACL_ERROR_RT_CONTEXT_NULL)
		return (void *)1;
	if (aclrtUseStreamResInCurrentThread(stream) ||
	    aclrtGetResInCurrentThread(ACL_RT_DEV_RES_CUBE_CORE, &v) || v)
		return (void *)2;
	if (aclrtUnuseStreamResInCurrentThread(stream) ||
	    aclrtGetResInCurrentThread(ACL_RT_DEV_RES_CUBE_CORE, &v) !=
	    ACL_ERROR_RT_CONTEXT_NULL)
		return (void *)3;
	return NULL;
}

START_TEST(test_thread_uses_a_stream)
{
	pthread_t t;
	void *res;

	ck_assert_int_eq(aclrtSetStreamResLimit(stream, ACL_RT_DEV_RES_CUBE_CORE, 0),
			 ACL_SUCCESS);
	ck_assert_int_eq(pthread_create(&t, NULL, use_and_get, NULL), 0);
	ck_assert_int_eq(pthread_join(t, &res), 0);
	ck_assert_ptr_null(res);
	/* A destroyed stream no longer counts: the context's limit does. */
	ck_assert_int_eq(aclrtUseStreamResInCurrentThread(stream), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(stream), ACL_SUCCESS);
	stream = NULL;
}
END_TEST

START_TEST(test_bad_arguments)
{
	uint32_t v;

	ck_assert_int_eq(aclrtGetDeviceResLimit(0, ACL_RT_DEV_RES_CUBE_CORE, NULL),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtGetDeviceResLimit(0, (aclrtDevResLimitType)2, &v),
			 ACL_ERROR_RT_PARAM_INVALID);
	msg_has("type=2");
	ck_assert_int_eq(aclrtGetDeviceResLimit(5, ACL_RT_DEV_RES_CUBE_CORE, &v),
			 ACL_ERROR_RT_INVALID_DEVICEID);
	ck_assert_int_eq(aclrtSetDeviceResLimit(-1, ACL_RT_DEV_RES_CUBE_CORE, 0),
			 ACL_ERROR_RT_INVALID_DEVICEID);
	ck_assert_int_eq(aclrtResetDeviceResLimit(7), ACL_ERROR_RT_INVALID_DEVICEID);
	ck_assert_int_eq(aclrtGetStreamResLimit(stream, ACL_RT_DEV_RES_CUBE_CORE,
						NULL), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtSetStreamResLimit(stream, (aclrtDevResLimitType)-1, 0),
			 ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtUseStreamResInCurrentThread(NULL),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtUnuseStreamResInCurrentThread(NULL),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtGetResInCurrentThread(ACL_RT_DEV_RES_CUBE_CORE, NULL),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtGetResInCurrentThread((aclrtDevResLimitType)9, &v),
			 ACL_ERROR_RT_PARAM_INVALID);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("acl_reslimit_fake");
	TCase *tc = tcase_create("reslimit");

	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, test_limits_are_zero_cores);
	tcase_add_test(tc, test_thread_uses_a_stream);
	tcase_add_test(tc, test_bad_arguments);
	suite_add_tcase(s, tc);
	return t_run_suite(s);
}
