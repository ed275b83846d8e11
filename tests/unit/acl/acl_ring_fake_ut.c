// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of lib/acl_ring.c (and the batch code's doorbell units)
 * against a fake NPU whose queues have 16 entries: the free-running ring
 * indexes wrap many times, bursts longer than the ring go in several
 * doorbells, a batch longer than the ring is cut into batches each in
 * one doorbell, and while the queue is busy no doorbell is rung. A
 * stream's small work on an idle queue asks to run in the doorbell until
 * a burst shows, and a copy asks for it only on a sim NPU.
 */
#include <check.h>
#include <stdlib.h>

#include "acl_fake.h"
#include "acl_ut.h"
#include "t_check.h"

enum { ENTRIES = 16, CHUNK = 256, NCOPY = 100, SZ = NCOPY * CHUNK };

static void *host_a, *host_b, *dev;
static aclrtStream stream;

static void setup(void)
{
	struct fake_npu_cfg c = {
		.index = 0, .max_queue_entries = ENTRIES, .max_copy_len = 4096,
	};

	ck_assert_int_eq(fake_npu_add(&c), 0);
	set_device(0);
	ck_assert_int_eq(aclrtMallocHost(&host_a, SZ), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMallocHost(&host_b, SZ), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMalloc(&dev, SZ, ACL_MEM_MALLOC_HUGE_FIRST),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateStream(&stream), ACL_SUCCESS);
	fill_pattern(host_a, SZ, 2);
	memset(host_b, 0, SZ);
}

/* NCOPY chunk copies host_a -> dev, one descriptor each, on @s. */
static void copy_chunks(aclrtStream s)
{
	int i;

	for (i = 0; i < NCOPY; i++)
		ck_assert_int_eq(aclrtMemcpyAsync((char *)dev + i * CHUNK, CHUNK,
						  (char *)host_a + i * CHUNK,
						  CHUNK,
						  ACL_MEMCPY_HOST_TO_DEVICE, s),
				 ACL_SUCCESS);
}

START_TEST(test_ring_wraps_around)
{
	unsigned int bells = fake_kmd_calls(FAKE_QUEUE_SUBMIT);

	copy_chunks(stream);
	ck_assert_int_eq(aclrtMemcpyAsync(host_b, SZ, dev, SZ,
					  ACL_MEMCPY_DEVICE_TO_HOST, stream),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(stream), ACL_SUCCESS);
	ck_assert_pattern(host_b, SZ, 2);
	/* An idle queue wants a doorbell for each copy. */
	ck_assert_uint_ge(fake_kmd_calls(FAKE_QUEUE_SUBMIT) - bells, NCOPY);
}
END_TEST

/* Held, nothing completes: the ring still takes every copy. */
START_TEST(test_ring_wraps_while_the_device_is_slow)
{
	aclrtStreamStatus st;

	fake_kmd_hold(true);
	copy_chunks(stream);
	ck_assert_int_eq(aclrtStreamQuery(stream, &st), ACL_SUCCESS);
	ck_assert_int_eq(st, ACL_STREAM_STATUS_NOT_READY);
	fake_kmd_hold(false);
	ck_assert_int_eq(aclrtMemcpy(host_b, SZ, dev, SZ,
				     ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
	ck_assert_pattern(host_b, SZ, 2);
}
END_TEST

/*
 * A synchronous copy of SZ bytes at 4096 per descriptor is 7 of them on a
 * 16-entry library ring; 400 KiB is 100 of them, several bursts.
 */
START_TEST(test_sync_burst_longer_than_the_ring)
{
	size_t n = 400 * 1024;
	char *src = malloc(n), *dst = calloc(1, n);
	void *big = NULL;

	ck_assert_ptr_nonnull(src);
	ck_assert_ptr_nonnull(dst);
	fill_pattern(src, n, 8);
	ck_assert_int_eq(aclrtMalloc(&big, n, ACL_MEM_MALLOC_NORMAL_ONLY),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpy(big, n, src, n, ACL_MEMCPY_HOST_TO_DEVICE),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpy(dst, n, big, n, ACL_MEMCPY_DEVICE_TO_HOST),
			 ACL_SUCCESS);
	ck_assert_pattern(dst, n, 8);
	free(src);
	free(dst);
}
END_TEST

/*
 * 40 members on a 16-entry ring: the library cuts them into batches of
 * a ring each (BATCH_BEGIN .. BATCH_END in one doorbell); the fake
 * fails a batch that straddles doorbells, and runs members backwards.
 */
START_TEST(test_batch_longer_than_the_ring)
{
	enum { M = 40 };
	void *dsts[M], *srcs[M];
	size_t max[M], sizes[M], idx[1] = { 0 }, fail = 7;
	aclrtMemcpyBatchAttr attr;
	int i;

	memset(&attr, 0, sizeof(attr));
	attr.srcLoc.type = ACL_MEM_LOCATION_TYPE_HOST;
	attr.dstLoc.type = ACL_MEM_LOCATION_TYPE_DEVICE;
	for (i = 0; i < M; i++) {
		dsts[i] = (char *)dev + i * CHUNK;
		srcs[i] = (char *)host_a + i * CHUNK;
		max[i] = sizes[i] = CHUNK;
	}
	ck_assert_int_eq(aclrtMemcpyBatchAsync(dsts, max, srcs, sizes, M, &attr,
					       idx, 1, &fail, stream),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(stream), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpy(host_b, M * CHUNK, dev, M * CHUNK,
				     ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
	ck_assert_pattern(host_b, M * CHUNK, 2);
}
END_TEST

/* The same synchronously: the library's rings have 16 entries too. */
START_TEST(test_sync_batch_longer_than_the_ring)
{
	enum { M = 40 };
	void *dsts[M], *srcs[M];
	size_t max[M], sizes[M], idx[1] = { 0 }, fail = 7;
	aclrtMemcpyBatchAttr attr;
	int i;

	memset(&attr, 0, sizeof(attr));
	attr.srcLoc.type = ACL_MEM_LOCATION_TYPE_HOST;
	attr.dstLoc.type = ACL_MEM_LOCATION_TYPE_DEVICE;
	for (i = 0; i < M; i++) {
		dsts[i] = (char *)dev + i * CHUNK;
		srcs[i] = (char *)host_a + i * CHUNK;
		max[i] = sizes[i] = CHUNK;
	}
	ck_assert_msg(aclrtMemcpyBatch(dsts, max, srcs, sizes, M, &attr, idx, 1,
				       &fail) == ACL_SUCCESS, "%s",
		      aclGetRecentErrMsg());
	ck_assert_int_eq(aclrtMemcpy(host_b, M * CHUNK, dev, M * CHUNK,
				     ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
	ck_assert_pattern(host_b, M * CHUNK, 2);
}
END_TEST

/*
 * A queue that is working (NEED_WAKEUP clear) picks up what is published
 * by itself: no doorbell per copy. Idle again, the doorbell is back.
 */
START_TEST(test_no_doorbell_while_busy)
{
	unsigned int bells;

	fake_kmd_busy(true);
	bells = fake_kmd_calls(FAKE_QUEUE_SUBMIT);
	copy_chunks(stream);
	/* Only a full ring needs one: at most one per ENTRIES copies. */
	ck_assert_uint_le(fake_kmd_calls(FAKE_QUEUE_SUBMIT) - bells,
			  NCOPY / ENTRIES);
	fake_kmd_run();
	fake_kmd_busy(false);
	bells = fake_kmd_calls(FAKE_QUEUE_SUBMIT);
	ck_assert_int_eq(aclrtMemcpyAsync(host_b, SZ, dev, SZ,
					  ACL_MEMCPY_DEVICE_TO_HOST, stream),
			 ACL_SUCCESS);
	ck_assert_uint_eq(fake_kmd_calls(FAKE_QUEUE_SUBMIT), bells + 1);
	ck_assert_int_eq(aclrtSynchronizeStream(stream), ACL_SUCCESS);
	ck_assert_pattern(host_b, SZ, 2);
}
END_TEST

/* An async copy of @n bytes host_a -> dev and its inline doorbells. */
static unsigned int inline_bells_of_copy(aclrtStream s, size_t n)
{
	unsigned int before = fake_kmd_inline_doorbells();

	ck_assert_int_eq(aclrtMemcpyAsync(dev, SZ, host_a, n,
					  ACL_MEMCPY_HOST_TO_DEVICE, s),
			 ACL_SUCCESS);
	return fake_kmd_inline_doorbells() - before;
}

static unsigned int inline_bells_of_record(aclrtStream s, aclrtEvent e)
{
	unsigned int before = fake_kmd_inline_doorbells();

	ck_assert_int_eq(aclrtRecordEvent(e, s), ACL_SUCCESS);
	return fake_kmd_inline_doorbells() - before;
}

/*
 * Four doorbells in a row ask to run inline; the fifth wakes the worker
 * (a burst rides on it); a wait on the stream starts over.
 */
START_TEST(test_async_inline_until_a_burst)
{
	aclrtEvent e;
	int i;

	ck_assert_int_eq(aclrtCreateEvent(&e), ACL_SUCCESS);
	for (i = 0; i < 4; i++)
		ck_assert_uint_eq(inline_bells_of_copy(stream, CHUNK), 1);
	ck_assert_uint_eq(inline_bells_of_copy(stream, CHUNK), 0);
	ck_assert_uint_eq(inline_bells_of_record(stream, e), 0);
	ck_assert_int_eq(aclrtSynchronizeStream(stream), ACL_SUCCESS);
	ck_assert_uint_eq(inline_bells_of_copy(stream, CHUNK), 1);
	ck_assert_uint_eq(inline_bells_of_record(stream, e), 1);
	ck_assert_int_eq(aclrtSynchronizeEvent(e), ACL_SUCCESS);
	/* 64 KiB in all at most: SZ is 25 KiB, the copy 7 descriptors. */
	ck_assert_uint_eq(inline_bells_of_copy(stream, SZ), 1);
	ck_assert_int_eq(aclrtDestroyEvent(e), ACL_SUCCESS);
}
END_TEST

/*
 * More than 64 KiB goes to the worker, whatever the streak: one 1 MiB
 * descriptor on an NPU of the default limits.
 */
START_TEST(test_async_inline_not_for_long_copies)
{
	struct fake_npu_cfg c = { .index = 0 };
	size_t n = 128 << 10;
	void *h = NULL, *d = NULL;
	unsigned int before;
	aclrtStream s;

	ck_assert_int_eq(fake_npu_add(&c), 0);
	set_device(0);
	ck_assert_int_eq(aclrtMallocHost(&h, n), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMalloc(&d, n, ACL_MEM_MALLOC_NORMAL_ONLY),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateStream(&s), ACL_SUCCESS);
	before = fake_kmd_inline_doorbells();
	ck_assert_int_eq(aclrtMemcpyAsync(d, n, h, n, ACL_MEMCPY_HOST_TO_DEVICE,
					  s), ACL_SUCCESS);
	ck_assert_uint_eq(fake_kmd_inline_doorbells(), before);
	ck_assert_int_eq(aclrtMemcpyAsync(d, n, h, n / 2,
					  ACL_MEMCPY_HOST_TO_DEVICE, s),
			 ACL_SUCCESS);
	ck_assert_uint_eq(fake_kmd_inline_doorbells(), before + 1);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);
}
END_TEST

/* ACL_ASYNC_INLINE=0 at a stream's creation: never. */
START_TEST(test_async_inline_off)
{
	aclrtStream s;

	ck_assert_int_eq(setenv("ACL_ASYNC_INLINE", "0", 1), 0);
	ck_assert_int_eq(aclrtCreateStream(&s), ACL_SUCCESS);
	ck_assert_uint_eq(inline_bells_of_copy(s, CHUNK), 0);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
}
END_TEST

/* An engine that DMAs: records run inline, copies never. */
START_TEST(test_async_inline_edu)
{
	struct fake_npu_cfg c = { .index = 0, .edu = true };
	aclrtStream s;
	aclrtEvent e;
	void *h = NULL, *d = NULL;
	unsigned int before;

	ck_assert_int_eq(fake_npu_add(&c), 0);
	set_device(0);
	ck_assert_int_eq(aclrtMallocHost(&h, CHUNK), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMalloc(&d, CHUNK, ACL_MEM_MALLOC_NORMAL_ONLY),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateStream(&s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateEvent(&e), ACL_SUCCESS);
	before = fake_kmd_inline_doorbells();
	ck_assert_int_eq(aclrtMemcpyAsync(d, CHUNK, h, CHUNK,
					  ACL_MEMCPY_HOST_TO_DEVICE, s),
			 ACL_SUCCESS);
	ck_assert_uint_eq(fake_kmd_inline_doorbells(), before);
	ck_assert_uint_eq(inline_bells_of_record(s, e), 1);
	ck_assert_int_eq(aclrtSynchronizeEvent(e), ACL_SUCCESS);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("acl_ring_fake");
	TCase *tc = tcase_create("ring");
	TCase *edu = tcase_create("own NPU");

	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, test_ring_wraps_around);
	tcase_add_test(tc, test_ring_wraps_while_the_device_is_slow);
	tcase_add_test(tc, test_sync_burst_longer_than_the_ring);
	tcase_add_test(tc, test_batch_longer_than_the_ring);
	tcase_add_test(tc, test_sync_batch_longer_than_the_ring);
	tcase_add_test(tc, test_no_doorbell_while_busy);
	tcase_add_test(tc, test_async_inline_until_a_burst);
	tcase_add_test(tc, test_async_inline_off);
	suite_add_tcase(s, tc);
	tcase_add_test(edu, test_async_inline_edu);
	tcase_add_test(edu, test_async_inline_not_for_long_copies);
	suite_add_tcase(s, edu);
	return t_run_suite(s);
}
