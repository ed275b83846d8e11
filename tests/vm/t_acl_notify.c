// SPDX-License-Identifier: GPL-2.0-only
/*
 * libacl in the guest: notifies within a process. A record on one
 * stream releases a wait-and-reset on another, in stream order on both
 * sides; one record satisfies one wait; a wait queued first waits for
 * its record. Order is shown through data: the waiting stream copies a
 * buffer the recording stream wrote just before its record, or a host
 * function after the wait reads what one before the record wrote.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "t_acl.h"

#define T_LEN	4096

static void t_expect_all(const uint8_t *p, uint8_t v, const char *what)
{
	size_t i = t_bytes_check(p, T_LEN, v);

	ck_assert_msg(i == T_LEN, "%s: byte %zu is %#x, want %#x", what, i,
		      p[i], v);
}

/* A host function that sleeps, then fills the buffer: slow on purpose. */
struct t_fill {
	uint8_t *buf;
	uint8_t value;
};

static void t_slow_fill(void *p)
{
	struct t_fill *f = p;

	usleep(100000);
	memset(f->buf, f->value, T_LEN);
}

/* Host functions that leave a trace of their order in a counter. */
struct t_order {
	int step;			/* bumped by t_step */
	int seen;			/* step when t_look ran */
};

static void t_step(void *p)
{
	struct t_order *o = p;

	usleep(100000);
	__atomic_store_n(&o->step, 1, __ATOMIC_RELEASE);
}

static void t_look(void *p)
{
	struct t_order *o = p;

	o->seen = __atomic_load_n(&o->step, __ATOMIC_ACQUIRE);
}

static void t_expect_pending(aclrtStream s, const char *what)
{
	aclrtStreamStatus st;

	usleep(50000);
	T_ACL_OK(aclrtStreamQuery(s, &st));
	ck_assert_msg(st == ACL_STREAM_STATUS_NOT_READY,
		      "%s: stream finished without its record", what);
}

/*
 * a: slow host fill of h, copy h -> d, record. b: wait, copy d -> o.
 * Without the wait b would copy d before a's copy (d holds zeroes).
 */
START_TEST(test_record_orders_wait)
{
	struct t_fill f = { .value = 0x5a };
	aclrtStream a, b;
	aclrtNotify n;
	uint8_t *h, *o;
	void *d;
	int dev;

	if (!t_acl_use_backend(_i, &dev))
		return;
	T_ACL_OK(aclrtCreateStream(&a));
	T_ACL_OK(aclrtCreateStream(&b));
	T_ACL_OK(aclrtMallocHost((void **)&h, T_LEN));
	T_ACL_OK(aclrtMallocHost((void **)&o, T_LEN));
	T_ACL_OK(aclrtMalloc(&d, T_LEN, ACL_MEM_MALLOC_HUGE_FIRST));
	memset(h, 0, T_LEN);
	memset(o, 0xee, T_LEN);
	T_ACL_OK(aclrtMemcpy(d, T_LEN, h, T_LEN, ACL_MEMCPY_HOST_TO_DEVICE));
	T_ACL_OK(aclrtCreateNotify(&n, ACL_NOTIFY_DEFAULT));
	f.buf = h;
	T_ACL_OK(aclrtLaunchHostFunc(a, t_slow_fill, &f));
	T_ACL_OK(aclrtMemcpyAsync(d, T_LEN, h, T_LEN,
				  ACL_MEMCPY_HOST_TO_DEVICE, a));
	T_ACL_OK(aclrtRecordNotify(n, a));
	T_ACL_OK(aclrtWaitAndResetNotify(n, b, 0));
	T_ACL_OK(aclrtMemcpyAsync(o, T_LEN, d, T_LEN,
				  ACL_MEMCPY_DEVICE_TO_HOST, b));
	T_ACL_OK(aclrtSynchronizeStream(b));
	t_expect_all(o, 0x5a, "b's copy after the wait");
	T_ACL_OK(aclrtSynchronizeStream(a));
	T_ACL_OK(aclrtDestroyNotify(n));
	T_ACL_OK(aclrtFree(d));
	T_ACL_OK(aclrtFreeHost(o));
	T_ACL_OK(aclrtFreeHost(h));
	T_ACL_OK(aclrtDestroyStream(b));
	T_ACL_OK(aclrtDestroyStream(a));
	T_ACL_OK(aclrtResetDevice(dev));
}
END_TEST

/* A wait queued before any record holds its stream until the record. */
START_TEST(test_wait_before_record)
{
	aclrtStream a, b;
	aclrtNotify n;
	uint8_t *h, *o;
	void *d;
	int dev;

	if (!t_acl_use_backend(1, &dev))
		return;
	T_ACL_OK(aclrtCreateStream(&a));
	T_ACL_OK(aclrtCreateStream(&b));
	T_ACL_OK(aclrtMallocHost((void **)&h, T_LEN));
	T_ACL_OK(aclrtMallocHost((void **)&o, T_LEN));
	T_ACL_OK(aclrtMalloc(&d, T_LEN, ACL_MEM_MALLOC_HUGE_FIRST));
	memset(h, 0x33, T_LEN);
	memset(o, 0, T_LEN);
	T_ACL_OK(aclrtCreateNotify(&n, ACL_NOTIFY_DEFAULT));
	T_ACL_OK(aclrtWaitAndResetNotify(n, b, 0));
	T_ACL_OK(aclrtMemcpyAsync(d, T_LEN, h, T_LEN,
				  ACL_MEMCPY_HOST_TO_DEVICE, b));
	T_ACL_OK(aclrtMemcpyAsync(o, T_LEN, d, T_LEN,
				  ACL_MEMCPY_DEVICE_TO_HOST, b));
	t_expect_pending(b, "wait before record");
	t_expect_all(o, 0, "b's copies while not recorded");
	T_ACL_OK(aclrtRecordNotify(n, a));
	T_ACL_OK(aclrtSynchronizeStream(b));
	t_expect_all(o, 0x33, "b's copies after the record");
	T_ACL_OK(aclrtSynchronizeStream(a));
	T_ACL_OK(aclrtDestroyNotify(n));
	T_ACL_OK(aclrtFree(d));
	T_ACL_OK(aclrtFreeHost(o));
	T_ACL_OK(aclrtFreeHost(h));
	T_ACL_OK(aclrtDestroyStream(b));
	T_ACL_OK(aclrtDestroyStream(a));
	T_ACL_OK(aclrtResetDevice(dev));
}
END_TEST

/*
 * A wait resets the notify: two records before any wait still satisfy
 * one wait only, and a second wait needs a second record.
 */
START_TEST(test_wait_resets)
{
	struct t_order o1 = { 0 }, o2 = { 0 };
	aclrtStream a, b;
	aclrtEvent e;
	aclrtNotify n;
	int dev;

	if (!t_acl_use_backend(1, &dev))
		return;
	T_ACL_OK(aclrtCreateStream(&a));
	T_ACL_OK(aclrtCreateStream(&b));
	T_ACL_OK(aclrtCreateEvent(&e));
	T_ACL_OK(aclrtCreateNotify(&n, ACL_NOTIFY_DEFAULT));
	T_ACL_OK(aclrtRecordNotify(n, a));
	T_ACL_OK(aclrtRecordNotify(n, a));
	T_ACL_OK(aclrtSynchronizeStream(a));
	o1.step = o2.step = 1;
	T_ACL_OK(aclrtWaitAndResetNotify(n, b, 0));
	T_ACL_OK(aclrtLaunchHostFunc(b, t_look, &o1));
	T_ACL_OK(aclrtRecordEvent(e, b));
	T_ACL_OK(aclrtWaitAndResetNotify(n, b, 0));
	T_ACL_OK(aclrtLaunchHostFunc(b, t_look, &o2));
	T_ACL_OK(aclrtSynchronizeEvent(e));
	ck_assert_int_eq(o1.seen, 1);
	t_expect_pending(b, "second wait after one set");
	ck_assert_int_eq(o2.seen, 0);
	T_ACL_OK(aclrtRecordNotify(n, a));
	T_ACL_OK(aclrtSynchronizeStream(b));
	ck_assert_int_eq(o2.seen, 1);
	T_ACL_OK(aclrtSynchronizeStream(a));
	T_ACL_OK(aclrtDestroyNotify(n));
	T_ACL_OK(aclrtDestroyEvent(e));
	T_ACL_OK(aclrtDestroyStream(b));
	T_ACL_OK(aclrtDestroyStream(a));
	T_ACL_OK(aclrtResetDevice(dev));
}
END_TEST

/*
 * Timeouts (0 and UINT32_MAX: as good as forever, else seconds): a wait
 * not satisfied in time gives up, the stream goes on, and its next
 * synchronize reports 107020 once (as a timed-out event wait); the
 * notify stays unset, so a later record satisfies a later wait.
 */
START_TEST(test_timeout_enforced)
{
	struct t_order o = { 0 };
	aclrtStream a, b;
	aclrtNotify n;
	int dev;

	if (!t_acl_use_backend(1, &dev))
		return;
	T_ACL_OK(aclrtCreateStream(&a));
	T_ACL_OK(aclrtCreateStream(&b));
	T_ACL_OK(aclrtCreateNotify(&n, ACL_NOTIFY_DEFAULT));
	/* One at a time: two records in a row may set the bit only once. */
	T_ACL_OK(aclrtRecordNotify(n, a));
	T_ACL_OK(aclrtWaitAndResetNotify(n, b, UINT32_MAX));
	T_ACL_OK(aclrtSynchronizeStream(b));
	T_ACL_OK(aclrtRecordNotify(n, a));
	T_ACL_OK(aclrtWaitAndResetNotify(n, b, 3600));
	T_ACL_OK(aclrtSynchronizeStream(b));

	T_ACL_OK(aclrtWaitAndResetNotify(n, b, 1));
	T_ACL_OK(aclrtLaunchHostFunc(b, t_look, &o));
	t_expect_pending(b, "wait within its 1 s timeout");
	T_ACL_EQ(aclrtSynchronizeStream(b), ACL_ERROR_RT_TASK_TIMEOUT);
	t_acl_msg_has("notify");
	/* Work behind the expired wait ran, without a record. */
	ck_assert_int_eq(o.seen, 0);
	T_ACL_OK(aclrtSynchronizeStream(b));

	T_ACL_OK(aclrtRecordNotify(n, a));
	T_ACL_OK(aclrtWaitAndResetNotify(n, b, 0));
	T_ACL_OK(aclrtSynchronizeStream(b));
	T_ACL_OK(aclrtSynchronizeStream(a));
	T_ACL_OK(aclrtDestroyNotify(n));
	T_ACL_OK(aclrtDestroyStream(b));
	T_ACL_OK(aclrtDestroyStream(a));
	T_ACL_OK(aclrtResetDevice(dev));
}
END_TEST

/*
 * Destroy: a pending wait gives up (its stream goes on), a queued record
 * still runs safely, and the handle is dead for every call.
 */
START_TEST(test_destroy)
{
	struct t_order o = { 0 };
	aclrtStream a, b;
	aclrtNotify n, m;
	uint32_t id;
	int dev;

	if (!t_acl_use_backend(1, &dev))
		return;
	T_ACL_OK(aclrtCreateStream(&a));
	T_ACL_OK(aclrtCreateStream(&b));
	T_ACL_OK(aclrtCreateNotify(&n, ACL_NOTIFY_DEFAULT));
	T_ACL_OK(aclrtWaitAndResetNotify(n, b, 0));
	T_ACL_OK(aclrtLaunchHostFunc(b, t_look, &o));
	t_expect_pending(b, "wait before destroy");
	T_ACL_OK(aclrtDestroyNotify(n));
	T_ACL_OK(aclrtSynchronizeStream(b));

	T_ACL_EQ(aclrtDestroyNotify(n), ACL_ERROR_RT_INVALID_HANDLE);
	t_acl_msg_has("not a live notify");
	T_ACL_EQ(aclrtRecordNotify(n, a), ACL_ERROR_RT_INVALID_HANDLE);
	T_ACL_EQ(aclrtWaitAndResetNotify(n, b, 0), ACL_ERROR_RT_INVALID_HANDLE);
	T_ACL_EQ(aclrtGetNotifyId(n, &id), ACL_ERROR_RT_INVALID_HANDLE);

	/* A record queued behind slow work outlives its handle. */
	T_ACL_OK(aclrtCreateNotify(&m, ACL_NOTIFY_DEFAULT));
	T_ACL_OK(aclrtLaunchHostFunc(a, t_step, &o));
	T_ACL_OK(aclrtRecordNotify(m, a));
	T_ACL_OK(aclrtDestroyNotify(m));
	T_ACL_OK(aclrtSynchronizeStream(a));
	ck_assert_int_eq(o.step, 1);
	T_ACL_OK(aclrtDestroyStream(b));
	T_ACL_OK(aclrtDestroyStream(a));
	T_ACL_OK(aclrtResetDevice(dev));
}
END_TEST

/* The second sim NPU after @first, or -1. */
static int t_other_sim(int first)
{
	uint32_t n = 0, i;
	char buf[16];

	if (aclrtGetDeviceCount(&n))
		return -1;
	for (i = 0; i < n; i++)
		if ((int)i != first &&
		    !t_npu_attr((int)i, "backend", buf, sizeof(buf)) &&
		    !strcmp(buf, "sim"))
			return (int)i;
	return -1;
}

/* Created on one NPU, recorded there, waited for on another. */
START_TEST(test_cross_device)
{
	struct t_order o = { 0 };
	aclrtStream a, b;
	aclrtNotify n;
	int da, db;

	if (!t_acl_use_backend(1, &da))
		return;
	db = t_other_sim(da);
	if (db < 0) {
		t_skip("one sim NPU only");
		T_ACL_OK(aclrtResetDevice(da));
		return;
	}
	T_ACL_OK(aclrtCreateStream(&a));
	T_ACL_OK(aclrtCreateNotify(&n, ACL_NOTIFY_DEFAULT));
	T_ACL_OK(aclrtSetDevice(db));
	T_ACL_OK(aclrtCreateStream(&b));
	T_ACL_OK(aclrtWaitAndResetNotify(n, b, 0));
	T_ACL_OK(aclrtLaunchHostFunc(b, t_look, &o));
	T_ACL_OK(aclrtSetDevice(da));
	T_ACL_OK(aclrtLaunchHostFunc(a, t_step, &o));
	T_ACL_OK(aclrtRecordNotify(n, a));
	T_ACL_OK(aclrtSetDevice(db));
	T_ACL_OK(aclrtSynchronizeStream(b));
	ck_assert_int_eq(o.seen, 1);
	T_ACL_OK(aclrtDestroyStream(b));
	T_ACL_OK(aclrtSetDevice(da));
	T_ACL_OK(aclrtSynchronizeStream(a));
	T_ACL_OK(aclrtDestroyNotify(n));
	T_ACL_OK(aclrtDestroyStream(a));
	T_ACL_OK(aclrtResetDevice(db));
	T_ACL_OK(aclrtResetDevice(da));
}
END_TEST

/*
 * A wait captured in a graph: each replay waits for a record of its own;
 * the graph keeps the notify alive past its handle, and a replay after
 * the destroy does not wait.
 */
START_TEST(test_captured)
{
	struct t_order o = { 0 };
	aclrtStream a, s;
	aclrtNotify n;
	aclmdlRI ri;
	int dev, i;

	if (!t_acl_use_backend(1, &dev))
		return;
	T_ACL_OK(aclrtCreateStream(&a));
	T_ACL_OK(aclrtCreateStream(&s));
	T_ACL_OK(aclrtCreateNotify(&n, ACL_NOTIFY_DEFAULT));
	T_ACL_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
	T_ACL_OK(aclrtWaitAndResetNotify(n, s, 0));
	T_ACL_OK(aclrtLaunchHostFunc(s, t_look, &o));
	T_ACL_OK(aclmdlRICaptureEnd(s, &ri));
	T_ACL_OK(aclrtSynchronizeStream(s));
	for (i = 0; i < 2; i++) {
		o.step = 0;
		o.seen = -1;
		T_ACL_OK(aclmdlRIExecuteAsync(ri, s));
		t_expect_pending(s, "replayed wait before its record");
		ck_assert_int_eq(o.seen, -1);
		T_ACL_OK(aclrtLaunchHostFunc(a, t_step, &o));
		T_ACL_OK(aclrtRecordNotify(n, a));
		T_ACL_OK(aclrtSynchronizeStream(s));
		ck_assert_int_eq(o.seen, 1);
		T_ACL_OK(aclrtSynchronizeStream(a));
	}
	T_ACL_OK(aclrtDestroyNotify(n));
	o.seen = -1;
	T_ACL_OK(aclmdlRIExecuteAsync(ri, s));
	T_ACL_OK(aclrtSynchronizeStream(s));
	ck_assert_int_eq(o.seen, 1);
	T_ACL_OK(aclmdlRIDestroy(ri));
	T_ACL_OK(aclrtDestroyStream(s));
	T_ACL_OK(aclrtDestroyStream(a));
	T_ACL_OK(aclrtResetDevice(dev));
}
END_TEST

static void *t_no_ctx_create(void *p)
{
	aclrtNotify n;

	*(aclError *)p = aclrtCreateNotify(&n, ACL_NOTIFY_DEFAULT);
	return NULL;
}

START_TEST(test_errors)
{
	aclrtContext c1, c2;
	aclrtNotify n, m, *all;
	aclrtStream s, s2;
	uint32_t id, idm;
	aclError ret;
	pthread_t th;
	int dev, i, cnt;

	if (!t_acl_use_backend(1, &dev))
		return;
	T_ACL_OK(aclrtCreateStream(&s));
	T_ACL_EQ(aclrtCreateNotify(NULL, ACL_NOTIFY_DEFAULT),
		 ACL_ERROR_INVALID_PARAM);
	t_acl_msg_has("notify is NULL");
	T_ACL_EQ(aclrtCreateNotify(&n, 2), ACL_ERROR_RT_PARAM_INVALID);
	t_acl_msg_has("flag=0x2");
	T_ACL_EQ(aclrtCreateNotify(&n, 1ULL << 32), ACL_ERROR_RT_PARAM_INVALID);
	t_acl_msg_has("flag=0x100000000");
	T_ACL_EQ(aclrtRecordNotify(NULL, s), ACL_ERROR_INVALID_PARAM);
	t_acl_msg_has("notify is NULL");
	T_ACL_EQ(aclrtWaitAndResetNotify(NULL, s, 0), ACL_ERROR_INVALID_PARAM);
	T_ACL_EQ(aclrtGetNotifyId(NULL, &id), ACL_ERROR_INVALID_PARAM);
	T_ACL_EQ(aclrtDestroyNotify(NULL), ACL_ERROR_INVALID_PARAM);

	/* Ids: distinct, the lowest free one reused. */
	T_ACL_OK(aclrtCreateNotify(&n, ACL_NOTIFY_DEFAULT));
	T_ACL_OK(aclrtCreateNotify(&m, ACL_NOTIFY_DEVICE_USE_ONLY));
	T_ACL_EQ(aclrtGetNotifyId(n, NULL), ACL_ERROR_INVALID_PARAM);
	t_acl_msg_has("notifyId is NULL");
	T_ACL_OK(aclrtGetNotifyId(n, &id));
	T_ACL_OK(aclrtGetNotifyId(m, &idm));
	ck_assert_uint_ne(id, idm);
	T_ACL_OK(aclrtDestroyNotify(n));
	T_ACL_OK(aclrtCreateNotify(&n, ACL_NOTIFY_DEFAULT));
	T_ACL_OK(aclrtGetNotifyId(n, &idm));
	ck_assert_uint_eq(id, idm);

	/* NULL stream: the default stream. */
	T_ACL_OK(aclrtRecordNotify(n, NULL));
	T_ACL_OK(aclrtWaitAndResetNotify(n, NULL, 0));
	T_ACL_OK(aclrtSynchronizeStream(NULL));

	/* A stream of another context. */
	T_ACL_OK(aclrtGetCurrentContext(&c1));
	T_ACL_OK(aclrtCreateContext(&c2, dev));
	T_ACL_OK(aclrtCreateStream(&s2));
	T_ACL_OK(aclrtSetCurrentContext(c1));
	T_ACL_EQ(aclrtRecordNotify(n, s2), ACL_ERROR_RT_STREAM_CONTEXT);
	T_ACL_EQ(aclrtWaitAndResetNotify(n, s2, 0), ACL_ERROR_RT_STREAM_CONTEXT);
	T_ACL_OK(aclrtSetCurrentContext(c2));
	T_ACL_OK(aclrtDestroyStream(s2));
	T_ACL_OK(aclrtSetCurrentContext(c1));
	T_ACL_OK(aclrtDestroyContext(c2));

	/* No current context. */
	ck_assert_int_eq(pthread_create(&th, NULL, t_no_ctx_create, &ret), 0);
	pthread_join(th, NULL);
	ck_assert_int_eq(ret, ACL_ERROR_RT_CONTEXT_NULL);

	/* The per-device limit: 8192 in all, then 207009. */
	all = calloc(8192, sizeof(*all));
	ck_assert_ptr_nonnull(all);
	for (cnt = 0; cnt < 8192; cnt++)
		if (aclrtCreateNotify(&all[cnt], ACL_NOTIFY_DEFAULT))
			break;
	ck_assert_int_eq(cnt, 8192 - 2);
	T_ACL_EQ(aclrtCreateNotify(&all[cnt], ACL_NOTIFY_DEFAULT),
		 ACL_ERROR_RT_NO_NOTIFY_RESOURCE);
	t_acl_msg_has("8192");
	for (i = 0; i < cnt; i++)
		T_ACL_OK(aclrtDestroyNotify(all[i]));
	free(all);

	T_ACL_OK(aclrtDestroyNotify(m));
	T_ACL_OK(aclrtDestroyNotify(n));
	T_ACL_OK(aclrtDestroyStream(s));
	T_ACL_OK(aclrtResetDevice(dev));
}
END_TEST

static Suite *acl_notify_suite(void)
{
	Suite *s = suite_create("t_acl_notify");
	TCase *tc = tcase_create("notify");

	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_record_orders_wait, 0, 2);
	tcase_add_test(tc, test_wait_before_record);
	tcase_add_test(tc, test_wait_resets);
	tcase_add_test(tc, test_timeout_enforced);
	tcase_add_test(tc, test_destroy);
	tcase_add_test(tc, test_cross_device);
	tcase_add_test(tc, test_captured);
	tcase_add_test(tc, test_errors);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return t_run_suite(acl_notify_suite());
}
