// SPDX-License-Identifier: GPL-2.0-only
/*
 * libacl in the guest: host callbacks in stream order (subscribed report
 * thread and runtime thread), value write/wait, and callbacks inside a
 * captured graph. Ordering is shown through data: a callback rewrites a
 * pinned buffer between two copies of it, so the copy before sees the
 * old bytes and the copy after the new ones.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "t_acl.h"

#define T_LEN	4096

/*
 * A report thread: aclrtProcessReport until told to stop; or, with
 * @hostfunc, a host-function thread: aclrtProcessHostFunc.
 */
struct t_reporter {
	pthread_t th;
	bool hostfunc;
	volatile int stop;
	volatile int ran;		/* successful Process calls */
};

static void *t_report_main(void *p)
{
	struct t_reporter *r = p;
	aclError ret;

	while (!r->stop) {
		ret = r->hostfunc ? aclrtProcessHostFunc(50) :
				    aclrtProcessReport(50);
		if (ret == ACL_SUCCESS)
			__atomic_add_fetch(&r->ran, 1, __ATOMIC_RELAXED);
	}
	return NULL;
}

static void t_serve_start(struct t_reporter *r, bool hostfunc)
{
	memset(r, 0, sizeof(*r));
	r->hostfunc = hostfunc;
	ck_assert_int_eq(pthread_create(&r->th, NULL, t_report_main, r), 0);
}

static void t_reporter_start(struct t_reporter *r)
{
	t_serve_start(r, false);
}

static void t_reporter_stop(struct t_reporter *r)
{
	r->stop = 1;
	pthread_join(r->th, NULL);
}

/* The buffer a callback rewrites, and what it saw. */
struct t_cb {
	uint8_t *buf;
	uint8_t value;
	int calls;
	pthread_t thread;		/* where the callback ran */
};

static void t_cb_rewrite(void *p)
{
	struct t_cb *c = p;

	/* Slow on purpose: a stream that did not wait would overtake it. */
	usleep(20000);
	memset(c->buf, c->value, T_LEN);
	c->thread = pthread_self();
	__atomic_add_fetch(&c->calls, 1, __ATOMIC_RELAXED);
}

static void t_cb_count(void *p)
{
	__atomic_add_fetch((int *)p, 1, __ATOMIC_RELAXED);
}

static void t_expect_all(const uint8_t *p, uint8_t v, const char *what)
{
	size_t i = t_bytes_check(p, T_LEN, v);

	ck_assert_msg(i == T_LEN, "%s: byte %zu is %#x, want %#x", what, i,
		      p[i], v);
}

struct t_bufs {
	uint8_t *h, *o0, *o1;
	void *d0, *d1;
};

static void t_bufs_alloc(struct t_bufs *b)
{
	T_ACL_OK(aclrtMallocHost((void **)&b->h, T_LEN));
	T_ACL_OK(aclrtMallocHost((void **)&b->o0, T_LEN));
	T_ACL_OK(aclrtMallocHost((void **)&b->o1, T_LEN));
	T_ACL_OK(aclrtMalloc(&b->d0, T_LEN, ACL_MEM_MALLOC_HUGE_FIRST));
	T_ACL_OK(aclrtMalloc(&b->d1, T_LEN, ACL_MEM_MALLOC_HUGE_FIRST));
	memset(b->h, 1, T_LEN);
}

static void t_bufs_free(struct t_bufs *b)
{
	T_ACL_OK(aclrtFreeHost(b->h));
	T_ACL_OK(aclrtFreeHost(b->o0));
	T_ACL_OK(aclrtFreeHost(b->o1));
	T_ACL_OK(aclrtFree(b->d0));
	T_ACL_OK(aclrtFree(b->d1));
}

/* h -> d0, <host step rewrites h to 2>, h -> d1, d0 -> o0, d1 -> o1. */
static void t_copy_before(struct t_bufs *b, aclrtStream s)
{
	T_ACL_OK(aclrtMemcpyAsync(b->d0, T_LEN, b->h, T_LEN,
				  ACL_MEMCPY_HOST_TO_DEVICE, s));
}

static void t_copy_after(struct t_bufs *b, aclrtStream s)
{
	T_ACL_OK(aclrtMemcpyAsync(b->d1, T_LEN, b->h, T_LEN,
				  ACL_MEMCPY_HOST_TO_DEVICE, s));
	T_ACL_OK(aclrtMemcpyAsync(b->o0, T_LEN, b->d0, T_LEN,
				  ACL_MEMCPY_DEVICE_TO_HOST, s));
	T_ACL_OK(aclrtMemcpyAsync(b->o1, T_LEN, b->d1, T_LEN,
				  ACL_MEMCPY_DEVICE_TO_HOST, s));
}

/* Copies, host function @c, copies: the host function ran in between. */
static void t_host_func_between_copies(struct t_bufs *b, struct t_cb *c,
				       aclrtStream s)
{
	t_copy_before(b, s);
	T_ACL_OK(aclrtLaunchHostFunc(s, t_cb_rewrite, c));
	t_copy_after(b, s);
	T_ACL_OK(aclrtSynchronizeStream(s));
	t_expect_all(b->o0, 1, "copy before the host function");
	t_expect_all(b->o1, c->value, "copy after the host function");
}

START_TEST(test_callback_ordered_between_copies)
{
	struct t_cb c = { .value = 2 };
	struct t_reporter r;
	struct t_bufs b;
	aclrtStream s;
	int dev, nb = 0;

	if (!t_acl_use_backend(_i, &dev))
		return;
	T_ACL_OK(aclrtCreateStream(&s));
	t_bufs_alloc(&b);
	c.buf = b.h;
	t_reporter_start(&r);
	T_ACL_OK(aclrtSubscribeReport((uint64_t)r.th, s));
	T_ACL_EQ(aclrtSubscribeReport((uint64_t)r.th, s),
		 ACL_ERROR_RT_STREAM_SUBSCRIBE);
	t_copy_before(&b, s);
	T_ACL_OK(aclrtLaunchCallback(t_cb_rewrite, &c, ACL_CALLBACK_BLOCK, s));
	T_ACL_OK(aclrtLaunchCallback(t_cb_count, &nb, ACL_CALLBACK_NO_BLOCK, s));
	t_copy_after(&b, s);
	T_ACL_OK(aclrtSynchronizeStream(s));
	t_expect_all(b.o0, 1, "copy before the callback");
	t_expect_all(b.o1, 2, "copy after the callback");
	ck_assert(pthread_equal(c.thread, r.th));
	/* The NO_BLOCK one runs, but the stream did not wait for it. */
	while (!__atomic_load_n(&nb, __ATOMIC_RELAXED))
		usleep(1000);
	T_ACL_OK(aclrtUnSubscribeReport((uint64_t)r.th, s));
	T_ACL_EQ(aclrtUnSubscribeReport((uint64_t)r.th, s),
		 ACL_ERROR_RT_STREAM_SUBSCRIBE);
	T_ACL_EQ(aclrtLaunchCallback(t_cb_count, &nb, ACL_CALLBACK_BLOCK, s),
		 ACL_ERROR_RT_STREAM_NO_CB_REG);
	t_reporter_stop(&r);
	ck_assert_int_ge(r.ran, 1);
	t_bufs_free(&b);
	T_ACL_OK(aclrtDestroyStream(s));
	T_ACL_OK(aclrtResetDevice(dev));
}
END_TEST

START_TEST(test_callback_errors)
{
	aclrtStream s;
	int dev, n = 0;

	if (!t_acl_use_backend(1, &dev))
		return;
	T_ACL_OK(aclrtCreateStream(&s));
	T_ACL_EQ(aclrtProcessReport(0), ACL_ERROR_INVALID_PARAM);
	T_ACL_EQ(aclrtProcessReport(-2), ACL_ERROR_INVALID_PARAM);
	T_ACL_EQ(aclrtProcessReport(10), ACL_ERROR_RT_THREAD_SUBSCRIBE);
	T_ACL_EQ(aclrtLaunchCallback(t_cb_count, &n, ACL_CALLBACK_BLOCK, s),
		 ACL_ERROR_RT_STREAM_NO_CB_REG);
	T_ACL_EQ(aclrtLaunchCallback(NULL, &n, ACL_CALLBACK_BLOCK, s),
		 ACL_ERROR_INVALID_PARAM);
	T_ACL_OK(aclrtSubscribeReport((uint64_t)pthread_self(), s));
	T_ACL_EQ(aclrtLaunchCallback(t_cb_count, &n, (aclrtCallbackBlockType)2,
				     s), ACL_ERROR_INVALID_PARAM);
	/* Nothing queued: the report times out. */
	T_ACL_EQ(aclrtProcessReport(20), ACL_ERROR_RT_REPORT_TIMEOUT);
	/* This very thread serves the stream: NO_BLOCK lets it drain. */
	T_ACL_OK(aclrtLaunchCallback(t_cb_count, &n, ACL_CALLBACK_NO_BLOCK, s));
	T_ACL_OK(aclrtSynchronizeStream(s));
	T_ACL_OK(aclrtProcessReport(5000));
	ck_assert_int_eq(n, 1);
	T_ACL_OK(aclrtUnSubscribeReport((uint64_t)pthread_self(), s));
	T_ACL_EQ(aclrtLaunchHostFunc(s, NULL, NULL), ACL_ERROR_INVALID_PARAM);
	T_ACL_OK(aclrtDestroyStream(s));
	T_ACL_OK(aclrtResetDevice(dev));
}
END_TEST

/* Device of backend @i, a stream, buffers, @c rewriting them. */
static bool t_host_func_setup(int i, int *dev, aclrtStream *s,
			      struct t_bufs *b, struct t_cb *c)
{
	if (!t_acl_use_backend(i, dev))
		return false;
	T_ACL_OK(aclrtCreateStream(s));
	t_bufs_alloc(b);
	c->buf = b->h;
	return true;
}

static void t_host_func_teardown(int dev, aclrtStream s, struct t_bufs *b)
{
	t_bufs_free(b);
	T_ACL_OK(aclrtDestroyStream(s));
	T_ACL_OK(aclrtResetDevice(dev));
}

START_TEST(test_host_func_ordered)
{
	struct t_cb c = { .value = 3 };
	struct t_bufs b;
	aclrtStream s;
	int dev;

	if (!t_host_func_setup(_i, &dev, &s, &b, &c))
		return;
	t_host_func_between_copies(&b, &c, s);
	ck_assert(!pthread_equal(c.thread, pthread_self()));
	t_host_func_teardown(dev, s, &b);
}
END_TEST

/* The runner's thread id, and whether the function ran. */
struct t_runner {
	pid_t tid;
	int ran;
};

static void t_note_runner(void *p)
{
	struct t_runner *r = p;

	r->tid = (pid_t)syscall(SYS_gettid);
	__atomic_store_n(&r->ran, 1, __ATOMIC_RELEASE);
}

static double t_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The scheduler's state letter of thread @tid of this process. */
static char t_thread_state(pid_t tid)
{
	char path[64], line[512], *p;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", (int)tid);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(fgets(line, sizeof(line), f));
	fclose(f);
	p = strrchr(line, ')');	/* the name may hold spaces */
	ck_assert_ptr_nonnull(p);
	return p[2];
}

/*
 * After a host function the runner polls for the next one for
 * ACL_RUNNER_SPIN_US (it is running, not asleep), and sleeps at once
 * with 0; destroying the stream cuts a long poll short.
 */
START_TEST(test_runner_lingers)
{
	static const char *const spin[] = { "2000000", "0" };
	struct t_runner r = { 0 };
	aclrtStream s;
	double t0;
	char state;
	int dev;

	if (!t_acl_use_backend(1, &dev))
		return;
	ck_assert_int_eq(setenv("ACL_RUNNER_SPIN_US", spin[_i], 1), 0);
	T_ACL_OK(aclrtCreateStream(&s));
	T_ACL_OK(aclrtLaunchHostFunc(s, t_note_runner, &r));
	T_ACL_OK(aclrtSynchronizeStream(s));
	ck_assert(__atomic_load_n(&r.ran, __ATOMIC_ACQUIRE));
	usleep(20000);
	state = t_thread_state(r.tid);
	if (_i == 0)
		ck_assert_msg(state == 'R', "runner %c while it should poll", state);
	else
		ck_assert_msg(state == 'S', "runner %c while it should sleep", state);
	t0 = t_now();
	T_ACL_OK(aclrtDestroyStream(s));
	ck_assert_msg(t_now() - t0 < 1.0, "destroy waited %.2f s for the runner",
		      t_now() - t0);
	unsetenv("ACL_RUNNER_SPIN_US");
	T_ACL_OK(aclrtResetDevice(dev));
}
END_TEST

/* A host function that takes a while; notes when it started and ended. */
struct t_slow {
	useconds_t us;
	int started;
	double ended;
};

static void t_slow_fn(void *p)
{
	struct t_slow *f = p;

	__atomic_store_n(&f->started, 1, __ATOMIC_RELEASE);
	usleep(f->us);
	f->ended = t_now();
}

struct t_syncer {
	aclrtStream s;
	pid_t tid;
	int waiting;
	aclError ret;
	double returned;
};

static void *t_sync_main(void *p)
{
	struct t_syncer *w = p;

	w->tid = (pid_t)syscall(SYS_gettid);
	__atomic_store_n(&w->waiting, 1, __ATOMIC_RELEASE);
	w->ret = aclrtSynchronizeStream(w->s);
	w->returned = t_now();
	return NULL;
}

/*
 * While the runner serves a host function, a waiter polls (for 50 us by
 * default) rather than sleep at once: here the function takes 300 ms,
 * and the waiter must be asleep long before it ends, and return after.
 */
START_TEST(test_waiter_polls_briefly)
{
	struct t_slow f = { .us = 300000 };
	struct t_syncer w = { 0 };
	pthread_t th;
	char state;
	int dev;

	if (!t_acl_use_backend(1, &dev))
		return;
	unsetenv("ACL_WAIT_SPIN_US");
	T_ACL_OK(aclrtCreateStream(&w.s));
	T_ACL_OK(aclrtLaunchHostFunc(w.s, t_slow_fn, &f));
	while (!__atomic_load_n(&f.started, __ATOMIC_ACQUIRE))
		usleep(1000);
	ck_assert_int_eq(pthread_create(&th, NULL, t_sync_main, &w), 0);
	while (!__atomic_load_n(&w.waiting, __ATOMIC_ACQUIRE))
		usleep(1000);
	usleep(100000);
	state = t_thread_state(w.tid);
	ck_assert_msg(state == 'S', "waiter %c 100 ms into a host function",
		      state);
	ck_assert_int_eq(pthread_join(th, NULL), 0);
	T_ACL_OK(w.ret);
	ck_assert(f.ended > 0 && w.returned >= f.ended);
	T_ACL_OK(aclrtDestroyStream(w.s));
	T_ACL_OK(aclrtResetDevice(dev));
}
END_TEST

/*
 * A host function launched on an idle stream starts without a barrier
 * (lib/acl_callback.c, "tasks started early"); what comes after it must
 * still wait for it. Case @_i: 0 a copy queued while it runs, 1 a
 * synchronize, 2 an event recorded after it, 3 a device synchronize;
 * each on a stream with nothing queued before the function.
 */
START_TEST(test_host_func_early_ordered)
{
	struct t_cb c = { .value = 5 };
	aclrtStreamStatus status;
	struct t_bufs b;
	aclrtEvent e;
	aclrtStream s;
	int dev;

	if (!t_host_func_setup(1, &dev, &s, &b, &c))
		return;
	T_ACL_OK(aclrtLaunchHostFunc(s, t_cb_rewrite, &c));
	/* It sleeps 20 ms first: the stream is busy with it. */
	T_ACL_OK(aclrtStreamQuery(s, &status));
	ck_assert_int_eq(status, ACL_STREAM_STATUS_NOT_READY);
	switch (_i) {
	case 0:
		T_ACL_OK(aclrtMemcpyAsync(b.d1, T_LEN, b.h, T_LEN,
					  ACL_MEMCPY_HOST_TO_DEVICE, s));
		T_ACL_OK(aclrtMemcpyAsync(b.o1, T_LEN, b.d1, T_LEN,
					  ACL_MEMCPY_DEVICE_TO_HOST, s));
		T_ACL_OK(aclrtSynchronizeStream(s));
		t_expect_all(b.o1, c.value, "copy queued while it ran");
		break;
	case 1:
		T_ACL_OK(aclrtSynchronizeStream(s));
		break;
	case 2:
		T_ACL_OK(aclrtCreateEvent(&e));
		T_ACL_OK(aclrtRecordEvent(e, s));
		T_ACL_OK(aclrtSynchronizeEvent(e));
		T_ACL_OK(aclrtDestroyEvent(e));
		break;
	case 3:
		T_ACL_OK(aclrtSynchronizeDevice());
		break;
	}
	ck_assert_int_eq(__atomic_load_n(&c.calls, __ATOMIC_ACQUIRE), 1);
	T_ACL_OK(aclrtStreamQuery(s, &status));
	ck_assert_int_eq(status, ACL_STREAM_STATUS_COMPLETE);
	t_host_func_teardown(dev, s, &b);
}
END_TEST

/*
 * aclrtStreamAbort while a host function started early runs: as for one
 * parked at its barrier, the stream runs again at once, and what is
 * queued after the abort does not wait for the function.
 */
START_TEST(test_host_func_early_aborted)
{
	struct t_cb c = { .value = 6 };
	struct t_bufs b;
	aclrtStream s;
	struct t_gate g;
	int dev;

	if (!t_host_func_setup(1, &dev, &s, &b, &c))
		return;
	t_gate_init(&g);
	/* Held until the end: every synchronize below returns before it. */
	T_ACL_OK(aclrtLaunchHostFunc(s, t_gate_fn, &g));
	T_ACL_OK(aclrtStreamAbort(s));
	T_ACL_EQ(aclrtSynchronizeStream(s), ACL_ERROR_RT_STREAM_ABORT);
	T_ACL_OK(aclrtMemcpyAsync(b.d1, T_LEN, b.h, T_LEN,
				  ACL_MEMCPY_HOST_TO_DEVICE, s));
	T_ACL_OK(aclrtMemcpyAsync(b.o1, T_LEN, b.d1, T_LEN,
				  ACL_MEMCPY_DEVICE_TO_HOST, s));
	T_ACL_OK(aclrtSynchronizeStream(s));
	t_expect_all(b.o1, 1, "copy after the abort");
	t_gate_open(&g);
	t_host_func_teardown(dev, s, &b);
}
END_TEST

/* aclrtSubscribeHostFunc: the application's thread runs them, in order. */
START_TEST(test_host_func_subscribed)
{
	struct t_cb c = { .value = 4 };
	struct t_reporter r;
	struct t_bufs b;
	aclrtStream s;
	int dev;

	if (!t_host_func_setup(_i, &dev, &s, &b, &c))
		return;
	t_serve_start(&r, true);
	T_ACL_OK(aclrtSubscribeHostFunc((uint64_t)r.th, s));
	T_ACL_EQ(aclrtSubscribeHostFunc((uint64_t)r.th, s),
		 ACL_ERROR_RT_STREAM_SUBSCRIBE);
	/* Callbacks still need a report thread: a separate binding. */
	T_ACL_EQ(aclrtLaunchCallback(t_cb_count, &c.calls, ACL_CALLBACK_BLOCK,
				     s), ACL_ERROR_RT_STREAM_NO_CB_REG);
	t_host_func_between_copies(&b, &c, s);
	ck_assert(pthread_equal(c.thread, r.th));
	T_ACL_OK(aclrtUnSubscribeHostFunc((uint64_t)r.th, s));
	T_ACL_EQ(aclrtUnSubscribeHostFunc((uint64_t)r.th, s),
		 ACL_ERROR_RT_STREAM_SUBSCRIBE);
	t_reporter_stop(&r);
	ck_assert_int_ge(r.ran, 1);
	/* Unsubscribed: a runtime thread runs them again. */
	T_ACL_OK(aclrtLaunchHostFunc(s, t_cb_rewrite, &c));
	T_ACL_OK(aclrtSynchronizeStream(s));
	ck_assert_int_eq(c.calls, 2);
	ck_assert(!pthread_equal(c.thread, r.th));
	ck_assert(!pthread_equal(c.thread, pthread_self()));
	t_host_func_teardown(dev, s, &b);
}
END_TEST

START_TEST(test_host_func_process_errors)
{
	uint64_t self = (uint64_t)pthread_self();
	struct t_gate g;
	aclrtStream s;
	int dev, n = 0;

	if (!t_acl_use_backend(1, &dev))
		return;
	T_ACL_OK(aclrtCreateStream(&s));
	/* CANN's runtime checks these: RT_PARAM_INVALID, not 100000. */
	T_ACL_EQ(aclrtProcessHostFunc(0), ACL_ERROR_RT_PARAM_INVALID);
	t_acl_msg_has("timeout=0");
	T_ACL_EQ(aclrtProcessHostFunc(-2), ACL_ERROR_RT_PARAM_INVALID);
	T_ACL_EQ(aclrtProcessHostFunc(10), ACL_ERROR_RT_THREAD_SUBSCRIBE);
	T_ACL_EQ(aclrtSubscribeHostFunc(self, NULL), ACL_ERROR_RT_PARAM_INVALID);
	t_acl_msg_has("exeStream");
	T_ACL_EQ(aclrtUnSubscribeHostFunc(self, s),
		 ACL_ERROR_RT_STREAM_SUBSCRIBE);
	T_ACL_OK(aclrtSubscribeHostFunc(self, s));
	/* Nothing queued: the wait times out. */
	T_ACL_EQ(aclrtProcessHostFunc(20), ACL_ERROR_RT_REPORT_TIMEOUT);
	/* A host-function thread is no report thread, and the reverse. */
	T_ACL_OK(aclrtLaunchHostFunc(s, t_cb_count, &n));
	T_ACL_EQ(aclrtProcessReport(20), ACL_ERROR_RT_THREAD_SUBSCRIBE);
	ck_assert_int_eq(n, 0);
	T_ACL_OK(aclrtProcessHostFunc(5000));
	ck_assert_int_eq(n, 1);
	T_ACL_OK(aclrtSynchronizeStream(s));
	T_ACL_OK(aclrtUnSubscribeHostFunc(self, s));
	/*
	 * Queued while subscribed, reached after unsubscribing: no thread
	 * would ask for it, so the runtime thread runs it (behind a gate,
	 * so the order of the calls is known).
	 */
	t_gate_init(&g);
	T_ACL_OK(aclrtLaunchHostFunc(s, t_gate_fn, &g));
	T_ACL_OK(aclrtSubscribeHostFunc(self, s));
	T_ACL_OK(aclrtLaunchHostFunc(s, t_cb_count, &n));
	T_ACL_OK(aclrtUnSubscribeHostFunc(self, s));
	t_gate_open(&g);
	T_ACL_OK(aclrtSynchronizeStream(s));
	ck_assert_int_eq(n, 2);
	T_ACL_OK(aclrtDestroyStream(s));
	T_ACL_OK(aclrtResetDevice(dev));
}
END_TEST

/* Stream a waits on a word stream b writes; then a copies it out. */
START_TEST(test_value_write_wait)
{
	aclrtStream a, b;
	uint64_t *h;
	void *word;
	int dev;

	if (!t_acl_use_backend(_i, &dev))
		return;
	T_ACL_OK(aclrtCreateStream(&a));
	T_ACL_OK(aclrtCreateStream(&b));
	T_ACL_OK(aclrtMallocHost((void **)&h, 64));
	T_ACL_OK(aclrtMalloc(&word, 64, ACL_MEM_MALLOC_HUGE_FIRST));
	T_ACL_OK(aclrtMemset(word, 64, 0, 64));
	h[0] = 0;
	T_ACL_EQ(aclrtValueWrite(NULL, 1, 0, a), ACL_ERROR_INVALID_PARAM);
	T_ACL_EQ(aclrtValueWrite(word, 1, 1, a), ACL_ERROR_INVALID_PARAM);
	T_ACL_EQ(aclrtValueWait(word, 1, 4, a), ACL_ERROR_INVALID_PARAM);
	T_ACL_EQ(aclrtValueWrite((uint8_t *)word + 4, 1, 0, a),
		 ACL_ERROR_RT_PARAM_INVALID);
	T_ACL_EQ(aclrtValueWrite(h, 1, 0, a), ACL_ERROR_RT_PARAM_INVALID);

	T_ACL_OK(aclrtValueWait(word, 0x100000005ULL, ACL_STREAM_WAIT_VALUE_GEQ,
				a));
	T_ACL_OK(aclrtMemcpyAsync(h, 8, word, 8, ACL_MEMCPY_DEVICE_TO_HOST, a));
	usleep(50000);
	ck_assert_uint_eq(h[0], 0);	/* a is still held */
	T_ACL_OK(aclrtValueWrite(word, 0x100000007ULL, 0, b));
	T_ACL_OK(aclrtSynchronizeStream(a));
	ck_assert_uint_eq(h[0], 0x100000007ULL);
	/* The other comparisons, each already true. */
	T_ACL_OK(aclrtValueWait(word, 0x100000007ULL, ACL_STREAM_WAIT_VALUE_EQ, a));
	T_ACL_OK(aclrtValueWait(word, 0x4, ACL_STREAM_WAIT_VALUE_AND, a));
	T_ACL_OK(aclrtValueWait(word, 0x8, ACL_STREAM_WAIT_VALUE_NOR, a));
	T_ACL_OK(aclrtSynchronizeStream(a));
	T_ACL_OK(aclrtSynchronizeStream(b));
	T_ACL_OK(aclrtFree(word));
	T_ACL_OK(aclrtFreeHost(h));
	T_ACL_OK(aclrtDestroyStream(a));
	T_ACL_OK(aclrtDestroyStream(b));
	T_ACL_OK(aclrtResetDevice(dev));
}
END_TEST

/* Callbacks, host functions and value writes inside a replayed graph. */
START_TEST(test_host_tasks_captured)
{
	int i, calls = 0, funcs = 0;
	struct t_reporter r;
	aclrtStream s;
	uint64_t *h;
	aclmdlRI ri;
	void *word;
	int dev;

	if (!t_acl_use_backend(1, &dev))
		return;
	T_ACL_OK(aclrtCreateStream(&s));
	T_ACL_OK(aclrtMallocHost((void **)&h, 64));
	T_ACL_OK(aclrtMalloc(&word, 64, ACL_MEM_MALLOC_HUGE_FIRST));
	t_reporter_start(&r);
	T_ACL_OK(aclrtSubscribeReport((uint64_t)r.th, s));
	T_ACL_OK(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED));
	T_ACL_OK(aclrtLaunchCallback(t_cb_count, &calls, ACL_CALLBACK_BLOCK, s));
	T_ACL_OK(aclrtLaunchHostFunc(s, t_cb_count, &funcs));
	T_ACL_OK(aclrtValueWrite(word, 42, 0, s));
	T_ACL_OK(aclrtValueWait(word, 42, ACL_STREAM_WAIT_VALUE_EQ, s));
	T_ACL_OK(aclrtMemcpyAsync(h, 8, word, 8, ACL_MEMCPY_DEVICE_TO_HOST, s));
	T_ACL_OK(aclmdlRICaptureEnd(s, &ri));
	T_ACL_OK(aclrtSynchronizeStream(s));
	ck_assert_int_eq(calls + funcs, 0);
	for (i = 1; i <= 3; i++) {
		h[0] = 0;
		T_ACL_OK(aclmdlRIExecuteAsync(ri, s));
		T_ACL_OK(aclrtSynchronizeStream(s));
		ck_assert_int_eq(calls, i);
		ck_assert_int_eq(funcs, i);
		ck_assert_uint_eq(h[0], 42);
	}
	T_ACL_OK(aclmdlRIDestroy(ri));
	T_ACL_OK(aclrtUnSubscribeReport((uint64_t)r.th, s));
	t_reporter_stop(&r);
	T_ACL_OK(aclrtFree(word));
	T_ACL_OK(aclrtFreeHost(h));
	T_ACL_OK(aclrtDestroyStream(s));
	T_ACL_OK(aclrtResetDevice(dev));
}
END_TEST

static Suite *acl_callback_suite(void)
{
	Suite *s = suite_create("t_acl_callback");
	TCase *tc = tcase_create("callback");

	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_callback_ordered_between_copies, 0, 2);
	tcase_add_test(tc, test_callback_errors);
	tcase_add_loop_test(tc, test_host_func_ordered, 0, 2);
	tcase_add_loop_test(tc, test_host_func_subscribed, 0, 2);
	tcase_add_loop_test(tc, test_runner_lingers, 0, 2);
	tcase_add_test(tc, test_waiter_polls_briefly);
	tcase_add_loop_test(tc, test_host_func_early_ordered, 0, 4);
	tcase_add_test(tc, test_host_func_early_aborted);
	tcase_add_test(tc, test_host_func_process_errors);
	tcase_add_loop_test(tc, test_value_write_wait, 0, 2);
	tcase_add_test(tc, test_host_tasks_captured);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return t_run_suite(acl_callback_suite());
}
