// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of libacl's device and system queries (lib/acl_sysinfo.c,
 * lib/acl_version.c) against fake NPUs: answers come from what the
 * command layer reports (GET_INFO, the pci_address attribute, the
 * module version), nodes opened for a question are closed again, ids
 * follow ASCEND_RT_VISIBLE_DEVICES, and what an NPU lacks is refused.
 */
#include <check.h>
#include <errno.h>
#include <stdlib.h>

#include "acl_fake.h"
#include "acl_ut.h"
#include "t_check.h"

/* Fake NPU 0: an edu card at 0000:00:04.0; NPU 1: a sim NPU of 64 MiB. */
static void add_edu_and_sim(void)
{
	struct fake_npu_cfg edu = { .index = 0, .edu = true,
				    .pci_address = "0000:00:04.0" };
	struct fake_npu_cfg sim = { .index = 1, .mem_size = 64ULL << 20 };

	ck_assert_int_eq(fake_npu_add(&edu), 0);
	ck_assert_int_eq(fake_npu_add(&sim), 0);
}

START_TEST(test_aclrtGetSocName_names_the_backend)
{
	const char *name;

	add_edu_and_sim();
	name = aclrtGetSocName();		/* no context: device 0 */
	ck_assert_str_eq(name, "npu_dma_edu");
	set_device(1);
	ck_assert_str_eq(aclrtGetSocName(), "npu_dma_sim");
	/* Asking did not leave device 0's node open. */
	ck_assert_uint_eq(fake_npu_files(0), 0);
}
END_TEST

/* (The NPUs are probed once per process: this one never has any.) */
START_TEST(test_aclrtGetSocName_without_npu)
{
	ck_assert_ptr_null(aclrtGetSocName());
	msg_has("no NPU");
}
END_TEST

START_TEST(test_aclrtGetDeviceInfo_answers_from_the_driver)
{
	int64_t v = -1;

	add_edu_and_sim();
	ck_assert_int_eq(aclrtGetDeviceInfo(1, ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE,
					    &v), ACL_SUCCESS);
	ck_assert_int_eq(v, 64LL << 20);
	ck_assert_int_eq(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_PHY_CHIP_ID, &v),
			 ACL_SUCCESS);
	ck_assert_int_eq(v, 0);
	ck_assert_int_eq(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_HD_CONNECT_TYPE, &v),
			 ACL_SUCCESS);
	ck_assert_int_eq(v, ACL_HOST_DEVICE_CONNECT_TYPE_PCIE);
	ck_assert_int_eq(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_DEVICE_FORM_FACTOR,
					    &v), ACL_SUCCESS);
	ck_assert_int_eq(v, ACL_DEVICE_FORM_FACTOR_PCIE_CARD);
	/* A sim NPU hangs on no bus. */
	v = 77;
	ck_assert_int_eq(aclrtGetDeviceInfo(1, ACL_DEV_ATTR_HD_CONNECT_TYPE, &v),
			 ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	msg_has("attached to the host by no bus");
	ck_assert_int_eq(v, 77);
	ck_assert_int_eq(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_AICORE_CORE_NUM, &v),
			 ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	msg_has("ACL_DEV_ATTR_AICORE_CORE_NUM");
	ck_assert_int_eq(aclrtGetDeviceInfo(0, (aclrtDevAttr)300, &v),
			 ACL_ERROR_RT_PARAM_INVALID);
	msg_has("attr=300");
	ck_assert_int_eq(aclrtGetDeviceInfo(2, ACL_DEV_ATTR_PHY_CHIP_ID, &v),
			 ACL_ERROR_RT_INVALID_DEVICEID);
	ck_assert_int_eq(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_PHY_CHIP_ID, NULL),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_uint_eq(fake_npu_files(0) + fake_npu_files(1), 0);
}
END_TEST

START_TEST(test_open_device_is_asked_through_its_own_file)
{
	unsigned int opens;
	int64_t v;

	add_edu_and_sim();
	set_device(1);
	opens = fake_kmd_calls(FAKE_OPEN);
	ck_assert_int_eq(aclrtGetDeviceInfo(1, ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE,
					    &v), ACL_SUCCESS);
	ck_assert_uint_eq(fake_kmd_calls(FAKE_OPEN), opens);
	ck_assert_uint_eq(fake_npu_files(1), 1);
	/* A GET_INFO failing now is the call's failure. */
	fake_kmd_fail_next(FAKE_GET_INFO, -EIO);
	ck_assert_int_eq(aclrtGetDeviceInfo(1, ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE,
					    &v), ACL_ERROR_RT_SYS_DMA);
	msg_has("GET_INFO");
}
END_TEST

START_TEST(test_aclrtQueryDeviceStatus)
{
	aclrtDeviceStatus st = ACL_RT_DEVICE_STATUS_END;

	add_edu_and_sim();
	ck_assert_int_eq(aclrtQueryDeviceStatus(1, &st), ACL_SUCCESS);
	ck_assert_int_eq(st, ACL_RT_DEVICE_STATUS_NORMAL);
	set_device(1);
	fake_kmd_fail_next(FAKE_GET_INFO, -ENODEV);	/* the NPU went away */
	ck_assert_int_eq(aclrtQueryDeviceStatus(1, &st), ACL_SUCCESS);
	ck_assert_int_eq(st, ACL_RT_DEVICE_STATUS_ABNORMAL);
	ck_assert_int_eq(aclrtQueryDeviceStatus(1, &st), ACL_SUCCESS);
	ck_assert_int_eq(st, ACL_RT_DEVICE_STATUS_NORMAL);
	ck_assert_int_eq(aclrtQueryDeviceStatus(-1, &st),
			 ACL_ERROR_RT_INVALID_DEVICEID);
	ck_assert_int_eq(aclrtQueryDeviceStatus(0, NULL), ACL_ERROR_INVALID_PARAM);
	msg_has("deviceStatus is NULL");
}
END_TEST

START_TEST(test_pci_bus_id_both_ways)
{
	char buf[16];
	int32_t id = -1;

	add_edu_and_sim();
	ck_assert_int_eq(aclrtDeviceGetPCIBusId(0, buf, sizeof(buf)), ACL_SUCCESS);
	ck_assert_str_eq(buf, "0000:00:04.0");
	ck_assert_int_eq(aclrtDeviceGetPCIBusId(0, buf, 12),
			 ACL_ERROR_RT_PARAM_INVALID);
	msg_has("len=12");
	ck_assert_int_eq(aclrtDeviceGetPCIBusId(1, buf, sizeof(buf)),
			 ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	msg_has("not a PCI device");
	ck_assert_int_eq(aclrtDeviceGetPCIBusId(-1, buf, sizeof(buf)),
			 ACL_ERROR_RT_INVALID_DEVICEID);
	ck_assert_int_eq(aclrtDeviceGetPCIBusId(0, NULL, 16),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclrtDeviceGetByPCIBusId("0000:00:04.0", &id),
			 ACL_SUCCESS);
	ck_assert_int_eq(id, 0);
	ck_assert_int_eq(aclrtDeviceGetByPCIBusId("0000:00:05.0", &id),
			 ACL_ERROR_RT_PARAM_INVALID);
	msg_has("0000:00:05.0");
	ck_assert_int_eq(aclrtDeviceGetByPCIBusId(NULL, &id),
			 ACL_ERROR_INVALID_PARAM);
	ck_assert_uint_eq(fake_npu_files(0) + fake_npu_files(1), 0);
}
END_TEST

START_TEST(test_uuid_is_not_known)
{
	aclrtUuid u;

	add_edu_and_sim();
	ck_assert_int_eq(aclrtDeviceGetUuid(1, &u),
			 ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	msg_has("NPU 1 (sim)");
	ck_assert_int_eq(aclrtDeviceGetUuid(5, &u), ACL_ERROR_RT_INVALID_DEVICEID);
	ck_assert_int_eq(aclrtDeviceGetUuid(0, NULL), ACL_ERROR_INVALID_PARAM);
}
END_TEST

/* Visible devices 2,0 of NPUs 0..2: user 0 = NPU 2, user 1 = NPU 0. */
START_TEST(test_id_conversions_follow_visible_devices)
{
	int32_t v = -1;

	fake_add_index(0);
	fake_add_index(1);
	fake_add_index(2);
	setenv("ASCEND_RT_VISIBLE_DEVICES", "2,0", 1);
	ck_assert_int_eq(aclrtGetLogicDevIdByUserDevId(0, &v), ACL_SUCCESS);
	ck_assert_int_eq(v, 2);
	ck_assert_int_eq(aclrtGetPhyDevIdByUserDevId(1, &v), ACL_SUCCESS);
	ck_assert_int_eq(v, 0);
	ck_assert_int_eq(aclrtGetUserDevIdByLogicDevId(2, &v), ACL_SUCCESS);
	ck_assert_int_eq(v, 0);
	ck_assert_int_eq(aclrtGetUserDevIdByPhyDevId(0, &v), ACL_SUCCESS);
	ck_assert_int_eq(v, 1);
	/* NPU 1 exists but is hidden: it has logic and physical ids only. */
	ck_assert_int_eq(aclrtGetPhyDevIdByLogicDevId(1, &v), ACL_SUCCESS);
	ck_assert_int_eq(v, 1);
	ck_assert_int_eq(aclrtGetLogicDevIdByPhyDevId(1, &v), ACL_SUCCESS);
	ck_assert_int_eq(v, 1);
	ck_assert_int_eq(aclrtGetUserDevIdByLogicDevId(1, &v),
			 ACL_ERROR_RT_INVALID_DEVICEID);
	msg_has("not visible");
	ck_assert_int_eq(aclrtGetLogicDevIdByPhyDevId(3, &v),
			 ACL_ERROR_RT_INVALID_DEVICEID);
	msg_has("no such NPU");
	ck_assert_int_eq(aclrtGetLogicDevIdByUserDevId(2, &v),
			 ACL_ERROR_RT_INVALID_DEVICEID);
	ck_assert_int_eq(aclrtGetPhyDevIdByLogicDevId(-1, &v),
			 ACL_ERROR_RT_PARAM_INVALID);
	msg_has("logicDevId=-1");
	ck_assert_int_eq(aclrtGetUserDevIdByPhyDevId(0, NULL),
			 ACL_ERROR_INVALID_PARAM);
	unsetenv("ASCEND_RT_VISIBLE_DEVICES");
}
END_TEST

START_TEST(test_versions)
{
	char s[ACL_PKG_VERSION_MAX_SIZE];
	int32_t n = -1, ma, mi, pa;

	ck_assert_int_eq(aclsysGetVersionStr("runtime", s), ACL_SUCCESS);
	ck_assert_str_eq(s, NPU_DMA_VERSION);
	fake_kmd_driver_version("8.5.0-rc2");
	ck_assert_int_eq(aclsysGetVersionStr("driver", s), ACL_SUCCESS);
	ck_assert_str_eq(s, "8.5.0-rc2");
	ck_assert_int_eq(aclsysGetVersionNum("driver", &n), ACL_SUCCESS);
	ck_assert_int_eq(n, 80500000 - 100 + 2);
	fake_kmd_driver_version("1.2.3");
	ck_assert_int_eq(aclsysGetVersionNum("driver", &n), ACL_SUCCESS);
	ck_assert_int_eq(n, 10203000);
	fake_kmd_driver_version("1.2.3alpha");
	ck_assert_int_eq(aclsysGetVersionNum("driver", &n), ACL_SUCCESS);
	ck_assert_int_eq(n, 10203000 - 300);
	fake_kmd_driver_version("1.2");
	ck_assert_int_eq(aclsysGetVersionNum("driver", &n),
			 ACL_ERROR_INTERNAL_ERROR);
	msg_has("\"1.2\"");
	fake_kmd_driver_version("1.2.3-foo");
	ck_assert_int_eq(aclsysGetVersionNum("driver", &n),
			 ACL_ERROR_INTERNAL_ERROR);
	fake_kmd_driver_version(NULL);
	ck_assert_int_eq(aclsysGetVersionStr("driver", s), ACL_ERROR_INVALID_FILE);
	msg_has("not loaded");
	ck_assert_int_eq(aclsysGetVersionStr("opp", s), ACL_ERROR_INVALID_FILE);
	msg_has("pkgName=\"opp\"");
	ck_assert_int_eq(aclsysGetVersionStr(NULL, s), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclsysGetVersionNum("runtime", NULL),
			 ACL_ERROR_INVALID_PARAM);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
	ck_assert_int_eq(aclrtGetVersion(&ma, &mi, &pa), ACL_SUCCESS);
	ck_assert_int_eq(ma * 10000 + mi * 100 + pa, 11700);
	ck_assert_int_eq(aclrtGetVersion(&ma, NULL, &pa), ACL_ERROR_INVALID_PARAM);
#pragma GCC diagnostic pop
}
END_TEST

START_TEST(test_cann_attributes_are_unavailable)
{
	const aclCannAttr *list = NULL;
	size_t num = 9;
	int32_t v = -1;

	ck_assert_int_eq(aclGetCannAttributeList(&list, &num), ACL_SUCCESS);
	ck_assert_ptr_nonnull(list);
	ck_assert_uint_eq(num, 0);
	ck_assert_int_eq(aclGetCannAttribute(ACL_CANN_ATTR_BF16, &v), ACL_SUCCESS);
	ck_assert_int_eq(v, 0);
	ck_assert_int_eq(aclGetCannAttribute(ACL_CANN_ATTR_UNDEFINED, &v),
			 ACL_ERROR_INVALID_PARAM);
	msg_has("cannAttr=-1");
	ck_assert_int_eq(aclGetCannAttributeList(NULL, &num),
			 ACL_ERROR_INVALID_PARAM);
}
END_TEST

START_TEST(test_aclGetDeviceCapability)
{
	int64_t v = 5;

	add_edu_and_sim();
	ck_assert_int_eq(aclGetDeviceCapability(1, ACL_DEVICE_INFO_AI_CORE_NUM,
						&v),
			 ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	ck_assert_int_eq(v, 5);
	ck_assert_int_eq(aclGetDeviceCapability(2, ACL_DEVICE_INFO_L2_SIZE, &v),
			 ACL_ERROR_INVALID_PARAM);
	msg_has("deviceId=2");
	ck_assert_int_eq(aclGetDeviceCapability(0, ACL_DEVICE_INFO_UNDEFINED,
						&v), ACL_ERROR_INVALID_PARAM);
	ck_assert_int_eq(aclGetDeviceCapability(0, ACL_DEVICE_INFO_L2_SIZE,
						NULL), ACL_ERROR_INVALID_PARAM);
}
END_TEST

START_TEST(test_feature_and_arch_answers)
{
	int32_t v = -1;

	add_edu_and_sim();
	ck_assert_int_eq(aclrtGetDeviceCapability(1,
			ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV, &v),
			 ACL_SUCCESS);
	ck_assert_int_eq(v, ACL_DEV_FEATURE_NOT_SUPPORT);
	v = -1;
	ck_assert_int_eq(aclrtGetDeviceCapability(0,
			ACL_FEATURE_SYSTEM_MEMQ_EVENT_CROSS_DEV, &v), ACL_SUCCESS);
	ck_assert_int_eq(v, ACL_DEV_FEATURE_NOT_SUPPORT);
	ck_assert_int_eq(aclrtGetDeviceCapability(0, (aclrtDevFeatureType)2, &v),
			 ACL_ERROR_RT_PARAM_INVALID);
	msg_has("devFeatureType=2");
	ck_assert_int_eq(aclrtGetDeviceCapability(2,
			ACL_FEATURE_SYSTEM_MEMQ_EVENT_CROSS_DEV, &v),
			 ACL_ERROR_RT_INVALID_DEVICEID);
	ck_assert_int_eq(aclrtGetDeviceCapability(0,
			ACL_FEATURE_SYSTEM_MEMQ_EVENT_CROSS_DEV, NULL),
			 ACL_ERROR_INVALID_PARAM);
	set_device(1);
	ck_assert_int_eq(aclrtCheckArchCompatibility("npu_dma_sim", &v),
			 ACL_SUCCESS);
	ck_assert_int_eq(v, 1);
	ck_assert_int_eq(aclrtCheckArchCompatibility("npu_dma_edu", &v),
			 ACL_SUCCESS);
	ck_assert_int_eq(v, 0);
	ck_assert_int_eq(aclrtCheckArchCompatibility("", &v),
			 ACL_ERROR_RT_PARAM_INVALID);
	msg_has("aclrtCheckArchCompatibility");
	ck_assert_int_eq(aclrtCheckArchCompatibility("npu_dma_sim", NULL),
			 ACL_ERROR_RT_PARAM_INVALID);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("acl_sysinfo_fake");
	TCase *tc = tcase_create("queries");

	unsetenv("ASCEND_RT_VISIBLE_DEVICES");
	tcase_add_test(tc, test_aclrtGetSocName_names_the_backend);
	tcase_add_test(tc, test_aclrtGetSocName_without_npu);
	tcase_add_test(tc, test_aclrtGetDeviceInfo_answers_from_the_driver);
	tcase_add_test(tc, test_open_device_is_asked_through_its_own_file);
	tcase_add_test(tc, test_aclrtQueryDeviceStatus);
	tcase_add_test(tc, test_pci_bus_id_both_ways);
	tcase_add_test(tc, test_uuid_is_not_known);
	tcase_add_test(tc, test_id_conversions_follow_visible_devices);
	tcase_add_test(tc, test_versions);
	tcase_add_test(tc, test_cann_attributes_are_unavailable);
	tcase_add_test(tc, test_aclGetDeviceCapability);
	tcase_add_test(tc, test_feature_and_arch_answers);
	suite_add_tcase(s, tc);
	return t_run_suite(s);
}
