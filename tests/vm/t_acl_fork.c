// SPDX-License-Identifier: GPL-2.0-only
/*
 * libacl and fork() in the guest (Documentation/libacl.rst, "fork"), on
 * an edu and on a sim NPU (loop index 0 = edu, 1 = sim): Python-style
 * worker pools forked while the parent has streams and copies in flight
 * and a thread copying synchronously (holding the library's locks at
 * any moment), each worker with its own device, memory and byte-exact
 * copies; what a child inherited (streams, events, contexts, notifies,
 * device pointers) refused with CANN's codes and a message, never used; the
 * parent's work undisturbed by its children, also by one killed
 * mid-copy; a fork from a host callback; pins, device memory, queues
 * and files back where they were.
 *
 * The children report by exit status (t_acl_child.h).
 */
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "t_acl.h"
#include "t_acl_child.h"
#include "t_state.h"

#define WORKERS		4
#define WAIT_S		120	/* a worker not done by then hangs */

static int nr_npus;

static void find_npus(void)
{
	struct npu_dma_info infos[T_STATE_NPUS];

	nr_npus = t_find_npus(infos, T_STATE_NPUS);
}

/* Bytes per copy: a page on edu (slow by design), real work on sim. */
static size_t chunk(int i)
{
	return i ? 4u << 20 : 4096;
}

/* The device of backend @i (0 edu, 1 sim), not set; -1: skipped. */
static int backend(int i)
{
	static const char *const names[] = { "edu", "sim" };
	int dev = t_acl_find(names[i]);

	if (dev < 0)
		t_skip("no %s NPU", names[i]);
	return dev;
}

/* ---- the parent's work in flight ------------------------------------ */

struct inflight {
	int dev;
	size_t len;
	int n;				/* copy rounds per stream */
	aclrtStream s[2];
	void *h[2], *d[2], *back[2];	/* pinned, device, pinned */
	pthread_t th;
	int stop;			/* atomic */
	int th_err;			/* the copying thread's failure */
	long th_rounds;
};

/* Synchronous copies in a loop: library locks held at any moment. */
static void *sync_copier(void *arg)
{
	struct inflight *w = arg;
	size_t len = w->len;
	char *src = malloc(len), *dst = malloc(len);
	void *d = NULL;
	uint32_t seed = 500;

	if (!src || !dst || aclrtSetDevice(w->dev) ||
	    aclrtMalloc(&d, len, ACL_MEM_MALLOC_HUGE_FIRST)) {
		w->th_err = -1;
		goto out;
	}
	while (!__atomic_load_n(&w->stop, __ATOMIC_ACQUIRE) && !w->th_err) {
		t_pattern_fill(src, len, ++seed);
		if (aclrtMemcpy(d, len, src, len, ACL_MEMCPY_HOST_TO_DEVICE) ||
		    aclrtMemcpy(dst, len, d, len, ACL_MEMCPY_DEVICE_TO_HOST))
			w->th_err = 1;
		else if (t_pattern_check(dst, len, seed) != len)
			w->th_err = 2;
		w->th_rounds++;
	}
	aclrtFree(d);
	aclrtResetDevice(w->dev);
out:
	free(src);
	free(dst);
	return NULL;
}

/*
 * Queue @n rounds of H2D, D2H on two streams (pinned memory: queued and
 * returned), and start the copying thread. The device is set.
 */
static void inflight_start(struct inflight *w, int dev, size_t len, int n)
{
	int k, r;

	memset(w, 0, sizeof(*w));
	w->dev = dev;
	w->len = len;
	w->n = n;
	for (k = 0; k < 2; k++) {
		T_ACL_OK(aclrtCreateStream(&w->s[k]));
		T_ACL_OK(aclrtMallocHost(&w->h[k], len));
		T_ACL_OK(aclrtMallocHost(&w->back[k], len));
		T_ACL_OK(aclrtMalloc(&w->d[k], len, ACL_MEM_MALLOC_HUGE_FIRST));
		t_pattern_fill(w->h[k], len, 40 + k);
		memset(w->back[k], 0, len);
		for (r = 0; r < n; r++) {
			T_ACL_OK(aclrtMemcpyAsync(w->d[k], len, w->h[k], len,
						  ACL_MEMCPY_HOST_TO_DEVICE,
						  w->s[k]));
			T_ACL_OK(aclrtMemcpyAsync(w->back[k], len, w->d[k], len,
						  ACL_MEMCPY_DEVICE_TO_HOST,
						  w->s[k]));
		}
	}
	ck_assert_int_eq(pthread_create(&w->th, NULL, sync_copier, w), 0);
	/* Let the thread get going: its locks are held when we fork. */
	while (!__atomic_load_n(&w->th_rounds, __ATOMIC_RELAXED) && !w->th_err)
		usleep(1000);
}

/* The parent's work completed, byte-exact; everything freed. */
static void inflight_finish(struct inflight *w)
{
	int k;

	__atomic_store_n(&w->stop, 1, __ATOMIC_RELEASE);
	ck_assert_int_eq(pthread_join(w->th, NULL), 0);
	ck_assert_msg(!w->th_err, "the copying thread failed (%d) after %ld rounds",
		      w->th_err, w->th_rounds);
	for (k = 0; k < 2; k++) {
		T_ACL_OK(aclrtSynchronizeStream(w->s[k]));
		ck_assert_uint_eq(t_pattern_check(w->back[k], w->len, 40 + k),
				  w->len);
		T_ACL_OK(aclrtDestroyStream(w->s[k]));
		T_ACL_OK(aclrtFree(w->d[k]));
		T_ACL_OK(aclrtFreeHost(w->h[k]));
		T_ACL_OK(aclrtFreeHost(w->back[k]));
	}
}

/* ---- the children ---------------------------------------------------- */

/*
 * What a pool worker does: its own device, memory and stream, copies
 * both ways, synchronous and asynchronous, pinned and pageable, checked
 * byte for byte. Return: 0 or the step that failed.
 */
static int worker(int dev, size_t len, uint32_t seed)
{
	char *src = malloc(len), *dst = malloc(len);
	void *d, *h;
	aclrtStream s;

	if (!src || !dst)
		return 99;
	OK(aclrtSetDevice(dev), 1);
	OK(aclrtMalloc(&d, len, ACL_MEM_MALLOC_HUGE_FIRST), 2);
	OK(aclrtMallocHost(&h, len), 3);
	t_pattern_fill(src, len, seed);
	OK(aclrtMemcpy(d, len, src, len, ACL_MEMCPY_HOST_TO_DEVICE), 4);
	memset(dst, 0, len);
	OK(aclrtMemcpy(dst, len, d, len, ACL_MEMCPY_DEVICE_TO_HOST), 5);
	if (t_pattern_check(dst, len, seed) != len)
		return 6;
	OK(aclrtCreateStream(&s), 7);
	t_pattern_fill(h, len, seed + 1);
	OK(aclrtMemcpyAsync(d, len, h, len, ACL_MEMCPY_HOST_TO_DEVICE, s), 8);
	OK(aclrtMemcpyAsync(dst, len, d, len, ACL_MEMCPY_DEVICE_TO_HOST, s), 9);
	OK(aclrtSynchronizeStream(s), 10);
	if (t_pattern_check(dst, len, seed + 1) != len)
		return 11;
	OK(aclrtDestroyStream(s), 12);
	OK(aclrtFree(d), 13);
	OK(aclrtFreeHost(h), 14);
	OK(aclrtResetDevice(dev), 15);
	free(src);
	free(dst);
	return 0;
}

/* Fork a child running @fn(@arg): its pid. */
static pid_t spawn(int (*fn)(void *), void *arg)
{
	pid_t pid = fork();

	ck_assert_int_ge(pid, 0);
	if (!pid) {
		alarm(WAIT_S);		/* a hung child fails, never hangs */
		_exit(fn(arg));
	}
	return pid;
}

/* @pid exited with status 0. */
static void reap(pid_t pid)
{
	int st;

	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert_msg(WIFEXITED(st) && !WEXITSTATUS(st),
		      "child %d: %s %d", pid,
		      WIFEXITED(st) ? "failed at step" : "killed by signal",
		      WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
}

struct job {
	int dev;
	size_t len;
	uint32_t seed;
};

static int run_worker(void *arg)
{
	const struct job *j = arg;

	return worker(j->dev, j->len, j->seed);
}

/* ---- the tests ------------------------------------------------------- */

/*
 * A pool: workers forked one after the other while the parent's streams
 * are busy and its thread copies; each does its own work byte-exactly,
 * the parent's completes byte-exactly, nothing is left behind.
 */
START_TEST(test_worker_pool)
{
	int dev = backend(_i), k, nw = _i ? WORKERS : 2;
	struct job jobs[WORKERS];
	pid_t pids[WORKERS];
	struct t_state start;
	struct inflight w;

	if (dev < 0)
		return;
	t_state_get(&start, nr_npus);
	T_ACL_OK(aclrtSetDevice(dev));
	inflight_start(&w, dev, chunk(_i), _i ? 16 : 2);
	for (k = 0; k < nw; k++) {
		jobs[k] = (struct job){ dev, chunk(_i), 1000 + k };
		pids[k] = spawn(run_worker, &jobs[k]);
	}
	for (k = 0; k < nw; k++)
		reap(pids[k]);
	inflight_finish(&w);
	T_ACL_OK(aclrtResetDevice(dev));
	ck_assert(t_state_back(&start));
}
END_TEST

/* What the parent hands its child: its objects. */
struct inherited {
	int dev;
	size_t len;
	aclrtStream s;
	aclrtEvent ev;
	aclrtContext ctx;
	aclrtNotify notify;
	void *d;			/* the parent's device memory */
	void *h;			/* its aclrtMallocHost memory, pattern 60 */
};

/*
 * Every use of the parent's device memory refused, with the message
 * (copies and memset need a current context first: CANN's 107002).
 */
static int refuse_pointers(const struct inherited *in)
{
	size_t len = in->len;
	char *buf = calloc(1, len);

	if (!buf)
		return 99;
	EXPECT(aclrtMemcpy(in->d, len, buf, len, ACL_MEMCPY_HOST_TO_DEVICE),
	       ACL_ERROR_RT_PARAM_INVALID, "device memory of the parent", 36);
	EXPECT(aclrtMemcpy(buf, len, in->d, len, ACL_MEMCPY_DEFAULT),
	       ACL_ERROR_RT_PARAM_INVALID, "device memory of the parent", 37);
	EXPECT(aclrtMemset(in->d, len, 0, len), ACL_ERROR_RT_PARAM_INVALID,
	       "device memory of the parent", 38);
	EXPECT(aclrtFree(in->d), ACL_ERROR_RT_PARAM_INVALID,
	       "device memory of the parent", 39);
	free(buf);
	return 0;
}

/* Every use of the parent's handles refused, with the message. */
static int refuse_handles(const struct inherited *in)
{
	aclrtEventRecordedStatus est;
	aclrtStreamStatus sst;
	size_t len = in->len;

	EXPECT(aclrtSynchronizeStream(in->s), ACL_ERROR_RT_INVALID_HANDLE,
	       "stream of the parent process", 30);
	EXPECT(aclrtStreamQuery(in->s, &sst), ACL_ERROR_RT_INVALID_HANDLE,
	       "parent process", 31);
	EXPECT(aclrtMemcpyAsync(in->d, len, in->h, len,
				ACL_MEMCPY_HOST_TO_DEVICE, in->s),
	       ACL_ERROR_RT_INVALID_HANDLE, "parent process", 32);
	EXPECT(aclrtSynchronizeEvent(in->ev), ACL_ERROR_RT_INVALID_HANDLE,
	       "event of the parent process", 33);
	EXPECT(aclrtQueryEventStatus(in->ev, &est), ACL_ERROR_RT_INVALID_HANDLE,
	       "parent process", 34);
	EXPECT(aclrtSetCurrentContext(in->ctx), ACL_ERROR_RT_INVALID_HANDLE,
	       "context of the parent process", 35);
	EXPECT(aclrtRecordNotify(in->notify, NULL), ACL_ERROR_RT_INVALID_HANDLE,
	       "notify of the parent process", 34);
	return 0;
}

/*
 * The child of a parent with a stream, an event, a context and memory:
 * nothing to start with, every inherited object refused before and
 * after its own aclrtSetDevice (which opens the same NPU again), then
 * its own objects work, also with the aclrtMallocHost memory it
 * inherited (its copy of those pages), and aclFinalize cleans up.
 */
static int inherit_child(void *arg)
{
	const struct inherited *in = arg;
	char *back = calloc(1, in->len);
	aclrtStream s;
	aclrtEvent ev;
	int32_t id;
	void *d;
	int ret;

	if (!back)
		return 99;
	EXPECT(aclrtGetDevice(&id), ACL_ERROR_RT_CONTEXT_NULL, NULL, 20);
	EXPECT(aclrtMemcpy(back, in->len, in->d, in->len,
			   ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_RT_CONTEXT_NULL,
	       NULL, 21);
	EXPECT(aclrtFree(in->d), ACL_ERROR_RT_PARAM_INVALID,
	       "device memory of the parent", 19);
	ret = refuse_handles(in);
	if (ret)
		return ret;
	OK(aclrtSetDevice(in->dev), 18);
	ret = refuse_handles(in);
	if (!ret)
		ret = refuse_pointers(in);
	if (ret)
		return ret + 20;
	EXPECT(aclrtDestroyStream(in->s), ACL_ERROR_RT_INVALID_HANDLE,
	       "parent process", 22);
	EXPECT(aclrtDestroyEvent(in->ev), ACL_ERROR_RT_INVALID_HANDLE,
	       "parent process", 23);
	EXPECT(aclrtDestroyContext(in->ctx), ACL_ERROR_RT_INVALID_HANDLE,
	       "parent process", 24);
	EXPECT(aclrtDestroyNotify(in->notify), ACL_ERROR_RT_INVALID_HANDLE,
	       "parent process", 17);
	OK(aclrtCreateStream(&s), 25);
	OK(aclrtCreateEvent(&ev), 26);
	OK(aclrtMalloc(&d, in->len, ACL_MEM_MALLOC_HUGE_FIRST), 27);
	OK(aclrtMemcpyAsync(d, in->len, in->h, in->len,
			    ACL_MEMCPY_HOST_TO_DEVICE, s), 28);
	OK(aclrtRecordEvent(ev, s), 29);
	OK(aclrtSynchronizeEvent(ev), 70);
	OK(aclrtMemcpy(back, in->len, d, in->len, ACL_MEMCPY_DEVICE_TO_HOST), 71);
	if (t_pattern_check(back, in->len, 60) != in->len)
		return 72;
	OK(aclrtFreeHost(in->h), 73);
	OK(aclFinalize(), 74);
	EXPECT(aclrtGetDevice(&id), ACL_ERROR_RT_CONTEXT_NULL, NULL, 75);
	free(back);
	return 0;
}

START_TEST(test_inherited_objects_refused)
{
	int dev = backend(_i);
	struct inherited in;
	struct t_state start;
	char *back;
	pid_t pid;

	if (dev < 0)
		return;
	in = (struct inherited){ .dev = dev, .len = chunk(_i) };
	back = calloc(1, in.len);
	t_state_get(&start, nr_npus);
	T_ACL_OK(aclInit(NULL));
	T_ACL_OK(aclrtCreateContext(&in.ctx, dev));
	T_ACL_OK(aclrtSetDevice(dev));
	T_ACL_OK(aclrtCreateStream(&in.s));
	T_ACL_OK(aclrtCreateEvent(&in.ev));
	T_ACL_OK(aclrtCreateNotify(&in.notify, ACL_NOTIFY_DEFAULT));
	T_ACL_OK(aclrtMalloc(&in.d, in.len, ACL_MEM_MALLOC_HUGE_FIRST));
	T_ACL_OK(aclrtMallocHost(&in.h, in.len));
	t_pattern_fill(in.h, in.len, 60);
	T_ACL_OK(aclrtMemcpyAsync(in.d, in.len, in.h, in.len,
				  ACL_MEMCPY_HOST_TO_DEVICE, in.s));
	T_ACL_OK(aclrtRecordEvent(in.ev, in.s));
	pid = spawn(inherit_child, &in);
	reap(pid);
	/* The parent's objects are untouched: all of them still work. */
	T_ACL_OK(aclrtSynchronizeEvent(in.ev));
	T_ACL_OK(aclrtMemcpyAsync(back, in.len, in.d, in.len,
				  ACL_MEMCPY_DEVICE_TO_HOST, in.s));
	T_ACL_OK(aclrtSynchronizeStream(in.s));
	ck_assert_uint_eq(t_pattern_check(back, in.len, 60), in.len);
	T_ACL_OK(aclrtSetCurrentContext(in.ctx));
	T_ACL_OK(aclrtDestroyContext(in.ctx));
	T_ACL_OK(aclrtSetDevice(dev));
	T_ACL_OK(aclrtRecordNotify(in.notify, in.s));
	T_ACL_OK(aclrtWaitAndResetNotify(in.notify, in.s, 0));
	T_ACL_OK(aclrtSynchronizeStream(in.s));
	T_ACL_OK(aclrtDestroyNotify(in.notify));
	T_ACL_OK(aclrtDestroyEvent(in.ev));
	T_ACL_OK(aclrtDestroyStream(in.s));
	T_ACL_OK(aclrtFree(in.d));
	T_ACL_OK(aclrtFreeHost(in.h));
	T_ACL_OK(aclFinalize());
	free(back);
	ck_assert(t_state_back(&start));
}
END_TEST

/* A child that copies until it is killed; it says when it has work queued. */
struct victim {
	int dev;
	int ready[2];			/* pipe: one byte once copies run */
};

static int victim_child(void *arg)
{
	struct victim *v = arg;
	size_t len = 8u << 20;
	char *src = malloc(len);
	aclrtStream s;
	void *d, *h;
	int r;

	if (!src)
		return 99;
	OK(aclrtSetDevice(v->dev), 40);
	OK(aclrtMalloc(&d, len, ACL_MEM_MALLOC_HUGE_FIRST), 41);
	OK(aclrtMallocHost(&h, len), 42);
	OK(aclrtCreateStream(&s), 43);
	memset(src, 1, len);
	for (r = 0; r < 64; r++)
		OK(aclrtMemcpyAsync(d, len, h, len, ACL_MEMCPY_HOST_TO_DEVICE,
				    s), 44);
	if (write(v->ready[1], "r", 1) != 1)
		return 45;
	for (;;)			/* pageable: pinned per copy */
		OK(aclrtMemcpy(d, len, src, len, ACL_MEMCPY_HOST_TO_DEVICE), 46);
}

/*
 * A worker killed mid-copy (its queue busy, a pageable copy pinned):
 * the parent's work completes byte-exactly, the next worker works, and
 * what the killed one held is released.
 */
START_TEST(test_child_killed_mid_copy)
{
	struct victim v = { .dev = backend(1) };
	struct t_state start;
	struct inflight w;
	struct job j;
	int st;
	pid_t pid;
	char c;

	if (v.dev < 0)
		return;
	t_state_get(&start, nr_npus);
	ck_assert_int_eq(pipe(v.ready), 0);
	T_ACL_OK(aclrtSetDevice(v.dev));
	inflight_start(&w, v.dev, chunk(1), 16);
	pid = spawn(victim_child, &v);
	ck_assert_int_eq(read(v.ready[0], &c, 1), 1);
	usleep(20000);
	ck_assert_int_eq(kill(pid, SIGKILL), 0);
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
	j = (struct job){ v.dev, chunk(1), 77 };
	reap(spawn(run_worker, &j));
	inflight_finish(&w);
	T_ACL_OK(aclrtResetDevice(v.dev));
	close(v.ready[0]);
	close(v.ready[1]);
	ck_assert(t_state_back(&start));
}
END_TEST

static int idle_child(void *arg)
{
	char c;

	return read(*(int *)arg, &c, 1) == 1 ? 0 : 50;
}

/*
 * The child does not keep the parent's DRM file open: when the parent
 * resets its device, its memory, pins and queues are released at once,
 * while the child still lives.
 */
START_TEST(test_parent_file_released_while_child_lives)
{
	int dev = backend(_i), go[2];
	struct t_state start;
	aclrtStream s;
	void *d, *h;
	pid_t pid;

	if (dev < 0)
		return;
	ck_assert_int_eq(pipe(go), 0);
	t_state_get(&start, nr_npus);
	T_ACL_OK(aclrtSetDevice(dev));
	T_ACL_OK(aclrtCreateStream(&s));
	T_ACL_OK(aclrtMalloc(&d, chunk(_i), ACL_MEM_MALLOC_HUGE_FIRST));
	T_ACL_OK(aclrtMallocHost(&h, chunk(_i)));
	T_ACL_OK(aclrtMemcpyAsync(d, chunk(_i), h, chunk(_i),
				  ACL_MEMCPY_HOST_TO_DEVICE, s));
	pid = spawn(idle_child, &go[0]);
	T_ACL_OK(aclrtFreeHost(h));
	T_ACL_OK(aclrtResetDevice(dev));
	ck_assert(t_state_back(&start));
	ck_assert_int_eq(write(go[1], "g", 1), 1);
	reap(pid);
	close(go[0]);
	close(go[1]);
}
END_TEST

/* The grandchild refuses its parent's objects, and works on its own. */
static int grandchild(void *arg)
{
	const struct inherited *in = arg;
	struct job j = { in->dev, in->len, 90 };

	EXPECT(aclrtSynchronizeStream(in->s), ACL_ERROR_RT_INVALID_HANDLE,
	       "parent process", 80);
	EXPECT(aclrtFree(in->d), ACL_ERROR_RT_PARAM_INVALID,
	       "device memory of the parent", 81);
	return worker(j.dev, j.len, j.seed);
}

static int middle_child(void *arg)
{
	struct inherited *in = arg;
	struct job j = { in->dev, in->len, 91 };
	pid_t pid;
	int st, ret;

	OK(aclrtSetDevice(in->dev), 82);
	OK(aclrtCreateStream(&in->s), 83);
	OK(aclrtMalloc(&in->d, in->len, ACL_MEM_MALLOC_HUGE_FIRST), 84);
	pid = fork();
	if (pid < 0)
		return 85;
	if (!pid)
		_exit(grandchild(in));
	ret = worker(j.dev, j.len, j.seed);
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return 86;
	if (WEXITSTATUS(st))
		return WEXITSTATUS(st);
	OK(aclrtSynchronizeStream(in->s), 87);
	OK(aclrtFree(in->d), 88);
	return ret;
}

START_TEST(test_child_forks_again)
{
	struct inherited in = { .dev = backend(_i), .len = chunk(_i) };
	struct t_state start;

	if (in.dev < 0)
		return;
	t_state_get(&start, nr_npus);
	T_ACL_OK(aclrtSetDevice(in.dev));
	T_ACL_OK(aclrtCreateStream(&in.s));
	reap(spawn(middle_child, &in));
	T_ACL_OK(aclrtDestroyStream(in.s));
	T_ACL_OK(aclrtResetDevice(in.dev));
	ck_assert(t_state_back(&start));
}
END_TEST

struct cb_fork {
	struct job job;
	int status;			/* the worker's wait status, or -1 */
};

/* A host function that forks a worker and waits for it. */
static void fork_in_callback(void *arg)
{
	struct cb_fork *c = arg;
	pid_t pid = fork();

	if (!pid) {
		alarm(WAIT_S);
		_exit(run_worker(&c->job));
	}
	if (pid < 0 || waitpid(pid, &c->status, 0) != pid)
		c->status = -1;
}

/*
 * A host function forks, as code that runs a helper from a callback
 * would: the library's runner thread forks while the parent's streams
 * work and its thread copies. The worker works, the stream goes on.
 */
START_TEST(test_fork_in_host_callback)
{
	struct cb_fork c = { .status = -1 };
	int dev = backend(1);
	struct t_state start;
	struct inflight w;

	if (dev < 0)
		return;
	c.job = (struct job){ dev, chunk(1), 95 };
	t_state_get(&start, nr_npus);
	T_ACL_OK(aclrtSetDevice(dev));
	inflight_start(&w, dev, chunk(1), 8);
	T_ACL_OK(aclrtLaunchHostFunc(w.s[0], fork_in_callback, &c));
	T_ACL_OK(aclrtMemcpyAsync(w.d[0], w.len, w.h[0], w.len,
				  ACL_MEMCPY_HOST_TO_DEVICE, w.s[0]));
	T_ACL_OK(aclrtSynchronizeStream(w.s[0]));
	ck_assert_msg(WIFEXITED(c.status) && !WEXITSTATUS(c.status),
		      "worker: status %#x", c.status);
	inflight_finish(&w);
	T_ACL_OK(aclrtResetDevice(dev));
	ck_assert(t_state_back(&start));
}
END_TEST

static Suite *acl_fork_suite(void)
{
	Suite *s = suite_create("t_acl_fork");
	TCase *tc = tcase_create("fork");

	tcase_set_timeout(tc, 240);
	tcase_add_unchecked_fixture(tc, find_npus, NULL);
	tcase_add_loop_test(tc, test_worker_pool, 0, 2);
	tcase_add_loop_test(tc, test_inherited_objects_refused, 0, 2);
	tcase_add_test(tc, test_child_killed_mid_copy);
	tcase_add_loop_test(tc, test_parent_file_released_while_child_lives, 0, 2);
	tcase_add_loop_test(tc, test_child_forks_again, 0, 2);
	tcase_add_test(tc, test_fork_in_host_callback);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return t_run_suite(acl_fork_suite());
}
