/* SPDX-License-Identifier: MIT */
/*
 * acl_base.h - umbrella for the acl base types and all error codes.
 *
 * Same include list as CANN's acl_base.h. The "acl/..." names resolve
 * through -I<prefix>/include, the "error_codes/..." names relative to this
 * directory.
 */
#ifndef ACL_ACL_BASE_H
#define ACL_ACL_BASE_H

#include "acl/acl_base_rt.h"
#include "acl/acl_base_mdl.h"
#include "error_codes/rt_error_codes.h"
#include "error_codes/ge_error_codes.h"

#endif /* ACL_ACL_BASE_H */
