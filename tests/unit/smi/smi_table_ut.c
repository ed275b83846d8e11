// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of tools/smi_table.c: the boxed layout scripts and people
 * read, compared character for character.
 */
#include <check.h>
#include <stdlib.h>

#include "t_check.h"
#include "fake_smi.h"
#include "smi_table.h"

static const char *render(struct smi_table *t, struct fake_out *o)
{
	fake_out_open(o);
	ck_assert_int_eq(smi_table_print(t, o->f), 0);
	smi_table_free(t);
	return fake_out_close(o);
}

START_TEST(test_smi_table_print_pads_to_widest_cell)
{
	const char *head[2] = { "NPU", "Name" };
	const char *row[2] = { "10", "x" };
	struct smi_table t;
	struct fake_out o;

	smi_table_init(&t, 2);
	smi_table_cells(&t, head);
	smi_table_rule(&t, 1);
	smi_table_cells(&t, row);
	ck_assert_str_eq(render(&t, &o),
			 "+-----+------+\n"
			 "| NPU | Name |\n"
			 "+=====+======+\n"
			 "| 10  | x    |\n"
			 "+-----+------+\n");
	free(o.text);
}
END_TEST

START_TEST(test_smi_table_print_null_cell_is_empty)
{
	const char *row[2] = { NULL, "b" };
	struct smi_table t;
	struct fake_out o;

	smi_table_init(&t, 2);
	smi_table_cells(&t, row);
	ck_assert_str_eq(render(&t, &o),
			 "+--+---+\n"
			 "|  | b |\n"
			 "+--+---+\n");
	free(o.text);
}
END_TEST

START_TEST(test_smi_table_span_widens_last_column)
{
	const char *row[2] = { "a", "b" };
	struct smi_table t;
	struct fake_out o;

	smi_table_init(&t, 2);
	smi_table_span(&t, "npu-smi %d", 42);
	smi_table_rule(&t, 0);
	smi_table_cells(&t, row);
	ck_assert_str_eq(render(&t, &o),
			 "+---+--------+\n"
			 "| npu-smi 42 |\n"
			 "+---+--------+\n"
			 "| a | b      |\n"
			 "+---+--------+\n");
	free(o.text);
}
END_TEST

START_TEST(test_smi_table_short_span_is_padded)
{
	const char *row[2] = { "abcd", "efgh" };
	struct smi_table t;
	struct fake_out o;

	smi_table_init(&t, 2);
	smi_table_cells(&t, row);
	smi_table_span(&t, "x");
	ck_assert_str_eq(render(&t, &o),
			 "+------+------+\n"
			 "| abcd | efgh |\n"
			 "| x           |\n"
			 "+------+------+\n");
	free(o.text);
}
END_TEST

START_TEST(test_smi_table_no_double_rule_at_end)
{
	const char *row[1] = { "a" };
	struct smi_table t;
	struct fake_out o;

	smi_table_init(&t, 1);
	smi_table_cells(&t, row);
	smi_table_rule(&t, 0);
	ck_assert_str_eq(render(&t, &o),
			 "+---+\n"
			 "| a |\n"
			 "+---+\n");
	free(o.text);
}
END_TEST

START_TEST(test_smi_table_utf8_counts_code_points)
{
	const char *row[2] = { "\xc3\xa9t\xc3\xa9", "x" };
	struct smi_table t;
	struct fake_out o;

	ck_assert_int_eq(smi_text_width("\xc3\xa9t\xc3\xa9"), 3);
	ck_assert_int_eq(smi_text_width(""), 0);
	smi_table_init(&t, 2);
	smi_table_cells(&t, row);
	ck_assert_str_eq(render(&t, &o),
			 "+-----+---+\n"
			 "| \xc3\xa9t\xc3\xa9 | x |\n"
			 "+-----+---+\n");
	free(o.text);
}
END_TEST

static Suite *smi_table_suite(void)
{
	Suite *s = suite_create("smi_table");
	TCase *tc = tcase_create("smi_table_print");

	tcase_add_test(tc, test_smi_table_print_pads_to_widest_cell);
	tcase_add_test(tc, test_smi_table_print_null_cell_is_empty);
	tcase_add_test(tc, test_smi_table_span_widens_last_column);
	tcase_add_test(tc, test_smi_table_short_span_is_padded);
	tcase_add_test(tc, test_smi_table_no_double_rule_at_end);
	tcase_add_test(tc, test_smi_table_utf8_counts_code_points);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return t_run_suite(smi_table_suite());
}
