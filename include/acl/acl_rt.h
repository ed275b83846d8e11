/* SPDX-License-Identifier: MIT */
/*
 * acl_rt.h - the acl runtime API: devices and system queries, contexts,
 * streams, events, memory, copies, callbacks and graph capture.
 *
 * Source-compatible with CANN's acl_rt.h (API version 1.17.0): every name,
 * type, enumerator value, struct layout and prototype is CANN's. Unless a
 * comment says otherwise, functions return ACL_SUCCESS or an ACL_ERROR_*
 * code, and a NULL aclrtStream means the current context's default stream.
 * Timeouts are in milliseconds with -1 meaning "wait forever", except where
 * noted.
 */
#ifndef ACL_ACL_RT_H
#define ACL_ACL_RT_H

#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include "acl_base.h"
#include "acl_rt_allocator.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ACL_MAJOR_VERSION 1
#define ACL_MINOR_VERSION 17
#define ACL_PATCH_VERSION 0

/* aclrtCreateEventWithFlag() / aclrtCreateEventExWithFlag() flags */
#define ACL_EVENT_SYNC 0x00000001U
#define ACL_EVENT_CAPTURE_STREAM_PROGRESS 0x00000002U
#define ACL_EVENT_TIME_LINE 0x00000008U
#define ACL_EVENT_DEVICE_USE_ONLY 0x00000010U
#define ACL_EVENT_EXTERNAL 0x00000020U
#define ACL_EVENT_IPC 0x00000040U

/* event record / wait operation flags */
#define ACL_EVENT_RECORD_DEFAULT 0x0U
#define ACL_EVENT_RECORD_EXTERNAL 0x01U
#define ACL_EVENT_WAIT_DEFAULT 0x0U
#define ACL_EVENT_WAIT_EXTERNAL 0x01U
#define ACL_IPC_EVENT_HANDLE_SIZE 64U

/* aclrtCreateStreamWithConfig() flags */
#define ACL_STREAM_FAST_LAUNCH 0x00000001U
#define ACL_STREAM_FAST_SYNC 0x00000002U
#define ACL_STREAM_PERSISTENT 0x00000004U
#define ACL_STREAM_HUGE 0x00000008U
#define ACL_STREAM_CPU_SCHEDULE 0x00000010U
#define ACL_STREAM_DEVICE_USE_ONLY 0x00000020U

/* aclrtSetStreamFailureMode() modes */
#define ACL_CONTINUE_ON_FAILURE 0x00000000U
#define ACL_STOP_ON_FAILURE 0x00000001U

/* aclrtValueWait() comparisons */
#define ACL_STREAM_WAIT_VALUE_GEQ 0x00000000U
#define ACL_STREAM_WAIT_VALUE_EQ 0x00000001U
#define ACL_STREAM_WAIT_VALUE_AND 0x00000002U
#define ACL_STREAM_WAIT_VALUE_NOR 0x00000003U

/* aclrtCreateNotify() flags */
#define ACL_NOTIFY_DEFAULT 0x00000000U
#define ACL_NOTIFY_DEVICE_USE_ONLY 0x00000001U

/* aclrtHostRegisterV2() flags */
#define ACL_HOST_REG_MAPPED 0x2UL
#define ACL_HOST_REG_IOMEMORY 0x4UL
#define ACL_HOST_REG_READONLY 0x8UL
#define ACL_HOST_REG_PINNED 0x10000000UL

#define ACL_DEV_FEATURE_SUPPORT 0x00000001
#define ACL_DEV_FEATURE_NOT_SUPPORT 0x00000000
#define ACL_RT_MEM_ATTACH_GLOBAL 0x01U
#define ACL_RT_IPC_MEM_EXPORT_FLAG_DEFAULT 0x0UL
#define ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION 0x1UL
#define ACL_RT_IPC_MEM_IMPORT_FLAG_DEFAULT 0x0UL
#define ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS 0x1UL
#define ACL_MDLRI_DEBUG_JSON_PRINT_SUMMARY 0x0UL
#define ACL_MDLRI_DEBUG_JSON_PRINT_VERBOSE 0x1UL
#define ACL_RT_MEM_UCE_INFO_MAX_NUM 20
#define MAX_MEM_UCE_INFO_ARRAY_SIZE 128
#define UCE_INFO_RESERVED_SIZE 14

/* aclsysGetVersionStr() writes at most ACL_PKG_VERSION_MAX_SIZE bytes. */
#define ACL_PKG_VERSION_MAX_SIZE 128
#define ACL_PKG_VERSION_PARTS_MAX_SIZE 64

/* aclrtGetDeviceInfo(ACL_DEV_ATTR_HD_CONNECT_TYPE): link to the host */
#define ACL_HOST_DEVICE_CONNECT_TYPE_PCIE 0
#define ACL_HOST_DEVICE_CONNECT_TYPE_HCCS 1
#define ACL_HOST_DEVICE_CONNECT_TYPE_UB 2

/* aclrtGetDeviceInfo(ACL_DEV_ATTR_DEVICE_FORM_FACTOR) */
#define ACL_DEVICE_FORM_FACTOR_POD 0
#define ACL_DEVICE_FORM_FACTOR_A_K 1
#define ACL_DEVICE_FORM_FACTOR_A_X 2
#define ACL_DEVICE_FORM_FACTOR_PCIE_CARD 3

/* aclrtNotifyGetExportKey() and aclrtNotifyImportByKey() flags */
#define ACL_RT_NOTIFY_EXPORT_FLAG_DEFAULT 0x0UL
#define ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION 0x02UL
#define ACL_RT_NOTIFY_IMPORT_FLAG_DEFAULT 0x0UL
#define ACL_RT_NOTIFY_IMPORT_FLAG_ENABLE_PEER_ACCESS 0x02UL

/* aclrtMemExportToShareableHandle() flags */
#define ACL_RT_VMM_EXPORT_FLAG_DEFAULT 0x0UL
#define ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION 0x1UL

/* Most faulty memory addresses recorded per device (memory UCE repair) */
#define ACL_RT_MAX_RECORD_PA_NUM_PER_DEV 20U

/* Link between the two dies of a chip, for a VMM copy */
#define ACL_RT_MEM_LINK_IDX_0 0U	/* SIO, the on-package link */
#define ACL_RT_MEM_LINK_IDX_1 1U	/* HCCS */

/* Values of aclrtIpcMemSetAttr(ACL_RT_IPC_MEM_ATTR_ACCESS_LINK) */
#define ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_SIO 0
#define ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_HCCS 1
#define ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_UB_ONE_PORT_PATH 2
#define ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_UB_MULTI_PORT_PATH 3

/* Capacity of aclrtBarrierTaskInfo.cmoInfo */
#define ACL_RT_CMO_MAX_BARRIER_NUM 6U

/* aclrtGetDevicesTopo(): how two devices are connected */
#define ACL_RT_DEVS_TOPOLOGY_HCCS 0x01ULL	/* HCCS link */
#define ACL_RT_DEVS_TOPOLOGY_PIX 0x02ULL	/* behind one PCIe switch */
#define ACL_RT_DEVS_TOPOLOGY_PIB 0x04ULL	/* reserved */
#define ACL_RT_DEVS_TOPOLOGY_PHB 0x08ULL	/* through a PCIe host bridge */
#define ACL_RT_DEVS_TOPOLOGY_SYS 0x10ULL	/* across NUMA nodes (SMP) */
#define ACL_RT_DEVS_TOPOLOGY_SIO 0x20ULL	/* two dies of one chip */
#define ACL_RT_DEVS_TOPOLOGY_HCCS_SW 0x40ULL	/* through an HCCS switch */

/* aclrtCheckMemType() memory kinds, OR-able */
#define ACL_RT_MEM_TYPE_DEV (0X2U)
#define ACL_RT_MEM_TYPE_DVPP (0X8U)
#define ACL_RT_MEM_TYPE_RSVD (0X10U)

typedef enum aclrtRunMode { ACL_DEVICE = 0, ACL_HOST = 1 } aclrtRunMode;

typedef enum aclrtTsId {
	ACL_TS_ID_AICORE = 0,
	ACL_TS_ID_AIVECTOR = 1,
	ACL_TS_ID_RESERVED = 2,
} aclrtTsId;

/* aclrtQueryEvent() result (deprecated API) */
typedef enum aclrtEventStatus {
	ACL_EVENT_STATUS_COMPLETE = 0,
	ACL_EVENT_STATUS_NOT_READY = 1,
	ACL_EVENT_STATUS_RESERVED = 2,
} aclrtEventStatus;

/* aclrtQueryEventStatus() result: note COMPLETE is 1 here */
typedef enum aclrtEventRecordedStatus {
	ACL_EVENT_RECORDED_STATUS_NOT_READY = 0,
	ACL_EVENT_RECORDED_STATUS_COMPLETE = 1,
} aclrtEventRecordedStatus;

typedef enum aclrtEventWaitStatus {
	ACL_EVENT_WAIT_STATUS_COMPLETE = 0,
	ACL_EVENT_WAIT_STATUS_NOT_READY = 1,
	ACL_EVENT_WAIT_STATUS_RESERVED = 0xFFFF,
} aclrtEventWaitStatus;

typedef enum aclrtStreamStatus {
	ACL_STREAM_STATUS_COMPLETE = 0,
	ACL_STREAM_STATUS_NOT_READY = 1,
	ACL_STREAM_STATUS_RESERVED = 0xFFFF,
} aclrtStreamStatus;

typedef enum aclrtCallbackBlockType {
	ACL_CALLBACK_NO_BLOCK = 0,
	ACL_CALLBACK_BLOCK = 1,
} aclrtCallbackBlockType;

typedef enum aclrtMemcpyKind {
	ACL_MEMCPY_HOST_TO_HOST = 0,
	ACL_MEMCPY_HOST_TO_DEVICE = 1,
	ACL_MEMCPY_DEVICE_TO_HOST = 2,
	ACL_MEMCPY_DEVICE_TO_DEVICE = 3,
	ACL_MEMCPY_DEFAULT = 4,			/* direction from the pointers */
	ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE = 5,	/* staged; source reusable at once */
	ACL_MEMCPY_INNER_DEVICE_TO_DEVICE = 6,	/* within one device */
	ACL_MEMCPY_INTER_DEVICE_TO_DEVICE = 7,	/* between two devices */
} aclrtMemcpyKind;

typedef enum aclrtMemMallocPolicy {
	ACL_MEM_MALLOC_HUGE_FIRST = 0,
	ACL_MEM_MALLOC_HUGE_ONLY = 1,
	ACL_MEM_MALLOC_NORMAL_ONLY = 2,
	ACL_MEM_MALLOC_HUGE_FIRST_P2P = 3,
	ACL_MEM_MALLOC_HUGE_ONLY_P2P = 4,
	ACL_MEM_MALLOC_NORMAL_ONLY_P2P = 5,
	ACL_MEM_MALLOC_HUGE1G_ONLY = 6,
	ACL_MEM_MALLOC_HUGE1G_ONLY_P2P = 7,
	ACL_MEM_TYPE_LOW_BAND_WIDTH = 0x0100,
	ACL_MEM_TYPE_HIGH_BAND_WIDTH = 0x1000,
	ACL_MEM_ACCESS_USER_SPACE_READONLY = 0x100000,
} aclrtMemMallocPolicy;

typedef enum {
	ACL_HOST_REGISTER_MAPPED = 0,
	ACL_HOST_REGISTER_IOMEMORY = 0x04,
	ACL_HOST_REGISTER_READONLY = 0x08
} aclrtHostRegisterType;

typedef enum {
	ACL_RT_MEM_ATTR_RSV = 0,
	ACL_RT_MEM_ATTR_MODULE_ID = 1,
	ACL_RT_MEM_ATTR_DEVICE_ID = 2,
	ACL_RT_MEM_ATTR_VA_FLAG = 3,
} aclrtMallocAttrType;

typedef union {
	uint16_t moduleId;
	uint32_t deviceId;
	uint32_t vaFlag;
	uint8_t rsv[8];
} aclrtMallocAttrValue;

typedef struct {
	aclrtMallocAttrType attr;
	aclrtMallocAttrValue value;
} aclrtMallocAttribute;

/* Optional allocation attributes: @numAttrs entries at @attrs. */
typedef struct {
	aclrtMallocAttribute *attrs;
	size_t numAttrs;
} aclrtMallocConfig;

/* Memory class queried by aclrtGetMemInfo(). */
typedef enum aclrtMemAttr {
	ACL_DDR_MEM = 0,
	ACL_HBM_MEM = 1,
	ACL_DDR_MEM_HUGE = 2,
	ACL_DDR_MEM_NORMAL = 3,
	ACL_HBM_MEM_HUGE = 4,
	ACL_HBM_MEM_NORMAL = 5,
	ACL_DDR_MEM_P2P_HUGE = 6,
	ACL_DDR_MEM_P2P_NORMAL = 7,
	ACL_HBM_MEM_P2P_HUGE = 8,
	ACL_HBM_MEM_P2P_NORMAL = 9,
	ACL_HBM_MEM_HUGE1G = 10,
	ACL_HBM_MEM_P2P_HUGE1G = 11,
	ACL_MEM_NORMAL = 12,
	ACL_MEM_HUGE = 13,
	ACL_MEM_HUGE1G = 14,
	ACL_MEM_P2P_NORMAL = 15,
	ACL_MEM_P2P_HUGE = 16,
	ACL_MEM_P2P_HUGE1G = 17,
} aclrtMemAttr;

typedef enum {
	ACL_RT_STREAM_WORK_ADDR_PTR = 0,
	ACL_RT_STREAM_WORK_SIZE = 1,
	ACL_RT_STREAM_FLAG = 2,
	ACL_RT_STREAM_PRIORITY = 3,
} aclrtStreamConfigAttr;

/* Public layout of the handle made by aclrtCreateStreamConfigHandle(). */
typedef struct aclrtStreamConfigHandle {
	void *workptr;
	size_t workSize;
	size_t flag;
	uint32_t priority;
} aclrtStreamConfigHandle;

typedef struct tagRtGroupInfo aclrtGroupInfo;
typedef struct rtExceptionInfo aclrtExceptionInfo;

typedef enum aclrtMemLocationType {
	ACL_MEM_LOCATION_TYPE_HOST = 0,		/* pinned host memory from acl */
	ACL_MEM_LOCATION_TYPE_DEVICE = 1,
	ACL_MEM_LOCATION_TYPE_UNREGISTERED = 2,	/* any other pointer */
	ACL_MEM_LOCATION_TYPE_MANAGED = 3,
	ACL_MEM_LOCATION_TYPE_HOST_NUMA = 4,
} aclrtMemLocationType;

typedef struct aclrtMemLocation {
	uint32_t id;			/* device (or NUMA node) id */
	aclrtMemLocationType type;
} aclrtMemLocation;

typedef struct aclrtPtrAttributes {
	aclrtMemLocation location;
	uint32_t pageSize;		/* bytes */
	uint32_t rsv[4];
} aclrtPtrAttributes;

/* Where one run of batch copies reads and writes; @rsv must be zero. */
typedef struct {
	aclrtMemLocation dstLoc;
	aclrtMemLocation srcLoc;
	uint8_t rsv[16];
} aclrtMemcpyBatchAttr;

typedef void *aclrtDrvMemHandle;

/* aclrtQueryDeviceStatus() result */
typedef enum aclrtDeviceStatus {
	ACL_RT_DEVICE_STATUS_NORMAL = 0,
	ACL_RT_DEVICE_STATUS_ABNORMAL,
	ACL_RT_DEVICE_STATUS_END = 0xFFFF,
} aclrtDeviceStatus;

/*
 * aclrtGetDeviceInfo() attributes, grouped by hundreds: AI CPU (1),
 * AI/cube cores (1xx), vector cores and launch limits (2xx), memory
 * (3xx), placement in the system (4xx), virtualisation (5xx), arch (6xx).
 * Two names are kept for compatibility with older spellings.
 */
typedef enum {
	ACL_DEV_ATTR_AICPU_CORE_NUM = 1,
	ACL_DEV_ATTR_AICORE_CORE_NUM = 101,
	ACL_DEV_ATTR_CUBE_CORE_NUM = 102,
	ACL_DEV_ATTR_VECTOR_CORE_NUM = 201,
	ACL_DEV_ATTR_WARP_SIZE = 202,
	ACL_DEV_ATTR_MAX_THREAD_PER_VECTOR_CORE = 203,
	ACL_DEV_ATTR_LOCAL_MEM_PER_VECTOR_CORE
		ACL_DEPRECATED_MESSAGE("Use ACL_DEV_ATTR_UBUF_PER_VECTOR_CORE instead") = 204,
	ACL_DEV_ATTR_UBUF_PER_VECTOR_CORE = 204,	/* bytes */
	ACL_DEV_ATTR_MAX_GRID_DIM_X = 205,
	ACL_DEV_ATTR_MAX_GRID_DIM_Y = 206,
	ACL_DEV_ATTR_MAX_GRID_DIM_Z = 207,
	ACL_DEV_ATTR_MAX_BLOCK_PER_GRID = 208,
	ACL_DEV_ATTR_MAX_THREADS_PER_BLOCK = 209,
	ACL_DEV_ATTR_MAX_BLOCK_DIM_X = 210,
	ACL_DEV_ATTR_MAX_BLOCK_DIM_Y = 211,
	ACL_DEV_ATTR_MAX_BLOCK_DIM_Z = 212,
	ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE = 301,	/* bytes */
	ACL_DEV_ATTR_L2_CACHE_SIZE = 302,		/* bytes */
	ACL_DEV_ATTR_SMP_ID = 401U,
	ACL_DEV_ATTR_PHY_CHIP_ID = 402U,
	ACL_DEV_ATTR_SUPER_POD_DEVIDE_ID = 403U,	/* old spelling */
	ACL_DEV_ATTR_SUPER_POD_DEVICE_ID = 403U,
	ACL_DEV_ATTR_SUPER_POD_SERVER_ID = 404U,
	ACL_DEV_ATTR_SUPER_POD_ID = 405U,
	ACL_DEV_ATTR_CUST_OP_PRIVILEGE = 406U,
	ACL_DEV_ATTR_MAINBOARD_ID = 407U,
	ACL_DEV_ATTR_HD_CONNECT_TYPE = 408U,	/* ACL_HOST_DEVICE_CONNECT_TYPE_* */
	ACL_DEV_ATTR_DEVICE_FORM_FACTOR = 409U,	/* ACL_DEVICE_FORM_FACTOR_* */
	ACL_DEV_ATTR_IS_VIRTUAL = 501U,		/* a share of a split device */
	ACL_DEV_ATTR_NPU_ARCH = 601U,
} aclrtDevAttr;

/* Features asked with aclrtGetDeviceCapability() (ACL_DEV_FEATURE_*). */
typedef enum {
	ACL_FEATURE_TSCPU_TASK_UPDATE_SUPPORT_AIC_AIV = 1,
	ACL_FEATURE_SYSTEM_MEMQ_EVENT_CROSS_DEV = 21,
} aclrtDevFeatureType;

/* 16-byte unique identifier of a device (aclrtDeviceGetUuid()). */
typedef struct aclrtUuid {
	char bytes[16];
} aclrtUuid;

typedef void (*aclrtCallback)(void *userData);
typedef void (*aclrtHostFunc)(void *args);
typedef void (*aclrtExceptionInfoCallback)(aclrtExceptionInfo *exceptionInfo);

typedef void *aclrtBinary;
typedef void *aclrtBinHandle;
typedef void *aclrtFuncHandle;
typedef void *aclrtArgsHandle;
typedef void *aclrtParamHandle;

/* Options of aclrtBinaryLoadFromFile() and aclrtLaunchKernelWithConfig(). */
typedef struct aclrtBinaryLoadOptions aclrtBinaryLoadOptions;
typedef struct aclrtLaunchKernelCfg aclrtLaunchKernelCfg;

/* A captured task graph (model runtime instance). */
typedef void *aclmdlRI;
typedef void *aclmdlRICondHandle;

typedef enum {
	ACL_MODEL_RI_CAPTURE_MODE_GLOBAL = 0,
	ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL = 1,
	ACL_MODEL_RI_CAPTURE_MODE_RELAXED = 2,
} aclmdlRICaptureMode;

typedef enum {
	ACL_MODEL_RI_CAPTURE_STATUS_NONE = 0,
	ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE = 1,
	ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED = 2,
} aclmdlRICaptureStatus;

typedef struct aclrtMemUceInfo {
	void *addr;
	size_t len;
	size_t reserved[UCE_INFO_RESERVED_SIZE];
} aclrtMemUceInfo;

typedef enum {
	ACL_RT_NO_ERROR = 0,
	ACL_RT_ERROR_MEMORY = 1,
	ACL_RT_ERROR_L2 = 2,
	ACL_RT_ERROR_AICORE = 3,
	ACL_RT_ERROR_LINK = 4,
	ACL_RT_ERROR_L3_PORT = 5,
	ACL_RT_ERROR_OTHERS = 0xFFFF,
} aclrtErrorType;

typedef enum aclrtAicoreErrorType {
	ACL_RT_AICORE_ERROR_UNKNOWN = 0,
	ACL_RT_AICORE_ERROR_SW = 1,
	ACL_RT_AICORE_ERROR_HW_LOCAL = 2,
} aclrtAicoreErrorType;

typedef struct {
	size_t arraySize;
	aclrtMemUceInfo memUceInfoArray[ACL_RT_MEM_UCE_INFO_MAX_NUM];
} aclrtMemUceInfoArray;

typedef union aclrtErrorInfoDetail {
	aclrtMemUceInfoArray uceInfo;
	aclrtAicoreErrorType aicoreErrType;
} aclrtErrorInfoDetail;

/* Last device fault, as reported by aclrtGetErrorVerbose(). */
typedef struct aclrtErrorInfo {
	uint8_t tryRepair;
	uint8_t hasDetail;
	uint8_t reserved[2];
	aclrtErrorType errorType;
	aclrtErrorInfoDetail detail;
} aclrtErrorInfo;

typedef enum aclrtLastErrLevel { ACL_RT_THREAD_LEVEL = 0 } aclrtLastErrLevel;

typedef enum {
	ACL_RT_STREAM_STATE_CREATE_POST = 1,
	ACL_RT_STREAM_STATE_DESTROY_PRE = 2,
} aclrtStreamState;

typedef void (*aclrtStreamStateCallback)(aclrtStream stm,
					 aclrtStreamState state, void *args);

/* Attributes of aclrtSetStreamAttribute() and aclrtGetStreamAttribute(). */
typedef enum {
	ACL_STREAM_ATTR_FAILURE_MODE = 1,
	ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK = 2,
	ACL_STREAM_ATTR_USER_CUSTOM_TAG = 3,
	ACL_STREAM_ATTR_CACHE_OP_INFO = 4,
	ACL_STREAM_ATTR_PRIORITY = 5,
} aclrtStreamAttr;

/* One attribute's value; which member is read depends on the attribute. */
typedef union {
	uint64_t failureMode;
	uint32_t overflowSwitch;
	uint32_t userCustomTag;
	uint32_t cacheOpInfoSwitch;
	uint32_t streamPriority;
	uint32_t reserve[4];
} aclrtStreamAttrValue;

/*
 * Types of the rest of CANN's data-movement surface: virtual memory
 * management, managed memory, IPC, cache maintenance, reduce, counting
 * notifies, device state and topology. Names, values and layouts are
 * CANN's; a type here does not mean its calls are implemented (see
 * Documentation/libacl.rst).
 */

/* aclrtMemManagedAdvise() advice */
typedef enum aclrtMemManagedAdviseType {
	ACL_MEM_ADVISE_SET_READ_MOSTLY = 0,
	ACL_MEM_ADVISE_UNSET_READ_MOSTLY = 1,
	ACL_MEM_ADVISE_SET_PREFERRED_LOCATION = 2,
	ACL_MEM_ADVISE_UNSET_PREFERRED_LOCATION = 3,
	ACL_MEM_ADVISE_SET_ACCESSED_BY = 4,
	ACL_MEM_ADVISE_UNSET_ACCESSED_BY = 5,
} aclrtMemManagedAdviseType;

typedef enum aclrtMemManagedLocationType {
	ACL_MEM_LOCATIONTYPE_INVALID = 0,
	ACL_MEM_LOCATIONTYPE_DEVICE = 1,
	ACL_MEM_LOCATIONTYPE_HOST = 2,
	ACL_MEM_LOCATIONTYPE_HOST_NUMA = 3,
	ACL_MEM_LOCATIONTYPE_HOST_NUMA_CURRENT = 4,
} aclrtMemManagedLocationType;

/* Where managed memory should live or be prefetched to. */
typedef struct aclrtMemManagedLocation {
	aclrtMemManagedLocationType type;
	int32_t id;			/* device or NUMA node */
} aclrtMemManagedLocation;

/* aclrtMemManagedGetAttr() attributes of a managed range */
typedef enum aclrtMemManagedRangeAttribute {
	ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY = 1,
	ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION = 2,
	ACL_MEM_RANGE_ATTRIBUTE_ACCESSED_BY = 3,
	ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE = 4,
	ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID = 5,
	ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION = 6,
	ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE = 7,
	ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_ID = 8,
} aclrtMemManagedRangeAttribute;

/* Processes of server @sdid allowed to import shared memory. */
typedef struct {
	uint32_t sdid;
	int32_t *pid;			/* @num process ids */
	size_t num;
} aclrtServerPid;

/* Page size and memory kind of an allocation (untagged, as in CANN). */
enum aclrtMemPgType {
	NORMAL_PAGE_TYPE = 0U,
	HUGE_PAGE_TYPE = 1U,
	HUGE1G_PAGE_TYPE = 2U,
};

enum aclrtMemType {
	HBM_TYPE = 0U,
	DDR_TYPE = 1U,
	P2P_HBM_TYPE = 2U,
	P2P_DDR_TYPE = 3U,
};

/* Maps a page type, memory type and host flag to an aclrtMemAttr class. */
struct MemAttrMapping {
	uint32_t pgType;		/* enum aclrtMemPgType */
	uint32_t memType;		/* enum aclrtMemType */
	bool isHostAlloc;
	aclrtMemAttr memAttr;
};

/* aclrtIpcMemSetAttr() attributes (values ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_*) */
typedef enum {
	ACL_RT_IPC_MEM_ATTR_ACCESS_LINK = 0,
} aclrtIpcMemAttrType;

/* aclrtGetGroupInfoDetail(): one resource count of a device group (int) */
typedef enum aclrtGroupAttr {
	ACL_GROUP_AICORE_INT = 0,
	ACL_GROUP_AIV_INT = 1,
	ACL_GROUP_AIC_INT = 2,
	ACL_GROUP_SDMANUM_INT = 3,	/* SDMA (copy) engines */
	ACL_GROUP_ASQNUM_INT = 4,
	ACL_GROUP_GROUPID_INT = 5
} aclrtGroupAttr;

/* aclrtSetDeviceSatMode(): float overflow saturates or gives inf/NaN */
typedef enum aclrtFloatOverflowMode {
	ACL_RT_OVERFLOW_MODE_SATURATION = 0,
	ACL_RT_OVERFLOW_MODE_INFNAN = 1,
	ACL_RT_OVERFLOW_MODE_UNDEF = 2,
} aclrtFloatOverflowMode;

/* aclrtGetDeviceUtilizationRate() result, in percent. */
typedef struct aclrtUtilizationExtendInfo aclrtUtilizationExtendInfo;
typedef struct aclrtUtilizationInfo {
	int32_t cubeUtilization;
	int32_t vectorUtilization;
	int32_t aicpuUtilization;
	int32_t memoryUtilization;
	aclrtUtilizationExtendInfo *utilizationExtend;	/* reserved */
} aclrtUtilizationInfo;

/* aclrtGetMemUsageInfo(): memory held by one component, in bytes. */
typedef struct aclrtMemUsageInfo {
	char name[32];
	uint64_t curMemSize;
	uint64_t memPeakSize;
	size_t reserved[8];
} aclrtMemUsageInfo;

/* Virtual memory management (aclrtMallocPhysical(), aclrtMapMem() ...) */
typedef enum aclrtMemAllocationType {
	ACL_MEM_ALLOCATION_TYPE_PINNED = 0,
} aclrtMemAllocationType;

typedef enum aclrtMemHandleType {
	ACL_MEM_HANDLE_TYPE_NONE = 0,
	ACL_MEM_HANDLE_TYPE_POSIX = 2,
} aclrtMemHandleType;

/* What aclrtMemExportToShareableHandleV2() exports. */
typedef enum aclrtMemSharedHandleType {
	ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT = 0x1,
	ACL_MEM_SHARE_HANDLE_TYPE_FABRIC = 0x2,
} aclrtMemSharedHandleType;

/* Opaque handle for ACL_MEM_SHARE_HANDLE_TYPE_FABRIC sharing. */
typedef struct aclrtMemFabricHandle {
	uint8_t data[128];
} aclrtMemFabricHandle;

/* Properties of a physical allocation; @reserve must be 0. */
typedef struct aclrtPhysicalMemProp {
	aclrtMemHandleType handleType;
	aclrtMemAllocationType allocationType;
	aclrtMemAttr memAttr;
	aclrtMemLocation location;
	uint64_t reserve;
} aclrtPhysicalMemProp;

/* aclrtMemGetAllocationGranularity() options */
typedef enum aclrtMemGranularityOptions {
	ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM = 0,
	ACL_RT_MEM_ALLOC_GRANULARITY_RECOMMENDED = 1,
	ACL_RT_MEM_ALLOC_GRANULARITY_UNDEF = 0xFFFF,
} aclrtMemGranularityOptions;

/* aclrtMemSetAccess() rights */
typedef enum {
	ACL_RT_MEM_ACCESS_FLAGS_NONE = 0x0,
	ACL_RT_MEM_ACCESS_FLAGS_READ = 0x1,
	ACL_RT_MEM_ACCESS_FLAGS_READWRITE = 0x3,
} aclrtMemAccessFlags;

/* Rights of one location on a mapped range; @rsv must be zero. */
typedef struct {
	aclrtMemAccessFlags flags;
	aclrtMemLocation location;
	uint8_t rsv[12];
} aclrtMemAccessDesc;

/* Cache maintenance operations (aclrtCmoAsync()) */
typedef enum aclrtCmoType {
	ACL_RT_CMO_TYPE_PREFETCH = 0,
	ACL_RT_CMO_TYPE_WRITEBACK = 1,
	ACL_RT_CMO_TYPE_INVALID = 2,
	ACL_RT_CMO_TYPE_FLUSH = 3,
} aclrtCmoType;

/* One operation of aclrtCmoAsyncWithBarrier() and its barrier. */
typedef struct {
	aclrtCmoType cmoType;
	uint32_t barrierId;
} aclrtBarrierCmoInfo;

/* The @barrierNum barriers aclrtCmoWaitBarrier() waits for. */
typedef struct {
	size_t barrierNum;
	aclrtBarrierCmoInfo cmoInfo[ACL_RT_CMO_MAX_BARRIER_NUM];
} aclrtBarrierTaskInfo;

/* aclrtReduceAsync(): how a copy combines with the destination */
typedef enum {
	ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM = 10,
	ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX = 11,
	ACL_RT_MEMCPY_SDMA_AUTOMATIC_MIN = 12,
	ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL = 13,
} aclrtReduceKind;

/* aclrtGetDeviceResLimit() and friends: which cores are limited */
typedef enum {
	ACL_RT_DEV_RES_CUBE_CORE = 0,
	ACL_RT_DEV_RES_VECTOR_CORE = 1,
} aclrtDevResLimitType;

/* aclrtSwitchStream(): comparison and operand type */
typedef enum {
	ACL_RT_EQUAL = 0,
	ACL_RT_NOT_EQUAL = 1,
	ACL_RT_GREATER = 2,
	ACL_RT_GREATER_OR_EQUAL = 3,
	ACL_RT_LESS = 4,
	ACL_RT_LESS_OR_EQUAL = 5
} aclrtCondition;

typedef enum {
	ACL_RT_SWITCH_INT32 = 0,
	ACL_RT_SWITCH_INT64 = 1,
} aclrtCompareDataType;

/* Device task abort and device state hooks */
typedef enum {
	ACL_RT_DEVICE_TASK_ABORT_PRE = 0,
	ACL_RT_DEVICE_TASK_ABORT_POST = 1,
} aclrtDeviceTaskAbortStage;

typedef enum {
	ACL_RT_DEVICE_STATE_SET_PRE = 0,
	ACL_RT_DEVICE_STATE_SET_POST = 1,
	ACL_RT_DEVICE_STATE_RESET_PRE = 2,
	ACL_RT_DEVICE_STATE_RESET_POST = 3,
} aclrtDeviceState;

typedef void (*aclrtDeviceStateCallback)(int32_t deviceId,
					 aclrtDeviceState state, void *args);
typedef int32_t (*aclrtDeviceTaskAbortCallback)(int32_t deviceId,
						aclrtDeviceTaskAbortStage stage,
						uint32_t timeout, void *args);

/* Counting notifies: how a record changes the count */
typedef enum {
	ACL_RT_CNT_NOTIFY_RECORD_SET_VALUE_MODE = 0,
	ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE = 1,
	ACL_RT_CNT_NOTIFY_RECORD_BIT_OR_MODE = 2,
	ACL_RT_CNT_NOTIFY_RECORD_BIT_AND_MODE = 4,
} aclrtCntNotifyRecordMode;

typedef struct {
	aclrtCntNotifyRecordMode mode;
	uint32_t value;
} aclrtCntNotifyRecordInfo;

/* ... and what count a wait waits for */
typedef enum {
	ACL_RT_CNT_NOTIFY_WAIT_LESS_MODE = 0,
	ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE = 1,
	ACL_RT_CNT_NOTIFY_WAIT_BIGGER_MODE = 2,
	ACL_RT_CNT_NOTIFY_WAIT_BIGGER_OR_EQUAL_MODE = 3,
	ACL_RT_CNT_NOTIFY_WAIT_EQUAL_WITH_BITMASK_MODE = 4,
} aclrtCntNotifyWaitMode;

/* @timeout as for aclrtWaitAndResetNotify(); @isClear resets the count. */
typedef struct {
	aclrtCntNotifyWaitMode mode;
	uint32_t value;
	uint32_t timeout;
	uint8_t isClear;
	uint8_t rsv[3];
} aclrtCntNotifyWaitInfo;

/* aclsysGetCANNVersion(): the installed packages and their versions */
typedef enum aclCANNPackageName {
	ACL_PKG_NAME_CANN = 0,
	ACL_PKG_NAME_RUNTIME = 1,
	ACL_PKG_NAME_COMPILER = 2,
	ACL_PKG_NAME_HCCL = 3,
	ACL_PKG_NAME_TOOLKIT = 4,
	ACL_PKG_NAME_OPP = 5,
	ACL_PKG_NAME_OPP_KERNEL = 6,
	ACL_PKG_NAME_DRIVER = 7
} aclCANNPackageName;

typedef struct aclCANNPackageVersion {
	char version[ACL_PKG_VERSION_MAX_SIZE];
	char majorVersion[ACL_PKG_VERSION_PARTS_MAX_SIZE];
	char minorVersion[ACL_PKG_VERSION_PARTS_MAX_SIZE];
	char releaseVersion[ACL_PKG_VERSION_PARTS_MAX_SIZE];
	char patchVersion[ACL_PKG_VERSION_PARTS_MAX_SIZE];
	char reserved[ACL_PKG_VERSION_MAX_SIZE];
} aclCANNPackageVersion;

/* Hardware engines, as asked by aclrtHostMemMapCapabilities() */
typedef enum {
	ACL_RT_HAC_TYPE_STARS = 0,
	ACL_RT_HAC_TYPE_AICPU = 1,
	ACL_RT_HAC_TYPE_AIC = 2,
	ACL_RT_HAC_TYPE_AIV = 3,
	ACL_RT_HAC_TYPE_PCIEDMA = 4,
	ACL_RT_HAC_TYPE_RDMA = 5,
	ACL_RT_HAC_TYPE_SDMA = 6,
	ACL_RT_HAC_TYPE_DVPP = 7,
	ACL_RT_HAC_TYPE_UDMA = 8,
	ACL_RT_HAC_TYPE_CCU = 9
} aclrtHacType;

/* Whether an engine can reach host memory mapped for the device. */
typedef enum {
	ACL_RT_HOST_MEM_MAP_NOT_SUPPORTED = 0,
	ACL_RT_HOST_MEM_MAP_SUPPORTED = 1
} aclrtHostMemMapCapability;

/* Link a peer's memory is reached over */
typedef enum {
	ACL_RT_MEM_ACCESS_LINK_SIO = 0,
	ACL_RT_MEM_ACCESS_LINK_HCCS = 1,
	ACL_RT_MEM_ACCESS_UB_ONE_PORT_PATH = 2,
	ACL_RT_MEM_ACCESS_UB_MULTI_PORT_PATH = 3,
} aclrtMemLinkType;

/* An event exported to another process (aclrtIpcGetEventHandle()). */
typedef struct aclrtIpcEventHandle {
	char reserved[ACL_IPC_EVENT_HANDLE_SIZE];
} aclrtIpcEventHandle;

/* Atomic operations a device supports towards the host or a peer */
typedef enum aclrtAtomicOperationCapability {
	ACL_RT_ATOMIC_CAPABILITY_SIGNED = 1U << 0,
	ACL_RT_ATOMIC_CAPABILITY_UNSIGNED = 1U << 1,
	ACL_RT_ATOMIC_CAPABILITY_REDUCATION = 1U << 2,	/* old spelling */
	ACL_RT_ATOMIC_CAPABILITY_REDUCTION = 1U << 2,
	ACL_RT_ATOMIC_CAPABILITY_SCALAR8 = 1U << 3,
	ACL_RT_ATOMIC_CAPABILITY_SCALAR16 = 1U << 4,
	ACL_RT_ATOMIC_CAPABILITY_SCALAR32 = 1U << 5,
	ACL_RT_ATOMIC_CAPABILITY_SCALAR64 = 1U << 6,
	ACL_RT_ATOMIC_CAPABILITY_SCALAR128 = 1U << 7,
	ACL_RT_ATOMIC_CAPABILITY_VECTOR32X4 = 1U << 8,
} aclrtAtomicOperationCapability;

typedef enum aclrtAtomicOperation {
	ACL_RT_ATOMIC_OPERATION_INTEGER_ADD = 0,
	ACL_RT_ATOMIC_OPERATION_INTEGER_MIN = 1,
	ACL_RT_ATOMIC_OPERATION_INTEGER_MAX = 2,
	ACL_RT_ATOMIC_OPERATION_INTEGER_INCREMENT = 3,
	ACL_RT_ATOMIC_OPERATION_INTEGER_DECREMENT = 4,
	ACL_RT_ATOMIC_OPERATION_AND = 5,
	ACL_RT_ATOMIC_OPERATION_OR = 6,
	ACL_RT_ATOMIC_OPERATION_XOR = 7,
	ACL_RT_ATOMIC_OPERATION_EXCHANGE = 8,
	ACL_RT_ATOMIC_OPERATION_CAS = 9,
	ACL_RT_ATOMIC_OPERATION_FLOAT_ADD = 10,
	ACL_RT_ATOMIC_OPERATION_FLOAT_MIN = 11,
	ACL_RT_ATOMIC_OPERATION_FLOAT_MAX = 12,
	ACL_RT_ATOMIC_OPERATION_DMA_ADD = 30,
	ACL_RT_ATOMIC_OPERATION_DMA_MIN = 31,
	ACL_RT_ATOMIC_OPERATION_DMA_MAX = 32,
	ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_ADD = 40,
	ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_MIN = 41,
	ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_MAX = 42,
	ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_CAS = 43,
	ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_EXCH = 44,
} aclrtAtomicOperation;

/* aclrtDeviceSetLimit() / aclrtDeviceGetLimit() limits, in bytes */
typedef enum aclrtDeviceLimit {
	ACL_RT_DEV_LIMIT_SIMT_STACK_SIZE = 0,
	ACL_RT_DEV_LIMIT_SIMT_DVG_WARP_STACK_SIZE = 1,
	ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE = 2,
	ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE = 3,
	ACL_RT_DEV_LIMIT_SIMT_PRINTF_FIFO_SIZE = 4,
} aclrtDeviceLimit;

/* Initialisation and error reporting */

/* Initialise acl for the process; @configPath is a JSON file or NULL. */
ACL_FUNC_VISIBILITY aclError aclInit(const char *configPath);
/* Tear down all acl state, whatever the number of aclInit() calls. */
ACL_FUNC_VISIBILITY aclError aclFinalize(void);
/* Drop one aclInit() reference; the last one finalises. */
ACL_FUNC_VISIBILITY aclError aclFinalizeReference(uint64_t *refCount);
/* Text of the latest failures of this thread, then cleared; NULL if none. */
ACL_FUNC_VISIBILITY const char *aclGetRecentErrMsg(void);
/* Last runtime error of the calling thread, left in place. */
ACL_FUNC_VISIBILITY aclError aclrtPeekAtLastError(aclrtLastErrLevel level);
/* Last runtime error of the calling thread, then reset to ACL_SUCCESS. */
ACL_FUNC_VISIBILITY aclError aclrtGetLastError(aclrtLastErrLevel level);
/* Describe the last fault of @deviceId in *@errorInfo. */
ACL_FUNC_VISIBILITY aclError aclrtGetErrorVerbose(int32_t deviceId,
						  aclrtErrorInfo *errorInfo);

/* Devices */

/* Bind the calling thread to @deviceId (reference counted). */
ACL_FUNC_VISIBILITY aclError aclrtSetDevice(int32_t deviceId);
/* Device of the calling thread's current context. */
ACL_FUNC_VISIBILITY aclError aclrtGetDevice(int32_t *deviceId);
/* Drop one aclrtSetDevice() reference; the last releases the device. */
ACL_FUNC_VISIBILITY aclError aclrtResetDevice(int32_t deviceId);
/* Release @deviceId now, whatever its reference count. */
ACL_FUNC_VISIBILITY aclError aclrtResetDeviceForce(int32_t deviceId);
/* Number of visible devices. */
ACL_FUNC_VISIBILITY aclError aclrtGetDeviceCount(uint32_t *count);
/* Whether the software runs on the host or on the device. */
ACL_FUNC_VISIBILITY aclError aclrtGetRunMode(aclrtRunMode *runMode);
/* Wait for all work of the current device. */
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeDevice(void);
/* As aclrtSynchronizeDevice(), giving up after @timeout ms. */
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeDeviceWithTimeout(int32_t timeout);

/* Device and system queries */

/* Value of attribute @attr of device @deviceId. */
ACL_FUNC_VISIBILITY aclError aclrtGetDeviceInfo(uint32_t deviceId,
						aclrtDevAttr attr,
						int64_t *value);
/* Whether device @deviceId has feature @devFeatureType: ACL_DEV_FEATURE_*. */
ACL_FUNC_VISIBILITY aclError
aclrtGetDeviceCapability(int32_t deviceId, aclrtDevFeatureType devFeatureType,
			 int32_t *value);
/* Whether code built for SoC @socVersion runs on the current device. */
ACL_FUNC_VISIBILITY aclError aclrtCheckArchCompatibility(const char *socVersion,
							 int32_t *canCompatible);
/* Whether device @deviceId works (ACL_RT_DEVICE_STATUS_*). */
ACL_FUNC_VISIBILITY aclError
aclrtQueryDeviceStatus(int32_t deviceId, aclrtDeviceStatus *deviceStatus);
/* Unique identifier of device @deviceId. */
ACL_FUNC_VISIBILITY aclError aclrtDeviceGetUuid(int32_t deviceId,
						aclrtUuid *uuid);
/* "domain:bus:device.function" of device @deviceId; @len at least 13. */
ACL_FUNC_VISIBILITY aclError aclrtDeviceGetPCIBusId(int32_t deviceId,
						    char *pciBusId,
						    int32_t len);
/* Device whose PCI address is @pciBusId. */
ACL_FUNC_VISIBILITY aclError aclrtDeviceGetByPCIBusId(const char *pciBusId,
						      int32_t *deviceId);
/*
 * Device id conversions. A user id is what the calls above take (after
 * ASCEND_RT_VISIBLE_DEVICES), a logic id the driver's number of the
 * device, a physical id the chip's.
 */
ACL_FUNC_VISIBILITY aclError
aclrtGetLogicDevIdByUserDevId(const int32_t userDevid,
			      int32_t *const logicDevId);
ACL_FUNC_VISIBILITY aclError
aclrtGetUserDevIdByLogicDevId(const int32_t logicDevId,
			      int32_t *const userDevid);
ACL_FUNC_VISIBILITY aclError
aclrtGetLogicDevIdByPhyDevId(const int32_t phyDevId,
			     int32_t *const logicDevId);
ACL_FUNC_VISIBILITY aclError
aclrtGetPhyDevIdByLogicDevId(const int32_t logicDevId,
			     int32_t *const phyDevId);
ACL_FUNC_VISIBILITY aclError
aclrtGetUserDevIdByPhyDevId(const int32_t phyDevId, int32_t *const userDevId);
ACL_FUNC_VISIBILITY aclError
aclrtGetPhyDevIdByUserDevId(const int32_t userDevId, int32_t *const phyDevId);
/* Version of package @pkgName ("runtime", "driver", ...) as text. */
ACL_FUNC_VISIBILITY aclError aclsysGetVersionStr(char *pkgName,
						 char *versionStr);
/* The same as a number: major * 10^7 + minor * 10^5 + patch * 10^3. */
ACL_FUNC_VISIBILITY aclError aclsysGetVersionNum(char *pkgName,
						 int32_t *versionNum);
/* The acl API version: ACL_MAJOR_VERSION, _MINOR_, _PATCH_. */
ACL_DEPRECATED_MESSAGE("aclrtGetVersion is deprecated, use aclSysGetVersion instead")
ACL_FUNC_VISIBILITY aclError aclrtGetVersion(int32_t *majorVersion,
					     int32_t *minorVersion,
					     int32_t *patchVersion);

/* Contexts */

/* Create a context on @deviceId and make it current. */
ACL_FUNC_VISIBILITY aclError aclrtCreateContext(aclrtContext *context,
						int32_t deviceId);
/* Destroy an explicitly created context. */
ACL_FUNC_VISIBILITY aclError aclrtDestroyContext(aclrtContext context);
/* Make @context current for the calling thread. */
ACL_FUNC_VISIBILITY aclError aclrtSetCurrentContext(aclrtContext context);
/* Current context of the calling thread. */
ACL_FUNC_VISIBILITY aclError aclrtGetCurrentContext(aclrtContext *context);

/* Streams */

/* Create an in-order stream in the current context. */
ACL_FUNC_VISIBILITY aclError aclrtCreateStream(aclrtStream *stream);
/* Create a stream with @priority (0 highest) and ACL_STREAM_* @flag. */
ACL_FUNC_VISIBILITY aclError aclrtCreateStreamWithConfig(aclrtStream *stream,
							 uint32_t priority,
							 uint32_t flag);
/* Wait for the stream's work, then destroy it. */
ACL_FUNC_VISIBILITY aclError aclrtDestroyStream(aclrtStream stream);
/* Destroy the stream, discarding work not yet done. */
ACL_FUNC_VISIBILITY aclError aclrtDestroyStreamForce(aclrtStream stream);
/* Wait for all work queued on @stream; returns its first failure. */
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeStream(aclrtStream stream);
/* As aclrtSynchronizeStream(), giving up after @timeout ms. */
ACL_FUNC_VISIBILITY aclError
aclrtSynchronizeStreamWithTimeout(aclrtStream stream, int32_t timeout);
/* Non-blocking: whether all work of @stream is done. */
ACL_FUNC_VISIBILITY aclError aclrtStreamQuery(aclrtStream stream,
					      aclrtStreamStatus *status);
/* Make later work on @stream wait for @event's recorded work. */
ACL_FUNC_VISIBILITY aclError aclrtStreamWaitEvent(aclrtStream stream,
						  aclrtEvent event);
/* As aclrtStreamWaitEvent(), with a limit on the wait (s, 0: none). */
ACL_FUNC_VISIBILITY aclError
aclrtStreamWaitEventWithTimeout(aclrtStream stream, aclrtEvent event,
				int32_t timeout);
/* As aclrtStreamWaitEventWithTimeout(), with an ACL_EVENT_WAIT_* @flag. */
ACL_FUNC_VISIBILITY aclError aclrtStreamWaitEventWithFlag(aclrtStream stream,
							  aclrtEvent event,
							  uint32_t timeout,
							  uint32_t flag);
/* ACL_CONTINUE_ON_FAILURE or ACL_STOP_ON_FAILURE for @stream. */
ACL_FUNC_VISIBILITY aclError aclrtSetStreamFailureMode(aclrtStream stream,
						       uint64_t mode);

/* Events */

/* Create an event usable for timing and cross-stream waits. */
ACL_FUNC_VISIBILITY aclError aclrtCreateEvent(aclrtEvent *event);
/* Create an event with ACL_EVENT_* @flag. */
ACL_FUNC_VISIBILITY aclError aclrtCreateEventWithFlag(aclrtEvent *event,
						      uint32_t flag);
/* Create a re-recordable event with ACL_EVENT_* @flag. */
ACL_FUNC_VISIBILITY aclError aclrtCreateEventExWithFlag(aclrtEvent *event,
							uint32_t flag);
/* Destroy @event (resources go once its pending work completes). */
ACL_FUNC_VISIBILITY aclError aclrtDestroyEvent(aclrtEvent event);
/* Capture the work queued on @stream so far into @event. */
ACL_FUNC_VISIBILITY aclError aclrtRecordEvent(aclrtEvent event,
					      aclrtStream stream);
/* As aclrtRecordEvent(), with an ACL_EVENT_RECORD_* @flag. */
ACL_FUNC_VISIBILITY aclError aclrtRecordEventWithFlag(aclrtEvent event,
						      aclrtStream stream,
						      uint32_t flag);
/* Non-blocking: whether @event's recorded work is done. */
ACL_FUNC_VISIBILITY aclError
aclrtQueryEventStatus(aclrtEvent event, aclrtEventRecordedStatus *status);
/* Old form of aclrtQueryEventStatus() with the old status enum. */
ACL_DEPRECATED_MESSAGE("aclrtQueryEvent is deprecated, use aclrtQueryEventStatus instead")
ACL_FUNC_VISIBILITY aclError aclrtQueryEvent(aclrtEvent event,
					     aclrtEventStatus *status);
/* Wait for @event's recorded work. */
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeEvent(aclrtEvent event);
/* As aclrtSynchronizeEvent(), giving up after @timeout ms. */
ACL_FUNC_VISIBILITY aclError
aclrtSynchronizeEventWithTimeout(aclrtEvent event, int32_t timeout);
/* Milliseconds between two completed events. */
ACL_FUNC_VISIBILITY aclError aclrtEventElapsedTime(float *ms,
						   aclrtEvent startEvent,
						   aclrtEvent endEvent);
/* Device time (us) at which @event's recorded work completed. */
ACL_FUNC_VISIBILITY aclError aclrtEventGetTimestamp(aclrtEvent event,
						    uint64_t *timestamp);
/* Queue on @stream a reset of @event to its initial state. */
ACL_FUNC_VISIBILITY aclError aclrtResetEvent(aclrtEvent event,
					     aclrtStream stream);
/* Non-blocking: whether every stream wait queued on @event has passed. */
ACL_FUNC_VISIBILITY aclError
aclrtQueryEventWaitStatus(aclrtEvent event, aclrtEventWaitStatus *status);
/* The id of @event. */
ACL_FUNC_VISIBILITY aclError aclrtGetEventId(aclrtEvent event,
					     uint32_t *eventId);
/* How many more events the current device can create. */
ACL_FUNC_VISIBILITY aclError aclrtGetEventAvailNum(uint32_t *eventCount);

/* Memory */

/* Allocate @size bytes of device memory. */
ACL_FUNC_VISIBILITY aclError aclrtMalloc(void **devPtr, size_t size,
					 aclrtMemMallocPolicy policy);
/* As aclrtMalloc(), rounding to 32 bytes without extra padding. */
ACL_FUNC_VISIBILITY aclError aclrtMallocAlign32(void **devPtr, size_t size,
						aclrtMemMallocPolicy policy);
/* As aclrtMalloc(), with optional attributes in @cfg. */
ACL_FUNC_VISIBILITY aclError aclrtMallocWithCfg(void **devPtr, size_t size,
						aclrtMemMallocPolicy policy,
						aclrtMallocConfig *cfg);
/* Allocate @size bytes of pinned host memory. */
ACL_FUNC_VISIBILITY aclError aclrtMallocHost(void **hostPtr, size_t size);
/* As aclrtMallocHost(), with optional attributes in @cfg. */
ACL_FUNC_VISIBILITY aclError aclrtMallocHostWithCfg(void **ptr, uint64_t size,
						    aclrtMallocConfig *cfg);
/* Free device memory at once (no implicit synchronisation). */
ACL_FUNC_VISIBILITY aclError aclrtFree(void *devPtr);
/* Free pinned host memory at once (no implicit synchronisation). */
ACL_FUNC_VISIBILITY aclError aclrtFreeHost(void *hostPtr);
/* Synchronise the device, then free device memory. */
ACL_FUNC_VISIBILITY aclError aclrtFreeWithDevSync(void *devPtr);
/* Synchronise the device, then free pinned host memory. */
ACL_FUNC_VISIBILITY aclError aclrtFreeHostWithDevSync(void *hostPtr);
/* Free and total bytes of class @attr on the current device. */
ACL_FUNC_VISIBILITY aclError aclrtGetMemInfo(aclrtMemAttr attr, size_t *free,
					     size_t *total);
/*
 * Device memory this process holds on device @deviceId, per component,
 * most held first: up to @inputNum entries into @memUsageInfo, how many
 * into *@outputNum.
 */
ACL_FUNC_VISIBILITY aclError aclrtGetMemUsageInfo(int32_t deviceId,
						  aclrtMemUsageInfo *memUsageInfo,
						  size_t inputNum,
						  size_t *outputNum);

/* Host registration and pointer attributes */

/* Map a host range for the device; its device alias goes to *@devPtr. */
ACL_FUNC_VISIBILITY aclError aclrtHostRegister(void *ptr, uint64_t size,
					       aclrtHostRegisterType type,
					       void **devPtr);
/* Register a host range with ACL_HOST_REG_* @flag. */
ACL_FUNC_VISIBILITY aclError aclrtHostRegisterV2(void *ptr, uint64_t size,
						 uint32_t flag);
/* Device alias of a registered host range; @flag must be 0. */
ACL_FUNC_VISIBILITY aclError aclrtHostGetDevicePointer(void *pHost,
						       void **pDevice,
						       uint32_t flag);
/* Undo aclrtHostRegister() or aclrtHostRegisterV2(). */
ACL_FUNC_VISIBILITY aclError aclrtHostUnregister(void *ptr);
/* Can engine @hacType of device @deviceId reach host memory mapped for it? */
ACL_FUNC_VISIBILITY aclError
aclrtHostMemMapCapabilities(uint32_t deviceId, aclrtHacType hacType,
			    aclrtHostMemMapCapability *capabilities);
/* Where @ptr lives (host, device, unregistered, ...) and its page size. */
ACL_FUNC_VISIBILITY aclError
aclrtPointerGetAttributes(const void *ptr, aclrtPtrAttributes *attributes);

/* Copies; @destMax is the capacity of @dst */

/* Copy @count bytes and return when done. */
ACL_FUNC_VISIBILITY aclError aclrtMemcpy(void *dst, size_t destMax,
					 const void *src, size_t count,
					 aclrtMemcpyKind kind);
/* Queue a copy of @count bytes on @stream (synchronous if pageable). */
ACL_FUNC_VISIBILITY aclError aclrtMemcpyAsync(void *dst, size_t destMax,
					      const void *src, size_t count,
					      aclrtMemcpyKind kind,
					      aclrtStream stream);
/* Deprecated variant of aclrtMemcpyAsync() for pinned host memory. */
ACL_DEPRECATED_MESSAGE("aclrtMemcpyAsyncWithCondition is deprecated, use aclrtMemcpyAsync instead")
ACL_FUNC_VISIBILITY aclError
aclrtMemcpyAsyncWithCondition(void *dst, size_t destMax, const void *src,
			      size_t count, aclrtMemcpyKind kind,
			      aclrtStream stream);
/* Copy @height rows of @width bytes between pitched buffers. */
ACL_FUNC_VISIBILITY aclError aclrtMemcpy2d(void *dst, size_t dpitch,
					   const void *src, size_t spitch,
					   size_t width, size_t height,
					   aclrtMemcpyKind kind);
/* Queue a 2-D copy on @stream. */
ACL_FUNC_VISIBILITY aclError
aclrtMemcpy2dAsync(void *dst, size_t dpitch, const void *src, size_t spitch,
		   size_t width, size_t height, aclrtMemcpyKind kind,
		   aclrtStream stream);
/* Do @numBatches independent copies; *@failIndex names a bad one. */
ACL_FUNC_VISIBILITY aclError
aclrtMemcpyBatch(void **dsts, size_t *destMaxs, void **srcs, size_t *sizes,
		 size_t numBatches, aclrtMemcpyBatchAttr *attrs,
		 size_t *attrsIndexes, size_t numAttrs, size_t *failIndex);
/* aclrtMemcpyBatch() without @failIndex. */
ACL_FUNC_VISIBILITY aclError
aclrtMemcpyBatchV2(void **dsts, size_t *destMaxs, void **srcs, size_t *sizes,
		   size_t numBatches, aclrtMemcpyBatchAttr *attrs,
		   size_t *attrsIndexes, size_t numAttrs);
/* Queue @numBatches independent copies on @stream. */
ACL_FUNC_VISIBILITY aclError
aclrtMemcpyBatchAsync(void **dsts, size_t *destMaxs, void **srcs,
		      size_t *sizes, size_t numBatches,
		      aclrtMemcpyBatchAttr *attrs, size_t *attrsIndexes,
		      size_t numAttrs, size_t *failIndex, aclrtStream stream);
/* aclrtMemcpyBatchAsync() without @failIndex. */
ACL_FUNC_VISIBILITY aclError
aclrtMemcpyBatchAsyncV2(void **dsts, size_t *destMaxs, void **srcs,
			size_t *sizes, size_t numBatches,
			aclrtMemcpyBatchAttr *attrs, size_t *attrsIndexes,
			size_t numAttrs, aclrtStream stream);
/* Size in bytes of a copy descriptor for @kind. */
ACL_FUNC_VISIBILITY aclError aclrtGetMemcpyDescSize(aclrtMemcpyKind kind,
						    size_t *descSize);
/* Store a (src, dst, count) copy into the device descriptor @desc. */
ACL_FUNC_VISIBILITY aclError aclrtSetMemcpyDesc(void *desc,
						aclrtMemcpyKind kind,
						void *srcAddr, void *dstAddr,
						size_t count, void *config);
/* Queue the copy described by @desc on @stream (must not be NULL). */
ACL_FUNC_VISIBILITY aclError aclrtMemcpyAsyncWithDesc(void *desc,
						      aclrtMemcpyKind kind,
						      aclrtStream stream);
/* Queue a copy whose base addresses are read from device memory. */
ACL_FUNC_VISIBILITY aclError
aclrtMemcpyAsyncWithOffset(void **dst, size_t destMax, size_t dstDataOffset,
			   const void **src, size_t count,
			   size_t srcDataOffset, aclrtMemcpyKind kind,
			   aclrtStream stream);

/*
 * Queue dst[i] = kind(dst[i], src[i]) over @count bytes of @type elements,
 * both device memory of @stream's device; @reserve must be NULL.
 */
ACL_FUNC_VISIBILITY aclError aclrtReduceAsync(void *dst, const void *src,
					      uint64_t count,
					      aclrtReduceKind kind,
					      aclDataType type,
					      aclrtStream stream, void *reserve);

/* Memset */

/* Fill @count bytes with the low byte of @value. */
ACL_FUNC_VISIBILITY aclError aclrtMemset(void *devPtr, size_t maxCount,
					 int32_t value, size_t count);
/* Queue aclrtMemset() on @stream. */
ACL_FUNC_VISIBILITY aclError aclrtMemsetAsync(void *devPtr, size_t maxCount,
					      int32_t value, size_t count,
					      aclrtStream stream);
/* Fill @N 32-bit words with @value. */
ACL_FUNC_VISIBILITY aclError aclrtMemsetD32(void *ptr, size_t memSize,
					    uint32_t value, size_t N);
/* Queue aclrtMemsetD32() on @stream. */
ACL_FUNC_VISIBILITY aclError aclrtMemsetD32Async(void *ptr, size_t memSize,
						 uint32_t value, size_t N,
						 aclrtStream stream);

/* Peer access */

/* Whether @deviceId can exchange data with @peerDeviceId. */
ACL_FUNC_VISIBILITY aclError aclrtDeviceCanAccessPeer(int32_t *canAccessPeer,
						      int32_t deviceId,
						      int32_t peerDeviceId);
/* Let the current device reach @peerDeviceId; @flags must be 0. */
ACL_FUNC_VISIBILITY aclError aclrtDeviceEnablePeerAccess(int32_t peerDeviceId,
							 uint32_t flags);
/* Undo aclrtDeviceEnablePeerAccess(). */
ACL_FUNC_VISIBILITY aclError aclrtDeviceDisablePeerAccess(int32_t peerDeviceId);
/* Whether access from @deviceId to @peerDeviceId is enabled. */
ACL_FUNC_VISIBILITY aclError aclrtDevicePeerAccessStatus(int32_t deviceId,
							 int32_t peerDeviceId,
							 int32_t *status);

/*
 * IPC memory: device memory shared with other processes by key
 * (Documentation/libacl.rst, "IPC memory"; the driver enforces who may
 * import).
 */

/*
 * Share [@devPtr, @devPtr + @size) (whole pages of one allocation) and
 * write its key, a string, into @key (@len >= 65). @flags:
 * ACL_RT_IPC_MEM_EXPORT_FLAG_DEFAULT (only the processes given to
 * aclrtIpcMemSetImportPid() may import) or
 * ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION (any process may).
 */
ACL_FUNC_VISIBILITY aclError aclrtIpcMemGetExportKey(void *devPtr, size_t size,
						     char *key, size_t len,
						     uint64_t flags);
/* Allow the @num processes @pid to import the key this process exported. */
ACL_FUNC_VISIBILITY aclError aclrtIpcMemSetImportPid(const char *key,
						     int32_t *pid, size_t num);
/*
 * Map the memory of @key into this process: *@devPtr is at the
 * exporter's device address, on the exporter's NPU. @flags:
 * ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS also lets the current
 * device reach that NPU when it is another.
 */
ACL_FUNC_VISIBILITY aclError aclrtIpcMemImportByKey(void **devPtr,
						    const char *key,
						    uint64_t flags);
/* Exporter: revoke @key. Importer: unmap one import of it. */
ACL_FUNC_VISIBILITY aclError aclrtIpcMemClose(const char *key);
/* Set an attribute of @key's memory (only the default link exists here). */
ACL_FUNC_VISIBILITY aclError aclrtIpcMemSetAttr(const char *key,
						aclrtIpcMemAttrType type,
						uint64_t attr);
/* This process's id as aclrtIpcMemSetImportPid() wants it. */
ACL_FUNC_VISIBILITY aclError aclrtDeviceGetBareTgid(int32_t *pid);

/*
 * Virtual memory management (Documentation/libacl.rst, "Virtual memory"):
 * physical allocations, ranges of virtual device addresses reserved on
 * the current device, mappings between them; physical allocations shared
 * with other processes by shareable handles.
 */

/* Size and alignment of mappings (both options: 2 MiB). */
ACL_FUNC_VISIBILITY aclError aclrtMemGetAllocationGranularity(aclrtPhysicalMemProp *prop,
							      aclrtMemGranularityOptions option,
							      size_t *granularity);
/* Allocate device memory of @prop->location.id, whole granules. */
ACL_FUNC_VISIBILITY aclError aclrtMallocPhysical(aclrtDrvMemHandle *handle,
						 size_t size,
						 const aclrtPhysicalMemProp *prop,
						 uint64_t flags);
/* Drop @handle; the memory stays while mapped or shared. */
ACL_FUNC_VISIBILITY aclError aclrtFreePhysical(aclrtDrvMemHandle handle);
/* Reserve @size bytes of virtual device addresses of the current device. */
ACL_FUNC_VISIBILITY aclError aclrtReserveMemAddress(void **virPtr, size_t size,
						    size_t alignment,
						    void *expectPtr,
						    uint64_t flags);
/* Give a reservation back (unmapped first). */
ACL_FUNC_VISIBILITY aclError aclrtReleaseMemAddress(void *virPtr);
/* Map @handle's memory at @virPtr, in a reservation; @offset 0. */
ACL_FUNC_VISIBILITY aclError aclrtMapMem(void *virPtr, size_t size,
					 size_t offset,
					 aclrtDrvMemHandle handle,
					 uint64_t flags);
/* Remove the mapping that starts at @virPtr. */
ACL_FUNC_VISIBILITY aclError aclrtUnmapMem(void *virPtr);
/* Grant devices read-write access to a mapped range. */
ACL_FUNC_VISIBILITY aclError aclrtMemSetAccess(void *virPtr, size_t size,
					       aclrtMemAccessDesc *desc,
					       size_t count);
/* The access @location has to the mapping holding @virPtr. */
ACL_FUNC_VISIBILITY aclError aclrtMemGetAccess(void *virPtr,
					       aclrtMemLocation *location,
					       uint64_t *flag);
/* The handle mapped at @virPtr, with a reference (aclrtFreePhysical). */
ACL_FUNC_VISIBILITY aclError aclrtMemRetainAllocationHandle(void *virPtr,
							    aclrtDrvMemHandle *handle);
/* The properties @handle was allocated with. */
ACL_FUNC_VISIBILITY aclError
aclrtMemGetAllocationPropertiesFromHandle(aclrtDrvMemHandle handle,
					  aclrtPhysicalMemProp *prop);
/* Start and size of the allocation or mapping holding @ptr. */
ACL_FUNC_VISIBILITY aclError aclrtMemGetAddressRange(void *ptr, void **pbase,
						     size_t *psize);
/* Share a physical allocation: a 64-bit handle for another process. */
ACL_FUNC_VISIBILITY aclError aclrtMemExportToShareableHandle(aclrtDrvMemHandle handle,
							     aclrtMemHandleType handleType,
							     uint64_t flags,
							     uint64_t *shareableHandle);
/* The same, the handle's type chosen (DEFAULT: uint64_t; FABRIC). */
ACL_FUNC_VISIBILITY aclError aclrtMemExportToShareableHandleV2(aclrtDrvMemHandle handle,
							       uint64_t flags,
							       aclrtMemSharedHandleType shareType,
							       void *shareableHandle);
/* The processes that may import @shareableHandle. */
ACL_FUNC_VISIBILITY aclError aclrtMemSetPidToShareableHandle(uint64_t shareableHandle,
							     int32_t *pid,
							     size_t pidNum);
ACL_FUNC_VISIBILITY aclError aclrtMemSetPidToShareableHandleV2(void *shareableHandle,
							       aclrtMemSharedHandleType shareType,
							       int32_t *pid,
							       size_t pidNum);
/* A handle of another process's shared allocation, for aclrtMapMem(). */
ACL_FUNC_VISIBILITY aclError aclrtMemImportFromShareableHandle(uint64_t shareableHandle,
							       int32_t deviceId,
							       aclrtDrvMemHandle *handle);
ACL_FUNC_VISIBILITY aclError aclrtMemImportFromShareableHandleV2(void *shareableHandle,
								 aclrtMemSharedHandleType shareType,
								 uint64_t flags,
								 aclrtDrvMemHandle *handle);

/* Host callbacks in stream order */

/* Serve @stream's callbacks from thread @threadId. */
ACL_FUNC_VISIBILITY aclError aclrtSubscribeReport(uint64_t threadId,
						  aclrtStream stream);
/* Queue @fn(@userData), run by the subscribed thread. */
ACL_FUNC_VISIBILITY aclError aclrtLaunchCallback(aclrtCallback fn,
						 void *userData,
						 aclrtCallbackBlockType blockType,
						 aclrtStream stream);
/* Run the callbacks due to the calling thread, waiting up to @timeout ms. */
ACL_FUNC_VISIBILITY aclError aclrtProcessReport(int32_t timeout);
/* Undo aclrtSubscribeReport(). */
ACL_FUNC_VISIBILITY aclError aclrtUnSubscribeReport(uint64_t threadId,
						    aclrtStream stream);
/*
 * Queue @fn(@args) on @stream, run by the thread subscribed with
 * aclrtSubscribeHostFunc(), else by a runtime thread.
 */
ACL_FUNC_VISIBILITY aclError aclrtLaunchHostFunc(aclrtStream stream,
						 aclrtHostFunc fn, void *args);
/* Serve @exeStream's host functions from thread @hostFuncThreadId. */
ACL_FUNC_VISIBILITY aclError aclrtSubscribeHostFunc(uint64_t hostFuncThreadId,
						    aclrtStream exeStream);
/* Run the host functions due to the calling thread, waiting up to @timeout ms. */
ACL_FUNC_VISIBILITY aclError aclrtProcessHostFunc(int32_t timeout);
/* Undo aclrtSubscribeHostFunc(). */
ACL_FUNC_VISIBILITY aclError
aclrtUnSubscribeHostFunc(uint64_t hostFuncThreadId, aclrtStream exeStream);

/* Memory value write / wait */

/* Queue a store of the 64-bit @value at @devAddr; @flag must be 0. */
ACL_FUNC_VISIBILITY aclError aclrtValueWrite(void *devAddr, uint64_t value,
					     uint32_t flag, aclrtStream stream);
/* Hold @stream until *@devAddr meets ACL_STREAM_WAIT_VALUE_* @flag. */
ACL_FUNC_VISIBILITY aclError aclrtValueWait(void *devAddr, uint64_t value,
					    uint32_t flag, aclrtStream stream);

/* Graph capture */

/* Start recording the work submitted to @stream. */
ACL_FUNC_VISIBILITY aclError aclmdlRICaptureBegin(aclrtStream stream,
						  aclmdlRICaptureMode mode);
/* Capture status of @stream and the graph being recorded. */
ACL_FUNC_VISIBILITY aclError
aclmdlRICaptureGetInfo(aclrtStream stream, aclmdlRICaptureStatus *status,
		       aclmdlRI *modelRI);
/* Stop recording on @stream; the graph goes to *@modelRI. */
ACL_FUNC_VISIBILITY aclError aclmdlRICaptureEnd(aclrtStream stream,
						aclmdlRI *modelRI);
/* Swap the calling thread's capture mode with *@mode. */
ACL_FUNC_VISIBILITY aclError
aclmdlRICaptureThreadExchangeMode(aclmdlRICaptureMode *mode);
/* Queue one replay of @modelRI on @stream. */
ACL_FUNC_VISIBILITY aclError aclmdlRIExecuteAsync(aclmdlRI modelRI,
						  aclrtStream stream);
/* Free a captured graph. */
ACL_FUNC_VISIBILITY aclError aclmdlRIDestroy(aclmdlRI modelRI);

/* Stream control and queries */

/* Stop the tasks running on @stream, keeping queued ones. */
ACL_FUNC_VISIBILITY aclError aclrtStreamStop(aclrtStream stream);
/* Stop running tasks of @stream and discard queued ones. */
ACL_FUNC_VISIBILITY aclError aclrtStreamAbort(aclrtStream stream);
/* Add (or, with a NULL @callback, remove) a stream create/destroy hook. */
ACL_FUNC_VISIBILITY aclError
aclrtRegStreamStateCallback(const char *regName,
			    aclrtStreamStateCallback callback, void *args);
/* Numeric id of @stream. */
ACL_FUNC_VISIBILITY aclError aclrtStreamGetId(aclrtStream stream,
					      int32_t *streamId);
/* ACL_STREAM_* flags @stream was created with. */
ACL_FUNC_VISIBILITY aclError aclrtStreamGetFlags(aclrtStream stream,
						 uint32_t *flags);
/* Priority @stream was created with. */
ACL_FUNC_VISIBILITY aclError aclrtStreamGetPriority(aclrtStream stream,
						    uint32_t *priority);
/* Set one ACL_STREAM_ATTR_* attribute of @stream. */
ACL_FUNC_VISIBILITY aclError
aclrtSetStreamAttribute(aclrtStream stream, aclrtStreamAttr stmAttrType,
			aclrtStreamAttrValue *value);
/* Read one ACL_STREAM_ATTR_* attribute of @stream. */
ACL_FUNC_VISIBILITY aclError
aclrtGetStreamAttribute(aclrtStream stream, aclrtStreamAttr stmAttrType,
			aclrtStreamAttrValue *value);
/* The default stream of the thread's current context. */
ACL_FUNC_VISIBILITY aclError
aclrtCtxGetCurrentDefaultStream(aclrtStream *stream);
/* Lowest (numerically largest) and highest stream priority accepted. */
ACL_FUNC_VISIBILITY aclError
aclrtDeviceGetStreamPriorityRange(int32_t *leastPriority,
				  int32_t *greatestPriority);
/* New stream-config handle; NULL on failure. */
ACL_FUNC_VISIBILITY aclrtStreamConfigHandle *
aclrtCreateStreamConfigHandle(void);
/* Free a stream-config handle. */
ACL_FUNC_VISIBILITY aclError
aclrtDestroyStreamConfigHandle(aclrtStreamConfigHandle *handle);
/* Set one attribute of a stream-config handle. */
ACL_FUNC_VISIBILITY aclError
aclrtSetStreamConfigOpt(aclrtStreamConfigHandle *handle,
			aclrtStreamConfigAttr attr, const void *attrValue,
			size_t valueSize);
/* Create a stream from a stream-config handle. */
ACL_FUNC_VISIBILITY aclError
aclrtCreateStreamV2(aclrtStream *stream, const aclrtStreamConfigHandle *handle);

/* Notifies */

/* Create a notify with ACL_NOTIFY_* @flag. */
ACL_FUNC_VISIBILITY aclError aclrtCreateNotify(aclrtNotify *notify,
					       uint64_t flag);
/* Destroy a notify. */
ACL_FUNC_VISIBILITY aclError aclrtDestroyNotify(aclrtNotify notify);
/* Queue a signal of @notify on @stream. */
ACL_FUNC_VISIBILITY aclError aclrtRecordNotify(aclrtNotify notify,
					       aclrtStream stream);
/* Queue a wait for @notify then its reset; @timeout in s, 0 = forever. */
ACL_FUNC_VISIBILITY aclError aclrtWaitAndResetNotify(aclrtNotify notify,
						     aclrtStream stream,
						     uint32_t timeout);
/* The id of @notify on its device. */
/*
 * Share @notify with other processes: its key (@len >= 65). @flags:
 * ACL_RT_NOTIFY_EXPORT_FLAG_DEFAULT (only processes given to
 * aclrtNotifySetImportPid may import) or ..._DISABLE_PID_VALIDATION.
 */
ACL_FUNC_VISIBILITY aclError aclrtNotifyGetExportKey(aclrtNotify notify,
						     char *key, size_t len,
						     uint64_t flags);
/*
 * The handle another process opens @event (created with ACL_EVENT_IPC)
 * by; its streams may then wait for this process's records of it.
 */
ACL_FUNC_VISIBILITY aclError aclrtIpcGetEventHandle(aclrtEvent event,
						    aclrtIpcEventHandle *handle);
/* Another process's event, for stream waits on the current device. */
ACL_FUNC_VISIBILITY aclError aclrtIpcOpenEventHandle(aclrtIpcEventHandle handle,
						     aclrtEvent *event);
/* A notify of another process, by its key, on the current device. */
ACL_FUNC_VISIBILITY aclError aclrtNotifyImportByKey(aclrtNotify *notify,
						    const char *key,
						    uint64_t flags);
/* The processes that may import the exported @notify. */
ACL_FUNC_VISIBILITY aclError aclrtNotifySetImportPid(aclrtNotify notify,
						     int32_t *pid, size_t num);
ACL_FUNC_VISIBILITY aclError aclrtGetNotifyId(aclrtNotify notify,
					      uint32_t *notifyId);

/*
 * Device resource limits: the compute cores a task may use, per process
 * and device, per stream, and per thread (a stream's). These NPUs have
 * none: every limit is 0 and only 0 can be set (lib/acl_reslimit.c).
 */
ACL_FUNC_VISIBILITY aclError aclrtGetDeviceResLimit(int32_t deviceId,
						    aclrtDevResLimitType type,
						    uint32_t *value);
ACL_FUNC_VISIBILITY aclError aclrtSetDeviceResLimit(int32_t deviceId,
						    aclrtDevResLimitType type,
						    uint32_t value);
ACL_FUNC_VISIBILITY aclError aclrtResetDeviceResLimit(int32_t deviceId);
ACL_FUNC_VISIBILITY aclError aclrtGetStreamResLimit(aclrtStream stream,
						    aclrtDevResLimitType type,
						    uint32_t *value);
ACL_FUNC_VISIBILITY aclError aclrtSetStreamResLimit(aclrtStream stream,
						    aclrtDevResLimitType type,
						    uint32_t value);
ACL_FUNC_VISIBILITY aclError aclrtResetStreamResLimit(aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclrtUseStreamResInCurrentThread(aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclrtUnuseStreamResInCurrentThread(aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclrtGetResInCurrentThread(aclrtDevResLimitType type,
							uint32_t *value);

/*
 * Kernel loading and launch (aclrtBinaryLoadFromFile ...
 * aclrtLaunchKernelWithConfig) are not declared: these NPUs run no device
 * code, and a declaration the library cannot honour would only move the
 * failure from the build to the run. Their handle types above stay.
 */

#ifdef __cplusplus
}
#endif

#endif /* ACL_ACL_RT_H */
