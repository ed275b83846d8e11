// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of lib/acl_mempool.c against a fake NPU (16 MiB): blocks
 * come from real (fake) device allocations in 2 MiB steps, a block freed
 * on a stream is reused by that stream at once and by another one only
 * once the free point completed (or after a WAIT, with internal
 * dependencies), the attributes and their counters, the release
 * threshold and trimming, and CANN's codes for every misuse.
 */
#include <check.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#include "acl_fake.h"
#include "acl/acl_rt_memory_soma.h"
#include "acl_ut.h"
#include "t_check.h"

#define MIB (1ULL << 20)

static aclrtStream s1, s2;
static aclrtMemPool pool;

static aclrtMemPoolProps props(size_t max)
{
	aclrtMemPoolProps p;

	memset(&p, 0, sizeof(p));
	p.allocType = ACL_MEM_ALLOCATION_TYPE_PINNED;
	p.handleType = ACL_MEM_HANDLE_TYPE_NONE;
	p.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
	p.location.id = 0;
	p.maxSize = max;
	return p;
}

static void setup(void)
{
	aclrtMemPoolProps p = props(0);

	fake_add_index(0);
	set_device(0);
	ck_assert_int_eq(aclrtCreateStream(&s1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateStream(&s2), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemPoolCreate(&pool, &p), ACL_SUCCESS);
}

static uint64_t attr64(aclrtMemPoolAttr a)
{
	uint64_t v = 12345;

	ck_assert_int_eq(aclrtMemPoolGetAttr(pool, a, &v), ACL_SUCCESS);
	return v;
}

static void *pool_alloc(size_t size, aclrtStream s)
{
	void *p = NULL;
	aclError ret = aclrtMemPoolMallocAsync(&p, size, pool, s);

	ck_assert_msg(ret == ACL_SUCCESS, "MallocAsync(%zu) = %d: %s", size,
		      ret, aclGetRecentErrMsg());
	return p;
}

static void set64(aclrtMemPoolAttr a, uint64_t v)
{
	ck_assert_int_eq(aclrtMemPoolSetAttr(pool, a, &v), ACL_SUCCESS);
}

static void set32(aclrtMemPoolAttr a, uint32_t v)
{
	ck_assert_int_eq(aclrtMemPoolSetAttr(pool, a, &v), ACL_SUCCESS);
}

START_TEST(test_blocks_are_device_memory_in_2mib_steps)
{
	static unsigned char in[3000], out[3000];
	void *a = pool_alloc(3000, s1), *b = pool_alloc(2 * MIB + 1, s1);
	aclrtPtrAttributes pa;

	ck_assert_ptr_nonnull(a);
	ck_assert_uint_eq(fake_npu_handles(0), 2);
	ck_assert_uint_eq(attr64(ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT), 6 * MIB);
	ck_assert_uint_eq(attr64(ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT),
			  6 * MIB);
	ck_assert_int_eq(aclrtPointerGetAttributes(b, &pa), ACL_SUCCESS);
	ck_assert_int_eq(pa.location.type, ACL_MEM_LOCATION_TYPE_DEVICE);
	fill_pattern(in, sizeof(in), 3);
	ck_assert_int_eq(aclrtMemcpyAsync(a, sizeof(in), in, sizeof(in),
					  ACL_MEMCPY_HOST_TO_DEVICE, s1),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpyAsync(out, sizeof(out), a, sizeof(out),
					  ACL_MEMCPY_DEVICE_TO_HOST, s1),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(s1), ACL_SUCCESS);
	ck_assert_pattern(out, sizeof(out), 3);
	ck_assert_int_eq(aclrtMemPoolFreeAsync(a, s1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemPoolFreeAsync(b, s1), ACL_SUCCESS);
	ck_assert_uint_eq(attr64(ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT), 0);
	ck_assert_uint_eq(attr64(ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH), 6 * MIB);
	ck_assert_int_eq(aclrtMemPoolDestroy(pool), ACL_SUCCESS);
	ck_assert_uint_eq(fake_npu_handles(0), 0);
}
END_TEST

/* The stream that freed a block gets it back at once, pending work or not. */
START_TEST(test_same_stream_reuses_at_once)
{
	void *a = pool_alloc(4096, s1), *b;

	fake_kmd_hold(true);
	ck_assert_int_eq(aclrtMemsetAsync(a, 4096, 1, 4096, s1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemPoolFreeAsync(a, s1), ACL_SUCCESS);
	b = pool_alloc(4096, s1);
	ck_assert_ptr_eq(a, b);
	ck_assert_uint_eq(fake_kmd_calls(FAKE_MEM_ALLOC), 1);
	fake_kmd_hold(false);
	ck_assert_int_eq(aclrtSynchronizeStream(s1), ACL_SUCCESS);
}
END_TEST

/* Another stream gets it only once the free point completed. */
START_TEST(test_other_stream_waits_for_the_free)
{
	void *a = pool_alloc(4096, s1), *b, *c;

	fake_kmd_hold(true);
	ck_assert_int_eq(aclrtMemsetAsync(a, 4096, 1, 4096, s1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemPoolFreeAsync(a, s1), ACL_SUCCESS);
	b = pool_alloc(4096, s2);
	ck_assert_ptr_ne(a, b);
	fake_kmd_hold(false);
	ck_assert_int_eq(aclrtSynchronizeStream(s1), ACL_SUCCESS);
	c = pool_alloc(4096, s2);
	ck_assert_ptr_eq(a, c);
	ck_assert_uint_eq(fake_kmd_calls(FAKE_MEM_ALLOC), 2);
}
END_TEST

/* A full pool refuses what only a pending free on another stream holds. */
START_TEST(test_full_pool_refuses_pending_memory)
{
	aclrtMemPoolProps p = props(1);		/* one 2 MiB block */
	aclrtMemPool small;
	void *a = NULL, *b = NULL;

	ck_assert_int_eq(aclrtMemPoolCreate(&small, &p), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemPoolMallocAsync(&a, 100, small, s1),
			 ACL_SUCCESS);
	fake_kmd_hold(true);
	ck_assert_int_eq(aclrtMemsetAsync(a, 100, 0, 100, s1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemPoolFreeAsync(a, s1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemPoolMallocAsync(&b, 100, small, s2),
			 ACL_ERROR_RT_INTERNAL_ERROR);
	msg_has("cannot give 2097152 bytes");
	ck_assert_ptr_null(b);
	fake_kmd_hold(false);
	ck_assert_int_eq(aclrtSynchronizeStream(s1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemPoolMallocAsync(&b, 100, small, s2),
			 ACL_SUCCESS);
	ck_assert_ptr_eq(a, b);
	ck_assert_int_eq(aclrtMemPoolFreeAsync(b, s2), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemPoolDestroy(small), ACL_SUCCESS);
}
END_TEST

/* Internal dependencies: the block is given at once, behind a WAIT. */
START_TEST(test_internal_dependency_queues_a_wait)
{
	enum { N = 8192 };
	void *a = pool_alloc(N, s1), *b, *in = NULL;
	static unsigned char out[N];
	unsigned int submits;

	ck_assert_int_eq(aclrtMallocHost(&in, N), ACL_SUCCESS);
	set32(ACL_RT_MEM_POOL_REUSE_ALLOW_INTERNAL_DEPENDENCIES, 7);
	fake_kmd_hold(true);
	fill_pattern(in, N, 1);
	ck_assert_int_eq(aclrtMemcpyAsync(a, N, in, N,
					  ACL_MEMCPY_HOST_TO_DEVICE, s1),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemPoolFreeAsync(a, s1), ACL_SUCCESS);
	submits = fake_kmd_calls(FAKE_QUEUE_SUBMIT);
	b = pool_alloc(8192, s2);
	ck_assert_ptr_eq(a, b);
	ck_assert_uint_eq(fake_kmd_calls(FAKE_QUEUE_SUBMIT), submits + 1);
	ck_assert_int_eq(aclrtMemsetAsync(b, N, 0x5a, N, s2), ACL_SUCCESS);
	fake_kmd_hold(false);
	ck_assert_int_eq(aclrtSynchronizeStream(s2), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemcpy(out, sizeof(out), b, sizeof(out),
				     ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
	for (int i = 0; i < N; i++)
		ck_assert_msg(out[i] == 0x5a, "byte %d is %#x", i, out[i]);
	ck_assert_int_eq(aclrtFreeHost(in), ACL_SUCCESS);
}
END_TEST

/*
 * Event dependencies: a stream that waits for an event recorded after
 * the free gets the block with no WAIT of the pool's; a wait for a
 * record made before work that preceded the free is not enough.
 */
START_TEST(test_event_dependency_reuses)
{
	void *a = pool_alloc(4096, s1), *b, *c;
	aclrtEvent before, after;
	unsigned int submits;

	ck_assert_int_eq(aclrtCreateEvent(&before), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateEvent(&after), ACL_SUCCESS);
	set32(ACL_RT_MEM_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES, 1);
	fake_kmd_hold(true);
	ck_assert_int_eq(aclrtRecordEvent(before, s1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemsetAsync(a, 4096, 1, 4096, s1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemPoolFreeAsync(a, s1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtStreamWaitEvent(s2, before), ACL_SUCCESS);
	b = pool_alloc(4096, s2);
	ck_assert_ptr_ne(b, a);
	ck_assert_int_eq(aclrtRecordEvent(after, s1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtStreamWaitEvent(s2, after), ACL_SUCCESS);
	submits = fake_kmd_calls(FAKE_QUEUE_SUBMIT);
	c = pool_alloc(4096, s2);
	ck_assert_ptr_eq(c, a);
	ck_assert_uint_eq(fake_kmd_calls(FAKE_QUEUE_SUBMIT), submits);
	fake_kmd_hold(false);
	ck_assert_int_eq(aclrtSynchronizeStream(s2), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyEvent(before), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyEvent(after), ACL_SUCCESS);
}
END_TEST

START_TEST(test_split_and_merge)
{
	void *a = pool_alloc(6 * MIB, s1), *b, *c, *d;

	ck_assert_int_eq(aclrtMemPoolFreeAsync(a, s1), ACL_SUCCESS);
	b = pool_alloc(MIB, s1);
	c = pool_alloc(MIB, s1);
	ck_assert_ptr_eq(b, a);
	ck_assert_ptr_eq(c, (char *)a + 2 * MIB);
	ck_assert_int_eq(aclrtMemPoolFreeAsync((char *)c + 64, s1),
			 ACL_ERROR_RT_PARAM_INVALID);
	msg_has("is not an allocation of memPool");
	ck_assert_int_eq(aclrtMemPoolFreeAsync(b, s1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemPoolFreeAsync(b, s1), ACL_ERROR_RT_PARAM_INVALID);
	msg_has("already freed");
	ck_assert_int_eq(aclrtMemPoolFreeAsync(c, s1), ACL_SUCCESS);
	d = pool_alloc(6 * MIB, s1);	/* the pieces merged again */
	ck_assert_ptr_eq(d, a);
	ck_assert_uint_eq(fake_kmd_calls(FAKE_MEM_ALLOC), 1);
}
END_TEST

START_TEST(test_attributes)
{
	uint32_t v32 = 9;
	uint64_t v = 1;

	ck_assert_int_eq(aclrtMemPoolGetAttr(pool,
			 ACL_RT_MEM_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES, &v32),
			 ACL_SUCCESS);
	ck_assert_uint_eq(v32, 0);
	set32(ACL_RT_MEM_POOL_REUSE_ALLOW_OPPORTUNISTIC, 5);
	ck_assert_int_eq(aclrtMemPoolGetAttr(pool,
			 ACL_RT_MEM_POOL_REUSE_ALLOW_OPPORTUNISTIC, &v32),
			 ACL_SUCCESS);
	ck_assert_uint_eq(v32, 1);
	ck_assert_uint_eq(attr64(ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD), 0);
	set64(ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD, 4 * MIB);
	ck_assert_uint_eq(attr64(ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD), 4 * MIB);
	v = 17 * MIB;
	ck_assert_int_eq(aclrtMemPoolSetAttr(pool,
			 ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD, &v),
			 ACL_ERROR_RT_PARAM_INVALID);
	msg_has("exceeds the pool's maxSize 16777216");
	ck_assert_int_eq(aclrtMemPoolSetAttr(pool,
			 ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT, &v),
			 ACL_ERROR_RT_PARAM_INVALID);
	msg_has("read-only");
	ck_assert_int_eq(aclrtMemPoolSetAttr(pool,
			 ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_HIGH, &v),
			 ACL_ERROR_RT_PARAM_INVALID);
	msg_has("reset to 0");
	ck_assert_int_eq(aclrtMemPoolSetAttr(pool, (aclrtMemPoolAttr)9, &v),
			 ACL_ERROR_RT_PARAM_INVALID);
	msg_has("attr=9");
	ck_assert_int_eq(aclrtMemPoolGetAttr(pool, (aclrtMemPoolAttr)0, &v),
			 ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtMemPoolGetAttr(pool,
			 ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH, NULL),
			 ACL_ERROR_RT_PARAM_INVALID);
	msg_has("value is NULL");
	ck_assert_int_eq(aclrtMemPoolGetAttr(NULL,
			 ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH, &v),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemPoolGetAttr(&v,
			 ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH, &v),
			 ACL_ERROR_RT_PARAM_INVALID);
	msg_has("is not a memory pool");
}
END_TEST

/* The high-water marks, and their reset to 0 (CANN's, not to current). */
START_TEST(test_high_water_marks)
{
	void *a = pool_alloc(MIB, s1), *b = pool_alloc(3 * MIB, s1);

	ck_assert_int_eq(aclrtMemPoolFreeAsync(b, s1), ACL_SUCCESS);
	ck_assert_uint_eq(attr64(ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH), 6 * MIB);
	ck_assert_uint_eq(attr64(ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_HIGH), 6 * MIB);
	set64(ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH, 0);
	set64(ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_HIGH, 0);
	ck_assert_uint_eq(attr64(ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH), 0);
	ck_assert_uint_eq(attr64(ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_HIGH), 0);
	ck_assert_int_eq(aclrtMemPoolFreeAsync(a, s1), ACL_SUCCESS);
}
END_TEST

/* Threshold 0: completed frees go back to the driver at the next pool call. */
START_TEST(test_release_threshold)
{
	void *a = pool_alloc(MIB, s1), *b = pool_alloc(MIB, s1);

	ck_assert_int_eq(aclrtMemPoolFreeAsync(a, s1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemPoolFreeAsync(b, s1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(s1), ACL_SUCCESS);
	ck_assert_uint_eq(attr64(ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT), 0);
	ck_assert_uint_eq(fake_npu_handles(0), 0);
	/* A threshold keeps that much. */
	set64(ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD, 4 * MIB);
	a = pool_alloc(MIB, s1);
	b = pool_alloc(MIB, s1);
	ck_assert_int_eq(aclrtMemPoolFreeAsync(pool_alloc(MIB, s1), s1),
			 ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemPoolFreeAsync(a, s1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemPoolFreeAsync(b, s1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(s1), ACL_SUCCESS);
	ck_assert_uint_eq(attr64(ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT),
			  4 * MIB);
	ck_assert_uint_eq(fake_npu_handles(0), 2);
}
END_TEST

START_TEST(test_trim)
{
	void *a, *b, *c;

	set64(ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD, 16 * MIB);
	a = pool_alloc(MIB, s1);
	b = pool_alloc(MIB, s1);
	c = pool_alloc(MIB, s1);
	ck_assert_int_eq(aclrtMemPoolFreeAsync(a, s1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemPoolFreeAsync(b, s1), ACL_SUCCESS);
	ck_assert_uint_eq(attr64(ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT),
			  6 * MIB);
	ck_assert_int_eq(aclrtMemPoolTrimTo(pool, 17 * MIB),
			 ACL_ERROR_RT_INTERNAL_ERROR);
	msg_has("exceeds the pool's maxSize");
	ck_assert_int_eq(aclrtMemPoolTrimTo(pool, MIB),
			 ACL_ERROR_RT_INTERNAL_ERROR);
	msg_has("below the 2097152 bytes in use");
	ck_assert_int_eq(aclrtMemPoolTrimTo(pool, 8 * MIB), ACL_SUCCESS);
	ck_assert_uint_eq(fake_npu_handles(0), 3);
	ck_assert_int_eq(aclrtMemPoolTrimTo(pool, 4 * MIB), ACL_SUCCESS);
	ck_assert_uint_eq(attr64(ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT),
			  4 * MIB);
	ck_assert_int_eq(aclrtMemPoolTrimTo(pool, 2 * MIB), ACL_SUCCESS);
	ck_assert_uint_eq(attr64(ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT),
			  2 * MIB);
	ck_assert_uint_eq(fake_npu_handles(0), 1);
	ck_assert_int_eq(aclrtMemPoolTrimTo(NULL, 0), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemPoolFreeAsync(c, s1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemPoolTrimTo(pool, 0), ACL_SUCCESS);
	ck_assert_uint_eq(fake_npu_handles(0), 0);
}
END_TEST

START_TEST(test_destroy_with_memory_outstanding)
{
	void *a = pool_alloc(100, s1);

	ck_assert_int_eq(aclrtMemPoolDestroy(pool), ACL_ERROR_RT_INTERNAL_ERROR);
	msg_has("still has 1 allocations (2097152 bytes)");
	ck_assert_int_eq(aclrtMemPoolFreeAsync(a, s1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemPoolDestroy(pool), ACL_SUCCESS);
	ck_assert_uint_eq(fake_npu_handles(0), 0);
	ck_assert_int_eq(aclrtMemPoolDestroy(pool), ACL_ERROR_RT_INTERNAL_ERROR);
	msg_has("is not a memory pool");
	ck_assert_int_eq(aclrtMemPoolDestroy(NULL), ACL_ERROR_INVALID_PARAM);
}
END_TEST

START_TEST(test_create_errors)
{
	aclrtMemPoolProps p = props(0);
	aclrtMemPool q;

	ck_assert_int_eq(aclrtMemPoolCreate(NULL, &p), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemPoolCreate(&q, NULL), ACL_ERROR_INVALID_PARAM);
	p.allocType = (aclrtMemAllocationType)1;
	ck_assert_int_eq(aclrtMemPoolCreate(&q, &p), ACL_ERROR_INVALID_PARAM);
	msg_has("poolProps->allocType=1");
	p = props(0);
	p.location.type = ACL_MEM_LOCATION_TYPE_HOST;
	ck_assert_int_eq(aclrtMemPoolCreate(&q, &p), ACL_ERROR_INVALID_PARAM);
	msg_has("poolProps->location.type=");
	p = props(0);
	p.reserved[31] = 1;
	ck_assert_int_eq(aclrtMemPoolCreate(&q, &p), ACL_ERROR_INVALID_PARAM);
	msg_has("poolProps->reserved[31]=1");
	p = props(16 * MIB + 1);
	ck_assert_int_eq(aclrtMemPoolCreate(&q, &p), ACL_ERROR_RT_PARAM_INVALID);
	msg_has("poolProps->maxSize=16777217");
	p = props(0);
	p.location.id = 3;
	ck_assert_int_eq(aclrtMemPoolCreate(&q, &p),
			 ACL_ERROR_RT_INVALID_DEVICEID);
}
END_TEST

START_TEST(test_create_needs_a_device)
{
	aclrtMemPoolProps p = props(0);
	aclrtMemPool q;

	fake_add_index(0);
	ck_assert_int_eq(aclrtMemPoolCreate(&q, &p), ACL_ERROR_RT_CONTEXT_NULL);
}
END_TEST

START_TEST(test_malloc_free_errors)
{
	uint64_t not_a_stream[8] = { 0 };
	void *a = (void *)0x1234, *h = malloc(64);

	ck_assert_int_eq(aclrtMemPoolMallocAsync(&a, 0, pool, s1), ACL_SUCCESS);
	ck_assert_ptr_eq(a, (void *)0x1234);	/* CANN: untouched */
	ck_assert_int_eq(aclrtMemPoolMallocAsync(NULL, 1, pool, s1),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemPoolMallocAsync(&a, 1, NULL, s1),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemPoolMallocAsync(&a, 1, pool, NULL),
			 ACL_ERROR_INVALID_PARAM);
	msg_has("none may be NULL");
	ck_assert_int_eq(aclrtMemPoolMallocAsync(&a, 1, h, s1),
			 ACL_ERROR_RT_INTERNAL_ERROR);
	msg_has("is not a memory pool");
	ck_assert_int_eq(aclrtMemPoolMallocAsync(&a, SIZE_MAX, pool, s1),
			 ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(aclrtMemPoolMallocAsync(&a, 1, pool, not_a_stream),
			 ACL_ERROR_RT_INVALID_HANDLE);
	ck_assert_int_eq(aclrtMemPoolFreeAsync(NULL, s1), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemPoolFreeAsync(h, NULL),
			 ACL_ERROR_RT_INTERNAL_ERROR);
	msg_has("stream is NULL");
	ck_assert_int_eq(aclrtMemPoolFreeAsync(h, s1), ACL_ERROR_RT_PARAM_INVALID);
	msg_has("neither pool memory nor device memory");
	free(h);
}
END_TEST

/* CANN frees a pointer no pool knows with aclrtFree, in stream order. */
START_TEST(test_free_async_of_plain_memory)
{
	void *m = NULL;

	ck_assert_int_eq(aclrtMalloc(&m, 4096, ACL_MEM_MALLOC_HUGE_FIRST),
			 ACL_SUCCESS);
	ck_assert_uint_eq(fake_npu_handles(0), 1);
	fake_kmd_hold(true);
	ck_assert_int_eq(aclrtMemsetAsync(m, 4096, 1, 4096, s1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemPoolFreeAsync(m, s1), ACL_SUCCESS);
	ck_assert_uint_eq(fake_npu_handles(0), 1);
	fake_kmd_hold(false);
	ck_assert_int_eq(aclrtSynchronizeStream(s1), ACL_SUCCESS);
	ck_assert_uint_eq(fake_npu_handles(0), 0);
}
END_TEST

/* A device reset frees the pool's memory: the pool forgets it. */
START_TEST(test_device_reset_drops_chunks)
{
	void *a = pool_alloc(100, s1);

	(void)a;
	ck_assert_int_eq(aclrtDestroyStream(s1), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(s2), ACL_SUCCESS);
	ck_assert_int_eq(aclrtResetDevice(0), ACL_SUCCESS);
	set_device(0);
	ck_assert_uint_eq(attr64(ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT), 0);
	ck_assert_uint_eq(attr64(ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT), 0);
	ck_assert_int_eq(aclrtMemPoolDestroy(pool), ACL_SUCCESS);
}
END_TEST

/*
 * Threads allocating and freeing on their own streams, one pool: at most
 * 8 blocks of 2 MiB held at once, what the 16 MiB NPU has.
 */
static void *churn(void *arg)
{
	aclrtContext ctx = arg;
	aclrtStream s;
	void *held[2] = { 0 };
	unsigned int i, k;

	ck_assert_int_eq(aclrtSetCurrentContext(ctx), ACL_SUCCESS);
	ck_assert_int_eq(aclrtCreateStream(&s), ACL_SUCCESS);
	for (i = 0; i < 300; i++) {
		k = (i * 3) % 2;
		if (held[k]) {
			ck_assert_int_eq(aclrtMemPoolFreeAsync(held[k], s),
					 ACL_SUCCESS);
			held[k] = NULL;
			continue;
		}
		held[k] = pool_alloc((k + 1) * 300 * 1024, s);
		ck_assert_int_eq(aclrtMemsetAsync(held[k], 4096, k, 4096, s),
				 ACL_SUCCESS);
	}
	for (k = 0; k < 2; k++)
		if (held[k])
			ck_assert_int_eq(aclrtMemPoolFreeAsync(held[k], s),
					 ACL_SUCCESS);
	ck_assert_int_eq(aclrtSynchronizeStream(s), ACL_SUCCESS);
	ck_assert_int_eq(aclrtDestroyStream(s), ACL_SUCCESS);
	return NULL;
}

START_TEST(test_threads)
{
	pthread_t t[4];
	aclrtContext ctx;
	uint32_t on = 1;
	int i;

	ck_assert_int_eq(aclrtGetCurrentContext(&ctx), ACL_SUCCESS);
	ck_assert_int_eq(aclrtMemPoolSetAttr(pool,
			 ACL_RT_MEM_POOL_REUSE_ALLOW_INTERNAL_DEPENDENCIES, &on),
			 ACL_SUCCESS);
	for (i = 0; i < 4; i++)
		ck_assert_int_eq(pthread_create(&t[i], NULL, churn, ctx), 0);
	for (i = 0; i < 4; i++)
		ck_assert_int_eq(pthread_join(t[i], NULL), 0);
	ck_assert_uint_eq(attr64(ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT), 0);
	ck_assert_int_eq(aclrtMemPoolTrimTo(pool, 0), ACL_SUCCESS);
	ck_assert_uint_eq(fake_npu_handles(0), 0);
	ck_assert_int_eq(aclrtMemPoolDestroy(pool), ACL_SUCCESS);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("acl_mempool_fake");
	TCase *tc = tcase_create("mempool");
	TCase *bare = tcase_create("no_device");

	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_add_test(tc, test_blocks_are_device_memory_in_2mib_steps);
	tcase_add_test(tc, test_same_stream_reuses_at_once);
	tcase_add_test(tc, test_other_stream_waits_for_the_free);
	tcase_add_test(tc, test_full_pool_refuses_pending_memory);
	tcase_add_test(tc, test_internal_dependency_queues_a_wait);
	tcase_add_test(tc, test_event_dependency_reuses);
	tcase_add_test(tc, test_split_and_merge);
	tcase_add_test(tc, test_attributes);
	tcase_add_test(tc, test_high_water_marks);
	tcase_add_test(tc, test_release_threshold);
	tcase_add_test(tc, test_trim);
	tcase_add_test(tc, test_destroy_with_memory_outstanding);
	tcase_add_test(tc, test_create_errors);
	tcase_add_test(tc, test_malloc_free_errors);
	tcase_add_test(tc, test_free_async_of_plain_memory);
	tcase_add_test(tc, test_device_reset_drops_chunks);
	tcase_add_test(tc, test_threads);
	suite_add_tcase(s, tc);
	tcase_add_test(bare, test_create_needs_a_device);
	suite_add_tcase(s, bare);
	return t_run_suite(s);
}
