// SPDX-License-Identifier: MIT
/*
 * libacl: contexts. A context is a library object: a device binding plus
 * its default stream. Each device has one default context, shared by all
 * threads that aclrtSetDevice it; explicit contexts come from
 * aclrtCreateContext. The current context is per thread, and carries the
 * generation of its device's opening so a context of a device that was
 * reset (and maybe opened again) is never used by mistake.
 */
#include <stdlib.h>

#include "acl_objects.h"
#include "acl_error.h"
#include "acl_device.h"
#include "acl_stream.h"

struct acl_context *acl_current_ctx(void)
{
	struct acl_context *ctx = acl_tls.ctx;

	if (ctx && ctx->magic == ACL_CTX_MAGIC && acl_device_is_open(ctx->dev) &&
	    acl_tls.ctx_gen == ctx->dev->gen)
		return ctx;
	acl_err(ACL_ERROR_RT_CONTEXT_NULL,
		"no current context in this thread (call aclrtSetDevice first)");
	return NULL;
}

void acl_set_current(struct acl_context *ctx)
{
	acl_tls.ctx = ctx;
	acl_tls.ctx_gen = ctx ? ctx->dev->gen : 0;
}

/* Caller holds dev->lock. */
aclError acl_context_init(struct acl_context *ctx, struct acl_device *dev,
			  bool is_default)
{
	aclError ret;

	ctx->dev = dev;
	ctx->gen = dev->gen;
	ctx->is_default = is_default;
	ctx->streams = NULL;
	ctx->next = NULL;
	ctx->defstream = acl_stream_new(ctx, 0, 0, &ret);
	if (!ctx->defstream)
		return ret;
	ctx->magic = ACL_CTX_MAGIC;
	return ACL_SUCCESS;
}

/* Destroy the context's streams, waiting for their work. dev->lock held. */
void acl_context_fini(struct acl_context *ctx)
{
	ctx->magic = 0;
	while (ctx->streams) {
		struct acl_stream *s = ctx->streams;

		ctx->streams = s->next;
		acl_stream_free(s);
	}
	if (ctx->defstream)
		acl_stream_free(ctx->defstream);
	ctx->defstream = NULL;
}

/* Handle -> live context, or NULL with the error in *ret. */
static struct acl_context *acl_context_check(aclrtContext handle,
					     aclError *ret)
{
	struct acl_context *ctx = handle;

	if (!handle) {
		*ret = acl_err(ACL_ERROR_INVALID_PARAM, "context is NULL");
		return NULL;
	}
	if (ctx->magic == ACL_CTX_MAGIC && acl_device_is_open(ctx->dev) &&
	    ctx->gen == ctx->dev->gen)
		return ctx;
	*ret = acl_err_stale("context", handle, ctx->magic == ACL_CTX_MAGIC ?
			     ctx->gen : 0, "context");
	return NULL;
}

ACL_FUNC_VISIBILITY aclError aclrtCreateContext(aclrtContext *context,
						int32_t deviceId)
{
	struct acl_context *ctx;
	struct acl_device *dev;
	aclError ret;

	ACL_ENTER();
	if (!context)
		return acl_err(ACL_ERROR_INVALID_PARAM, "context is NULL");
	dev = acl_device_get(deviceId);
	if (!dev)
		return ACL_ERROR_RT_INVALID_DEVICEID;
	ctx = calloc(1, sizeof(*ctx));
	if (!ctx)
		return acl_err(ACL_ERROR_BAD_ALLOC, "no memory for a context");
	pthread_mutex_lock(&acl_g.lock);
	ret = acl_device_open_locked(dev);
	if (!ret) {
		pthread_mutex_lock(&dev->lock);
		ret = acl_context_init(ctx, dev, false);
		if (!ret) {
			ctx->next = dev->contexts;
			dev->contexts = ctx;
		}
		pthread_mutex_unlock(&dev->lock);
		if (ret && !dev->refcnt && !dev->contexts && !dev->defctx.magic)
			acl_device_close_locked(dev);
	}
	pthread_mutex_unlock(&acl_g.lock);
	if (ret) {
		free(ctx);
		return ret;
	}
	acl_set_current(ctx);
	*context = ctx;
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtDestroyContext(aclrtContext context)
{
	struct acl_context *ctx, **pp;
	struct acl_device *dev;
	aclError ret;

	ACL_ENTER();
	ctx = acl_context_check(context, &ret);
	if (!ctx)
		return ret;
	if (ctx->is_default)
		return acl_err(ACL_ERROR_RT_PARAM_INVALID,
			       "context=%p is a default context", context);
	dev = ctx->dev;
	pthread_mutex_lock(&acl_g.lock);
	pthread_mutex_lock(&dev->lock);
	for (pp = &dev->contexts; *pp && *pp != ctx; pp = &(*pp)->next)
		;
	if (*pp)
		*pp = ctx->next;
	acl_context_fini(ctx);
	pthread_mutex_unlock(&dev->lock);
	if (!dev->contexts && !dev->defctx.magic)
		acl_device_close_locked(dev);
	pthread_mutex_unlock(&acl_g.lock);
	if (acl_tls.ctx == ctx)
		acl_set_current(NULL);
	free(ctx);
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtSetCurrentContext(aclrtContext context)
{
	struct acl_context *ctx;
	aclError ret;

	ACL_ENTER();
	ctx = acl_context_check(context, &ret);
	if (!ctx)
		return ret;
	acl_set_current(ctx);
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtGetCurrentContext(aclrtContext *context)
{
	struct acl_context *ctx;

	ACL_ENTER();
	if (!context)
		return acl_err(ACL_ERROR_INVALID_PARAM, "context is NULL");
	ctx = acl_current_ctx();
	if (!ctx)
		return ACL_ERROR_RT_CONTEXT_NULL;
	*context = ctx;
	return ACL_SUCCESS;
}
