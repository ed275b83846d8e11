// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of libacl's fork() handling (lib/acl_fork.c) against a fake
 * NPU: the child closes its copy of the parent's file and opens its own
 * at aclrtSetDevice; what it inherited is refused by generation, with
 * the parent named; a lock a parent thread held at fork() (a synchronous
 * copy waiting for the device) does not block the child; the parent's
 * objects keep working; the child holds no device memory
 * (aclrtGetMemUsageInfo) until it allocates its own. The children report
 * by exit status (t_acl_child.h).
 */
#include <check.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "acl_internal.h"
#include "acl_fake.h"
#include "acl_ut.h"
#include "t_acl_child.h"
#include "t_check.h"

enum { SZ = 16 * 1024 };

static void *host, *dev;
static aclrtStream stream;
static aclrtEvent event;
static aclrtNotify notify;

static void setup(void)
{
	fake_add_index(0);
	set_device(0);
	ck_assert_int_eq(aclrtMallocHost(&host, SZ), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMalloc(&dev, SZ, ACL_MEM_MALLOC_HUGE_FIRST),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateStream(&stream), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateEvent(&event), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateNotify(&notify, ACL_NOTIFY_DEFAULT),
			 ACL_SUCCESS);
	fill_pattern(host, SZ, 5);
}

/* Device memory held on device 0 (current plus peak, every component). */
static uint64_t held(void)
{
	aclrtMemUsageInfo u[3];
	uint64_t sum = 0;
	size_t i, n = 0;

	if (aclrtGetMemUsageInfo(0, u, 3, &n))
		return UINT64_MAX;
	for (i = 0; i < n; i++)
		sum += u[i].curMemSize + u[i].memPeakSize;
	return sum;
}

/* The child's own stream and memory move bytes. */
static int own_work(int step)
{
	char back[SZ];
	aclrtStream s;
	void *d;

	EXPECT(aclrtCreateStream(&s), ACL_SUCCESS, NULL, step);
	EXPECT(aclrtMalloc(&d, SZ, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS,
	       NULL, step + 1);
	EXPECT(aclrtMemcpyAsync(d, SZ, host, SZ, ACL_MEMCPY_HOST_TO_DEVICE, s),
	       ACL_SUCCESS, NULL, step + 2);
	EXPECT(aclrtSynchronizeStream(s), ACL_SUCCESS, NULL, step + 3);
	EXPECT(aclrtMemcpy(back, SZ, d, SZ, ACL_MEMCPY_DEVICE_TO_HOST),
	       ACL_SUCCESS, NULL, step + 4);
	return pattern_diff(back, SZ, 5) < 0 ? 0 : step + 5;
}

static int child(unsigned int closes)
{
	aclrtEventRecordedStatus st;
	int32_t id;

	if (fake_npu_files(0) || fake_kmd_calls(FAKE_CLOSE) != closes + 1)
		return 1;
	if (!acl_gen_inherited(((struct acl_stream *)stream)->gen) ||
	    acl_gen_inherited(0))
		return 2;
	EXPECT(aclrtGetDevice(&id), ACL_ERROR_RT_CONTEXT_NULL, NULL, 3);
	EXPECT(aclrtSetDevice(0), ACL_SUCCESS, NULL, 4);
	if (fake_npu_files(0) != 1)
		return 5;
	if (held() != 0)
		return 17;
	EXPECT(aclrtSynchronizeStream(stream), ACL_ERROR_RT_INVALID_HANDLE,
	       "stream of the parent process", 6);
	EXPECT(aclrtQueryEventStatus(event, &st), ACL_ERROR_RT_INVALID_HANDLE,
	       "event of the parent process", 7);
	EXPECT(aclrtFree(dev), ACL_ERROR_RT_PARAM_INVALID,
	       "device memory of the parent", 8);
	EXPECT(aclrtDestroyStream(stream), ACL_ERROR_RT_INVALID_HANDLE,
	       "parent process", 9);
	EXPECT(aclrtDestroyNotify(notify), ACL_ERROR_RT_INVALID_HANDLE,
	       "notify of the parent process", 16);
	return own_work(10);
}

static void reap(pid_t pid)
{
	int st;

	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert_msg(WIFEXITED(st) && !WEXITSTATUS(st),
		      "child: status %#x (exit %d)", st, WEXITSTATUS(st));
}

START_TEST(test_fork_child_starts_clean)
{
	unsigned int closes = fake_kmd_calls(FAKE_CLOSE);
	char back[SZ];
	pid_t pid;

	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid)
		_exit(child(closes));
	reap(pid);
	/* The parent's objects are its own still: 20 KiB, now and at most. */
	ck_assert_uint_eq(fake_npu_files(0), 1);
	ck_assert_uint_eq(held(), 2 * 20 * 1024);
	ck_assert_int_eq(aclrtMemcpyAsync(dev, SZ, host, SZ,
					  ACL_MEMCPY_HOST_TO_DEVICE, stream),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclrtRecordEvent(event, stream), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeEvent(event), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpy(back, SZ, dev, SZ,
				     ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
	ck_assert_pattern(back, SZ, 5);
	ck_assert_int_eq(aclrtDestroyNotify(notify), ACL_SUCCESS);
}
END_TEST

static void *sync_copy(void *arg)
{
	static char buf[SZ];

	(void)arg;
	fill_pattern(buf, SZ, 5);
	if (aclrtSetDevice(0))
		return (void *)(intptr_t)-1;
	return (void *)(intptr_t)aclrtMemcpy(dev, SZ, buf, SZ,
					     ACL_MEMCPY_HOST_TO_DEVICE);
}

/*
 * A parent thread waits in a synchronous copy, holding a library ring's
 * locks, when another thread forks: the child copies all the same.
 */
START_TEST(test_fork_while_a_thread_holds_a_ring)
{
	unsigned int submits = fake_kmd_calls(FAKE_QUEUE_SUBMIT);
	pthread_t th;
	void *ret;
	pid_t pid;

	fake_kmd_hold(true);
	ck_assert_int_eq(pthread_create(&th, NULL, sync_copy, NULL), 0);
	while (fake_kmd_calls(FAKE_QUEUE_SUBMIT) == submits)
		usleep(1000);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid) {
		fake_kmd_hold(false);
		alarm(10);
		_exit(aclrtSetDevice(0) ? 1 : own_work(2));
	}
	reap(pid);
	fake_kmd_hold(false);
	ck_assert_int_eq(pthread_join(th, &ret), 0);
	ck_assert_int_eq((intptr_t)ret, ACL_SUCCESS);
}
END_TEST

static Suite *acl_fork_suite(void)
{
	Suite *s = suite_create("acl_fork_fake");
	TCase *tc = tcase_create("fork");

	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, test_fork_child_starts_clean);
	tcase_add_test(tc, test_fork_while_a_thread_holds_a_ring);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return t_run_suite(acl_fork_suite());
}
