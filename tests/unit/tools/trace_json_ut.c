// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of tools/trace_json.c: compact nesting with commas, one
 * element a line down to the chosen depth, numbers, nulls for NaN.
 */
#include <math.h>

#include "t_check.h"
#include "fake_trace.h"
#include "trace_json.h"

START_TEST(test_tj_nesting_and_lines)
{
	struct fake_out o;
	struct tj j;

	fake_out_open(&o);
	tj_init(&j, o.f, 1);
	tj_object(&j, NULL);
	tj_str(&j, "s", "a\"b");
	tj_array(&j, "a");
	tj_int(&j, NULL, -1);
	tj_uint(&j, NULL, 18446744073709551615ULL);
	tj_object(&j, NULL);
	tj_end(&j);
	tj_end(&j);
	tj_str(&j, "n", NULL);
	tj_end(&j);
	fake_out_close(&o);
	ck_assert_str_eq(o.text, "{\n\"s\":\"a\\\"b\",\n\"a\":[-1,18446744073709551615,{}],\n"
			 "\"n\":null\n}\n");
	fake_assert_json(o.text);
	free(o.text);
}
END_TEST

START_TEST(test_tj_double)
{
	struct fake_out o;
	struct tj j;

	fake_out_open(&o);
	tj_init(&j, o.f, 0);
	tj_array(&j, NULL);
	tj_double(&j, NULL, 1.5);
	tj_double(&j, NULL, 100);
	tj_double(&j, NULL, 0.00002);
	tj_double(&j, NULL, -0.0);
	tj_double(&j, NULL, NAN);
	tj_double(&j, NULL, INFINITY);
	tj_double(&j, NULL, 12345678.123456);
	tj_end(&j);
	fake_out_close(&o);
	ck_assert_str_eq(o.text, "[1.5,100,2e-05,0,null,null,12345678.1235]\n");
	fake_assert_json(o.text);
	free(o.text);
}
END_TEST

/* python3 judges JSON and XML: slow to start on a loaded machine. */
static Suite *suite(void)
{
	Suite *s = suite_create("trace_json");
	TCase *tc = tcase_create("tj");

	tcase_add_test(tc, test_tj_nesting_and_lines);
	tcase_add_test(tc, test_tj_double);
	tcase_set_timeout(tc, 120);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return t_run_suite(suite());
}
