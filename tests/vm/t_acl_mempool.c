// SPDX-License-Identifier: GPL-2.0-only
/*
 * libacl in the guest: stream-ordered memory pools on the real driver.
 * Copies into and out of pool memory are byte-exact (sim, and one page
 * on edu); the driver refuses a copy that runs past a pool chunk; a
 * block freed on stream A is not handed to stream B while A's earlier
 * copies still read it (data shows it: A reads 64 MiB out of the block,
 * B fills it, A's copy must hold none of B's bytes); trimming and the
 * release threshold give device memory back to the driver; misuse gets
 * CANN's codes.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl_rt_memory_soma.h"
#include "t_acl.h"

#define MIB		(1ULL << 20)
#define T_BIG		(64 * MIB)	/* slow on purpose: ~50 ms per copy */

static aclrtMemPool t_pool_create(int dev, size_t max)
{
	aclrtMemPoolProps p;
	aclrtMemPool pool = NULL;

	memset(&p, 0, sizeof(p));
	p.allocType = ACL_MEM_ALLOCATION_TYPE_PINNED;
	p.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
	p.location.id = (uint32_t)dev;
	p.maxSize = max;
	T_ACL_OK(aclrtMemPoolCreate(&pool, &p));
	return pool;
}

static uint64_t t_attr(aclrtMemPool pool, aclrtMemPoolAttr a)
{
	uint64_t v = 0;

	T_ACL_OK(aclrtMemPoolGetAttr(pool, a, &v));
	return v;
}

/* Destroy @pool (all given back) and @s, and reset @dev. */
static void t_finish(aclrtMemPool pool, aclrtStream s, int dev)
{
	T_ACL_OK(aclrtMemPoolDestroy(pool));
	T_ACL_OK(aclrtDestroyStream(s));
	T_ACL_OK(aclrtResetDevice(dev));
}

/* Free device memory the driver reports, in bytes. */
static size_t t_dev_free(void)
{
	size_t free_b = 0, total = 0;

	T_ACL_OK(aclrtGetMemInfo(ACL_HBM_MEM, &free_b, &total));
	return free_b;
}

/* H2D then D2H through @d, @len bytes at offset @off: byte-exact. */
static void t_roundtrip(void *d, size_t len, uint32_t seed, aclrtStream s)
{
	void *in = NULL, *out = NULL;
	size_t bad;

	T_ACL_OK(aclrtMallocHost(&in, len));
	T_ACL_OK(aclrtMallocHost(&out, len));
	t_pattern_fill(in, len, seed);
	memset(out, 0, len);
	T_ACL_OK(aclrtMemcpyAsync(d, len, in, len, ACL_MEMCPY_HOST_TO_DEVICE, s));
	T_ACL_OK(aclrtMemcpyAsync(out, len, d, len, ACL_MEMCPY_DEVICE_TO_HOST, s));
	T_ACL_OK(aclrtSynchronizeStream(s));
	bad = t_pattern_check(out, len, seed);
	ck_assert_msg(bad == len, "len %zu: byte %zu differs", len, bad);
	T_ACL_OK(aclrtFreeHost(in));
	T_ACL_OK(aclrtFreeHost(out));
}

/* Loop index 0: edu (one page), 1: sim (sizes across block bounds). */
START_TEST(test_copies_are_byte_exact)
{
	static const size_t sim_sizes[] = { 1, 4095, 4097, 2 * MIB, 3 * MIB + 1 };
	size_t edu_size = 4096, i, n;
	const size_t *sizes;
	aclrtMemPool pool;
	aclrtStream s;
	void *d = NULL;
	int dev;

	if (!t_acl_use_backend(_i, &dev))
		return;
	sizes = _i ? sim_sizes : &edu_size;
	n = _i ? sizeof(sim_sizes) / sizeof(sim_sizes[0]) : 1;
	T_ACL_OK(aclrtCreateStream(&s));
	pool = t_pool_create(dev, _i ? 0 : 2 * MIB);
	for (i = 0; i < n; i++) {
		T_ACL_OK(aclrtMemPoolMallocAsync(&d, sizes[i], pool, s));
		t_roundtrip(d, sizes[i], (uint32_t)i + 1, s);
		T_ACL_OK(aclrtMemPoolFreeAsync(d, s));
	}
	T_ACL_OK(aclrtSynchronizeStream(s));
	t_finish(pool, s, dev);
}
END_TEST

/* A copy that runs past the end of a pool chunk is the driver's to refuse. */
START_TEST(test_driver_checks_pool_memory)
{
	aclrtMemPool pool;
	void *d = NULL, *h = NULL;
	aclrtStream s;
	aclError ret;
	int dev;

	if (!t_acl_use_backend(1, &dev))
		return;
	T_ACL_OK(aclrtCreateStream(&s));
	pool = t_pool_create(dev, 0);
	T_ACL_OK(aclrtMemPoolMallocAsync(&d, 100, pool, s));
	T_ACL_OK(aclrtMallocHost(&h, 8192));
	ret = aclrtMemcpyAsync((char *)d + 2 * MIB - 4096, 8192, h, 8192,
			       ACL_MEMCPY_HOST_TO_DEVICE, s);
	if (ret == ACL_SUCCESS)
		ret = aclrtSynchronizeStream(s);
	ck_assert_msg(ret != ACL_SUCCESS, "a copy past the pool chunk ran");
	(void)aclGetRecentErrMsg();
	T_ACL_OK(aclrtMemPoolFreeAsync(d, s));
	(void)aclrtSynchronizeStream(s);
	T_ACL_OK(aclrtFreeHost(h));
	t_finish(pool, s, dev);
}
END_TEST

struct t_two {
	int dev;
	aclrtStream a, b;
	void *src, *out;		/* pinned, T_BIG each */
};

static bool t_two_setup(struct t_two *t)
{
	if (!t_acl_use_backend(1, &t->dev))
		return false;
	T_ACL_OK(aclrtCreateStream(&t->a));
	T_ACL_OK(aclrtCreateStream(&t->b));
	T_ACL_OK(aclrtMallocHost(&t->src, T_BIG));
	T_ACL_OK(aclrtMallocHost(&t->out, T_BIG));
	t_pattern_fill(t->src, T_BIG, 7);
	memset(t->out, 0, T_BIG);
	return true;
}

/* Give @y back on B, then destroy the pool and everything else. */
static void t_two_teardown(struct t_two *t, aclrtMemPool pool, void *y)
{
	T_ACL_OK(aclrtMemPoolFreeAsync(y, t->b));
	T_ACL_OK(aclrtSynchronizeStream(t->b));
	T_ACL_OK(aclrtMemPoolDestroy(pool));
	T_ACL_OK(aclrtFreeHost(t->src));
	T_ACL_OK(aclrtFreeHost(t->out));
	T_ACL_OK(aclrtDestroyStream(t->a));
	T_ACL_OK(aclrtDestroyStream(t->b));
	T_ACL_OK(aclrtResetDevice(t->dev));
}

/* On A: fill X from src, read it back into out (slow), free X. */
static void *t_a_reads_then_frees(struct t_two *t, aclrtMemPool pool)
{
	void *x = NULL;

	T_ACL_OK(aclrtMemPoolMallocAsync(&x, T_BIG, pool, t->a));
	T_ACL_OK(aclrtMemcpyAsync(x, T_BIG, t->src, T_BIG,
				  ACL_MEMCPY_HOST_TO_DEVICE, t->a));
	T_ACL_OK(aclrtMemcpyAsync(t->out, T_BIG, x, T_BIG,
				  ACL_MEMCPY_DEVICE_TO_HOST, t->a));
	T_ACL_OK(aclrtMemPoolFreeAsync(x, t->a));
	return x;
}

/* A's read must hold src entirely: none of B's fill. */
static void t_a_read_intact(const struct t_two *t)
{
	size_t bad = t_pattern_check(t->out, T_BIG, 7);

	ck_assert_msg(bad == T_BIG, "A's read of the block was overwritten "
		      "at byte %zu (%#x)", bad, ((uint8_t *)t->out)[bad]);
}

/* A pool of one T_BIG block on @t's NPU with reuse switch @attr on. */
static aclrtMemPool t_pool_reuse(const struct t_two *t, aclrtMemPoolAttr attr)
{
	aclrtMemPool pool = t_pool_create(t->dev, T_BIG);
	uint32_t on = 1;

	T_ACL_OK(aclrtMemPoolSetAttr(pool, attr, &on));
	return pool;
}

/*
 * B fills the block @y it got, then both streams finish: A's read holds
 * none of B's bytes, and the block holds all of them.
 */
static void t_b_fills(const struct t_two *t, void *y)
{
	void *back = NULL;
	size_t bad;

	T_ACL_OK(aclrtMemsetAsync(y, T_BIG, 0x5a, T_BIG, t->b));
	T_ACL_OK(aclrtSynchronizeStream(t->b));
	T_ACL_OK(aclrtSynchronizeStream(t->a));
	t_a_read_intact(t);
	T_ACL_OK(aclrtMallocHost(&back, T_BIG));
	T_ACL_OK(aclrtMemcpy(back, T_BIG, y, T_BIG, ACL_MEMCPY_DEVICE_TO_HOST));
	bad = t_bytes_check(back, T_BIG, 0x5a);
	ck_assert_msg(bad == T_BIG, "B's fill was overwritten at byte %zu", bad);
	T_ACL_OK(aclrtFreeHost(back));
}

/*
 * Default reuse: B gets A's block only if A's work before the free had
 * completed when B asked; a pool of one block then refuses B.
 */
START_TEST(test_other_stream_waits_for_the_free)
{
	aclrtStreamStatus st;
	struct t_two t;
	aclrtMemPool pool;
	void *x, *y = NULL;
	aclError ret;

	if (!t_two_setup(&t))
		return;
	pool = t_pool_create(t.dev, T_BIG);
	x = t_a_reads_then_frees(&t, pool);
	ret = aclrtMemPoolMallocAsync(&y, T_BIG, pool, t.b);
	T_ACL_OK(aclrtStreamQuery(t.a, &st));
	if (ret == ACL_SUCCESS) {
		ck_assert_ptr_eq(y, x);
		ck_assert_msg(st == ACL_STREAM_STATUS_COMPLETE,
			      "B got the block while A still runs");
		T_ACL_OK(aclrtMemsetAsync(y, T_BIG, 0x5a, T_BIG, t.b));
		T_ACL_OK(aclrtMemPoolFreeAsync(y, t.b));
	} else {
		ck_assert_int_eq(ret, ACL_ERROR_RT_INTERNAL_ERROR);
		t_acl_msg_has("held by frees not yet reached");
	}
	T_ACL_OK(aclrtSynchronizeStream(t.a));
	T_ACL_OK(aclrtSynchronizeStream(t.b));
	t_a_read_intact(&t);
	/* A's free point passed: now B gets the block. */
	T_ACL_OK(aclrtMemPoolMallocAsync(&y, T_BIG, pool, t.b));
	ck_assert_ptr_eq(y, x);
	t_two_teardown(&t, pool, y);
}
END_TEST

/*
 * Internal dependencies: B gets the block at once, behind a WAIT for A's
 * free point; B's fill lands after A's slow read (and stays).
 */
START_TEST(test_internal_dependency_orders_reuse)
{
	void *x, *y = NULL;
	struct t_two t;
	aclrtMemPool pool;

	if (!t_two_setup(&t))
		return;
	pool = t_pool_reuse(&t, ACL_RT_MEM_POOL_REUSE_ALLOW_INTERNAL_DEPENDENCIES);
	x = t_a_reads_then_frees(&t, pool);
	T_ACL_OK(aclrtMemPoolMallocAsync(&y, T_BIG, pool, t.b));
	ck_assert_ptr_eq(y, x);
	t_b_fills(&t, y);
	t_two_teardown(&t, pool, y);
}
END_TEST

/*
 * Event dependencies: B may have A's block once it waits for an event A
 * recorded after the free, not before; the data shows the order.
 */
START_TEST(test_event_dependency_orders_reuse)
{
	void *x, *y = NULL;
	struct t_two t;
	aclrtMemPool pool;
	aclrtEvent e;

	if (!t_two_setup(&t))
		return;
	pool = t_pool_reuse(&t, ACL_RT_MEM_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES);
	T_ACL_OK(aclrtCreateEvent(&e));
	x = t_a_reads_then_frees(&t, pool);
	T_ACL_OK(aclrtRecordEvent(e, t.a));
	if (aclrtMemPoolMallocAsync(&y, T_BIG, pool, t.b) == ACL_SUCCESS) {
		aclrtStreamStatus st;

		T_ACL_OK(aclrtStreamQuery(t.a, &st));
		ck_assert_msg(st == ACL_STREAM_STATUS_COMPLETE,
			      "B got the block without waiting while A runs");
	} else {
		t_acl_msg_has("held by frees not yet reached");
		T_ACL_OK(aclrtStreamWaitEvent(t.b, e));
		T_ACL_OK(aclrtMemPoolMallocAsync(&y, T_BIG, pool, t.b));
	}
	ck_assert_ptr_eq(y, x);
	t_b_fills(&t, y);
	T_ACL_OK(aclrtDestroyEvent(e));
	t_two_teardown(&t, pool, y);
}
END_TEST

/* Freed and synchronized memory goes back to the driver (threshold 0). */
START_TEST(test_trim_and_threshold)
{
	uint64_t keep = 64 * MIB;
	size_t before;
	aclrtMemPool pool;
	void *d[4];
	aclrtStream s;
	int dev, i;

	if (!t_acl_use_backend(1, &dev))
		return;
	T_ACL_OK(aclrtCreateStream(&s));
	pool = t_pool_create(dev, 0);
	before = t_dev_free();
	for (i = 0; i < 4; i++)
		T_ACL_OK(aclrtMemPoolMallocAsync(&d[i], 4 * MIB, pool, s));
	ck_assert_uint_le(t_dev_free() + 16 * MIB, before);
	for (i = 0; i < 4; i++)
		T_ACL_OK(aclrtMemPoolFreeAsync(d[i], s));
	T_ACL_OK(aclrtSynchronizeStream(s));
	ck_assert_uint_eq(t_attr(pool, ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT), 0);
	ck_assert_uint_eq(t_dev_free(), before);
	/* With a threshold the pool keeps memory until trimmed. */
	T_ACL_OK(aclrtMemPoolSetAttr(pool, ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD,
				     &keep));
	for (i = 0; i < 4; i++)
		T_ACL_OK(aclrtMemPoolMallocAsync(&d[i], 4 * MIB, pool, s));
	for (i = 0; i < 4; i++)
		T_ACL_OK(aclrtMemPoolFreeAsync(d[i], s));
	T_ACL_OK(aclrtSynchronizeStream(s));
	ck_assert_uint_eq(t_attr(pool, ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT),
			  16 * MIB);
	ck_assert_uint_eq(t_attr(pool, ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH),
			  16 * MIB);
	T_ACL_OK(aclrtMemPoolTrimTo(pool, 8 * MIB));
	ck_assert_uint_eq(t_attr(pool, ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT),
			  8 * MIB);
	T_ACL_OK(aclrtMemPoolTrimTo(pool, 0));
	ck_assert_uint_eq(t_dev_free(), before);
	t_finish(pool, s, dev);
}
END_TEST

START_TEST(test_errors)
{
	aclrtMemPoolProps p;
	aclrtMemPool pool, q;
	uint64_t v = 5;
	void *d = NULL;
	aclrtStream s;
	int dev;

	if (!t_acl_use_backend(_i, &dev))
		return;
	T_ACL_OK(aclrtCreateStream(&s));
	pool = t_pool_create(dev, 2 * MIB);
	memset(&p, 0, sizeof(p));
	p.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
	p.location.id = (uint32_t)dev;
	p.maxSize = SIZE_MAX / 2;
	T_ACL_EQ(aclrtMemPoolCreate(&q, &p), ACL_ERROR_RT_PARAM_INVALID);
	t_acl_msg_has("poolProps->maxSize=");
	T_ACL_OK(aclrtMemPoolMallocAsync(&d, 10, pool, s));
	T_ACL_EQ(aclrtMemPoolMallocAsync(&d, 10, pool, s),
		 ACL_ERROR_RT_INTERNAL_ERROR);
	T_ACL_EQ(aclrtMemPoolDestroy(pool), ACL_ERROR_RT_INTERNAL_ERROR);
	t_acl_msg_has("still has 1 allocations");
	T_ACL_EQ(aclrtMemPoolFreeAsync((char *)d + 1, s),
		 ACL_ERROR_RT_PARAM_INVALID);
	T_ACL_EQ(aclrtMemPoolSetAttr(pool,
		 ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT, &v),
		 ACL_ERROR_RT_PARAM_INVALID);
	t_acl_msg_has("read-only");
	T_ACL_OK(aclrtMemPoolFreeAsync(d, s));
	T_ACL_EQ(aclrtMemPoolFreeAsync(d, s), ACL_ERROR_RT_PARAM_INVALID);
	T_ACL_OK(aclrtSynchronizeStream(s));
	t_finish(pool, s, dev);
	T_ACL_EQ(aclrtMemPoolTrimTo(pool, 0), ACL_ERROR_RT_INTERNAL_ERROR);
}
END_TEST

static Suite *acl_mempool_suite(void)
{
	Suite *s = suite_create("t_acl_mempool");
	TCase *tc = tcase_create("mempool");

	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, test_copies_are_byte_exact, 0, 2);
	tcase_add_test(tc, test_driver_checks_pool_memory);
	tcase_add_test(tc, test_other_stream_waits_for_the_free);
	tcase_add_test(tc, test_internal_dependency_orders_reuse);
	tcase_add_test(tc, test_event_dependency_orders_reuse);
	tcase_add_test(tc, test_trim_and_threshold);
	tcase_add_loop_test(tc, test_errors, 0, 2);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return t_run_suite(acl_mempool_suite());
}
