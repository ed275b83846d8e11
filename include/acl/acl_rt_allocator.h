/* SPDX-License-Identifier: MIT */
/*
 * acl_rt_allocator.h - user-allocator hooks of the acl runtime.
 *
 * CANN's acl_rt.h includes this header. It holds the callback types an
 * application's allocator provides (CANN's names and signatures); the
 * aclrtAllocator* handle types come from acl_base.h. The registration
 * calls themselves are declared only once the library exports them.
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

#ifdef __cplusplus
}
#endif

#endif /* ACL_ACL_RT_ALLOCATOR_H */
