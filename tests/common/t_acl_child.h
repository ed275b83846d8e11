/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A forked child of a libacl test reports by exit status: the number of
 * the step that failed (its message on stderr), 0 when all went well.
 * Check's assertions belong to the test's own process.
 */
#ifndef T_ACL_CHILD_H
#define T_ACL_CHILD_H

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "acl/acl.h"

/* 0 if @got is @want with a message holding @needle (if any), else @step. */
static inline int t_child_expect(aclError got, aclError want,
				 const char *needle, int step)
{
	const char *m = got ? aclGetRecentErrMsg() : NULL;

	if (got == want && (!needle || (m && strstr(m, needle))))
		return 0;
	fprintf(stderr, "child %d, step %d: got %d, want %d (%s)\n", getpid(),
		step, got, want, m ? m : "no message");
	return step;
}

/* In a function returning the step: return it if @call is not @want. */
#define EXPECT(call, want, needle, step)				\
	do {								\
		int _s = t_child_expect((call), (want), (needle), (step)); \
		if (_s)							\
			return _s;					\
	} while (0)
#define OK(call, step) EXPECT(call, ACL_SUCCESS, NULL, step)

#endif /* T_ACL_CHILD_H */
