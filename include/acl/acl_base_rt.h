/* SPDX-License-Identifier: MIT */
/*
 * acl_base_rt.h - base types of the CANN-compatible acl runtime API:
 * export/deprecation macros, opaque handles, aclError and the ACL_ERROR_*
 * status constants, the aclDataBuffer wrapper, the aclDataType element
 * types, and the SoC, CANN attribute and device capability queries.
 *
 * Source-compatible with CANN: names, types and values are CANN's. The
 * ACL_* status constants are static const int objects, not macros, exactly
 * as in CANN: they are not visible to the preprocessor and, in C, are not
 * integer constant expressions (no case labels).
 */
#ifndef ACL_ACL_BASE_RT_H
#define ACL_ACL_BASE_RT_H

#include <stdint.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Symbol export: only when the library itself is built with FUNC_VISIBILITY. */
#if defined(_MSC_VER)
#ifdef FUNC_VISIBILITY
#define ACL_FUNC_VISIBILITY _declspec(dllexport)
#else
#define ACL_FUNC_VISIBILITY
#endif
#else
#ifdef FUNC_VISIBILITY
#define ACL_FUNC_VISIBILITY __attribute__((visibility("default")))
#else
#define ACL_FUNC_VISIBILITY
#endif
#endif

/* Deprecation markers (GCC 6 and later, MSVC; nothing elsewhere). */
#if defined(__GNUC__) && (__GNUC__ >= 6)
#define ACL_DEPRECATED __attribute__((deprecated))
#define ACL_DEPRECATED_MESSAGE(message) __attribute__((deprecated(message)))
#elif defined(_MSC_VER)
#define ACL_DEPRECATED __declspec(deprecated)
#define ACL_DEPRECATED_MESSAGE(message) __declspec(deprecated(message))
#else
#define ACL_DEPRECATED
#define ACL_DEPRECATED_MESSAGE(message)
#endif

/* Opaque handles. */
typedef void *aclrtStream;
typedef void *aclmdlRITask;
typedef void *aclrtEvent;
typedef void *aclrtContext;
typedef void *aclrtNotify;
typedef void *aclrtCntNotify;
typedef void *aclrtLabel;
typedef void *aclrtLabelList;
typedef void *aclrtMbuf;
typedef void *aclrtAllocatorDesc;
typedef void *aclrtAllocator;
typedef void *aclrtAllocatorBlock;
typedef void *aclrtAllocatorAddr;
typedef void *aclrtTaskGrp;

/* Status returned by the API: ACL_SUCCESS or an ACL_ERROR_* code. */
typedef int aclError;
/* IEEE half-precision value stored in its raw bit pattern. */
typedef uint16_t aclFloat16;
/* (address, size) pair; opaque, see aclCreateDataBuffer(). */
typedef struct aclDataBuffer aclDataBuffer;

static const int ACL_ERROR_NONE = 0;
static const int ACL_SUCCESS = 0;

/* 1000xx/1480xx: rejected at the API edge (arguments, files, state). */
static const int ACL_ERROR_INVALID_PARAM = 100000;
static const int ACL_ERROR_UNINITIALIZE = 100001;
static const int ACL_ERROR_REPEAT_INITIALIZE = 100002;
static const int ACL_ERROR_INVALID_FILE = 100003;
static const int ACL_ERROR_WRITE_FILE = 100004;
static const int ACL_ERROR_INVALID_FILE_SIZE = 100005;
static const int ACL_ERROR_PARSE_FILE = 100006;
static const int ACL_ERROR_FILE_MISSING_ATTR = 100007;
static const int ACL_ERROR_FILE_ATTR_INVALID = 100008;
static const int ACL_ERROR_INVALID_DUMP_CONFIG = 100009;
static const int ACL_ERROR_INVALID_PROFILING_CONFIG = 100010;
static const int ACL_ERROR_INVALID_MODEL_ID = 100011;
static const int ACL_ERROR_DESERIALIZE_MODEL = 100012;
static const int ACL_ERROR_PARSE_MODEL = 100013;
static const int ACL_ERROR_READ_MODEL_FAILURE = 100014;
static const int ACL_ERROR_MODEL_SIZE_INVALID = 100015;
static const int ACL_ERROR_MODEL_MISSING_ATTR = 100016;
static const int ACL_ERROR_MODEL_INPUT_NOT_MATCH = 100017;
static const int ACL_ERROR_MODEL_OUTPUT_NOT_MATCH = 100018;
static const int ACL_ERROR_MODEL_NOT_DYNAMIC = 100019;
static const int ACL_ERROR_OP_TYPE_NOT_MATCH = 100020;
static const int ACL_ERROR_OP_INPUT_NOT_MATCH = 100021;
static const int ACL_ERROR_OP_OUTPUT_NOT_MATCH = 100022;
static const int ACL_ERROR_OP_ATTR_NOT_MATCH = 100023;
static const int ACL_ERROR_OP_NOT_FOUND = 100024;
static const int ACL_ERROR_OP_LOAD_FAILED = 100025;
static const int ACL_ERROR_UNSUPPORTED_DATA_TYPE = 100026;
static const int ACL_ERROR_FORMAT_NOT_MATCH = 100027;
static const int ACL_ERROR_BIN_SELECTOR_NOT_REGISTERED = 100028;
static const int ACL_ERROR_KERNEL_NOT_FOUND = 100029;
static const int ACL_ERROR_BIN_SELECTOR_ALREADY_REGISTERED = 100030;
static const int ACL_ERROR_KERNEL_ALREADY_REGISTERED = 100031;
static const int ACL_ERROR_INVALID_QUEUE_ID = 100032;
static const int ACL_ERROR_REPEAT_SUBSCRIBE = 100033;
static const int ACL_ERROR_STREAM_NOT_SUBSCRIBE = 100034;
static const int ACL_ERROR_THREAD_NOT_SUBSCRIBE = 100035;
static const int ACL_ERROR_WAIT_CALLBACK_TIMEOUT = 100036;
static const int ACL_ERROR_REPEAT_FINALIZE = 100037;
static const int ACL_ERROR_NOT_STATIC_AIPP = 100038;
static const int ACL_ERROR_COMPILING_STUB_MODE = 100039;
static const int ACL_ERROR_GROUP_NOT_SET = 100040;
static const int ACL_ERROR_GROUP_NOT_CREATE = 100041;
static const int ACL_ERROR_PROF_ALREADY_RUN = 100042;
static const int ACL_ERROR_PROF_NOT_RUN = 100043;
static const int ACL_ERROR_DUMP_ALREADY_RUN = 100044;
static const int ACL_ERROR_DUMP_NOT_RUN = 100045;
static const int ACL_ERROR_PROF_REPEAT_SUBSCRIBE = 148046;
static const int ACL_ERROR_PROF_API_CONFLICT = 148047;
static const int ACL_ERROR_INVALID_MAX_OPQUEUE_NUM_CONFIG = 148048;
static const int ACL_ERROR_INVALID_OPP_PATH = 148049;
static const int ACL_ERROR_OP_UNSUPPORTED_DYNAMIC = 148050;
static const int ACL_ERROR_RELATIVE_RESOURCE_NOT_CLEARED = 148051;
static const int ACL_ERROR_UNSUPPORTED_JPEG = 148052;
static const int ACL_ERROR_INVALID_BUNDLE_MODEL_ID = 148053;

/* 2000xx/3000xx: resources and platform support. */
static const int ACL_ERROR_BAD_ALLOC = 200000;
static const int ACL_ERROR_API_NOT_SUPPORT = 200001;
static const int ACL_ERROR_INVALID_DEVICE = 200002;
static const int ACL_ERROR_MEMORY_ADDRESS_UNALIGNED = 200003;
static const int ACL_ERROR_RESOURCE_NOT_MATCH = 200004;
static const int ACL_ERROR_INVALID_RESOURCE_HANDLE = 200005;
static const int ACL_ERROR_FEATURE_UNSUPPORTED = 200006;
static const int ACL_ERROR_PROF_MODULES_UNSUPPORTED = 200007;
static const int ACL_ERROR_STORAGE_OVER_LIMIT = 300000;

/* 5000xx: internal failures. */
static const int ACL_ERROR_INTERNAL_ERROR = 500000;
static const int ACL_ERROR_FAILURE = 500001;
static const int ACL_ERROR_GE_FAILURE = 500002;
static const int ACL_ERROR_RT_FAILURE = 500003;
static const int ACL_ERROR_DRV_FAILURE = 500004;
static const int ACL_ERROR_PROFILING_FAILURE = 500005;

/*
 * Element types, as aclrtReduceAsync() takes them. The numbering has gaps
 * (5, 14, 15, 18-26, 28, 31, 32 are not public names); keep CANN's values.
 */
typedef enum {
	ACL_DT_UNDEFINED = -1,
	ACL_FLOAT = 0,
	ACL_FLOAT16 = 1,
	ACL_INT8 = 2,
	ACL_INT32 = 3,
	ACL_UINT8 = 4,
	ACL_INT16 = 6,
	ACL_UINT16 = 7,
	ACL_UINT32 = 8,
	ACL_INT64 = 9,
	ACL_UINT64 = 10,
	ACL_DOUBLE = 11,
	ACL_BOOL = 12,
	ACL_STRING = 13,
	ACL_COMPLEX64 = 16,
	ACL_COMPLEX128 = 17,
	ACL_BF16 = 27,
	ACL_INT4 = 29,
	ACL_UINT1 = 30,
	ACL_COMPLEX32 = 33,
	ACL_HIFLOAT8 = 34,
	ACL_FLOAT8_E5M2 = 35,
	ACL_FLOAT8_E4M3FN = 36,
	ACL_FLOAT8_E8M0 = 37,
	ACL_FLOAT6_E3M2 = 38,
	ACL_FLOAT6_E2M3 = 39,
	ACL_FLOAT4_E2M1 = 40,
	ACL_FLOAT4_E1M2 = 41,
} aclDataType;

/* Software features of the installation, asked with aclGetCannAttribute(). */
typedef enum {
	ACL_CANN_ATTR_UNDEFINED = -1,
	ACL_CANN_ATTR_INF_NAN = 0,
	ACL_CANN_ATTR_BF16 = 1,
	ACL_CANN_ATTR_JIT_COMPILE = 2
} aclCannAttr;

/* Device capabilities asked with aclGetDeviceCapability(). */
typedef enum {
	ACL_DEVICE_INFO_UNDEFINED = -1,
	ACL_DEVICE_INFO_AI_CORE_NUM = 0,
	ACL_DEVICE_INFO_VECTOR_CORE_NUM = 1,
	ACL_DEVICE_INFO_L2_SIZE = 2
} aclDeviceInfo;

/* Wrap @data/@size in a new aclDataBuffer; NULL if out of host memory. */
ACL_FUNC_VISIBILITY aclDataBuffer *aclCreateDataBuffer(void *data, size_t size);
/* Free the wrapper only; the wrapped memory stays the caller's. */
ACL_FUNC_VISIBILITY aclError
aclDestroyDataBuffer(const aclDataBuffer *dataBuffer);
/* Address held by @dataBuffer (NULL for a NULL buffer). */
ACL_FUNC_VISIBILITY void *aclGetDataBufferAddr(const aclDataBuffer *dataBuffer);

/* Bytes of one @dataType element (sub-byte types: 1; ACL_STRING: 0). */
ACL_FUNC_VISIBILITY size_t aclDataTypeSize(aclDataType dataType);
/* @value rounded to half precision; Inf and NaN saturate to +-65504. */
ACL_FUNC_VISIBILITY aclFloat16 aclFloatToFloat16(float value);
/* @value as a float; exponent 31 is read as a number (0x7c00 = 65536). */
ACL_FUNC_VISIBILITY float aclFloat16ToFloat(aclFloat16 value);

/* Name of the current (else the first) device's SoC; NULL if none. */
ACL_FUNC_VISIBILITY const char *aclrtGetSocName(void);
/* The CANN attributes available here: *@num entries at *@cannAttrList. */
ACL_FUNC_VISIBILITY aclError
aclGetCannAttributeList(const aclCannAttr **cannAttrList, size_t *num);
/* Whether @cannAttr is available here: *@value is 1 or 0. */
ACL_FUNC_VISIBILITY aclError aclGetCannAttribute(aclCannAttr cannAttr,
						 int32_t *value);
/* One capability value of device @deviceId. */
ACL_FUNC_VISIBILITY aclError aclGetDeviceCapability(uint32_t deviceId,
						    aclDeviceInfo deviceInfo,
						    int64_t *value);

#ifdef __cplusplus
}
#endif

#endif /* ACL_ACL_BASE_RT_H */
