/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The one way test programs run their Check suite.
 */
#ifndef T_CHECK_H
#define T_CHECK_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>

/* Run a suite; exit status 0 if every test passed, else 1. */
static inline int t_run_suite(Suite *s)
{
	SRunner *sr = srunner_create(s);
	int failed;

	/* Line-buffered: a test killed by a timeout still shows its output. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif /* T_CHECK_H */
