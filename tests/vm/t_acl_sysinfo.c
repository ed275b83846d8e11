// SPDX-License-Identifier: GPL-2.0-only
/*
 * libacl's device and system queries in the guest, on every NPU (two
 * edu, two sim by default): each answer checked against what the driver
 * itself says, read here another way (its GET_INFO ioctl on the node,
 * its sysfs attributes, the bus device's place in sysfs, the module's
 * version), what an NPU lacks refused with 207000, bad arguments with
 * CANN's codes and a message naming them.
 */
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <drm/npu_dma_accel.h>

#include "npu_node.h"
#include "t_acl.h"

/* What the driver says about NPU @i, gathered without libacl. */
struct npu_truth {
	struct npu_dma_info info;	/* GET_INFO on its node */
	char backend[16];		/* sysfs backend */
	uint64_t mem_size;		/* sysfs mem_size */
	uint64_t index;			/* sysfs npu_index */
	bool pci;			/* its bus device is on the PCI bus */
	char bus_name[64];		/* the bus device's name in sysfs */
};

static void truth_of(int i, struct npu_truth *t)
{
	char path[PATH_MAX], real[PATH_MAX], buf[32];
	struct npu_node n;
	int fd;

	memset(t, 0, sizeof(*t));
	ck_assert_msg(t_npu_find(i, &n), "NPU %d not in sysfs", i);
	fd = npu_node_open(i, O_RDWR | O_CLOEXEC);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ioctl(fd, DRM_IOCTL_NPU_DMA_GET_INFO, &t->info), 0);
	close(fd);
	ck_assert_int_eq(t_npu_attr(i, "backend", t->backend,
				    sizeof(t->backend)), 0);
	ck_assert_int_eq(t_npu_attr(i, "mem_size", buf, sizeof(buf)), 0);
	ck_assert_int_eq(t_parse_u64(buf, &t->mem_size), 0);
	ck_assert_int_eq(t_npu_attr(i, "npu_index", buf, sizeof(buf)), 0);
	ck_assert_int_eq(t_parse_u64(buf, &t->index), 0);
	ck_assert_ptr_nonnull(realpath(n.sysdir, real));
	snprintf(t->bus_name, sizeof(t->bus_name), "%s", strrchr(real, '/') + 1);
	snprintf(path, sizeof(path), "%s/subsystem", n.sysdir);
	ck_assert_ptr_nonnull(realpath(path, real));
	t->pci = !strcmp(strrchr(real, '/') + 1, "pci");
}

/* Open file descriptors of this process. */
static int fd_count(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *de;
	int n = 0;

	ck_assert_ptr_nonnull(d);
	while ((de = readdir(d)))
		n += de->d_name[0] != '.';
	closedir(d);
	return n;
}

static uint32_t npu_count(void)
{
	uint32_t n = 0;

	T_ACL_OK(aclrtGetDeviceCount(&n));
	ck_assert_uint_ge(n, 1);
	if (n < 4)
		printf("only %u NPUs (want 2 edu + 2 sim)\n", n);
	return n;
}

/* The attributes of every NPU, none of them set: nothing left open. */
START_TEST(test_aclrtGetDeviceInfo_every_npu)
{
	uint32_t i, n = npu_count();
	int fds = fd_count();
	struct npu_truth t;
	int64_t v;

	for (i = 0; i < n; i++) {
		truth_of((int)i, &t);
		ck_assert_uint_eq(t.info.index, t.index);
		T_ACL_OK(aclrtGetDeviceInfo(i, ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE,
					    &v));
		ck_assert_uint_eq((uint64_t)v, t.mem_size);
		ck_assert_uint_eq((uint64_t)v, t.info.mem_size);
		T_ACL_OK(aclrtGetDeviceInfo(i, ACL_DEV_ATTR_PHY_CHIP_ID, &v));
		ck_assert_uint_eq((uint64_t)v, t.index);
		T_ACL_OK(aclrtGetDeviceInfo(i, ACL_DEV_ATTR_IS_VIRTUAL, &v));
		ck_assert_int_eq(v, 0);
		if (t.pci) {
			T_ACL_OK(aclrtGetDeviceInfo(i, ACL_DEV_ATTR_HD_CONNECT_TYPE,
						    &v));
			ck_assert_int_eq(v, ACL_HOST_DEVICE_CONNECT_TYPE_PCIE);
			T_ACL_OK(aclrtGetDeviceInfo(i,
					ACL_DEV_ATTR_DEVICE_FORM_FACTOR, &v));
			ck_assert_int_eq(v, ACL_DEVICE_FORM_FACTOR_PCIE_CARD);
		} else {
			v = -7;
			T_ACL_EQ(aclrtGetDeviceInfo(i, ACL_DEV_ATTR_HD_CONNECT_TYPE,
						    &v),
				 ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
			t_acl_msg_has("by no bus");
			ck_assert_int_eq(v, -7);
		}
		T_ACL_EQ(aclrtGetDeviceInfo(i, ACL_DEV_ATTR_AICORE_CORE_NUM, &v),
			 ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
		t_acl_msg_has(t.backend);
		T_ACL_EQ(aclrtGetDeviceInfo(i, ACL_DEV_ATTR_L2_CACHE_SIZE, &v),
			 ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
		t_acl_msg_has("ACL_DEV_ATTR_L2_CACHE_SIZE");
		T_ACL_EQ(aclGetDeviceCapability(i, ACL_DEVICE_INFO_AI_CORE_NUM,
						&v),
			 ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
	}
	ck_assert_int_eq(fd_count(), fds);
	T_ACL_EQ(aclrtGetDeviceInfo(n, ACL_DEV_ATTR_PHY_CHIP_ID, &v),
		 ACL_ERROR_RT_INVALID_DEVICEID);
	t_acl_msg_has("deviceId=");
	T_ACL_EQ(aclrtGetDeviceInfo(0, (aclrtDevAttr)0, &v),
		 ACL_ERROR_RT_PARAM_INVALID);
	t_acl_msg_has("attr=0");
	T_ACL_EQ(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_PHY_CHIP_ID, NULL),
		 ACL_ERROR_INVALID_PARAM);
	t_acl_msg_has("value is NULL");
	T_ACL_EQ(aclGetDeviceCapability(n, ACL_DEVICE_INFO_L2_SIZE, &v),
		 ACL_ERROR_INVALID_PARAM);
	T_ACL_EQ(aclGetDeviceCapability(0, (aclDeviceInfo)3, &v),
		 ACL_ERROR_INVALID_PARAM);
	t_acl_msg_has("deviceInfo=3");
}
END_TEST

/* The same answers through the file of a device that is set. */
START_TEST(test_set_device_answers_the_same)
{
	uint32_t i, n = npu_count();
	struct npu_truth t;
	int64_t v;

	for (i = 0; i < n; i++) {
		truth_of((int)i, &t);
		T_ACL_OK(aclrtSetDevice((int32_t)i));
		T_ACL_OK(aclrtGetDeviceInfo(i, ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE,
					    &v));
		ck_assert_uint_eq((uint64_t)v, t.info.mem_size);
		T_ACL_OK(aclrtResetDevice((int32_t)i));
	}
}
END_TEST

START_TEST(test_aclrtGetSocName_says_what_the_npu_is)
{
	uint32_t i, n = npu_count();
	struct npu_truth t;
	char want[32];
	const char *s;

	truth_of(0, &t);
	snprintf(want, sizeof(want), "npu_dma_%s", t.backend);
	s = aclrtGetSocName();		/* no device set: device 0's */
	ck_assert_msg(s && !strcmp(s, want), "SoC \"%s\", want \"%s\"",
		      s ? s : "(null)", want);
	for (i = 0; i < n; i++) {
		truth_of((int)i, &t);
		snprintf(want, sizeof(want), "npu_dma_%s", t.backend);
		T_ACL_OK(aclrtSetDevice((int32_t)i));
		s = aclrtGetSocName();
		ck_assert_msg(s && !strcmp(s, want), "NPU %u: SoC \"%s\", want \"%s\"",
			      i, s ? s : "(null)", want);
		T_ACL_OK(aclrtResetDevice((int32_t)i));
	}
}
END_TEST

/* Features of compute NPUs: not these; code built for a SoC: its own only. */
START_TEST(test_features_and_arch)
{
	uint32_t i, n = npu_count();
	struct npu_truth t;
	char soc[32];
	int32_t v;

	for (i = 0; i < n; i++) {
		truth_of((int)i, &t);
		v = -1;
		T_ACL_OK(aclrtGetDeviceCapability((int32_t)i,
				ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV, &v));
		ck_assert_int_eq(v, ACL_DEV_FEATURE_NOT_SUPPORT);
		v = -1;
		T_ACL_OK(aclrtGetDeviceCapability((int32_t)i,
				ACL_FEATURE_SYSTEM_MEMQ_EVENT_CROSS_DEV, &v));
		ck_assert_int_eq(v, ACL_DEV_FEATURE_NOT_SUPPORT);
		T_ACL_OK(aclrtSetDevice((int32_t)i));
		snprintf(soc, sizeof(soc), "npu_dma_%s", t.backend);
		T_ACL_OK(aclrtCheckArchCompatibility(soc, &v));
		ck_assert_int_eq(v, 1);
		T_ACL_OK(aclrtCheckArchCompatibility("Ascend910B1", &v));
		ck_assert_int_eq(v, 0);
		T_ACL_OK(aclrtResetDevice((int32_t)i));
	}
	T_ACL_EQ(aclrtGetDeviceCapability((int32_t)n,
			ACL_FEATURE_SYSTEM_MEMQ_EVENT_CROSS_DEV, &v),
		 ACL_ERROR_RT_INVALID_DEVICEID);
	T_ACL_EQ(aclrtGetDeviceCapability(0, (aclrtDevFeatureType)0, &v),
		 ACL_ERROR_RT_PARAM_INVALID);
	t_acl_msg_has("devFeatureType=0");
	T_ACL_EQ(aclrtCheckArchCompatibility(NULL, &v), ACL_ERROR_RT_PARAM_INVALID);
}
END_TEST

START_TEST(test_status_and_uuid)
{
	uint32_t i, n = npu_count();
	aclrtDeviceStatus st;
	struct npu_truth t;
	aclrtUuid u;

	for (i = 0; i < n; i++) {
		truth_of((int)i, &t);
		st = ACL_RT_DEVICE_STATUS_END;
		T_ACL_OK(aclrtQueryDeviceStatus((int32_t)i, &st));
		ck_assert_int_eq(st, ACL_RT_DEVICE_STATUS_NORMAL);
		T_ACL_EQ(aclrtDeviceGetUuid((int32_t)i, &u),
			 ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
		t_acl_msg_has(t.backend);
	}
	T_ACL_EQ(aclrtQueryDeviceStatus((int32_t)n, &st),
		 ACL_ERROR_RT_INVALID_DEVICEID);
	T_ACL_EQ(aclrtQueryDeviceStatus(0, NULL), ACL_ERROR_INVALID_PARAM);
	T_ACL_EQ(aclrtDeviceGetUuid(-1, &u), ACL_ERROR_RT_INVALID_DEVICEID);
	T_ACL_EQ(aclrtDeviceGetUuid(0, NULL), ACL_ERROR_INVALID_PARAM);
	t_acl_msg_has("uuid is NULL");
}
END_TEST

START_TEST(test_pci_bus_ids)
{
	uint32_t i, n = npu_count();
	char buf[32], attr[32];
	struct npu_truth t;
	int32_t id;
	int pci = 0;

	for (i = 0; i < n; i++) {
		truth_of((int)i, &t);
		if (!t.pci) {
			T_ACL_EQ(aclrtDeviceGetPCIBusId((int32_t)i, buf, sizeof(buf)),
				 ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
			t_acl_msg_has("not a PCI device");
			continue;
		}
		pci++;
		T_ACL_OK(aclrtDeviceGetPCIBusId((int32_t)i, buf, sizeof(buf)));
		ck_assert_str_eq(buf, t.bus_name);
		ck_assert_int_eq(t_npu_attr((int)i, "pci_address", attr,
					    sizeof(attr)), 0);
		ck_assert_str_eq(buf, attr);
		/* A buffer exactly long enough will do. */
		T_ACL_OK(aclrtDeviceGetPCIBusId((int32_t)i, buf,
						(int32_t)strlen(attr) + 1));
		T_ACL_OK(aclrtDeviceGetByPCIBusId(attr, &id));
		ck_assert_int_eq(id, (int)i);
	}
	if (!pci)
		t_skip("no PCI NPU: lookups by address");
	T_ACL_EQ(aclrtDeviceGetPCIBusId(0, buf, 12), ACL_ERROR_RT_PARAM_INVALID);
	t_acl_msg_has("len=12");
	T_ACL_EQ(aclrtDeviceGetPCIBusId(-1, buf, 16),
		 ACL_ERROR_RT_INVALID_DEVICEID);
	T_ACL_EQ(aclrtDeviceGetPCIBusId((int32_t)n, buf, 16),
		 ACL_ERROR_RT_INVALID_DEVICEID);
	T_ACL_EQ(aclrtDeviceGetPCIBusId(0, NULL, 16), ACL_ERROR_INVALID_PARAM);
	T_ACL_EQ(aclrtDeviceGetByPCIBusId("ffff:ff:1f.7", &id),
		 ACL_ERROR_RT_PARAM_INVALID);
	t_acl_msg_has("ffff:ff:1f.7");
	T_ACL_EQ(aclrtDeviceGetByPCIBusId(NULL, &id), ACL_ERROR_INVALID_PARAM);
	T_ACL_EQ(aclrtDeviceGetByPCIBusId("0000:00:04.0", NULL),
		 ACL_ERROR_INVALID_PARAM);
}
END_TEST

/* Without ASCEND_RT_VISIBLE_DEVICES, user id i is NPU i. */
START_TEST(test_id_conversions)
{
	uint32_t i, n = npu_count();
	struct npu_truth t;
	int32_t v;

	for (i = 0; i < n; i++) {
		truth_of((int)i, &t);
		T_ACL_OK(aclrtGetLogicDevIdByUserDevId((int32_t)i, &v));
		ck_assert_uint_eq((uint64_t)v, t.index);
		T_ACL_OK(aclrtGetPhyDevIdByUserDevId((int32_t)i, &v));
		ck_assert_uint_eq((uint64_t)v, t.index);
		T_ACL_OK(aclrtGetPhyDevIdByLogicDevId((int32_t)t.index, &v));
		ck_assert_uint_eq((uint64_t)v, t.index);
		T_ACL_OK(aclrtGetLogicDevIdByPhyDevId((int32_t)t.index, &v));
		ck_assert_uint_eq((uint64_t)v, t.index);
		T_ACL_OK(aclrtGetUserDevIdByLogicDevId((int32_t)t.index, &v));
		ck_assert_int_eq(v, (int)i);
		T_ACL_OK(aclrtGetUserDevIdByPhyDevId((int32_t)t.index, &v));
		ck_assert_int_eq(v, (int)i);
	}
	T_ACL_EQ(aclrtGetPhyDevIdByLogicDevId(63, &v),
		 ACL_ERROR_RT_INVALID_DEVICEID);
	t_acl_msg_has("no such NPU");
	T_ACL_EQ(aclrtGetLogicDevIdByUserDevId((int32_t)n, &v),
		 ACL_ERROR_RT_INVALID_DEVICEID);
	T_ACL_EQ(aclrtGetUserDevIdByPhyDevId(-1, &v), ACL_ERROR_RT_PARAM_INVALID);
	t_acl_msg_has("phyDevId=-1");
	T_ACL_EQ(aclrtGetLogicDevIdByPhyDevId(0, NULL), ACL_ERROR_INVALID_PARAM);
	t_acl_msg_has("logicDevId is NULL");
}
END_TEST

/* ASCEND_RT_VISIBLE_DEVICES=<last>,<first>: user ids 0, 1 swap NPUs. */
START_TEST(test_id_conversions_with_visible_devices)
{
	uint32_t n = npu_count();
	struct npu_truth first, last;
	char env[32];
	int64_t chip;
	int32_t v;

	if (n < 3)
		return;
	truth_of(0, &first);
	truth_of((int)n - 1, &last);
	T_ACL_OK(aclInit(NULL));
	T_ACL_OK(aclFinalize());	/* forget the enumeration */
	snprintf(env, sizeof(env), "%u,%u", (unsigned int)last.index,
		 (unsigned int)first.index);
	setenv("ASCEND_RT_VISIBLE_DEVICES", env, 1);
	T_ACL_OK(aclrtGetLogicDevIdByUserDevId(0, &v));
	ck_assert_uint_eq((uint64_t)v, last.index);
	T_ACL_OK(aclrtGetUserDevIdByPhyDevId((int32_t)first.index, &v));
	ck_assert_int_eq(v, 1);
	/* NPU 1 is there but hidden: a logic id without a user id. */
	T_ACL_OK(aclrtGetPhyDevIdByLogicDevId(1, &v));
	ck_assert_int_eq(v, 1);
	T_ACL_EQ(aclrtGetUserDevIdByLogicDevId(1, &v),
		 ACL_ERROR_RT_INVALID_DEVICEID);
	t_acl_msg_has("not visible");
	/* And the device queries follow the user ids. */
	T_ACL_OK(aclrtGetDeviceInfo(0, ACL_DEV_ATTR_PHY_CHIP_ID, &chip));
	ck_assert_uint_eq((uint64_t)chip, last.index);
	unsetenv("ASCEND_RT_VISIBLE_DEVICES");
}
END_TEST

/* "driver" is the loaded module's version, "runtime" this release. */
START_TEST(test_versions)
{
	char s[ACL_PKG_VERSION_MAX_SIZE], mod[64];
	char driver[] = "driver", runtime[] = "runtime", opp[] = "opp";
	unsigned int ma, mi, pa;
	int32_t num, a, b, c;

	ck_assert_int_eq(t_read_attr(mod, sizeof(mod),
				     "/sys/module/npu_dma/version"), 0);
	T_ACL_OK(aclsysGetVersionStr(driver, s));
	ck_assert_str_eq(s, mod);
	ck_assert_int_eq(sscanf(mod, "%u.%u.%u", &ma, &mi, &pa), 3);
	T_ACL_OK(aclsysGetVersionNum(driver, &num));
	ck_assert_int_eq(num, (int32_t)(ma * 10000000 + mi * 100000 + pa * 1000));
	T_ACL_OK(aclsysGetVersionStr(runtime, s));
	ck_assert_str_eq(s, NPU_DMA_VERSION);
	T_ACL_EQ(aclsysGetVersionStr(opp, s), ACL_ERROR_INVALID_FILE);
	t_acl_msg_has("pkgName=\"opp\"");
	T_ACL_EQ(aclsysGetVersionNum(runtime, NULL), ACL_ERROR_INVALID_PARAM);
	T_ACL_EQ(aclsysGetVersionStr(NULL, s), ACL_ERROR_INVALID_PARAM);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
	T_ACL_OK(aclrtGetVersion(&a, &b, &c));
	ck_assert_int_eq(a, ACL_MAJOR_VERSION);
	ck_assert_int_eq(b, ACL_MINOR_VERSION);
	ck_assert_int_eq(c, ACL_PATCH_VERSION);
	T_ACL_EQ(aclrtGetVersion(NULL, &b, &c), ACL_ERROR_INVALID_PARAM);
#pragma GCC diagnostic pop
}
END_TEST

START_TEST(test_cann_attributes)
{
	static const aclCannAttr attrs[] = {
		ACL_CANN_ATTR_INF_NAN, ACL_CANN_ATTR_BF16,
		ACL_CANN_ATTR_JIT_COMPILE,
	};
	const aclCannAttr *list = NULL;
	size_t num = 99, i;
	int32_t v;

	T_ACL_OK(aclGetCannAttributeList(&list, &num));
	ck_assert_ptr_nonnull(list);
	ck_assert_uint_eq(num, 0);
	for (i = 0; i < sizeof(attrs) / sizeof(attrs[0]); i++) {
		v = -1;
		T_ACL_OK(aclGetCannAttribute(attrs[i], &v));
		ck_assert_int_eq(v, 0);
	}
	T_ACL_EQ(aclGetCannAttribute((aclCannAttr)3, &v), ACL_ERROR_INVALID_PARAM);
	t_acl_msg_has("cannAttr=3");
	T_ACL_EQ(aclGetCannAttribute(ACL_CANN_ATTR_BF16, NULL),
		 ACL_ERROR_INVALID_PARAM);
	T_ACL_EQ(aclGetCannAttributeList(&list, NULL), ACL_ERROR_INVALID_PARAM);
}
END_TEST

static Suite *acl_sysinfo_suite(void)
{
	Suite *s = suite_create("t_acl_sysinfo");
	TCase *tc = tcase_create("sysinfo");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_aclrtGetDeviceInfo_every_npu);
	tcase_add_test(tc, test_set_device_answers_the_same);
	tcase_add_test(tc, test_aclrtGetSocName_says_what_the_npu_is);
	tcase_add_test(tc, test_features_and_arch);
	tcase_add_test(tc, test_status_and_uuid);
	tcase_add_test(tc, test_pci_bus_ids);
	tcase_add_test(tc, test_id_conversions);
	tcase_add_test(tc, test_id_conversions_with_visible_devices);
	tcase_add_test(tc, test_versions);
	tcase_add_test(tc, test_cann_attributes);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	unsetenv("ASCEND_RT_VISIBLE_DEVICES");
	return t_run_suite(acl_sysinfo_suite());
}
