/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Finding NPU N without libdrm, for the tools and the raw-ABI tests: each
 * NPU is a DRM node (/dev/dri/renderD*, or /dev/accel/accel* on kernels
 * with drivers/accel) whose bus device (the PCI function or the sim
 * platform device) carries the driver's sysfs attributes, npu_index
 * among them. libacl enumerates through libdrm instead (lib/acl_kmd.c).
 */
#ifndef NPU_NODE_H
#define NPU_NODE_H

#include <stddef.h>

/**
 * struct npu_node - where one NPU is
 * @index: its npu_index (DRM_IOCTL_NPU_DMA_GET_INFO's index)
 * @node: its device node, "/dev/dri/renderD128" or "/dev/accel/accel0"
 * @sysdir: its bus device's sysfs directory, under the sysroot given
 *	(".../class/drm/renderD128/device"), holding the attributes
 * @minor: name of the DRM minor in sysfs, "renderD128" or "accel0"
 */
struct npu_node {
	int index;
	char node[64];
	char sysdir[512];
	char minor[32];
};

/*
 * Look up NPU @index in sysfs mounted at @sysroot ("/sys"; unit tests
 * pass a fake tree). Return: 0, or -ENOENT when no such NPU is there.
 */
int npu_node_find(const char *sysroot, int index, struct npu_node *n);

/*
 * Every NPU, in index order, into @nodes (at most @max).
 * Return: how many were found (0 when the module is not loaded).
 */
int npu_node_list(const char *sysroot, struct npu_node *nodes, int max);

/* open(2) NPU @index's node with @flags: an fd, or -errno. */
int npu_node_open(int index, int flags);

#endif /* NPU_NODE_H */
