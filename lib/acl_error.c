// SPDX-License-Identifier: MIT
/*
 * libacl: error reporting. Each thread keeps its last runtime error
 * (aclrtGetLastError) and the messages of its recent failures
 * (aclGetRecentErrMsg), newest first. Driver errnos map to CANN codes here,
 * in one table, so every entry point reports a failure the same way.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "acl_objects.h"
#include "acl_error.h"
#include "acl_device.h"

__thread struct acl_tls acl_tls ACL_TLS_FAST;

/* The thread's messages for aclGetRecentErrMsg(). */
struct acl_msgs {
	size_t msg_len;
	char msg[ACL_MSG_LEN];		/* pending messages, newest first */
	char out[ACL_MSG_LEN];		/* what aclGetRecentErrMsg() returned */
};

static __thread struct acl_msgs acl_msgs;

struct acl_err_name {
	aclError code;
	const char *name;
};

/* The codes libacl returns, for messages. */
static const struct acl_err_name acl_err_names[] = {
	{ 0, "ACL_SUCCESS" },
	{ 100000, "ACL_ERROR_INVALID_PARAM" },
	{ 100002, "ACL_ERROR_REPEAT_INITIALIZE" },
	{ 100003, "ACL_ERROR_INVALID_FILE" },
	{ 100006, "ACL_ERROR_PARSE_FILE" },
	{ 100037, "ACL_ERROR_REPEAT_FINALIZE" },
	{ 200000, "ACL_ERROR_BAD_ALLOC" },
	{ 200006, "ACL_ERROR_FEATURE_UNSUPPORTED" },
	{ 500000, "ACL_ERROR_INTERNAL_ERROR" },
	{ 500004, "ACL_ERROR_DRV_FAILURE" },
	{ ACL_ERROR_RT_PARAM_INVALID, "ACL_ERROR_RT_PARAM_INVALID" },
	{ ACL_ERROR_RT_INVALID_DEVICEID, "ACL_ERROR_RT_INVALID_DEVICEID" },
	{ ACL_ERROR_RT_CONTEXT_NULL, "ACL_ERROR_RT_CONTEXT_NULL" },
	{ ACL_ERROR_RT_STREAM_CONTEXT, "ACL_ERROR_RT_STREAM_CONTEXT" },
	{ ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID, "ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID" },
	{ ACL_ERROR_RT_ADDR_UNALIGNED, "ACL_ERROR_RT_ADDR_UNALIGNED" },
	{ ACL_ERROR_RT_INVALID_HANDLE, "ACL_ERROR_RT_INVALID_HANDLE" },
	{ ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "ACL_ERROR_RT_FEATURE_NOT_SUPPORT" },
	{ ACL_ERROR_RT_MEMORY_ALLOCATION, "ACL_ERROR_RT_MEMORY_ALLOCATION" },
	{ ACL_ERROR_RT_NO_DEVICE, "ACL_ERROR_RT_NO_DEVICE" },
	{ ACL_ERROR_RT_NO_PERMISSION, "ACL_ERROR_RT_NO_PERMISSION" },
	{ ACL_ERROR_RT_NO_EVENT_RESOURCE, "ACL_ERROR_RT_NO_EVENT_RESOURCE" },
	{ ACL_ERROR_RT_NO_STREAM_RESOURCE, "ACL_ERROR_RT_NO_STREAM_RESOURCE" },
	{ ACL_ERROR_RT_TIMEOUT, "ACL_ERROR_RT_TIMEOUT" },
	{ ACL_ERROR_RT_INTERNAL_ERROR, "ACL_ERROR_RT_INTERNAL_ERROR" },
	{ ACL_ERROR_RT_EVENT_NOT_COMPLETE, "ACL_ERROR_RT_EVENT_NOT_COMPLETE" },
	{ ACL_ERROR_RT_CONTEXT_RELEASE_ERROR, "ACL_ERROR_RT_CONTEXT_RELEASE_ERROR" },
	{ ACL_ERROR_RT_SYS_DMA, "ACL_ERROR_RT_SYS_DMA" },
	{ ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, "ACL_ERROR_RT_STREAM_SYNC_TIMEOUT" },
	{ ACL_ERROR_RT_EVENT_SYNC_TIMEOUT, "ACL_ERROR_RT_EVENT_SYNC_TIMEOUT" },
	{ ACL_ERROR_RT_COPY_DATA, "ACL_ERROR_RT_COPY_DATA" },
	{ ACL_ERROR_RT_DRV_INTERNAL_ERROR, "ACL_ERROR_RT_DRV_INTERNAL_ERROR" },
	{ ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED, "ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED" },
	{ ACL_ERROR_HOST_MEMORY_NOT_REGISTERED, "ACL_ERROR_HOST_MEMORY_NOT_REGISTERED" },
};

const char *acl_err_name(aclError code)
{
	size_t i;

	for (i = 0; i < sizeof(acl_err_names) / sizeof(acl_err_names[0]); i++)
		if (acl_err_names[i].code == code)
			return acl_err_names[i].name;
	return "unknown";
}

/*
 * Driver errno -> CANN code, following CANN's own driver mapping: bad
 * input 107000, no memory 207001, unsupported 207000, timeouts 207020,
 * a failed transfer 507013, anything else the generic driver error.
 */
aclError acl_errno_to_acl(int err)
{
	switch (err) {
	case 0:
		return ACL_SUCCESS;
	case -EINVAL:
	case -EFAULT:
	case -ERANGE:
	case -EOVERFLOW:
		return ACL_ERROR_RT_PARAM_INVALID;
	case -ENOMEM:
	case -ENOSPC:
		return ACL_ERROR_RT_MEMORY_ALLOCATION;
	case -EOPNOTSUPP:
	case -ENOTTY:
		return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
	case -ETIMEDOUT:
		return ACL_ERROR_RT_TIMEOUT;
	case -EIO:
	case -ECANCELED:
		return ACL_ERROR_RT_SYS_DMA;
	case -ESHUTDOWN:	/* a stopped queue: aclrtStreamStop() */
		return ACL_ERROR_RT_INTERNAL_ERROR;
	case -ENODEV:
	case -ENXIO:
	case -ENOENT:
		return ACL_ERROR_RT_NO_DEVICE;
	case -EPERM:
	case -EACCES:
		return ACL_ERROR_RT_NO_PERMISSION;
	case -EBUSY:
	case -EMFILE:
	case -ENFILE:
		return ACL_ERROR_RT_NO_STREAM_RESOURCE;
	case -EEXIST:
		return ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED;
	default:
		return ACL_ERROR_RT_DRV_INTERNAL_ERROR;
	}
}

/* Put @text in front of the pending messages (newest first), clipped. */
static void acl_msg_push(const char *text)
{
	size_t len = strlen(text), keep;

	if (len >= ACL_MSG_LEN - 1)
		len = ACL_MSG_LEN - 2;
	keep = acl_msgs.msg_len;
	if (len + 1 + keep >= ACL_MSG_LEN)
		keep = ACL_MSG_LEN - len - 2;
	if (keep) {
		memmove(acl_msgs.msg + len + 1, acl_msgs.msg, keep);
		acl_msgs.msg[len] = '\n';
		acl_msgs.msg_len = len + 1 + keep;
	} else {
		acl_msgs.msg_len = len;
	}
	memcpy(acl_msgs.msg, text, len);
	acl_msgs.msg[acl_msgs.msg_len] = '\0';
}

aclError acl_err(aclError code, const char *fmt, ...)
{
	char text[ACL_MSG_LEN], detail[ACL_MSG_LEN - 128];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(detail, sizeof(detail), fmt, ap);
	va_end(ap);
	snprintf(text, sizeof(text), "%s: %s (%s %d)",
		 acl_tls.api ? acl_tls.api : "libacl", detail,
		 acl_err_name(code), code);
	acl_msg_push(text);
	/* CANN records runtime-layer failures only, not API-edge rejections. */
	if (code != ACL_ERROR_INVALID_PARAM)
		acl_tls.last_err = code;
	return code;
}

aclError acl_err_sys(int err, const char *what)
{
	return acl_err(acl_errno_to_acl(err), "%s failed: %s", what,
		       strerror(-err));
}

aclError acl_check_timeout(int32_t timeout, const char *name)
{
	if (timeout == -1 || timeout > 0)
		return ACL_SUCCESS;
	return acl_err(ACL_ERROR_RT_PARAM_INVALID,
		       "%s=%d is invalid (-1 = forever, or > 0 ms)", name,
		       timeout);
}

ACL_FUNC_VISIBILITY const char *aclGetRecentErrMsg(void)
{
	if (!acl_msgs.msg_len)
		return NULL;
	memcpy(acl_msgs.out, acl_msgs.msg, acl_msgs.msg_len + 1);
	acl_msgs.msg_len = 0;
	acl_msgs.msg[0] = '\0';
	return acl_msgs.out;
}

static aclError acl_check_level(aclrtLastErrLevel level)
{
	if (level == ACL_RT_THREAD_LEVEL)
		return ACL_SUCCESS;
	return acl_err(ACL_ERROR_INVALID_PARAM,
		       "level=%d is invalid (only ACL_RT_THREAD_LEVEL)",
		       (int)level);
}

ACL_FUNC_VISIBILITY aclError aclrtPeekAtLastError(aclrtLastErrLevel level)
{
	ACL_ENTER();
	if (acl_check_level(level))
		return ACL_ERROR_INVALID_PARAM;
	return acl_tls.last_err;
}

ACL_FUNC_VISIBILITY aclError aclrtGetLastError(aclrtLastErrLevel level)
{
	aclError e;

	ACL_ENTER();
	if (acl_check_level(level))
		return ACL_ERROR_INVALID_PARAM;
	e = acl_tls.last_err;
	acl_tls.last_err = ACL_SUCCESS;
	return e;
}

ACL_FUNC_VISIBILITY aclError aclrtGetErrorVerbose(int32_t deviceId,
						  aclrtErrorInfo *errorInfo)
{
	ACL_ENTER();
	if (!errorInfo)
		return acl_err(ACL_ERROR_INVALID_PARAM, "errorInfo is NULL");
	if (deviceId < 0 || deviceId >= acl_device_count())
		return acl_err(ACL_ERROR_RT_INVALID_DEVICEID,
			       "deviceId=%d is out of range", deviceId);
	/* DMA engines report no device fault records: "no error". */
	memset(errorInfo, 0, sizeof(*errorInfo));
	errorInfo->errorType = ACL_RT_NO_ERROR;
	return ACL_SUCCESS;
}
