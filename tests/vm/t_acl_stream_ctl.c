// SPDX-License-Identifier: GPL-2.0-only
/*
 * libacl in the guest: stream control and settings. Failure modes with
 * a descriptor the driver fails, stop and abort (in the driver), stream
 * priorities honoured by the driver's channel arbitration, attributes,
 * config handles and aclrtCreateStreamV2, the priority range, the
 * current default stream, the state hooks, and bad arguments. Stop,
 * abort and priorities run on every NPU, the rest on a sim NPU.
 */
#include <errno.h>
#include <semaphore.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "t_acl.h"

static int t_sim(void)
{
	int dev = t_acl_find("sim");

	if (dev < 0)
		t_skip("no sim NPU");
	else
		T_ACL_OK(aclrtSetDevice(dev));
	return dev;
}

/* Wait, without consuming the stream's error report, for its work. */
static void t_drain(aclrtStream s)
{
	aclrtStreamStatus st;
	int i;

	for (i = 0; i < 5000; i++) {
		T_ACL_OK(aclrtStreamQuery(s, &st));
		if (st == ACL_STREAM_STATUS_COMPLETE)
			return;
		usleep(1000);
	}
	ck_abort_msg("stream not idle after 5 s");
}

struct t_bufs {
	void *d, *h, *back;
};

static void t_bufs_get(struct t_bufs *b)
{
	T_ACL_OK(aclrtMalloc(&b->d, 4096, ACL_MEM_MALLOC_NORMAL_ONLY));
	T_ACL_OK(aclrtMallocHost(&b->h, 8192));
	T_ACL_OK(aclrtMallocHost(&b->back, 4096));
	t_pattern_fill(b->h, 8192, 21);
}

static void t_bufs_put(struct t_bufs *b)
{
	T_ACL_OK(aclrtFree(b->d));
	T_ACL_OK(aclrtFreeHost(b->h));
	T_ACL_OK(aclrtFreeHost(b->back));
}

/* A copy running past the end of b->d: the driver fails it. */
static void t_bad_copy(struct t_bufs *b, aclrtStream s)
{
	T_ACL_OK(aclrtMemcpyAsync((char *)b->d + 4000, 8192, b->h, 8192,
				  ACL_MEMCPY_HOST_TO_DEVICE, s));
}

/*
 * ACL_STOP_ON_FAILURE: after a task failed, work is refused (with the
 * failure's code) and does not run; the failure is reported by the next
 * synchronize; other streams of the context are in STOP mode too.
 */
START_TEST(test_stop_on_failure)
{
	aclrtStreamAttrValue v;
	aclrtContext ctx;
	aclrtStream s, s2;
	struct t_bufs b;
	int dev = t_sim();

	if (dev < 0)
		return;
	/* A context of its own: STOP is a property of the whole context. */
	T_ACL_OK(aclrtCreateContext(&ctx, dev));
	T_ACL_OK(aclrtCreateStream(&s));
	T_ACL_OK(aclrtCreateStream(&s2));
	t_bufs_get(&b);
	T_ACL_OK(aclrtSetStreamFailureMode(s, ACL_STOP_ON_FAILURE));
	/* Only bit 0 counts: 3 is STOP again. */
	T_ACL_OK(aclrtSetStreamFailureMode(s, 3));
	T_ACL_EQ(aclrtSetStreamFailureMode(s, ACL_CONTINUE_ON_FAILURE),
		 ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	t_acl_msg_has("cannot go back");
	T_ACL_OK(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_FAILURE_MODE, &v));
	ck_assert_uint_eq(v.failureMode, ACL_STOP_ON_FAILURE);
	/* s2's own setting stays CONTINUE; the context's STOP applies. */
	T_ACL_OK(aclrtGetStreamAttribute(s2, ACL_STREAM_ATTR_FAILURE_MODE, &v));
	ck_assert_uint_eq(v.failureMode, ACL_CONTINUE_ON_FAILURE);

	/* Work before any failure runs. */
	T_ACL_OK(aclrtMemcpyAsync(b.d, 4096, b.h, 4096,
				  ACL_MEMCPY_HOST_TO_DEVICE, s));
	T_ACL_OK(aclrtSynchronizeStream(s));
	t_bad_copy(&b, s);
	t_drain(s);
	memset(b.back, 0, 4096);
	T_ACL_EQ(aclrtMemcpyAsync(b.back, 4096, b.d, 4096,
				  ACL_MEMCPY_DEVICE_TO_HOST, s),
		 ACL_ERROR_RT_PARAM_INVALID);
	t_acl_msg_has("ACL_STOP_ON_FAILURE");
	T_ACL_EQ(aclrtSynchronizeStream(s), ACL_ERROR_RT_PARAM_INVALID);
	t_acl_msg_has("failed");
	/* The refused copy did not run. */
	ck_assert_uint_eq(t_bytes_check(b.back, 4096, 0), 4096);
	/* The stream stays stopped; its failure was reported once. */
	T_ACL_EQ(aclrtMemsetAsync(b.d, 4096, 0, 4096, s),
		 ACL_ERROR_RT_PARAM_INVALID);
	T_ACL_OK(aclrtSynchronizeStream(s));

	/* s2 works until one of its own tasks fails, then stops too. */
	T_ACL_OK(aclrtMemcpyAsync(b.back, 4096, b.d, 4096,
				  ACL_MEMCPY_DEVICE_TO_HOST, s2));
	T_ACL_OK(aclrtSynchronizeStream(s2));
	ck_assert_uint_eq(t_pattern_check(b.back, 4096, 21), 4096);
	t_bad_copy(&b, s2);
	t_drain(s2);
	T_ACL_EQ(aclrtMemcpyAsync(b.back, 4096, b.d, 4096,
				  ACL_MEMCPY_DEVICE_TO_HOST, s2),
		 ACL_ERROR_RT_PARAM_INVALID);
	T_ACL_EQ(aclrtSynchronizeStream(s2), ACL_ERROR_RT_PARAM_INVALID);

	/* A stopped stream can still be destroyed. */
	T_ACL_OK(aclrtDestroyStream(s));
	T_ACL_OK(aclrtDestroyStream(s2));
	t_bufs_put(&b);
	T_ACL_OK(aclrtDestroyContext(ctx));
	T_ACL_OK(aclrtResetDevice(dev));
}
END_TEST

/* ACL_CONTINUE_ON_FAILURE (the default): later work runs. */
START_TEST(test_continue_on_failure)
{
	aclrtStreamAttrValue v = { .failureMode = ACL_CONTINUE_ON_FAILURE };
	aclrtStream s;
	struct t_bufs b;
	int dev = t_sim();

	if (dev < 0)
		return;
	T_ACL_OK(aclrtCreateStream(&s));
	t_bufs_get(&b);
	T_ACL_OK(aclrtMemcpyAsync(b.d, 4096, b.h, 4096,
				  ACL_MEMCPY_HOST_TO_DEVICE, s));
	T_ACL_OK(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_FAILURE_MODE, &v));
	T_ACL_OK(aclrtSetStreamFailureMode(s, ACL_CONTINUE_ON_FAILURE));
	t_bad_copy(&b, s);
	t_drain(s);
	memset(b.back, 0, 4096);
	T_ACL_OK(aclrtMemcpyAsync(b.back, 4096, b.d, 4096,
				  ACL_MEMCPY_DEVICE_TO_HOST, s));
	T_ACL_EQ(aclrtSynchronizeStream(s), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_uint_eq(t_pattern_check(b.back, 4096, 21), 4096);
	T_ACL_OK(aclrtSynchronizeStream(s));
	T_ACL_OK(aclrtDestroyStream(s));
	t_bufs_put(&b);
	T_ACL_OK(aclrtResetDevice(dev));
}
END_TEST

/* A host function that holds its stream until the test lets it go. */
struct t_hold {
	sem_t entered;		/* posted when the function runs */
	sem_t release;		/* posted by the test to let it return */
};

static void t_sem_wait(sem_t *sem)
{
	while (sem_wait(sem))
		ck_assert_int_eq(errno, EINTR);
}

static void t_hold_fn(void *arg)
{
	struct t_hold *h = arg;

	ck_assert_int_eq(sem_post(&h->entered), 0);
	t_sem_wait(&h->release);
}

static void t_hold_init(struct t_hold *h)
{
	ck_assert_int_eq(sem_init(&h->entered, 0, 0), 0);
	ck_assert_int_eq(sem_init(&h->release, 0, 0), 0);
}

static void t_hold_fini(struct t_hold *h)
{
	sem_destroy(&h->entered);
	sem_destroy(&h->release);
}

/*
 * Park @s at a host function, so that what is queued after it waits
 * (hold.entered says when it runs: the queue is parked at its barrier).
 */
static void t_hold(struct t_hold *h, aclrtStream s)
{
	T_ACL_OK(aclrtLaunchHostFunc(s, t_hold_fn, h));
}

/* @len bytes of device memory at @d, read back, all @byte? */
static bool t_dev_is(void *d, size_t len, int byte)
{
	void *back;
	bool ok;

	T_ACL_OK(aclrtMallocHost(&back, len));
	T_ACL_OK(aclrtMemcpy(back, len, d, len, ACL_MEMCPY_DEVICE_TO_HOST));
	ok = t_bytes_check(back, len, byte) == len;
	T_ACL_OK(aclrtFreeHost(back));
	return ok;
}

/*
 * aclrtStreamStop: what is queued stays queued and does not run, a
 * synchronize says 507000; aclrtStreamAbort: the queued work is dropped
 * in the driver, the next synchronize says 107023, and the stream runs
 * new work again. On every NPU (a memset is one DMA on edu).
 */
START_TEST(test_stop_then_abort)
{
	struct t_hold hold;
	aclrtStream s;
	void *d;
	int dev;

	if (!t_acl_use_backend(_i, &dev))
		return;
	t_hold_init(&hold);
	T_ACL_OK(aclrtCreateStream(&s));
	T_ACL_OK(aclrtMalloc(&d, 4096, ACL_MEM_MALLOC_NORMAL_ONLY));
	T_ACL_OK(aclrtMemset(d, 4096, 0x11, 4096));

	/* The queue parks at the host function; the memset waits behind. */
	t_hold(&hold, s);
	T_ACL_OK(aclrtMemsetAsync(d, 4096, 0x22, 4096, s));
	t_sem_wait(&hold.entered);
	T_ACL_OK(aclrtStreamStop(s));
	ck_assert_int_eq(sem_post(&hold.release), 0);
	T_ACL_EQ(aclrtSynchronizeStream(s), ACL_ERROR_RT_INTERNAL_ERROR);
	t_acl_msg_has("stopped");
	/* Released from the host function, the stream still starts nothing. */
	usleep(200 * 1000);
	ck_assert(t_dev_is(d, 4096, 0x11));
	T_ACL_EQ(aclrtSynchronizeStreamWithTimeout(s, 1000),
		 ACL_ERROR_RT_INTERNAL_ERROR);

	T_ACL_OK(aclrtStreamAbort(s));
	T_ACL_EQ(aclrtSynchronizeStream(s), ACL_ERROR_RT_STREAM_ABORT);
	t_acl_msg_has("aborted");
	T_ACL_OK(aclrtSynchronizeStream(s));
	ck_assert(t_dev_is(d, 4096, 0x11));

	/* Usable again. */
	T_ACL_OK(aclrtMemsetAsync(d, 4096, 0x33, 4096, s));
	T_ACL_OK(aclrtSynchronizeStream(s));
	ck_assert(t_dev_is(d, 4096, 0x33));

	T_ACL_OK(aclrtDestroyStream(s));
	T_ACL_OK(aclrtFree(d));
	t_hold_fini(&hold);
	T_ACL_OK(aclrtResetDevice(dev));
}
END_TEST

/*
 * Abort without a stop: work queued behind a parked host function is
 * dropped, work after the abort runs; a stream in ACL_STOP_ON_FAILURE
 * takes work again (the cancellations are no failure of its own). A
 * stopped stream can be destroyed, its queued work dropped.
 */
START_TEST(test_abort_drops_queued)
{
	struct t_hold hold;
	aclrtStream s, s2;
	aclrtEvent ev;
	void *d;
	int dev, i;

	if (!t_acl_use_backend(_i, &dev))
		return;
	t_hold_init(&hold);
	T_ACL_OK(aclrtCreateStream(&s));
	T_ACL_OK(aclrtCreateEvent(&ev));
	T_ACL_OK(aclrtSetStreamFailureMode(s, ACL_STOP_ON_FAILURE));
	T_ACL_OK(aclrtMalloc(&d, 4096, ACL_MEM_MALLOC_NORMAL_ONLY));
	T_ACL_OK(aclrtMemset(d, 4096, 0x11, 4096));
	t_hold(&hold, s);
	for (i = 0; i < 4; i++)
		T_ACL_OK(aclrtMemsetAsync(d, 4096, 0x22 + i, 4096, s));
	T_ACL_OK(aclrtRecordEvent(ev, s));
	t_sem_wait(&hold.entered);
	T_ACL_OK(aclrtStreamAbort(s));
	ck_assert_int_eq(sem_post(&hold.release), 0);
	/* The dropped record completed with the rest: nothing hangs on it. */
	T_ACL_OK(aclrtSynchronizeEvent(ev));
	T_ACL_EQ(aclrtSynchronizeStream(s), ACL_ERROR_RT_STREAM_ABORT);
	ck_assert(t_dev_is(d, 4096, 0x11));
	T_ACL_OK(aclrtMemsetAsync(d, 4096, 0x44, 4096, s));
	T_ACL_OK(aclrtSynchronizeStream(s));
	ck_assert(t_dev_is(d, 4096, 0x44));

	/* Destroying a stopped stream drops what it had queued. */
	T_ACL_OK(aclrtCreateStream(&s2));
	t_hold(&hold, s2);
	T_ACL_OK(aclrtMemsetAsync(d, 4096, 0x55, 4096, s2));
	t_sem_wait(&hold.entered);
	T_ACL_OK(aclrtStreamStop(s2));
	ck_assert_int_eq(sem_post(&hold.release), 0);
	T_ACL_OK(aclrtDestroyStream(s2));
	ck_assert(t_dev_is(d, 4096, 0x44));

	T_ACL_OK(aclrtDestroyEvent(ev));
	T_ACL_OK(aclrtDestroyStream(s));
	T_ACL_OK(aclrtFree(d));
	t_hold_fini(&hold);
	T_ACL_OK(aclrtResetDevice(dev));
}
END_TEST

/* The argument checks of stop and abort. */
START_TEST(test_stop_abort_args)
{
	aclrtContext other;
	aclrtStream s;
	void *h;
	int dev = t_sim();

	if (dev < 0)
		return;
	T_ACL_OK(aclrtCreateStream(&s));
	T_ACL_OK(aclrtMallocHost(&h, 4096));
	T_ACL_EQ(aclrtStreamAbort(NULL), ACL_ERROR_RT_PARAM_INVALID);
	t_acl_msg_has("stream is NULL");
	T_ACL_EQ(aclrtStreamStop(NULL), ACL_ERROR_RT_PARAM_INVALID);
	T_ACL_EQ(aclrtStreamAbort((aclrtStream)h), ACL_ERROR_RT_INVALID_HANDLE);
	T_ACL_OK(aclrtCreateContext(&other, dev));
	T_ACL_EQ(aclrtStreamAbort(s), ACL_ERROR_RT_STREAM_CONTEXT);
	T_ACL_EQ(aclrtStreamStop(s), ACL_ERROR_RT_STREAM_CONTEXT);
	T_ACL_EQ(aclrtSetStreamFailureMode(s, ACL_STOP_ON_FAILURE),
		 ACL_ERROR_RT_STREAM_CONTEXT);
	T_ACL_OK(aclrtDestroyContext(other));
	T_ACL_OK(aclrtSetDevice(dev));
	/* Abort of an idle stream: nothing to drop, nothing to report. */
	T_ACL_OK(aclrtStreamAbort(s));
	T_ACL_EQ(aclrtSynchronizeStream(s), ACL_ERROR_RT_STREAM_ABORT);
	T_ACL_OK(aclrtSynchronizeStream(s));
	T_ACL_OK(aclrtDestroyStream(s));
	T_ACL_OK(aclrtFreeHost(h));
	T_ACL_OK(aclrtResetDevice(dev));
}
END_TEST

/* A batch of @n copies of @chunk bytes, host @src to device @dst. */
static void t_batch_h2d(void *dst, void *src, size_t n, size_t chunk,
			int dev, aclrtStream s)
{
	size_t zero = 0, fail = SIZE_MAX, *sizes, i;
	aclrtMemcpyBatchAttr attr;
	void **dsts, **srcs;

	dsts = calloc(n, sizeof(*dsts));
	srcs = calloc(n, sizeof(*srcs));
	sizes = calloc(n, sizeof(*sizes));
	ck_assert(dsts && srcs && sizes);
	for (i = 0; i < n; i++) {
		dsts[i] = (char *)dst + i * chunk;
		srcs[i] = (char *)src + i * chunk;
		sizes[i] = chunk;
	}
	memset(&attr, 0, sizeof(attr));
	attr.srcLoc.type = ACL_MEM_LOCATION_TYPE_HOST;
	attr.dstLoc.type = ACL_MEM_LOCATION_TYPE_DEVICE;
	attr.dstLoc.id = (uint32_t)dev;
	T_ACL_OK(aclrtMemcpyBatchAsync(dsts, sizes, srcs, sizes, n, &attr,
				       &zero, 1, &fail, s));
	free(dsts);
	free(srcs);
	free(sizes);
}

#define T_LOW_STREAMS	4

/*
 * Priorities reach the driver. Batches of copies to the NPU on streams
 * of the lowest priority hold every DMA channel (a batch's runners keep
 * theirs from member to member); a copy on a stream of the highest
 * priority, issued behind them, gets a channel between two members and
 * is done long before any batch (their events still pending). Without
 * the arbitration it waits for a whole batch. Edu (one channel): one
 * batch of 8 copies of a DMA each (0.2 s); sim (4 channels): four
 * batches of 64 MiB (each several times what the copy takes even when
 * the host is loaded: bench_priority puts the copy at 15 ms behind 16 MiB
 * batches on a busy machine).
 */
START_TEST(test_priority_overtakes)
{
	size_t n = _i ? 512 : 8, chunk = _i ? 128 << 10 : 4096;
	int nlow = _i ? T_LOW_STREAMS : 1, dev, k;
	aclrtStream low[T_LOW_STREAMS], high;
	aclrtEvent done[T_LOW_STREAMS];
	aclrtEventRecordedStatus st;
	void *src, *dst, *h;
	uint32_t prio;

	if (!t_acl_use_backend(_i, &dev))
		return;
	T_ACL_OK(aclrtCreateStreamWithConfig(&high, 0, 0));
	T_ACL_OK(aclrtMallocHost(&src, n * chunk));
	T_ACL_OK(aclrtMalloc(&dst, nlow * n * chunk, ACL_MEM_MALLOC_HUGE_FIRST));
	T_ACL_OK(aclrtMallocHost(&h, 4096));
	t_pattern_fill(h, 4096, 9);
	for (k = 0; k < nlow; k++) {
		T_ACL_OK(aclrtCreateStreamWithConfig(&low[k], 7, 0));
		T_ACL_OK(aclrtCreateEvent(&done[k]));
	}
	T_ACL_OK(aclrtStreamGetPriority(low[0], &prio));
	ck_assert_uint_eq(prio, 7);

	for (k = 0; k < nlow; k++) {
		t_batch_h2d((char *)dst + k * n * chunk, src, n, chunk, dev,
			    low[k]);
		T_ACL_OK(aclrtRecordEvent(done[k], low[k]));
	}
	T_ACL_OK(aclrtMemcpyAsync(dst, 4096, h, 4096,
				  ACL_MEMCPY_HOST_TO_DEVICE, high));
	T_ACL_OK(aclrtSynchronizeStream(high));
	for (k = 0; k < nlow; k++) {
		T_ACL_OK(aclrtQueryEventStatus(done[k], &st));
		ck_assert_msg(st == ACL_EVENT_RECORDED_STATUS_NOT_READY,
			      "the high-priority copy waited for batch %d", k);
	}
	for (k = 0; k < nlow; k++) {
		T_ACL_OK(aclrtSynchronizeEvent(done[k]));
		T_ACL_OK(aclrtDestroyEvent(done[k]));
	}

	/* A priority set later counts too. */
	T_ACL_OK(aclrtSetStreamAttribute(low[0], ACL_STREAM_ATTR_PRIORITY,
					 &(aclrtStreamAttrValue){ .streamPriority = 0 }));
	T_ACL_OK(aclrtStreamGetPriority(low[0], &prio));
	ck_assert_uint_eq(prio, 0);

	for (k = 0; k < nlow; k++)
		T_ACL_OK(aclrtDestroyStream(low[k]));
	T_ACL_OK(aclrtFreeHost(src));
	T_ACL_OK(aclrtFree(dst));
	T_ACL_OK(aclrtFreeHost(h));
	T_ACL_OK(aclrtDestroyStream(high));
	T_ACL_OK(aclrtResetDevice(dev));
}
END_TEST

START_TEST(test_attributes)
{
	aclrtStreamAttrValue v;
	aclrtStream s;
	uint32_t prio;
	int dev = t_sim();

	if (dev < 0)
		return;
	T_ACL_OK(aclrtCreateStreamWithConfig(&s, 3, 0));
	T_ACL_OK(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_PRIORITY, &v));
	ck_assert_uint_eq(v.streamPriority, 3);
	v.streamPriority = 6;
	T_ACL_OK(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_PRIORITY, &v));
	T_ACL_OK(aclrtStreamGetPriority(s, &prio));
	ck_assert_uint_eq(prio, 6);
	v.streamPriority = 8;
	T_ACL_EQ(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_PRIORITY, &v),
		 ACL_ERROR_RT_PARAM_INVALID);
	t_acl_msg_has("streamPriority=8");

	memset(&v, 0, sizeof(v));
	v.overflowSwitch = 1;
	T_ACL_OK(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK,
					 &v));
	v.overflowSwitch = 2;
	T_ACL_EQ(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK,
					 &v), ACL_ERROR_RT_PARAM_INVALID);
	t_acl_msg_has("overflowSwitch=2");
	v.userCustomTag = 0xdeadbeef;
	T_ACL_OK(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_USER_CUSTOM_TAG, &v));
	v.cacheOpInfoSwitch = 1;
	T_ACL_OK(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_CACHE_OP_INFO, &v));
	memset(&v, 0xff, sizeof(v));
	T_ACL_OK(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK,
					 &v));
	ck_assert_uint_eq(v.overflowSwitch, 1);
	T_ACL_OK(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_USER_CUSTOM_TAG, &v));
	ck_assert_uint_eq(v.userCustomTag, 0xdeadbeef);
	T_ACL_OK(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_CACHE_OP_INFO, &v));
	ck_assert_uint_eq(v.cacheOpInfoSwitch, 1);
	T_ACL_OK(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_FAILURE_MODE, &v));
	ck_assert_uint_eq(v.failureMode, ACL_CONTINUE_ON_FAILURE);
	/* NULL is the default stream, as for the other stream calls. */
	T_ACL_OK(aclrtGetStreamAttribute(NULL, ACL_STREAM_ATTR_PRIORITY, &v));
	ck_assert_uint_eq(v.streamPriority, 0);

	T_ACL_EQ(aclrtSetStreamAttribute(s, (aclrtStreamAttr)0, &v),
		 ACL_ERROR_RT_PARAM_INVALID);
	t_acl_msg_has("stmAttrType=0");
	T_ACL_EQ(aclrtGetStreamAttribute(s, (aclrtStreamAttr)6, &v),
		 ACL_ERROR_RT_PARAM_INVALID);
	t_acl_msg_has("stmAttrType=6");
	T_ACL_EQ(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_PRIORITY, NULL),
		 ACL_ERROR_INVALID_PARAM);
	t_acl_msg_has("value is NULL");
	T_ACL_EQ(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_PRIORITY, NULL),
		 ACL_ERROR_INVALID_PARAM);
	T_ACL_OK(aclrtDestroyStream(s));
	T_ACL_EQ(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_PRIORITY, &v),
		 ACL_ERROR_RT_INVALID_HANDLE);
	T_ACL_OK(aclrtResetDevice(dev));
}
END_TEST

START_TEST(test_config_handle_v2)
{
	aclrtStreamConfigHandle *h;
	aclrtStreamAttrValue v;
	size_t flag = ACL_STREAM_FAST_LAUNCH, wsize = 4096;
	uint32_t prio = 5, got;
	void *wptr = &wsize;
	aclrtStream s;
	int dev = t_sim();

	if (dev < 0)
		return;
	h = aclrtCreateStreamConfigHandle();
	ck_assert_ptr_nonnull(h);
	ck_assert_uint_eq(h->priority, 0);
	ck_assert_uint_eq(h->flag, 0);
	T_ACL_OK(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_PRIORITY, &prio,
					 sizeof(prio)));
	T_ACL_OK(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_FLAG, &flag,
					 sizeof(flag)));
	T_ACL_OK(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_WORK_ADDR_PTR, &wptr,
					 sizeof(wptr)));
	T_ACL_OK(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_WORK_SIZE, &wsize,
					 sizeof(wsize)));
	ck_assert_uint_eq(h->priority, 5);
	ck_assert_uint_eq(h->flag, ACL_STREAM_FAST_LAUNCH);
	ck_assert_ptr_eq(h->workptr, wptr);
	ck_assert_uint_eq(h->workSize, 4096);

	/* CANN rejects, rather than clamps, a priority here. */
	prio = 8;
	T_ACL_EQ(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_PRIORITY, &prio,
					 sizeof(prio)), ACL_ERROR_INVALID_PARAM);
	t_acl_msg_has("priority=8");
	ck_assert_uint_eq(h->priority, 5);
	T_ACL_EQ(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_PRIORITY, &prio, 8),
		 ACL_ERROR_INVALID_PARAM);
	t_acl_msg_has("valueSize=8");
	T_ACL_EQ(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_FLAG, &flag, 4),
		 ACL_ERROR_INVALID_PARAM);
	T_ACL_EQ(aclrtSetStreamConfigOpt(h, (aclrtStreamConfigAttr)4, &flag,
					 sizeof(flag)), ACL_ERROR_INVALID_PARAM);
	t_acl_msg_has("attr=4");
	T_ACL_EQ(aclrtSetStreamConfigOpt(NULL, ACL_RT_STREAM_FLAG, &flag,
					 sizeof(flag)), ACL_ERROR_INVALID_PARAM);
	t_acl_msg_has("handle is NULL");
	T_ACL_EQ(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_FLAG, NULL,
					 sizeof(flag)), ACL_ERROR_INVALID_PARAM);
	t_acl_msg_has("attrValue is NULL");

	T_ACL_OK(aclrtCreateStreamV2(&s, h));
	T_ACL_OK(aclrtStreamGetPriority(s, &got));
	ck_assert_uint_eq(got, 5);
	T_ACL_OK(aclrtStreamGetFlags(s, &got));
	ck_assert_uint_eq(got, ACL_STREAM_FAST_LAUNCH);
	T_ACL_OK(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_PRIORITY, &v));
	ck_assert_uint_eq(v.streamPriority, 5);
	T_ACL_OK(aclrtSynchronizeStream(s));
	T_ACL_OK(aclrtDestroyStream(s));
	/* PERSISTENT through V2: synchronize returns at once, as CANN's. */
	flag = ACL_STREAM_PERSISTENT;
	T_ACL_OK(aclrtSetStreamConfigOpt(h, ACL_RT_STREAM_FLAG, &flag,
					 sizeof(flag)));
	T_ACL_OK(aclrtCreateStreamV2(&s, h));
	T_ACL_OK(aclrtStreamGetFlags(s, &got));
	ck_assert_uint_eq(got, ACL_STREAM_PERSISTENT);
	T_ACL_OK(aclrtDestroyStream(s));
	/* A flag wider than 32 bits is no ACL_STREAM_* mask. */
	h->flag = (size_t)1 << 40;
	T_ACL_EQ(aclrtCreateStreamV2(&s, h), ACL_ERROR_RT_PARAM_INVALID);
	t_acl_msg_has("flag=");
	/* No handle: a plain stream. */
	T_ACL_OK(aclrtCreateStreamV2(&s, NULL));
	T_ACL_OK(aclrtStreamGetPriority(s, &got));
	ck_assert_uint_eq(got, 0);
	T_ACL_OK(aclrtDestroyStream(s));
	T_ACL_EQ(aclrtCreateStreamV2(NULL, h), ACL_ERROR_INVALID_PARAM);
	t_acl_msg_has("stream is NULL");
	T_ACL_OK(aclrtDestroyStreamConfigHandle(h));
	T_ACL_EQ(aclrtDestroyStreamConfigHandle(NULL), ACL_ERROR_INVALID_PARAM);
	T_ACL_OK(aclrtResetDevice(dev));
	/* Without a current context a stream cannot be made. */
	T_ACL_EQ(aclrtCreateStreamV2(&s, NULL), ACL_ERROR_RT_CONTEXT_NULL);
}
END_TEST

START_TEST(test_priority_range_default_stream)
{
	int32_t least = -1, greatest = -1;
	aclrtStream def, def2;
	aclrtContext ctx;
	aclrtStreamStatus st;
	int dev = t_sim();

	if (dev < 0)
		return;
	T_ACL_OK(aclrtDeviceGetStreamPriorityRange(&least, &greatest));
	ck_assert_int_eq(least, 7);
	ck_assert_int_eq(greatest, 0);
	least = -1;
	T_ACL_OK(aclrtDeviceGetStreamPriorityRange(&least, NULL));
	ck_assert_int_eq(least, 7);
	T_ACL_OK(aclrtDeviceGetStreamPriorityRange(NULL, NULL));

	T_ACL_OK(aclrtCtxGetCurrentDefaultStream(&def));
	ck_assert_ptr_nonnull(def);
	/* The handle is a stream like any other, but not destroyable. */
	T_ACL_OK(aclrtStreamQuery(def, &st));
	T_ACL_OK(aclrtSynchronizeStream(def));
	T_ACL_EQ(aclrtDestroyStream(def), ACL_ERROR_RT_PARAM_INVALID);
	T_ACL_OK(aclrtCreateContext(&ctx, dev));
	T_ACL_OK(aclrtCtxGetCurrentDefaultStream(&def2));
	ck_assert_ptr_ne(def, def2);
	T_ACL_OK(aclrtDestroyContext(ctx));
	T_ACL_OK(aclrtSetDevice(dev));
	T_ACL_OK(aclrtCtxGetCurrentDefaultStream(&def2));
	ck_assert_ptr_eq(def, def2);
	T_ACL_EQ(aclrtCtxGetCurrentDefaultStream(NULL),
		 ACL_ERROR_INVALID_PARAM);
	t_acl_msg_has("stream is NULL");
	/* Set twice (t_sim, then after the context): reset both. */
	T_ACL_OK(aclrtResetDeviceForce(dev));
	T_ACL_EQ(aclrtCtxGetCurrentDefaultStream(&def2),
		 ACL_ERROR_RT_CONTEXT_NULL);
}
END_TEST

struct t_seen {
	int creates, destroys;
	aclrtStream last;
	aclrtStreamState state;
};

static void t_state_cb(aclrtStream stm, aclrtStreamState state, void *args)
{
	struct t_seen *seen = args;
	uint32_t prio;

	seen->last = stm;
	seen->state = state;
	if (state == ACL_RT_STREAM_STATE_CREATE_POST) {
		seen->creates++;
		/* After creation: the stream is already usable here. */
		ck_assert_int_eq(aclrtStreamGetPriority(stm, &prio), 0);
	} else {
		seen->destroys++;
		/* Before destruction: still a live stream. */
		ck_assert_int_eq(aclrtStreamGetPriority(stm, &prio), 0);
	}
}

START_TEST(test_state_callback)
{
	struct t_seen a = { 0 }, b = { 0 };
	aclrtStream s, s2;
	int dev = t_sim();

	if (dev < 0)
		return;
	T_ACL_OK(aclrtRegStreamStateCallback("a", t_state_cb, &a));
	T_ACL_EQ(aclrtRegStreamStateCallback("a", t_state_cb, &b),
		 ACL_ERROR_RT_PARAM_INVALID);
	t_acl_msg_has("regName=\"a\"");
	T_ACL_OK(aclrtRegStreamStateCallback("b", t_state_cb, &b));
	T_ACL_OK(aclrtCreateStream(&s));
	ck_assert_int_eq(a.creates, 1);
	ck_assert_int_eq(b.creates, 1);
	ck_assert_ptr_eq(a.last, s);
	ck_assert_int_eq(a.state, ACL_RT_STREAM_STATE_CREATE_POST);
	T_ACL_OK(aclrtCreateStreamV2(&s2, NULL));
	ck_assert_ptr_eq(a.last, s2);
	ck_assert_int_eq(a.creates, 2);
	T_ACL_OK(aclrtDestroyStream(s));
	ck_assert_int_eq(a.destroys, 1);
	ck_assert_ptr_eq(a.last, s);
	ck_assert_int_eq(a.state, ACL_RT_STREAM_STATE_DESTROY_PRE);
	/* A refused destroy is no state change. */
	T_ACL_EQ(aclrtDestroyStream(s), ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(a.destroys, 1);
	/* NULL callback unregisters; an unknown name is no error. */
	T_ACL_OK(aclrtRegStreamStateCallback("a", NULL, NULL));
	T_ACL_OK(aclrtRegStreamStateCallback("nobody", NULL, NULL));
	T_ACL_OK(aclrtDestroyStreamForce(s2));
	ck_assert_int_eq(a.destroys, 1);
	ck_assert_int_eq(b.destroys, 2);
	/* The name is free again. */
	T_ACL_OK(aclrtRegStreamStateCallback("a", t_state_cb, &a));
	T_ACL_OK(aclrtRegStreamStateCallback("a", NULL, NULL));
	T_ACL_OK(aclrtRegStreamStateCallback("b", NULL, NULL));
	T_ACL_OK(aclrtCreateStream(&s));
	ck_assert_int_eq(a.creates, 2);
	ck_assert_int_eq(b.creates, 2);
	T_ACL_OK(aclrtDestroyStream(s));
	T_ACL_EQ(aclrtRegStreamStateCallback(NULL, t_state_cb, &a),
		 ACL_ERROR_INVALID_PARAM);
	t_acl_msg_has("regName is NULL");
	T_ACL_OK(aclrtResetDevice(dev));
}
END_TEST

static Suite *acl_stream_ctl_suite(void)
{
	Suite *s = suite_create("t_acl_stream_ctl");
	TCase *tc = tcase_create("stream_ctl");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_stop_on_failure);
	tcase_add_test(tc, test_continue_on_failure);
	tcase_add_loop_test(tc, test_stop_then_abort, 0, 2);
	tcase_add_loop_test(tc, test_abort_drops_queued, 0, 2);
	tcase_add_test(tc, test_stop_abort_args);
	tcase_add_loop_test(tc, test_priority_overtakes, 0, 2);
	tcase_add_test(tc, test_attributes);
	tcase_add_test(tc, test_config_handle_v2);
	tcase_add_test(tc, test_priority_range_default_stream);
	tcase_add_test(tc, test_state_callback);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return t_run_suite(acl_stream_ctl_suite());
}
