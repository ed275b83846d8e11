// SPDX-License-Identifier: GPL-2.0-only
/*
 * VM test: tools/npu-demo, the program `make demo` runs. On the default
 * guest (2 edu + 2 sim NPUs, the sim pair peers) every step runs and
 * verifies its data, the P2P copy included: nothing is skipped, and the
 * program exits 0. The IPC step's second process checks A's bytes before
 * A checks B's. With no NPU visible to libacl the demo says it failed
 * and exits 1.
 */
#include "t_tool.h"

/* The "[n] ..." header of each step, then the line its check prints. */
static const struct {
	const char *step, *verified;
} checks[] = {
	{ "[5] synchronize", "verified: H2D -> D2D -> memset -> D2H round trip" },
	{ "[6] two streams", "verified: stream 2's copies" },
	{ "[7] 2-D copy", "verified: 2-D block (16384 bytes)" },
	{ "[8] batch copy", "verified: batch (32768 bytes)" },
	{ "[9] P2P copy", "verified: peer copy (1048576 bytes)" },
	{ "[10] IPC memory", "verified: A reads the bytes B wrote (1048576 bytes)" },
};

START_TEST(test_demo_runs)
{
	struct t_out r;
	const char *p;
	size_t i;

	t_sh(&r, "tools/npu-demo");
	t_expect_status(&r, 0);
	for (i = 0; i < sizeof(checks) / sizeof(checks[0]); i++) {
		p = strstr(r.out, checks[i].step);
		ck_assert_msg(p, "no %s in:\n%s", checks[i].step, r.out);
		/* The check follows its own header, before the next step. */
		p = strstr(p, checks[i].verified);
		ck_assert_msg(p, "no \"%s\" after %s in:\n%s", checks[i].verified,
			      checks[i].step, r.out);
		if (i + 1 < sizeof(checks) / sizeof(checks[0]))
			ck_assert_msg(p < strstr(r.out, checks[i + 1].step), "%s", r.out);
	}
	/* B, another process, checked A's bytes before A checked B's. */
	p = strstr(r.out, "B: verified: A's bytes (1048576 bytes)");
	ck_assert_msg(p && p > strstr(r.out, "[10] IPC memory") &&
		      p < strstr(r.out, "verified: A reads the bytes B wrote"), "%s", r.out);
	/* The sim pair are peers: the copy ran between them. */
	ck_assert_msg(strstr(r.out, "by device "), "%s", r.out);
	ck_assert_msg(!strstr(r.out, "skipped"), "%s", r.out);
	ck_assert_msg(!strstr(r.out, "FAILED"), "%s", r.out);
	ck_assert_msg(strstr(r.out, "npu-demo: every step verified its data"), "%s", r.out);
	t_out_free(&r);
}
END_TEST

/* ASCEND_RT_VISIBLE_DEVICES naming no NPU: libacl has no device to set. */
START_TEST(test_demo_fails)
{
	struct t_out r;

	t_sh(&r, "ASCEND_RT_VISIBLE_DEVICES=63 tools/npu-demo");
	t_expect_status(&r, 1);
	ck_assert_msg(strstr(r.out, "    FAILED: aclInit/aclrtSetDevice = "), "%s", r.out);
	ck_assert_msg(strstr(r.out, "npu-demo: FAILED before step 1"), "%s", r.out);
	ck_assert_msg(!strstr(r.out, "[1]"), "%s", r.out);
	t_out_free(&r);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("t_demo");
	TCase *tc = tcase_create("npu-demo");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_demo_runs);
	tcase_add_test(tc, test_demo_fails);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	if (!t_npu_find(0, NULL))
		return T_EXIT_SKIP;
	return t_run_suite(suite());
}
