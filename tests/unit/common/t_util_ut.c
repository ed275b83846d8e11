// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of tests/common/t_util.c, the helpers the VM tests rely on:
 * if these are wrong, a VM test could pass for the wrong reason.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "t_check.h"
#include "t_util.h"

static char tmpdir[] = "/tmp/t_util_ut.XXXXXX";

static void setup(void)
{
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
	ck_assert_int_eq(system(cmd), 0);
}

static void write_file(const char *name, const char *text)
{
	char path[256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

START_TEST(test_t_read_attr_strips_one_newline)
{
	char buf[64];

	write_file("a", "sim\n");
	ck_assert_int_eq(t_read_attr(buf, sizeof(buf), "%s/a", tmpdir), 0);
	ck_assert_str_eq(buf, "sim");

	write_file("b", "x\n\n");
	ck_assert_int_eq(t_read_attr(buf, sizeof(buf), "%s/b", tmpdir), 0);
	ck_assert_str_eq(buf, "x\n");
}
END_TEST

START_TEST(test_t_read_attr_truncates_to_buffer)
{
	char buf[4];

	write_file("long", "abcdefgh");
	ck_assert_int_eq(t_read_attr(buf, sizeof(buf), "%s/long", tmpdir), 0);
	ck_assert_str_eq(buf, "abc");
}
END_TEST

START_TEST(test_t_read_attr_missing_file)
{
	char buf[8];

	ck_assert_int_eq(t_read_attr(buf, sizeof(buf), "%s/none", tmpdir),
			 -ENOENT);
	ck_assert_int_eq(t_read_file("x", buf, 0), -EINVAL);
}
END_TEST

START_TEST(test_t_write_file_replaces_content)
{
	char path[512], buf[16];

	write_file("w", "old content");
	snprintf(path, sizeof(path), "%s/w", tmpdir);
	ck_assert_int_eq(t_write_file(path, "new"), 0);
	ck_assert_int_eq(t_read_file(path, buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "new");
	snprintf(path, sizeof(path), "%s/none", tmpdir);
	ck_assert_int_eq(t_write_file(path, "x"), -ENOENT);
}
END_TEST

START_TEST(test_t_parse_u64_accepts_decimal_only)
{
	uint64_t v = 7;

	ck_assert_int_eq(t_parse_u64("17179869184", &v), 0);
	ck_assert_uint_eq(v, 17179869184ull);
	ck_assert_int_eq(t_parse_u64("18446744073709551615", &v), 0);
	ck_assert_uint_eq(v, UINT64_MAX);
	v = 7;
	ck_assert_int_eq(t_parse_u64("", &v), -EINVAL);
	ck_assert_int_eq(t_parse_u64("-1", &v), -EINVAL);
	ck_assert_int_eq(t_parse_u64("12x", &v), -EINVAL);
	ck_assert_int_eq(t_parse_u64(" 1", &v), -EINVAL);
	ck_assert_int_eq(t_parse_u64("18446744073709551616", &v), -EINVAL);
	ck_assert_int_eq(t_parse_u64(NULL, &v), -EINVAL);
	ck_assert_uint_eq(v, 7);
}
END_TEST

START_TEST(test_t_exists)
{
	write_file("here", "");
	ck_assert_int_eq(t_exists("%s/here", tmpdir), 1);
	ck_assert_int_eq(t_exists("%s/not-here", tmpdir), 0);
}
END_TEST

START_TEST(test_t_log_after_uses_last_marker_line)
{
	const char *log = "a\nmark-1 x\nb\nmark-1 y\nc\nd\n";

	ck_assert_str_eq(t_log_after(log, "mark-1"), "c\nd\n");
	ck_assert_ptr_null(t_log_after(log, "mark-2"));
	ck_assert_str_eq(t_log_after("x mark", "mark"), "");
}
END_TEST

START_TEST(test_t_pattern_roundtrip_and_detects_change)
{
	size_t len = 4099, i;
	uint8_t *a = malloc(len), *b = malloc(len);

	t_pattern_fill(a, len, 1);
	t_pattern_fill(b, len, 2);
	ck_assert_uint_eq(t_pattern_check(a, len, 1), len);
	ck_assert_uint_lt(t_pattern_check(b, len, 1), len);
	for (i = 0; i < len; i += 997) {
		a[i] ^= 0x01;
		ck_assert_uint_eq(t_pattern_check(a, len, 1), i);
		a[i] ^= 0x01;
	}
	/* A shifted copy must not match: the pattern depends on position. */
	ck_assert_uint_lt(t_pattern_check(a + 1, len - 1, 1), len - 1);
	free(a);
	free(b);
}
END_TEST

static Suite *t_util_suite(void)
{
	Suite *s = suite_create("t_util");
	TCase *tc = tcase_create("t_util");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_t_read_attr_strips_one_newline);
	tcase_add_test(tc, test_t_read_attr_truncates_to_buffer);
	tcase_add_test(tc, test_t_read_attr_missing_file);
	tcase_add_test(tc, test_t_write_file_replaces_content);
	tcase_add_test(tc, test_t_parse_u64_accepts_decimal_only);
	tcase_add_test(tc, test_t_exists);
	tcase_add_test(tc, test_t_log_after_uses_last_marker_line);
	tcase_add_test(tc, test_t_pattern_roundtrip_and_detects_change);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return t_run_suite(t_util_suite());
}
