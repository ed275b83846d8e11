/* SPDX-License-Identifier: MIT */
/*
 * acl_rt_memory_soma.h - stream-ordered memory pools of the acl runtime.
 *
 * Same file name and include list as CANN's. It holds the pool handle,
 * attribute and property types and the aclrtMemPool* calls with CANN's
 * names, values, layout and prototypes (lib/acl_mempool.c).
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

/* A pool of device memory on poolProps->location.id. */
ACL_FUNC_VISIBILITY aclError aclrtMemPoolCreate(aclrtMemPool *memPool,
						const aclrtMemPoolProps *poolProps);
/* Destroy a pool none of whose allocations is outstanding. */
ACL_FUNC_VISIBILITY aclError aclrtMemPoolDestroy(const aclrtMemPool memPool);
/* Set @attr from *@value (uint32_t for the reuse switches, else uint64_t). */
ACL_FUNC_VISIBILITY aclError aclrtMemPoolSetAttr(aclrtMemPool memPool,
						 aclrtMemPoolAttr attr,
						 void *value);
/* Read @attr into *@value (types as for aclrtMemPoolSetAttr). */
ACL_FUNC_VISIBILITY aclError aclrtMemPoolGetAttr(aclrtMemPool memPool,
						 aclrtMemPoolAttr attr,
						 void *value);
/* @size bytes of @memPool, in @stream's order. */
ACL_FUNC_VISIBILITY aclError aclrtMemPoolMallocAsync(void **ptr, size_t size,
						     aclrtMemPool memPool,
						     aclrtStream stream);
/* Give @ptr back to its pool once @stream's earlier work is done. */
ACL_FUNC_VISIBILITY aclError aclrtMemPoolFreeAsync(void *ptr,
						   aclrtStream stream);
/* Release idle memory while at least @minBytesToKeep bytes stay. */
ACL_FUNC_VISIBILITY aclError aclrtMemPoolTrimTo(aclrtMemPool memPool,
						size_t minBytesToKeep);

#ifdef __cplusplus
}
#endif

#endif /* ACL_ACL_RT_MEMORY_SOMA_H */
