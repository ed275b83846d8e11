// SPDX-License-Identifier: GPL-2.0-only
/*
 * libacl in the guest: streams, events and asynchronous copies, on an
 * edu and on a sim NPU (loop index 0 = edu, 1 = sim). edu moves every
 * byte through an emulated card, so its sizes stay small.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "t_acl.h"

/* A size that keeps edu fast enough and gives sim real work. */
static size_t big(int i)
{
	return i ? 32u << 20 : 12u << 10;
}

START_TEST(test_stream_lifecycle)
{
	aclrtStreamStatus st;
	aclrtStream s, s2;
	aclrtContext other;
	uint32_t flags, prio;
	int32_t id;
	int dev;

	if (!t_acl_use_backend(_i, &dev))
		return;
	T_ACL_OK(aclrtCreateStream(&s));
	T_ACL_OK(aclrtStreamQuery(s, &st));
	ck_assert_int_eq(st, ACL_STREAM_STATUS_COMPLETE);
	T_ACL_OK(aclrtSynchronizeStream(s));
	T_ACL_OK(aclrtSynchronizeStreamWithTimeout(s, 1000));
	T_ACL_EQ(aclrtSynchronizeStreamWithTimeout(s, 0),
		 ACL_ERROR_RT_PARAM_INVALID);
	t_acl_msg_has("timeout=0");
	T_ACL_EQ(aclrtSynchronizeStreamWithTimeout(s, -2),
		 ACL_ERROR_RT_PARAM_INVALID);
	T_ACL_OK(aclrtCreateStreamWithConfig(&s2, 99, ACL_STREAM_FAST_LAUNCH));
	T_ACL_OK(aclrtStreamGetPriority(s2, &prio));
	ck_assert_uint_eq(prio, 7);		/* clamped */
	T_ACL_OK(aclrtStreamGetFlags(s2, &flags));
	ck_assert_uint_eq(flags, ACL_STREAM_FAST_LAUNCH);
	T_ACL_OK(aclrtStreamGetId(s2, &id));
	T_ACL_OK(aclrtStreamQuery(NULL, &st));
	T_ACL_EQ(aclrtStreamQuery(s, NULL), ACL_ERROR_INVALID_PARAM);
	T_ACL_EQ(aclrtDestroyStream(NULL), ACL_ERROR_INVALID_PARAM);
	/* Only the stream's own context may destroy it. */
	T_ACL_OK(aclrtCreateContext(&other, dev));
	T_ACL_EQ(aclrtDestroyStream(s2), ACL_ERROR_RT_STREAM_CONTEXT);
	T_ACL_OK(aclrtDestroyContext(other));
	T_ACL_OK(aclrtSetDevice(dev));
	T_ACL_OK(aclrtDestroyStream(s2));
	T_ACL_OK(aclrtDestroyStreamForce(s));
	T_ACL_EQ(aclrtSynchronizeStream(s), ACL_ERROR_RT_INVALID_HANDLE);
	t_acl_msg_has("not a live stream");
	T_ACL_OK(aclrtSynchronizeDevice());
	T_ACL_OK(aclrtSynchronizeDeviceWithTimeout(1000));
	T_ACL_EQ(aclrtSynchronizeDeviceWithTimeout(0), ACL_ERROR_RT_PARAM_INVALID);
	T_ACL_OK(aclrtResetDeviceForce(dev));
	T_ACL_EQ(aclrtCreateStream(&s), ACL_ERROR_RT_CONTEXT_NULL);
}
END_TEST

/* H2D -> D2D -> D2H on one stream, pinned host memory, data checked. */
START_TEST(test_chain_on_one_stream)
{
	size_t len = big(_i) + 3;
	void *h, *back, *d0, *d1;
	aclrtStream s;
	int dev;

	if (!t_acl_use_backend(_i, &dev))
		return;
	T_ACL_OK(aclrtCreateStream(&s));
	T_ACL_OK(aclrtMallocHost(&h, len));
	T_ACL_OK(aclrtMallocHost(&back, len));
	T_ACL_OK(aclrtMalloc(&d0, len, ACL_MEM_MALLOC_HUGE_FIRST));
	T_ACL_OK(aclrtMalloc(&d1, len, ACL_MEM_MALLOC_HUGE_FIRST));
	t_pattern_fill(h, len, 11);
	memset(back, 0, len);
	T_ACL_OK(aclrtMemcpyAsync(d0, len, h, len, ACL_MEMCPY_HOST_TO_DEVICE, s));
	T_ACL_OK(aclrtMemcpyAsync(d1, len, d0, len, ACL_MEMCPY_DEVICE_TO_DEVICE, s));
	T_ACL_OK(aclrtMemcpyAsync(back, len, d1, len, ACL_MEMCPY_DEVICE_TO_HOST, s));
	T_ACL_OK(aclrtSynchronizeStream(s));
	ck_assert_uint_eq(t_pattern_check(back, len, 11), len);
	/* DEFAULT resolves from the pointers; a wrong kind is corrected. */
	t_pattern_fill(h, len, 12);
	T_ACL_OK(aclrtMemcpyAsync(d0, len, h, len, ACL_MEMCPY_DEFAULT, s));
	T_ACL_OK(aclrtMemcpyAsync(back, len, d0, len, ACL_MEMCPY_HOST_TO_DEVICE, s));
	T_ACL_OK(aclrtSynchronizeStream(s));
	ck_assert_uint_eq(t_pattern_check(back, len, 12), len);
	T_ACL_EQ(aclrtMemcpyAsync(back, len, h, len, ACL_MEMCPY_HOST_TO_HOST, s),
		 ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	t_acl_msg_has("host-to-host");
	T_ACL_EQ(aclrtMemcpyAsync(d0, 4, h, 8, ACL_MEMCPY_HOST_TO_DEVICE, s),
		 ACL_ERROR_RT_PARAM_INVALID);
	T_ACL_EQ(aclrtMemcpyAsync(d0, 8, h, 8, ACL_MEMCPY_INTER_DEVICE_TO_DEVICE,
				  s), ACL_ERROR_INVALID_PARAM);
	T_ACL_OK(aclrtMemcpyAsync(d0, 0, NULL, 0, ACL_MEMCPY_HOST_TO_DEVICE, s));
	T_ACL_OK(aclrtDestroyStream(s));
	T_ACL_OK(aclrtFree(d0));
	T_ACL_OK(aclrtFree(d1));
	T_ACL_OK(aclrtFreeHost(h));
	T_ACL_OK(aclrtFreeHost(back));
	T_ACL_OK(aclrtResetDevice(dev));
}
END_TEST

/*
 * A pageable async copy returns complete, after the pinned work queued
 * before it on the same stream.
 */
START_TEST(test_pageable_async_is_complete_on_return)
{
	size_t len = big(_i);
	char *src = malloc(len), *dst = malloc(len);
	aclrtStreamStatus st;
	void *d, *ph;
	aclrtStream s;
	int dev;

	if (!t_acl_use_backend(_i, &dev))
		return;
	T_ACL_OK(aclrtCreateStream(&s));
	T_ACL_OK(aclrtMalloc(&d, len, ACL_MEM_MALLOC_HUGE_FIRST));
	T_ACL_OK(aclrtMallocHost(&ph, len));
	t_pattern_fill(ph, len, 21);
	t_pattern_fill(src, len, 22);
	memset(dst, 0, len);
	/* Queued (pinned), then overwritten in stream order (pageable). */
	T_ACL_OK(aclrtMemcpyAsync(d, len, ph, len, ACL_MEMCPY_HOST_TO_DEVICE, s));
	T_ACL_OK(aclrtMemcpyAsync(d, len, src, len, ACL_MEMCPY_HOST_TO_DEVICE, s));
	T_ACL_OK(aclrtMemcpyAsync(dst, len, d, len, ACL_MEMCPY_DEVICE_TO_HOST, s));
	ck_assert_uint_eq(t_pattern_check(dst, len, 22), len);
	T_ACL_OK(aclrtStreamQuery(s, &st));
	ck_assert_int_eq(st, ACL_STREAM_STATUS_COMPLETE);
	T_ACL_OK(aclrtDestroyStream(s));
	T_ACL_OK(aclrtFree(d));
	T_ACL_OK(aclrtFreeHost(ph));
	free(src);
	free(dst);
	T_ACL_OK(aclrtResetDevice(dev));
}
END_TEST

/*
 * The pinned fast path of aclrtMemcpyAsync remembers the last host range
 * it found: once that range is unregistered, the next copy of it is
 * pageable (complete on return, refused where pinned memory is required),
 * in both directions.
 */
START_TEST(test_async_forgets_unregistered_range)
{
	size_t len = 3 * 4096;
	char *buf = aligned_alloc(4096, len), *back = malloc(len);
	void *d, *dp;
	aclrtStream s;
	int dev;

	if (!t_acl_use_backend(_i, &dev))
		return;
	T_ACL_OK(aclrtCreateStream(&s));
	T_ACL_OK(aclrtMalloc(&d, len, ACL_MEM_MALLOC_HUGE_FIRST));
	T_ACL_OK(aclrtHostRegister(buf, len, ACL_HOST_REGISTER_MAPPED, &dp));
	t_pattern_fill(buf, len, 31);
	T_ACL_OK(aclrtMemcpyAsync(d, len, buf, len, ACL_MEMCPY_HOST_TO_DEVICE, s));
	T_ACL_OK(aclrtMemcpyAsync(buf, len, d, len, ACL_MEMCPY_DEVICE_TO_HOST, s));
	T_ACL_OK(aclrtSynchronizeStream(s));
	T_ACL_OK(aclrtHostUnregister(buf));

	t_pattern_fill(buf, len, 32);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
	T_ACL_EQ(aclrtMemcpyAsyncWithCondition(d, len, buf, len,
					       ACL_MEMCPY_HOST_TO_DEVICE, s),
		 ACL_ERROR_RT_PARAM_INVALID);
#pragma GCC diagnostic pop
	T_ACL_OK(aclrtMemcpyAsync(d, len, buf, len, ACL_MEMCPY_HOST_TO_DEVICE, s));
	memset(buf, 0, len);
	T_ACL_OK(aclrtMemcpyAsync(buf, len, d, len, ACL_MEMCPY_DEVICE_TO_HOST, s));
	/* Pageable: done on return, before any synchronize. */
	ck_assert_uint_eq(t_pattern_check(buf, len, 32), len);
	memcpy(back, buf, len);
	T_ACL_OK(aclrtSynchronizeStream(s));
	ck_assert_uint_eq(t_pattern_check(back, len, 32), len);
	T_ACL_OK(aclrtDestroyStream(s));
	T_ACL_OK(aclrtFree(d));
	free(buf);
	free(back);
	T_ACL_OK(aclrtResetDevice(dev));
}
END_TEST

/* s2 reads what s1 writes, ordered only by an event. */
START_TEST(test_two_streams_ordered_by_event)
{
	size_t len = big(_i);
	void *h, *back, *d;
	aclrtStream s1, s2;
	aclrtEvent e;
	aclrtEventRecordedStatus st;
	int dev;

	if (!t_acl_use_backend(_i, &dev))
		return;
	T_ACL_OK(aclrtCreateStream(&s1));
	T_ACL_OK(aclrtCreateStream(&s2));
	T_ACL_OK(aclrtCreateEvent(&e));
	T_ACL_OK(aclrtMallocHost(&h, len));
	T_ACL_OK(aclrtMallocHost(&back, len));
	T_ACL_OK(aclrtMalloc(&d, len, ACL_MEM_MALLOC_HUGE_FIRST));
	t_pattern_fill(h, len, 31);
	memset(back, 0, len);
	T_ACL_OK(aclrtMemsetAsync(d, len, 0, len, s1));
	T_ACL_OK(aclrtMemcpyAsync(d, len, h, len, ACL_MEMCPY_HOST_TO_DEVICE, s1));
	T_ACL_OK(aclrtRecordEvent(e, s1));
	T_ACL_OK(aclrtStreamWaitEvent(s2, e));
	T_ACL_OK(aclrtMemcpyAsync(back, len, d, len, ACL_MEMCPY_DEVICE_TO_HOST, s2));
	T_ACL_OK(aclrtSynchronizeStream(s2));
	ck_assert_uint_eq(t_pattern_check(back, len, 31), len);
	T_ACL_OK(aclrtQueryEventStatus(e, &st));
	ck_assert_int_eq(st, ACL_EVENT_RECORDED_STATUS_COMPLETE);
	T_ACL_OK(aclrtSynchronizeEvent(e));
	T_ACL_EQ(aclrtStreamWaitEvent(s2, NULL), ACL_ERROR_INVALID_PARAM);
	T_ACL_OK(aclrtResetEvent(e, s2));
	/* The reset is work of s2: done once s2 reached it. */
	T_ACL_OK(aclrtSynchronizeStream(s2));
	T_ACL_OK(aclrtQueryEventStatus(e, &st));
	ck_assert_int_eq(st, ACL_EVENT_RECORDED_STATUS_NOT_READY);
	T_ACL_OK(aclrtDestroyEvent(e));
	T_ACL_OK(aclrtDestroyStream(s1));
	T_ACL_OK(aclrtDestroyStream(s2));
	T_ACL_OK(aclrtFree(d));
	T_ACL_OK(aclrtFreeHost(h));
	T_ACL_OK(aclrtFreeHost(back));
	T_ACL_OK(aclrtResetDevice(dev));
}
END_TEST

START_TEST(test_event_elapsed_time)
{
	size_t len = big(_i);
	aclrtEvent a, b;
	uint64_t ts, ts_a, t0, t1;
	void *h, *d;
	float ms = -1, ms_ab;
	int dev;

	if (!t_acl_use_backend(_i, &dev))
		return;
	T_ACL_OK(aclrtCreateEvent(&a));
	T_ACL_OK(aclrtCreateEvent(&b));
	T_ACL_EQ(aclrtEventElapsedTime(&ms, a, b), ACL_ERROR_RT_INTERNAL_ERROR);
	t_acl_msg_has("never recorded");
	T_ACL_OK(aclrtMallocHost(&h, len));
	T_ACL_OK(aclrtMalloc(&d, len, ACL_MEM_MALLOC_HUGE_FIRST));
	t0 = t_now_ns();
	T_ACL_OK(aclrtRecordEvent(a, NULL));
	T_ACL_OK(aclrtMemcpyAsync(d, len, h, len, ACL_MEMCPY_HOST_TO_DEVICE, NULL));
	T_ACL_OK(aclrtRecordEvent(b, NULL));
	T_ACL_OK(aclrtSynchronizeEvent(b));
	t1 = t_now_ns();
	T_ACL_OK(aclrtEventElapsedTime(&ms, a, b));
	ck_assert_float_gt(ms, 0.0f);
	ck_assert_float_lt(ms, 60000.0f);
	/* Both records completed between t0 and t1 (the same clock). */
	ck_assert_float_le(ms, (float)((double)(t1 - t0) / 1e6));
	ms_ab = ms;
	T_ACL_OK(aclrtEventElapsedTime(&ms, b, a));
	ck_assert_float_le(ms, 0.0f);
	ck_assert_float_eq(ms, -ms_ab);
	T_ACL_OK(aclrtEventGetTimestamp(a, &ts_a));
	T_ACL_OK(aclrtEventGetTimestamp(b, &ts));
	ck_assert_uint_gt(ts, 0);
	/* Microseconds of CLOCK_MONOTONIC, in order, inside the window. */
	ck_assert_uint_ge(ts_a, t0 / 1000);
	ck_assert_uint_ge(ts, ts_a);
	ck_assert_uint_le(ts, t1 / 1000);
	T_ACL_EQ(aclrtEventElapsedTime(NULL, a, b), ACL_ERROR_INVALID_PARAM);
	T_ACL_OK(aclrtDestroyEvent(a));
	T_ACL_OK(aclrtDestroyEvent(b));
	T_ACL_OK(aclrtFree(d));
	T_ACL_OK(aclrtFreeHost(h));
	T_ACL_OK(aclrtResetDevice(dev));
}
END_TEST

START_TEST(test_event_flags_and_status)
{
	aclrtEventRecordedStatus st;
	aclrtEventStatus old;
	aclrtEvent e, t;
	float ms;
	int dev;

	if (!t_acl_use_backend(_i, &dev))
		return;
	T_ACL_EQ(aclrtCreateEventWithFlag(&e, 0), ACL_ERROR_RT_PARAM_INVALID);
	t_acl_msg_has("flag=0");
	T_ACL_EQ(aclrtCreateEventWithFlag(&e, ACL_EVENT_IPC),
		 ACL_ERROR_RT_PARAM_INVALID);
	T_ACL_EQ(aclrtCreateEventWithFlag(&e, ACL_EVENT_EXTERNAL | ACL_EVENT_SYNC),
		 ACL_ERROR_RT_PARAM_INVALID);
	/* Plain events: NOT_READY before a record; Ex events: COMPLETE. */
	T_ACL_OK(aclrtCreateEvent(&e));
	T_ACL_OK(aclrtQueryEventStatus(e, &st));
	ck_assert_int_eq(st, ACL_EVENT_RECORDED_STATUS_NOT_READY);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
	T_ACL_OK(aclrtQueryEvent(e, &old));
#pragma GCC diagnostic pop
	ck_assert_int_eq(old, ACL_EVENT_STATUS_NOT_READY);
	T_ACL_OK(aclrtDestroyEvent(e));
	T_ACL_OK(aclrtCreateEventExWithFlag(&e, ACL_EVENT_SYNC));
	T_ACL_OK(aclrtQueryEventStatus(e, &st));
	ck_assert_int_eq(st, ACL_EVENT_RECORDED_STATUS_COMPLETE);
	T_ACL_OK(aclrtRecordEvent(e, NULL));
	T_ACL_OK(aclrtSynchronizeEventWithTimeout(e, 10000));
	T_ACL_EQ(aclrtSynchronizeEventWithTimeout(e, 0), ACL_ERROR_RT_PARAM_INVALID);
	/* Without TIME_LINE no timestamps; without SYNC no waits. */
	T_ACL_OK(aclrtCreateEventWithFlag(&t, ACL_EVENT_TIME_LINE));
	T_ACL_OK(aclrtRecordEvent(t, NULL));
	T_ACL_OK(aclrtSynchronizeEvent(t));
	T_ACL_EQ(aclrtEventElapsedTime(&ms, e, t),
		 ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID);
	t_acl_msg_has("ACL_EVENT_TIME_LINE");
	T_ACL_EQ(aclrtStreamWaitEvent(NULL, t), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	T_ACL_EQ(aclrtResetEvent(t, NULL), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	T_ACL_OK(aclrtStreamWaitEventWithTimeout(NULL, e, 5));
	T_ACL_EQ(aclrtStreamWaitEventWithTimeout(NULL, e, -1),
		 ACL_ERROR_RT_PARAM_INVALID);
	T_ACL_OK(aclrtSynchronizeStream(NULL));
	T_ACL_OK(aclrtDestroyEvent(t));
	T_ACL_OK(aclrtDestroyEvent(e));
	T_ACL_EQ(aclrtDestroyEvent(NULL), ACL_ERROR_INVALID_PARAM);
	T_ACL_OK(aclrtResetDevice(dev));
}
END_TEST

/* CANN's sample: pinned buffer, H2D async, D2H async, synchronize. */
START_TEST(test_seed_flow)
{
	size_t len = _i ? 1 << 20 : 16 << 10;
	void *h, *d;
	aclrtStream s;
	int dev;

	T_ACL_OK(aclInit(NULL));
	if (!t_acl_use_backend(_i, &dev)) {
		aclFinalize();
		return;
	}
	T_ACL_OK(aclrtCreateStream(&s));
	T_ACL_OK(aclrtMallocHost(&h, len));
	T_ACL_OK(aclrtMalloc(&d, len, ACL_MEM_MALLOC_HUGE_FIRST));
	t_pattern_fill(h, len, 41);
	T_ACL_OK(aclrtMemcpyAsync(d, len, h, len, ACL_MEMCPY_HOST_TO_DEVICE, s));
	T_ACL_OK(aclrtMemsetAsync(h, len, 0, len, s));	/* after the H2D */
	T_ACL_OK(aclrtMemcpyAsync(h, len, d, len, ACL_MEMCPY_DEVICE_TO_HOST, s));
	T_ACL_OK(aclrtSynchronizeStream(s));
	ck_assert_uint_eq(t_pattern_check(h, len, 41), len);
	T_ACL_OK(aclrtFree(d));
	T_ACL_OK(aclrtFreeHost(h));
	T_ACL_OK(aclrtDestroyStream(s));
	T_ACL_OK(aclrtResetDevice(dev));
	T_ACL_OK(aclFinalize());
}
END_TEST

/* ---- many threads on shared streams ---------------------------------- */

#define T_THREADS	8
#define T_STREAMS	3

struct t_worker {
	int dev;
	aclrtContext ctx;	/* bound with aclrtSetCurrentContext, else dev */
	int idx;
	int copies;		/* H2D + D2H pairs */
	size_t chunk;
	aclrtStream stream;
	char *dev_base;		/* this thread's part of the device buffer */
	int failed;
};

/* The calling thread's current device, or -1. */
static int t_current_device(void)
{
	int32_t dev;

	return aclrtGetDevice(&dev) ? -1 : dev;
}

static void *t_worker_run(void *arg)
{
	struct t_worker *w = arg;
	size_t len = w->chunk * (size_t)w->copies;
	unsigned char *src, *dst;
	void *ps, *pd;
	int i;

	if ((w->ctx ? aclrtSetCurrentContext(w->ctx) : aclrtSetDevice(w->dev)) ||
	    aclrtMallocHost(&ps, len) || aclrtMallocHost(&pd, len)) {
		w->failed = 1;
		return NULL;
	}
	src = ps;
	dst = pd;
	memset(dst, 0, len);
	for (i = 0; i < w->copies; i++)
		t_pattern_fill(src + i * w->chunk, w->chunk,
			       (uint32_t)(w->idx * 100000 + i));
	for (i = 0; i < w->copies && !w->failed; i++) {
		size_t off = (size_t)i * w->chunk;

		if (aclrtMemcpyAsync(w->dev_base + off, w->chunk, src + off,
				     w->chunk, ACL_MEMCPY_HOST_TO_DEVICE,
				     w->stream) ||
		    aclrtMemcpyAsync(dst + off, w->chunk, w->dev_base + off,
				     w->chunk, ACL_MEMCPY_DEVICE_TO_HOST,
				     w->stream))
			w->failed = 2;
	}
	if (aclrtSynchronizeStream(w->stream))
		w->failed = 3;
	for (i = 0; i < w->copies && !w->failed; i++)
		if (t_pattern_check(dst + i * w->chunk, w->chunk,
				    (uint32_t)(w->idx * 100000 + i)) != w->chunk)
			w->failed = 4;
	/* Other threads bound other devices meanwhile: not this one's. */
	if (!w->failed && t_current_device() != w->dev)
		w->failed = 5;
	aclrtFreeHost(ps);
	aclrtFreeHost(pd);
	return NULL;
}

START_TEST(test_threads_share_streams)
{
	struct t_worker w[T_THREADS];
	pthread_t th[T_THREADS];
	aclrtStream s[T_STREAMS];
	int copies = _i ? 1000 : 10, threads = _i ? T_THREADS : 4;
	size_t chunk = _i ? 192 : 256;
	char *d;
	void *v;
	int dev, i;

	if (!t_acl_use_backend(_i, &dev))
		return;
	for (i = 0; i < T_STREAMS; i++)
		T_ACL_OK(aclrtCreateStream(&s[i]));
	T_ACL_OK(aclrtMalloc(&v, chunk * (size_t)copies * T_THREADS,
			     ACL_MEM_MALLOC_HUGE_FIRST));
	d = v;
	for (i = 0; i < threads; i++) {
		w[i] = (struct t_worker){
			.dev = dev, .idx = i, .copies = copies, .chunk = chunk,
			.stream = s[i % T_STREAMS],
			.dev_base = d + (size_t)i * chunk * (size_t)copies,
		};
		ck_assert_int_eq(pthread_create(&th[i], NULL, t_worker_run,
						&w[i]), 0);
	}
	for (i = 0; i < threads; i++) {
		pthread_join(th[i], NULL);
		ck_assert_msg(!w[i].failed, "thread %d failed at step %d", i,
			      w[i].failed);
	}
	T_ACL_OK(aclrtSynchronizeDevice());
	for (i = 0; i < T_STREAMS; i++)
		T_ACL_OK(aclrtDestroyStream(s[i]));
	T_ACL_OK(aclrtFree(v));
	T_ACL_OK(aclrtResetDeviceForce(dev));
}
END_TEST

/*
 * Two NPUs that can both run the two-device test: the two sim NPUs, or
 * else an edu and a sim one. False (the test skipped: t_skip()) without them.
 */
static bool t_two_npus(int dev[2])
{
	uint32_t n = 0, i, found = 0;
	int edu = t_acl_find("edu");
	char buf[16];

	T_ACL_OK(aclrtGetDeviceCount(&n));
	for (i = 0; i < n && found < 2; i++)
		if (!t_npu_attr((int)i, "backend", buf, sizeof(buf)) &&
		    !strcmp(buf, "sim"))
			dev[found++] = (int)i;
	if (found == 1 && edu >= 0)
		dev[found++] = edu;
	if (found < 2)
		t_skip("fewer than two usable NPUs");
	return found == 2;
}

/*
 * Threads on streams of two NPUs at once. Per NPU, one stream of its
 * default context and one of a context made with aclrtCreateContext;
 * two threads on each stream, the first kind bound with aclrtSetDevice,
 * the second with aclrtSetCurrentContext. Every byte is checked, and
 * each thread's current device is still its own at the end.
 */
START_TEST(test_threads_two_npus)
{
	struct t_worker w[T_THREADS];
	pthread_t th[T_THREADS];
	aclrtStream s[2][2];
	aclrtContext ctx[2];
	int dev[2], copies[2], k, i;
	size_t chunk[2];
	char *base[2];
	void *v;

	if (!t_two_npus(dev))
		return;
	for (k = 0; k < 2; k++) {
		bool edu = t_acl_find("edu") == dev[k];

		copies[k] = edu ? 4 : 300;
		chunk[k] = edu ? 256 : 4099;
		T_ACL_OK(aclrtSetDevice(dev[k]));
		T_ACL_OK(aclrtCreateStream(&s[k][0]));
		T_ACL_OK(aclrtMalloc(&v, chunk[k] * (size_t)copies[k] *
				     (T_THREADS / 2), ACL_MEM_MALLOC_HUGE_FIRST));
		base[k] = v;
		T_ACL_OK(aclrtCreateContext(&ctx[k], dev[k]));
		T_ACL_OK(aclrtSetCurrentContext(ctx[k]));
		T_ACL_OK(aclrtCreateStream(&s[k][1]));
	}
	for (i = 0; i < T_THREADS; i++) {
		int n = i % 2, c = (i / 2) % 2, slot = i / 2;

		w[i] = (struct t_worker){
			.dev = dev[n], .ctx = c ? ctx[n] : NULL, .idx = i,
			.copies = copies[n], .chunk = chunk[n],
			.stream = s[n][c],
			.dev_base = base[n] + (size_t)slot * chunk[n] *
				    (size_t)copies[n],
		};
		ck_assert_int_eq(pthread_create(&th[i], NULL, t_worker_run,
						&w[i]), 0);
	}
	for (i = 0; i < T_THREADS; i++) {
		pthread_join(th[i], NULL);
		ck_assert_msg(!w[i].failed, "thread %d (device %d) failed at step %d",
			      i, w[i].dev, w[i].failed);
	}
	for (k = 0; k < 2; k++) {
		T_ACL_OK(aclrtSetCurrentContext(ctx[k]));
		T_ACL_OK(aclrtDestroyStream(s[k][1]));
		T_ACL_OK(aclrtDestroyContext(ctx[k]));
		T_ACL_OK(aclrtSetDevice(dev[k]));
		T_ACL_OK(aclrtDestroyStream(s[k][0]));
		T_ACL_OK(aclrtFree(base[k]));
		T_ACL_OK(aclrtResetDeviceForce(dev[k]));
	}
}
END_TEST

/* Synchronous copies from several threads, each waits for its own. */
static void *t_sync_worker(void *arg)
{
	struct t_worker *w = arg;
	unsigned char buf[512], back[512];
	int i;

	if (aclrtSetDevice(w->dev)) {
		w->failed = 1;
		return NULL;
	}
	for (i = 0; i < w->copies && !w->failed; i++) {
		t_pattern_fill(buf, w->chunk, (uint32_t)(w->idx * 7 + i));
		if (aclrtMemcpy(w->dev_base, w->chunk, buf, w->chunk,
				ACL_MEMCPY_HOST_TO_DEVICE) ||
		    aclrtMemcpy(back, w->chunk, w->dev_base, w->chunk,
				ACL_MEMCPY_DEVICE_TO_HOST) ||
		    memcmp(buf, back, w->chunk))
			w->failed = 2;
	}
	return NULL;
}

START_TEST(test_threads_sync_copies)
{
	struct t_worker w[T_THREADS];
	pthread_t th[T_THREADS];
	int copies = _i ? 200 : 5, threads = _i ? T_THREADS : 3, dev, i;
	char *d;
	void *v;

	if (!t_acl_use_backend(_i, &dev))
		return;
	T_ACL_OK(aclrtMalloc(&v, 512 * T_THREADS, ACL_MEM_MALLOC_NORMAL_ONLY));
	d = v;
	for (i = 0; i < threads; i++) {
		w[i] = (struct t_worker){
			.dev = dev, .idx = i, .copies = copies, .chunk = 512,
			.dev_base = d + 512 * i,
		};
		ck_assert_int_eq(pthread_create(&th[i], NULL, t_sync_worker,
						&w[i]), 0);
	}
	for (i = 0; i < threads; i++) {
		pthread_join(th[i], NULL);
		ck_assert_msg(!w[i].failed, "thread %d failed", i);
	}
	T_ACL_OK(aclrtFree(v));
	T_ACL_OK(aclrtResetDeviceForce(dev));
}
END_TEST

/* A failed asynchronous task is reported by the next synchronize. */
START_TEST(test_async_failure_reported_by_sync)
{
	void *d, *h;
	int dev;

	if (!t_acl_use_backend(_i, &dev))
		return;
	T_ACL_OK(aclrtMalloc(&d, 4096, ACL_MEM_MALLOC_NORMAL_ONLY));
	T_ACL_OK(aclrtMallocHost(&h, 8192));
	/* Runs past the end of the allocation: the driver fails it. */
	T_ACL_OK(aclrtMemcpyAsync((char *)d + 4000, 8192, h, 8192,
				  ACL_MEMCPY_HOST_TO_DEVICE, NULL));
	T_ACL_EQ(aclrtSynchronizeStream(NULL), ACL_ERROR_RT_PARAM_INVALID);
	t_acl_msg_has("failed");
	T_ACL_EQ(aclrtGetLastError(ACL_RT_THREAD_LEVEL),
		 ACL_ERROR_RT_PARAM_INVALID);
	T_ACL_OK(aclrtSynchronizeStream(NULL));	/* reported once */
	T_ACL_OK(aclrtMemcpyAsync(d, 4096, h, 4096, ACL_MEMCPY_HOST_TO_DEVICE,
				  NULL));
	T_ACL_OK(aclrtSynchronizeStream(NULL));
	T_ACL_OK(aclrtFreeHost(h));
	T_ACL_OK(aclrtFree(d));
	T_ACL_OK(aclrtResetDevice(dev));
}
END_TEST

static Suite *acl_stream_suite(void)
{
	Suite *s = suite_create("t_acl_stream");
	TCase *tc = tcase_create("stream");

	tcase_set_timeout(tc, 240);
	tcase_add_loop_test(tc, test_stream_lifecycle, 0, 2);
	tcase_add_loop_test(tc, test_chain_on_one_stream, 0, 2);
	tcase_add_loop_test(tc, test_pageable_async_is_complete_on_return, 0, 2);
	tcase_add_loop_test(tc, test_async_forgets_unregistered_range, 0, 2);
	tcase_add_loop_test(tc, test_two_streams_ordered_by_event, 0, 2);
	tcase_add_loop_test(tc, test_event_elapsed_time, 0, 2);
	tcase_add_loop_test(tc, test_event_flags_and_status, 0, 2);
	tcase_add_loop_test(tc, test_seed_flow, 0, 2);
	tcase_add_loop_test(tc, test_threads_share_streams, 0, 2);
	tcase_add_test(tc, test_threads_two_npus);
	tcase_add_loop_test(tc, test_threads_sync_copies, 0, 2);
	tcase_add_loop_test(tc, test_async_failure_reported_by_sync, 0, 2);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return t_run_suite(acl_stream_suite());
}
