// SPDX-License-Identifier: GPL-2.0-only
/*
 * VM test: peer access through libacl on the default guest (2 edu + 2
 * sim NPUs). Every device pair: CanAccessPeer matches the driver's
 * topology; for peers, the seed's flow (check access, set device,
 * enable, copy, verify) sync and async, byte-exact; for others, enable
 * and copy fail with CANN's error. Disable then copy fails; an event
 * recorded on one device orders a stream of another (peers or not); an
 * edu NPU unbound in use makes peer copies fail cleanly while the others
 * keep working.
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <unistd.h>

#include "t_acl.h"

#define SIM_LEN (40 * 1024 + 7)
#define EDU_LEN (3 * 1024 + 7)	/* edu moves 2 KiB per 0.1 s: keep it small */

static uint32_t ndev;

static void init(void)
{
	T_ACL_OK(aclInit(NULL));
	T_ACL_OK(aclrtGetDeviceCount(&ndev));
}

static void fini(void)
{
	uint32_t i;

	for (i = 0; i < ndev; i++)
		aclrtResetDevice((int32_t)i);
	T_ACL_OK(aclFinalize());
}

/* The driver's answer, from sysfs (logical ids = NPU indexes here). */
static int sysfs_peer(int a, int b)
{
	char buf[64], want[8], *tok, *save;

	ck_assert_int_eq(t_npu_attr(a, "peers", buf, sizeof(buf)), 0);
	snprintf(want, sizeof(want), "%d", b);
	for (tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
		if (!strcmp(tok, want))
			return 1;
	return 0;
}

static int is_edu(int dev)
{
	char buf[16];

	return !t_npu_attr(dev, "backend", buf, sizeof(buf)) &&
	       !strcmp(buf, "edu");
}

static void *dev_alloc(int dev, size_t len)
{
	void *p = NULL;

	T_ACL_OK(aclrtSetDevice(dev));
	T_ACL_OK(aclrtMalloc(&p, len, ACL_MEM_MALLOC_HUGE_FIRST_P2P));
	return p;
}

/* Host pattern -> b's memory; a's engine pulls it over; back to host. */
START_TEST(test_pair)
{
	int a = _i / 4, b = _i % 4, can = -1, status = -1;
	uint8_t *in, *out;
	aclrtStream s;
	void *pa, *pb;
	size_t LEN;

	if (a >= (int)ndev || b >= (int)ndev || a == b)
		return;
	LEN = is_edu(a) || is_edu(b) ? EDU_LEN : SIM_LEN;
	in = malloc(LEN);
	out = malloc(LEN);
	T_ACL_OK(aclrtDeviceCanAccessPeer(&can, a, b));
	ck_assert_int_eq(can, sysfs_peer(a, b));
	pb = dev_alloc(b, LEN);
	pa = dev_alloc(a, LEN);
	t_pattern_fill(in, LEN, 31 * a + b);
	T_ACL_OK(aclrtMemcpy(pb, LEN, in, LEN, ACL_MEMCPY_HOST_TO_DEVICE));
	T_ACL_OK(aclrtDevicePeerAccessStatus(a, b, &status));
	ck_assert_int_eq(status, 0);

	if (!can) {
		T_ACL_EQ(aclrtDeviceEnablePeerAccess(b, 0), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
		T_ACL_EQ(aclrtMemcpy(pa, LEN, pb, LEN, ACL_MEMCPY_DEVICE_TO_DEVICE),
			 ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
		t_acl_msg_has("not peers");
		goto out;
	}
	/* Not enabled yet: refused, naming the call to make. */
	T_ACL_EQ(aclrtMemcpy(pa, LEN, pb, LEN, ACL_MEMCPY_DEVICE_TO_DEVICE),
		 ACL_ERROR_RT_NO_PERMISSION);
	t_acl_msg_has("aclrtDeviceEnablePeerAccess");
	T_ACL_OK(aclrtDeviceEnablePeerAccess(b, 0));
	T_ACL_OK(aclrtDevicePeerAccessStatus(a, b, &status));
	ck_assert_int_eq(status, 1);
	/* One direction only. */
	T_ACL_OK(aclrtDevicePeerAccessStatus(b, a, &status));
	ck_assert_int_eq(status, 0);

	T_ACL_OK(aclrtMemcpy(pa, LEN, pb, LEN, ACL_MEMCPY_DEVICE_TO_DEVICE));
	T_ACL_OK(aclrtMemcpy(out, LEN, pa, LEN, ACL_MEMCPY_DEVICE_TO_HOST));
	ck_assert_uint_eq(t_pattern_check(out, LEN, 31 * a + b), LEN);

	/* Async on a's stream, both directions (DEFAULT infers D2D). */
	T_ACL_OK(aclrtCreateStream(&s));
	T_ACL_OK(aclrtMemsetAsync(pa, LEN, 0x5a, 1000, s));
	T_ACL_OK(aclrtMemcpyAsync(pb, LEN, pa, 1000, ACL_MEMCPY_DEFAULT, s));
	T_ACL_OK(aclrtSynchronizeStream(s));
	T_ACL_OK(aclrtMemcpy(out, LEN, pb, LEN, ACL_MEMCPY_DEVICE_TO_HOST));
	ck_assert_uint_eq(out[0], 0x5a);
	ck_assert_uint_eq(out[999], 0x5a);
	ck_assert_int_eq(memcmp(out + 1000, in + 1000, LEN - 1000), 0);
	T_ACL_OK(aclrtDestroyStream(s));

	/* Disabled again: copies are refused. */
	T_ACL_OK(aclrtDeviceDisablePeerAccess(b));
	T_ACL_EQ(aclrtMemcpy(pa, LEN, pb, LEN, ACL_MEMCPY_DEVICE_TO_DEVICE),
		 ACL_ERROR_RT_NO_PERMISSION);
out:
	T_ACL_OK(aclrtFree(pa));
	T_ACL_OK(aclrtSetDevice(b));
	T_ACL_OK(aclrtFree(pb));
	free(in);
	free(out);
}
END_TEST

START_TEST(test_argument_errors)
{
	int can;

	T_ACL_EQ(aclrtDeviceCanAccessPeer(NULL, 0, 1), ACL_ERROR_INVALID_PARAM);
	T_ACL_EQ(aclrtDeviceCanAccessPeer(&can, 1, 1), ACL_ERROR_INVALID_PARAM);
	T_ACL_EQ(aclrtDeviceCanAccessPeer(&can, 0, 64), ACL_ERROR_RT_PARAM_INVALID);
	t_acl_msg_has("peerDeviceId=64");
	T_ACL_EQ(aclrtDeviceCanAccessPeer(&can, -1, 0), ACL_ERROR_RT_PARAM_INVALID);
	/* Enable/disable are relative to the current device. */
	T_ACL_EQ(aclrtDeviceEnablePeerAccess(1, 0), ACL_ERROR_RT_CONTEXT_NULL);
	T_ACL_OK(aclrtSetDevice(0));
	T_ACL_EQ(aclrtDeviceEnablePeerAccess(1, 1), ACL_ERROR_FEATURE_UNSUPPORTED);
	t_acl_msg_has("flags=0x1");
	T_ACL_EQ(aclrtDeviceEnablePeerAccess(0, 0), ACL_ERROR_INVALID_PARAM);
	T_ACL_EQ(aclrtDeviceDisablePeerAccess(0), ACL_ERROR_INVALID_PARAM);
	T_ACL_EQ(aclrtDeviceEnablePeerAccess(99, 0), ACL_ERROR_RT_PARAM_INVALID);
	T_ACL_EQ(aclrtDevicePeerAccessStatus(0, 1, NULL), ACL_ERROR_INVALID_PARAM);
}
END_TEST

/* The first pair of peer NPUs of backend @name, or false. */
static bool peer_pair(const char *name, int *a, int *b)
{
	char buf[16];
	int i, j;

	for (i = 0; i < (int)ndev; i++)
		for (j = 0; j < (int)ndev; j++)
			if (i != j && sysfs_peer(i, j) &&
			    !t_npu_attr(i, "backend", buf, sizeof(buf)) &&
			    !strcmp(buf, name)) {
				*a = i;
				*b = j;
				return true;
			}
	return false;
}

/*
 * A host function that holds its stream until the test writes to the
 * pipe *arg, or 20 s passed: should the test fail meanwhile, destroying
 * the stream (which joins its runner thread) still returns.
 */
static void gate_wait(void *arg)
{
	struct pollfd p = { .fd = *(int *)arg, .events = POLLIN };

	while (poll(&p, 1, 20000) < 0 && errno == EINTR)
		;
}

/* Loop index: 0 sim -> sim (peers), 1 edu -> sim, 2 sim -> edu. */
static bool order_pair(int i, int *a, int *b)
{
	int edu = t_acl_find("edu"), sim = t_acl_find("sim");

	if (i == 0)
		return peer_pair("sim", a, b);
	*a = i == 1 ? edu : sim;
	*b = i == 1 ? sim : edu;
	return edu >= 0 && sim >= 0;
}

#define OLD_SEED 4241
#define NEW_SEED 4242

/*
 * A stream of device b waits for an event recorded on device a, and only
 * then copies what a's stream produced. a's stream is held by a blocking
 * host function ahead of the producing copy, so the event is certainly
 * not complete when b queues the wait (libacl skips waiting for an event
 * already complete), and b's stream stays parked until the test lets a
 * go. Peers (sim -> sim): a writes new bytes into its memory, b pulls
 * them over. Not peers (edu and sim; a WAIT may name any queue of the
 * process): a copies its memory out to host memory, b copies that in.
 * Every byte b ends with must be new.
 */
START_TEST(test_event_orders_devices)
{
	aclrtEventRecordedStatus est;
	aclrtStreamStatus sst;
	uint8_t *src, *mid, *out;
	aclrtStream sa, sb;
	aclrtEvent ev;
	int a, b, gate[2];
	void *pa, *pb, *from;
	bool peer;
	size_t len;

	T_SKIP_UNLESS(order_pair(_i, &a, &b), "no NPU pair for case %d", _i);
	peer = sysfs_peer(b, a);
	ck_assert_int_eq(peer, _i == 0);
	len = is_edu(a) || is_edu(b) ? EDU_LEN : (4 << 20) + 7;
	T_ACL_OK(aclrtMallocHost((void **)&src, len));
	T_ACL_OK(aclrtMallocHost((void **)&mid, len));
	T_ACL_OK(aclrtMallocHost((void **)&out, len));
	pa = dev_alloc(a, len);
	pb = dev_alloc(b, len);
	if (peer)
		T_ACL_OK(aclrtDeviceEnablePeerAccess(a, 0));	/* b may read a */
	T_ACL_OK(aclrtCreateStream(&sb));
	T_ACL_OK(aclrtMemset(pb, len, 0, len));
	T_ACL_OK(aclrtSetDevice(a));
	T_ACL_OK(aclrtCreateStream(&sa));
	T_ACL_OK(aclrtCreateEvent(&ev));
	/* Old bytes wherever b could read too early; a's stream makes new. */
	t_pattern_fill(src, len, peer ? OLD_SEED : NEW_SEED);
	T_ACL_OK(aclrtMemcpy(pa, len, src, len, ACL_MEMCPY_HOST_TO_DEVICE));
	t_pattern_fill(peer ? src : mid, len, peer ? NEW_SEED : OLD_SEED);
	from = peer ? pa : (void *)mid;

	ck_assert_int_eq(pipe(gate), 0);
	T_ACL_OK(aclrtLaunchHostFunc(sa, gate_wait, &gate[0]));
	if (peer)
		T_ACL_OK(aclrtMemcpyAsync(pa, len, src, len, ACL_MEMCPY_HOST_TO_DEVICE, sa));
	else
		T_ACL_OK(aclrtMemcpyAsync(mid, len, pa, len, ACL_MEMCPY_DEVICE_TO_HOST, sa));
	T_ACL_OK(aclrtRecordEvent(ev, sa));
	T_ACL_OK(aclrtQueryEventStatus(ev, &est));
	ck_assert_int_eq(est, ACL_EVENT_RECORDED_STATUS_NOT_READY);

	T_ACL_OK(aclrtSetDevice(b));
	T_ACL_OK(aclrtStreamWaitEvent(sb, ev));
	T_ACL_OK(aclrtMemcpyAsync(pb, len, from, len,
				  peer ? ACL_MEMCPY_DEVICE_TO_DEVICE : ACL_MEMCPY_HOST_TO_DEVICE,
				  sb));
	/* Time enough for b's copy, had it not waited. */
	usleep(200 * 1000);
	T_ACL_OK(aclrtStreamQuery(sb, &sst));
	ck_assert_int_eq(sst, ACL_STREAM_STATUS_NOT_READY);
	T_ACL_OK(aclrtQueryEventStatus(ev, &est));
	ck_assert_int_eq(est, ACL_EVENT_RECORDED_STATUS_NOT_READY);

	ck_assert_int_eq(write(gate[1], "g", 1), 1);
	T_ACL_OK(aclrtSynchronizeStream(sb));
	T_ACL_OK(aclrtMemcpy(out, len, pb, len, ACL_MEMCPY_DEVICE_TO_HOST));
	ck_assert_msg(t_pattern_check(out, len, NEW_SEED) == len,
		      "npu%d -> npu%d: old or no byte at %zu", a, b,
		      t_pattern_check(out, len, NEW_SEED));

	T_ACL_OK(aclrtDestroyStream(sb));
	T_ACL_OK(aclrtFree(pb));
	T_ACL_OK(aclrtSetDevice(a));
	T_ACL_OK(aclrtSynchronizeStream(sa));
	T_ACL_OK(aclrtDestroyEvent(ev));
	T_ACL_OK(aclrtDestroyStream(sa));
	T_ACL_OK(aclrtFree(pa));
	T_ACL_OK(aclrtFreeHost(src));
	T_ACL_OK(aclrtFreeHost(mid));
	T_ACL_OK(aclrtFreeHost(out));
	close(gate[0]);
	close(gate[1]);
}
END_TEST

static void bind_edu(const char *what, const char *addr)
{
	char path[128];

	snprintf(path, sizeof(path), "/sys/bus/pci/drivers/npu_dma_edu/%s", what);
	ck_assert_int_eq(t_write_file(path, addr), 0);
}

/* An edu NPU unbound while used: peer copies fail, the rest works. */
START_TEST(test_peer_removed)
{
	uint8_t buf[4096];
	char addr[64], again[64];
	void *pa, *pb, *s0, *s1;
	int a, b, sa, sb, can;

	T_SKIP_UNLESS(peer_pair("edu", &a, &b) && peer_pair("sim", &sa, &sb),
		      "no edu pair and sim pair");
	ck_assert_int_eq(t_npu_attr(b, "pci_address", addr, sizeof(addr)), 0);
	pb = dev_alloc(b, 4096);
	pa = dev_alloc(a, 4096);
	T_ACL_OK(aclrtDeviceEnablePeerAccess(b, 0));
	T_ACL_OK(aclrtMemcpy(pa, 4096, pb, 4096, ACL_MEMCPY_DEVICE_TO_DEVICE));
	T_ACL_OK(aclrtDeviceCanAccessPeer(&can, a, b));
	ck_assert_int_eq(can, 1);

	bind_edu("unbind", addr);
	/* The answer follows the removal, though a opened before it. */
	T_ACL_OK(aclrtDeviceCanAccessPeer(&can, a, b));
	ck_assert_int_eq(can, 0);
	/*
	 * libacl still holds b's range and the grant, so the copy reaches
	 * the driver, which no longer finds b's memory: -EFAULT, 107000.
	 */
	T_ACL_EQ(aclrtMemcpy(pa, 4096, pb, 4096, ACL_MEMCPY_DEVICE_TO_DEVICE),
		 ACL_ERROR_RT_PARAM_INVALID);
	t_acl_msg_has("Bad address");
	/* a's own memory and the sim pair still work. */
	memset(buf, 0x3c, sizeof(buf));
	T_ACL_OK(aclrtMemcpy(pa, 4096, buf, 4096, ACL_MEMCPY_HOST_TO_DEVICE));
	memset(buf, 0, sizeof(buf));
	T_ACL_OK(aclrtMemcpy(buf, 4096, pa, 4096, ACL_MEMCPY_DEVICE_TO_HOST));
	ck_assert_uint_eq(buf[4095], 0x3c);
	s1 = dev_alloc(sb, 4096);
	s0 = dev_alloc(sa, 4096);
	T_ACL_OK(aclrtDeviceEnablePeerAccess(sb, 0));
	T_ACL_OK(aclrtMemcpy(s0, 4096, s1, 4096, ACL_MEMCPY_DEVICE_TO_DEVICE));
	T_ACL_OK(aclrtFree(s0));
	T_ACL_OK(aclrtSetDevice(a));
	T_ACL_OK(aclrtFree(pa));
	/* Release b's file so that it comes back under its number. */
	aclrtResetDeviceForce(b);
	aclrtResetDeviceForce(sb);
	bind_edu("bind", addr);
	ck_assert(t_npu_wait(b, 5000));
	ck_assert_int_eq(t_npu_attr(b, "pci_address", again, sizeof(again)), 0);
	ck_assert_str_eq(again, addr);
}
END_TEST

static Suite *peer_suite(void)
{
	Suite *s = suite_create("t_acl_peer");
	TCase *tc = tcase_create("peer");

	tcase_set_timeout(tc, 300);
	tcase_add_checked_fixture(tc, init, fini);
	tcase_add_loop_test(tc, test_pair, 0, 16);
	tcase_add_test(tc, test_argument_errors);
	tcase_add_loop_test(tc, test_event_orders_devices, 0, 3);
	tcase_add_test(tc, test_peer_removed);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	if (geteuid() != 0 || !t_npu_find(1, NULL))
		return T_EXIT_SKIP;
	return t_run_suite(peer_suite());
}
