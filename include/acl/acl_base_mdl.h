/* SPDX-License-Identifier: MIT */
/*
 * acl_base_mdl.h - placeholder for the base types of CANN's model API.
 *
 * CANN's acl_base.h includes this header; its contents belong to another
 * CANN package and are not part of this runtime, so it declares nothing
 * (<stddef.h> only keeps it a valid translation unit on its own). It exists
 * so that CANN programs compile unchanged.
 */
#ifndef ACL_ACL_BASE_MDL_H
#define ACL_ACL_BASE_MDL_H

#include <stddef.h>

#endif /* ACL_ACL_BASE_MDL_H */
