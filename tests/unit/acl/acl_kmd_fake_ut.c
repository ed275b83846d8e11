// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of how libacl finds and opens NPUs through its command
 * layer (lib/acl_init.c, lib/acl_device.c), against fake nodes: NPUs in
 * the order of the driver's index, a driver of another ABI version or
 * whose GET_INFO fails refused with a message, one probe per process,
 * nothing left open when opening fails half way.
 */
#include <check.h>
#include <errno.h>
#include <stdlib.h>

#include "acl_fake.h"
#include "acl_ut.h"
#include "t_check.h"

static void add(const struct fake_npu_cfg *c)
{
	ck_assert_int_eq(fake_npu_add(c), 0);
}

START_TEST(test_npus_ordered_by_driver_index)
{
	/* Probed in another order, on node names that sort otherwise. */
	struct fake_npu_cfg a = { .index = 2, .path = "/fake/dri/renderD128" };
	struct fake_npu_cfg b = { .index = 0, .path = "/fake/accel/accel7" };
	struct fake_npu_cfg c = { .index = 1, .path = "/fake/dri/renderD200" };
	uint32_t n = 0;

	add(&a);
	add(&b);
	add(&c);
	ck_assert_int_eq(aclrtGetDeviceCount(&n), ACL_SUCCESS);
	ck_assert_uint_eq(n, 3);
	set_device(0);
	ck_assert_uint_eq(fake_npu_files(0), 1);
	ck_assert_uint_eq(fake_npu_files(1) + fake_npu_files(2), 0);
	set_device(2);
	ck_assert_uint_eq(fake_npu_files(2), 1);
	ck_assert_uint_eq(fake_npu_files(1), 0);
}
END_TEST

START_TEST(test_visible_devices_name_driver_indexes)
{
	uint32_t n = 0;

	fake_add_index(0);
	fake_add_index(1);
	fake_add_index(2);
	setenv("ASCEND_RT_VISIBLE_DEVICES", "2,0", 1);
	ck_assert_int_eq(aclInit(NULL), ACL_SUCCESS);
	ck_assert_int_eq(aclrtGetDeviceCount(&n), ACL_SUCCESS);
	ck_assert_uint_eq(n, 2);
	set_device(0);
	ck_assert_uint_eq(fake_npu_files(2), 1);
	set_device(1);
	ck_assert_uint_eq(fake_npu_files(0), 1);
	ck_assert_uint_eq(fake_npu_files(1), 0);
	ck_assert_int_eq(aclFinalize(), ACL_SUCCESS);
	ck_assert_uint_eq(fake_npu_files(0) + fake_npu_files(2), 0);
}
END_TEST

START_TEST(test_wrong_abi_version_is_refused)
{
	struct fake_npu_cfg old = { .index = 0, .abi_version = 1 };
	uint32_t n = 99;

	add(&old);
	fake_add_index(1);
	ck_assert_int_eq(aclInit(NULL), ACL_ERROR_DRV_FAILURE);
	msg_has("ABI version 1, this libacl speaks version 2");
	ck_assert_int_eq(aclrtGetLastError(ACL_RT_THREAD_LEVEL),
			 ACL_ERROR_DRV_FAILURE);
	/* Not initialized: a second try fails and says why again. */
	ck_assert_int_eq(aclInit(NULL), ACL_ERROR_DRV_FAILURE);
	msg_has("/fake/dri/renderD128");
	ck_assert_int_eq(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE);
	/* Never used: the good NPU alone is device 0. */
	ck_assert_int_eq(aclrtGetDeviceCount(&n), ACL_SUCCESS);
	ck_assert_uint_eq(n, 1);
	set_device(0);
	ck_assert_uint_eq(fake_npu_files(1), 1);
	ck_assert_uint_eq(fake_npu_files(0), 0);
	ck_assert_int_eq(aclrtSetDevice(1), ACL_ERROR_RT_INVALID_DEVICEID);
}
END_TEST

START_TEST(test_get_info_failure_is_refused)
{
	struct fake_npu_cfg bad = { .index = 0, .info_err = -EIO };
	uint32_t n = 99;

	add(&bad);
	ck_assert_int_eq(aclInit(NULL), ACL_ERROR_DRV_FAILURE);
	msg_has("GET_INFO failed: Input/output error");
	ck_assert_int_eq(aclrtGetDeviceCount(&n), ACL_SUCCESS);
	ck_assert_uint_eq(n, 0);
}
END_TEST

START_TEST(test_npu_going_away_does_not_fail_init)
{
	struct fake_npu_cfg gone = { .index = 0, .info_err = -ENODEV };
	uint32_t n = 99;

	add(&gone);
	fake_add_index(1);
	ck_assert_int_eq(aclInit(NULL), ACL_SUCCESS);
	msg_has("No such device");
	ck_assert_int_eq(aclrtGetDeviceCount(&n), ACL_SUCCESS);
	ck_assert_uint_eq(n, 1);
}
END_TEST

START_TEST(test_unopenable_nodes_explain_no_npu)
{
	struct fake_npu_cfg locked = { .index = 0, .unopenable = true };
	uint32_t n = 99;

	add(&locked);
	ck_assert_int_eq(aclInit(NULL), ACL_SUCCESS);
	msg_has("no NPU found: /fake/dri/renderD128 could not be opened "
		"(Permission denied)");
	ck_assert_int_eq(aclrtGetDeviceCount(&n), ACL_SUCCESS);
	ck_assert_uint_eq(n, 0);
}
END_TEST

START_TEST(test_nodes_are_probed_once_per_process)
{
	uint32_t n;
	int i;

	fake_add_index(0);
	for (i = 0; i < 3; i++) {
		ck_assert_int_eq(aclInit(NULL), ACL_SUCCESS);
		ck_assert_int_eq(aclrtGetDeviceCount(&n), ACL_SUCCESS);
		ck_assert_uint_eq(n, 1);
		set_device(0);
		ck_assert_int_eq(aclFinalize(), ACL_SUCCESS);
	}
	ck_assert_uint_eq(fake_kmd_calls(FAKE_PROBE), 1);
	ck_assert_uint_eq(fake_kmd_calls(FAKE_OPEN), 3);
	ck_assert_uint_eq(fake_kmd_calls(FAKE_CLOSE), 3);
}
END_TEST

/* Every failure while setting a device up leaves no file behind. */
START_TEST(test_failed_open_leaves_nothing_open)
{
	static const struct {
		enum fake_kmd_op op;
		int err;
		aclError want;
	} cases[] = {
		{ FAKE_OPEN, -EACCES, ACL_ERROR_RT_NO_PERMISSION },
		{ FAKE_GET_INFO, -EIO, ACL_ERROR_RT_SYS_DMA },
		{ FAKE_MMAP, -ENOMEM, ACL_ERROR_RT_MEMORY_ALLOCATION },
		{ FAKE_QUEUE_CREATE, -EBUSY, ACL_ERROR_RT_NO_STREAM_RESOURCE },
	};
	size_t i;

	fake_add_index(0);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		fake_kmd_fail_next(cases[i].op, cases[i].err);
		ck_assert_int_eq(aclrtSetDevice(0), cases[i].want);
		ck_assert_ptr_nonnull(aclGetRecentErrMsg());
		ck_assert_uint_eq(fake_npu_files(0), 0);
		ck_assert_uint_eq(fake_npu_queues(0), 0);
	}
	set_device(0);
	ck_assert_uint_eq(fake_npu_files(0), 1);
}
END_TEST

START_TEST(test_reset_closes_the_file)
{
	fake_add_index(0);
	set_device(0);
	set_device(0);
	ck_assert_uint_eq(fake_npu_files(0), 1);
	ck_assert_uint_eq(fake_npu_queues(0), 1);	/* the default stream */
	ck_assert_int_eq(aclrtResetDevice(0), ACL_SUCCESS);
	ck_assert_uint_eq(fake_npu_files(0), 1);
	ck_assert_int_eq(aclrtResetDevice(0), ACL_SUCCESS);
	ck_assert_uint_eq(fake_npu_files(0), 0);
	ck_assert_uint_eq(fake_npu_queues(0), 0);
}
END_TEST

START_TEST(test_peer_query_of_unopened_npu)
{
	struct fake_npu_cfg a = { .index = 0, .peers = 1ULL << 1 };
	struct fake_npu_cfg b = { .index = 1, .peers = 1ULL << 0 };
	struct fake_npu_cfg c = { .index = 2 };
	int32_t can = -1;

	add(&a);
	add(&b);
	add(&c);
	ck_assert_int_eq(aclrtDeviceCanAccessPeer(&can, 1, 0), ACL_SUCCESS);
	ck_assert_int_eq(can, 1);
	ck_assert_int_eq(aclrtDeviceCanAccessPeer(&can, 0, 2), ACL_SUCCESS);
	ck_assert_int_eq(can, 0);
	/* The node opened for the question is closed again. */
	ck_assert_uint_eq(fake_npu_files(0) + fake_npu_files(1), 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("acl_kmd_fake");
	TCase *tc = tcase_create("enumeration");

	unsetenv("ASCEND_RT_VISIBLE_DEVICES");
	tcase_add_test(tc, test_npus_ordered_by_driver_index);
	tcase_add_test(tc, test_visible_devices_name_driver_indexes);
	tcase_add_test(tc, test_wrong_abi_version_is_refused);
	tcase_add_test(tc, test_get_info_failure_is_refused);
	tcase_add_test(tc, test_npu_going_away_does_not_fail_init);
	tcase_add_test(tc, test_unopenable_nodes_explain_no_npu);
	tcase_add_test(tc, test_nodes_are_probed_once_per_process);
	tcase_add_test(tc, test_failed_open_leaves_nothing_open);
	tcase_add_test(tc, test_reset_closes_the_file);
	tcase_add_test(tc, test_peer_query_of_unopened_npu);
	suite_add_tcase(s, tc);
	return t_run_suite(s);
}
