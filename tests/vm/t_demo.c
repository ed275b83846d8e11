// SPDX-License-Identifier: GPL-2.0-only
/*
 * VM test: tools/npu-demo, the program `make demo` runs, exits 0 and
 * verifies the seed's round trip and the two streams' copies; every
 * later step either verified its data or said why it was skipped.
 */
#include "t_tool.h"

START_TEST(test_demo_runs)
{
	static const char *const steps[] = { "[7] 2-D copy", "[8] batch copy", "[9] P2P copy" };
	struct t_out r;
	size_t i;

	t_sh(&r, "tools/npu-demo");
	t_expect_status(&r, 0);
	ck_assert_msg(strstr(r.out, "verified: H2D -> D2D -> memset -> D2H round trip"),
		      "%s", r.out);
	ck_assert_msg(strstr(r.out, "verified: stream 2's copies"), "%s", r.out);
	for (i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		const char *p = strstr(r.out, steps[i]);

		ck_assert_msg(p, "no %s in:\n%s", steps[i], r.out);
		p = strchr(p, '\n');
		ck_assert_msg(p && (!strncmp(p + 1, "    verified: ", 14) ||
				    !strncmp(p + 1, "    skipped: ", 13)), "%s", r.out);
	}
	t_out_free(&r);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("t_demo");
	TCase *tc = tcase_create("npu-demo");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_demo_runs);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	if (!t_exists("/dev/npu_dma0"))
		return T_EXIT_SKIP;
	return t_run_suite(suite());
}
