// SPDX-License-Identifier: GPL-2.0-only
/*
 * libacl in the guest: aclrtReduceAsync on every sim NPU. Each kind
 * (SUM, MAX, MIN) and type is run over an odd number of elements that
 * cross pages at different offsets on the two sides, with the special
 * values mixed in (NaN, infinities, signed zeros, subnormals, rounding
 * ties, wrapping integers); the result, its neighbours and the source
 * are compared with the host's answer (tests/common/t_reduce_ref.h).
 * Then what must be refused: edu NPUs (207000), reserve, host memory,
 * counts and pointers that do not fit the element, EQUAL, other types.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "t_acl.h"
#include "t_reduce_ref.h"

#define H2D ACL_MEMCPY_HOST_TO_DEVICE
#define D2H ACL_MEMCPY_DEVICE_TO_HOST

/* Elements per run: odd, over two pages of 4-byte elements. */
#define T_N		3001
/* Elements left alone before and after the run, on each side. */
#define T_GUARD		7

static const aclrtReduceKind t_kinds[] = {
	ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM, ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX,
	ACL_RT_MEMCPY_SDMA_AUTOMATIC_MIN,
};

/* aclDataType by the driver's type (NPU_DMA_REDUCE_T_*). */
static const aclDataType t_types[NPU_DMA_REDUCE_NR_TYPES] = {
	ACL_INT8, ACL_UINT8, ACL_INT16, ACL_UINT16, ACL_INT32, ACL_UINT32,
	ACL_FLOAT16, ACL_BF16, ACL_FLOAT,
};

/* Patterns every float type gets, shifted to its width where it matters. */
static const uint32_t t_f16_special[] = {
	0x7e00, 0x7c01, 0x7c00, 0xfc00, 0x0000, 0x8000, 0x0001, 0x83ff,
	0x7bff, 0xfbff, 0x6800, 0x3c00, 0x6801, 0x4c00,
};
static const uint32_t t_bf16_special[] = {
	0x7fc0, 0xff81, 0x7f80, 0xff80, 0x0000, 0x8000, 0x0001, 0x807f,
	0x7f7f, 0xff7f, 0x4380, 0x3f80, 0x4381, 0x7f00,
};
static const uint32_t t_f32_special[] = {
	0x7fc00000, 0xff800001, 0x7f800000, 0xff800000, 0x00000000,
	0x80000000, 0x00000001, 0x807fffff, 0x7f7fffff, 0xff7fffff,
	0x4b000000, 0x3f800000, 0x4b000001, 0x73800000,
};
static const uint32_t t_int_special[] = {
	0x7f, 0x80, 0xff, 0x01, 0x7fff, 0x8000, 0xffff, 0x7fffffff,
	0x80000000, 0xffffffff, 0x00000000,
};

static uint32_t t_rnd(unsigned int *seed)
{
	return (uint32_t)rand_r(seed) << 16 ^ (uint32_t)rand_r(seed);
}

/* A value for element @i: random, or now and then a special pattern. */
static uint32_t t_value(unsigned int type, size_t i, unsigned int *seed)
{
	const uint32_t *sp = t_int_special;
	size_t n = sizeof(t_int_special) / sizeof(t_int_special[0]);

	if (type == NPU_DMA_REDUCE_T_F16)
		sp = t_f16_special;
	else if (type == NPU_DMA_REDUCE_T_BF16)
		sp = t_bf16_special;
	else if (type == NPU_DMA_REDUCE_T_F32)
		sp = t_f32_special;
	if (sp != t_int_special)
		n = sizeof(t_f16_special) / sizeof(t_f16_special[0]);
	if (i % 3 == 0)
		return sp[(i / 3 + t_rnd(seed) % 2) % n];
	return t_rnd(seed);
}

static uint32_t t_get(const void *p, size_t i, unsigned int size)
{
	uint32_t v = 0;

	memcpy(&v, (const char *)p + i * size, size);
	return v;
}

static void t_put(void *p, size_t i, unsigned int size, uint32_t v)
{
	memcpy((char *)p + i * size, &v, size);
}

/*
 * One kind and type on @st: dst starts @doff elements into its buffer,
 * src @soff, so their pages split differently.
 */
static void t_run(aclrtStream st, unsigned int op, unsigned int type,
		  size_t doff, size_t soff, unsigned int seed)
{
	unsigned int size = t_red_size(type);
	size_t total = T_N + 2 * T_GUARD, i, bytes = total * size;
	uint8_t *dh = malloc(bytes), *sh = malloc(bytes), *back = malloc(bytes);
	uint32_t want, got;
	void *dd, *sd;

	ck_assert(dh && sh && back);
	for (i = 0; i < total; i++) {
		t_put(dh, i, size, t_value(type, i, &seed));
		t_put(sh, i, size, t_value(type, i + 1, &seed));
	}
	T_ACL_OK(aclrtMalloc(&dd, bytes + doff * size, ACL_MEM_MALLOC_HUGE_FIRST));
	T_ACL_OK(aclrtMalloc(&sd, bytes + soff * size, ACL_MEM_MALLOC_HUGE_FIRST));
	dd = (char *)dd + doff * size;
	sd = (char *)sd + soff * size;
	T_ACL_OK(aclrtMemcpy(dd, bytes, dh, bytes, H2D));
	T_ACL_OK(aclrtMemcpy(sd, bytes, sh, bytes, H2D));
	T_ACL_OK(aclrtReduceAsync((char *)dd + T_GUARD * size,
				  (char *)sd + T_GUARD * size, (uint64_t)T_N * size,
				  t_kinds[op], t_types[type], st, NULL));
	T_ACL_OK(aclrtSynchronizeStream(st));
	T_ACL_OK(aclrtMemcpy(back, bytes, dd, bytes, D2H));
	for (i = 0; i < total; i++) {
		want = t_get(dh, i, size);
		if (i >= T_GUARD && i < T_GUARD + T_N)
			want = t_red_ref(want, t_get(sh, i, size), op, type);
		got = t_get(back, i, size);
		ck_assert_msg(got == want,
			      "op %u type %u element %zu: 0x%x op 0x%x = 0x%x, want 0x%x",
			      op, type, i, t_get(dh, i, size), t_get(sh, i, size),
			      got, want);
	}
	T_ACL_OK(aclrtMemcpy(back, bytes, sd, bytes, D2H));
	ck_assert_msg(!memcmp(back, sh, bytes), "op %u type %u: source changed",
		      op, type);
	T_ACL_OK(aclrtFree((char *)dd - doff * size));
	T_ACL_OK(aclrtFree((char *)sd - soff * size));
	free(dh);
	free(sh);
	free(back);
}

/* Logical id of sim NPU number @nth, or -1. */
static int t_sim_find(int nth)
{
	uint32_t n = 0, i;
	char buf[16];
	int seen = 0;

	T_ACL_OK(aclrtGetDeviceCount(&n));
	for (i = 0; i < n; i++)
		if (!t_npu_attr((int)i, "backend", buf, sizeof(buf)) &&
		    !strcmp(buf, "sim") && seen++ == nth)
			return (int)i;
	return -1;
}

/* Sim NPU number @nth, or -1 and the test skips. */
static int t_sim(int nth)
{
	int dev = t_sim_find(nth);

	if (dev < 0)
		t_skip("no sim NPU number %d", nth);
	return dev;
}

/* Every kind and type, on sim NPU number _i (the first two the guest has). */
START_TEST(test_reduce_all_kinds_types)
{
	int dev = t_sim(_i);
	unsigned int op, type;
	aclrtStream st;

	if (dev < 0)
		return;
	T_ACL_OK(aclrtSetDevice(dev));
	T_ACL_OK(aclrtCreateStream(&st));
	for (op = 0; op < NPU_DMA_REDUCE_NR_OPS; op++)
		for (type = 0; type < NPU_DMA_REDUCE_NR_TYPES; type++)
			t_run(st, op, type, op + 1, 2 * type + 1,
			      op * 100 + type + (unsigned int)_i);
	T_ACL_OK(aclrtDestroyStream(st));
	T_ACL_OK(aclrtResetDevice(dev));
}
END_TEST

/* One element of type @type on the device: @a op @b. */
static uint32_t t_one(uint32_t a, uint32_t b, aclrtReduceKind kind,
		      aclDataType type, unsigned int size)
{
	void *d, *s;
	uint32_t r = 0;

	T_ACL_OK(aclrtMalloc(&d, 64, ACL_MEM_MALLOC_HUGE_FIRST));
	T_ACL_OK(aclrtMalloc(&s, 64, ACL_MEM_MALLOC_HUGE_FIRST));
	T_ACL_OK(aclrtMemcpy(d, size, &a, size, H2D));
	T_ACL_OK(aclrtMemcpy(s, size, &b, size, H2D));
	T_ACL_OK(aclrtReduceAsync(d, s, size, kind, type, NULL, NULL));
	T_ACL_OK(aclrtSynchronizeStream(NULL));
	T_ACL_OK(aclrtMemcpy(&r, size, d, size, D2H));
	T_ACL_OK(aclrtFree(d));
	T_ACL_OK(aclrtFree(s));
	return r;
}

#define SUM ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM
#define MAX ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX
#define MIN ACL_RT_MEMCPY_SDMA_AUTOMATIC_MIN

/* The documented corners, each by value (the matrix mixes them in). */
START_TEST(test_reduce_corners)
{
	int dev = t_sim(0);

	if (dev < 0)
		return;
	T_ACL_OK(aclrtSetDevice(dev));
	/* binary16: 2048 + 1 ties to even 2048; 2050 + 1 -> 2052. */
	ck_assert_uint_eq(t_one(0x6800, 0x3c00, SUM, ACL_FLOAT16, 2), 0x6800);
	ck_assert_uint_eq(t_one(0x6801, 0x3c00, SUM, ACL_FLOAT16, 2), 0x6802);
	/* 65504 + 16 overflows to infinity; inf - inf is the default NaN. */
	ck_assert_uint_eq(t_one(0x7bff, 0x4c00, SUM, ACL_FLOAT16, 2), 0x7c00);
	ck_assert_uint_eq(t_one(0x7c00, 0xfc00, SUM, ACL_FLOAT16, 2), 0x7e00);
	/* bfloat16: 256 + 1 ties to 256; a NaN payload is not kept. */
	ck_assert_uint_eq(t_one(0x4380, 0x3f80, SUM, ACL_BF16, 2), 0x4380);
	ck_assert_uint_eq(t_one(0x3f80, 0xff81, MAX, ACL_BF16, 2), 0x7fc0);
	/* float: subnormals add exactly; MIN(-0, +0) is -0. */
	ck_assert_uint_eq(t_one(0x00000001, 0x807fffff, SUM, ACL_FLOAT, 4),
			  0x807ffffe);
	ck_assert_uint_eq(t_one(0x00000000, 0x80000000, MIN, ACL_FLOAT, 4),
			  0x80000000);
	/* Integers wrap; signedness decides MAX. */
	ck_assert_uint_eq(t_one(0x7f, 0x01, SUM, ACL_INT8, 1), 0x80);
	ck_assert_uint_eq(t_one(0xffffffff, 0x02, SUM, ACL_UINT32, 4), 0x01);
	ck_assert_uint_eq(t_one(0x8000, 0x0001, MAX, ACL_INT16, 2), 0x0001);
	ck_assert_uint_eq(t_one(0x8000, 0x0001, MAX, ACL_UINT16, 2), 0x8000);
	T_ACL_OK(aclrtResetDevice(dev));
}
END_TEST

/* In place (dst == src): each element combined with itself. */
START_TEST(test_reduce_in_place)
{
	int32_t v[5] = { 1, -2, 0x40000000, 7, 9 }, back[5];
	int dev = t_sim(0);
	void *d;

	if (dev < 0)
		return;
	T_ACL_OK(aclrtSetDevice(dev));
	T_ACL_OK(aclrtMalloc(&d, sizeof(v), ACL_MEM_MALLOC_HUGE_FIRST));
	T_ACL_OK(aclrtMemcpy(d, sizeof(v), v, sizeof(v), H2D));
	T_ACL_OK(aclrtReduceAsync(d, d, 4 * sizeof(v[0]), SUM, ACL_INT32, NULL,
				  NULL));
	T_ACL_OK(aclrtSynchronizeStream(NULL));
	T_ACL_OK(aclrtMemcpy(back, sizeof(back), d, sizeof(back), D2H));
	ck_assert_int_eq(back[0], 2);
	ck_assert_int_eq(back[1], -4);
	ck_assert_int_eq(back[2], INT32_MIN);	/* 2^30 + 2^30 wraps */
	ck_assert_int_eq(back[3], 14);
	ck_assert_int_eq(back[4], 9);		/* past count */
	T_ACL_OK(aclrtFree(d));
	T_ACL_OK(aclrtResetDevice(dev));
}
END_TEST

/* What the library refuses before anything is queued, and the driver after. */
START_TEST(test_reduce_refused)
{
	int dev = t_sim(0), other = t_sim_find(1);
	char host[64] __attribute__((aligned(8)));
	void *d, *s, *h, *o = NULL;

	if (dev < 0)
		return;
	T_ACL_OK(aclrtSetDevice(dev));
	T_ACL_OK(aclrtMalloc(&d, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
	T_ACL_OK(aclrtMalloc(&s, 4096, ACL_MEM_MALLOC_HUGE_FIRST));
	T_ACL_OK(aclrtMallocHost(&h, 4096));
	T_ACL_EQ(aclrtReduceAsync(d, s, 64, SUM, ACL_FLOAT, NULL, (void *)1),
		 ACL_ERROR_INVALID_PARAM);
	t_acl_msg_has("reserve");
	T_ACL_EQ(aclrtReduceAsync(d, s, 6, SUM, ACL_FLOAT, NULL, NULL),
		 ACL_ERROR_RT_PARAM_INVALID);
	t_acl_msg_has("count=6");
	T_ACL_EQ(aclrtReduceAsync((char *)d + 2, s, 8, SUM, ACL_INT32, NULL,
				  NULL), ACL_ERROR_RT_PARAM_INVALID);
	t_acl_msg_has("aligned");
	T_ACL_EQ(aclrtReduceAsync(d, host, 64, SUM, ACL_INT32, NULL, NULL),
		 ACL_ERROR_RT_PARAM_INVALID);
	t_acl_msg_has("src=");
	T_ACL_EQ(aclrtReduceAsync(h, s, 64, SUM, ACL_INT32, NULL, NULL),
		 ACL_ERROR_RT_PARAM_INVALID);
	t_acl_msg_has("not device memory");
	T_ACL_EQ(aclrtReduceAsync(NULL, s, 64, SUM, ACL_INT32, NULL, NULL),
		 ACL_ERROR_INVALID_PARAM);
	T_ACL_EQ(aclrtReduceAsync(d, s, 64, ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL,
				  ACL_INT32, NULL, NULL),
		 ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	t_acl_msg_has("EQUAL");
	T_ACL_EQ(aclrtReduceAsync(d, s, 64, (aclrtReduceKind)9, ACL_INT32, NULL,
				  NULL), ACL_ERROR_INVALID_PARAM);
	T_ACL_EQ(aclrtReduceAsync(d, s, 64, SUM, ACL_INT64, NULL, NULL),
		 ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	t_acl_msg_has("type=9");
	T_ACL_OK(aclrtReduceAsync(d, s, 0, SUM, ACL_INT32, NULL, NULL));
	/*
	 * Past the end of the allocations (whatever rounding they got): the
	 * driver fails it, and nothing is combined.
	 */
	T_ACL_OK(aclrtReduceAsync(d, s, 64 << 20, SUM, ACL_INT32, NULL, NULL));
	T_ACL_EQ(aclrtSynchronizeStream(NULL), ACL_ERROR_RT_PARAM_INVALID);
	if (other >= 0) {
		T_ACL_OK(aclrtSetDevice(other));
		T_ACL_OK(aclrtMalloc(&o, 64, ACL_MEM_MALLOC_HUGE_FIRST));
		T_ACL_OK(aclrtSetDevice(dev));
		T_ACL_EQ(aclrtReduceAsync(d, o, 64, SUM, ACL_INT32, NULL, NULL),
			 ACL_ERROR_RT_PARAM_INVALID);
		t_acl_msg_has("not device");
	}
	T_ACL_OK(aclrtFree(d));
	T_ACL_OK(aclrtFree(s));
	T_ACL_OK(aclrtFreeHost(h));
	T_ACL_OK(aclrtResetDevice(dev));
	if (o) {
		T_ACL_OK(aclrtSetDevice(other));
		T_ACL_OK(aclrtFree(o));
		T_ACL_OK(aclrtResetDevice(other));
	}
}
END_TEST

/* An edu NPU's engine only copies: 207000, nothing queued. */
START_TEST(test_reduce_edu)
{
	int dev = t_acl_find("edu");
	void *d, *s;

	if (dev < 0) {
		t_skip("no edu NPU");
		return;
	}
	T_ACL_OK(aclrtSetDevice(dev));
	T_ACL_OK(aclrtMalloc(&d, 64, ACL_MEM_MALLOC_HUGE_FIRST));
	T_ACL_OK(aclrtMalloc(&s, 64, ACL_MEM_MALLOC_HUGE_FIRST));
	T_ACL_EQ(aclrtReduceAsync(d, s, 64, SUM, ACL_FLOAT, NULL, NULL),
		 ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	t_acl_msg_has("cannot reduce");
	T_ACL_OK(aclrtSynchronizeStream(NULL));
	T_ACL_OK(aclrtFree(d));
	T_ACL_OK(aclrtFree(s));
	T_ACL_OK(aclrtResetDevice(dev));
}
END_TEST

/* Captured into a graph, each replay combines again. */
START_TEST(test_reduce_graph)
{
	int32_t one[4] = { 1, 2, 3, 4 }, back[4];
	aclmdlRI ri;
	aclrtStream st;
	int dev = t_sim(0), k;
	void *d, *s;

	if (dev < 0)
		return;
	T_ACL_OK(aclrtSetDevice(dev));
	T_ACL_OK(aclrtCreateStream(&st));
	T_ACL_OK(aclrtMalloc(&d, 64, ACL_MEM_MALLOC_HUGE_FIRST));
	T_ACL_OK(aclrtMalloc(&s, 64, ACL_MEM_MALLOC_HUGE_FIRST));
	T_ACL_OK(aclrtMemset(d, 64, 0, 64));
	T_ACL_OK(aclrtMemcpy(s, sizeof(one), one, sizeof(one), H2D));
	T_ACL_OK(aclmdlRICaptureBegin(st, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL));
	T_ACL_OK(aclrtReduceAsync(d, s, sizeof(one), SUM, ACL_INT32, st, NULL));
	T_ACL_OK(aclmdlRICaptureEnd(st, &ri));
	for (k = 0; k < 3; k++)
		T_ACL_OK(aclmdlRIExecuteAsync(ri, st));
	T_ACL_OK(aclrtSynchronizeStream(st));
	T_ACL_OK(aclrtMemcpy(back, sizeof(back), d, sizeof(back), D2H));
	for (k = 0; k < 4; k++)
		ck_assert_int_eq(back[k], 3 * one[k]);
	T_ACL_OK(aclmdlRIDestroy(ri));
	T_ACL_OK(aclrtDestroyStream(st));
	T_ACL_OK(aclrtFree(d));
	T_ACL_OK(aclrtFree(s));
	T_ACL_OK(aclrtResetDevice(dev));
}
END_TEST

static Suite *acl_reduce_suite(void)
{
	Suite *s = suite_create("t_acl_reduce");
	TCase *tc = tcase_create("reduce");

	tcase_set_timeout(tc, 240);
	tcase_add_loop_test(tc, test_reduce_all_kinds_types, 0, 2);
	tcase_add_test(tc, test_reduce_corners);
	tcase_add_test(tc, test_reduce_in_place);
	tcase_add_test(tc, test_reduce_refused);
	tcase_add_test(tc, test_reduce_edu);
	tcase_add_test(tc, test_reduce_graph);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return t_run_suite(acl_reduce_suite());
}
