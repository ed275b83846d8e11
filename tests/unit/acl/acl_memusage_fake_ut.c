// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of lib/acl_memusage.c (aclrtGetMemUsageInfo) against fake
 * NPUs: what each component holds follows its allocations and frees at
 * the driver's sizes, in step with aclrtGetMemInfo; the peak stays; the
 * list is sorted by what is held; a short array gets the largest
 * entries; a reset and another device start from zero; several threads
 * leave consistent counters; and CANN's codes for every bad argument.
 */
#include <check.h>
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "acl_fake.h"
#include "acl/acl_rt_memory_soma.h"
#include "acl_ut.h"
#include "t_check.h"

#define KIB (1ULL << 10)
#define MIB (1ULL << 20)
#define NCOMP 3		/* app, vmm, mempool */

static void setup(void)
{
	fake_add_index(0);
	set_device(0);
}

/* Every component of device @dev, in the library's order, into @u. */
static void usage(int32_t dev, aclrtMemUsageInfo u[NCOMP])
{
	size_t n = 0;
	aclError ret;

	memset(u, 0xa5, NCOMP * sizeof(*u));
	ret = aclrtGetMemUsageInfo(dev, u, NCOMP, &n);
	ck_assert_msg(ret == ACL_SUCCESS, "aclrtGetMemUsageInfo = %d: %s", ret,
		      aclGetRecentErrMsg());
	ck_assert_uint_eq(n, NCOMP);
}

/* The entry named @name among @u: must be there. */
static const aclrtMemUsageInfo *comp(const aclrtMemUsageInfo u[NCOMP],
				     const char *name)
{
	int i;

	for (i = 0; i < NCOMP; i++)
		if (!strcmp(u[i].name, name))
			return &u[i];
	ck_abort_msg("no component \"%s\"", name);
	return NULL;
}

/* Component @name of device 0 holds @cur bytes and held at most @peak. */
static void ck_usage(const char *name, uint64_t cur, uint64_t peak)
{
	aclrtMemUsageInfo u[NCOMP];
	const aclrtMemUsageInfo *c;

	usage(0, u);
	c = comp(u, name);
	ck_assert_msg(c->curMemSize == cur && c->memPeakSize == peak,
		      "%s: cur %llu peak %llu, want %llu %llu", name,
		      (unsigned long long)c->curMemSize,
		      (unsigned long long)c->memPeakSize,
		      (unsigned long long)cur, (unsigned long long)peak);
}

/* @u lists the components in the order @a, @b, @c. */
static void ck_order(const aclrtMemUsageInfo u[NCOMP], const char *a,
		     const char *b, const char *c)
{
	ck_assert_msg(!strcmp(u[0].name, a) && !strcmp(u[1].name, b) &&
		      !strcmp(u[2].name, c), "order %.32s %.32s %.32s, want "
		      "%s %s %s", u[0].name, u[1].name, u[2].name, a, b, c);
}

static size_t free_mem(void)
{
	size_t fr = 0, tot = 0;

	ck_assert_int_eq(aclrtGetMemInfo(ACL_HBM_MEM, &fr, &tot), ACL_SUCCESS);
	return fr;
}

START_TEST(test_fresh_device_lists_every_component_empty)
{
	static const size_t zero[8];
	aclrtMemUsageInfo u[NCOMP];
	int i;

	usage(0, u);
	/* All equal: the library's fixed order. */
	ck_order(u, "app", "vmm", "mempool");
	for (i = 0; i < NCOMP; i++) {
		ck_assert_uint_eq(u[i].curMemSize, 0);
		ck_assert_uint_eq(u[i].memPeakSize, 0);
		ck_assert_mem_eq(u[i].reserved, zero, sizeof(zero));
	}
}
END_TEST

/* "app": the driver's sizes (CANN's rounding and padding, then pages). */
START_TEST(test_app_follows_malloc_and_free)
{
	size_t fr0 = free_mem();
	void *a = NULL, *b = NULL, *c = NULL, *d = NULL;

	ck_assert_int_eq(aclrtMalloc(&a, 100, ACL_MEM_MALLOC_HUGE_FIRST),
			 ACL_SUCCESS);
	ck_usage("app", 4 * KIB, 4 * KIB);
	/* 8192 + 32 bytes of padding: three pages. */
	ck_assert_int_eq(aclrtMalloc(&b, 8192, ACL_MEM_MALLOC_NORMAL_ONLY),
			 ACL_SUCCESS);
	ck_usage("app", 16 * KIB, 16 * KIB);
	/* No padding: two pages. */
	ck_assert_int_eq(aclrtMallocAlign32(&c, 8192,
					    ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMallocWithCfg(&d, 1, ACL_MEM_MALLOC_HUGE_FIRST,
					    NULL), ACL_SUCCESS);
	ck_usage("app", 28 * KIB, 28 * KIB);
	ck_assert_uint_eq(fr0 - free_mem(), 28 * KIB);
	ck_assert_int_eq(aclrtFree(b), ACL_SUCCESS);
	ck_usage("app", 16 * KIB, 28 * KIB);
	ck_assert_int_eq(aclrtFreeWithDevSync(a), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(c), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFree(d), ACL_SUCCESS);
	ck_usage("app", 0, 28 * KIB);
	ck_assert_uint_eq(free_mem(), fr0);
	/* A refused free changes nothing. */
	ck_assert_int_eq(aclrtFree(a), ACL_ERROR_RT_PARAM_INVALID);
	ck_usage("app", 0, 28 * KIB);
	ck_usage("vmm", 0, 0);
	ck_usage("mempool", 0, 0);
}
END_TEST

/* A failed MEM_ALLOC is charged nothing. */
START_TEST(test_failed_malloc_charges_nothing)
{
	void *p = NULL;

	fake_kmd_fail_next(FAKE_MEM_ALLOC, -ENOMEM);
	ck_assert_int_eq(aclrtMalloc(&p, 4096, ACL_MEM_MALLOC_HUGE_FIRST),
			 ACL_ERROR_RT_MEMORY_ALLOCATION);
	ck_usage("app", 0, 0);
}
END_TEST

static aclrtPhysicalMemProp phys_prop(void)
{
	aclrtPhysicalMemProp p;

	memset(&p, 0, sizeof(p));
	p.handleType = ACL_MEM_HANDLE_TYPE_NONE;
	p.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
	p.memAttr = ACL_HBM_MEM_HUGE;
	p.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
	p.location.id = 0;
	return p;
}

/* "vmm": physical allocations, whole 2 MiB granules. */
START_TEST(test_vmm_follows_physical_allocations)
{
	aclrtPhysicalMemProp prop = phys_prop();
	aclrtDrvMemHandle h1 = NULL, h2 = NULL;
	size_t fr0 = free_mem();

	ck_assert_int_eq(aclrtMallocPhysical(&h1, 3 * MIB, &prop, 0),
			 ACL_SUCCESS);
	ck_usage("vmm", 4 * MIB, 4 * MIB);
	ck_assert_int_eq(aclrtMallocPhysical(&h2, 1, &prop, 0), ACL_SUCCESS);
	ck_usage("vmm", 6 * MIB, 6 * MIB);
	ck_assert_uint_eq(fr0 - free_mem(), 6 * MIB);
	ck_assert_int_eq(aclrtFreePhysical(h1), ACL_SUCCESS);
	ck_usage("vmm", 2 * MIB, 6 * MIB);
	ck_assert_int_eq(aclrtFreePhysical(h1), ACL_ERROR_INVALID_PARAM);
	ck_usage("vmm", 2 * MIB, 6 * MIB);
	ck_assert_int_eq(aclrtFreePhysical(h2), ACL_SUCCESS);
	ck_usage("vmm", 0, 6 * MIB);
	ck_usage("app", 0, 0);
}
END_TEST

static aclrtMemPool make_pool(void)
{
	aclrtMemPoolProps p;
	aclrtMemPool pool = NULL;

	memset(&p, 0, sizeof(p));
	p.allocType = ACL_MEM_ALLOCATION_TYPE_PINNED;
	p.handleType = ACL_MEM_HANDLE_TYPE_NONE;
	p.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
	p.location.id = 0;
	ck_assert_int_eq(aclrtMemPoolCreate(&pool, &p), ACL_SUCCESS);
	return pool;
}

/* "mempool": the chunks a pool reserves, not the blocks handed out. */
START_TEST(test_mempool_follows_chunks)
{
	aclrtMemPool pool = make_pool();
	aclrtStream s = NULL;
	void *a = NULL, *b = NULL;

	ck_assert_int_eq(aclrtCreateStream(&s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemPoolMallocAsync(&a, 3000, pool, s),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemPoolMallocAsync(&b, 2 * MIB + 1, pool, s),
			 ACL_SUCCESS);
	ck_usage("mempool", 6 * MIB, 6 * MIB);
	ck_usage("app", 0, 0);
	/* Freed blocks stay reserved by the pool... */
	ck_assert_int_eq(aclrtMemPoolFreeAsync(a, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);
	ck_usage("mempool", 6 * MIB, 6 * MIB);
	/* ...until it gives them back. */
	ck_assert_int_eq(aclrtMemPoolTrimTo(pool, 4 * MIB), ACL_SUCCESS);
	ck_usage("mempool", 4 * MIB, 6 * MIB);
	ck_assert_int_eq(aclrtMemPoolFreeAsync(b, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemPoolDestroy(pool), ACL_SUCCESS);
	ck_usage("mempool", 0, 6 * MIB);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
}
END_TEST

/* Most held first; equal holdings by peak. */
START_TEST(test_sorted_by_current_usage)
{
	aclrtPhysicalMemProp prop = phys_prop();
	aclrtMemPool pool = make_pool();
	aclrtDrvMemHandle h = NULL;
	aclrtMemUsageInfo u[NCOMP];
	aclrtStream s = NULL;
	void *a = NULL, *b = NULL;

	ck_assert_int_eq(aclrtCreateStream(&s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMalloc(&a, 8 * KIB, ACL_MEM_MALLOC_HUGE_FIRST),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclrtMallocPhysical(&h, 2 * MIB, &prop, 0),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemPoolMallocAsync(&b, 3 * MIB, pool, s),
			 ACL_SUCCESS);
	usage(0, u);
	ck_order(u, "mempool", "vmm", "app");
	ck_assert_uint_eq(u[0].curMemSize, 4 * MIB);
	ck_assert_uint_eq(u[1].curMemSize, 2 * MIB);
	ck_assert_uint_eq(u[2].curMemSize, 12 * KIB);
	/* The pool empty: it goes last, behind the smaller app. */
	ck_assert_int_eq(aclrtMemPoolFreeAsync(b, s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemPoolDestroy(pool), ACL_SUCCESS);
	usage(0, u);
	ck_order(u, "vmm", "app", "mempool");
	/* Nothing held anywhere: the higher peak first. */
	ck_assert_int_eq(aclrtFree(a), ACL_SUCCESS);
	ck_assert_int_eq(aclrtFreePhysical(h), ACL_SUCCESS);
	usage(0, u);
	ck_order(u, "mempool", "vmm", "app");
	ck_assert_uint_eq(u[0].curMemSize + u[1].curMemSize + u[2].curMemSize,
			  0);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
}
END_TEST

/* Room for fewer entries than components: the largest, the rest untouched. */
START_TEST(test_short_array_gets_the_largest)
{
	aclrtPhysicalMemProp prop = phys_prop();
	aclrtMemUsageInfo u[NCOMP + 2], guard;
	aclrtDrvMemHandle h = NULL;
	void *a = NULL;
	size_t n = 99;

	ck_assert_int_eq(aclrtMalloc(&a, 4 * KIB, ACL_MEM_MALLOC_HUGE_FIRST),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclrtMallocPhysical(&h, 2 * MIB, &prop, 0),
			 ACL_SUCCESS);
	memset(u, 0x5a, sizeof(u));
	memcpy(&guard, &u[1], sizeof(guard));
	ck_assert_int_eq(aclrtGetMemUsageInfo(0, u, 1, &n), ACL_SUCCESS);
	ck_assert_uint_eq(n, 1);
	ck_assert_str_eq(u[0].name, "vmm");
	ck_assert_uint_eq(u[0].curMemSize, 2 * MIB);
	ck_assert_mem_eq(&u[1], &guard, sizeof(guard));
	ck_assert_int_eq(aclrtGetMemUsageInfo(0, u, 2, &n), ACL_SUCCESS);
	ck_assert_uint_eq(n, 2);
	ck_assert_str_eq(u[1].name, "app");
	ck_assert_mem_eq(&u[2], &guard, sizeof(guard));
	/* More room than components: as many as there are. */
	ck_assert_int_eq(aclrtGetMemUsageInfo(0, u, NCOMP + 2, &n),
			 ACL_SUCCESS);
	ck_assert_uint_eq(n, NCOMP);
	ck_assert_mem_eq(&u[NCOMP], &guard, sizeof(guard));
}
END_TEST

START_TEST(test_bad_arguments)
{
	aclrtMemUsageInfo u[NCOMP];
	uint32_t count = 0;
	size_t n = 99;

	ck_assert_int_eq(aclrtGetMemUsageInfo(0, NULL, NCOMP, &n),
			 ACL_ERROR_INVALID_PARAM);
	msg_has("memUsageInfo=(nil)");
	ck_assert_int_eq(aclrtGetMemUsageInfo(0, u, NCOMP, NULL),
			 ACL_ERROR_INVALID_PARAM);
	msg_has("outputNum=(nil)");
	ck_assert_int_eq(aclrtGetMemUsageInfo(0, u, 0, &n),
			 ACL_ERROR_RT_PARAM_INVALID);
	msg_has("inputNum=0");
	ck_assert_uint_eq(n, 0);
	/* The same code and message as every call taking a device id. */
	ck_assert_int_eq(aclrtGetDeviceCount(&count), ACL_SUCCESS);
	ck_assert_uint_eq(count, 1);
	n = 99;
	ck_assert_int_eq(aclrtGetMemUsageInfo(1, u, NCOMP, &n),
			 ACL_ERROR_RT_INVALID_DEVICEID);
	msg_has("deviceId=1 is out of range [0, 1)");
	ck_assert_uint_eq(n, 0);
	ck_assert_int_eq(aclrtGetMemUsageInfo(-1, u, NCOMP, &n),
			 ACL_ERROR_RT_INVALID_DEVICEID);
	msg_has("deviceId=-1 is out of range");
	ck_assert_int_eq(aclrtSetDevice(-1), ACL_ERROR_RT_INVALID_DEVICEID);
}
END_TEST

/* The device's file closed, all it held is gone: the figures restart. */
START_TEST(test_reset_restarts_the_figures)
{
	void *a = NULL;

	ck_assert_int_eq(aclrtMalloc(&a, 100, ACL_MEM_MALLOC_HUGE_FIRST),
			 ACL_SUCCESS);
	ck_usage("app", 4 * KIB, 4 * KIB);
	ck_assert_int_eq(aclrtResetDevice(0), ACL_SUCCESS);
	ck_usage("app", 0, 0);			/* not open: nothing held */
	set_device(0);
	ck_usage("app", 0, 0);
	/* The old pointer is refused, and uncharges nothing. */
	ck_assert_int_eq(aclrtFree(a), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtMalloc(&a, 8 * KIB, ACL_MEM_MALLOC_NORMAL_ONLY),
			 ACL_SUCCESS);
	ck_usage("app", 12 * KIB, 12 * KIB);
}
END_TEST

/* A physical allocation of a reset device is no handle: nothing uncharged. */
START_TEST(test_stale_physical_free_after_reset)
{
	aclrtPhysicalMemProp prop = phys_prop();
	aclrtDrvMemHandle old = NULL, h = NULL;

	ck_assert_int_eq(aclrtMallocPhysical(&old, 2 * MIB, &prop, 0),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclrtResetDevice(0), ACL_SUCCESS);
	set_device(0);
	ck_assert_int_eq(aclrtMallocPhysical(&h, 2 * MIB, &prop, 0),
			 ACL_SUCCESS);
	ck_usage("vmm", 2 * MIB, 2 * MIB);
	ck_assert_int_eq(aclrtFreePhysical(old), ACL_ERROR_INVALID_PARAM);
	ck_usage("vmm", 2 * MIB, 2 * MIB);
	ck_assert_int_eq(aclrtFreePhysical(h), ACL_SUCCESS);
	ck_usage("vmm", 0, 2 * MIB);
}
END_TEST

/* Each device its own figures. */
START_TEST(test_devices_are_separate)
{
	aclrtMemUsageInfo u[NCOMP];
	void *a = NULL;
	int i;

	fake_add_index(0);
	fake_add_index(1);
	set_device(1);
	ck_assert_int_eq(aclrtMalloc(&a, 100, ACL_MEM_MALLOC_HUGE_FIRST),
			 ACL_SUCCESS);
	usage(0, u);		/* never opened */
	for (i = 0; i < NCOMP; i++)
		ck_assert_uint_eq(u[i].curMemSize + u[i].memPeakSize, 0);
	usage(1, u);
	ck_assert_str_eq(u[0].name, "app");
	ck_assert_uint_eq(u[0].curMemSize, 4 * KIB);
}
END_TEST

enum { THREADS = 4, ROUNDS = 200 };

static void *churn(void *arg)
{
	void *p[3];
	int i, k;

	(void)arg;
	set_device(0);
	for (i = 0; i < ROUNDS; i++) {
		for (k = 0; k < 3; k++)
			if (aclrtMalloc(&p[k], 4 * KIB,
					ACL_MEM_MALLOC_NORMAL_ONLY))
				return (void *)1;
		for (k = 0; k < 3; k++)
			if (aclrtFree(p[k]))
				return (void *)1;
	}
	return NULL;
}

/* Threads allocating and freeing at once: nothing lost, a plausible peak. */
START_TEST(test_threads_leave_consistent_counters)
{
	aclrtMemUsageInfo u[NCOMP];
	pthread_t t[THREADS];
	void *r;
	int i;

	for (i = 0; i < THREADS; i++)
		ck_assert_int_eq(pthread_create(&t[i], NULL, churn, NULL), 0);
	for (i = 0; i < THREADS; i++) {
		ck_assert_int_eq(pthread_join(t[i], &r), 0);
		ck_assert_ptr_null(r);
	}
	usage(0, u);
	ck_assert_uint_eq(comp(u, "app")->curMemSize, 0);
	ck_assert_uint_ge(comp(u, "app")->memPeakSize, 3 * 8 * KIB);
	ck_assert_uint_le(comp(u, "app")->memPeakSize, THREADS * 3 * 8 * KIB);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("acl_memusage_fake");
	TCase *tc = tcase_create("usage");

	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, test_fresh_device_lists_every_component_empty);
	tcase_add_test(tc, test_app_follows_malloc_and_free);
	tcase_add_test(tc, test_failed_malloc_charges_nothing);
	tcase_add_test(tc, test_vmm_follows_physical_allocations);
	tcase_add_test(tc, test_mempool_follows_chunks);
	tcase_add_test(tc, test_sorted_by_current_usage);
	tcase_add_test(tc, test_short_array_gets_the_largest);
	tcase_add_test(tc, test_bad_arguments);
	tcase_add_test(tc, test_reset_restarts_the_figures);
	tcase_add_test(tc, test_stale_physical_free_after_reset);
	tcase_add_test(tc, test_threads_leave_consistent_counters);
	suite_add_tcase(s, tc);
	/* Its own test case: the NPUs are there before the library looks. */
	tc = tcase_create("devices");
	tcase_add_test(tc, test_devices_are_separate);
	suite_add_tcase(s, tc);
	return t_run_suite(s);
}
