/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Shared bits of the VM tests (run inside the guest by runtests.sh).
 */
#ifndef T_VM_H
#define T_VM_H

#include <stdlib.h>

#include "t_check.h"

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

#endif /* T_VM_H */
