/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Compile-time pins of the data-movement types of the acl headers (issue
 * 26 item 8): every enumerator value, enum size, flag macro, struct size
 * and member offset of the memory, VMM, IPC, cache-maintenance, reduce,
 * notify, device and memory-pool types. Included by acl_headers_c.c
 * (C99, C11) and acl_headers_cxx.cc (C++11, C++17), each of which defines
 * PIN(expr) as its static assertion.
 *
 * Every value below was measured by compiling against CANN's own public
 * headers (hicann/runtime include/external/acl, API 1.17.0, commit
 * 681ef7610df1) on x86-64, and this file compiles unchanged against them
 * (as C11 and C++11; CANN's acl_rt.h itself is not C99 -pedantic clean).
 * Layouts that hold pointers, size_t or uint64_t are pinned for LP64 only.
 */
#ifndef ACL_HEADERS_DM_H
#define ACL_HEADERS_DM_H

#include "acl/acl_rt.h"
#include "acl/acl_rt_memory_soma.h"

#include <stddef.h>

#ifndef PIN
#error "define PIN(expr) before including acl_headers_dm.h"
#endif

/* Deprecated-in-CANN spellings are pinned too. */
#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif

/* aclDataType */
PIN(sizeof(aclDataType) == 4);
PIN(ACL_DT_UNDEFINED == -1);
PIN(ACL_FLOAT == 0);
PIN(ACL_FLOAT16 == 1);
PIN(ACL_INT8 == 2);
PIN(ACL_INT32 == 3);
PIN(ACL_UINT8 == 4);
PIN(ACL_INT16 == 6);
PIN(ACL_UINT16 == 7);
PIN(ACL_UINT32 == 8);
PIN(ACL_INT64 == 9);
PIN(ACL_UINT64 == 10);
PIN(ACL_DOUBLE == 11);
PIN(ACL_BOOL == 12);
PIN(ACL_STRING == 13);
PIN(ACL_COMPLEX64 == 16);
PIN(ACL_COMPLEX128 == 17);
PIN(ACL_BF16 == 27);
PIN(ACL_INT4 == 29);
PIN(ACL_UINT1 == 30);
PIN(ACL_COMPLEX32 == 33);
PIN(ACL_HIFLOAT8 == 34);
PIN(ACL_FLOAT8_E5M2 == 35);
PIN(ACL_FLOAT8_E4M3FN == 36);
PIN(ACL_FLOAT8_E8M0 == 37);
PIN(ACL_FLOAT6_E3M2 == 38);
PIN(ACL_FLOAT6_E2M3 == 39);
PIN(ACL_FLOAT4_E2M1 == 40);
PIN(ACL_FLOAT4_E1M2 == 41);

/* aclrtMemManagedAdviseType */
PIN(sizeof(aclrtMemManagedAdviseType) == 4);
PIN(ACL_MEM_ADVISE_SET_READ_MOSTLY == 0);
PIN(ACL_MEM_ADVISE_UNSET_READ_MOSTLY == 1);
PIN(ACL_MEM_ADVISE_SET_PREFERRED_LOCATION == 2);
PIN(ACL_MEM_ADVISE_UNSET_PREFERRED_LOCATION == 3);
PIN(ACL_MEM_ADVISE_SET_ACCESSED_BY == 4);
PIN(ACL_MEM_ADVISE_UNSET_ACCESSED_BY == 5);

/* aclrtMemManagedLocationType */
PIN(sizeof(aclrtMemManagedLocationType) == 4);
PIN(ACL_MEM_LOCATIONTYPE_INVALID == 0);
PIN(ACL_MEM_LOCATIONTYPE_DEVICE == 1);
PIN(ACL_MEM_LOCATIONTYPE_HOST == 2);
PIN(ACL_MEM_LOCATIONTYPE_HOST_NUMA == 3);
PIN(ACL_MEM_LOCATIONTYPE_HOST_NUMA_CURRENT == 4);

/* aclrtMemManagedRangeAttribute */
PIN(sizeof(aclrtMemManagedRangeAttribute) == 4);
PIN(ACL_MEM_RANGE_ATTRIBUTE_READ_MOSTLY == 1);
PIN(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION == 2);
PIN(ACL_MEM_RANGE_ATTRIBUTE_ACCESSED_BY == 3);
PIN(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_TYPE == 4);
PIN(ACL_MEM_RANGE_ATTRIBUTE_PREFERRED_LOCATION_ID == 5);
PIN(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION == 6);
PIN(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_TYPE == 7);
PIN(ACL_MEM_RANGE_ATTRIBUTE_LAST_PREFETCH_LOCATION_ID == 8);

/* aclrtMemPgType */
PIN(sizeof(enum aclrtMemPgType) == 4);
PIN(NORMAL_PAGE_TYPE == 0);
PIN(HUGE_PAGE_TYPE == 1);
PIN(HUGE1G_PAGE_TYPE == 2);

/* aclrtMemType */
PIN(sizeof(enum aclrtMemType) == 4);
PIN(HBM_TYPE == 0);
PIN(DDR_TYPE == 1);
PIN(P2P_HBM_TYPE == 2);
PIN(P2P_DDR_TYPE == 3);

/* aclrtIpcMemAttrType */
PIN(sizeof(aclrtIpcMemAttrType) == 4);
PIN(ACL_RT_IPC_MEM_ATTR_ACCESS_LINK == 0);

/* aclrtGroupAttr */
PIN(sizeof(aclrtGroupAttr) == 4);
PIN(ACL_GROUP_AICORE_INT == 0);
PIN(ACL_GROUP_AIV_INT == 1);
PIN(ACL_GROUP_AIC_INT == 2);
PIN(ACL_GROUP_SDMANUM_INT == 3);
PIN(ACL_GROUP_ASQNUM_INT == 4);
PIN(ACL_GROUP_GROUPID_INT == 5);

/* aclrtFloatOverflowMode */
PIN(sizeof(aclrtFloatOverflowMode) == 4);
PIN(ACL_RT_OVERFLOW_MODE_SATURATION == 0);
PIN(ACL_RT_OVERFLOW_MODE_INFNAN == 1);
PIN(ACL_RT_OVERFLOW_MODE_UNDEF == 2);

/* aclrtMemAllocationType */
PIN(sizeof(aclrtMemAllocationType) == 4);
PIN(ACL_MEM_ALLOCATION_TYPE_PINNED == 0);

/* aclrtMemHandleType */
PIN(sizeof(aclrtMemHandleType) == 4);
PIN(ACL_MEM_HANDLE_TYPE_NONE == 0);
PIN(ACL_MEM_HANDLE_TYPE_POSIX == 2);

/* aclrtMemSharedHandleType */
PIN(sizeof(aclrtMemSharedHandleType) == 4);
PIN(ACL_MEM_SHARE_HANDLE_TYPE_DEFAULT == 1);
PIN(ACL_MEM_SHARE_HANDLE_TYPE_FABRIC == 2);

/* aclrtMemGranularityOptions */
PIN(sizeof(aclrtMemGranularityOptions) == 4);
PIN(ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM == 0);
PIN(ACL_RT_MEM_ALLOC_GRANULARITY_RECOMMENDED == 1);
PIN(ACL_RT_MEM_ALLOC_GRANULARITY_UNDEF == 65535);

/* aclrtMemAccessFlags */
PIN(sizeof(aclrtMemAccessFlags) == 4);
PIN(ACL_RT_MEM_ACCESS_FLAGS_NONE == 0);
PIN(ACL_RT_MEM_ACCESS_FLAGS_READ == 1);
PIN(ACL_RT_MEM_ACCESS_FLAGS_READWRITE == 3);

/* aclrtCmoType */
PIN(sizeof(aclrtCmoType) == 4);
PIN(ACL_RT_CMO_TYPE_PREFETCH == 0);
PIN(ACL_RT_CMO_TYPE_WRITEBACK == 1);
PIN(ACL_RT_CMO_TYPE_INVALID == 2);
PIN(ACL_RT_CMO_TYPE_FLUSH == 3);

/* aclrtReduceKind */
PIN(sizeof(aclrtReduceKind) == 4);
PIN(ACL_RT_MEMCPY_SDMA_AUTOMATIC_SUM == 10);
PIN(ACL_RT_MEMCPY_SDMA_AUTOMATIC_MAX == 11);
PIN(ACL_RT_MEMCPY_SDMA_AUTOMATIC_MIN == 12);
PIN(ACL_RT_MEMCPY_SDMA_AUTOMATIC_EQUAL == 13);

/* aclrtDevResLimitType */
PIN(sizeof(aclrtDevResLimitType) == 4);
PIN(ACL_RT_DEV_RES_CUBE_CORE == 0);
PIN(ACL_RT_DEV_RES_VECTOR_CORE == 1);

/* aclrtCondition */
PIN(sizeof(aclrtCondition) == 4);
PIN(ACL_RT_EQUAL == 0);
PIN(ACL_RT_NOT_EQUAL == 1);
PIN(ACL_RT_GREATER == 2);
PIN(ACL_RT_GREATER_OR_EQUAL == 3);
PIN(ACL_RT_LESS == 4);
PIN(ACL_RT_LESS_OR_EQUAL == 5);

/* aclrtCompareDataType */
PIN(sizeof(aclrtCompareDataType) == 4);
PIN(ACL_RT_SWITCH_INT32 == 0);
PIN(ACL_RT_SWITCH_INT64 == 1);

/* aclrtDeviceTaskAbortStage */
PIN(sizeof(aclrtDeviceTaskAbortStage) == 4);
PIN(ACL_RT_DEVICE_TASK_ABORT_PRE == 0);
PIN(ACL_RT_DEVICE_TASK_ABORT_POST == 1);

/* aclrtDeviceState */
PIN(sizeof(aclrtDeviceState) == 4);
PIN(ACL_RT_DEVICE_STATE_SET_PRE == 0);
PIN(ACL_RT_DEVICE_STATE_SET_POST == 1);
PIN(ACL_RT_DEVICE_STATE_RESET_PRE == 2);
PIN(ACL_RT_DEVICE_STATE_RESET_POST == 3);

/* aclrtCntNotifyRecordMode */
PIN(sizeof(aclrtCntNotifyRecordMode) == 4);
PIN(ACL_RT_CNT_NOTIFY_RECORD_SET_VALUE_MODE == 0);
PIN(ACL_RT_CNT_NOTIFY_RECORD_ADD_MODE == 1);
PIN(ACL_RT_CNT_NOTIFY_RECORD_BIT_OR_MODE == 2);
PIN(ACL_RT_CNT_NOTIFY_RECORD_BIT_AND_MODE == 4);

/* aclrtCntNotifyWaitMode */
PIN(sizeof(aclrtCntNotifyWaitMode) == 4);
PIN(ACL_RT_CNT_NOTIFY_WAIT_LESS_MODE == 0);
PIN(ACL_RT_CNT_NOTIFY_WAIT_EQUAL_MODE == 1);
PIN(ACL_RT_CNT_NOTIFY_WAIT_BIGGER_MODE == 2);
PIN(ACL_RT_CNT_NOTIFY_WAIT_BIGGER_OR_EQUAL_MODE == 3);
PIN(ACL_RT_CNT_NOTIFY_WAIT_EQUAL_WITH_BITMASK_MODE == 4);

/* aclCANNPackageName */
PIN(sizeof(aclCANNPackageName) == 4);
PIN(ACL_PKG_NAME_CANN == 0);
PIN(ACL_PKG_NAME_RUNTIME == 1);
PIN(ACL_PKG_NAME_COMPILER == 2);
PIN(ACL_PKG_NAME_HCCL == 3);
PIN(ACL_PKG_NAME_TOOLKIT == 4);
PIN(ACL_PKG_NAME_OPP == 5);
PIN(ACL_PKG_NAME_OPP_KERNEL == 6);
PIN(ACL_PKG_NAME_DRIVER == 7);

/* aclrtHacType */
PIN(sizeof(aclrtHacType) == 4);
PIN(ACL_RT_HAC_TYPE_STARS == 0);
PIN(ACL_RT_HAC_TYPE_AICPU == 1);
PIN(ACL_RT_HAC_TYPE_AIC == 2);
PIN(ACL_RT_HAC_TYPE_AIV == 3);
PIN(ACL_RT_HAC_TYPE_PCIEDMA == 4);
PIN(ACL_RT_HAC_TYPE_RDMA == 5);
PIN(ACL_RT_HAC_TYPE_SDMA == 6);
PIN(ACL_RT_HAC_TYPE_DVPP == 7);
PIN(ACL_RT_HAC_TYPE_UDMA == 8);
PIN(ACL_RT_HAC_TYPE_CCU == 9);

/* aclrtHostMemMapCapability */
PIN(sizeof(aclrtHostMemMapCapability) == 4);
PIN(ACL_RT_HOST_MEM_MAP_NOT_SUPPORTED == 0);
PIN(ACL_RT_HOST_MEM_MAP_SUPPORTED == 1);

/* aclrtMemLinkType */
PIN(sizeof(aclrtMemLinkType) == 4);
PIN(ACL_RT_MEM_ACCESS_LINK_SIO == 0);
PIN(ACL_RT_MEM_ACCESS_LINK_HCCS == 1);
PIN(ACL_RT_MEM_ACCESS_UB_ONE_PORT_PATH == 2);
PIN(ACL_RT_MEM_ACCESS_UB_MULTI_PORT_PATH == 3);

/* aclrtAtomicOperationCapability */
PIN(sizeof(aclrtAtomicOperationCapability) == 4);
PIN(ACL_RT_ATOMIC_CAPABILITY_SIGNED == 1);
PIN(ACL_RT_ATOMIC_CAPABILITY_UNSIGNED == 2);
PIN(ACL_RT_ATOMIC_CAPABILITY_REDUCATION == 4);
PIN(ACL_RT_ATOMIC_CAPABILITY_REDUCTION == 4);
PIN(ACL_RT_ATOMIC_CAPABILITY_SCALAR8 == 8);
PIN(ACL_RT_ATOMIC_CAPABILITY_SCALAR16 == 16);
PIN(ACL_RT_ATOMIC_CAPABILITY_SCALAR32 == 32);
PIN(ACL_RT_ATOMIC_CAPABILITY_SCALAR64 == 64);
PIN(ACL_RT_ATOMIC_CAPABILITY_SCALAR128 == 128);
PIN(ACL_RT_ATOMIC_CAPABILITY_VECTOR32X4 == 256);

/* aclrtAtomicOperation */
PIN(sizeof(aclrtAtomicOperation) == 4);
PIN(ACL_RT_ATOMIC_OPERATION_INTEGER_ADD == 0);
PIN(ACL_RT_ATOMIC_OPERATION_INTEGER_MIN == 1);
PIN(ACL_RT_ATOMIC_OPERATION_INTEGER_MAX == 2);
PIN(ACL_RT_ATOMIC_OPERATION_INTEGER_INCREMENT == 3);
PIN(ACL_RT_ATOMIC_OPERATION_INTEGER_DECREMENT == 4);
PIN(ACL_RT_ATOMIC_OPERATION_AND == 5);
PIN(ACL_RT_ATOMIC_OPERATION_OR == 6);
PIN(ACL_RT_ATOMIC_OPERATION_XOR == 7);
PIN(ACL_RT_ATOMIC_OPERATION_EXCHANGE == 8);
PIN(ACL_RT_ATOMIC_OPERATION_CAS == 9);
PIN(ACL_RT_ATOMIC_OPERATION_FLOAT_ADD == 10);
PIN(ACL_RT_ATOMIC_OPERATION_FLOAT_MIN == 11);
PIN(ACL_RT_ATOMIC_OPERATION_FLOAT_MAX == 12);
PIN(ACL_RT_ATOMIC_OPERATION_DMA_ADD == 30);
PIN(ACL_RT_ATOMIC_OPERATION_DMA_MIN == 31);
PIN(ACL_RT_ATOMIC_OPERATION_DMA_MAX == 32);
PIN(ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_ADD == 40);
PIN(ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_MIN == 41);
PIN(ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_MAX == 42);
PIN(ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_CAS == 43);
PIN(ACL_RT_ATOMIC_OPERATION_SIMD_SCALAR_EXCH == 44);

/* aclrtDeviceLimit */
PIN(sizeof(aclrtDeviceLimit) == 4);
PIN(ACL_RT_DEV_LIMIT_SIMT_STACK_SIZE == 0);
PIN(ACL_RT_DEV_LIMIT_SIMT_DVG_WARP_STACK_SIZE == 1);
PIN(ACL_RT_DEV_LIMIT_SIMD_STACK_SIZE == 2);
PIN(ACL_RT_DEV_LIMIT_SIMD_PRINTF_FIFO_SIZE_PER_CORE == 3);
PIN(ACL_RT_DEV_LIMIT_SIMT_PRINTF_FIFO_SIZE == 4);

/* aclrtStreamAttr */
PIN(sizeof(aclrtStreamAttr) == 4);
PIN(ACL_STREAM_ATTR_FAILURE_MODE == 1);
PIN(ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK == 2);
PIN(ACL_STREAM_ATTR_USER_CUSTOM_TAG == 3);
PIN(ACL_STREAM_ATTR_CACHE_OP_INFO == 4);
PIN(ACL_STREAM_ATTR_PRIORITY == 5);

/* aclrtMemPoolAttr */
PIN(sizeof(aclrtMemPoolAttr) == 4);
PIN(ACL_RT_MEM_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES == 1);
PIN(ACL_RT_MEM_POOL_REUSE_ALLOW_OPPORTUNISTIC == 2);
PIN(ACL_RT_MEM_POOL_REUSE_ALLOW_INTERNAL_DEPENDENCIES == 3);
PIN(ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD == 4);
PIN(ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT == 5);
PIN(ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_HIGH == 6);
PIN(ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT == 7);
PIN(ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH == 8);

/* Flag and limit macros */
PIN(ACL_RT_NOTIFY_EXPORT_FLAG_DEFAULT == 0x0);
PIN(ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION == 0x2);
PIN(ACL_RT_NOTIFY_IMPORT_FLAG_DEFAULT == 0x0);
PIN(ACL_RT_NOTIFY_IMPORT_FLAG_ENABLE_PEER_ACCESS == 0x2);
PIN(ACL_RT_IPC_MEM_EXPORT_FLAG_DEFAULT == 0x0);
PIN(ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION == 0x1);
PIN(ACL_RT_IPC_MEM_IMPORT_FLAG_DEFAULT == 0x0);
PIN(ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS == 0x1);
PIN(ACL_RT_VMM_EXPORT_FLAG_DEFAULT == 0x0);
PIN(ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION == 0x1);
PIN(ACL_RT_MAX_RECORD_PA_NUM_PER_DEV == 0x14);
PIN(ACL_RT_MEM_ATTACH_GLOBAL == 0x1);
PIN(ACL_RT_MEM_LINK_IDX_0 == 0x0);
PIN(ACL_RT_MEM_LINK_IDX_1 == 0x1);
PIN(ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_SIO == 0x0);
PIN(ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_HCCS == 0x1);
PIN(ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_UB_ONE_PORT_PATH == 0x2);
PIN(ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_UB_MULTI_PORT_PATH == 0x3);
PIN(ACL_RT_CMO_MAX_BARRIER_NUM == 0x6);
PIN(ACL_RT_DEVS_TOPOLOGY_HCCS == 0x1);
PIN(ACL_RT_DEVS_TOPOLOGY_PIX == 0x2);
PIN(ACL_RT_DEVS_TOPOLOGY_PIB == 0x4);
PIN(ACL_RT_DEVS_TOPOLOGY_PHB == 0x8);
PIN(ACL_RT_DEVS_TOPOLOGY_SYS == 0x10);
PIN(ACL_RT_DEVS_TOPOLOGY_SIO == 0x20);
PIN(ACL_RT_DEVS_TOPOLOGY_HCCS_SW == 0x40);
PIN(ACL_RT_MEM_TYPE_DEV == 0x2);
PIN(ACL_RT_MEM_TYPE_DVPP == 0x8);
PIN(ACL_RT_MEM_TYPE_RSVD == 0x10);
PIN(ACL_EVENT_RECORD_DEFAULT == 0x0);
PIN(ACL_EVENT_WAIT_DEFAULT == 0x0);
PIN(ACL_NOTIFY_DEFAULT == 0x0);
PIN(ACL_NOTIFY_DEVICE_USE_ONLY == 0x1);

/* aclrtMemManagedLocation */
PIN(sizeof(aclrtMemManagedLocation) == 8);
PIN(offsetof(aclrtMemManagedLocation, type) == 0);
PIN(offsetof(aclrtMemManagedLocation, id) == 4);

/* struct MemAttrMapping */
PIN(sizeof(struct MemAttrMapping) == 16);
PIN(offsetof(struct MemAttrMapping, pgType) == 0);
PIN(offsetof(struct MemAttrMapping, memType) == 4);
PIN(offsetof(struct MemAttrMapping, isHostAlloc) == 8);
PIN(offsetof(struct MemAttrMapping, memAttr) == 12);

/* aclrtMemFabricHandle */
PIN(sizeof(aclrtMemFabricHandle) == 128);
PIN(offsetof(aclrtMemFabricHandle, data) == 0);

/* aclrtMemAccessDesc */
PIN(sizeof(aclrtMemAccessDesc) == 24);
PIN(offsetof(aclrtMemAccessDesc, flags) == 0);
PIN(offsetof(aclrtMemAccessDesc, location) == 4);
PIN(offsetof(aclrtMemAccessDesc, rsv) == 12);

/* aclrtBarrierCmoInfo */
PIN(sizeof(aclrtBarrierCmoInfo) == 8);
PIN(offsetof(aclrtBarrierCmoInfo, cmoType) == 0);
PIN(offsetof(aclrtBarrierCmoInfo, barrierId) == 4);

/* aclrtCntNotifyRecordInfo */
PIN(sizeof(aclrtCntNotifyRecordInfo) == 8);
PIN(offsetof(aclrtCntNotifyRecordInfo, mode) == 0);
PIN(offsetof(aclrtCntNotifyRecordInfo, value) == 4);

/* aclrtCntNotifyWaitInfo */
PIN(sizeof(aclrtCntNotifyWaitInfo) == 16);
PIN(offsetof(aclrtCntNotifyWaitInfo, mode) == 0);
PIN(offsetof(aclrtCntNotifyWaitInfo, value) == 4);
PIN(offsetof(aclrtCntNotifyWaitInfo, timeout) == 8);
PIN(offsetof(aclrtCntNotifyWaitInfo, isClear) == 12);
PIN(offsetof(aclrtCntNotifyWaitInfo, rsv) == 13);

/* aclCANNPackageVersion */
PIN(sizeof(aclCANNPackageVersion) == 512);
PIN(offsetof(aclCANNPackageVersion, version) == 0);
PIN(offsetof(aclCANNPackageVersion, majorVersion) == 128);
PIN(offsetof(aclCANNPackageVersion, minorVersion) == 192);
PIN(offsetof(aclCANNPackageVersion, releaseVersion) == 256);
PIN(offsetof(aclCANNPackageVersion, patchVersion) == 320);
PIN(offsetof(aclCANNPackageVersion, reserved) == 384);

/* aclrtIpcEventHandle */
PIN(sizeof(aclrtIpcEventHandle) == 64);
PIN(offsetof(aclrtIpcEventHandle, reserved) == 0);

#if defined(__LP64__)
/* aclrtServerPid */
PIN(sizeof(aclrtServerPid) == 24);
PIN(offsetof(aclrtServerPid, sdid) == 0);
PIN(offsetof(aclrtServerPid, pid) == 8);
PIN(offsetof(aclrtServerPid, num) == 16);

/* aclrtUtilizationInfo */
PIN(sizeof(aclrtUtilizationInfo) == 24);
PIN(offsetof(aclrtUtilizationInfo, cubeUtilization) == 0);
PIN(offsetof(aclrtUtilizationInfo, vectorUtilization) == 4);
PIN(offsetof(aclrtUtilizationInfo, aicpuUtilization) == 8);
PIN(offsetof(aclrtUtilizationInfo, memoryUtilization) == 12);
PIN(offsetof(aclrtUtilizationInfo, utilizationExtend) == 16);

/* aclrtMemUsageInfo */
PIN(sizeof(aclrtMemUsageInfo) == 112);
PIN(offsetof(aclrtMemUsageInfo, name) == 0);
PIN(offsetof(aclrtMemUsageInfo, curMemSize) == 32);
PIN(offsetof(aclrtMemUsageInfo, memPeakSize) == 40);
PIN(offsetof(aclrtMemUsageInfo, reserved) == 48);

/* aclrtPhysicalMemProp */
PIN(sizeof(aclrtPhysicalMemProp) == 32);
PIN(offsetof(aclrtPhysicalMemProp, handleType) == 0);
PIN(offsetof(aclrtPhysicalMemProp, allocationType) == 4);
PIN(offsetof(aclrtPhysicalMemProp, memAttr) == 8);
PIN(offsetof(aclrtPhysicalMemProp, location) == 12);
PIN(offsetof(aclrtPhysicalMemProp, reserve) == 24);

/* aclrtBarrierTaskInfo */
PIN(sizeof(aclrtBarrierTaskInfo) == 56);
PIN(offsetof(aclrtBarrierTaskInfo, barrierNum) == 0);
PIN(offsetof(aclrtBarrierTaskInfo, cmoInfo) == 8);

/* aclrtStreamAttrValue */
PIN(sizeof(aclrtStreamAttrValue) == 16);
PIN(offsetof(aclrtStreamAttrValue, failureMode) == 0);
PIN(offsetof(aclrtStreamAttrValue, overflowSwitch) == 0);
PIN(offsetof(aclrtStreamAttrValue, userCustomTag) == 0);
PIN(offsetof(aclrtStreamAttrValue, cacheOpInfoSwitch) == 0);
PIN(offsetof(aclrtStreamAttrValue, streamPriority) == 0);
PIN(offsetof(aclrtStreamAttrValue, reserve) == 0);

/* aclrtMemPoolProps */
PIN(sizeof(aclrtMemPoolProps) == 56);
PIN(offsetof(aclrtMemPoolProps, allocType) == 0);
PIN(offsetof(aclrtMemPoolProps, handleType) == 4);
PIN(offsetof(aclrtMemPoolProps, location) == 8);
PIN(offsetof(aclrtMemPoolProps, maxSize) == 16);
PIN(offsetof(aclrtMemPoolProps, reserved) == 24);
#endif /* __LP64__ */

#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

#endif /* ACL_HEADERS_DM_H */
