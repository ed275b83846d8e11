// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of lib/acl_event.c against a fake NPU: record, query and
 * synchronize follow the device's progress, elapsed time and timestamps
 * come from the event table the library maps, a stream waits for an
 * event recorded on another stream, slots run out cleanly.
 */
#include <check.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "acl_fake.h"
#include "acl_ut.h"
#include "t_check.h"

enum { SZ = 16 * 1024 };

static void *host_a, *host_b, *dev;
static aclrtStream s1, s2;

static void setup(void)
{
	struct fake_npu_cfg c = { .index = 0, .max_event_slots = 4 };

	ck_assert_int_eq(fake_npu_add(&c), 0);
	set_device(0);
	ck_assert_int_eq(aclrtMallocHost(&host_a, SZ), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMallocHost(&host_b, SZ), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMalloc(&dev, SZ, ACL_MEM_MALLOC_HUGE_FIRST),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateStream(&s1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateStream(&s2), ACL_SUCCESS);
	fill_pattern(host_a, SZ, 6);
	memset(host_b, 0, SZ);
}

static aclrtEventRecordedStatus status_of(aclrtEvent e)
{
	aclrtEventRecordedStatus st = 99;

	ck_assert_int_eq(aclrtQueryEventStatus(e, &st), ACL_SUCCESS);
	return st;
}

START_TEST(test_record_query_synchronize)
{
	aclrtEvent e = NULL;

	ck_assert_int_eq(aclrtCreateEvent(&e), ACL_SUCCESS);
	fake_kmd_hold(true);
	ck_assert_int_eq(aclrtMemcpyAsync(dev, SZ, host_a, SZ,
					  ACL_MEMCPY_HOST_TO_DEVICE, s1),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclrtRecordEvent(e, s1), ACL_SUCCESS);
	ck_assert_int_eq(status_of(e), ACL_EVENT_RECORDED_STATUS_NOT_READY);
	ck_assert_int_eq(aclrtSynchronizeEventWithTimeout(e, 20),
			 ACL_ERROR_RT_EVENT_SYNC_TIMEOUT);
	msg_has("not reached after 20 ms");
	fake_kmd_run();
	ck_assert_int_eq(status_of(e), ACL_EVENT_RECORDED_STATUS_COMPLETE);
	ck_assert_int_eq(aclrtSynchronizeEvent(e), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyEvent(e), ACL_SUCCESS);
}
END_TEST

START_TEST(test_elapsed_time_and_timestamps)
{
	struct timespec ts;
	aclrtEvent a = NULL, b = NULL;
	uint64_t ta = 0, tb = 0, now_us;
	float ms = -1;

	ck_assert_int_eq(aclrtCreateEvent(&a), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateEvent(&b), ACL_SUCCESS);
	ck_assert_int_eq(aclrtEventElapsedTime(&ms, a, b),
			 ACL_ERROR_RT_INTERNAL_ERROR);
	msg_has("was never recorded");
	ck_assert_int_eq(aclrtRecordEvent(a, s1), ACL_SUCCESS);
	usleep(20000);
	ck_assert_int_eq(aclrtRecordEvent(b, s1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeEvent(b), ACL_SUCCESS);
	ck_assert_int_eq(aclrtEventElapsedTime(&ms, a, b), ACL_SUCCESS);
	ck_assert_msg(ms >= 19.0f && ms < 5000.0f, "elapsed %f ms", ms);
	ck_assert_int_eq(aclrtEventGetTimestamp(a, &ta), ACL_SUCCESS);
	ck_assert_int_eq(aclrtEventGetTimestamp(b, &tb), ACL_SUCCESS);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	now_us = (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
	ck_assert_uint_ge(tb - ta, 19000);
	ck_assert_uint_le(tb, now_us);
	/* Re-recorded on a held device: not complete, no stale time. */
	fake_kmd_hold(true);
	ck_assert_int_eq(aclrtRecordEvent(b, s2), ACL_SUCCESS);
	ck_assert_int_eq(aclrtEventElapsedTime(&ms, a, b),
			 ACL_ERROR_RT_EVENT_NOT_COMPLETE);
	fake_kmd_hold(false);
	ck_assert_int_eq(aclrtEventElapsedTime(&ms, a, b), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyEvent(a), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyEvent(b), ACL_SUCCESS);
}
END_TEST

/*
 * s2 waits for an event recorded on s1 after a copy, then reads what it
 * wrote. Held, the fake would run s2 first (it is looked at first): only
 * the WAIT descriptor keeps the order.
 */
START_TEST(test_stream_waits_for_event_of_another_stream)
{
	aclrtEvent e = NULL;

	ck_assert_int_eq(aclrtCreateEvent(&e), ACL_SUCCESS);
	fake_kmd_hold(true);
	ck_assert_int_eq(aclrtMemcpyAsync(dev, SZ, host_a, SZ,
					  ACL_MEMCPY_HOST_TO_DEVICE, s1),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclrtRecordEvent(e, s1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtStreamWaitEvent(s2, e), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpyAsync(host_b, SZ, dev, SZ,
					  ACL_MEMCPY_DEVICE_TO_HOST, s2),
			 ACL_SUCCESS);
	fake_kmd_run();
	ck_assert_int_eq(aclrtSynchronizeStream(s2), ACL_SUCCESS);
	ck_assert_pattern(host_b, SZ, 6);
	ck_assert_int_eq(aclrtDestroyEvent(e), ACL_SUCCESS);
}
END_TEST

/* Without the wait the held fake does run s2 first: the test can fail. */
START_TEST(test_without_wait_order_is_not_kept)
{
	fake_kmd_hold(true);
	ck_assert_int_eq(aclrtMemcpyAsync(dev, SZ, host_a, SZ,
					  ACL_MEMCPY_HOST_TO_DEVICE, s1),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpyAsync(host_b, SZ, dev, SZ,
					  ACL_MEMCPY_DEVICE_TO_HOST, s2),
			 ACL_SUCCESS);
	fake_kmd_run();
	ck_assert_int_eq(aclrtSynchronizeDevice(), ACL_SUCCESS);
	ck_assert_int_ge(pattern_diff(host_b, SZ, 6), 0);
}
END_TEST

START_TEST(test_event_slots_run_out)
{
	aclrtEvent e[5];
	int i;

	for (i = 0; i < 4; i++)
		ck_assert_int_eq(aclrtCreateEvent(&e[i]), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateEvent(&e[4]), ACL_ERROR_RT_NO_EVENT_RESOURCE);
	msg_has("all 4 event slots in use");
	ck_assert_int_eq(aclrtDestroyEvent(e[2]), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateEvent(&e[4]), ACL_SUCCESS);
	/* Every slot records into its own place of the table. */
	for (i = 0; i < 4; i++)
		ck_assert_int_eq(aclrtRecordEvent(e[i == 2 ? 4 : i], s1),
				 ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(s1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtEventElapsedTime(&(float){ 0 }, e[0], e[4]),
			 ACL_SUCCESS);
	for (i = 0; i < 5; i++)
		if (i != 2)
			ck_assert_int_eq(aclrtDestroyEvent(e[i]), ACL_SUCCESS);
}
END_TEST

/* A reset is work of its stream: held, the event keeps its record. */
START_TEST(test_reset_waits_for_its_stream)
{
	aclrtEvent e = NULL;

	ck_assert_int_eq(aclrtCreateEvent(&e), ACL_SUCCESS);
	ck_assert_int_eq(aclrtRecordEvent(e, s1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(s1), ACL_SUCCESS);
	fake_kmd_hold(true);
	ck_assert_int_eq(aclrtMemcpyAsync(dev, SZ, host_a, SZ,
					  ACL_MEMCPY_HOST_TO_DEVICE, s2),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclrtResetEvent(e, s2), ACL_SUCCESS);
	ck_assert_int_eq(status_of(e), ACL_EVENT_RECORDED_STATUS_COMPLETE);
	fake_kmd_hold(false);
	ck_assert_int_eq(aclrtSynchronizeStream(s2), ACL_SUCCESS);
	ck_assert_int_eq(status_of(e), ACL_EVENT_RECORDED_STATUS_NOT_READY);
	ck_assert_int_eq(aclrtDestroyEvent(e), ACL_SUCCESS);
}
END_TEST

static aclrtEventWaitStatus wait_status_of(aclrtEvent e)
{
	aclrtEventWaitStatus st = ACL_EVENT_WAIT_STATUS_RESERVED;

	ck_assert_int_eq(aclrtQueryEventWaitStatus(e, &st), ACL_SUCCESS);
	return st;
}

/* The wait status follows the waits queued on the event. */
START_TEST(test_wait_status_follows_waits)
{
	aclrtEvent e = NULL;

	ck_assert_int_eq(aclrtCreateEvent(&e), ACL_SUCCESS);
	ck_assert_int_eq(wait_status_of(e), ACL_EVENT_WAIT_STATUS_COMPLETE);
	fake_kmd_hold(true);
	ck_assert_int_eq(aclrtMemcpyAsync(dev, SZ, host_a, SZ,
					  ACL_MEMCPY_HOST_TO_DEVICE, s1),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclrtRecordEvent(e, s1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtStreamWaitEventWithFlag(s2, e, 0,
						      ACL_EVENT_WAIT_DEFAULT),
			 ACL_SUCCESS);
	ck_assert_int_eq(wait_status_of(e), ACL_EVENT_WAIT_STATUS_NOT_READY);
	fake_kmd_run();
	ck_assert_int_eq(aclrtSynchronizeStream(s2), ACL_SUCCESS);
	ck_assert_int_eq(wait_status_of(e), ACL_EVENT_WAIT_STATUS_COMPLETE);
	ck_assert_int_eq(aclrtQueryEventWaitStatus(e, NULL),
			 ACL_ERROR_INVALID_PARAM);
	msg_has("status is NULL");
	ck_assert_int_eq(aclrtDestroyEvent(e), ACL_SUCCESS);
}
END_TEST

/* Ids are slots; the free count is what the table has left. */
START_TEST(test_ids_and_free_slots)
{
	uint32_t n = 0, id0, id1;
	aclrtEvent e0, e1;

	ck_assert_int_eq(aclrtGetEventAvailNum(&n), ACL_SUCCESS);
	ck_assert_uint_eq(n, 4);
	ck_assert_int_eq(aclrtCreateEvent(&e0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateEvent(&e1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtGetEventAvailNum(&n), ACL_SUCCESS);
	ck_assert_uint_eq(n, 2);
	ck_assert_int_eq(aclrtGetEventId(e0, &id0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtGetEventId(e1, &id1), ACL_SUCCESS);
	ck_assert_uint_lt(id0, 4);
	ck_assert_uint_lt(id1, 4);
	ck_assert_uint_ne(id0, id1);
	ck_assert_int_eq(aclrtDestroyEvent(e0), ACL_SUCCESS);
	ck_assert_int_eq(aclrtGetEventAvailNum(&n), ACL_SUCCESS);
	ck_assert_uint_eq(n, 3);
	ck_assert_int_eq(aclrtGetEventId(e1, NULL), ACL_ERROR_INVALID_PARAM);
	msg_has("eventId is NULL");
	ck_assert_int_eq(aclrtDestroyEvent(e1), ACL_SUCCESS);
}
END_TEST

START_TEST(test_record_and_wait_flags)
{
	aclrtEvent e = NULL;

	ck_assert_int_eq(aclrtCreateEvent(&e), ACL_SUCCESS);
	ck_assert_int_eq(aclrtRecordEventWithFlag(e, s1, 7),
			 ACL_ERROR_INVALID_PARAM);
	msg_has("flag=0x7");
	ck_assert_int_eq(aclrtStreamWaitEventWithFlag(s2, e, 0, 3),
			 ACL_ERROR_INVALID_PARAM);
	msg_has("flag=0x3");
	ck_assert_int_eq(aclrtStreamWaitEventWithFlag(s2, e, 5,
						      ACL_EVENT_WAIT_EXTERNAL),
			 ACL_ERROR_INVALID_PARAM);
	msg_has("timeout=5");
	ck_assert_int_eq(aclrtStreamWaitEventWithTimeout(s2, e, -3),
			 ACL_ERROR_RT_PARAM_INVALID);
	msg_has("timeout=-3");
	ck_assert_int_eq(aclrtRecordEventWithFlag(e, s1,
						  ACL_EVENT_RECORD_DEFAULT),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeEvent(e), ACL_SUCCESS);
	ck_assert_int_eq(status_of(e), ACL_EVENT_RECORDED_STATUS_COMPLETE);
	ck_assert_int_eq(aclrtDestroyEvent(e), ACL_SUCCESS);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("acl_event_fake");
	TCase *tc = tcase_create("event");

	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, test_record_query_synchronize);
	tcase_add_test(tc, test_elapsed_time_and_timestamps);
	tcase_add_test(tc, test_stream_waits_for_event_of_another_stream);
	tcase_add_test(tc, test_without_wait_order_is_not_kept);
	tcase_add_test(tc, test_event_slots_run_out);
	tcase_add_test(tc, test_reset_waits_for_its_stream);
	tcase_add_test(tc, test_wait_status_follows_waits);
	tcase_add_test(tc, test_ids_and_free_slots);
	tcase_add_test(tc, test_record_and_wait_flags);
	suite_add_tcase(s, tc);
	return t_run_suite(s);
}
