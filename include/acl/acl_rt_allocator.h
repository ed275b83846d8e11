/* SPDX-License-Identifier: MIT */
/*
 * acl_rt_allocator.h - user-allocator hooks of the acl runtime.
 *
 * CANN's acl_rt.h includes this header. The allocator registration API is
 * not implemented by this runtime yet, so only the include of acl_base.h
 * (which provides the aclrtAllocator* handle types) is reproduced.
 */
#ifndef ACL_ACL_RT_ALLOCATOR_H
#define ACL_ACL_RT_ALLOCATOR_H

#include "acl_base.h"

#endif /* ACL_ACL_RT_ALLOCATOR_H */
