// SPDX-License-Identifier: MIT
/*
 * libacl: device queries: the SoC name, device attributes and
 * capabilities, status, identifiers (UUID, PCI address) and the three
 * kinds of device id.
 *
 * Every answer is something the driver reports about the NPU, asked
 * afresh at each call: GET_INFO, or one of the sysfs attributes it keeps
 * on the NPU's bus device. What CANN asks about that our NPUs do not
 * have, or that the driver does not know (compute cores, caches, super
 * pods, a unique id), is refused with ACL_ERROR_RT_FEATURE_NOT_SUPPORT
 * and a message saying so, never made up. A simulated NPU says what it
 * is: its SoC name is NPU_DMA_DRIVER_NAME "_sim".
 *
 * Ids: a user id is libacl's device id (the position in
 * ASCEND_RT_VISIBLE_DEVICES, or the NPU index without it); the logic id
 * and the physical id are both the driver's NPU index N (GET_INFO.index):
 * the driver numbers its NPUs once, and nothing between it and libacl
 * renumbers them (CANN's logic ids differ from physical ones inside
 * containers that see a subset of the chips).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "acl_objects.h"
#include "acl_error.h"
#include "acl_kmd.h"
#include "acl_device.h"

/* Shortest buffer aclrtDeviceGetPCIBusId() takes: "0000:00:00.0" and NUL. */
#define ACL_PCI_BUS_ID_MIN_LEN	13

/**
 * struct acl_sys_npu - one device being asked about
 * @dev: the device
 * @fd: a file of its node: the device's own while it is open, else one
 *	opened for the query
 * @own: @fd was opened for this query (acl_sys_end() closes it)
 * @info: GET_INFO's answer, taken when the query began
 */
struct acl_sys_npu {
	struct acl_device *dev;
	int fd;
	bool own;
	struct npu_dma_info info;
};

/*
 * Begin a query of device @id: on success acl_g.lock is held (nobody
 * opens or closes the device meanwhile) until acl_sys_end(). An
 * aclError, recorded, otherwise.
 */
static aclError acl_sys_begin(int32_t id, struct acl_sys_npu *n)
{
	aclError ret;
	int err;

	n->dev = acl_device_get(id);
	if (!n->dev)
		return ACL_ERROR_RT_INVALID_DEVICEID;
	pthread_mutex_lock(&acl_g.lock);
	if (acl_device_is_open(n->dev)) {
		n->fd = n->dev->fd;
		n->own = false;
		err = acl_kmd_get_info(n->fd, &n->info);
		if (!err)
			return ACL_SUCCESS;
		pthread_mutex_unlock(&acl_g.lock);
		return acl_err_sys(err, "DRM_IOCTL_NPU_DMA_GET_INFO");
	}
	ret = acl_node_open_locked(n->dev->phys, &n->fd, &n->info);
	if (ret) {
		pthread_mutex_unlock(&acl_g.lock);
		return ret;
	}
	n->own = true;
	return ACL_SUCCESS;
}

static void acl_sys_end(struct acl_sys_npu *n)
{
	if (n->own)
		acl_kmd_close(n->fd);
	pthread_mutex_unlock(&acl_g.lock);
}

/* The driver's name of a backend (its sysfs "backend"), or NULL. */
static const char *acl_sys_backend(uint32_t backend)
{
	switch (backend) {
	case NPU_DMA_BACKEND_EDU:
		return "edu";
	case NPU_DMA_BACKEND_SIM:
		return "sim";
	}
	return NULL;
}

/* For messages: "NPU 2 (sim)". */
static const char *acl_sys_what(const struct acl_sys_npu *n, char *buf,
				size_t size)
{
	const char *b = acl_sys_backend(n->info.backend);

	snprintf(buf, size, "NPU %u (%s)", n->info.index, b ? b : "unknown");
	return buf;
}

/*
 * The NPU's PCI address as the driver gives it (sysfs pci_address, on
 * PCI NPUs only): 0, -ENOENT for an NPU that is no PCI function, -errno.
 */
static int acl_sys_pci(const struct acl_sys_npu *n, char *buf, size_t size)
{
	return acl_kmd_attr(n->fd, "pci_address", buf, size);
}

/*
 * The device of the calling thread's current context, else logical
 * device 0 (the SoC is asked about without naming a device); -1 when
 * there is no NPU.
 */
static int32_t acl_sys_soc_device(void)
{
	struct acl_context *ctx = acl_tls.ctx;

	if (ctx && ctx->magic == ACL_CTX_MAGIC && acl_device_is_open(ctx->dev) &&
	    acl_tls.ctx_gen == ctx->dev->gen)
		return ctx->dev->id;
	return acl_device_count() ? 0 : -1;
}

/* The SoC name of the current (else the first) device: NULL, *@ret set. */
static const char *acl_sys_soc_name(aclError *ret)
{
	static const char *const names[] = {
		[NPU_DMA_BACKEND_EDU] = NPU_DMA_DRIVER_NAME "_edu",
		[NPU_DMA_BACKEND_SIM] = NPU_DMA_DRIVER_NAME "_sim",
	};
	struct acl_sys_npu n;
	const char *name = NULL;
	int32_t id = acl_sys_soc_device();

	if (id < 0) {
		*ret = acl_err(ACL_ERROR_RT_NO_DEVICE,
			       "no NPU, so no SoC to name");
		return NULL;
	}
	*ret = acl_sys_begin(id, &n);
	if (*ret)
		return NULL;
	if (n.info.backend < sizeof(names) / sizeof(names[0]))
		name = names[n.info.backend];
	else
		*ret = acl_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
			       "NPU %u has backend %u, unknown to this libacl",
			       n.info.index, n.info.backend);
	acl_sys_end(&n);
	return name;
}

/*
 * Which engines reach host memory mapped for the NPU (aclrtHostRegister):
 * its copy engine, the one kind it has, which stands for both the PCIe
 * DMA and the SDMA engines of a CANN device (edu's is a PCIe DMA engine;
 * a sim NPU's copies run in the driver). It has no AI cores, AI CPU,
 * task scheduler of its own, RDMA, DVPP, UDMA or CCU.
 */
ACL_FUNC_VISIBILITY aclError
aclrtHostMemMapCapabilities(uint32_t deviceId, aclrtHacType hacType,
			    aclrtHostMemMapCapability *capabilities)
{
	ACL_ENTER();
	if (!capabilities)
		return acl_err(ACL_ERROR_INVALID_PARAM, "capabilities is NULL");
	if ((unsigned int)hacType > ACL_RT_HAC_TYPE_CCU)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "hacType=%d is not an aclrtHacType", (int)hacType);
	if (!acl_current_ctx())
		return acl_err(ACL_ERROR_RT_CONTEXT_NULL,
			       "no current context: call aclrtSetDevice first");
	if (deviceId > INT32_MAX || !acl_device_get((int32_t)deviceId))
		return acl_err(ACL_ERROR_RT_INVALID_DEVICEID,
			       "deviceId=%u is not a device", deviceId);
	*capabilities = hacType == ACL_RT_HAC_TYPE_PCIEDMA ||
			hacType == ACL_RT_HAC_TYPE_SDMA ?
			ACL_RT_HOST_MEM_MAP_SUPPORTED :
			ACL_RT_HOST_MEM_MAP_NOT_SUPPORTED;
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY const char *aclrtGetSocName(void)
{
	aclError ret;

	ACL_ENTER();
	return acl_sys_soc_name(&ret);
}

/* CANN's device attributes, for validation and messages. */
static const struct acl_dev_attr_name {
	aclrtDevAttr attr;
	const char *name;
} acl_dev_attr_names[] = {
	{ ACL_DEV_ATTR_AICPU_CORE_NUM, "ACL_DEV_ATTR_AICPU_CORE_NUM" },
	{ ACL_DEV_ATTR_AICORE_CORE_NUM, "ACL_DEV_ATTR_AICORE_CORE_NUM" },
	{ ACL_DEV_ATTR_CUBE_CORE_NUM, "ACL_DEV_ATTR_CUBE_CORE_NUM" },
	{ ACL_DEV_ATTR_VECTOR_CORE_NUM, "ACL_DEV_ATTR_VECTOR_CORE_NUM" },
	{ ACL_DEV_ATTR_WARP_SIZE, "ACL_DEV_ATTR_WARP_SIZE" },
	{ ACL_DEV_ATTR_MAX_THREAD_PER_VECTOR_CORE,
	  "ACL_DEV_ATTR_MAX_THREAD_PER_VECTOR_CORE" },
	{ ACL_DEV_ATTR_UBUF_PER_VECTOR_CORE, "ACL_DEV_ATTR_UBUF_PER_VECTOR_CORE" },
	{ ACL_DEV_ATTR_MAX_GRID_DIM_X, "ACL_DEV_ATTR_MAX_GRID_DIM_X" },
	{ ACL_DEV_ATTR_MAX_GRID_DIM_Y, "ACL_DEV_ATTR_MAX_GRID_DIM_Y" },
	{ ACL_DEV_ATTR_MAX_GRID_DIM_Z, "ACL_DEV_ATTR_MAX_GRID_DIM_Z" },
	{ ACL_DEV_ATTR_MAX_BLOCK_PER_GRID, "ACL_DEV_ATTR_MAX_BLOCK_PER_GRID" },
	{ ACL_DEV_ATTR_MAX_THREADS_PER_BLOCK,
	  "ACL_DEV_ATTR_MAX_THREADS_PER_BLOCK" },
	{ ACL_DEV_ATTR_MAX_BLOCK_DIM_X, "ACL_DEV_ATTR_MAX_BLOCK_DIM_X" },
	{ ACL_DEV_ATTR_MAX_BLOCK_DIM_Y, "ACL_DEV_ATTR_MAX_BLOCK_DIM_Y" },
	{ ACL_DEV_ATTR_MAX_BLOCK_DIM_Z, "ACL_DEV_ATTR_MAX_BLOCK_DIM_Z" },
	{ ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE,
	  "ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE" },
	{ ACL_DEV_ATTR_L2_CACHE_SIZE, "ACL_DEV_ATTR_L2_CACHE_SIZE" },
	{ ACL_DEV_ATTR_SMP_ID, "ACL_DEV_ATTR_SMP_ID" },
	{ ACL_DEV_ATTR_PHY_CHIP_ID, "ACL_DEV_ATTR_PHY_CHIP_ID" },
	{ ACL_DEV_ATTR_SUPER_POD_DEVICE_ID, "ACL_DEV_ATTR_SUPER_POD_DEVICE_ID" },
	{ ACL_DEV_ATTR_SUPER_POD_SERVER_ID, "ACL_DEV_ATTR_SUPER_POD_SERVER_ID" },
	{ ACL_DEV_ATTR_SUPER_POD_ID, "ACL_DEV_ATTR_SUPER_POD_ID" },
	{ ACL_DEV_ATTR_CUST_OP_PRIVILEGE, "ACL_DEV_ATTR_CUST_OP_PRIVILEGE" },
	{ ACL_DEV_ATTR_MAINBOARD_ID, "ACL_DEV_ATTR_MAINBOARD_ID" },
	{ ACL_DEV_ATTR_HD_CONNECT_TYPE, "ACL_DEV_ATTR_HD_CONNECT_TYPE" },
	{ ACL_DEV_ATTR_DEVICE_FORM_FACTOR, "ACL_DEV_ATTR_DEVICE_FORM_FACTOR" },
	{ ACL_DEV_ATTR_IS_VIRTUAL, "ACL_DEV_ATTR_IS_VIRTUAL" },
	{ ACL_DEV_ATTR_NPU_ARCH, "ACL_DEV_ATTR_NPU_ARCH" },
};

static const char *acl_dev_attr_name(aclrtDevAttr attr)
{
	size_t i;

	for (i = 0; i < sizeof(acl_dev_attr_names) /
			sizeof(acl_dev_attr_names[0]); i++)
		if (acl_dev_attr_names[i].attr == attr)
			return acl_dev_attr_names[i].name;
	return NULL;
}

/* The host link and form factor of a PCI NPU; nothing for another. */
static aclError acl_sys_bus_attr(const struct acl_sys_npu *n,
				 aclrtDevAttr attr, const char *name,
				 int64_t *value)
{
	char pci[32], what[32];
	int err = acl_sys_pci(n, pci, sizeof(pci));

	if (err == -ENOENT)
		return acl_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
			       "attr=%s: %s is software inside the driver, "
			       "attached to the host by no bus", name,
			       acl_sys_what(n, what, sizeof(what)));
	if (err)
		return acl_err_sys(err, "reading the NPU's pci_address");
	/* A PCI function: CANN's PCIe link, and what it calls a card. */
	*value = attr == ACL_DEV_ATTR_HD_CONNECT_TYPE ?
		 ACL_HOST_DEVICE_CONNECT_TYPE_PCIE :
		 ACL_DEVICE_FORM_FACTOR_PCIE_CARD;
	return ACL_SUCCESS;
}

static aclError acl_sys_dev_attr(const struct acl_sys_npu *n,
				 aclrtDevAttr attr, const char *name,
				 int64_t *value)
{
	char what[32];

	switch (attr) {
	case ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE:
		if (n->info.mem_size > INT64_MAX)
			break;
		*value = (int64_t)n->info.mem_size;
		return ACL_SUCCESS;
	case ACL_DEV_ATTR_PHY_CHIP_ID:
		*value = n->info.index;
		return ACL_SUCCESS;
	case ACL_DEV_ATTR_IS_VIRTUAL:
		/* The driver never splits an NPU into shares. */
		*value = 0;
		return ACL_SUCCESS;
	case ACL_DEV_ATTR_HD_CONNECT_TYPE:
	case ACL_DEV_ATTR_DEVICE_FORM_FACTOR:
		return acl_sys_bus_attr(n, attr, name, value);
	default:
		break;
	}
	return acl_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
		       "attr=%s: %s is a data mover; the npu_dma driver "
		       "reports no such property", name,
		       acl_sys_what(n, what, sizeof(what)));
}

ACL_FUNC_VISIBILITY aclError aclrtGetDeviceInfo(uint32_t deviceId,
						aclrtDevAttr attr,
						int64_t *value)
{
	struct acl_sys_npu n;
	const char *name;
	aclError ret;

	ACL_ENTER();
	if (!value)
		return acl_err(ACL_ERROR_INVALID_PARAM, "value is NULL");
	if (deviceId > INT32_MAX)
		return acl_err(ACL_ERROR_RT_INVALID_DEVICEID,
			       "deviceId=%u is out of range", deviceId);
	name = acl_dev_attr_name(attr);
	if (!name)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "attr=%d is not an aclrtDevAttr", (int)attr);
	ret = acl_sys_begin((int32_t)deviceId, &n);
	if (ret)
		return ret;
	ret = acl_sys_dev_attr(&n, attr, name, value);
	acl_sys_end(&n);
	return ret;
}

ACL_FUNC_VISIBILITY aclError aclGetDeviceCapability(uint32_t deviceId,
						    aclDeviceInfo deviceInfo,
						    int64_t *value)
{
	static const char *const names[] = {
		[ACL_DEVICE_INFO_AI_CORE_NUM] = "ACL_DEVICE_INFO_AI_CORE_NUM",
		[ACL_DEVICE_INFO_VECTOR_CORE_NUM] = "ACL_DEVICE_INFO_VECTOR_CORE_NUM",
		[ACL_DEVICE_INFO_L2_SIZE] = "ACL_DEVICE_INFO_L2_SIZE",
	};
	uint32_t count;
	struct acl_sys_npu n;
	char what[32];
	aclError ret;

	ACL_ENTER();
	if (!value)
		return acl_err(ACL_ERROR_INVALID_PARAM, "value is NULL");
	/* CANN checks both at its API edge (100000), not in its runtime. */
	count = (uint32_t)acl_device_count();
	if (deviceId >= count)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "deviceId=%u is out of range [0, %u)", deviceId,
			       count);
	if ((unsigned int)deviceInfo >= sizeof(names) / sizeof(names[0]))
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "deviceInfo=%d is not an aclDeviceInfo",
			       (int)deviceInfo);
	ret = acl_sys_begin((int32_t)deviceId, &n);
	if (ret)
		return ret;
	ret = acl_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
		      "deviceInfo=%s: %s has no compute cores or cache; the "
		      "npu_dma driver reports no such property",
		      names[deviceInfo], acl_sys_what(&n, what, sizeof(what)));
	acl_sys_end(&n);
	return ret;
}

ACL_FUNC_VISIBILITY aclError
aclrtGetDeviceCapability(int32_t deviceId, aclrtDevFeatureType devFeatureType,
			 int32_t *value)
{
	struct acl_sys_npu n;
	aclError ret;

	ACL_ENTER();
	if (!value)
		return acl_err(ACL_ERROR_INVALID_PARAM, "value is NULL");
	if (devFeatureType != ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV &&
	    devFeatureType != ACL_FEATURE_SYSTEM_MEMQ_EVENT_CROSS_DEV)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "devFeatureType=%d is not an aclrtDevFeatureType",
			       (int)devFeatureType);
	ret = acl_sys_begin(deviceId, &n);
	if (ret)
		return ret;
	/*
	 * Both are features of an NPU that runs tasks on its own cores and
	 * memory queues; these NPUs have neither. That is an answer: the
	 * call succeeds.
	 */
	*value = ACL_DEV_FEATURE_NOT_SUPPORT;
	acl_sys_end(&n);
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtCheckArchCompatibility(const char *socVersion,
							 int32_t *canCompatible)
{
	const char *soc;
	aclError ret;

	ACL_ENTER();
	if (!socVersion || !canCompatible || !*socVersion)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "socVersion=%p (\"%.32s\") canCompatible=%p: "
			       "a SoC name and a result are needed",
			       (const void *)socVersion,
			       socVersion ? socVersion : "", (void *)canCompatible);
	soc = acl_sys_soc_name(&ret);
	if (!soc)
		return ret;
	/* No code is built for these SoCs but for themselves. */
	*canCompatible = !strcmp(socVersion, soc);
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtQueryDeviceStatus(int32_t deviceId,
						    aclrtDeviceStatus *deviceStatus)
{
	struct acl_sys_npu n;
	aclError ret;

	ACL_ENTER();
	if (!deviceStatus)
		return acl_err(ACL_ERROR_INVALID_PARAM, "deviceStatus is NULL");
	ret = acl_sys_begin(deviceId, &n);
	if (!ret) {
		acl_sys_end(&n);
		*deviceStatus = ACL_RT_DEVICE_STATUS_NORMAL;
		return ACL_SUCCESS;
	}
	/*
	 * An NPU the driver no longer answers for (removed, its engine
	 * failing) is abnormal, which is the answer, not a failure of the
	 * call; the message left says what went wrong.
	 */
	if (ret == ACL_ERROR_RT_NO_DEVICE || ret == ACL_ERROR_RT_SYS_DMA) {
		*deviceStatus = ACL_RT_DEVICE_STATUS_ABNORMAL;
		return ACL_SUCCESS;
	}
	return ret;
}

ACL_FUNC_VISIBILITY aclError aclrtDeviceGetUuid(int32_t deviceId,
						aclrtUuid *uuid)
{
	struct acl_sys_npu n;
	char what[32];
	aclError ret;

	ACL_ENTER();
	if (!uuid)
		return acl_err(ACL_ERROR_INVALID_PARAM, "uuid is NULL");
	ret = acl_sys_begin(deviceId, &n);
	if (ret)
		return ret;
	/* Neither the edu card nor a sim NPU carries a serial number. */
	ret = acl_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
		      "%s has no unique identifier the npu_dma driver knows",
		      acl_sys_what(&n, what, sizeof(what)));
	acl_sys_end(&n);
	return ret;
}

ACL_FUNC_VISIBILITY aclError aclrtDeviceGetPCIBusId(int32_t deviceId,
						    char *pciBusId,
						    int32_t len)
{
	struct acl_sys_npu n;
	char pci[32], what[32];
	aclError ret;
	int err;

	ACL_ENTER();
	if (!pciBusId)
		return acl_err(ACL_ERROR_INVALID_PARAM, "pciBusId is NULL");
	if (deviceId < 0)
		return acl_err(ACL_ERROR_RT_INVALID_DEVICEID,
			       "deviceId=%d is negative", deviceId);
	if (len < ACL_PCI_BUS_ID_MIN_LEN)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "len=%d is below %d", len,
			       ACL_PCI_BUS_ID_MIN_LEN);
	ret = acl_sys_begin(deviceId, &n);
	if (ret)
		return ret;
	err = acl_sys_pci(&n, pci, sizeof(pci));
	if (err == -ENOENT)
		ret = acl_err(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
			      "%s is not a PCI device",
			      acl_sys_what(&n, what, sizeof(what)));
	else if (err)
		ret = acl_err_sys(err, "reading the NPU's pci_address");
	else if (strlen(pci) >= (size_t)len)
		ret = acl_err(ACL_ERROR_RT_PARAM_INVALID,
			      "len=%d does not hold \"%s\"", len, pci);
	else
		memcpy(pciBusId, pci, strlen(pci) + 1);
	acl_sys_end(&n);
	return ret;
}

ACL_FUNC_VISIBILITY aclError aclrtDeviceGetByPCIBusId(const char *pciBusId,
						      int32_t *deviceId)
{
	int32_t i, count;
	char pci[32];
	bool found = false;

	ACL_ENTER();
	if (!pciBusId || !deviceId)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "pciBusId=%p deviceId=%p: neither may be NULL",
			       (const void *)pciBusId, (void *)deviceId);
	count = acl_device_count();
	for (i = 0; i < count && !found; i++) {
		struct acl_sys_npu n;

		if (acl_sys_begin(i, &n))
			continue;	/* a device that cannot answer has no address */
		/* Hex digits in either case name the same function. */
		found = !acl_sys_pci(&n, pci, sizeof(pci)) &&
			!strcasecmp(pci, pciBusId);
		acl_sys_end(&n);
		if (found)
			*deviceId = i;
	}
	if (!found)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "pciBusId=\"%.32s\" is no NPU's PCI address",
			       pciBusId);
	return ACL_SUCCESS;
}

/* ---- device ids ------------------------------------------------------ */

/* Negative ids are refused by CANN's runtime as bad values (107000). */
static aclError acl_sys_id_check(int32_t id, const char *name, void *out,
				 const char *out_name)
{
	if (!out)
		return acl_err(ACL_ERROR_INVALID_PARAM, "%s is NULL", out_name);
	if (id < 0)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID, "%s=%d is negative",
			       name, id);
	return ACL_SUCCESS;
}

/* The NPU index of user id @user: 0 or an error recorded. */
static aclError acl_sys_user_to_npu(int32_t user, int32_t *npu)
{
	struct acl_device *dev = acl_device_get(user);

	if (!dev)
		return ACL_ERROR_RT_INVALID_DEVICEID;
	*npu = dev->phys;
	return ACL_SUCCESS;
}

/* NPU @npu exists (visible or not): 0 or an error recorded. */
static aclError acl_sys_npu_check(int32_t npu, const char *name)
{
	if (acl_node_present(npu))
		return ACL_SUCCESS;
	return acl_err(ACL_ERROR_RT_INVALID_DEVICEID,
		       "%s=%d: the npu_dma driver has no such NPU", name, npu);
}

/*
 * Logic id -> physical id and back: both are the NPU index @npu, so the
 * answer is @npu itself once the arguments are good and the NPU exists.
 */
static aclError acl_sys_npu_same(int32_t npu, const char *name, int32_t *out,
				 const char *out_name)
{
	aclError ret = acl_sys_id_check(npu, name, out, out_name);

	if (!ret)
		ret = acl_sys_npu_check(npu, name);
	if (!ret)
		*out = npu;
	return ret;
}

/* The user id of NPU @npu, if it is visible: 0 or an error recorded. */
static aclError acl_sys_npu_to_user(int32_t npu, const char *name,
				    int32_t *user)
{
	int i, n = acl_device_count();

	pthread_mutex_lock(&acl_g.lock);
	for (i = 0; i < n && acl_g.dev[i].phys != npu; i++)
		;
	pthread_mutex_unlock(&acl_g.lock);
	if (i < n) {
		*user = i;
		return ACL_SUCCESS;
	}
	if (acl_sys_npu_check(npu, name))
		return ACL_ERROR_RT_INVALID_DEVICEID;
	return acl_err(ACL_ERROR_RT_INVALID_DEVICEID,
		       "%s=%d: that NPU is not visible to this process "
		       "(ASCEND_RT_VISIBLE_DEVICES)", name, npu);
}

ACL_FUNC_VISIBILITY aclError
aclrtGetLogicDevIdByUserDevId(const int32_t userDevid, int32_t *const logicDevId)
{
	aclError ret;

	ACL_ENTER();
	ret = acl_sys_id_check(userDevid, "userDevid", logicDevId, "logicDevId");
	if (ret)
		return ret;
	return acl_sys_user_to_npu(userDevid, logicDevId);
}

ACL_FUNC_VISIBILITY aclError
aclrtGetUserDevIdByLogicDevId(const int32_t logicDevId, int32_t *const userDevid)
{
	aclError ret;

	ACL_ENTER();
	ret = acl_sys_id_check(logicDevId, "logicDevId", userDevid, "userDevid");
	if (ret)
		return ret;
	return acl_sys_npu_to_user(logicDevId, "logicDevId", userDevid);
}

ACL_FUNC_VISIBILITY aclError
aclrtGetLogicDevIdByPhyDevId(const int32_t phyDevId, int32_t *const logicDevId)
{
	ACL_ENTER();
	return acl_sys_npu_same(phyDevId, "phyDevId", logicDevId, "logicDevId");
}

ACL_FUNC_VISIBILITY aclError
aclrtGetPhyDevIdByLogicDevId(const int32_t logicDevId, int32_t *const phyDevId)
{
	ACL_ENTER();
	return acl_sys_npu_same(logicDevId, "logicDevId", phyDevId, "phyDevId");
}

ACL_FUNC_VISIBILITY aclError
aclrtGetUserDevIdByPhyDevId(const int32_t phyDevId, int32_t *const userDevId)
{
	aclError ret;

	ACL_ENTER();
	ret = acl_sys_id_check(phyDevId, "phyDevId", userDevId, "userDevId");
	if (ret)
		return ret;
	return acl_sys_npu_to_user(phyDevId, "phyDevId", userDevId);
}

ACL_FUNC_VISIBILITY aclError
aclrtGetPhyDevIdByUserDevId(const int32_t userDevId, int32_t *const phyDevId)
{
	aclError ret;

	ACL_ENTER();
	ret = acl_sys_id_check(userDevId, "userDevId", phyDevId, "phyDevId");
	if (ret)
		return ret;
	return acl_sys_user_to_npu(userDevId, phyDevId);
}
