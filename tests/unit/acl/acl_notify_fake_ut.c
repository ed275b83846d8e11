// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of lib/acl_notify.c against a fake NPU: a wait holds its
 * stream until a record on another stream completed, one record serves
 * one wait, destroying the notify lets a pending wait go, ids are the
 * lowest free ones up to the per-device limit, bad arguments are
 * refused with CANN's codes.
 */
#include <check.h>
#include <stdlib.h>
#include <unistd.h>

#include "acl_fake.h"
#include "acl_ut.h"
#include "t_check.h"

static aclrtStream s1, s2;

static void setup(void)
{
	fake_add_index(0);
	ck_assert_int_eq(aclrtSetDevice(0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateStream(&s1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateStream(&s2), ACL_SUCCESS);
}

static bool done(aclrtStream s)
{
	aclrtStreamStatus st = 99;

	ck_assert_int_eq(aclrtStreamQuery(s, &st), ACL_SUCCESS);
	return st == ACL_STREAM_STATUS_COMPLETE;
}

/* The stream is still held after the runner had time to pass. */
static void still_held(aclrtStream s)
{
	usleep(20000);
	ck_assert_msg(!done(s), "stream went past an unrecorded wait");
}

static void count(void *p)
{
	__atomic_add_fetch((int *)p, 1, __ATOMIC_RELAXED);
}

START_TEST(test_wait_held_until_record)
{
	aclrtNotify n;
	int ran = 0;

	ck_assert_int_eq(aclrtCreateNotify(&n, ACL_NOTIFY_DEFAULT), ACL_SUCCESS);
	ck_assert_int_eq(aclrtWaitAndResetNotify(n, s2, 0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtLaunchHostFunc(s2, count, &ran), ACL_SUCCESS);
	still_held(s2);
	ck_assert_int_eq(ran, 0);
	/* Held behind a slow device, the record itself waits its turn. */
	fake_kmd_hold(true);
	ck_assert_int_eq(aclrtLaunchHostFunc(s1, count, &ran), ACL_SUCCESS);
	ck_assert_int_eq(aclrtRecordNotify(n, s1), ACL_SUCCESS);
	still_held(s2);
	fake_kmd_hold(false);
	ck_assert_int_eq(aclrtSynchronizeStream(s2), ACL_SUCCESS);
	ck_assert_int_eq(ran, 2);
	ck_assert_int_eq(aclrtSynchronizeStream(s1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyNotify(n), ACL_SUCCESS);
}
END_TEST

START_TEST(test_one_record_one_wait)
{
	aclrtNotify n;

	ck_assert_int_eq(aclrtCreateNotify(&n, ACL_NOTIFY_DEFAULT), ACL_SUCCESS);
	ck_assert_int_eq(aclrtRecordNotify(n, s1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtRecordNotify(n, s1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(s1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtWaitAndResetNotify(n, s2, 0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(s2), ACL_SUCCESS);
	ck_assert_int_eq(aclrtWaitAndResetNotify(n, s2, 0), ACL_SUCCESS);
	still_held(s2);
	ck_assert_int_eq(aclrtRecordNotify(n, s1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(s2), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyNotify(n), ACL_SUCCESS);
}
END_TEST

START_TEST(test_destroy_releases_wait)
{
	aclrtNotify n;
	uint32_t id;

	ck_assert_int_eq(aclrtCreateNotify(&n, ACL_NOTIFY_DEFAULT), ACL_SUCCESS);
	ck_assert_int_eq(aclrtWaitAndResetNotify(n, s2, 5), ACL_SUCCESS);
	still_held(s2);
	ck_assert_int_eq(aclrtDestroyNotify(n), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(s2), ACL_SUCCESS);
	ck_assert_int_eq(aclrtGetNotifyId(n, &id), ACL_ERROR_RT_INVALID_HANDLE);
	msg_has("not a live notify");
	ck_assert_int_eq(aclrtDestroyNotify(n), ACL_ERROR_RT_INVALID_HANDLE);
}
END_TEST

START_TEST(test_ids_and_limit)
{
	aclrtNotify *all = calloc(8193, sizeof(*all));
	uint32_t id;
	int i;

	ck_assert_ptr_nonnull(all);
	for (i = 0; i < 8192; i++) {
		ck_assert_int_eq(aclrtCreateNotify(&all[i], ACL_NOTIFY_DEFAULT),
				 ACL_SUCCESS);
		ck_assert_int_eq(aclrtGetNotifyId(all[i], &id), ACL_SUCCESS);
		ck_assert_uint_eq(id, (uint32_t)i);
	}
	ck_assert_int_eq(aclrtCreateNotify(&all[8192], ACL_NOTIFY_DEFAULT),
			 ACL_ERROR_RT_NO_NOTIFY_RESOURCE);
	msg_has("8192");
	ck_assert_int_eq(aclrtDestroyNotify(all[100]), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateNotify(&all[100], ACL_NOTIFY_DEVICE_USE_ONLY),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclrtGetNotifyId(all[100], &id), ACL_SUCCESS);
	ck_assert_uint_eq(id, 100);
	for (i = 0; i < 8192; i++)
		ck_assert_int_eq(aclrtDestroyNotify(all[i]), ACL_SUCCESS);
	free(all);
}
END_TEST

START_TEST(test_bad_arguments)
{
	uint64_t fake_stream[8] = { 0 };	/* no stream magic */
	aclrtNotify n;
	uint32_t id;

	ck_assert_int_eq(aclrtCreateNotify(NULL, 0), ACL_ERROR_INVALID_PARAM);
	msg_has("notify is NULL");
	ck_assert_int_eq(aclrtCreateNotify(&n, 3), ACL_ERROR_RT_PARAM_INVALID);
	msg_has("flag=0x3");
	ck_assert_int_eq(aclrtRecordNotify(NULL, s1), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtWaitAndResetNotify(NULL, s1, 0),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtGetNotifyId(NULL, &id), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtCreateNotify(&n, 0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtGetNotifyId(n, NULL), ACL_ERROR_INVALID_PARAM);
	msg_has("notifyId is NULL");
	ck_assert_int_eq(aclrtRecordNotify(n, fake_stream),
			 ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtDestroyNotify(n), ACL_SUCCESS);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("acl_notify_fake");
	TCase *tc = tcase_create("notify");

	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, test_wait_held_until_record);
	tcase_add_test(tc, test_one_record_one_wait);
	tcase_add_test(tc, test_destroy_releases_wait);
	tcase_add_test(tc, test_ids_and_limit);
	tcase_add_test(tc, test_bad_arguments);
	suite_add_tcase(s, tc);
	return t_run_suite(s);
}
