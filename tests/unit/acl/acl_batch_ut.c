// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of the batch copies' checks without an NPU (ACL_API.md
 * 4.10): failIndex, the acl edge (100000), the runtime's array rules
 * (107000), the synchronous 4096 cap, then the need for a context.
 */
#include <stdint.h>
#include <stdlib.h>

#include "acl_ut.h"
#include "t_check.h"

#define N 4

/* A batch of N host-to-device copies with one attribute. */
struct batch {
	void *dsts[N], *srcs[N];
	size_t max[N], sizes[N], idx[N], fail;
	aclrtMemcpyBatchAttr attrs[N];
	char buf[2][N][16];
};

static void batch_init(struct batch *b)
{
	int i;

	memset(b, 0, sizeof(*b));
	for (i = 0; i < N; i++) {
		b->dsts[i] = b->buf[0][i];
		b->srcs[i] = b->buf[1][i];
		b->max[i] = b->sizes[i] = 16;
		b->idx[i] = (size_t)i;
		b->attrs[i].srcLoc.type = ACL_MEM_LOCATION_TYPE_HOST;
		b->attrs[i].dstLoc.type = ACL_MEM_LOCATION_TYPE_DEVICE;
	}
	b->fail = 7;
}

static aclError run(struct batch *b, size_t n, size_t nattrs)
{
	return aclrtMemcpyBatch(b->dsts, b->max, b->srcs, b->sizes, n, b->attrs,
				b->idx, nattrs, &b->fail);
}

START_TEST(test_aclrtMemcpyBatch_failIndex)
{
	struct batch b;

	batch_init(&b);
	ck_assert_int_eq(aclrtMemcpyBatch(b.dsts, b.max, b.srcs, b.sizes, N,
					  b.attrs, b.idx, 1, NULL),
			 ACL_ERROR_INVALID_PARAM);
	msg_has("failIndex is NULL");
	ck_assert_int_eq(aclrtMemcpyBatchAsync(b.dsts, b.max, b.srcs, b.sizes, N,
					       b.attrs, b.idx, 1, NULL, NULL),
			 ACL_ERROR_INVALID_PARAM);
	/* Set to SIZE_MAX on entry, and kept for errors not of one copy. */
	ck_assert_int_eq(run(&b, N, 0), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_uint_eq(b.fail, SIZE_MAX);
}
END_TEST

START_TEST(test_aclrtMemcpyBatch_edge_checks)
{
	struct batch b;

	batch_init(&b);
	ck_assert_int_eq(aclrtMemcpyBatch(b.dsts, b.max, b.srcs, NULL, N,
					  b.attrs, b.idx, 1, &b.fail),
			 ACL_ERROR_INVALID_PARAM);
	msg_has("need sizes and a count");
	ck_assert_int_eq(run(&b, 0, 1), ACL_ERROR_INVALID_PARAM);
	msg_has("numBatches=0");
	/* Each array NULL on its own. */
	ck_assert_int_eq(aclrtMemcpyBatch(NULL, b.max, b.srcs, b.sizes, N,
					  b.attrs, b.idx, 1, &b.fail),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemcpyBatch(b.dsts, NULL, b.srcs, b.sizes, N,
					  b.attrs, b.idx, 1, &b.fail),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemcpyBatch(b.dsts, b.max, b.srcs, b.sizes, N,
					  NULL, b.idx, 1, &b.fail),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtMemcpyBatch(b.dsts, b.max, b.srcs, b.sizes, N,
					  b.attrs, NULL, 1, &b.fail),
			 ACL_ERROR_INVALID_PARAM);
	/* All sizes 0: success, failIndex SIZE_MAX, nothing else looked at. */
	memset(b.sizes, 0, sizeof(b.sizes));
	b.fail = 7;
	ck_assert_int_eq(aclrtMemcpyBatch(NULL, NULL, NULL, b.sizes, N, NULL,
					  NULL, 0, &b.fail), ACL_SUCCESS);
	ck_assert_uint_eq(b.fail, SIZE_MAX);
	ck_assert_int_eq(aclrtMemcpyBatchV2(NULL, NULL, NULL, b.sizes, N, NULL,
					    NULL, 0), ACL_SUCCESS);
	batch_init(&b);
	ck_assert_int_eq(aclrtMemcpyBatchAsyncV2(b.dsts, b.max, NULL, b.sizes,
						 N, b.attrs, b.idx, 1, NULL),
			 ACL_ERROR_INVALID_PARAM);
	msg_has("none may be NULL");
	b.max[2] = 15;
	ck_assert_int_eq(run(&b, N, 1), ACL_ERROR_INVALID_PARAM);
	msg_has("sizes[2]=16 does not fit destMaxs[2]=15");
	ck_assert_uint_eq(b.fail, SIZE_MAX);
	batch_init(&b);
	b.attrs[1].rsv[3] = 1;
	ck_assert_int_eq(run(&b, N, 2), ACL_ERROR_INVALID_PARAM);
	msg_has("attrs[1].rsv[3]=1");
}
END_TEST

START_TEST(test_aclrtMemcpyBatch_attr_indexes)
{
	struct batch b;

	batch_init(&b);
	ck_assert_int_eq(run(&b, N, 0), ACL_ERROR_RT_PARAM_INVALID);
	msg_has("numAttrs=0 must be 1..numBatches=4");
	ck_assert_int_eq(run(&b, 2, 3), ACL_ERROR_RT_PARAM_INVALID);
	b.idx[0] = 1;
	ck_assert_int_eq(run(&b, N, 2), ACL_ERROR_RT_PARAM_INVALID);
	msg_has("attrsIndexes[0]=1 must be 0");
	b.idx[0] = 0;
	b.idx[2] = 1;
	ck_assert_int_eq(run(&b, N, 3), ACL_ERROR_RT_PARAM_INVALID);
	msg_has("attrsIndexes[2]=1 must exceed attrsIndexes[1]=1");
	b.idx[2] = 4;
	ck_assert_int_eq(run(&b, N, 3), ACL_ERROR_RT_PARAM_INVALID);
	msg_has("below numBatches=4");
	b.idx[2] = 2;
	ck_assert_int_eq(run(&b, N, 3), ACL_ERROR_RT_CONTEXT_NULL);
	ck_assert_int_eq(aclrtMemcpyBatchAsync(b.dsts, b.max, b.srcs, b.sizes, N,
					       b.attrs, b.idx, N, &b.fail, NULL),
			 ACL_ERROR_RT_CONTEXT_NULL);
	ck_assert_uint_eq(b.fail, SIZE_MAX);
}
END_TEST

/* More than 4096 copies: refused synchronously, not asynchronously. */
START_TEST(test_aclrtMemcpyBatch_sync_cap)
{
	size_t n = 4097, i, idx = 0, *sizes = calloc(n, sizeof(*sizes));
	void **p = calloc(n, sizeof(*p));
	aclrtMemcpyBatchAttr attr;
	char byte;

	ck_assert_ptr_nonnull(sizes);
	ck_assert_ptr_nonnull(p);
	memset(&attr, 0, sizeof(attr));
	for (i = 0; i < n; i++) {
		sizes[i] = 1;
		p[i] = &byte;
	}
	ck_assert_int_eq(aclrtMemcpyBatchV2(p, sizes, p, sizes, n, &attr, &idx,
					    1), ACL_ERROR_RT_PARAM_INVALID);
	msg_has("numBatches=4097 exceeds 4096");
	ck_assert_int_eq(aclrtMemcpyBatchV2(p, sizes, p, sizes, n - 1, &attr,
					    &idx, 1), ACL_ERROR_RT_CONTEXT_NULL);
	ck_assert_int_eq(aclrtMemcpyBatchAsyncV2(p, sizes, p, sizes, n, &attr,
						 &idx, 1, NULL),
			 ACL_ERROR_RT_CONTEXT_NULL);
	free(sizes);
	free(p);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("acl_batch");
	TCase *tc = tcase_create("edge");

	tcase_add_test(tc, test_aclrtMemcpyBatch_failIndex);
	tcase_add_test(tc, test_aclrtMemcpyBatch_edge_checks);
	tcase_add_test(tc, test_aclrtMemcpyBatch_attr_indexes);
	tcase_add_test(tc, test_aclrtMemcpyBatch_sync_cap);
	suite_add_tcase(s, tc);
	return t_run_suite(s);
}
