// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of lib/acl_host.c's region table: sorted, non-overlapping,
 * found by any byte.
 */
#include <check.h>
#include <errno.h>

#include "acl_internal.h"
#include "t_check.h"

static struct acl_host_region reg(uintptr_t addr, uint64_t size)
{
	struct acl_host_region r = {
		.addr = addr, .size = size, .kind = ACL_HOST_REGISTERED,
	};

	return r;
}

START_TEST(test_acl_host_insert_find)
{
	struct acl_host_table t = { 0 };
	struct acl_host_region r;
	uintptr_t a;

	/* Out of order, enough to grow the array. */
	for (a = 100; a > 0; a--) {
		r = reg(a * 0x10000, 0x1000);
		ck_assert_int_eq(acl_host_insert(&t, &r), 0);
	}
	ck_assert_uint_eq(t.n, 100);
	for (a = 1; a < t.n; a++)
		ck_assert_uint_lt(t.r[a - 1].addr, t.r[a].addr);
	ck_assert_int_eq(acl_host_find(&t, 0x50000), 4);
	ck_assert_int_eq(acl_host_find(&t, 0x50fff), 4);
	ck_assert_int_eq(acl_host_find(&t, 0x51000), -1);
	ck_assert_int_eq(acl_host_find(&t, 0xffff), -1);
	ck_assert_int_eq(acl_host_find(&t, 0x10000000), -1);
	acl_host_remove(&t, 4);
	ck_assert_int_eq(acl_host_find(&t, 0x50000), -1);
	ck_assert_int_eq(acl_host_find(&t, 0x60000), 4);
	acl_host_table_free(&t);
	ck_assert_uint_eq(t.n, 0);
}
END_TEST

START_TEST(test_acl_host_insert_rejects_overlap)
{
	struct acl_host_table t = { 0 };
	struct acl_host_region r = reg(0x10000, 0x2000);

	ck_assert_int_eq(acl_host_insert(&t, &r), 0);
	r = reg(0x11fff, 1);
	ck_assert_int_eq(acl_host_insert(&t, &r), -EINVAL);
	r = reg(0xf000, 0x1001);
	ck_assert_int_eq(acl_host_insert(&t, &r), -EINVAL);
	r = reg(0xf000, 0x1000);
	ck_assert_int_eq(acl_host_insert(&t, &r), 0);
	r = reg(0x12000, 0);
	ck_assert_int_eq(acl_host_insert(&t, &r), -EINVAL);
	r = reg(UINTPTR_MAX - 10, 100);
	ck_assert_int_eq(acl_host_insert(&t, &r), -EINVAL);
	ck_assert_int_eq(acl_host_overlap(&t, 0x11000, 0x5000), 1);
	ck_assert_int_eq(acl_host_overlap(&t, 0x12000, 0x5000), -1);
	acl_host_table_free(&t);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("acl_host");
	TCase *tc = tcase_create("host");

	tcase_add_test(tc, test_acl_host_insert_find);
	tcase_add_test(tc, test_acl_host_insert_rejects_overlap);
	suite_add_tcase(s, tc);
	return t_run_suite(s);
}
