// SPDX-License-Identifier: GPL-2.0-only
/*
 * VM test: tools/npu-trace around a small libacl program (this test run
 * as "t_npu_trace copy DEV"): the Chrome trace is valid JSON whose copy
 * slices are exactly the copies issued, with their sizes and directions,
 * on DEV's process and on its queue and DMA channel tracks; the SVG is
 * well-formed; CMD's exit status comes through; -i converts a recording.
 * A copy between two peer NPUs ("t_npu_trace p2p A B") is a P2P slice
 * naming the peer.
 */
#include "acl/acl.h"
#include "t_tool.h"

#define TRACE "tools/npu-trace"

static int sim;
static char self[PATH_MAX];

/*
 * The traced program: two streams with one pinned H2D copy each (64 and
 * 128 KiB), a pinned D2H (32 KiB) and a pageable H2D (12 KiB, pinned by
 * the driver for the copy). Exit 0 when all went well.
 */
static int copy_program(int dev)
{
	void *h, *d;
	char *page = malloc(12288);
	aclrtStream s1, s2;

	if (!page || aclInit(NULL) || aclrtSetDevice(dev) || aclrtMallocHost(&h, 1 << 20) ||
	    aclrtMalloc(&d, 1 << 20, ACL_MEM_MALLOC_HUGE_FIRST) ||
	    aclrtCreateStream(&s1) || aclrtCreateStream(&s2))
		return 1;
	memset(h, 1, 1 << 20);
	memset(page, 2, 12288);
	if (aclrtMemcpyAsync(d, 65536, h, 65536, ACL_MEMCPY_HOST_TO_DEVICE, s1) ||
	    aclrtMemcpyAsync((char *)d + 65536, 131072, h, 131072, ACL_MEMCPY_HOST_TO_DEVICE, s2) ||
	    aclrtSynchronizeStream(s1) || aclrtSynchronizeStream(s2) ||
	    aclrtMemcpyAsync(h, 32768, d, 32768, ACL_MEMCPY_DEVICE_TO_HOST, s1) ||
	    aclrtSynchronizeStream(s1) ||
	    aclrtMemcpy(d, 12288, page, 12288, ACL_MEMCPY_HOST_TO_DEVICE))
		return 1;
	aclrtDestroyStream(s1);
	aclrtDestroyStream(s2);
	aclrtFree(d);
	aclrtFreeHost(h);
	aclrtResetDevice(dev);
	aclFinalize();
	free(page);
	return 0;
}

#define P2P_LEN 40960

/*
 * The traced program of the P2P test: A's engine copies P2P_LEN bytes
 * from A's memory into peer B's. Exit 0 when all went well.
 */
static int p2p_program(int a, int b)
{
	void *pa, *pb, *h;

	if (aclInit(NULL) || aclrtSetDevice(b) ||
	    aclrtMalloc(&pb, P2P_LEN, ACL_MEM_MALLOC_HUGE_FIRST_P2P) ||
	    aclrtSetDevice(a) || aclrtMalloc(&pa, P2P_LEN, ACL_MEM_MALLOC_HUGE_FIRST_P2P) ||
	    aclrtMallocHost(&h, P2P_LEN))
		return 1;
	memset(h, 3, P2P_LEN);
	if (aclrtMemcpy(pa, P2P_LEN, h, P2P_LEN, ACL_MEMCPY_HOST_TO_DEVICE) ||
	    aclrtDeviceEnablePeerAccess(b, 0) ||
	    aclrtMemcpy(pb, P2P_LEN, pa, P2P_LEN, ACL_MEMCPY_DEVICE_TO_DEVICE))
		return 1;
	aclrtFree(pa);
	aclrtFreeHost(h);
	aclrtSetDevice(b);
	aclrtFree(pb);
	aclrtResetDevice(a);
	aclrtResetDevice(b);
	aclFinalize();
	return 0;
}

static void setup(void)
{
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	ck_assert_int_gt(n, 0);
	self[n] = '\0';
	sim = t_npu_of("sim");
	if (sim < 0 || access("/sys/kernel/tracing/instances", F_OK))
		exit(T_EXIT_SKIP);
}

static void trace_copies(const char *json, const char *svg)
{
	struct t_out r;

	t_sh(&r, TRACE " -o %s --svg %s -r /tmp/t_npu_trace.txt -- %s copy %d",
	     json, svg, self, sim);
	t_expect_status(&r, 0);
	ck_assert_msg(strstr(r.err, "npu-trace: "), "%s", r.err);
	t_out_free(&r);
}

/* The copies of the program, on its NPU's queue tracks and channel tracks. */
static const char check_json[] =
	"import json, sys\n"
	"d = json.load(open(sys.argv[1]))\n"
	"pid = int(sys.argv[2]) + 1\n"
	"ev = d[\"traceEvents\"]\n"
	"names = {(e[\"pid\"], e.get(\"tid\")): e[\"args\"][\"name\"] for e in ev if e[\"ph\"] == \"M\""
	" and e[\"name\"] in (\"process_name\", \"thread_name\")}\n"
	"assert names[(pid, None)] == \"NPU %s (sim)\" % sys.argv[2], names\n"
	"xs = [e for e in ev if e[\"ph\"] == \"X\"]\n"
	"assert all(e[\"pid\"] == pid for e in xs), xs\n"
	"q = sorted((e[\"args\"][\"size\"], e[\"args\"][\"direction\"]) for e in xs"
	" if names[(pid, e[\"tid\"])].startswith(\"queue \"))\n"
	"want = [(12288, \"H2D\"), (32768, \"D2H\"), (65536, \"H2D\"), (131072, \"H2D\")]\n"
	"assert q == want, q\n"
	"c = sorted(e[\"args\"][\"size\"] for e in xs"
	" if names[(pid, e[\"tid\"])].startswith(\"DMA channel \"))\n"
	"assert c == [s for s, _ in want], c\n"
	"assert all(e[\"dur\"] >= 0 and e[\"args\"][\"status\"] == 0 for e in xs)\n"
	"streams = {e[\"args\"][\"queue\"] for e in xs if e[\"args\"][\"size\"] in (65536, 131072)}\n"
	"assert len(streams) == 2, streams\n"
	"pins = [e for e in ev if e[\"ph\"] == \"i\" and e[\"name\"] == \"pin\"]\n"
	"assert any(e[\"args\"][\"size\"] >= 12288 for e in pins), pins\n";

START_TEST(test_json_slices_match_copies)
{
	struct t_out r;

	trace_copies("/tmp/t_npu_trace.json", "/tmp/t_npu_trace.svg");
	t_sh(&r, "python3 -c '%s' /tmp/t_npu_trace.json %d", check_json, sim);
	ck_assert_msg(r.status == 0, "trace check failed:\n%s", r.err);
	t_out_free(&r);
}
END_TEST

START_TEST(test_svg_well_formed)
{
	trace_copies("/tmp/t_npu_trace2.json", "/tmp/t_npu_trace.svg");
	t_py_check("import sys, xml.dom.minidom as m\n"
		   "d = m.parse(sys.argv[1])\n"
		   "t = [n.firstChild.data for n in d.getElementsByTagName(\"text\")]\n"
		   "assert any(x.endswith(\"(sim)\") for x in t), t\n"
		   "assert \"DMA channel 0\" in t, t\n"
		   "assert len(d.getElementsByTagName(\"rect\")) >= 9\n",
		   "/tmp/t_npu_trace.svg");
}
END_TEST

START_TEST(test_input_converts_a_recording)
{
	struct t_out r;

	trace_copies("/tmp/t_npu_trace3.json", "/tmp/t_npu_trace3.svg");
	t_sh(&r, TRACE " -i /tmp/t_npu_trace.txt -o /tmp/t_npu_trace4.json");
	t_expect_status(&r, 0);
	ck_assert_msg(strstr(r.err, ", 4 copies"), "%s", r.err);
	t_out_free(&r);
}
END_TEST

START_TEST(test_exit_status_and_usage)
{
	struct t_out r;

	t_sh(&r, TRACE " -o /tmp/t_npu_trace5.json -- sh -c 'exit 3'");
	t_expect_status(&r, 3);
	t_out_free(&r);
	t_sh(&r, TRACE " -o /tmp/t_npu_trace5.json");
	t_expect_status(&r, 2);
	t_out_free(&r);
	t_sh(&r, TRACE " --bogus -- true");
	t_expect_status(&r, 2);
	t_out_free(&r);
	/* The instance is removed after the run. */
	t_sh(&r, "ls /sys/kernel/tracing/instances");
	ck_assert_msg(!strstr(r.out, "npu-trace."), "%s", r.out);
	t_out_free(&r);
}
END_TEST

/* The first peer of NPU @a in sysfs, or -1. */
static int peer_of(int a)
{
	char buf[64];

	if (t_npu_attr(a, "peers", buf, sizeof(buf)))
		return -1;
	return buf[0] >= '0' && buf[0] <= '9' ? atoi(buf) : -1;
}

/* The H2D that fills A's buffer, then the peer copy on A: a P2P slice. */
static const char check_p2p[] =
	"import json, sys\n"
	"a, b = int(sys.argv[2]), int(sys.argv[3])\n"
	"ev = json.load(open(sys.argv[1]))[\"traceEvents\"]\n"
	"xs = {(e[\"args\"][\"direction\"], e[\"args\"].get(\"peer\"), e[\"args\"][\"size\"],"
	" e[\"pid\"], e[\"name\"]) for e in ev if e[\"ph\"] == \"X\"}\n"
	"want = {(\"H2D\", None, %d, a + 1, \"H2D %d B\"), (\"P2P\", b, %d, a + 1, \"P2P %d B\")}\n"
	"assert xs == want, xs\n";

START_TEST(test_peer_copy_is_p2p)
{
	char code[sizeof(check_p2p) + 64];
	int peer = peer_of(sim);
	struct t_out r;

	/* The default guest's two simulated NPUs are peers. */
	ck_assert_int_ge(peer, 0);
	t_sh(&r, TRACE " -o /tmp/t_npu_trace_p2p.json --svg /tmp/t_npu_trace_p2p.svg -- %s p2p %d %d",
	     self, sim, peer);
	t_expect_status(&r, 0);
	t_out_free(&r);
	snprintf(code, sizeof(code), check_p2p, P2P_LEN, P2P_LEN, P2P_LEN, P2P_LEN);
	t_sh(&r, "python3 -c '%s' /tmp/t_npu_trace_p2p.json %d %d", code, sim, peer);
	ck_assert_msg(r.status == 0, "trace check failed:\n%s", r.err);
	t_out_free(&r);
	t_py_check("import sys, xml.dom.minidom as m\n"
		   "d = m.parse(sys.argv[1])\n"
		   "t = [n.firstChild.data for n in d.getElementsByTagName(\"title\")]\n"
		   "assert any(x.startswith(\"P2P copy 40 KiB\") for x in t), t\n",
		   "/tmp/t_npu_trace_p2p.svg");
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("t_npu_trace");
	TCase *tc = tcase_create("npu-trace");

	tcase_add_unchecked_fixture(tc, setup, NULL);
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_json_slices_match_copies);
	tcase_add_test(tc, test_svg_well_formed);
	tcase_add_test(tc, test_input_converts_a_recording);
	tcase_add_test(tc, test_exit_status_and_usage);
	tcase_add_test(tc, test_peer_copy_is_p2p);
	suite_add_tcase(s, tc);
	return s;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "copy"))
		return copy_program(atoi(argv[2]));
	if (argc == 4 && !strcmp(argv[1], "p2p"))
		return p2p_program(atoi(argv[2]), atoi(argv[3]));
	return t_run_suite(suite());
}
