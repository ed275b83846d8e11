// SPDX-License-Identifier: GPL-2.0-only
/*
 * Compile-time pins of the public acl headers, from C++ (built as C++11 and
 * C++17). In C++ the static const int status constants are constant
 * expressions, so all three families of values are pinned here, plus the
 * exact type of every API function (reference/ACL_API.md §4).
 */
#include "acl/acl.h"

#include <cstddef>
#include <cstdint>
#include <type_traits>

#define PIN(expr) static_assert(expr, #expr)
#define PIN_SAME(a, b) static_assert(std::is_same<a, b>::value, #a " is " #b)
#define PIN_SIG(fn, ret, params) \
	static_assert(std::is_same<decltype(&fn), ret(*) params>::value, \
		      #fn " has CANN's signature")

/* Status constants: static const int objects with CANN's values. */
PIN_SAME(decltype(ACL_SUCCESS), const int);
PIN_SAME(decltype(ACL_ERROR_INVALID_PARAM), const int);
PIN(ACL_SUCCESS == 0 && ACL_ERROR_NONE == 0);
PIN(ACL_ERROR_INVALID_PARAM == 100000);
PIN(ACL_ERROR_UNINITIALIZE == 100001);
PIN(ACL_ERROR_REPEAT_INITIALIZE == 100002);
PIN(ACL_ERROR_PARSE_FILE == 100006);
PIN(ACL_ERROR_WAIT_CALLBACK_TIMEOUT == 100036);
PIN(ACL_ERROR_REPEAT_FINALIZE == 100037);
PIN(ACL_ERROR_DUMP_NOT_RUN == 100045);
PIN(ACL_ERROR_PROF_REPEAT_SUBSCRIBE == 148046);
PIN(ACL_ERROR_INVALID_BUNDLE_MODEL_ID == 148053);
PIN(ACL_ERROR_BAD_ALLOC == 200000);
PIN(ACL_ERROR_API_NOT_SUPPORT == 200001);
PIN(ACL_ERROR_INVALID_RESOURCE_HANDLE == 200005);
PIN(ACL_ERROR_FEATURE_UNSUPPORTED == 200006);
PIN(ACL_ERROR_PROF_MODULES_UNSUPPORTED == 200007);
PIN(ACL_ERROR_STORAGE_OVER_LIMIT == 300000);
PIN(ACL_ERROR_INTERNAL_ERROR == 500000);
PIN(ACL_ERROR_FAILURE == 500001);
PIN(ACL_ERROR_RT_FAILURE == 500003);
PIN(ACL_ERROR_PROFILING_FAILURE == 500005);

/* Runtime codes (macros) */
PIN(ACL_RT_SUCCESS == 0);
PIN(ACL_ERROR_RT_PARAM_INVALID == 107000);
PIN(ACL_ERROR_RT_STREAM_ABORT == 107023);
PIN(ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD == 107038);
PIN(ACL_ERROR_RT_DEVICE_OOM == 207018);
PIN(ACL_ERROR_RT_TIMEOUT == 207020);
PIN(ACL_ERROR_RT_REPORT_TIMEOUT == 507012);
PIN(ACL_ERROR_RT_COPY_DATA == 507052);
PIN(ACL_ERROR_SNAPSHOT_REGISTER_CALLBACK_FAILED == 507913);

/* Macro types follow their CANN suffixes. */
PIN_SAME(decltype(ACL_EVENT_SYNC), unsigned int);
PIN_SAME(decltype(ACL_STREAM_FAST_LAUNCH), unsigned int);
PIN_SAME(decltype(ACL_HOST_REG_PINNED), unsigned long);
PIN_SAME(decltype(ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS),
	 unsigned long);
PIN_SAME(decltype(ACL_DEV_FEATURE_SUPPORT), int);
PIN(ACL_HOST_REG_PINNED == 0x10000000UL && ACL_EVENT_IPC == 0x40U);

/* Enumerators and layouts */
PIN(ACL_MEMCPY_DEFAULT == 4 && ACL_MEMCPY_INTER_DEVICE_TO_DEVICE == 7);
PIN(ACL_MEM_MALLOC_HUGE_ONLY_P2P == 4 && ACL_MEM_MALLOC_HUGE1G_ONLY == 6);
PIN(ACL_MEM_ACCESS_USER_SPACE_READONLY == 0x100000);
PIN(ACL_EVENT_RECORDED_STATUS_COMPLETE == 1);
PIN(ACL_MODEL_RI_CAPTURE_MODE_RELAXED == 2);
PIN(ACL_MEM_LOCATION_TYPE_MANAGED == 3);
PIN(sizeof(aclrtMemcpyBatchAttr) == 32 && sizeof(aclrtPtrAttributes) == 28);
PIN(sizeof(aclrtMallocAttribute) == 12);
PIN(std::is_standard_layout<aclrtErrorInfo>::value);
#if defined(__LP64__)
PIN(sizeof(aclrtStreamConfigHandle) == 32 && sizeof(aclrtErrorInfo) == 2576);
#endif

/* Types */
PIN_SAME(aclError, int);
PIN_SAME(aclFloat16, uint16_t);
PIN_SAME(aclrtStream, void *);
PIN_SAME(aclrtEvent, void *);
PIN_SAME(aclrtContext, void *);
PIN_SAME(aclmdlRI, void *);
PIN_SAME(aclrtBinHandle, void *);
PIN_SAME(aclrtCallback, void (*)(void *));
PIN_SAME(aclrtHostFunc, void (*)(void *));
PIN_SAME(aclrtExceptionInfoCallback, void (*)(aclrtExceptionInfo *));
PIN_SAME(aclrtStreamStateCallback,
	 void (*)(aclrtStream, aclrtStreamState, void *));

/* Every API function, in ACL_API.md §4 order */
PIN_SIG(aclInit, aclError, (const char *));
PIN_SIG(aclFinalize, aclError, (void));
PIN_SIG(aclFinalizeReference, aclError, (uint64_t *));
PIN_SIG(aclGetRecentErrMsg, const char *, (void));
PIN_SIG(aclrtPeekAtLastError, aclError, (aclrtLastErrLevel));
PIN_SIG(aclrtGetLastError, aclError, (aclrtLastErrLevel));
PIN_SIG(aclrtGetErrorVerbose, aclError, (int32_t, aclrtErrorInfo *));
PIN_SIG(aclrtSetDevice, aclError, (int32_t));
PIN_SIG(aclrtGetDevice, aclError, (int32_t *));
PIN_SIG(aclrtResetDevice, aclError, (int32_t));
PIN_SIG(aclrtResetDeviceForce, aclError, (int32_t));
PIN_SIG(aclrtGetDeviceCount, aclError, (uint32_t *));
PIN_SIG(aclrtGetRunMode, aclError, (aclrtRunMode *));
PIN_SIG(aclrtSynchronizeDevice, aclError, (void));
PIN_SIG(aclrtSynchronizeDeviceWithTimeout, aclError, (int32_t));
PIN_SIG(aclrtCreateContext, aclError, (aclrtContext *, int32_t));
PIN_SIG(aclrtDestroyContext, aclError, (aclrtContext));
PIN_SIG(aclrtSetCurrentContext, aclError, (aclrtContext));
PIN_SIG(aclrtGetCurrentContext, aclError, (aclrtContext *));
PIN_SIG(aclrtCreateStream, aclError, (aclrtStream *));
PIN_SIG(aclrtCreateStreamWithConfig, aclError,
	(aclrtStream *, uint32_t, uint32_t));
PIN_SIG(aclrtDestroyStream, aclError, (aclrtStream));
PIN_SIG(aclrtDestroyStreamForce, aclError, (aclrtStream));
PIN_SIG(aclrtSynchronizeStream, aclError, (aclrtStream));
PIN_SIG(aclrtSynchronizeStreamWithTimeout, aclError, (aclrtStream, int32_t));
PIN_SIG(aclrtStreamQuery, aclError, (aclrtStream, aclrtStreamStatus *));
PIN_SIG(aclrtStreamWaitEvent, aclError, (aclrtStream, aclrtEvent));
PIN_SIG(aclrtStreamWaitEventWithTimeout, aclError,
	(aclrtStream, aclrtEvent, int32_t));
PIN_SIG(aclrtSetStreamFailureMode, aclError, (aclrtStream, uint64_t));
PIN_SIG(aclrtCreateEvent, aclError, (aclrtEvent *));
PIN_SIG(aclrtCreateEventWithFlag, aclError, (aclrtEvent *, uint32_t));
PIN_SIG(aclrtCreateEventExWithFlag, aclError, (aclrtEvent *, uint32_t));
PIN_SIG(aclrtDestroyEvent, aclError, (aclrtEvent));
PIN_SIG(aclrtRecordEvent, aclError, (aclrtEvent, aclrtStream));
PIN_SIG(aclrtQueryEventStatus, aclError,
	(aclrtEvent, aclrtEventRecordedStatus *));
/* Deprecated in CANN too: referring to it must not fail this build. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
PIN_SIG(aclrtQueryEvent, aclError, (aclrtEvent, aclrtEventStatus *));
#pragma GCC diagnostic pop
PIN_SIG(aclrtSynchronizeEvent, aclError, (aclrtEvent));
PIN_SIG(aclrtSynchronizeEventWithTimeout, aclError, (aclrtEvent, int32_t));
PIN_SIG(aclrtEventElapsedTime, aclError, (float *, aclrtEvent, aclrtEvent));
PIN_SIG(aclrtEventGetTimestamp, aclError, (aclrtEvent, uint64_t *));
PIN_SIG(aclrtResetEvent, aclError, (aclrtEvent, aclrtStream));
PIN_SIG(aclrtMalloc, aclError, (void **, size_t, aclrtMemMallocPolicy));
PIN_SIG(aclrtMallocAlign32, aclError, (void **, size_t, aclrtMemMallocPolicy));
PIN_SIG(aclrtMallocWithCfg, aclError,
	(void **, size_t, aclrtMemMallocPolicy, aclrtMallocConfig *));
PIN_SIG(aclrtMallocHost, aclError, (void **, size_t));
PIN_SIG(aclrtMallocHostWithCfg, aclError,
	(void **, uint64_t, aclrtMallocConfig *));
PIN_SIG(aclrtFree, aclError, (void *));
PIN_SIG(aclrtFreeHost, aclError, (void *));
PIN_SIG(aclrtFreeWithDevSync, aclError, (void *));
PIN_SIG(aclrtFreeHostWithDevSync, aclError, (void *));
PIN_SIG(aclrtGetMemInfo, aclError, (aclrtMemAttr, size_t *, size_t *));
PIN_SIG(aclrtGetMemUsageInfo, aclError,
	(int32_t, aclrtMemUsageInfo *, size_t, size_t *));
PIN_SIG(aclrtHostRegister, aclError,
	(void *, uint64_t, aclrtHostRegisterType, void **));
PIN_SIG(aclrtHostRegisterV2, aclError, (void *, uint64_t, uint32_t));
PIN_SIG(aclrtHostGetDevicePointer, aclError, (void *, void **, uint32_t));
PIN_SIG(aclrtHostUnregister, aclError, (void *));
PIN_SIG(aclrtHostMemMapCapabilities, aclError,
	(uint32_t, aclrtHacType, aclrtHostMemMapCapability *));
PIN_SIG(aclrtPointerGetAttributes, aclError,
	(const void *, aclrtPtrAttributes *));
PIN_SIG(aclrtMemcpy, aclError,
	(void *, size_t, const void *, size_t, aclrtMemcpyKind));
PIN_SIG(aclrtMemcpyAsync, aclError,
	(void *, size_t, const void *, size_t, aclrtMemcpyKind, aclrtStream));
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
PIN_SIG(aclrtMemcpyAsyncWithCondition, aclError,
	(void *, size_t, const void *, size_t, aclrtMemcpyKind, aclrtStream));
#pragma GCC diagnostic pop
PIN_SIG(aclrtMemcpy2d, aclError,
	(void *, size_t, const void *, size_t, size_t, size_t,
	aclrtMemcpyKind));
PIN_SIG(aclrtMemcpy2dAsync, aclError,
	(void *, size_t, const void *, size_t, size_t, size_t, aclrtMemcpyKind,
	aclrtStream));
PIN_SIG(aclrtMemcpyBatch, aclError,
	(void **, size_t *, void **, size_t *, size_t, aclrtMemcpyBatchAttr *,
	size_t *, size_t, size_t *));
PIN_SIG(aclrtMemcpyBatchV2, aclError,
	(void **, size_t *, void **, size_t *, size_t, aclrtMemcpyBatchAttr *,
	size_t *, size_t));
PIN_SIG(aclrtMemcpyBatchAsync, aclError,
	(void **, size_t *, void **, size_t *, size_t, aclrtMemcpyBatchAttr *,
	size_t *, size_t, size_t *, aclrtStream));
PIN_SIG(aclrtMemcpyBatchAsyncV2, aclError,
	(void **, size_t *, void **, size_t *, size_t, aclrtMemcpyBatchAttr *,
	size_t *, size_t, aclrtStream));
PIN_SIG(aclrtGetMemcpyDescSize, aclError, (aclrtMemcpyKind, size_t *));
PIN_SIG(aclrtSetMemcpyDesc, aclError,
	(void *, aclrtMemcpyKind, void *, void *, size_t, void *));
PIN_SIG(aclrtMemcpyAsyncWithDesc, aclError,
	(void *, aclrtMemcpyKind, aclrtStream));
PIN_SIG(aclrtMemcpyAsyncWithOffset, aclError,
	(void **, size_t, size_t, const void **, size_t, size_t,
	aclrtMemcpyKind, aclrtStream));
PIN_SIG(aclrtMemset, aclError, (void *, size_t, int32_t, size_t));
PIN_SIG(aclrtMemsetAsync, aclError,
	(void *, size_t, int32_t, size_t, aclrtStream));
PIN_SIG(aclrtMemsetD32, aclError, (void *, size_t, uint32_t, size_t));
PIN_SIG(aclrtMemsetD32Async, aclError,
	(void *, size_t, uint32_t, size_t, aclrtStream));
PIN_SIG(aclrtDeviceCanAccessPeer, aclError, (int32_t *, int32_t, int32_t));
PIN_SIG(aclrtDeviceEnablePeerAccess, aclError, (int32_t, uint32_t));
PIN_SIG(aclrtDeviceDisablePeerAccess, aclError, (int32_t));
PIN_SIG(aclrtDevicePeerAccessStatus, aclError, (int32_t, int32_t, int32_t *));
PIN_SIG(aclrtSubscribeReport, aclError, (uint64_t, aclrtStream));
PIN_SIG(aclrtLaunchCallback, aclError,
	(aclrtCallback, void *, aclrtCallbackBlockType, aclrtStream));
PIN_SIG(aclrtProcessReport, aclError, (int32_t));
PIN_SIG(aclrtUnSubscribeReport, aclError, (uint64_t, aclrtStream));
PIN_SIG(aclrtLaunchHostFunc, aclError, (aclrtStream, aclrtHostFunc, void *));
PIN_SIG(aclrtValueWrite, aclError, (void *, uint64_t, uint32_t, aclrtStream));
PIN_SIG(aclrtValueWait, aclError, (void *, uint64_t, uint32_t, aclrtStream));
PIN_SIG(aclmdlRICaptureBegin, aclError, (aclrtStream, aclmdlRICaptureMode));
PIN_SIG(aclmdlRICaptureGetInfo, aclError,
	(aclrtStream, aclmdlRICaptureStatus *, aclmdlRI *));
PIN_SIG(aclmdlRICaptureEnd, aclError, (aclrtStream, aclmdlRI *));
PIN_SIG(aclmdlRICaptureThreadExchangeMode, aclError, (aclmdlRICaptureMode *));
PIN_SIG(aclmdlRIExecuteAsync, aclError, (aclmdlRI, aclrtStream));
PIN_SIG(aclmdlRIDestroy, aclError, (aclmdlRI));
PIN_SIG(aclrtStreamStop, aclError, (aclrtStream));
PIN_SIG(aclrtStreamAbort, aclError, (aclrtStream));
PIN_SIG(aclrtRegStreamStateCallback, aclError,
	(const char *, aclrtStreamStateCallback, void *));
PIN_SIG(aclrtCreateNotify, aclError, (aclrtNotify *, uint64_t));
PIN_SIG(aclrtDestroyNotify, aclError, (aclrtNotify));
PIN_SIG(aclrtRecordNotify, aclError, (aclrtNotify, aclrtStream));
PIN_SIG(aclrtGetNotifyId, aclError, (aclrtNotify, uint32_t *));
PIN_SIG(aclrtWaitAndResetNotify, aclError,
	(aclrtNotify, aclrtStream, uint32_t));
PIN_SIG(aclrtStreamGetId, aclError, (aclrtStream, int32_t *));
PIN_SIG(aclrtStreamGetFlags, aclError, (aclrtStream, uint32_t *));
PIN_SIG(aclrtStreamGetPriority, aclError, (aclrtStream, uint32_t *));
PIN_SIG(aclrtCreateStreamConfigHandle, aclrtStreamConfigHandle*, (void));
PIN_SIG(aclrtDestroyStreamConfigHandle, aclError, (aclrtStreamConfigHandle *));
PIN_SIG(aclrtSetStreamConfigOpt, aclError,
	(aclrtStreamConfigHandle *, aclrtStreamConfigAttr, const void *,
	size_t));
PIN_SIG(aclrtCreateStreamV2, aclError,
	(aclrtStream *, const aclrtStreamConfigHandle *));
PIN_SIG(aclrtGetSocName, const char *, (void));
PIN_SIG(aclGetCannAttributeList, aclError, (const aclCannAttr **, size_t *));
PIN_SIG(aclGetCannAttribute, aclError, (aclCannAttr, int32_t *));
PIN_SIG(aclGetDeviceCapability, aclError,
	(uint32_t, aclDeviceInfo, int64_t *));
PIN_SIG(aclrtGetDeviceInfo, aclError, (uint32_t, aclrtDevAttr, int64_t *));
PIN_SIG(aclrtQueryDeviceStatus, aclError, (int32_t, aclrtDeviceStatus *));
PIN_SIG(aclrtGetDeviceCapability, aclError,
	(int32_t, aclrtDevFeatureType, int32_t *));
PIN_SIG(aclrtCheckArchCompatibility, aclError, (const char *, int32_t *));
PIN_SIG(aclrtDeviceGetUuid, aclError, (int32_t, aclrtUuid *));
PIN_SIG(aclrtDeviceGetPCIBusId, aclError, (int32_t, char *, int32_t));
PIN_SIG(aclrtDeviceGetByPCIBusId, aclError, (const char *, int32_t *));
PIN_SIG(aclrtGetLogicDevIdByUserDevId, aclError, (const int32_t, int32_t *));
PIN_SIG(aclrtGetUserDevIdByLogicDevId, aclError, (const int32_t, int32_t *));
PIN_SIG(aclrtGetLogicDevIdByPhyDevId, aclError, (const int32_t, int32_t *));
PIN_SIG(aclrtGetPhyDevIdByLogicDevId, aclError, (const int32_t, int32_t *));
PIN_SIG(aclrtGetUserDevIdByPhyDevId, aclError, (const int32_t, int32_t *));
PIN_SIG(aclrtGetPhyDevIdByUserDevId, aclError, (const int32_t, int32_t *));
PIN_SIG(aclsysGetVersionStr, aclError, (char *, char *));
PIN_SIG(aclsysGetVersionNum, aclError, (char *, int32_t *));
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
PIN_SIG(aclrtGetVersion, aclError, (int32_t *, int32_t *, int32_t *));
#pragma GCC diagnostic pop
/* Enumerations of the queries: CANN's values, int-sized. */
PIN(ACL_DEV_ATTR_TOTAL_GLOBAL_MEM_SIZE == 301 && ACL_DEV_ATTR_NPU_ARCH == 601);
PIN(ACL_DEV_ATTR_SUPER_POD_DEVIDE_ID == ACL_DEV_ATTR_SUPER_POD_DEVICE_ID);
PIN(ACL_RT_DEVICE_STATUS_ABNORMAL == 1 && ACL_RT_DEVICE_STATUS_END == 0xFFFF);
PIN(ACL_CANN_ATTR_UNDEFINED == -1 && ACL_DEVICE_INFO_L2_SIZE == 2);
PIN(sizeof(aclrtUuid) == 16 && sizeof(aclrtDevAttr) == 4);
PIN(std::is_standard_layout<aclrtUuid>::value);
PIN_SAME(decltype(aclrtUuid::bytes), char[16]);
PIN_SIG(aclCreateDataBuffer, aclDataBuffer*, (void *, size_t));
PIN_SIG(aclDestroyDataBuffer, aclError, (const aclDataBuffer *));
PIN_SIG(aclGetDataBufferAddr, void*, (const aclDataBuffer *));

/* The data-movement types, shared with acl_headers_c.c. */
#include "acl_headers_dm.h"

/* ... and what only C++ can pin: macro types (CANN's suffixes) ... */
PIN_SAME(decltype(ACL_RT_NOTIFY_EXPORT_FLAG_DEFAULT), unsigned long);
PIN_SAME(decltype(ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION), unsigned long);
PIN_SAME(decltype(ACL_RT_NOTIFY_IMPORT_FLAG_DEFAULT), unsigned long);
PIN_SAME(decltype(ACL_RT_NOTIFY_IMPORT_FLAG_ENABLE_PEER_ACCESS), unsigned long);
PIN_SAME(decltype(ACL_RT_IPC_MEM_EXPORT_FLAG_DEFAULT), unsigned long);
PIN_SAME(decltype(ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION), unsigned long);
PIN_SAME(decltype(ACL_RT_IPC_MEM_IMPORT_FLAG_DEFAULT), unsigned long);
PIN_SAME(decltype(ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS), unsigned long);
PIN_SAME(decltype(ACL_RT_VMM_EXPORT_FLAG_DEFAULT), unsigned long);
PIN_SAME(decltype(ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION), unsigned long);
PIN_SAME(decltype(ACL_RT_MAX_RECORD_PA_NUM_PER_DEV), unsigned int);
PIN_SAME(decltype(ACL_RT_MEM_ATTACH_GLOBAL), unsigned int);
PIN_SAME(decltype(ACL_RT_MEM_LINK_IDX_0), unsigned int);
PIN_SAME(decltype(ACL_RT_MEM_LINK_IDX_1), unsigned int);
PIN_SAME(decltype(ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_SIO), int);
PIN_SAME(decltype(ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_HCCS), int);
PIN_SAME(decltype(ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_UB_ONE_PORT_PATH), int);
PIN_SAME(decltype(ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_UB_MULTI_PORT_PATH), int);
PIN_SAME(decltype(ACL_RT_CMO_MAX_BARRIER_NUM), unsigned int);
PIN_SAME(decltype(ACL_RT_DEVS_TOPOLOGY_HCCS), unsigned long long);
PIN_SAME(decltype(ACL_RT_DEVS_TOPOLOGY_PIX), unsigned long long);
PIN_SAME(decltype(ACL_RT_DEVS_TOPOLOGY_PIB), unsigned long long);
PIN_SAME(decltype(ACL_RT_DEVS_TOPOLOGY_PHB), unsigned long long);
PIN_SAME(decltype(ACL_RT_DEVS_TOPOLOGY_SYS), unsigned long long);
PIN_SAME(decltype(ACL_RT_DEVS_TOPOLOGY_SIO), unsigned long long);
PIN_SAME(decltype(ACL_RT_DEVS_TOPOLOGY_HCCS_SW), unsigned long long);
PIN_SAME(decltype(ACL_RT_MEM_TYPE_DEV), unsigned int);
PIN_SAME(decltype(ACL_RT_MEM_TYPE_DVPP), unsigned int);
PIN_SAME(decltype(ACL_RT_MEM_TYPE_RSVD), unsigned int);
PIN_SAME(decltype(ACL_EVENT_RECORD_DEFAULT), unsigned int);
PIN_SAME(decltype(ACL_EVENT_WAIT_DEFAULT), unsigned int);
PIN_SAME(decltype(ACL_NOTIFY_DEFAULT), unsigned int);
PIN_SAME(decltype(ACL_NOTIFY_DEVICE_USE_ONLY), unsigned int);

/* ... callback signatures and member types. */
PIN_SAME(aclrtDeviceStateCallback,
	 void (*)(int32_t, aclrtDeviceState, void *));
PIN_SAME(aclrtDeviceTaskAbortCallback,
	 int32_t (*)(int32_t, aclrtDeviceTaskAbortStage, uint32_t, void *));
PIN_SAME(aclrtAllocatorAllocFunc, void *(*)(aclrtAllocator, size_t));
PIN_SAME(aclrtAllocatorFreeFunc, void (*)(aclrtAllocator, aclrtAllocatorBlock));
PIN_SAME(aclrtAllocatorAllocAdviseFunc,
	 void *(*)(aclrtAllocator, size_t, aclrtAllocatorAddr));
PIN_SAME(aclrtAllocatorGetAddrFromBlockFunc, void *(*)(aclrtAllocatorBlock));
PIN_SAME(aclrtMemPool, void *);
PIN_SAME(decltype(aclrtServerPid::pid), int32_t *);
PIN_SAME(decltype(MemAttrMapping::isHostAlloc), bool);
PIN_SAME(decltype(aclrtMemFabricHandle::data), uint8_t[128]);
PIN_SAME(decltype(aclrtIpcEventHandle::reserved), char[64]);
PIN_SAME(decltype(aclrtMemPoolProps::reserved), unsigned char[32]);
PIN_SAME(decltype(aclrtStreamAttrValue::failureMode), uint64_t);
PIN_SAME(decltype(aclrtUtilizationInfo::utilizationExtend),
	 aclrtUtilizationExtendInfo *);

/*
 * Real references, one per header block of declarations: the Makefile
 * checks with nm that they come out unmangled, i.e. that extern "C" holds.
 */
typedef void (*acl_any_fn)(void);
extern acl_any_fn acl_headers_cxx_refs[];
acl_any_fn acl_headers_cxx_refs[] = {
	reinterpret_cast<acl_any_fn>(&aclCreateDataBuffer),
	reinterpret_cast<acl_any_fn>(&aclrtMemcpy),
	reinterpret_cast<acl_any_fn>(&aclrtGetSocName),
	reinterpret_cast<acl_any_fn>(&aclrtGetDeviceInfo),
};
