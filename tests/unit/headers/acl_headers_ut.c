// SPDX-License-Identifier: GPL-2.0-only
/*
 * Run-time checks of the values in the public acl headers against CANN's
 * (reference/ACL_API.md §2, §3). The ACL_ERROR_* status constants are
 * static const int objects, which C cannot check at compile time, so this
 * is where their values are pinned for C callers.
 */
#include <check.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "acl/acl.h"
#include "t_check.h"

START_TEST(test_ACL_SUCCESS_is_zero)
{
	aclError ret = ACL_SUCCESS;

	ck_assert_int_eq(ret, 0);
	ck_assert_int_eq(ACL_ERROR_NONE, 0);
	ck_assert_int_eq(ACL_RT_SUCCESS, 0);
}
END_TEST

START_TEST(test_acl_error_codes_match_cann)
{
	ck_assert_int_eq(ACL_ERROR_INVALID_PARAM, 100000);
	ck_assert_int_eq(ACL_ERROR_UNINITIALIZE, 100001);
	ck_assert_int_eq(ACL_ERROR_REPEAT_INITIALIZE, 100002);
	ck_assert_int_eq(ACL_ERROR_PARSE_FILE, 100006);
	ck_assert_int_eq(ACL_ERROR_INVALID_QUEUE_ID, 100032);
	ck_assert_int_eq(ACL_ERROR_STREAM_NOT_SUBSCRIBE, 100034);
	ck_assert_int_eq(ACL_ERROR_REPEAT_FINALIZE, 100037);
	ck_assert_int_eq(ACL_ERROR_DUMP_NOT_RUN, 100045);
	ck_assert_int_eq(ACL_ERROR_PROF_REPEAT_SUBSCRIBE, 148046);
	ck_assert_int_eq(ACL_ERROR_INVALID_BUNDLE_MODEL_ID, 148053);
	ck_assert_int_eq(ACL_ERROR_BAD_ALLOC, 200000);
	ck_assert_int_eq(ACL_ERROR_API_NOT_SUPPORT, 200001);
	ck_assert_int_eq(ACL_ERROR_INVALID_DEVICE, 200002);
	ck_assert_int_eq(ACL_ERROR_FEATURE_UNSUPPORTED, 200006);
	ck_assert_int_eq(ACL_ERROR_PROF_MODULES_UNSUPPORTED, 200007);
	ck_assert_int_eq(ACL_ERROR_STORAGE_OVER_LIMIT, 300000);
	ck_assert_int_eq(ACL_ERROR_INTERNAL_ERROR, 500000);
	ck_assert_int_eq(ACL_ERROR_FAILURE, 500001);
	ck_assert_int_eq(ACL_ERROR_DRV_FAILURE, 500004);
	ck_assert_int_eq(ACL_ERROR_PROFILING_FAILURE, 500005);
}
END_TEST

START_TEST(test_rt_error_codes_match_cann)
{
	ck_assert_int_eq(ACL_ERROR_RT_PARAM_INVALID, 107000);
	ck_assert_int_eq(ACL_ERROR_RT_INVALID_DEVICEID, 107001);
	ck_assert_int_eq(ACL_ERROR_RT_CONTEXT_NULL, 107002);
	ck_assert_int_eq(ACL_ERROR_RT_STREAM_CONTEXT, 107003);
	ck_assert_int_eq(ACL_ERROR_RT_THREAD_SUBSCRIBE, 107012);
	ck_assert_int_eq(ACL_ERROR_RT_STREAM_NO_CB_REG, 107015);
	ck_assert_int_eq(ACL_ERROR_RT_INVALID_HANDLE, 107017);
	ck_assert_int_eq(ACL_ERROR_RT_STREAM_ABORT, 107023);
	ck_assert_int_eq(ACL_ERROR_RT_STREAM_NOT_CAPTURED, 107029);
	ck_assert_int_eq(ACL_ERROR_STREAM_TASK_GROUP_INTR, 107034);
	ck_assert_int_eq(ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED, 107036);
	ck_assert_int_eq(ACL_ERROR_RT_INVALID_SYMBOL, 107043);
	ck_assert_int_eq(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, 207000);
	ck_assert_int_eq(ACL_ERROR_RT_MEMORY_ALLOCATION, 207001);
	ck_assert_int_eq(ACL_ERROR_RT_NO_EVENT_RESOURCE, 207007);
	ck_assert_int_eq(ACL_ERROR_RT_TIMEOUT, 207020);
	ck_assert_int_eq(ACL_ERROR_RT_INTERNAL_ERROR, 507000);
	ck_assert_int_eq(ACL_ERROR_RT_STREAM_NOT_COMPLETE, 507004);
	ck_assert_int_eq(ACL_ERROR_RT_EVENT_NOT_COMPLETE, 507006);
	ck_assert_int_eq(ACL_ERROR_RT_REPORT_TIMEOUT, 507012);
	ck_assert_int_eq(ACL_ERROR_RT_SYS_DMA, 507013);
	ck_assert_int_eq(ACL_ERROR_RT_VECTOR_CORE_EXCEPTION, 507035);
	ck_assert_int_eq(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, 507046);
	ck_assert_int_eq(ACL_ERROR_RT_EVENT_SYNC_TIMEOUT, 507047);
	ck_assert_int_eq(ACL_ERROR_RT_COPY_DATA, 507052);
	ck_assert_int_eq(ACL_ERROR_RT_DRV_INTERNAL_ERROR, 507899);
	ck_assert_int_eq(ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED, 507903);
	ck_assert_int_eq(ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED, 507910);
	ck_assert_int_eq(ACL_ERROR_HOST_MEMORY_NOT_REGISTERED, 507911);
}
END_TEST

START_TEST(test_aclrtMemcpyKind_values_match_cann)
{
	ck_assert_int_eq(ACL_MEMCPY_HOST_TO_HOST, 0);
	ck_assert_int_eq(ACL_MEMCPY_HOST_TO_DEVICE, 1);
	ck_assert_int_eq(ACL_MEMCPY_DEVICE_TO_HOST, 2);
	ck_assert_int_eq(ACL_MEMCPY_DEVICE_TO_DEVICE, 3);
	ck_assert_int_eq(ACL_MEMCPY_DEFAULT, 4);
	ck_assert_int_eq(ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE, 5);
	ck_assert_int_eq(ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, 6);
	ck_assert_int_eq(ACL_MEMCPY_INTER_DEVICE_TO_DEVICE, 7);
}
END_TEST

START_TEST(test_aclrtMemMallocPolicy_values_match_cann)
{
	ck_assert_int_eq(ACL_MEM_MALLOC_HUGE_FIRST, 0);
	ck_assert_int_eq(ACL_MEM_MALLOC_HUGE_ONLY, 1);
	ck_assert_int_eq(ACL_MEM_MALLOC_NORMAL_ONLY, 2);
	ck_assert_int_eq(ACL_MEM_MALLOC_HUGE_FIRST_P2P, 3);
	ck_assert_int_eq(ACL_MEM_MALLOC_HUGE_ONLY_P2P, 4);
	ck_assert_int_eq(ACL_MEM_MALLOC_NORMAL_ONLY_P2P, 5);
	ck_assert_int_eq(ACL_MEM_MALLOC_HUGE1G_ONLY, 6);
	ck_assert_int_eq(ACL_MEM_MALLOC_HUGE1G_ONLY_P2P, 7);
	ck_assert_int_eq(ACL_MEM_TYPE_LOW_BAND_WIDTH, 0x100);
	ck_assert_int_eq(ACL_MEM_TYPE_HIGH_BAND_WIDTH, 0x1000);
	ck_assert_int_eq(ACL_MEM_ACCESS_USER_SPACE_READONLY, 0x100000);
}
END_TEST

START_TEST(test_event_and_stream_flags_match_cann)
{
	ck_assert_uint_eq(ACL_EVENT_SYNC, 0x1);
	ck_assert_uint_eq(ACL_EVENT_CAPTURE_STREAM_PROGRESS, 0x2);
	ck_assert_uint_eq(ACL_EVENT_TIME_LINE, 0x8);
	ck_assert_uint_eq(ACL_EVENT_DEVICE_USE_ONLY, 0x10);
	ck_assert_uint_eq(ACL_EVENT_EXTERNAL, 0x20);
	ck_assert_uint_eq(ACL_EVENT_IPC, 0x40);
	ck_assert_uint_eq(ACL_STREAM_FAST_LAUNCH, 0x1);
	ck_assert_uint_eq(ACL_STREAM_FAST_SYNC, 0x2);
	ck_assert_uint_eq(ACL_STREAM_PERSISTENT, 0x4);
	ck_assert_uint_eq(ACL_STREAM_HUGE, 0x8);
	ck_assert_uint_eq(ACL_STREAM_CPU_SCHEDULE, 0x10);
	ck_assert_uint_eq(ACL_STREAM_DEVICE_USE_ONLY, 0x20);
	ck_assert_uint_eq(ACL_STOP_ON_FAILURE, 1);
	ck_assert_uint_eq(ACL_STREAM_WAIT_VALUE_NOR, 3);
	ck_assert_uint_eq(ACL_NOTIFY_DEVICE_USE_ONLY, 1);
}
END_TEST

START_TEST(test_host_register_values_match_cann)
{
	ck_assert_uint_eq(ACL_HOST_REG_MAPPED, 0x2);
	ck_assert_uint_eq(ACL_HOST_REG_IOMEMORY, 0x4);
	ck_assert_uint_eq(ACL_HOST_REG_READONLY, 0x8);
	ck_assert_uint_eq(ACL_HOST_REG_PINNED, 0x10000000);
	ck_assert_int_eq(ACL_HOST_REGISTER_MAPPED, 0);
	ck_assert_int_eq(ACL_HOST_REGISTER_IOMEMORY, 4);
	ck_assert_int_eq(ACL_HOST_REGISTER_READONLY, 8);
}
END_TEST

START_TEST(test_status_enums_match_cann)
{
	ck_assert_int_eq(ACL_HOST, 1);
	ck_assert_int_eq(ACL_EVENT_STATUS_COMPLETE, 0);
	ck_assert_int_eq(ACL_EVENT_RECORDED_STATUS_COMPLETE, 1);
	ck_assert_int_eq(ACL_STREAM_STATUS_NOT_READY, 1);
	ck_assert_int_eq(ACL_CALLBACK_BLOCK, 1);
	ck_assert_int_eq(ACL_MODEL_RI_CAPTURE_MODE_GLOBAL, 0);
	ck_assert_int_eq(ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL, 1);
	ck_assert_int_eq(ACL_MODEL_RI_CAPTURE_MODE_RELAXED, 2);
	ck_assert_int_eq(ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED, 2);
	ck_assert_int_eq(ACL_MEM_LOCATION_TYPE_DEVICE, 1);
	ck_assert_int_eq(ACL_MEM_LOCATION_TYPE_UNREGISTERED, 2);
	ck_assert_int_eq(ACL_RT_MEM_ATTR_DEVICE_ID, 2);
	ck_assert_int_eq(ACL_HBM_MEM_P2P_NORMAL, 9);
	ck_assert_int_eq(ACL_RT_STREAM_STATE_DESTROY_PRE, 2);
	ck_assert_int_eq(ACL_RT_ERROR_OTHERS, 0xFFFF);
}
END_TEST

START_TEST(test_struct_layouts_match_cann)
{
	ck_assert_uint_eq(sizeof(aclrtMemLocation), 8);
	ck_assert_uint_eq(sizeof(aclrtMemcpyBatchAttr), 32);
	ck_assert_uint_eq(offsetof(aclrtMemcpyBatchAttr, srcLoc), 8);
	ck_assert_uint_eq(sizeof(aclrtPtrAttributes), 28);
	ck_assert_uint_eq(offsetof(aclrtPtrAttributes, pageSize), 8);
	ck_assert_uint_eq(sizeof(aclrtMallocAttrValue), 8);
	ck_assert_uint_eq(sizeof(aclrtMallocAttribute), 12);
	ck_assert_uint_eq(offsetof(aclrtErrorInfo, detail), 8);
	if (sizeof(void *) == 8) {
		ck_assert_uint_eq(sizeof(aclrtMallocConfig), 16);
		ck_assert_uint_eq(sizeof(aclrtStreamConfigHandle), 32);
		ck_assert_uint_eq(sizeof(aclrtMemUceInfo), 128);
		ck_assert_uint_eq(sizeof(aclrtErrorInfo), 2576);
	}
}
END_TEST

START_TEST(test_version_is_1_17_0)
{
	ck_assert_int_eq(ACL_MAJOR_VERSION, 1);
	ck_assert_int_eq(ACL_MINOR_VERSION, 17);
	ck_assert_int_eq(ACL_PATCH_VERSION, 0);
}
END_TEST

static Suite *acl_headers_suite(void)
{
	Suite *s = suite_create("acl_headers");
	TCase *tc;

	tc = tcase_create("error_codes");
	tcase_add_test(tc, test_ACL_SUCCESS_is_zero);
	tcase_add_test(tc, test_acl_error_codes_match_cann);
	tcase_add_test(tc, test_rt_error_codes_match_cann);
	suite_add_tcase(s, tc);

	tc = tcase_create("enums_and_flags");
	tcase_add_test(tc, test_aclrtMemcpyKind_values_match_cann);
	tcase_add_test(tc, test_aclrtMemMallocPolicy_values_match_cann);
	tcase_add_test(tc, test_event_and_stream_flags_match_cann);
	tcase_add_test(tc, test_host_register_values_match_cann);
	tcase_add_test(tc, test_status_enums_match_cann);
	tcase_add_test(tc, test_version_is_1_17_0);
	suite_add_tcase(s, tc);

	tc = tcase_create("layouts");
	tcase_add_test(tc, test_struct_layouts_match_cann);
	suite_add_tcase(s, tc);

	return s;
}

int main(void)
{
	return t_run_suite(acl_headers_suite());
}
