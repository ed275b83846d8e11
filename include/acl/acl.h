/* SPDX-License-Identifier: MIT */
/*
 * acl.h - the one header CANN programs include: #include "acl/acl.h",
 * compiled with -I<prefix>/include. Same include list as CANN's acl.h.
 */
#ifndef ACL_ACL_H
#define ACL_ACL_H

#include "acl_rt.h"
#include "acl_op.h"
#include "acl_mdl.h"

#endif /* ACL_ACL_H */
