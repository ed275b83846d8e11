// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of lib/acl_init.c: ASCEND_RT_VISIBLE_DEVICES parsing and
 * the aclInit/aclFinalize reference counting (no NPU needed).
 */
#include <check.h>
#include <stdio.h>
#include <unistd.h>

#include "acl_internal.h"
#include "t_check.h"

static const bool present[4] = { true, true, false, true };

static int parse(const char *env, int *phys)
{
	return acl_parse_visible(env, present, 4, phys, ACL_MAX_DEVICES);
}

START_TEST(test_acl_parse_visible_maps_in_order)
{
	int phys[ACL_MAX_DEVICES];

	ck_assert_int_eq(parse("3,0", phys), 2);
	ck_assert_int_eq(phys[0], 3);
	ck_assert_int_eq(phys[1], 0);
	ck_assert_int_eq(parse(" 1 , 3 ", phys), 2);
	ck_assert_int_eq(phys[1], 3);
}
END_TEST

START_TEST(test_acl_parse_visible_stops_at_bad_entry)
{
	int phys[ACL_MAX_DEVICES];

	ck_assert_int_eq(parse("0,2,1", phys), 1);	/* 2 is absent */
	ck_assert_int_eq(parse("1,1,0", phys), 1);	/* repeated */
	ck_assert_int_eq(parse("0,x,1", phys), 1);
	ck_assert_int_eq(parse("9", phys), 0);
	ck_assert_int_eq(parse("", phys), 0);
	ck_assert_int_eq(parse("-1", phys), 0);
	ck_assert_int_eq(parse("0;1", phys), 1);
}
END_TEST

START_TEST(test_aclInit_refcount)
{
	uint64_t refs = 99;
	int i;

	for (i = 0; i < 3; i++) {
		ck_assert_int_eq(aclInit(NULL), ACL_SUCCESS);
		ck_assert_int_eq(aclInit(NULL), ACL_ERROR_REPEAT_INITIALIZE);
		ck_assert_int_eq(aclFinalizeReference(&refs), ACL_SUCCESS);
		ck_assert_uint_eq(refs, 1);
		ck_assert_int_eq(aclFinalize(), ACL_SUCCESS);
		ck_assert_int_eq(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE);
		ck_assert_int_eq(aclFinalizeReference(&refs),
				 ACL_ERROR_REPEAT_FINALIZE);
	}
}
END_TEST

START_TEST(test_aclInit_config_file)
{
	char path[] = "/tmp/acl_init_ut.XXXXXX";
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");

	fputs("{\"dump\": {\"a\": [1, 2]}}", f);
	fclose(f);
	ck_assert_int_eq(aclInit(path), ACL_SUCCESS);
	ck_assert_int_eq(aclFinalize(), ACL_SUCCESS);
	f = fopen(path, "w");
	fputs("{{{{{{{{{{{}}}}}}}}}}}", f);	/* depth 11 */
	fclose(f);
	ck_assert_int_eq(aclInit(path), ACL_ERROR_PARSE_FILE);
	f = fopen(path, "w");
	fputs("{\"a\": 1", f);
	fclose(f);
	ck_assert_int_eq(aclInit(path), ACL_ERROR_PARSE_FILE);
	unlink(path);
	ck_assert_int_eq(aclInit(path), ACL_ERROR_INVALID_FILE);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("acl_init");
	TCase *tc = tcase_create("init");

	tcase_add_test(tc, test_acl_parse_visible_maps_in_order);
	tcase_add_test(tc, test_acl_parse_visible_stops_at_bad_entry);
	tcase_add_test(tc, test_aclInit_refcount);
	tcase_add_test(tc, test_aclInit_config_file);
	suite_add_tcase(s, tc);
	return t_run_suite(s);
}
