// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of tools/bw_opts.c: sizes with suffixes, the command line,
 * the sweep, and the usage errors that exit 2.
 */
#include <errno.h>
#include <stdio.h>

#include "t_check.h"
#include "bw.h"

static int parse(struct bw_opts *o, const char *a1, const char *a2, const char *a3)
{
	char *argv[] = { (char *)"acl-bandwidth", (char *)a1, (char *)a2, (char *)a3, NULL };
	int argc = 1;

	while (argc < 4 && argv[argc])
		argc++;
	return bw_parse_opts(argc, argv, o);
}

START_TEST(test_bw_parse_size_suffixes)
{
	uint64_t b;

	ck_assert_int_eq(bw_parse_size("4096", &b), 0);
	ck_assert_uint_eq(b, 4096);
	ck_assert_int_eq(bw_parse_size("4K", &b), 0);
	ck_assert_uint_eq(b, 4096);
	ck_assert_int_eq(bw_parse_size("1MiB", &b), 0);
	ck_assert_uint_eq(b, 1 << 20);
	ck_assert_int_eq(bw_parse_size("256m", &b), 0);
	ck_assert_uint_eq(b, 256ULL << 20);
	ck_assert_int_eq(bw_parse_size("2GB", &b), 0);
	ck_assert_uint_eq(b, 2ULL << 30);
	ck_assert_int_eq(bw_parse_size("100B", &b), 0);
	ck_assert_uint_eq(b, 100);
}
END_TEST

START_TEST(test_bw_parse_size_rejects)
{
	uint64_t b;

	ck_assert_int_eq(bw_parse_size("", &b), -EINVAL);
	ck_assert_int_eq(bw_parse_size("0", &b), -EINVAL);
	ck_assert_int_eq(bw_parse_size("-1", &b), -EINVAL);
	ck_assert_int_eq(bw_parse_size("4X", &b), -EINVAL);
	ck_assert_int_eq(bw_parse_size("K", &b), -EINVAL);
	ck_assert_int_eq(bw_parse_size("99999999999999999G", &b), -EINVAL);
}
END_TEST

START_TEST(test_bw_parse_opts_defaults_and_sweep)
{
	uint64_t sizes[BW_MAX_SIZES];
	struct bw_opts o;
	size_t n;

	ck_assert_int_eq(parse(&o, NULL, NULL, NULL), 0);
	ck_assert_uint_eq(o.tests, 0xf);
	ck_assert_uint_eq(o.mems, 3);
	ck_assert_int_eq(o.device, 0);
	ck_assert_int_eq(o.peer, -1);
	ck_assert_uint_eq(o.iterations, 5);
	ck_assert(o.verify);
	ck_assert(!o.latency);
	ck_assert_uint_eq(o.calls, BW_DEFAULT_CALLS);
	n = bw_sizes(&o, sizes, BW_MAX_SIZES);
	ck_assert_uint_eq(n, 19);	/* 1 KiB .. 256 MiB */
	ck_assert_uint_eq(sizes[0], 1024);
	ck_assert_uint_eq(sizes[18], 256ULL << 20);
	ck_assert_int_eq(parse(&o, "--max-size", "8K", NULL), 0);
	ck_assert_uint_eq(bw_sizes(&o, sizes, BW_MAX_SIZES), 4);
}
END_TEST

START_TEST(test_bw_parse_opts_values)
{
	uint64_t sizes[BW_MAX_SIZES];
	struct bw_opts o;

	ck_assert_int_eq(parse(&o, "-t", "h2d,P2P", "--json"), 0);
	ck_assert_uint_eq(o.tests, (1U << BW_H2D) | (1U << BW_P2P));
	ck_assert_int_eq(o.format, BW_JSON);
	ck_assert_int_eq(parse(&o, "--memory=pageable", "-s", "1M"), 0);
	ck_assert_uint_eq(o.mems, 1U << BW_PAGEABLE);
	ck_assert_uint_eq(bw_sizes(&o, sizes, BW_MAX_SIZES), 1);
	ck_assert_uint_eq(sizes[0], 1 << 20);
	ck_assert_int_eq(parse(&o, "-d", "2", "--csv"), 0);
	ck_assert_int_eq(o.device, 2);
	ck_assert_int_eq(o.format, BW_CSV);
	ck_assert_int_eq(parse(&o, "-p3", "-i", "7"), 0);
	ck_assert_int_eq(o.peer, 3);
	ck_assert_uint_eq(o.iterations, 7);
	ck_assert_int_eq(parse(&o, "--plot", "x.svg", "-n"), 0);
	ck_assert_str_eq(o.plot, "x.svg");
	ck_assert(!o.verify);
	ck_assert_int_eq(parse(&o, "--latency", "--calls", "30"), 0);
	ck_assert(o.latency);
	ck_assert_uint_eq(o.calls, 30);
	ck_assert_uint_eq(o.tests, 0xf);
	ck_assert_int_eq(parse(&o, "-L", "-t", "none"), 0);
	ck_assert(o.latency);
	ck_assert_uint_eq(o.tests, 0);
}
END_TEST

START_TEST(test_bw_parse_opts_usage_errors)
{
	struct bw_opts o;

	ck_assert_int_eq(parse(&o, "-t", "h2x", NULL), 2);
	ck_assert_int_eq(parse(&o, "-m", "device", NULL), 2);
	ck_assert_int_eq(parse(&o, "-i", "0", NULL), 2);
	ck_assert_int_eq(parse(&o, "-d", "-1", NULL), 2);
	ck_assert_int_eq(parse(&o, "--size", "huge", NULL), 2);
	ck_assert_int_eq(parse(&o, "--bogus", NULL, NULL), 2);
	ck_assert_int_eq(parse(&o, "-s", NULL, NULL), 2);
	ck_assert_int_eq(parse(&o, "extra", NULL, NULL), 2);
	ck_assert_int_eq(parse(&o, "--min-size", "1M", "--max-size=1K"), 2);
	ck_assert_int_eq(parse(&o, "-b", "-3", NULL), 2);
	/* -t none measures nothing without --latency, and stands alone. */
	ck_assert_int_eq(parse(&o, "-t", "none", NULL), 2);
	ck_assert_int_eq(parse(&o, "-t", "none,h2d", "-L"), 2);
	ck_assert_int_eq(parse(&o, "-m", "none", "-L"), 2);
	ck_assert_int_eq(parse(&o, "-L", "--calls", "0"), 2);
	ck_assert_int_eq(parse(&o, "-L", "--calls", "100001"), 2);
}
END_TEST

START_TEST(test_bw_names)
{
	char buf[32];

	ck_assert_str_eq(bw_test_name(BW_D2H), "D2H");
	ck_assert_str_eq(bw_mem_name(BW_DEVICE), "device");
	ck_assert_str_eq(bw_status_name(BW_NA), "n/a");
	bw_size_str(buf, sizeof(buf), 256ULL << 20);
	ck_assert_str_eq(buf, "256 MiB");
	bw_size_str(buf, sizeof(buf), 1536);
	ck_assert_str_eq(buf, "1536 B");
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("bw_opts");
	TCase *tc = tcase_create("bw_opts");

	tcase_add_test(tc, test_bw_parse_size_suffixes);
	tcase_add_test(tc, test_bw_parse_size_rejects);
	tcase_add_test(tc, test_bw_parse_opts_defaults_and_sweep);
	tcase_add_test(tc, test_bw_parse_opts_values);
	tcase_add_test(tc, test_bw_parse_opts_usage_errors);
	tcase_add_test(tc, test_bw_names);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	/* bw_parse_opts reports usage errors on stderr: keep the log short. */
	if (!freopen("/dev/null", "w", stderr))
		return 1;
	return t_run_suite(suite());
}
