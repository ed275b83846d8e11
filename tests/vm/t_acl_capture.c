// SPDX-License-Identifier: GPL-2.0-only
/*
 * libacl in the guest: graph capture (aclmdlRI*). A pipeline captured
 * once and replayed 1000 times on sim (20 on edu, which is slow), the
 * pageable-memory rule, capture beside live work, replay after a
 * captured buffer was freed, the capture-time rules and codes, the
 * capture modes across threads and the default stream, and captured
 * pinned batches.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "t_acl.h"

#define T_LEN		4096		/* bytes moved per task */
#define T_FILL_OFF	1000		/* memset part of the pipeline */
#define T_FILL_LEN	500
#define T_ROWS		8		/* 2-D step: rows of ... */
#define T_ROW		256		/* ... this many bytes */

static void t_pattern(uint8_t *p, size_t n, unsigned int seed)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)(i * 7 + seed * 13 + (i >> 8));
}

struct t_pipe {
	uint8_t *in, *out;		/* pinned host */
	void *d0, *d1, *d2;		/* device */
};

static void t_pipe_alloc(struct t_pipe *p)
{
	T_ACL_OK(aclrtMallocHost((void **)&p->in, T_LEN));
	T_ACL_OK(aclrtMallocHost((void **)&p->out, T_LEN));
	T_ACL_OK(aclrtMalloc(&p->d0, T_LEN, ACL_MEM_MALLOC_HUGE_FIRST));
	T_ACL_OK(aclrtMalloc(&p->d1, T_LEN, ACL_MEM_MALLOC_HUGE_FIRST));
	T_ACL_OK(aclrtMalloc(&p->d2, T_LEN, ACL_MEM_MALLOC_HUGE_FIRST));
}

static void t_pipe_free(struct t_pipe *p)
{
	T_ACL_OK(aclrtFreeHost(p->in));
	T_ACL_OK(aclrtFreeHost(p->out));
	T_ACL_OK(aclrtFree(p->d0));
	T_ACL_OK(aclrtFree(p->d1));
	T_ACL_OK(aclrtFree(p->d2));
}

/*
 * H2D -> memset -> D2D -> 2-D (the first T_ROW bytes of each
 * 2*T_ROW-byte row of d1 packed into d2) -> D2H of d2.
 */
static void t_pipe_queue(struct t_pipe *p, aclrtStream s)
{
	T_ACL_OK(aclrtMemcpyAsync(p->d0, T_LEN, p->in, T_LEN,
				  ACL_MEMCPY_HOST_TO_DEVICE, s));
	T_ACL_OK(aclrtMemsetAsync((uint8_t *)p->d0 + T_FILL_OFF, T_FILL_LEN,
				  0xA5, T_FILL_LEN, s));
	T_ACL_OK(aclrtMemcpyAsync(p->d1, T_LEN, p->d0, T_LEN,
				  ACL_MEMCPY_DEVICE_TO_DEVICE, s));
	T_ACL_OK(aclrtMemcpy2dAsync(p->d2, T_ROW, p->d1, 2 * T_ROW, T_ROW,
				    T_ROWS, ACL_MEMCPY_DEVICE_TO_DEVICE, s));
	T_ACL_OK(aclrtMemcpyAsync(p->out, T_ROW * T_ROWS, p->d2,
				  T_ROW * T_ROWS, ACL_MEMCPY_DEVICE_TO_HOST, s));
}

/* What out must hold after the pipeline ran on in. */
static void t_pipe_check(const struct t_pipe *p, unsigned int round)
{
	uint8_t want[T_LEN];
	size_t r;

	memcpy(want, p->in, T_LEN);
	memset(want + T_FILL_OFF, 0xA5, T_FILL_LEN);
	for (r = 0; r < T_ROWS; r++)
		ck_assert_msg(!memcmp(p->out + r * T_ROW, want + 2 * r * T_ROW,
				      T_ROW), "round %u: row %zu differs", round,
			      r);
}

START_TEST(test_capture_pipeline_replayed)
{
	unsigned int i, rounds = _i ? 1000 : 6;
	struct t_pipe p;
	aclrtStream s, other;
	aclmdlRICaptureStatus st;
	aclmdlRI ri, cur;
	int dev;

	if (!t_acl_use_backend(_i, &dev))
		return;
	T_ACL_OK(aclrtCreateStream(&s));
	T_ACL_OK(aclrtCreateStream(&other));
	t_pipe_alloc(&p);
	memset(p.out, 0, T_LEN);
	T_ACL_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
	T_ACL_OK(aclmdlRICaptureGetInfo(s, &st, &cur));
	ck_assert_int_eq(st, ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE);
	t_pipe_queue(&p, s);
	T_ACL_OK(aclmdlRICaptureEnd(s, &ri));
	ck_assert_ptr_eq(ri, cur);
	T_ACL_OK(aclmdlRICaptureGetInfo(s, &st, NULL));
	ck_assert_int_eq(st, ACL_MODEL_RI_CAPTURE_STATUS_NONE);
	T_ACL_OK(aclrtSynchronizeStream(s));
	ck_assert_msg(t_bytes_check(p.out, T_LEN, 0) == T_LEN,
		      "capture ran work (byte %zu)", t_bytes_check(p.out, T_LEN, 0));
	/* Replays on the capturing stream and on another one. */
	for (i = 0; i < rounds; i++) {
		aclrtStream on = i % 2 ? other : s;

		t_pattern(p.in, T_LEN, i);
		T_ACL_OK(aclmdlRIExecuteAsync(ri, on));
		T_ACL_OK(aclrtSynchronizeStream(on));
		t_pipe_check(&p, i);
	}
	T_ACL_OK(aclmdlRIDestroy(ri));
	T_ACL_EQ(aclmdlRIExecuteAsync(ri, s), ACL_ERROR_RT_INVALID_HANDLE);
	t_pipe_free(&p);
	T_ACL_OK(aclrtDestroyStream(other));
	T_ACL_OK(aclrtDestroyStream(s));
	T_ACL_OK(aclrtResetDevice(dev));
}
END_TEST

/* Pageable host memory in a captured async copy: rejected, invalidated. */
START_TEST(test_capture_pageable_rejected)
{
	aclmdlRICaptureStatus st;
	void *d, *h = malloc(T_LEN);
	aclrtStream s;
	aclmdlRI ri = (aclmdlRI)1;
	aclrtMemcpyBatchAttr attr = { 0 };
	size_t sizes[1] = { T_LEN }, idx = 0, fail = 0;
	void *dsts[1], *srcs[1] = { h };
	int dev;

	if (!t_acl_use_backend(1, &dev))
		goto out;
	T_ACL_OK(aclrtCreateStream(&s));
	T_ACL_OK(aclrtMalloc(&d, T_LEN, ACL_MEM_MALLOC_HUGE_FIRST));
	dsts[0] = d;
	attr.srcLoc.type = ACL_MEM_LOCATION_TYPE_UNREGISTERED;
	attr.dstLoc.type = ACL_MEM_LOCATION_TYPE_DEVICE;
	attr.dstLoc.id = (uint32_t)dev;
	T_ACL_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
	T_ACL_EQ(aclrtMemcpyAsync(d, T_LEN, h, T_LEN,
				  ACL_MEMCPY_HOST_TO_DEVICE, s),
		 ACL_ERROR_RT_PARAM_INVALID);
	t_acl_msg_has("pageable");
	T_ACL_OK(aclmdlRICaptureGetInfo(s, &st, NULL));
	ck_assert_int_eq(st, ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED);
	T_ACL_EQ(aclmdlRICaptureEnd(s, &ri), ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED);
	ck_assert_ptr_null(ri);
	/* Under a restrictive mode the code is 107041. */
	T_ACL_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
	T_ACL_EQ(aclrtMemcpyAsync(h, T_LEN, d, T_LEN,
				  ACL_MEMCPY_DEVICE_TO_HOST, s),
		 ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC);
	T_ACL_EQ(aclmdlRICaptureEnd(s, &ri), ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED);
	/* The same for 2-D copies and batches. */
	T_ACL_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
	T_ACL_EQ(aclrtMemcpy2dAsync(d, 64, h, 64, 64, 4,
				    ACL_MEMCPY_HOST_TO_DEVICE, s),
		 ACL_ERROR_RT_PARAM_INVALID);
	t_acl_msg_has("pageable");
	T_ACL_EQ(aclmdlRICaptureEnd(s, &ri), ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED);
	T_ACL_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
	T_ACL_EQ(aclrtMemcpyBatchAsync(dsts, sizes, srcs, sizes, 1, &attr, &idx,
				       1, &fail, s),
		 ACL_ERROR_RT_PARAM_INVALID);
	t_acl_msg_has("pageable");
	T_ACL_EQ(aclmdlRICaptureEnd(s, &ri), ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED);
	/* Outside a capture the same copy works. */
	T_ACL_OK(aclrtMemcpyAsync(d, T_LEN, h, T_LEN, ACL_MEMCPY_HOST_TO_DEVICE,
				  s));
	T_ACL_OK(aclrtSynchronizeStream(s));
	T_ACL_OK(aclrtFree(d));
	T_ACL_OK(aclrtDestroyStream(s));
	T_ACL_OK(aclrtResetDevice(dev));
out:
	free(h);
}
END_TEST

/* One stream captures while another runs live work on the same buffers. */
START_TEST(test_capture_beside_live_work)
{
	uint8_t *h, *back;
	aclrtStream cap, live;
	aclmdlRI ri;
	void *d;
	int dev, k;

	if (!t_acl_use_backend(_i, &dev))
		return;
	T_ACL_OK(aclrtCreateStream(&cap));
	T_ACL_OK(aclrtCreateStream(&live));
	T_ACL_OK(aclrtMallocHost((void **)&h, T_LEN));
	T_ACL_OK(aclrtMallocHost((void **)&back, T_LEN));
	T_ACL_OK(aclrtMalloc(&d, T_LEN, ACL_MEM_MALLOC_HUGE_FIRST));
	T_ACL_OK(aclmdlRICaptureBegin(cap, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
	for (k = 0; k < 3; k++) {
		t_pattern(h, T_LEN, 100 + k);
		T_ACL_OK(aclrtMemsetAsync(d, T_LEN, 0x11, T_LEN, cap));
		T_ACL_OK(aclrtMemcpyAsync(d, T_LEN, h, T_LEN,
					  ACL_MEMCPY_HOST_TO_DEVICE, live));
		T_ACL_OK(aclrtMemcpyAsync(back, T_LEN, d, T_LEN,
					  ACL_MEMCPY_DEVICE_TO_HOST, live));
		T_ACL_OK(aclrtSynchronizeStream(live));
		ck_assert_msg(!memcmp(h, back, T_LEN), "live round %d", k);
	}
	T_ACL_EQ(aclrtSynchronizeStream(cap), ACL_ERROR_RT_STREAM_CAPTURED);
	T_ACL_OK(aclmdlRICaptureEnd(cap, &ri));
	T_ACL_OK(aclmdlRIExecuteAsync(ri, live));
	T_ACL_OK(aclrtMemcpyAsync(back, T_LEN, d, T_LEN,
				  ACL_MEMCPY_DEVICE_TO_HOST, live));
	T_ACL_OK(aclrtSynchronizeStream(live));
	ck_assert_uint_eq(t_bytes_check(back, T_LEN, 0x11), T_LEN);
	T_ACL_OK(aclmdlRIDestroy(ri));
	T_ACL_OK(aclrtFree(d));
	T_ACL_OK(aclrtFreeHost(h));
	T_ACL_OK(aclrtFreeHost(back));
	T_ACL_OK(aclrtDestroyStream(cap));
	T_ACL_OK(aclrtDestroyStream(live));
	T_ACL_OK(aclrtResetDevice(dev));
}
END_TEST

/* A captured buffer freed before the replay: the task fails, no harm. */
START_TEST(test_replay_after_free)
{
	uint8_t *h, *back;
	void *d0, *d1, *keep, *again;
	aclrtStream s;
	aclmdlRI ri;
	int dev;

	if (!t_acl_use_backend(_i, &dev))
		return;
	T_ACL_OK(aclrtCreateStream(&s));
	T_ACL_OK(aclrtMallocHost((void **)&h, T_LEN));
	T_ACL_OK(aclrtMallocHost((void **)&back, T_LEN));
	T_ACL_OK(aclrtMalloc(&d0, T_LEN, ACL_MEM_MALLOC_NORMAL_ONLY));
	T_ACL_OK(aclrtMalloc(&d1, T_LEN, ACL_MEM_MALLOC_NORMAL_ONLY));
	T_ACL_OK(aclrtMalloc(&keep, T_LEN, ACL_MEM_MALLOC_NORMAL_ONLY));
	t_pattern(h, T_LEN, 5);
	T_ACL_OK(aclrtMemcpy(keep, T_LEN, h, T_LEN, ACL_MEMCPY_HOST_TO_DEVICE));
	T_ACL_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
	T_ACL_OK(aclrtMemcpyAsync(d1, T_LEN, h, T_LEN,
				  ACL_MEMCPY_HOST_TO_DEVICE, s));
	T_ACL_OK(aclrtMemcpyAsync(d0, T_LEN, d1, T_LEN,
				  ACL_MEMCPY_DEVICE_TO_DEVICE, s));
	T_ACL_OK(aclmdlRICaptureEnd(s, &ri));
	T_ACL_OK(aclmdlRIExecuteAsync(ri, s));
	T_ACL_OK(aclrtSynchronizeStream(s));
	T_ACL_OK(aclrtFree(d1));
	T_ACL_OK(aclmdlRIExecuteAsync(ri, s));
	T_ACL_EQ(aclrtSynchronizeStream(s), ACL_ERROR_RT_PARAM_INVALID);
	/* Other memory is untouched and the stream still works. */
	T_ACL_OK(aclrtMemcpyAsync(back, T_LEN, keep, T_LEN,
				  ACL_MEMCPY_DEVICE_TO_HOST, s));
	T_ACL_OK(aclrtSynchronizeStream(s));
	ck_assert(!memcmp(back, h, T_LEN));
	T_ACL_OK(aclrtMemcpyAsync(back, T_LEN, d0, T_LEN,
				  ACL_MEMCPY_DEVICE_TO_HOST, s));
	T_ACL_OK(aclrtSynchronizeStream(s));
	ck_assert(!memcmp(back, h, T_LEN));
	/*
	 * Memory allocated after the free is not the freed buffer (the
	 * graph still holds that), so a replay cannot write into it.
	 */
	T_ACL_OK(aclrtMalloc(&again, T_LEN, ACL_MEM_MALLOC_NORMAL_ONLY));
	ck_assert_ptr_ne(again, d1);
	T_ACL_OK(aclrtMemset(again, T_LEN, 0x5a, T_LEN));
	T_ACL_OK(aclmdlRIExecuteAsync(ri, s));
	T_ACL_EQ(aclrtSynchronizeStream(s), ACL_ERROR_RT_PARAM_INVALID);
	T_ACL_OK(aclrtMemcpy(back, T_LEN, again, T_LEN, ACL_MEMCPY_DEVICE_TO_HOST));
	ck_assert_uint_eq(t_bytes_check(back, T_LEN, 0x5a), T_LEN);
	T_ACL_OK(aclrtFree(again));
	T_ACL_OK(aclmdlRIDestroy(ri));
	T_ACL_OK(aclrtFree(d0));
	T_ACL_OK(aclrtFree(keep));
	T_ACL_OK(aclrtFreeHost(h));
	T_ACL_OK(aclrtFreeHost(back));
	T_ACL_OK(aclrtDestroyStream(s));
	T_ACL_OK(aclrtResetDevice(dev));
}
END_TEST

struct t_end_arg {
	aclrtStream s;
	aclError ret;
};

static void *t_end_elsewhere(void *p)
{
	struct t_end_arg *a = p;
	aclmdlRI ri;

	a->ret = aclmdlRICaptureEnd(a->s, &ri);
	return NULL;
}

/* Capture-time rules: sync bans, thread rules, events, argument codes. */
START_TEST(test_capture_rules)
{
	aclmdlRICaptureMode mode;
	struct t_end_arg a;
	aclrtEventRecordedStatus est;
	aclrtStream s;
	aclrtEvent ev;
	aclmdlRI ri, cur;
	pthread_t th;
	uint8_t *h;
	void *d;
	int dev;

	if (!t_acl_use_backend(1, &dev))
		return;
	T_ACL_OK(aclrtCreateStream(&s));
	T_ACL_OK(aclrtCreateEvent(&ev));
	T_ACL_OK(aclrtMallocHost((void **)&h, T_LEN));
	T_ACL_OK(aclrtMalloc(&d, T_LEN, ACL_MEM_MALLOC_HUGE_FIRST));
	T_ACL_EQ(aclmdlRICaptureBegin(NULL, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL),
		 ACL_ERROR_INVALID_PARAM);
	T_ACL_EQ(aclmdlRICaptureBegin(s, (aclmdlRICaptureMode)3),
		 ACL_ERROR_INVALID_PARAM);
	T_ACL_EQ(aclmdlRICaptureEnd(s, &ri), ACL_ERROR_RT_STREAM_NOT_CAPTURED);
	T_ACL_EQ(aclmdlRICaptureGetInfo(s, NULL, NULL), ACL_ERROR_INVALID_PARAM);
	T_ACL_EQ(aclmdlRIExecuteAsync(NULL, s), ACL_ERROR_INVALID_PARAM);
	T_ACL_EQ(aclmdlRIDestroy(NULL), ACL_ERROR_INVALID_PARAM);

	T_ACL_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
	T_ACL_EQ(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL),
		 ACL_ERROR_STREAM_CAPTURE_CONFLICT);
	T_ACL_EQ(aclrtMemcpy(d, T_LEN, h, T_LEN, ACL_MEMCPY_HOST_TO_DEVICE),
		 ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT);
	T_ACL_EQ(aclrtMemset(d, T_LEN, 0, T_LEN),
		 ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT);
	T_ACL_EQ(aclrtMemcpy2d(d, 64, h, 64, 64, 4, ACL_MEMCPY_HOST_TO_DEVICE),
		 ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT);
	mode = ACL_MODEL_RI_CAPTURE_MODE_RELAXED;
	T_ACL_OK(aclmdlRICaptureThreadExchangeMode(&mode));
	ck_assert_int_eq(mode, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL);
	T_ACL_OK(aclrtMemcpy(d, T_LEN, h, T_LEN, ACL_MEMCPY_HOST_TO_DEVICE));
	T_ACL_OK(aclmdlRICaptureThreadExchangeMode(&mode));
	T_ACL_EQ(aclrtSynchronizeStream(s), ACL_ERROR_RT_STREAM_CAPTURED);
	T_ACL_EQ(aclrtDestroyStream(s), ACL_ERROR_RT_STREAM_CAPTURED);
	T_ACL_OK(aclrtRecordEvent(ev, s));
	T_ACL_EQ(aclrtQueryEventStatus(ev, &est), ACL_ERROR_RT_EVENT_CAPTURED);
	T_ACL_EQ(aclrtSynchronizeEvent(ev), ACL_ERROR_RT_EVENT_CAPTURED);
	T_ACL_OK(aclrtStreamWaitEvent(s, ev));
	T_ACL_OK(aclmdlRICaptureGetInfo(s, NULL, &cur));
	T_ACL_EQ(aclmdlRIDestroy(cur), ACL_ERROR_RT_MODEL_CAPTURED);
	a.s = s;
	ck_assert_int_eq(pthread_create(&th, NULL, t_end_elsewhere, &a), 0);
	pthread_join(th, NULL);
	ck_assert_int_eq(a.ret, ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD);
	T_ACL_OK(aclmdlRICaptureEnd(s, &ri));
	/* Outside the capture, sync calls work again; replay records ev. */
	T_ACL_OK(aclrtMemset(d, T_LEN, 0, T_LEN));
	T_ACL_OK(aclmdlRIExecuteAsync(ri, s));
	T_ACL_OK(aclrtSynchronizeEvent(ev));
	T_ACL_OK(aclrtQueryEventStatus(ev, &est));
	ck_assert_int_eq(est, ACL_EVENT_RECORDED_STATUS_COMPLETE);
	T_ACL_OK(aclrtSynchronizeStream(s));
	T_ACL_OK(aclmdlRIDestroy(ri));
	T_ACL_OK(aclrtDestroyEvent(ev));
	T_ACL_OK(aclrtFree(d));
	T_ACL_OK(aclrtFreeHost(h));
	T_ACL_OK(aclrtDestroyStream(s));
	T_ACL_OK(aclrtResetDevice(dev));
}
END_TEST

/* What a second thread got for each kind of call during a capture. */
struct t_helper {
	aclrtContext ctx;
	bool relaxed;			/* exchange its mode to RELAXED first */
	aclrtStream other;		/* a live stream, not capturing */
	uint8_t *pin, *pageable;	/* T_LEN each, sources */
	void *d;			/* 4 * T_LEN of device memory */
	aclError sync, memset, sync2d, async_pageable, async_pinned, deflt;
	bool deflt_msg;			/* 107031's message names the stream */
};

static void *t_helper_run(void *p)
{
	aclmdlRICaptureMode m = ACL_MODEL_RI_CAPTURE_MODE_RELAXED;
	struct t_helper *h = p;
	uint8_t *d = h->d;
	const char *msg;

	if (aclrtSetCurrentContext(h->ctx))
		return NULL;
	if (h->relaxed && aclmdlRICaptureThreadExchangeMode(&m))
		return NULL;
	h->sync = aclrtMemcpy(d, T_LEN, h->pin, T_LEN,
			      ACL_MEMCPY_HOST_TO_DEVICE);
	h->memset = aclrtMemset(d + T_LEN, T_LEN, 0x3c, T_LEN);
	h->sync2d = aclrtMemcpy2d(d + T_LEN, 64, h->pin, 64, 64, 4,
				  ACL_MEMCPY_HOST_TO_DEVICE);
	h->async_pageable = aclrtMemcpyAsync(d + 2 * T_LEN, T_LEN, h->pageable,
					     T_LEN, ACL_MEMCPY_HOST_TO_DEVICE,
					     h->other);
	h->async_pinned = aclrtMemcpyAsync(d + 2 * T_LEN, T_LEN, h->pin, T_LEN,
					   ACL_MEMCPY_HOST_TO_DEVICE, h->other);
	h->deflt = aclrtMemcpyAsync(d + 3 * T_LEN, T_LEN, h->pin, T_LEN,
				    ACL_MEMCPY_HOST_TO_DEVICE, NULL);
	msg = h->deflt ? aclGetRecentErrMsg() : NULL;
	h->deflt_msg = msg && strstr(msg, "default stream");
	aclrtSynchronizeStream(h->other);
	aclrtSynchronizeStream(NULL);
	return NULL;
}

/* Run the calls of struct t_helper on a second thread and wait for it. */
static void t_helper_go(struct t_helper *h)
{
	pthread_t th;

	h->sync = h->memset = h->sync2d = -1;
	h->async_pageable = h->async_pinned = h->deflt = -1;
	ck_assert_int_eq(pthread_create(&th, NULL, t_helper_run, h), 0);
	pthread_join(th, NULL);
}

static void t_capture_status(aclrtStream s, aclmdlRICaptureStatus want)
{
	aclmdlRICaptureStatus st;

	T_ACL_OK(aclmdlRICaptureGetInfo(s, &st, NULL));
	ck_assert_int_eq(st, want);
}

/*
 * The capture modes seen from a second thread and from the capturing one
 * (on a second stream and on the default stream). Loop index: 0 GLOBAL,
 * 1 GLOBAL with the helper opted out (RELAXED), 2 THREAD_LOCAL, 3 RELAXED.
 */
START_TEST(test_capture_modes_threads)
{
	static const aclmdlRICaptureMode modes[] = {
		ACL_MODEL_RI_CAPTURE_MODE_GLOBAL,
		ACL_MODEL_RI_CAPTURE_MODE_GLOBAL,
		ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL,
		ACL_MODEL_RI_CAPTURE_MODE_RELAXED,
	};
	aclmdlRICaptureMode mode = modes[_i];
	bool helper_blocked = _i == 0;
	bool self_blocked = mode != ACL_MODEL_RI_CAPTURE_MODE_RELAXED;
	struct t_helper h = { .relaxed = _i == 1 };
	uint8_t *back, *dd;
	aclrtStream s;
	aclmdlRI ri;
	void *dcap;
	int dev;

	if (!t_acl_use_backend(1, &dev))
		return;
	T_ACL_OK(aclrtGetCurrentContext(&h.ctx));
	T_ACL_OK(aclrtCreateStream(&s));
	T_ACL_OK(aclrtCreateStream(&h.other));
	T_ACL_OK(aclrtMallocHost((void **)&h.pin, T_LEN));
	T_ACL_OK(aclrtMallocHost((void **)&back, T_LEN));
	h.pageable = malloc(T_LEN);
	ck_assert_ptr_nonnull(h.pageable);
	T_ACL_OK(aclrtMalloc(&h.d, 4 * T_LEN, ACL_MEM_MALLOC_HUGE_FIRST));
	T_ACL_OK(aclrtMalloc(&dcap, T_LEN, ACL_MEM_MALLOC_HUGE_FIRST));
	dd = h.d;
	t_pattern(h.pin, T_LEN, 40 + _i);
	t_pattern(h.pageable, T_LEN, 50 + _i);
	T_ACL_OK(aclrtMemset(h.d, 4 * T_LEN, 0, 4 * T_LEN));
	T_ACL_OK(aclrtMemset(dcap, T_LEN, 0, T_LEN));

	T_ACL_OK(aclmdlRICaptureBegin(s, mode));
	T_ACL_OK(aclrtMemsetAsync(dcap, T_LEN, 0x77, T_LEN, s));
	t_helper_go(&h);
	if (helper_blocked) {
		ck_assert_int_eq(h.sync, ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT);
		ck_assert_int_eq(h.memset, ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT);
		ck_assert_int_eq(h.sync2d, ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT);
		ck_assert_int_eq(h.async_pageable,
				 ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC);
		ck_assert_int_eq(h.deflt, ACL_ERROR_RT_STREAM_CAPTURE_IMPLICIT);
		ck_assert(h.deflt_msg);
		/* The default stream broke the capture; the rest did not. */
		t_capture_status(s, ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED);
	} else {
		ck_assert_int_eq(h.sync, ACL_SUCCESS);
		ck_assert_int_eq(h.memset, ACL_SUCCESS);
		ck_assert_int_eq(h.sync2d, ACL_SUCCESS);
		ck_assert_int_eq(h.async_pageable, ACL_SUCCESS);
		ck_assert_int_eq(h.deflt, ACL_SUCCESS);
		t_capture_status(s, ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE);
	}
	/* A pinned async copy on a live stream is safe in every mode. */
	ck_assert_int_eq(h.async_pinned, ACL_SUCCESS);

	/* The capturing thread itself, on a second stream and on NULL. */
	if (!helper_blocked && self_blocked) {
		T_ACL_EQ(aclrtMemcpyAsync(dd, T_LEN, h.pageable, T_LEN,
					  ACL_MEMCPY_HOST_TO_DEVICE, h.other),
			 ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC);
		t_acl_msg_has("pageable");
		t_capture_status(s, ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE);
		T_ACL_EQ(aclrtMemsetAsync(dd, T_LEN, 1, T_LEN, NULL),
			 ACL_ERROR_RT_STREAM_CAPTURE_IMPLICIT);
		t_acl_msg_has("default stream");
		t_capture_status(s, ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED);
	} else if (!self_blocked) {
		T_ACL_OK(aclrtMemcpyAsync(dd, T_LEN, h.pageable, T_LEN,
					  ACL_MEMCPY_HOST_TO_DEVICE, h.other));
		T_ACL_OK(aclrtMemsetAsync(dd + T_LEN, T_LEN, 1, T_LEN, NULL));
		t_capture_status(s, ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE);
	}
	if (self_blocked) {
		T_ACL_EQ(aclmdlRICaptureEnd(s, &ri),
			 ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED);
		goto out;
	}
	/* RELAXED: the capture survived everything and replays. */
	T_ACL_OK(aclmdlRICaptureEnd(s, &ri));
	T_ACL_OK(aclrtSynchronizeStream(NULL));
	T_ACL_OK(aclrtMemcpy(back, T_LEN, dd, T_LEN, ACL_MEMCPY_DEVICE_TO_HOST));
	ck_assert(!memcmp(back, h.pageable, T_LEN));
	T_ACL_OK(aclrtMemcpy(back, T_LEN, dd + T_LEN, T_LEN,
			     ACL_MEMCPY_DEVICE_TO_HOST));
	ck_assert_uint_eq(t_bytes_check(back, T_LEN, 1), T_LEN);
	T_ACL_OK(aclmdlRIExecuteAsync(ri, s));
	T_ACL_OK(aclrtSynchronizeStream(s));
	T_ACL_OK(aclrtMemcpy(back, T_LEN, dcap, T_LEN,
			     ACL_MEMCPY_DEVICE_TO_HOST));
	ck_assert_uint_eq(t_bytes_check(back, T_LEN, 0x77), T_LEN);
	T_ACL_OK(aclmdlRIDestroy(ri));
out:
	/* What the helper was allowed to do really happened. */
	if (!helper_blocked) {
		T_ACL_OK(aclrtMemcpy(back, T_LEN, dd + 2 * T_LEN, T_LEN,
				     ACL_MEMCPY_DEVICE_TO_HOST));
		ck_assert(!memcmp(back, h.pin, T_LEN));
		T_ACL_OK(aclrtMemcpy(back, T_LEN, dd + 3 * T_LEN, T_LEN,
				     ACL_MEMCPY_DEVICE_TO_HOST));
		ck_assert(!memcmp(back, h.pin, T_LEN));
	}
	/* After the capture every call works again, the default stream too. */
	T_ACL_OK(aclrtMemsetAsync(dd, T_LEN, 2, T_LEN, NULL));
	T_ACL_OK(aclrtSynchronizeStream(NULL));
	T_ACL_OK(aclrtFree(dcap));
	T_ACL_OK(aclrtFree(h.d));
	free(h.pageable);
	T_ACL_OK(aclrtFreeHost(back));
	T_ACL_OK(aclrtFreeHost(h.pin));
	T_ACL_OK(aclrtDestroyStream(h.other));
	T_ACL_OK(aclrtDestroyStream(s));
	T_ACL_OK(aclrtResetDevice(dev));
}
END_TEST

#define T_BATCH		4		/* copies per captured batch */

/* Queue T_BATCH copies of T_LEN bytes, all with one (src, dst) attribute. */
static aclError t_batch_async(void **dsts, void **srcs, aclrtMemLocationType st,
			      aclrtMemLocationType dt, int dev, aclrtStream s)
{
	size_t sizes[T_BATCH], idx = 0, fail = 0, i;
	aclrtMemcpyBatchAttr attr = { 0 };
	aclError ret;

	for (i = 0; i < T_BATCH; i++)
		sizes[i] = T_LEN;
	attr.srcLoc.type = st;
	attr.srcLoc.id = st == ACL_MEM_LOCATION_TYPE_DEVICE ? (uint32_t)dev : 0;
	attr.dstLoc.type = dt;
	attr.dstLoc.id = dt == ACL_MEM_LOCATION_TYPE_DEVICE ? (uint32_t)dev : 0;
	ret = aclrtMemcpyBatchAsync(dsts, sizes, srcs, sizes, T_BATCH, &attr,
				    &idx, 1, &fail, s);
	if (!ret)
		ck_assert_uint_eq(fail, SIZE_MAX);
	return ret;
}

/* Pinned batches captured (H2D scattered, then D2H back) and replayed. */
START_TEST(test_capture_batch_pinned)
{
	unsigned int r, rounds = _i ? 200 : 4;
	void *hin[T_BATCH], *hout[T_BATCH], *dev_at[T_BATCH];
	uint8_t *in, *out, *d;
	aclrtStream s;
	aclmdlRI ri;
	size_t i;
	int dev;

	if (!t_acl_use_backend(_i, &dev))
		return;
	T_ACL_OK(aclrtCreateStream(&s));
	T_ACL_OK(aclrtMallocHost((void **)&in, T_BATCH * T_LEN));
	T_ACL_OK(aclrtMallocHost((void **)&out, T_BATCH * T_LEN));
	T_ACL_OK(aclrtMalloc((void **)&d, 2 * T_BATCH * T_LEN,
			     ACL_MEM_MALLOC_HUGE_FIRST));
	for (i = 0; i < T_BATCH; i++) {
		hin[i] = in + i * T_LEN;
		hout[i] = out + i * T_LEN;
		/* Reversed and spread out, so that a mix-up shows. */
		dev_at[i] = d + (T_BATCH - 1 - i) * 2 * T_LEN;
	}
	T_ACL_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
	T_ACL_OK(t_batch_async(dev_at, hin, ACL_MEM_LOCATION_TYPE_HOST,
			       ACL_MEM_LOCATION_TYPE_DEVICE, dev, s));
	T_ACL_OK(t_batch_async(hout, dev_at, ACL_MEM_LOCATION_TYPE_DEVICE,
			       ACL_MEM_LOCATION_TYPE_HOST, dev, s));
	T_ACL_OK(aclmdlRICaptureEnd(s, &ri));
	for (r = 0; r < rounds; r++) {
		t_pattern(in, T_BATCH * T_LEN, 200 + r);
		memset(out, 0, T_BATCH * T_LEN);
		T_ACL_OK(aclmdlRIExecuteAsync(ri, s));
		T_ACL_OK(aclrtSynchronizeStream(s));
		ck_assert_msg(!memcmp(in, out, T_BATCH * T_LEN),
			      "replay %u differs", r);
	}
	T_ACL_OK(aclmdlRIDestroy(ri));
	T_ACL_OK(aclrtFree(d));
	T_ACL_OK(aclrtFreeHost(in));
	T_ACL_OK(aclrtFreeHost(out));
	T_ACL_OK(aclrtDestroyStream(s));
	T_ACL_OK(aclrtResetDevice(dev));
}
END_TEST

static Suite *acl_capture_suite(void)
{
	Suite *s = suite_create("t_acl_capture");
	TCase *tc = tcase_create("capture");

	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, test_capture_pipeline_replayed, 0, 2);
	tcase_add_test(tc, test_capture_pageable_rejected);
	tcase_add_loop_test(tc, test_capture_beside_live_work, 0, 2);
	tcase_add_loop_test(tc, test_replay_after_free, 0, 2);
	tcase_add_test(tc, test_capture_rules);
	tcase_add_loop_test(tc, test_capture_modes_threads, 0, 4);
	tcase_add_loop_test(tc, test_capture_batch_pinned, 0, 2);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return t_run_suite(acl_capture_suite());
}
