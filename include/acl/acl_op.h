/* SPDX-License-Identifier: MIT */
/*
 * acl_op.h - placeholder for CANN's single-operator API.
 *
 * CANN's acl.h includes this header; the operator API itself ships in
 * another CANN package and is not part of this runtime, so this header only
 * pulls in acl_base.h. It exists so that CANN programs compile unchanged.
 */
#ifndef ACL_ACL_OP_H
#define ACL_ACL_OP_H

#include "acl_base.h"

#endif /* ACL_ACL_OP_H */
