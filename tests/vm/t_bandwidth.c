// SPDX-License-Identifier: GPL-2.0-only
/*
 * VM test: tools/acl-bandwidth on the guest's NPUs. The table, CSV and
 * JSON hold one record per case with positive, ordered numbers; the plot
 * is well-formed SVG; pinned and pageable copies take turns at each size
 * (the driver's trace), listed kind by kind; the time budget skips sizes
 * on the slow edu NPU;
 * bad arguments exit 2 and a missing device 1. --latency prints every
 * row of its table with positive times and ratios, the null ioctl's 1,
 * in the table and JSON, and adds its panel to the plot. No speed is
 * asserted.
 */
#include <drm/npu_dma_accel.h>

#include "t_tool.h"

#define BW "tools/acl-bandwidth"
#define TRACING "/sys/kernel/tracing"

static int sim;

/* One data line of the table: its numbers, and the status word. */
struct row {
	char test[8], mem[12], status[16];
	unsigned long long bytes;
	double median, min, max, memcpy, ratio;
};

static int parse_row(const char *line, struct row *w)
{
	char size_num[16], size_unit[8];

	return sscanf(line, "%7s %11s %llu %15s %7s %lf %lf %lf %lf %lf %15s", w->test, w->mem,
		      &w->bytes, size_num, size_unit, &w->median, &w->min, &w->max,
		      &w->memcpy, &w->ratio, w->status) == 11;
}

/* The rows of --latency (issue 27's table), in order. */
static const char *const lat_rows[] = {
	"null ioctl",
	"aclrtMemcpy H2D 64 B pinned", "aclrtMemcpy H2D 4 KiB pinned",
	"aclrtMemcpy H2D 64 KiB pinned", "aclrtMemcpy D2H 64 B pinned",
	"aclrtMemcpy D2H 4 KiB pinned", "aclrtMemcpy D2H 64 KiB pinned",
	"aclrtMemcpy H2D 64 B pageable", "aclrtMemcpy H2D 4 KiB pageable",
	"aclrtMemcpy H2D 64 KiB pageable", "aclrtMemcpy D2H 64 B pageable",
	"aclrtMemcpy D2H 4 KiB pageable", "aclrtMemcpy D2H 64 KiB pageable",
	"MemcpyAsync+Sync H2D 64 B pinned", "MemcpyAsync+Sync H2D 4 KiB pinned",
	"MemcpyAsync+Sync H2D 64 KiB pinned", "MemcpyAsync+Sync H2D 64 B pageable",
	"MemcpyAsync+Sync H2D 4 KiB pageable", "MemcpyAsync+Sync H2D 64 KiB pageable",
	"RecordEvent to SynchronizeEvent, idle", "LaunchHostFunc to the callback, idle",
	"FAST_SYNC stream: Async+Sync 4 KiB pinned", "FAST_SYNC stream: RecordEvent to Sync",
	"FAST_SYNC stream: LaunchHostFunc to run", "1000 MemcpyAsync 4 KiB pinned, per copy",
};

#define NR_LAT_ROWS ((int)(sizeof(lat_rows) / sizeof(lat_rows[0])))
/* The JSON and SVG checks below count the rows as a literal. */
_Static_assert(NR_LAT_ROWS == 25, "update the row counts of the python checks");

/*
 * Check the latency table that starts at @t: its title, its header, then
 * every row in order, each "<name> <us> <x null>" with both positive
 * and the null ioctl's ratio 1. Return: the text after the table.
 */
static char *check_latency_table(char *t)
{
	char *line, *save = NULL;
	double us, x;
	int i;

	line = strtok_r(t, "\n", &save);
	ck_assert_msg(line && !strncmp(line, "acl-bandwidth: latency on device ", 33),
		      "title: %s", line);
	line = strtok_r(NULL, "\n", &save);
	ck_assert_msg(line && !strncmp(line, "latency ", 8) && strstr(line, " us ") &&
		      !strcmp(line + strlen(line) - 6, "x null"), "header: %s", line);
	for (i = 0; i < NR_LAT_ROWS; i++) {
		size_t n = strlen(lat_rows[i]);

		line = strtok_r(NULL, "\n", &save);
		ck_assert_msg(line && !strncmp(line, lat_rows[i], n), "row %d (%s): %s", i,
			      lat_rows[i], line);
		ck_assert_msg(sscanf(line + n, "%lf %lf", &us, &x) == 2, "unparsable: %s", line);
		ck_assert_msg(us > 0 && x > 0, "not positive: %s", line);
		if (!i)
			ck_assert_msg(x == 1, "null ioctl ratio: %s", line);
	}
	return save;
}

static void setup(void)
{
	sim = t_npu_of("sim");
	if (sim < 0)
		exit(T_EXIT_SKIP);
}

START_TEST(test_table_fixed_size)
{
	static const char *const cases[] = { "H2D pinned", "H2D pageable", "D2H pinned",
					     "D2H pageable", "D2D device", "P2P device" };
	char *line, *save = NULL;
	struct t_out r;
	struct row w;
	int n = 0;

	t_sh(&r, BW " -d %d -s 64K -i 3", sim);
	t_expect_status(&r, 0);
	ck_assert_msg(!strncmp(r.out, "acl-bandwidth: device ", 22), "%s", r.out);
	for (line = strtok_r(r.out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char name[32];

		if (strncmp(line, "H2D", 3) && strncmp(line, "D2", 2) && strncmp(line, "P2P", 3))
			continue;
		ck_assert_int_lt(n, 6);
		snprintf(name, sizeof(name), "%.3s %s", line, line + 5);
		ck_assert_msg(!strncmp(name, cases[n], strlen(cases[n])), "row %d: %s", n, line);
		if (strstr(line, " n/a"))	/* P2P where peers are not supported */
			ck_assert_msg(!strncmp(line, "P2P", 3), "%s", line);
		else {
			ck_assert_msg(parse_row(line, &w), "unparsable: %s", line);
			ck_assert_uint_eq(w.bytes, 65536);
			ck_assert_msg(w.min > 0 && w.min <= w.median && w.median <= w.max,
				      "bad numbers: %s", line);
			ck_assert_msg(w.memcpy > 0 && w.ratio > 0, "bad memcpy: %s", line);
			ck_assert_str_eq(w.status, "ok");
		}
		n++;
	}
	ck_assert_int_eq(n, 6);
	t_out_free(&r);
}
END_TEST

/*
 * Pinned and pageable take turns at each size (their ratio compares
 * copies made seconds apart), and the table still lists them kind by
 * kind: the driver's submit events show a pageable 4 KiB copy before
 * the first 8 KiB copy.
 */
START_TEST(test_kinds_take_turns)
{
	static const char *const rows[] = { "H2D  pinned         4096",
					    "H2D  pinned         8192",
					    "H2D  pageable       4096",
					    "H2D  pageable       8192" };
	long pageable_4k = -1, first_8k = -1, n = 0;
	char *log, *line, *save = NULL, *at;
	unsigned int flags;
	unsigned long long bytes;
	struct t_out r;
	size_t i;

	ck_assert_int_eq(t_write_file(TRACING "/trace", ""), 0);
	ck_assert_int_eq(t_write_file(TRACING "/events/npu_dma/npu_dma_submit/enable", "1"), 0);
	t_sh(&r, BW " -d %d --min-size 4K --max-size 8K -i 1 -n -t h2d", sim);
	ck_assert_int_eq(t_write_file(TRACING "/events/npu_dma/npu_dma_submit/enable", "0"), 0);
	t_expect_status(&r, 0);
	at = r.out;
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		at = strstr(at, rows[i]);
		ck_assert_msg(at != NULL, "row '%s' missing or out of order:\n%s", rows[i], r.out);
	}
	t_out_free(&r);

	log = t_file_text(TRACING "/trace");
	ck_assert_ptr_nonnull(log);
	for (line = strtok_r(log, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		at = strstr(line, "npu_dma_submit: ");
		if (!at || !(at = strstr(at, " flags=")) ||
		    sscanf(at, " flags=%x bytes=%llu", &flags, &bytes) != 2)
			continue;
		if (bytes == 4096 && (flags & NPU_DMA_DESC_F_SRC_PAGEABLE) && pageable_4k < 0)
			pageable_4k = n;
		if (bytes == 8192 && first_8k < 0)
			first_8k = n;
		n++;
	}
	free(log);
	ck_assert_msg(pageable_4k >= 0 && first_8k >= 0,
		      "submits %ld: pageable 4 KiB at %ld, 8 KiB at %ld", n, pageable_4k, first_8k);
	ck_assert_msg(pageable_4k < first_8k,
		      "pageable 4 KiB copy at %ld, after the first 8 KiB one at %ld",
		      pageable_4k, first_8k);
}
END_TEST

START_TEST(test_csv)
{
	char *line, *save = NULL;
	struct t_out r;
	int n = 0;

	t_sh(&r, BW " -d %d -s 4K -i 2 -t h2d,d2h --csv", sim);
	t_expect_status(&r, 0);
	line = strtok_r(r.out, "\n", &save);
	ck_assert_str_eq(line, "test,memory,bytes,iterations,median_gbps,min_gbps,max_gbps,"
			 "memcpy_gbps,ratio,status,note");
	while ((line = strtok_r(NULL, "\n", &save))) {
		char test[8], mem[12];
		unsigned long long bytes;
		unsigned int it;
		double med, lo, hi;

		ck_assert_msg(sscanf(line, "%7[^,],%11[^,],%llu,%u,%lf,%lf,%lf", test, mem,
				     &bytes, &it, &med, &lo, &hi) == 7, "bad CSV line %s", line);
		ck_assert_uint_eq(bytes, 4096);
		ck_assert_uint_eq(it, 2);
		ck_assert_msg(lo > 0 && lo <= med && med <= hi, "%s", line);
		ck_assert_msg(strstr(line, ",ok,"), "%s", line);
		n++;
	}
	ck_assert_int_eq(n, 4);
	t_out_free(&r);
}
END_TEST

START_TEST(test_json)
{
	struct t_out r;

	t_sh(&r, BW " -d %d -s 16K -i 2 --json > /tmp/bw.json", sim);
	t_expect_status(&r, 0);
	t_py_check("import json, sys\n"
		   "d = json.load(open(sys.argv[1]))\n"
		   "assert d[\"tool\"] == \"acl-bandwidth\", d\n"
		   "rs = d[\"results\"]\n"
		   "assert len(rs) == 6, rs\n"
		   "for x in rs:\n"
		   "    assert x[\"bytes\"] == 16384, x\n"
		   "    if x[\"status\"] == \"ok\":\n"
		   "        assert 0 < x[\"min_gbps\"] <= x[\"median_gbps\"] <= x[\"max_gbps\"], x\n"
		   "        assert x[\"memcpy_gbps\"] > 0 and x[\"ratio\"] > 0, x\n"
		   "    else:\n"
		   "        assert x[\"test\"] == \"P2P\" and x[\"status\"] == \"n/a\", x\n"
		   "        assert x[\"median_gbps\"] is None and x[\"note\"], x\n",
		   "/tmp/bw.json");
	t_out_free(&r);
}
END_TEST

START_TEST(test_plot)
{
	struct t_out r;

	unlink("/tmp/bw.svg");
	t_sh(&r, BW " -d %d --min-size 1K --max-size 16K -i 2 -t h2d,d2d --plot /tmp/bw.svg",
	     sim);
	t_expect_status(&r, 0);
	t_py_check("import sys, xml.dom.minidom as m\n"
		   "d = m.parse(sys.argv[1])\n"
		   "t = [n.firstChild.data for n in d.getElementsByTagName(\"text\")]\n"
		   "for want in (\"H2D pinned\", \"H2D pageable\", \"D2D device\", \"host memcpy\", "
		   "\"16 KiB\"):\n"
		   "    assert want in t, (want, t)\n"
		   "assert len(d.getElementsByTagName(\"polyline\")) >= 4\n",
		   "/tmp/bw.svg");
	t_out_free(&r);
}
END_TEST

START_TEST(test_latency_table)
{
	struct t_out r;
	char *rest;

	t_sh(&r, BW " -d %d -t none --latency --calls 5", sim);
	t_expect_status(&r, 0);
	rest = check_latency_table(r.out);
	ck_assert_msg(!rest || !*rest, "after the table: %s", rest);
	t_out_free(&r);
}
END_TEST

START_TEST(test_latency_after_bandwidth_and_json)
{
	struct t_out r;
	char *lat;

	t_sh(&r, BW " -d %d -s 4K -i 2 -t h2d -m pinned -L --calls 3", sim);
	t_expect_status(&r, 0);
	ck_assert_msg(!strncmp(r.out, "acl-bandwidth: device ", 22), "%s", r.out);
	ck_assert_msg(strstr(r.out, "\nH2D  pinned         4096"), "%s", r.out);
	lat = strstr(r.out, " ok\n\nacl-bandwidth: latency");
	ck_assert_msg(lat, "no latency table after the bandwidth: %s", r.out);
	check_latency_table(lat + 5);
	t_out_free(&r);

	t_sh(&r, BW " -d %d -t none --latency --calls 3 --json > /tmp/bwl.json", sim);
	t_expect_status(&r, 0);
	t_py_check("import json, sys\n"
		   "d = json.load(open(sys.argv[1]))\n"
		   "assert d[\"results\"] == [], d\n"
		   "l = d[\"latency\"]\n"
		   "assert l[\"calls\"] == 3 and l[\"rounds\"] == 5 and l[\"unit\"] == \"us\", l\n"
		   "rs = l[\"results\"]\n"
		   "assert len(rs) == 25, rs\n"
		   "assert rs[0][\"name\"] == \"null ioctl\" and rs[0][\"x_null\"] == 1, rs[0]\n"
		   "for x in rs:\n"
		   "    assert x[\"us\"] > 0 and x[\"x_null\"] > 0, x\n",
		   "/tmp/bwl.json");
	t_out_free(&r);
}
END_TEST

START_TEST(test_latency_plot)
{
	struct t_out r;

	unlink("/tmp/bwl.svg");
	t_sh(&r, BW " -d %d --min-size 1K --max-size 4K -i 2 -t h2d -m pinned --latency "
	     "--calls 3 --plot /tmp/bwl.svg", sim);
	t_expect_status(&r, 0);
	/* Both panels: the bandwidth lines and legend, a labelled bar per row. */
	t_py_check("import sys, xml.dom.minidom as m\n"
		   "d = m.parse(sys.argv[1])\n"
		   "t = [n.firstChild.data for n in d.getElementsByTagName(\"text\")]\n"
		   "for want in (\"H2D pinned\", \"host memcpy\", \"4 KiB\", \"null ioctl\", "
		   "\"aclrtMemcpy D2H 64 KiB pageable\", \"LaunchHostFunc to the callback, idle\", "
		   "\"RecordEvent to SynchronizeEvent, idle\"):\n"
		   "    assert want in t, (want, t)\n"
		   "assert any(x.startswith(\"latency, call to completion\") for x in t), t\n"
		   "assert len(d.getElementsByTagName(\"polyline\")) >= 2\n"
		   "assert len(d.getElementsByTagName(\"rect\")) >= 25\n"
		   "labels = [x for x in t if x.endswith(\"x\") and \" us, \" in x]\n"
		   "assert len(labels) == 25, labels\n",
		   "/tmp/bwl.svg");
	t_out_free(&r);
}
END_TEST

START_TEST(test_budget_skips_on_edu)
{
	int edu = t_npu_of("edu");
	struct t_out r;

	T_SKIP_UNLESS(edu >= 0, "no edu NPU");
	/* edu moves 2 KiB per 100 ms: a half-second budget ends the sweep early. */
	t_sh(&r, BW " -d %d --max-size 64K -i 1 -b 0.5 -t h2d -m pinned", edu);
	t_expect_status(&r, 0);
	ck_assert_msg(strstr(r.out, " ok\n"), "%s", r.out);
	ck_assert_msg(strstr(r.out, "skipped: time budget of 0.5 s spent"), "%s", r.out);
	t_out_free(&r);
}
END_TEST

START_TEST(test_bad_arguments)
{
	static const char *const bad[] = { "-t bogus", "--size 0", "--size 12Q", "-i 0",
					   "--frobnicate", "-m device", "extra", "-t none",
					   "-L --calls 0" };
	struct t_out r;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		t_sh(&r, BW " %s", bad[i]);
		t_expect_status(&r, 2);
		ck_assert_msg(strstr(r.err, "acl-bandwidth: "), "%s: %s", bad[i], r.err);
		t_out_free(&r);
	}
	t_sh(&r, BW " -d 63 -s 4K");
	t_expect_status(&r, 1);
	t_out_free(&r);
	t_sh(&r, BW " --help");
	t_expect_status(&r, 0);
	ck_assert_msg(strstr(r.out, "--max-size"), "%s", r.out);
	ck_assert_msg(strstr(r.out, "--latency"), "%s", r.out);
	t_out_free(&r);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("t_bandwidth");
	TCase *tc = tcase_create("acl-bandwidth");

	tcase_add_unchecked_fixture(tc, setup, NULL);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_table_fixed_size);
	tcase_add_test(tc, test_kinds_take_turns);
	tcase_add_test(tc, test_csv);
	tcase_add_test(tc, test_json);
	tcase_add_test(tc, test_plot);
	tcase_add_test(tc, test_latency_table);
	tcase_add_test(tc, test_latency_after_bandwidth_and_json);
	tcase_add_test(tc, test_latency_plot);
	tcase_add_test(tc, test_budget_skips_on_edu);
	tcase_add_test(tc, test_bad_arguments);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return t_run_suite(suite());
}
