/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * npu-smi info: the NPU table and the process table, as boxed text or
 * JSON, for all NPUs (index -1) or one.
 */
#ifndef SMI_INFO_H
#define SMI_INFO_H

#include <stdint.h>
#include <stdio.h>

#include "smi.h"

/* Return: 0, or -ENOMEM. */
int smi_info_text(const struct smi_system *sys, int index, FILE *f);
void smi_info_json(const struct smi_system *sys, int index, FILE *f);

/* Bytes to MiB, rounded up: a 4 KiB allocation shows as 1, not 0. */
uint64_t smi_mib_up(uint64_t bytes);

#endif /* SMI_INFO_H */
