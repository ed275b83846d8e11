// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of lib/acl_kind.c: CANN's copy-kind rules (ACL_API.md 5.1)
 * and the splitting of long transfers into descriptors.
 */
#include <check.h>

#include "acl_internal.h"
#include "t_check.h"

#define H ACL_LOC_HOST
#define D ACL_LOC_DEVICE
#define U ACL_LOC_UNREG
#define BAD -1

/* Expected kind for [src][dst][kind 0..4], BAD = 107000. */
static const int expect[3][3][5] = {
	/*            H2H  H2D  D2H  D2D  DEFAULT */
	[H][H] = {    0,   0,   0,   0,   0 },
	[H][D] = {    1,   1,   1,   1,   1 },
	[H][U] = {    0,   1, BAD, BAD,   0 },
	[D][H] = {    2,   2,   2,   2,   2 },
	[D][D] = {    3,   3,   3,   3,   3 },
	[D][U] = {  BAD, BAD,   2,   3,   2 },
	[U][H] = {    0, BAD,   2, BAD,   0 },
	[U][D] = {  BAD,   1, BAD,   3,   1 },
	[U][U] = {    0,   1,   2,   3,   0 },
};

START_TEST(test_acl_resolve_kind_table)
{
	int s, d, k;

	for (s = 0; s < 3; s++)
		for (d = 0; d < 3; d++)
			for (k = 0; k < 5; k++) {
				aclrtMemcpyKind out = (aclrtMemcpyKind)99;
				aclError r = acl_resolve_kind(s, d, k, &out);

				if (expect[s][d][k] == BAD) {
					ck_assert_msg(r == ACL_ERROR_RT_PARAM_INVALID,
						      "src %d dst %d kind %d: %d",
						      s, d, k, r);
				} else {
					ck_assert_int_eq(r, ACL_SUCCESS);
					ck_assert_int_eq(out, expect[s][d][k]);
				}
			}
}
END_TEST

START_TEST(test_acl_resolve_kind_rejects_out_of_range)
{
	aclrtMemcpyKind out;

	ck_assert_int_eq(acl_resolve_kind(H, D, ACL_MEMCPY_INNER_DEVICE_TO_DEVICE,
					  &out), ACL_ERROR_RT_PARAM_INVALID);
	ck_assert_int_eq(acl_resolve_kind(3, D, 0, &out),
			 ACL_ERROR_RT_PARAM_INVALID);
}
END_TEST

START_TEST(test_acl_kind_name)
{
	ck_assert_str_eq(acl_kind_name(4), "ACL_MEMCPY_DEFAULT");
	ck_assert_str_eq(acl_kind_name(7), "ACL_MEMCPY_INTER_DEVICE_TO_DEVICE");
	ck_assert_str_eq(acl_kind_name(8), "unknown kind");
	ck_assert_str_eq(acl_kind_name(-1), "unknown kind");
}
END_TEST

START_TEST(test_acl_build_descs_splits_copies)
{
	struct npu_dma_desc d[4], t = {
		.opcode = NPU_DMA_OP_COPY, .flags = NPU_DMA_DESC_F_SRC_HOST,
		.src = 1000, .dst = 5000,
	};
	size_t n = acl_build_descs(d, 4, &t, 250, 100);

	ck_assert_uint_eq(n, 3);
	ck_assert_uint_eq(d[0].len, 100);
	ck_assert_uint_eq(d[2].len, 50);
	ck_assert_uint_eq(d[1].src, 1100);
	ck_assert_uint_eq(d[2].dst, 5200);
	ck_assert_uint_eq(d[2].flags, NPU_DMA_DESC_F_SRC_HOST);
	ck_assert_uint_eq(d[2].opcode, NPU_DMA_OP_COPY);
	/* Capacity limits what is built; the caller continues. */
	ck_assert_uint_eq(acl_build_descs(d, 2, &t, 1000, 100), 2);
	ck_assert_uint_eq(acl_build_descs(d, 4, &t, 0, 100), 0);
}
END_TEST

START_TEST(test_acl_build_descs_fill_keeps_src)
{
	struct npu_dma_desc d[2], t = {
		.opcode = NPU_DMA_OP_FILL, .fill_size = 1, .dst = 64, .value = 7,
	};

	ck_assert_uint_eq(acl_build_descs(d, 2, &t, 30, 16), 2);
	ck_assert_uint_eq(d[1].src, 0);
	ck_assert_uint_eq(d[1].dst, 80);
	ck_assert_uint_eq(d[1].len, 14);
	ck_assert_uint_eq(d[1].value, 7);
	ck_assert_uint_eq(d[1].fill_size, 1);
}
END_TEST

/* A reduction is cut as a copy: both sides advance, operation kept. */
START_TEST(test_acl_build_descs_reduce_advances_both)
{
	struct npu_dma_desc d[3], t = {
		.opcode = NPU_DMA_OP_REDUCE, .src = 4096, .dst = 8192,
		.value = NPU_DMA_REDUCE_VALUE(NPU_DMA_REDUCE_OP_MAX,
					      NPU_DMA_REDUCE_T_F32),
	};

	ck_assert_uint_eq(acl_build_descs(d, 3, &t, 40, 16), 3);
	ck_assert_uint_eq(d[1].src, 4096 + 16);
	ck_assert_uint_eq(d[2].dst, 8192 + 32);
	ck_assert_uint_eq(d[2].len, 8);
	ck_assert_uint_eq(d[2].value, t.value);
	ck_assert_uint_eq(d[2].opcode, NPU_DMA_OP_REDUCE);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("acl_kind");
	TCase *tc = tcase_create("kind");

	tcase_add_test(tc, test_acl_resolve_kind_table);
	tcase_add_test(tc, test_acl_resolve_kind_rejects_out_of_range);
	tcase_add_test(tc, test_acl_kind_name);
	tcase_add_test(tc, test_acl_build_descs_splits_copies);
	tcase_add_test(tc, test_acl_build_descs_fill_keeps_src);
	tcase_add_test(tc, test_acl_build_descs_reduce_advances_both);
	suite_add_tcase(s, tc);
	return t_run_suite(s);
}
