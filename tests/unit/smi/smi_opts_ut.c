// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of tools/smi_opts.c: the command lines scripts use, and the
 * ones that must be refused (exit code 2).
 */
#include <check.h>
#include <errno.h>
#include <string.h>

#include "t_check.h"
#include "fake_smi.h"
#include "smi_opts.h"

#define MAX_ARGS 8

static char err[256];

/* Parse a NULL-terminated list of arguments after "npu-smi". */
static int parse(struct smi_opts *o, const char *const *args)
{
	char *argv[MAX_ARGS + 2];
	int argc = 0;

	argv[argc++] = (char *)"npu-smi";
	while (*args && argc <= MAX_ARGS)
		argv[argc++] = (char *)*args++;
	argv[argc] = NULL;
	return smi_parse_args(argc, argv, o, err, sizeof(err));
}

START_TEST(test_smi_parse_args_default_is_info_of_all)
{
	static const char *const none[] = { NULL };
	static const char *const info[] = { "info", NULL };
	struct smi_opts o;

	ck_assert_int_eq(parse(&o, none), 0);
	ck_assert_int_eq(o.action, SMI_ACT_INFO);
	ck_assert_int_eq(o.view, SMI_VIEW_BOARD);
	ck_assert_int_eq(o.json, 0);
	ck_assert_int_eq(o.index, -1);
	ck_assert_int_eq(parse(&o, info), 0);
	ck_assert_int_eq(o.action, SMI_ACT_INFO);
}
END_TEST

START_TEST(test_smi_parse_args_cann_style_topo)
{
	static const char *const a[] = { "info", "-t", "topo", "-i", "3", NULL };
	static const char *const b[] = { "--type=topo", "--json", "--id", "0", NULL };
	static const char *const c[] = { "-jttopo", "info", NULL };
	struct smi_opts o;

	ck_assert_int_eq(parse(&o, a), 0);
	ck_assert_int_eq(o.view, SMI_VIEW_TOPO);
	ck_assert_int_eq(o.index, 3);
	ck_assert_int_eq(o.json, 0);
	ck_assert_int_eq(parse(&o, b), 0);
	ck_assert_int_eq(o.view, SMI_VIEW_TOPO);
	ck_assert_int_eq(o.index, 0);
	ck_assert_int_eq(o.json, 1);
	ck_assert_int_eq(parse(&o, c), 0);
	ck_assert_int_eq(o.view, SMI_VIEW_TOPO);
	ck_assert_int_eq(o.json, 1);
}
END_TEST

START_TEST(test_smi_parse_args_help_and_version)
{
	static const char *const h[] = { "-h", NULL };
	static const char *const help[] = { "info", "--help", NULL };
	static const char *const v[] = { "--version", NULL };
	struct smi_opts o;

	ck_assert_int_eq(parse(&o, h), 0);
	ck_assert_int_eq(o.action, SMI_ACT_HELP);
	ck_assert_int_eq(parse(&o, help), 0);
	ck_assert_int_eq(o.action, SMI_ACT_HELP);
	ck_assert_int_eq(parse(&o, v), 0);
	ck_assert_int_eq(o.action, SMI_ACT_VERSION);
}
END_TEST

static void assert_refused(const char *const *args, const char *why)
{
	struct smi_opts o;

	ck_assert_int_eq(parse(&o, args), -EINVAL);
	ck_assert_msg(strstr(err, why), "message '%s' lacks '%s'", err, why);
}

START_TEST(test_smi_parse_args_refuses_bad_usage)
{
	static const char *const unknown[] = { "-x", NULL };
	static const char *const unknown_long[] = { "--bogus", NULL };
	static const char *const no_arg[] = { "-i", NULL };
	static const char *const no_arg_long[] = { "--type", NULL };
	static const char *const type[] = { "-t", "memory", NULL };
	static const char *const neg[] = { "-i", "-1", NULL };
	static const char *const word[] = { "-i", "1x", NULL };
	static const char *const big[] = { "-i", "99999999999", NULL };
	static const char *const cmd[] = { "show", NULL };
	static const char *const extra[] = { "info", "more", NULL };

	assert_refused(unknown, "'-x'");
	assert_refused(unknown_long, "'--bogus'");
	assert_refused(no_arg, "'-i' needs an argument");
	assert_refused(no_arg_long, "'--type' needs an argument");
	assert_refused(type, "unsupported type 'memory'");
	assert_refused(neg, "invalid NPU id '-1'");
	assert_refused(word, "invalid NPU id '1x'");
	assert_refused(big, "invalid NPU id");
	assert_refused(cmd, "unknown command 'show'");
	assert_refused(extra, "unexpected argument 'more'");
}
END_TEST

START_TEST(test_smi_parse_args_nonexistent_index_is_not_usage)
{
	static const char *const nine[] = { "-i", "9", NULL };
	struct smi_opts o;

	/* Whether NPU 9 exists is for main() to find out (exit code 4). */
	ck_assert_int_eq(parse(&o, nine), 0);
	ck_assert_int_eq(o.index, 9);
}
END_TEST

START_TEST(test_smi_usage_documents_exit_codes)
{
	struct fake_out o;
	const char *text;

	fake_out_open(&o);
	smi_usage(o.f);
	text = fake_out_close(&o);
	fake_assert_has(text, "Exit status:");
	fake_assert_has(text, "  2  usage error");
	fake_assert_has(text, "  3  no NPU");
	fake_assert_has(text, "  4  no such NPU");
	free(o.text);
}
END_TEST

static Suite *smi_opts_suite(void)
{
	Suite *s = suite_create("smi_opts");
	TCase *tc = tcase_create("smi_parse_args");

	tcase_add_test(tc, test_smi_parse_args_default_is_info_of_all);
	tcase_add_test(tc, test_smi_parse_args_cann_style_topo);
	tcase_add_test(tc, test_smi_parse_args_help_and_version);
	tcase_add_test(tc, test_smi_parse_args_refuses_bad_usage);
	tcase_add_test(tc, test_smi_parse_args_nonexistent_index_is_not_usage);
	tcase_add_test(tc, test_smi_usage_documents_exit_codes);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return t_run_suite(smi_opts_suite());
}
