/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The one way test programs run their Check suite, and the one way a
 * test says it skipped.
 *
 * Check has no skip of its own: a test whose precondition is absent (no
 * sim NPU, no edu, no second NPU, a feature the kernel lacks) calls
 * T_SKIP_UNLESS() or t_skip(), which prints "SKIP: <reason>" and counts
 * it in memory shared with Check's forked test processes. t_run_suite()
 * then prints "Skips: N of M" after Check's summary and exits 77 (the
 * runners' skip) when every test skipped, so that a guest without the
 * devices does not show all green.
 */
#ifndef T_CHECK_H
#define T_CHECK_H

#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

#define T_EXIT_SKIP 77

/* Skips so far, shared with the forked tests: one per binary (weak). */
__attribute__((weak)) volatile unsigned int *t_skips;

/* The running test skipped (or a part of it did): say why, count it. */
static inline __attribute__((format(printf, 1, 2))) void t_skip(const char *fmt, ...)
{
	va_list ap;

	printf("SKIP: ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (t_skips)
		__atomic_add_fetch(t_skips, 1, __ATOMIC_RELAXED);
}

/* End the running test as a skip unless @cond holds. */
#define T_SKIP_UNLESS(cond, ...)			\
	do {						\
		if (!(cond)) {				\
			t_skip(__VA_ARGS__);		\
			return;				\
		}					\
	} while (0)

/*
 * Run a suite; exit status 1 if a test failed, else 77 if every test
 * skipped, else 0 (with "Skips: N of M" printed when some did).
 */
static inline int t_run_suite(Suite *s)
{
	SRunner *sr = srunner_create(s);
	int failed, run;
	unsigned int skipped;

	/* Line-buffered: a test killed by a timeout still shows its output. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	t_skips = mmap(NULL, sizeof(*t_skips), PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (t_skips == MAP_FAILED)
		t_skips = NULL;
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	run = srunner_ntests_run(sr);
	srunner_free(sr);
	skipped = t_skips ? *t_skips : 0;
	if (skipped)
		printf("Skips: %u of %d\n", skipped, run);
	if (failed)
		return EXIT_FAILURE;
	return run && skipped >= (unsigned int)run ? T_EXIT_SKIP : EXIT_SUCCESS;
}

#endif /* T_CHECK_H */
