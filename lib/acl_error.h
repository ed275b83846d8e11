/* SPDX-License-Identifier: MIT */
/*
 * libacl internals: error codes and messages (acl_error.c).
 */
#ifndef ACL_ERROR_H
#define ACL_ERROR_H

#include <stdint.h>

#include "acl/acl.h"

/*
 * Record an error: a message "<api>: <text> (<NAME> <code>)" for
 * aclGetRecentErrMsg(), and, for runtime-layer codes (not 100000), the
 * thread's last error. Return: @code.
 */
aclError acl_err(aclError code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Map a negative errno from the driver to an aclError. */
aclError acl_errno_to_acl(int err);
/* Name of an aclError ("ACL_ERROR_RT_PARAM_INVALID"), or "unknown". */
const char *acl_err_name(aclError code);
/* acl_err() for a driver failure: code from @err, message with strerror. */
aclError acl_err_sys(int err, const char *what);
/* Validate a sync-with-timeout argument: 0 or an error already recorded. */
aclError acl_check_timeout(int32_t timeout, const char *name);

#endif /* ACL_ERROR_H */
