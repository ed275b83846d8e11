// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of libacl's streams (lib/acl_stream.c, acl_copy.c,
 * acl_submit.c, acl_callback.c, acl_capture.c) against a fake NPU:
 * asynchronous copies move bytes, a stream is not done while the device
 * holds its work, a failed descriptor is reported once with the right
 * code, host functions run in stream order, graphs replay.
 */
#include <check.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

#include "acl_fake.h"
#include "acl_ut.h"
#include "t_check.h"

enum { SZ = 64 * 1024 };

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
	fill_pattern(host_a, SZ, 3);
	memset(host_b, 0, SZ);
}

START_TEST(test_memcpy_async_moves_bytes)
{
	ck_assert_uint_eq(fake_npu_registrations(0), 2);	/* pinned */
	ck_assert_int_eq(aclrtMemcpyAsync(dev, SZ, host_a, SZ,
					  ACL_MEMCPY_HOST_TO_DEVICE, stream),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpyAsync(host_b, SZ, dev, SZ,
					  ACL_MEMCPY_DEVICE_TO_HOST, stream),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(stream), ACL_SUCCESS);
	ck_assert_pattern(host_b, SZ, 3);
}
END_TEST

/* Pinned: queued and returned; the stream completes when the device does. */
START_TEST(test_stream_waits_for_the_device)
{
	aclrtStreamStatus st = ACL_STREAM_STATUS_COMPLETE;

	fake_kmd_hold(true);
	ck_assert_int_eq(aclrtMemcpyAsync(dev, SZ, host_a, SZ,
					  ACL_MEMCPY_HOST_TO_DEVICE, stream),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpyAsync(host_b, SZ, dev, SZ,
					  ACL_MEMCPY_DEVICE_TO_HOST, stream),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclrtStreamQuery(stream, &st), ACL_SUCCESS);
	ck_assert_int_eq(st, ACL_STREAM_STATUS_NOT_READY);
	ck_assert_int_eq(aclrtSynchronizeStreamWithTimeout(stream, 30),
			 ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
	msg_has("not done after 30 ms");
	/* Nothing ran: the destination is still all zeros. */
	ck_assert_uint_eq(((unsigned char *)host_b)[0], 0);
	ck_assert_uint_eq(((unsigned char *)host_b)[SZ - 1], 0);
	fake_kmd_run();
	ck_assert_int_eq(aclrtStreamQuery(stream, &st), ACL_SUCCESS);
	ck_assert_int_eq(st, ACL_STREAM_STATUS_COMPLETE);
	ck_assert_int_eq(aclrtSynchronizeStream(stream), ACL_SUCCESS);
	ck_assert_pattern(host_b, SZ, 3);
}
END_TEST

/* Pageable host memory: the call returns only once its copy is done. */
START_TEST(test_pageable_async_copy_is_done_on_return)
{
	char *src = malloc(SZ), *dst = calloc(1, SZ);

	ck_assert_ptr_nonnull(src);
	ck_assert_ptr_nonnull(dst);
	fill_pattern(src, SZ, 9);
	ck_assert_int_eq(aclrtMemcpyAsync(dev, SZ, src, SZ,
					  ACL_MEMCPY_HOST_TO_DEVICE, stream),
			 ACL_SUCCESS);
	memset(src, 0, SZ);	/* the caller's buffer is free again */
	ck_assert_int_eq(aclrtMemcpyAsync(dst, SZ, dev, SZ,
					  ACL_MEMCPY_DEVICE_TO_HOST, stream),
			 ACL_SUCCESS);
	ck_assert_pattern(dst, SZ, 9);
	free(src);
	free(dst);
}
END_TEST

/* A copy longer than max_copy_len (1 MiB here) goes as several. */
START_TEST(test_long_copy_is_split)
{
	size_t n = 3 * (1 << 20) + 5;
	void *big = NULL, *h = NULL, *back = NULL;

	ck_assert_int_eq(aclrtMalloc(&big, n, ACL_MEM_MALLOC_HUGE_FIRST),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclrtMallocHost(&h, n), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMallocHost(&back, n), ACL_SUCCESS);
	fill_pattern(h, n, 5);
	ck_assert_int_eq(aclrtMemcpyAsync(big, n, h, n, ACL_MEMCPY_HOST_TO_DEVICE,
					  stream), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpyAsync(back, n, big, n,
					  ACL_MEMCPY_DEVICE_TO_HOST, stream),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(stream), ACL_SUCCESS);
	ck_assert_pattern(back, n, 5);
}
END_TEST

/*
 * A descriptor naming memory freed meanwhile fails in the driver
 * (-EFAULT): the next synchronize reports ACL_ERROR_RT_PARAM_INVALID,
 * once; the stream goes on.
 */
START_TEST(test_failed_descriptor_is_reported_once)
{
	void *gone = NULL;

	ck_assert_int_eq(aclrtMalloc(&gone, 4096, ACL_MEM_MALLOC_HUGE_FIRST),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(gone), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpyAsync(gone, 4096, host_a, 4096,
					  ACL_MEMCPY_HOST_TO_DEVICE, stream),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpyAsync(dev, SZ, host_a, SZ,
					  ACL_MEMCPY_HOST_TO_DEVICE, stream),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(stream),
			 ACL_ERROR_RT_PARAM_INVALID);
	msg_has("failed: Bad address");
	ck_assert_int_eq(aclrtSynchronizeStream(stream), ACL_SUCCESS);
	/* The copy after the failed one ran. */
	ck_assert_int_eq(aclrtMemcpy(host_b, SZ, dev, SZ,
				     ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
	ck_assert_pattern(host_b, SZ, 3);
}
END_TEST

/* A synchronous copy of freed memory fails at once, with its own error. */
START_TEST(test_failed_sync_copy)
{
	void *gone = NULL;

	ck_assert_int_eq(aclrtMalloc(&gone, 4096, ACL_MEM_MALLOC_HUGE_FIRST),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(gone), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpy(host_b, 4096, gone, 4096,
				     ACL_MEMCPY_DEVICE_TO_HOST),
			 ACL_ERROR_RT_PARAM_INVALID);
	msg_has("transfer of 4096 bytes on device 0 failed: Bad address");
	/* Not the stream's: its synchronize has nothing to report. */
	ck_assert_int_eq(aclrtSynchronizeStream(stream), ACL_SUCCESS);
}
END_TEST

/* A doorbell the driver refuses: the copy is not queued, the ring stays sane. */
START_TEST(test_refused_doorbell)
{
	fake_kmd_fail_next(FAKE_QUEUE_SUBMIT, -ENOMEM);
	ck_assert_int_eq(aclrtMemcpyAsync(dev, SZ, host_a, SZ,
					  ACL_MEMCPY_HOST_TO_DEVICE, stream),
			 ACL_ERROR_RT_MEMORY_ALLOCATION);
	msg_has("DRM_IOCTL_NPU_DMA_QUEUE_SUBMIT failed");
	fill_pattern(host_a, SZ, 4);
	ck_assert_int_eq(aclrtMemcpyAsync(dev, SZ, host_a, SZ,
					  ACL_MEMCPY_HOST_TO_DEVICE, stream),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpyAsync(host_b, SZ, dev, SZ,
					  ACL_MEMCPY_DEVICE_TO_HOST, stream),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(stream), ACL_SUCCESS);
	ck_assert_pattern(host_b, SZ, 4);
}
END_TEST

START_TEST(test_memset_async)
{
	unsigned char *b = host_b;

	ck_assert_int_eq(aclrtMemsetAsync(dev, SZ, 0xa5, 1000, stream),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpyAsync(host_b, SZ, dev, SZ,
					  ACL_MEMCPY_DEVICE_TO_HOST, stream),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(stream), ACL_SUCCESS);
	ck_assert_uint_eq(b[0], 0xa5);
	ck_assert_uint_eq(b[999], 0xa5);
	ck_assert_uint_ne(b[1000], 0xa5);
}
END_TEST

struct hf_seen {
	int calls;
	long diff;		/* pattern check of host_b when it ran */
};

static void host_fn(void *arg)
{
	struct hf_seen *seen = arg;

	seen->calls++;
	seen->diff = pattern_diff(host_b, SZ, 3);
}

/* A host function runs after the stream's earlier copies, before later ones. */
START_TEST(test_host_func_runs_in_stream_order)
{
	struct hf_seen seen = { 0, 0 };

	ck_assert_int_eq(aclrtMemcpyAsync(dev, SZ, host_a, SZ,
					  ACL_MEMCPY_HOST_TO_DEVICE, stream),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpyAsync(host_b, SZ, dev, SZ,
					  ACL_MEMCPY_DEVICE_TO_HOST, stream),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclrtLaunchHostFunc(stream, host_fn, &seen),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemsetAsync(dev, SZ, 0, SZ, stream), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpyAsync(host_b, SZ, dev, SZ,
					  ACL_MEMCPY_DEVICE_TO_HOST, stream),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(stream), ACL_SUCCESS);
	ck_assert_int_eq(seen.calls, 1);
	ck_assert_int_eq(seen.diff, -1);	/* it saw the first copy back */
	ck_assert_uint_eq(((unsigned char *)host_b)[5], 0);	/* then zeros */
	ck_assert_int_eq(aclrtDestroyStream(stream), ACL_SUCCESS);
}
END_TEST

START_TEST(test_destroy_stream_destroys_its_queue)
{
	ck_assert_uint_eq(fake_npu_queues(0), 2);	/* default + ours */
	ck_assert_int_eq(aclrtMemcpyAsync(dev, SZ, host_a, SZ,
					  ACL_MEMCPY_HOST_TO_DEVICE, stream),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(stream), ACL_SUCCESS);
	ck_assert_uint_eq(fake_npu_queues(0), 1);
}
END_TEST

enum { NTHREADS = 4, PER_THREAD = 64, PIECE = SZ / (NTHREADS * PER_THREAD) };

/* One thread's share of host_a -> dev, piece by piece, then a sync. */
static void *copier(void *arg)
{
	long t = (long)arg;
	aclError ret = aclrtSetDevice(0);
	int i;

	for (i = 0; !ret && i < PER_THREAD; i++) {
		size_t off = ((size_t)t * PER_THREAD + (size_t)i) * PIECE;

		ret = aclrtMemcpyAsync((char *)dev + off, PIECE,
				       (char *)host_a + off, PIECE,
				       ACL_MEMCPY_HOST_TO_DEVICE, stream);
	}
	if (!ret)
		ret = aclrtSynchronizeStream(stream);
	return (void *)(long)ret;
}

/* Threads share one stream: the ring lock orders them, waiters share it. */
START_TEST(test_threads_share_a_stream)
{
	pthread_t th[NTHREADS];
	void *ret;
	long t;

	for (t = 0; t < NTHREADS; t++)
		ck_assert_int_eq(pthread_create(&th[t], NULL, copier, (void *)t), 0);
	for (t = 0; t < NTHREADS; t++) {
		ck_assert_int_eq(pthread_join(th[t], &ret), 0);
		ck_assert_int_eq((long)ret, ACL_SUCCESS);
	}
	ck_assert_int_eq(aclrtMemcpy(host_b, SZ, dev, SZ,
				     ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
	ck_assert_pattern(host_b, SZ, 3);
}
END_TEST

/* A captured copy becomes the driver's graph; each replay runs it. */
START_TEST(test_capture_replays_as_a_graph)
{
	aclmdlRI ri = NULL;
	int i;

	ck_assert_int_eq(aclmdlRICaptureBegin(stream,
					      ACL_MODEL_RI_CAPTURE_MODE_RELAXED),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpyAsync(dev, SZ, host_a, SZ,
					  ACL_MEMCPY_HOST_TO_DEVICE, stream),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpyAsync(host_b, SZ, dev, SZ,
					  ACL_MEMCPY_DEVICE_TO_HOST, stream),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclmdlRICaptureEnd(stream, &ri), ACL_SUCCESS);
	ck_assert_uint_eq(fake_kmd_calls(FAKE_GRAPH_CREATE), 1);
	ck_assert_int_eq(pattern_diff(host_b, SZ, 3), 0);	/* not run yet */
	for (i = 0; i < 2; i++) {
		fill_pattern(host_a, SZ, 10 + i);
		ck_assert_int_eq(aclmdlRIExecuteAsync(ri, stream), ACL_SUCCESS);
		ck_assert_int_eq(aclrtSynchronizeStream(stream), ACL_SUCCESS);
		ck_assert_pattern(host_b, SZ, 10 + i);
	}
	ck_assert_int_eq(aclmdlRIDestroy(ri), ACL_SUCCESS);
	ck_assert_uint_eq(fake_kmd_calls(FAKE_GRAPH_DESTROY), 1);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("acl_stream_fake");
	TCase *tc = tcase_create("stream");

	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, test_memcpy_async_moves_bytes);
	tcase_add_test(tc, test_stream_waits_for_the_device);
	tcase_add_test(tc, test_pageable_async_copy_is_done_on_return);
	tcase_add_test(tc, test_long_copy_is_split);
	tcase_add_test(tc, test_failed_descriptor_is_reported_once);
	tcase_add_test(tc, test_failed_sync_copy);
	tcase_add_test(tc, test_refused_doorbell);
	tcase_add_test(tc, test_memset_async);
	tcase_add_test(tc, test_host_func_runs_in_stream_order);
	tcase_add_test(tc, test_destroy_stream_destroys_its_queue);
	tcase_add_test(tc, test_threads_share_a_stream);
	tcase_add_test(tc, test_capture_replays_as_a_graph);
	suite_add_tcase(s, tc);
	return t_run_suite(s);
}
