/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Shared bits of the VM tests (run inside the guest by runtests.sh).
 */
#ifndef T_VM_H
#define T_VM_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>

#include "t_util.h"

#define T_EXIT_SKIP 77

/* The module file and the arguments npu-vm loaded it with. */
static inline const char *t_ko(void)
{
	const char *ko = getenv("NPU_DMA_KO");

	return ko ? ko : "kernel/npu_dma.ko";
}

static inline const char *t_default_args(void)
{
	const char *args = getenv("NPU_DMA_MODULE_ARGS");

	return args ? args : "nr_sim=2";
}

/* Run a suite with a generous per-test timeout (TCG is slow). */
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

#endif /* T_VM_H */
