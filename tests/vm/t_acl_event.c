// SPDX-License-Identifier: GPL-2.0-only
/*
 * libacl in the guest: the event calls that act in stream order (reset,
 * waits with a time limit), the wait status, ids, free slots and the
 * record/wait flags. A stream is held still by a gate: a host function
 * that returns only once the test opens it, so "not yet" is a fact of
 * the test, not of timing.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "t_acl.h"

static void t_count_fn(void *p)
{
	__atomic_add_fetch((int *)p, 1, __ATOMIC_RELAXED);
}

static aclrtEventRecordedStatus t_status(aclrtEvent e)
{
	aclrtEventRecordedStatus st;

	T_ACL_OK(aclrtQueryEventStatus(e, &st));
	return st;
}

static aclrtEventWaitStatus t_wait_status(aclrtEvent e)
{
	aclrtEventWaitStatus st = ACL_EVENT_WAIT_STATUS_RESERVED;

	T_ACL_OK(aclrtQueryEventWaitStatus(e, &st));
	return st;
}

/* A reset queued behind a closed gate has not happened yet. */
START_TEST(test_reset_in_stream_order)
{
	struct t_gate g;
	aclrtStream s1, s2;
	aclrtEvent e;
	int dev;

	if (!t_acl_use_backend(_i, &dev))
		return;
	t_gate_init(&g);
	T_ACL_OK(aclrtCreateStream(&s1));
	T_ACL_OK(aclrtCreateStream(&s2));
	T_ACL_OK(aclrtCreateEvent(&e));
	T_ACL_OK(aclrtRecordEvent(e, s1));
	T_ACL_OK(aclrtSynchronizeStream(s1));
	ck_assert_int_eq(t_status(e), ACL_EVENT_RECORDED_STATUS_COMPLETE);
	T_ACL_OK(aclrtLaunchHostFunc(s2, t_gate_fn, &g));
	T_ACL_OK(aclrtResetEvent(e, s2));
	ck_assert_msg(t_status(e) == ACL_EVENT_RECORDED_STATUS_COMPLETE,
		      "the reset took effect before its stream reached it");
	t_gate_open(&g);
	T_ACL_OK(aclrtSynchronizeStream(s2));
	ck_assert_int_eq(t_status(e), ACL_EVENT_RECORDED_STATUS_NOT_READY);

	/* A record made after the reset call survives the reset. */
	t_gate_init(&g);
	T_ACL_OK(aclrtLaunchHostFunc(s2, t_gate_fn, &g));
	T_ACL_OK(aclrtResetEvent(e, s2));
	T_ACL_OK(aclrtRecordEvent(e, s1));
	T_ACL_OK(aclrtSynchronizeStream(s1));
	t_gate_open(&g);
	T_ACL_OK(aclrtSynchronizeStream(s2));
	ck_assert_int_eq(t_status(e), ACL_EVENT_RECORDED_STATUS_COMPLETE);

	/* Destroyed while its reset is queued: the reset still runs. */
	t_gate_init(&g);
	T_ACL_OK(aclrtLaunchHostFunc(s2, t_gate_fn, &g));
	T_ACL_OK(aclrtResetEvent(e, s2));
	T_ACL_OK(aclrtDestroyEvent(e));
	t_gate_open(&g);
	T_ACL_OK(aclrtSynchronizeStream(s2));
	T_ACL_OK(aclrtDestroyStream(s1));
	T_ACL_OK(aclrtDestroyStream(s2));
	T_ACL_OK(aclrtResetDevice(dev));
}
END_TEST

/* s1 records e behind a closed gate; s2 waits for e, then counts. */
struct t_waiting {
	struct t_gate g;
	aclrtStream s1, s2;
	aclrtEvent e;
	int ran;
};

static void t_waiting_start(struct t_waiting *w)
{
	memset(w, 0, sizeof(*w));
	t_gate_init(&w->g);
	T_ACL_OK(aclrtCreateStream(&w->s1));
	T_ACL_OK(aclrtCreateStream(&w->s2));
	T_ACL_OK(aclrtCreateEvent(&w->e));
	T_ACL_OK(aclrtLaunchHostFunc(w->s1, t_gate_fn, &w->g));
	T_ACL_OK(aclrtRecordEvent(w->e, w->s1));
	ck_assert_int_eq(t_wait_status(w->e), ACL_EVENT_WAIT_STATUS_COMPLETE);
}

static void t_waiting_end(struct t_waiting *w)
{
	t_gate_open(&w->g);
	T_ACL_OK(aclrtSynchronizeStream(w->s1));
	T_ACL_OK(aclrtDestroyEvent(w->e));
	T_ACL_OK(aclrtDestroyStream(w->s1));
	T_ACL_OK(aclrtDestroyStream(w->s2));
}

START_TEST(test_wait_timeout_expires)
{
	struct t_waiting w;
	uint64_t t0, ms;
	int dev;

	if (!t_acl_use_backend(_i, &dev))
		return;
	t_waiting_start(&w);
	T_ACL_OK(aclrtStreamWaitEventWithTimeout(w.s2, w.e, 1));
	T_ACL_OK(aclrtLaunchHostFunc(w.s2, t_count_fn, &w.ran));
	ck_assert_int_eq(t_wait_status(w.e), ACL_EVENT_WAIT_STATUS_NOT_READY);
	t0 = t_now_ns();
	T_ACL_EQ(aclrtSynchronizeStream(w.s2), ACL_ERROR_RT_TASK_TIMEOUT);
	t_acl_msg_has("timeout");
	ms = (t_now_ns() - t0) / 1000000;
	/* One second (CANN's unit), give or take the guest's clock. */
	ck_assert_msg(ms >= 900 && ms < 20000, "timed out after %llu ms",
		      (unsigned long long)ms);
	/* The stream went on past the failed wait, and says so once. */
	ck_assert_int_eq(w.ran, 1);
	ck_assert_int_eq(t_wait_status(w.e), ACL_EVENT_WAIT_STATUS_COMPLETE);
	T_ACL_OK(aclrtSynchronizeStream(w.s2));
	ck_assert_int_eq(t_status(w.e), ACL_EVENT_RECORDED_STATUS_NOT_READY);
	t_waiting_end(&w);
	T_ACL_OK(aclrtResetDevice(dev));
}
END_TEST

/* ACL_STOP_ON_FAILURE: after a timed-out wait the stream takes no work. */
START_TEST(test_wait_timeout_stops_stream)
{
	struct t_waiting w;
	int dev;

	if (!t_acl_use_backend(1, &dev))
		return;
	t_waiting_start(&w);
	T_ACL_OK(aclrtSetStreamFailureMode(w.s2, ACL_STOP_ON_FAILURE));
	T_ACL_OK(aclrtStreamWaitEventWithTimeout(w.s2, w.e, 1));
	T_ACL_EQ(aclrtSynchronizeStream(w.s2), ACL_ERROR_RT_TASK_TIMEOUT);
	T_ACL_EQ(aclrtLaunchHostFunc(w.s2, t_count_fn, &w.ran),
		 ACL_ERROR_RT_TASK_TIMEOUT);
	t_acl_msg_has("ACL_STOP_ON_FAILURE");
	ck_assert_int_eq(w.ran, 0);
	t_waiting_end(&w);
	T_ACL_OK(aclrtResetDevice(dev));
}
END_TEST

START_TEST(test_wait_timeout_met)
{
	struct t_waiting w;
	int dev;

	if (!t_acl_use_backend(_i, &dev))
		return;
	t_waiting_start(&w);
	T_ACL_OK(aclrtStreamWaitEventWithTimeout(w.s2, w.e, 60));
	T_ACL_OK(aclrtStreamWaitEventWithFlag(w.s2, w.e, 60,
					      ACL_EVENT_WAIT_DEFAULT));
	T_ACL_OK(aclrtStreamWaitEventWithFlag(w.s2, w.e, 0,
					      ACL_EVENT_WAIT_DEFAULT));
	T_ACL_OK(aclrtLaunchHostFunc(w.s2, t_count_fn, &w.ran));
	T_ACL_OK(aclrtStreamQuery(w.s2, &(aclrtStreamStatus){ 0 }));
	ck_assert_int_eq(w.ran, 0);
	ck_assert_int_eq(t_wait_status(w.e), ACL_EVENT_WAIT_STATUS_NOT_READY);
	t_gate_open(&w.g);
	T_ACL_OK(aclrtSynchronizeStream(w.s2));
	ck_assert_int_eq(w.ran, 1);
	ck_assert_int_eq(t_wait_status(w.e), ACL_EVENT_WAIT_STATUS_COMPLETE);
	t_waiting_end(&w);
	T_ACL_OK(aclrtResetDevice(dev));
}
END_TEST

START_TEST(test_event_ids_and_slots)
{
	uint32_t avail, after, id1, id2;
	aclrtEvent e1, e2;
	int dev;

	if (!t_acl_use_backend(1, &dev))
		return;
	T_ACL_OK(aclrtGetEventAvailNum(&avail));
	ck_assert_uint_gt(avail, 2);
	T_ACL_OK(aclrtCreateEvent(&e1));
	T_ACL_OK(aclrtCreateEventWithFlag(&e2, ACL_EVENT_SYNC));
	T_ACL_OK(aclrtGetEventAvailNum(&after));
	ck_assert_uint_eq(after, avail - 2);
	T_ACL_OK(aclrtGetEventId(e1, &id1));
	T_ACL_OK(aclrtGetEventId(e2, &id2));
	ck_assert_uint_ne(id1, id2);
	ck_assert_uint_lt(id1, avail + 2);
	T_ACL_EQ(aclrtGetEventId(e1, NULL), ACL_ERROR_INVALID_PARAM);
	t_acl_msg_has("eventId");
	T_ACL_EQ(aclrtGetEventId(NULL, &id1), ACL_ERROR_INVALID_PARAM);
	T_ACL_EQ(aclrtGetEventAvailNum(NULL), ACL_ERROR_INVALID_PARAM);
	t_acl_msg_has("eventCount");
	T_ACL_OK(aclrtDestroyEvent(e1));
	T_ACL_OK(aclrtDestroyEvent(e2));
	T_ACL_OK(aclrtGetEventAvailNum(&after));
	ck_assert_uint_eq(after, avail);
	T_ACL_OK(aclrtResetDevice(dev));
}
END_TEST

START_TEST(test_event_flags_rejected)
{
	aclrtEventWaitStatus ws;
	aclrtEvent e, x;
	aclrtStream s;
	int dev;

	if (!t_acl_use_backend(1, &dev))
		return;
	T_ACL_OK(aclrtCreateStream(&s));
	T_ACL_OK(aclrtCreateEvent(&e));
	T_ACL_OK(aclrtCreateEventExWithFlag(&x, ACL_EVENT_SYNC));
	T_ACL_EQ(aclrtRecordEventWithFlag(e, s, 2), ACL_ERROR_INVALID_PARAM);
	t_acl_msg_has("flag=0x2");
	T_ACL_EQ(aclrtRecordEventWithFlag(NULL, s, ACL_EVENT_RECORD_DEFAULT),
		 ACL_ERROR_INVALID_PARAM);
	T_ACL_EQ(aclrtRecordEventWithFlag(e, s, ACL_EVENT_RECORD_EXTERNAL),
		 ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	T_ACL_EQ(aclrtRecordEventWithFlag(x, s, ACL_EVENT_RECORD_EXTERNAL),
		 ACL_ERROR_RT_STREAM_NOT_CAPTURED);
	T_ACL_EQ(aclrtStreamWaitEventWithFlag(s, e, 0, 2),
		 ACL_ERROR_INVALID_PARAM);
	t_acl_msg_has("flag=0x2");
	T_ACL_EQ(aclrtStreamWaitEventWithFlag(s, x, 1, ACL_EVENT_WAIT_EXTERNAL),
		 ACL_ERROR_INVALID_PARAM);
	t_acl_msg_has("timeout=1");
	T_ACL_EQ(aclrtStreamWaitEventWithFlag(s, x, 0, ACL_EVENT_WAIT_EXTERNAL),
		 ACL_ERROR_RT_STREAM_NOT_CAPTURED);
	T_ACL_EQ(aclrtStreamWaitEventWithTimeout(s, e, -1),
		 ACL_ERROR_RT_PARAM_INVALID);
	t_acl_msg_has("timeout=-1");
	T_ACL_EQ(aclrtQueryEventWaitStatus(e, NULL), ACL_ERROR_INVALID_PARAM);
	t_acl_msg_has("status");
	T_ACL_EQ(aclrtQueryEventWaitStatus(NULL, &ws), ACL_ERROR_INVALID_PARAM);
	/* A DEFAULT record is a record. */
	T_ACL_OK(aclrtRecordEventWithFlag(e, s, ACL_EVENT_RECORD_DEFAULT));
	T_ACL_OK(aclrtSynchronizeEvent(e));
	ck_assert_int_eq(t_status(e), ACL_EVENT_RECORDED_STATUS_COMPLETE);
	T_ACL_OK(aclrtDestroyEvent(e));
	T_ACL_OK(aclrtDestroyEvent(x));
	T_ACL_OK(aclrtDestroyStream(s));
	T_ACL_OK(aclrtResetDevice(dev));
}
END_TEST

/* Buffers of the graph tests: pinned h -> device src -> device dst -> back. */
#define T_GLEN	4096

struct t_graph_bufs {
	aclrtStream gs, es;		/* the graph's stream, an outside one */
	aclrtEvent ev;			/* Ex, ACL_EVENT_SYNC */
	void *h, *back, *src, *dst;
	aclmdlRI ri;
	struct t_gate g;
	int dev;
};

/* Device of backend @i, the buffers (src, dst zeroed), a capture on gs. */
static bool t_graph_begin(int i, struct t_graph_bufs *b)
{
	if (!t_acl_use_backend(i, &b->dev))
		return false;
	t_gate_init(&b->g);
	T_ACL_OK(aclrtCreateStream(&b->gs));
	T_ACL_OK(aclrtCreateStream(&b->es));
	T_ACL_OK(aclrtCreateEventExWithFlag(&b->ev, ACL_EVENT_SYNC));
	T_ACL_OK(aclrtMallocHost(&b->h, T_GLEN));
	T_ACL_OK(aclrtMallocHost(&b->back, T_GLEN));
	T_ACL_OK(aclrtMalloc(&b->src, T_GLEN, ACL_MEM_MALLOC_HUGE_FIRST));
	T_ACL_OK(aclrtMalloc(&b->dst, T_GLEN, ACL_MEM_MALLOC_HUGE_FIRST));
	t_pattern_fill(b->h, T_GLEN, 77);
	memset(b->back, 0, T_GLEN);
	T_ACL_OK(aclrtMemset(b->src, T_GLEN, 0, T_GLEN));
	T_ACL_OK(aclrtMemset(b->dst, T_GLEN, 0, T_GLEN));
	T_ACL_OK(aclmdlRICaptureBegin(b->gs, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
	return true;
}

static void t_graph_bufs_fini(struct t_graph_bufs *b)
{
	T_ACL_OK(aclmdlRIDestroy(b->ri));
	T_ACL_OK(aclrtDestroyEvent(b->ev));
	T_ACL_OK(aclrtFree(b->src));
	T_ACL_OK(aclrtFree(b->dst));
	T_ACL_OK(aclrtFreeHost(b->h));
	T_ACL_OK(aclrtFreeHost(b->back));
	T_ACL_OK(aclrtDestroyStream(b->gs));
	T_ACL_OK(aclrtDestroyStream(b->es));
	T_ACL_OK(aclrtResetDevice(b->dev));
}

static aclrtStreamStatus t_stream_status(aclrtStream s)
{
	aclrtStreamStatus st;

	T_ACL_OK(aclrtStreamQuery(s, &st));
	return st;
}

/*
 * CANN's example 4_model_sync_external, scenario 1: a graph waits for a
 * record made outside it, the one current when the graph is replayed.
 */
START_TEST(test_graph_waits_external_record)
{
	struct t_graph_bufs b;

	if (!t_graph_begin(_i, &b))
		return;
	T_ACL_OK(aclrtStreamWaitEventWithFlag(b.gs, b.ev, 0,
					      ACL_EVENT_WAIT_EXTERNAL));
	T_ACL_OK(aclrtMemcpyAsync(b.dst, T_GLEN, b.src, T_GLEN,
				  ACL_MEMCPY_DEVICE_TO_DEVICE, b.gs));
	T_ACL_OK(aclmdlRICaptureEnd(b.gs, &b.ri));
	/* The record the replay waits for: held behind a gate. */
	T_ACL_OK(aclrtLaunchHostFunc(b.es, t_gate_fn, &b.g));
	T_ACL_OK(aclrtMemcpyAsync(b.src, T_GLEN, b.h, T_GLEN,
				  ACL_MEMCPY_HOST_TO_DEVICE, b.es));
	T_ACL_OK(aclrtRecordEvent(b.ev, b.es));
	T_ACL_OK(aclmdlRIExecuteAsync(b.ri, b.gs));
	ck_assert_int_eq(t_stream_status(b.gs), ACL_STREAM_STATUS_NOT_READY);
	t_gate_open(&b.g);
	T_ACL_OK(aclrtSynchronizeStream(b.gs));
	T_ACL_OK(aclrtMemcpy(b.back, T_GLEN, b.dst, T_GLEN,
			     ACL_MEMCPY_DEVICE_TO_HOST));
	ck_assert_uint_eq(t_pattern_check(b.back, T_GLEN, 77), T_GLEN);
	/* The event's wait flag is EXTERNAL now: a DEFAULT wait is refused. */
	T_ACL_EQ(aclrtStreamWaitEvent(b.es, b.ev), ACL_ERROR_RT_PARAM_INVALID);
	t_acl_msg_has("flag");
	/* Replayed again with its record done: nothing to wait for. */
	T_ACL_OK(aclmdlRIExecuteAsync(b.ri, b.gs));
	T_ACL_OK(aclrtSynchronizeStream(b.gs));
	t_graph_bufs_fini(&b);
}
END_TEST

/*
 * Scenario 2: a record inside a graph that an outside stream waits for;
 * the capture leaves the event alone, each replay records it.
 */
START_TEST(test_stream_waits_graph_record)
{
	struct t_graph_bufs b;

	if (!t_graph_begin(_i, &b))
		return;
	/* The graph: h -> src -> dst, then the external record. */
	T_ACL_OK(aclrtMemcpyAsync(b.src, T_GLEN, b.h, T_GLEN,
				  ACL_MEMCPY_HOST_TO_DEVICE, b.gs));
	T_ACL_OK(aclrtMemcpyAsync(b.dst, T_GLEN, b.src, T_GLEN,
				  ACL_MEMCPY_DEVICE_TO_DEVICE, b.gs));
	T_ACL_OK(aclrtRecordEventWithFlag(b.ev, b.gs, ACL_EVENT_RECORD_EXTERNAL));
	T_ACL_OK(aclmdlRICaptureEnd(b.gs, &b.ri));
	/* Not a captured event: an Ex event never recorded is COMPLETE. */
	ck_assert_int_eq(t_status(b.ev), ACL_EVENT_RECORDED_STATUS_COMPLETE);
	T_ACL_OK(aclrtLaunchHostFunc(b.gs, t_gate_fn, &b.g));
	T_ACL_OK(aclmdlRIExecuteAsync(b.ri, b.gs));
	ck_assert_int_eq(t_status(b.ev), ACL_EVENT_RECORDED_STATUS_NOT_READY);
	T_ACL_OK(aclrtStreamWaitEvent(b.es, b.ev));
	T_ACL_OK(aclrtMemcpyAsync(b.back, T_GLEN, b.dst, T_GLEN,
				  ACL_MEMCPY_DEVICE_TO_HOST, b.es));
	ck_assert_int_eq(t_stream_status(b.es), ACL_STREAM_STATUS_NOT_READY);
	t_gate_open(&b.g);
	T_ACL_OK(aclrtSynchronizeStream(b.es));
	ck_assert_uint_eq(t_pattern_check(b.back, T_GLEN, 77), T_GLEN);
	ck_assert_int_eq(t_status(b.ev), ACL_EVENT_RECORDED_STATUS_COMPLETE);
	/* Its record flag is EXTERNAL now: a DEFAULT record is refused. */
	T_ACL_EQ(aclrtRecordEvent(b.ev, b.es), ACL_ERROR_RT_PARAM_INVALID);
	t_acl_msg_has("flag");
	T_ACL_OK(aclrtSynchronizeStream(b.gs));
	t_graph_bufs_fini(&b);
}
END_TEST

static Suite *acl_event_suite(void)
{
	Suite *s = suite_create("t_acl_event");
	TCase *tc = tcase_create("event");

	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_reset_in_stream_order, 0, 2);
	tcase_add_loop_test(tc, test_wait_timeout_expires, 0, 2);
	tcase_add_loop_test(tc, test_wait_timeout_met, 0, 2);
	tcase_add_test(tc, test_wait_timeout_stops_stream);
	tcase_add_loop_test(tc, test_graph_waits_external_record, 0, 2);
	tcase_add_loop_test(tc, test_stream_waits_graph_record, 0, 2);
	tcase_add_test(tc, test_event_ids_and_slots);
	tcase_add_test(tc, test_event_flags_rejected);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return t_run_suite(acl_event_suite());
}
