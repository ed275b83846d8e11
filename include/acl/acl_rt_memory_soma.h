/* SPDX-License-Identifier: MIT */
/*
 * acl_rt_memory_soma.h - stream-ordered memory pools of the acl runtime.
 *
 * Same file name and include list as CANN's. It holds the pool handle,
 * attribute and property types with CANN's names, values and layout; the
 * aclrtMemPool* calls are declared only once the library exports them.
 */
#ifndef ACL_ACL_RT_MEMORY_SOMA_H
#define ACL_ACL_RT_MEMORY_SOMA_H

#include <stddef.h>
#include "acl_base.h"
#include "acl/acl_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A pool of device memory handed out and returned in stream order. */
typedef void *aclrtMemPool;

/*
 * Pool attributes: three reuse policies, the release threshold, then the
 * reserved and used byte counts (current and high-water mark).
 */
typedef enum aclrtMemPoolAttr {
	ACL_RT_MEM_POOL_REUSE_FOLLOW_EVENT_DEPENDENCIES = 0x1,
	ACL_RT_MEM_POOL_REUSE_ALLOW_OPPORTUNISTIC = 0x2,
	ACL_RT_MEM_POOL_REUSE_ALLOW_INTERNAL_DEPENDENCIES = 0x3,
	ACL_RT_MEM_POOL_ATTR_RELEASE_THRESHOLD = 0x4,
	ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_CURRENT = 0x5,
	ACL_RT_MEM_POOL_ATTR_RESERVED_MEM_HIGH = 0x6,
	ACL_RT_MEM_POOL_ATTR_USED_MEM_CURRENT = 0x7,
	ACL_RT_MEM_POOL_ATTR_USED_MEM_HIGH = 0x8
} aclrtMemPoolAttr;

/* How a pool is created: where its memory lives and at most how much. */
typedef struct {
	aclrtMemAllocationType allocType;
	aclrtMemHandleType handleType;
	aclrtMemLocation location;
	size_t maxSize;			/* bytes */
	unsigned char reserved[32];	/* must be zero */
} aclrtMemPoolProps;

#ifdef __cplusplus
}
#endif

#endif /* ACL_ACL_RT_MEMORY_SOMA_H */
