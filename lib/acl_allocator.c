// SPDX-License-Identifier: MIT
/*
 * libacl: the user-allocator interface (acl/acl_rt_allocator.h).
 *
 * An application describes its allocator (an object and four callbacks)
 * in a descriptor and registers it for a stream; whoever needs scratch
 * device memory for work on that stream asks aclrtAllocatorGetByStream.
 * In CANN that is the model executor (single-operator models and
 * dynamic-shape inference); the runtime itself calls none of the
 * callbacks. libacl moves data and executes no models, so it has no such
 * caller either: it keeps the registrations exactly as CANN does (a copy
 * of the descriptor's callbacks per stream handle, taken at registration)
 * for the code above it that asks.
 */
#include <stdlib.h>

#include "acl/acl_rt_allocator.h"
#include "acl_objects.h"
#include "acl_mem.h"
#include "acl_error.h"

/* The descriptor behind an aclrtAllocatorDesc. */
struct acl_allocator_desc {
	aclrtAllocator obj;
	aclrtAllocatorAllocFunc alloc;
	aclrtAllocatorFreeFunc free;
	aclrtAllocatorAllocAdviseFunc advise;
	aclrtAllocatorGetAddrFromBlockFunc addr;
};

/* One registration: the stream handle, the user's descriptor, its copy. */
struct acl_allocator_reg {
	aclrtStream stream;
	aclrtAllocatorDesc handle;
	struct acl_allocator_desc copy;
	struct acl_allocator_reg *next;
};

static pthread_mutex_t acl_allocators_lock = PTHREAD_MUTEX_INITIALIZER;
static struct acl_allocator_reg *acl_allocators;	/* under the lock */

void acl_allocator_forked(void)
{
	/* Registrations name the parent's streams: forgotten. */
	pthread_mutex_init(&acl_allocators_lock, NULL);
	acl_allocators = NULL;
}

ACL_FUNC_VISIBILITY aclrtAllocatorDesc aclrtAllocatorCreateDesc(void)
{
	struct acl_allocator_desc *d;

	ACL_ENTER();
	d = calloc(1, sizeof(*d));
	if (!d)
		acl_err(ACL_ERROR_BAD_ALLOC, "no memory for a descriptor");
	return d;
}

ACL_FUNC_VISIBILITY aclError
aclrtAllocatorDestroyDesc(aclrtAllocatorDesc allocatorDesc)
{
	ACL_ENTER();
	if (!allocatorDesc)
		return acl_err(ACL_ERROR_INVALID_PARAM, "allocatorDesc is NULL");
	free(allocatorDesc);
	return ACL_SUCCESS;
}

/* The descriptor a setter fills, if it is set and @has_value. */
static struct acl_allocator_desc *acl_desc_set(aclrtAllocatorDesc desc,
					       bool has_value,
					       const char *name)
{
	if (!desc || !has_value) {
		acl_err(ACL_ERROR_INVALID_PARAM, "%s is NULL",
			desc ? name : "allocatorDesc");
		return NULL;
	}
	return desc;
}

ACL_FUNC_VISIBILITY aclError
aclrtAllocatorSetObjToDesc(aclrtAllocatorDesc allocatorDesc,
			   aclrtAllocator allocator)
{
	struct acl_allocator_desc *d;

	ACL_ENTER();
	d = acl_desc_set(allocatorDesc, allocator != NULL, "allocator");
	if (d)
		d->obj = allocator;
	return d ? ACL_SUCCESS : ACL_ERROR_INVALID_PARAM;
}

ACL_FUNC_VISIBILITY aclError
aclrtAllocatorSetAllocFuncToDesc(aclrtAllocatorDesc allocatorDesc,
				 aclrtAllocatorAllocFunc func)
{
	struct acl_allocator_desc *d;

	ACL_ENTER();
	d = acl_desc_set(allocatorDesc, func != NULL, "func");
	if (d)
		d->alloc = func;
	return d ? ACL_SUCCESS : ACL_ERROR_INVALID_PARAM;
}

ACL_FUNC_VISIBILITY aclError
aclrtAllocatorSetFreeFuncToDesc(aclrtAllocatorDesc allocatorDesc,
				aclrtAllocatorFreeFunc func)
{
	struct acl_allocator_desc *d;

	ACL_ENTER();
	d = acl_desc_set(allocatorDesc, func != NULL, "func");
	if (d)
		d->free = func;
	return d ? ACL_SUCCESS : ACL_ERROR_INVALID_PARAM;
}

ACL_FUNC_VISIBILITY aclError
aclrtAllocatorSetAllocAdviseFuncToDesc(aclrtAllocatorDesc allocatorDesc,
				       aclrtAllocatorAllocAdviseFunc func)
{
	struct acl_allocator_desc *d;

	ACL_ENTER();
	d = acl_desc_set(allocatorDesc, func != NULL, "func");
	if (d)
		d->advise = func;
	return d ? ACL_SUCCESS : ACL_ERROR_INVALID_PARAM;
}

ACL_FUNC_VISIBILITY aclError
aclrtAllocatorSetGetAddrFromBlockFuncToDesc(aclrtAllocatorDesc allocatorDesc,
					    aclrtAllocatorGetAddrFromBlockFunc func)
{
	struct acl_allocator_desc *d;

	ACL_ENTER();
	d = acl_desc_set(allocatorDesc, func != NULL, "func");
	if (d)
		d->addr = func;
	return d ? ACL_SUCCESS : ACL_ERROR_INVALID_PARAM;
}

/* What registration needs set: CANN's order, the advise callback optional. */
static aclError acl_desc_complete(const struct acl_allocator_desc *d)
{
	const char *missing = !d->obj ? "obj" : !d->alloc ? "allocFunc" :
			      !d->free ? "freeFunc" :
			      !d->addr ? "getAddrFromBlockFunc" : NULL;

	if (missing)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "allocatorDesc->%s is NULL", missing);
	return ACL_SUCCESS;
}

/* The registration of @stream (lock held), as the link pointing at it. */
static struct acl_allocator_reg **acl_reg_find(aclrtStream stream)
{
	struct acl_allocator_reg **pr;

	for (pr = &acl_allocators; *pr; pr = &(*pr)->next)
		if ((*pr)->stream == stream)
			break;
	return pr;
}

ACL_FUNC_VISIBILITY aclError aclrtAllocatorRegister(aclrtStream stream,
						    aclrtAllocatorDesc allocatorDesc)
{
	struct acl_allocator_reg **pr, *r;
	aclError ret;

	ACL_ENTER();
	if (!stream || !allocatorDesc)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "stream=%p allocatorDesc=%p: neither may be NULL",
			       stream, allocatorDesc);
	ret = acl_desc_complete(allocatorDesc);
	if (ret)
		return ret;
	pthread_mutex_lock(&acl_allocators_lock);
	pr = acl_reg_find(stream);
	r = *pr ? *pr : calloc(1, sizeof(*r));
	if (r) {
		r->stream = stream;
		r->handle = allocatorDesc;
		r->copy = *(const struct acl_allocator_desc *)allocatorDesc;
		*pr = r;
	}
	pthread_mutex_unlock(&acl_allocators_lock);
	if (!r)
		return acl_err(ACL_ERROR_BAD_ALLOC,
			       "no memory for a registration");
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError
aclrtAllocatorGetByStream(aclrtStream stream, aclrtAllocatorDesc *allocatorDesc,
			  aclrtAllocator *allocator,
			  aclrtAllocatorAllocFunc *allocFunc,
			  aclrtAllocatorFreeFunc *freeFunc,
			  aclrtAllocatorAllocAdviseFunc *allocAdviseFunc,
			  aclrtAllocatorGetAddrFromBlockFunc *getAddrFromBlockFunc)
{
	struct acl_allocator_reg *r;

	ACL_ENTER();
	if (!allocatorDesc || !stream)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "allocatorDesc=%p stream=%p: neither may be NULL",
			       (void *)allocatorDesc, stream);
	pthread_mutex_lock(&acl_allocators_lock);
	r = *acl_reg_find(stream);
	if (r) {
		*allocatorDesc = r->handle;
		if (allocator)
			*allocator = r->copy.obj;
		if (allocFunc)
			*allocFunc = r->copy.alloc;
		if (freeFunc)
			*freeFunc = r->copy.free;
		if (allocAdviseFunc)
			*allocAdviseFunc = r->copy.advise;
		if (getAddrFromBlockFunc)
			*getAddrFromBlockFunc = r->copy.addr;
	}
	pthread_mutex_unlock(&acl_allocators_lock);
	if (!r)
		return acl_err(ACL_ERROR_INVALID_PARAM,
			       "stream=%p is not registered with any allocator",
			       stream);
	return ACL_SUCCESS;
}

ACL_FUNC_VISIBILITY aclError aclrtAllocatorUnregister(aclrtStream stream)
{
	struct acl_allocator_reg **pr, *r;

	ACL_ENTER();
	if (!stream)
		return acl_err(ACL_ERROR_INVALID_PARAM, "stream is NULL");
	pthread_mutex_lock(&acl_allocators_lock);
	pr = acl_reg_find(stream);
	r = *pr;
	if (r)
		*pr = r->next;
	pthread_mutex_unlock(&acl_allocators_lock);
	free(r);
	return ACL_SUCCESS;
}
