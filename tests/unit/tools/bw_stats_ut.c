// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of tools/bw_stats.c: median, min and max of the iterations
 * (the input is not reordered), and GB/s.
 */
#include "t_check.h"
#include "bw.h"

START_TEST(test_bw_stats_odd_count)
{
	double v[] = { 5, 1, 4, 2, 3 };
	struct bw_stats st;

	bw_stats(v, 5, &st);
	ck_assert_double_eq(st.median, 3);
	ck_assert_double_eq(st.min, 1);
	ck_assert_double_eq(st.max, 5);
	ck_assert_double_eq(v[0], 5);	/* the caller's order is kept */
}
END_TEST

START_TEST(test_bw_stats_even_count_means_middle_two)
{
	double v[] = { 4, 1, 3, 2 };
	struct bw_stats st;

	bw_stats(v, 4, &st);
	ck_assert_double_eq(st.median, 2.5);
	bw_stats(v, 1, &st);
	ck_assert_double_eq(st.median, 4);
	ck_assert_double_eq(st.min, 4);
}
END_TEST

START_TEST(test_bw_stats_many_samples)
{
	double v[101];
	struct bw_stats st;
	int i;

	for (i = 0; i < 101; i++)
		v[i] = 100 - i;
	bw_stats(v, 101, &st);
	ck_assert_double_eq(st.median, 50);
	ck_assert_double_eq(st.max, 100);
}
END_TEST

START_TEST(test_bw_gbps)
{
	ck_assert_double_eq_tol(bw_gbps(1000000000, 1.0), 1.0, 1e-12);
	ck_assert_double_eq_tol(bw_gbps(4096, 1e-6), 4.096, 1e-9);
	ck_assert_double_eq(bw_gbps(4096, 0), 0);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("bw_stats");
	TCase *tc = tcase_create("bw_stats");

	tcase_add_test(tc, test_bw_stats_odd_count);
	tcase_add_test(tc, test_bw_stats_even_count_means_middle_two);
	tcase_add_test(tc, test_bw_stats_many_samples);
	tcase_add_test(tc, test_bw_gbps);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return t_run_suite(suite());
}
