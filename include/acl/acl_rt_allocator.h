/* SPDX-License-Identifier: MIT */
/*
 * acl_rt_allocator.h - user-allocator hooks of the acl runtime.
 *
 * CANN's acl_rt.h includes this header. It holds the callback types an
 * application's allocator provides (CANN's names and signatures); the
 * aclrtAllocator* handle types come from acl_base.h; the descriptor and
 * registration calls are CANN's (lib/acl_allocator.c).
 */
#ifndef ACL_ACL_RT_ALLOCATOR_H
#define ACL_ACL_RT_ALLOCATOR_H

#include "acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Return a block of at least @size bytes (an aclrtAllocatorBlock). */
typedef void *(*aclrtAllocatorAllocFunc)(aclrtAllocator allocator,
					 size_t size);
/* Give @block back to @allocator. */
typedef void (*aclrtAllocatorFreeFunc)(aclrtAllocator allocator,
				       aclrtAllocatorBlock block);
/* As the alloc callback, preferring the address @addr. */
typedef void *(*aclrtAllocatorAllocAdviseFunc)(aclrtAllocator allocator,
					       size_t size,
					       aclrtAllocatorAddr addr);
/* Device address of the memory behind @block. */
typedef void *(*aclrtAllocatorGetAddrFromBlockFunc)(aclrtAllocatorBlock block);

/* A new, empty allocator descriptor, or NULL. */
ACL_FUNC_VISIBILITY aclrtAllocatorDesc aclrtAllocatorCreateDesc(void);
ACL_FUNC_VISIBILITY aclError
aclrtAllocatorDestroyDesc(aclrtAllocatorDesc allocatorDesc);
/* The setters: the allocator object and its callbacks. */
ACL_FUNC_VISIBILITY aclError
aclrtAllocatorSetObjToDesc(aclrtAllocatorDesc allocatorDesc,
			   aclrtAllocator allocator);
ACL_FUNC_VISIBILITY aclError
aclrtAllocatorSetAllocFuncToDesc(aclrtAllocatorDesc allocatorDesc,
				 aclrtAllocatorAllocFunc func);
ACL_FUNC_VISIBILITY aclError
aclrtAllocatorSetFreeFuncToDesc(aclrtAllocatorDesc allocatorDesc,
				aclrtAllocatorFreeFunc func);
ACL_FUNC_VISIBILITY aclError
aclrtAllocatorSetAllocAdviseFuncToDesc(aclrtAllocatorDesc allocatorDesc,
				       aclrtAllocatorAllocAdviseFunc func);
ACL_FUNC_VISIBILITY aclError
aclrtAllocatorSetGetAddrFromBlockFuncToDesc(aclrtAllocatorDesc allocatorDesc,
					    aclrtAllocatorGetAddrFromBlockFunc func);
/* Register the descriptor (its callbacks as now) for @stream. */
ACL_FUNC_VISIBILITY aclError aclrtAllocatorRegister(aclrtStream stream,
						    aclrtAllocatorDesc allocatorDesc);
/* What was registered for @stream; any output but @allocatorDesc may be NULL. */
ACL_FUNC_VISIBILITY aclError
aclrtAllocatorGetByStream(aclrtStream stream, aclrtAllocatorDesc *allocatorDesc,
			  aclrtAllocator *allocator,
			  aclrtAllocatorAllocFunc *allocFunc,
			  aclrtAllocatorFreeFunc *freeFunc,
			  aclrtAllocatorAllocAdviseFunc *allocAdviseFunc,
			  aclrtAllocatorGetAddrFromBlockFunc *getAddrFromBlockFunc);
ACL_FUNC_VISIBILITY aclError aclrtAllocatorUnregister(aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* ACL_ACL_RT_ALLOCATOR_H */
