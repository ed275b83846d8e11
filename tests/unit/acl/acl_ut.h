/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Shared bits of the libacl unit tests.
 */
#ifndef ACL_UT_H
#define ACL_UT_H

#include <check.h>
#include <string.h>

#include "acl/acl.h"

/* The recent error message mentions @needle (reading it clears it). */
static inline void msg_has(const char *needle)
{
	const char *m = aclGetRecentErrMsg();

	ck_assert_msg(m && strstr(m, needle), "\"%s\" lacks \"%s\"",
		      m ? m : "(null)", needle);
}

#endif /* ACL_UT_H */
