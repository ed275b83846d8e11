/* SPDX-License-Identifier: MIT */
/*
 * acl_mdl.h - placeholder for CANN's offline-model API.
 *
 * CANN's acl.h includes this header; the model API ships in another CANN
 * package and is not part of this runtime, so this header only pulls in
 * acl_base.h. The graph-capture API (aclmdlRI*) is declared in acl_rt.h,
 * as in CANN's runtime package.
 */
#ifndef ACL_ACL_MDL_H
#define ACL_ACL_MDL_H

#include "acl_base.h"

#endif /* ACL_ACL_MDL_H */
