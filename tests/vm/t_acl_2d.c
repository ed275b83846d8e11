// SPDX-License-Identifier: GPL-2.0-only
/*
 * libacl in the guest: aclrtMemcpy2d(Async), on an edu and a sim NPU
 * (loop index 0 = edu, 1 = sim). Every shape goes host -> device ->
 * host and device -> device through sub-regions of larger matrices, by
 * the synchronous call (pinned host memory) and the asynchronous one
 * (pageable host memory, and DEFAULT kinds), and the whole matrices are
 * compared byte for byte with what the CPU computes: rows in place and
 * every byte between them untouched.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "t_acl.h"

#define H2D ACL_MEMCPY_HOST_TO_DEVICE
#define D2H ACL_MEMCPY_DEVICE_TO_HOST
#define D2D ACL_MEMCPY_DEVICE_TO_DEVICE

/* @h rows of @w bytes; source rows @sp apart from @so, dst @dp from @do. */
struct shape {
	size_t w, h, sp, dp, so, dof;
};

static size_t extent(size_t w, size_t h, size_t pitch, size_t off)
{
	return off + (h - 1) * pitch + w;
}

static void fill_random(uint8_t *p, size_t len, unsigned int seed)
{
	size_t i;

	for (i = 0; i < len; i++)
		p[i] = (uint8_t)rand_r(&seed);
}

/* What a 2-D copy must leave in @dst (the CPU's answer). */
static void ref_2d(uint8_t *dst, size_t dp, const uint8_t *src, size_t sp,
		   size_t w, size_t h)
{
	size_t r;

	for (r = 0; r < h; r++)
		memcpy(dst + r * dp, src + r * sp, w);
}

/* Device buffer @d (@len bytes) equals @want. */
static void dev_equals(const void *d, const uint8_t *want, size_t len,
		       const char *what, const struct shape *s)
{
	uint8_t *back = malloc(len);

	ck_assert_ptr_nonnull(back);
	T_ACL_OK(aclrtMemcpy(back, len, d, len, D2H));
	ck_assert_msg(!memcmp(back, want, len),
		      "%s: w=%zu h=%zu sp=%zu dp=%zu differs", what, s->w,
		      s->h, s->sp, s->dp);
	free(back);
}

/*
 * One shape, every path: sync H2D (pinned), sync D2H (pinned), async H2D
 * (pageable, DEFAULT), async D2D, async D2H (pageable).
 */
static void run_shape(const struct shape *s, unsigned int seed,
		      aclrtStream st)
{
	size_t slen = extent(s->w, s->h, s->sp, s->so);
	size_t dlen = extent(s->w, s->h, s->dp, s->dof);
	uint8_t *src, *pg = malloc(slen), *e1 = malloc(dlen), *e2 = malloc(slen);
	uint8_t *back = malloc(slen);
	void *hs, *hb, *d1, *d2, *d3;

	ck_assert(pg && e1 && e2 && back);
	T_ACL_OK(aclrtMallocHost(&hs, slen));
	T_ACL_OK(aclrtMallocHost(&hb, slen));
	T_ACL_OK(aclrtMalloc(&d1, dlen, ACL_MEM_MALLOC_HUGE_FIRST));
	T_ACL_OK(aclrtMalloc(&d2, dlen, ACL_MEM_MALLOC_HUGE_FIRST));
	T_ACL_OK(aclrtMalloc(&d3, slen, ACL_MEM_MALLOC_HUGE_FIRST));
	src = hs;
	fill_random(src, slen, seed);
	memcpy(pg, src, slen);

	/* Host -> device, synchronous, pinned source. */
	memset(e1, 0xa5, dlen);
	ref_2d(e1 + s->dof, s->dp, src + s->so, s->sp, s->w, s->h);
	T_ACL_OK(aclrtMemset(d1, dlen, 0xa5, dlen));
	T_ACL_OK(aclrtMemcpy2d((char *)d1 + s->dof, s->dp, src + s->so, s->sp,
			       s->w, s->h, H2D));
	dev_equals(d1, e1, dlen, "sync H2D", s);

	/* Device -> host, synchronous, pinned destination. */
	memset(e2, 0x3c, slen);
	ref_2d(e2 + s->so, s->sp, e1 + s->dof, s->dp, s->w, s->h);
	memset(hb, 0x3c, slen);
	T_ACL_OK(aclrtMemcpy2d((char *)hb + s->so, s->sp, (char *)d1 + s->dof,
			       s->dp, s->w, s->h, D2H));
	ck_assert_msg(!memcmp(hb, e2, slen), "sync D2H w=%zu h=%zu", s->w, s->h);

	/* Asynchronous: pageable H2D, D2D into another layout, pageable D2H. */
	T_ACL_OK(aclrtMemset(d2, dlen, 0xa5, dlen));
	T_ACL_OK(aclrtMemset(d3, slen, 0x3c, slen));
	T_ACL_OK(aclrtMemcpy2dAsync((char *)d2 + s->dof, s->dp, pg + s->so,
				    s->sp, s->w, s->h, ACL_MEMCPY_DEFAULT, st));
	T_ACL_OK(aclrtMemcpy2dAsync((char *)d3 + s->so, s->sp,
				    (char *)d2 + s->dof, s->dp, s->w, s->h, D2D,
				    st));
	memset(back, 0x3c, slen);
	T_ACL_OK(aclrtMemcpy2dAsync(back + s->so, s->sp, (char *)d3 + s->so,
				    s->sp, s->w, s->h, D2H, st));
	/* Pageable: done on return, before any synchronize. */
	ck_assert_msg(!memcmp(back, e2, slen), "async D2H w=%zu h=%zu", s->w,
		      s->h);
	T_ACL_OK(aclrtSynchronizeStream(st));
	dev_equals(d2, e1, dlen, "async H2D", s);

	T_ACL_OK(aclrtFree(d1));
	T_ACL_OK(aclrtFree(d2));
	T_ACL_OK(aclrtFree(d3));
	T_ACL_OK(aclrtFreeHost(hs));
	T_ACL_OK(aclrtFreeHost(hb));
	free(pg);
	free(e1);
	free(e2);
	free(back);
}

/* Every backend; edu moves each row as its own DMA (~0.2 s), so few rows. */
/*
 * More rows than one COPY_2D descriptor may have (1 Mi): cut in two by
 * the library, one byte per row taken from every other source byte.
 */
static void tall_copy(aclrtStream st)
{
	size_t h = 1048581, i, bad = 0;
	uint8_t *src = malloc(2 * h), *back = malloc(h);
	void *d;

	ck_assert(src && back);
	fill_random(src, 2 * h, 42);
	T_ACL_OK(aclrtMalloc(&d, h, ACL_MEM_MALLOC_HUGE_FIRST));
	T_ACL_OK(aclrtMemcpy2dAsync(d, 1, src, 2, 1, h, H2D, st));
	T_ACL_OK(aclrtMemcpy(back, h, d, h, D2H));
	for (i = 0; i < h; i++)
		bad += back[i] != src[2 * i];
	ck_assert_uint_eq(bad, 0);
	T_ACL_OK(aclrtFree(d));
	free(src);
	free(back);
}

static const struct shape fixed[] = {
	{ 16, 4, 16, 16, 0, 0 },	/* pitch == width: one run */
	{ 7, 3, 13, 9, 3, 1 },		/* odd everything */
	{ 33, 1, 33, 40, 0, 5 },	/* height 1 */
	{ 5, 4, 64, 8, 17, 0 },		/* a narrow column of a wide matrix */
};

/* Large shapes, sim only. */
static const struct shape large[] = {
	{ 3, 20000, 5, 4, 1, 0 },		/* many narrow rows */
	{ 4096, 64, 8192, 4096, 4096, 0 },	/* right half of a matrix */
	{ 1, 31, 1, 3, 0, 2 },			/* one-byte rows */
	{ 1000, 500, 1001, 1003, 7, 11 },
};

START_TEST(test_2d_shapes)
{
	unsigned int seed = 1234;
	aclrtStream st;
	size_t i;
	int dev;

	if (!t_acl_use_backend(_i, &dev))
		return;
	T_ACL_OK(aclrtCreateStream(&st));
	for (i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		run_shape(&fixed[i], (unsigned int)i, st);
	/* Random shapes: edu's stay small. */
	for (i = 0; i < (_i ? 8u : 1u); i++) {
		struct shape s;

		s.w = 1 + (size_t)rand_r(&seed) % (_i ? 2000 : 64);
		s.h = 1 + (size_t)rand_r(&seed) % (_i ? 300 : 3);
		s.sp = s.w + (size_t)rand_r(&seed) % 40;
		s.dp = s.w + (size_t)rand_r(&seed) % 40;
		s.so = (size_t)rand_r(&seed) % 16;
		s.dof = (size_t)rand_r(&seed) % 16;
		run_shape(&s, seed, st);
	}
	for (i = 0; _i && i < sizeof(large) / sizeof(large[0]); i++)
		run_shape(&large[i], 99 + (unsigned int)i, st);
	if (_i)
		tall_copy(st);
	T_ACL_OK(aclrtDestroyStream(st));
	T_ACL_OK(aclrtResetDevice(dev));
}
END_TEST

/* The errors that need a device (the others: tests/unit/acl). */
START_TEST(test_2d_errors)
{
	void *d, *d2, *h, *h2;
	char pg[64] = { 0 };
	int dev;

	if (!t_acl_use_backend(_i, &dev))
		return;
	T_ACL_OK(aclrtMalloc(&d, 4096, ACL_MEM_MALLOC_NORMAL_ONLY));
	T_ACL_OK(aclrtMalloc(&d2, 4096, ACL_MEM_MALLOC_NORMAL_ONLY));
	T_ACL_OK(aclrtMallocHost(&h, 4096));
	T_ACL_OK(aclrtMallocHost(&h2, 4096));
	/* Synchronous D2D: not supported, by kind or by the pointers. */
	T_ACL_EQ(aclrtMemcpy2d(d, 64, d2, 64, 8, 4, D2D),
		 ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	t_acl_msg_has("H2D or D2H only");
	T_ACL_EQ(aclrtMemcpy2d(d, 64, d2, 64, 8, 4, ACL_MEMCPY_DEFAULT),
		 ACL_ERROR_RT_PARAM_INVALID);
	t_acl_msg_has("ACL_MEMCPY_DEVICE_TO_DEVICE copy");
	/* Host to host: neither call. */
	T_ACL_EQ(aclrtMemcpy2d(h, 64, h2, 64, 8, 4, H2D),
		 ACL_ERROR_RT_PARAM_INVALID);
	T_ACL_EQ(aclrtMemcpy2dAsync(h, 64, h2, 64, 8, 4, ACL_MEMCPY_DEFAULT,
				    NULL), ACL_ERROR_RT_PARAM_INVALID);
	t_acl_msg_has("host-to-host");
	/* A kind the pointers cannot have (pageable -> device as D2H). */
	T_ACL_EQ(aclrtMemcpy2dAsync(d, 64, pg, 8, 8, 4, D2H, NULL),
		 ACL_ERROR_RT_PARAM_INVALID);
	t_acl_msg_has("does not fit");
	/* A pitch beyond the driver's limit. */
	T_ACL_EQ(aclrtMemcpy2dAsync(d, (size_t)8 << 30, h, 64, 8, 2, H2D, NULL),
		 ACL_ERROR_RT_PARAM_INVALID);
	t_acl_msg_has("exceeds device");
	/* Rows running past the allocation: the driver fails the copy. */
	T_ACL_OK(aclrtMemcpy2dAsync(d, 2048, h, 64, 64, 8, H2D, NULL));
	T_ACL_EQ(aclrtSynchronizeStream(NULL), ACL_ERROR_RT_PARAM_INVALID);
	T_ACL_EQ(aclrtMemcpy2d(h, 64, d, 2048, 64, 8, D2H),
		 ACL_ERROR_RT_PARAM_INVALID);
	t_acl_msg_has("failed");
	T_ACL_OK(aclrtFree(d));
	T_ACL_OK(aclrtFree(d2));
	T_ACL_OK(aclrtFreeHost(h));
	T_ACL_OK(aclrtFreeHost(h2));
	T_ACL_OK(aclrtResetDevice(dev));
	/* Memory of a reset device. */
	T_ACL_OK(aclrtSetDevice(dev));
	T_ACL_OK(aclrtResetDevice(dev));
	T_ACL_EQ(aclrtMemcpy2d(pg, 8, d, 8, 8, 2, D2H),
		 ACL_ERROR_RT_CONTEXT_NULL);
}
END_TEST

static Suite *acl_2d_suite(void)
{
	Suite *s = suite_create("t_acl_2d");
	TCase *tc = tcase_create("2d");

	tcase_set_timeout(tc, 240);
	tcase_add_loop_test(tc, test_2d_shapes, 0, 2);
	tcase_add_loop_test(tc, test_2d_errors, 0, 2);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return t_run_suite(acl_2d_suite());
}
