// SPDX-License-Identifier: MIT
/*
 * libacl: device resource limits, CANN's cap on the compute cores a
 * task may use: per process and device (aclrtSetDeviceResLimit), per
 * stream (aclrtSetStreamResLimit), and per thread, which takes a
 * stream's (aclrtUseStreamResInCurrentThread). What applies is the
 * thread's stream's limit, else the process's, else the hardware's.
 *
 * The hardware's is 0: an NPU here is DMA engines only, it has no cube
 * and no vector cores. So a limit can only be 0 (a larger one asks for
 * cores that are not there: 107000), and every query answers 0. The
 * calls keep CANN's argument checks, and a program that asks before it
 * launches work (CANN's context example) runs.
 */
#include "acl_objects.h"
#include "acl_error.h"
#include "acl_device.h"
#include "acl_stream.h"

#define ACL_RES_TYPES	2	/* ACL_RT_DEV_RES_CUBE_CORE, _VECTOR_CORE */

/* The stream whose limits this thread uses, or NULL. */
static __thread struct acl_stream *acl_res_stream;

static const char *acl_res_name(aclrtDevResLimitType type)
{
	return type == ACL_RT_DEV_RES_CUBE_CORE ? "cube" : "vector";
}

static aclError acl_res_check_type(aclrtDevResLimitType type)
{
	if ((unsigned int)type < ACL_RES_TYPES)
		return ACL_SUCCESS;
	return acl_err(ACL_ERROR_RT_PARAM_INVALID,
		       "type=%d is not an aclrtDevResLimitType (0 cube, 1 "
		       "vector cores)", (int)type);
}

/* Cores of @type the NPU has: none. */
static uint32_t acl_res_hw(aclrtDevResLimitType type)
{
	(void)type;
	return 0;
}

/* A query's arguments: somewhere to answer, a known @type. */
static aclError acl_res_check_query(aclrtDevResLimitType type,
				    const uint32_t *value)
{
	if (!value)
		return acl_err(ACL_ERROR_INVALID_PARAM, "value is NULL");
	return acl_res_check_type(type);
}

/* A limit of @value cores of @type: at most what the NPU has. */
static aclError acl_res_check_value(aclrtDevResLimitType type,
				    uint32_t value)
{
	aclError ret = acl_res_check_type(type);

	if (ret || value <= acl_res_hw(type))
		return ret;
	return acl_err(ACL_ERROR_RT_PARAM_INVALID,
		       "value=%u: the NPU has %u %s cores (its engines only "
		       "move data)", value, acl_res_hw(type),
		       acl_res_name(type));
}

/* The process's limit of @type on @dev, else the hardware's. */
static uint32_t acl_res_of_device(struct acl_device *dev,
				  aclrtDevResLimitType type)
{
	uint32_t v;

	pthread_mutex_lock(&dev->lock);
	v = dev->res_set & (1u << type) ? dev->res_limit[type] :
	    acl_res_hw(type);
	pthread_mutex_unlock(&dev->lock);
	return v;
}

/* The stream's limit of @type, else its device's. */
static uint32_t acl_res_of_stream(struct acl_stream *s,
				  aclrtDevResLimitType type)
{
	if (__atomic_load_n(&s->res_set, __ATOMIC_ACQUIRE) & (1u << type))
		return __atomic_load_n(&s->res_limit[type], __ATOMIC_RELAXED);
	return acl_res_of_device(s->ctx->dev, type);
}

ACL_FUNC_VISIBILITY aclError aclrtGetDeviceResLimit(int32_t deviceId,
						    aclrtDevResLimitType type,
						    uint32_t *value)
{
	struct acl_device *dev;
	aclError ret;

	ACL_ENTER();
	ret = acl_res_check_query(type, value);
	if (ret)
		return ret;
	dev = acl_device_get(deviceId);
	if (!dev)
		return ACL_ERROR_RT_INVALID_DEVICEID;
	*value = acl_res_of_device(dev, type);
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtSetDeviceResLimit(int32_t deviceId,
						    aclrtDevResLimitType type,
						    uint32_t value)
{
	struct acl_device *dev;
	aclError ret;

	ACL_ENTER();
	ret = acl_res_check_value(type, value);
	if (ret)
		return ret;
	dev = acl_device_get(deviceId);
	if (!dev)
		return ACL_ERROR_RT_INVALID_DEVICEID;
	pthread_mutex_lock(&dev->lock);
	dev->res_limit[type] = value;
	dev->res_set |= 1u << type;
	pthread_mutex_unlock(&dev->lock);
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtResetDeviceResLimit(int32_t deviceId)
{
	struct acl_device *dev;

	ACL_ENTER();
	dev = acl_device_get(deviceId);
	if (!dev)
		return ACL_ERROR_RT_INVALID_DEVICEID;
	pthread_mutex_lock(&dev->lock);
	dev->res_set = 0;
	pthread_mutex_unlock(&dev->lock);
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtGetStreamResLimit(aclrtStream stream,
						    aclrtDevResLimitType type,
						    uint32_t *value)
{
	struct acl_stream *s;
	aclError ret;

	ACL_ENTER();
	ret = acl_res_check_query(type, value);
	if (ret)
		return ret;
	s = acl_stream_lookup(stream, &ret);
	if (!s)
		return ret;
	*value = acl_res_of_stream(s, type);
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtSetStreamResLimit(aclrtStream stream,
						    aclrtDevResLimitType type,
						    uint32_t value)
{
	struct acl_stream *s;
	aclError ret;

	ACL_ENTER();
	ret = acl_res_check_value(type, value);
	if (ret)
		return ret;
	s = acl_stream_lookup(stream, &ret);
	if (!s)
		return ret;
	__atomic_store_n(&s->res_limit[type], value, __ATOMIC_RELAXED);
	__atomic_or_fetch(&s->res_set, 1u << type, __ATOMIC_RELEASE);
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtResetStreamResLimit(aclrtStream stream)
{
	struct acl_stream *s;
	aclError ret;

	ACL_ENTER();
	s = acl_stream_lookup(stream, &ret);
	if (!s)
		return ret;
	__atomic_store_n(&s->res_set, 0, __ATOMIC_RELEASE);
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtUseStreamResInCurrentThread(aclrtStream stream)
{
	struct acl_stream *s;
	aclError ret;

	ACL_ENTER();
	if (!stream)
		return acl_err(ACL_ERROR_INVALID_PARAM, "stream is NULL");
	s = acl_stream_lookup(stream, &ret);
	if (!s)
		return ret;
	acl_res_stream = s;
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtUnuseStreamResInCurrentThread(aclrtStream stream)
{
	struct acl_stream *s;
	aclError ret;

	ACL_ENTER();
	if (!stream)
		return acl_err(ACL_ERROR_INVALID_PARAM, "stream is NULL");
	s = acl_stream_lookup(stream, &ret);
	if (!s)
		return ret;
	/* Another stream's: nothing to undo. */
	if (acl_res_stream == s)
		acl_res_stream = NULL;
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtGetResInCurrentThread(aclrtDevResLimitType type,
							uint32_t *value)
{
	struct acl_context *ctx;
	struct acl_stream *s;
	aclError ret;

	ACL_ENTER();
	ret = acl_res_check_query(type, value);
	if (ret)
		return ret;
	/* A stream destroyed since it was chosen no longer counts. */
	s = acl_res_stream ? acl_stream_lookup(acl_res_stream, &ret) : NULL;
	if (s) {
		*value = acl_res_of_stream(s, type);
		return ACL_SUCCESS;
	}
	acl_res_stream = NULL;
	ctx = acl_current_ctx();
	if (!ctx)
		return ACL_ERROR_RT_CONTEXT_NULL;
	*value = acl_res_of_device(ctx->dev, type);
	return ACL_SUCCESS;
}
