/* SPDX-License-Identifier: MIT */
/*
 * ge_error_codes.h - placeholder for the graph-engine error codes.
 *
 * CANN's acl_base.h includes this header, but the graph engine is not part
 * of this runtime, so it defines nothing (<stddef.h> only keeps it a valid
 * translation unit on its own). It exists so that CANN programs that
 * include acl/acl.h (or this file directly) compile unchanged.
 */
#ifndef ACL_ERROR_CODES_GE_ERROR_CODES_H
#define ACL_ERROR_CODES_GE_ERROR_CODES_H

#include <stddef.h>

#endif /* ACL_ERROR_CODES_GE_ERROR_CODES_H */
