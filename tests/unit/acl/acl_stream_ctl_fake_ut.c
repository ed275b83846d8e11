// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of libacl's stream control (lib/acl_stream_ctl.c,
 * acl_stream_state.c) against a fake NPU: STOP refuses work after a
 * failed descriptor and CONTINUE does not, stop/abort are 207000,
 * config handles feed aclrtCreateStreamV2, state hooks fire in order.
 */
#include <check.h>
#include <stdlib.h>

#include "acl_fake.h"
#include "acl_ut.h"
#include "t_check.h"

enum { SZ = 16 * 1024 };

static void *host_a, *host_b, *dev;
static aclrtStream stream;

static void setup(void)
{
	fake_add_index(0);
	set_device(0);
	ck_assert_int_eq(aclrtMallocHost(&host_a, SZ), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMallocHost(&host_b, SZ), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMalloc(&dev, SZ, ACL_MEM_MALLOC_HUGE_FIRST),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateStream(&stream), ACL_SUCCESS);
	fill_pattern(host_a, SZ, 9);
	memset(host_b, 0, SZ);
}

/* A copy to freed device memory: the (fake) driver fails it at once. */
static void bad_copy(void)
{
	void *gone = NULL;

	ck_assert_int_eq(aclrtMalloc(&gone, 4096, ACL_MEM_MALLOC_HUGE_FIRST),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(gone), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpyAsync(gone, 4096, host_a, 4096,
					  ACL_MEMCPY_HOST_TO_DEVICE, stream),
			 ACL_SUCCESS);
}

START_TEST(test_stop_refuses_work_after_a_failure)
{
	ck_assert_int_eq(aclrtMemcpyAsync(dev, SZ, host_a, SZ,
					  ACL_MEMCPY_HOST_TO_DEVICE, stream),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclrtSetStreamFailureMode(stream, ACL_STOP_ON_FAILURE),
			 ACL_SUCCESS);
	bad_copy();
	ck_assert_int_eq(aclrtMemcpyAsync(host_b, SZ, dev, SZ,
					  ACL_MEMCPY_DEVICE_TO_HOST, stream),
			 ACL_ERROR_RT_PARAM_INVALID);
	msg_has("ACL_STOP_ON_FAILURE");
	ck_assert_int_eq(aclrtSynchronizeStream(stream),
			 ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_uint_eq(((unsigned char *)host_b)[0], 0);
	ck_assert_uint_eq(((unsigned char *)host_b)[SZ - 1], 0);
	/* The context's default stream is in STOP too, but has not failed. */
	ck_assert_int_eq(aclrtMemcpy(host_b, SZ, dev, SZ,
				     ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
	ck_assert_pattern(host_b, SZ, 9);
}
END_TEST

START_TEST(test_continue_runs_work_after_a_failure)
{
	ck_assert_int_eq(aclrtMemcpyAsync(dev, SZ, host_a, SZ,
					  ACL_MEMCPY_HOST_TO_DEVICE, stream),
			 ACL_SUCCESS);
	bad_copy();
	ck_assert_int_eq(aclrtMemcpyAsync(host_b, SZ, dev, SZ,
					  ACL_MEMCPY_DEVICE_TO_HOST, stream),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(stream),
			 ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_pattern(host_b, SZ, 9);
}
END_TEST

START_TEST(test_stop_and_abort_are_not_supported)
{
	ck_assert_int_eq(aclrtStreamStop(stream),
			 ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	msg_has("cannot be stopped");
	ck_assert_int_eq(aclrtStreamAbort(stream),
			 ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	msg_has("cannot be aborted");
	ck_assert_int_eq(aclrtStreamAbort(NULL), ACL_ERROR_RT_PARAM_INVALID);
	msg_has("stream is NULL");
}
END_TEST

START_TEST(test_config_handle_makes_the_stream)
{
	aclrtStreamConfigHandle *h = aclrtCreateStreamConfigHandle();
	size_t flag = ACL_STREAM_FAST_SYNC;
	uint32_t prio = 7, got;
	aclrtStream s;

	ck_assert_ptr_nonnull(h);
	ck_assert_int_eq(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_PRIORITY,
						 &prio, sizeof(prio)),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_FLAG, &flag,
						 sizeof(flag)), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateStreamV2(&s, h), ACL_SUCCESS);
	ck_assert_int_eq(aclrtStreamGetPriority(s, &got), ACL_SUCCESS);
	ck_assert_uint_eq(got, 7);
	ck_assert_int_eq(aclrtStreamGetFlags(s, &got), ACL_SUCCESS);
	ck_assert_uint_eq(got, ACL_STREAM_FAST_SYNC);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStreamConfigHandle(h), ACL_SUCCESS);
}
END_TEST

static int order[8], norder;

static void hook(aclrtStream stm, aclrtStreamState state, void *args)
{
	ck_assert_ptr_eq(stm, *(aclrtStream *)args);
	order[norder++] = state;
}

START_TEST(test_state_hooks_fire_after_create_before_destroy)
{
	static aclrtStream seen;
	aclrtStream s;

	ck_assert_int_eq(aclrtRegStreamStateCallback("ut", hook, &seen),
			 ACL_SUCCESS);
	/* The hook compares with @seen, set only once the call returned. */
	ck_assert_int_eq(aclrtRegStreamStateCallback("ut", NULL, NULL),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateStream(&s), ACL_SUCCESS);
	seen = s;
	ck_assert_int_eq(aclrtRegStreamStateCallback("ut", hook, &seen),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
	ck_assert_int_eq(norder, 1);
	ck_assert_int_eq(order[0], ACL_RT_STREAM_STATE_DESTROY_PRE);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("acl_stream_ctl_fake");
	TCase *tc = tcase_create("stream_ctl");

	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, test_stop_refuses_work_after_a_failure);
	tcase_add_test(tc, test_continue_runs_work_after_a_failure);
	tcase_add_test(tc, test_stop_and_abort_are_not_supported);
	tcase_add_test(tc, test_config_handle_makes_the_stream);
	tcase_add_test(tc, test_state_hooks_fire_after_create_before_destroy);
	suite_add_tcase(s, tc);
	return t_run_suite(s);
}
