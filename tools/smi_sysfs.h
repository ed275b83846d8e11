/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * npu-smi: reading the NPUs from sysfs (the bus device of each NPU's DRM
 * node) and their users from /proc. Only world-readable files are needed,
 * so no root: without it, the usage of other users' processes is unknown.
 */
#ifndef SMI_SYSFS_H
#define SMI_SYSFS_H

#include "smi.h"

/*
 * Fill sys from sysfs and procfs mounted at sysroot and procroot ("/sys"
 * and "/proc"; unit tests pass a fake tree).
 * Return: 0; -ENODEV when there is no NPU (module not loaded);
 * another -errno when an attribute cannot be read.
 * NPUs whose index exceeds SMI_MAX_INDEX are left out.
 */
int smi_collect(const char *sysroot, const char *procroot,
		struct smi_system *sys);
void smi_system_free(struct smi_system *sys);

/* The NPU with that index, or NULL. */
struct smi_npu *smi_find(struct smi_system *sys, int index);

/*
 * Parse a space-separated list of non-negative integers ("3 17").
 * Return: how many were stored (at most max), or -EINVAL.
 */
int smi_parse_ints(const char *s, int *vals, int max);

#endif /* SMI_SYSFS_H */
