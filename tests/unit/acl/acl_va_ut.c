// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of lib/acl_va.c: device pointers <-> device addresses.
 */
#include <check.h>

#include "acl_internal.h"
#include "t_check.h"

static const struct acl_va va = {
	.base = 0x7f0000000000UL, .size = 1UL << 30, .mem_base = 1ULL << 40,
};

START_TEST(test_acl_va_contains_bounds)
{
	const struct acl_va none = { 0 };

	ck_assert(acl_va_contains(&va, va.base));
	ck_assert(acl_va_contains(&va, va.base + va.size - 1));
	ck_assert(!acl_va_contains(&va, va.base + va.size));
	ck_assert(!acl_va_contains(&va, va.base - 1));
	ck_assert(!acl_va_contains(&none, 0));
	ck_assert(!acl_va_contains(&none, 123));
}
END_TEST

START_TEST(test_acl_va_round_trip)
{
	uint64_t a = va.mem_base + 0x123456;

	ck_assert_uint_eq(acl_va_to_dev(&va, va.base), va.mem_base);
	ck_assert_ptr_eq(acl_dev_to_va(&va, a), (void *)(va.base + 0x123456));
	ck_assert_uint_eq(acl_va_to_dev(&va, (uintptr_t)acl_dev_to_va(&va, a)), a);
}
END_TEST

/* With no device enumerated, nothing is a device pointer. */
START_TEST(test_acl_va_find_without_devices)
{
	int x = 0;

	ck_assert_ptr_null(acl_va_find(&x));
	ck_assert_ptr_null(acl_va_find((void *)va.base));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("acl_va");
	TCase *tc = tcase_create("va");

	tcase_add_test(tc, test_acl_va_contains_bounds);
	tcase_add_test(tc, test_acl_va_round_trip);
	tcase_add_test(tc, test_acl_va_find_without_devices);
	suite_add_tcase(s, tc);
	return t_run_suite(s);
}
